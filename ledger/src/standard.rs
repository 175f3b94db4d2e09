//! What a table can take as given at the start of a turn or when a nation leaves, so that the
//! tablet offers it in one tap instead of asking for it: each nation's standard deal of tactical
//! cards and each attacking nation's usual count of objectives. The ledger never decides with
//! these (a Card of Fate lowers a deal; a table may report other totals): they are defaults the
//! table confirms or changes. The tablet gets them from the ledger's view of the game
//! (`TableView`), never from a copy of its own, and the ledger's bound on a deal
//! ([`crate::event::MAX_TC_PER_DEAL`]) is the largest of them.

use crate::names::Nation;

/// The tactical cards a nation is dealt each turn by the Friedrich rules of play, whatever the
/// tournament's ruleset and the turn (the tournament texts refer to the rules of play; the
/// Friedrich FAQ: "Prussia receives 7 TC per turn, Hanover 2, and Austria 5, unless reduced by
/// certain Cards of Fate"; Russia and France 4, Sweden and the Imperial Army 1). The Cards of
/// Fate only lower a deal, so the table edits the nation a card names.
pub fn standard_deal(nation: Nation) -> i32 {
    match nation {
        Nation::Prussia => 7,
        Nation::Hanover => 2,
        Nation::Russia | Nation::France => 4,
        Nation::Sweden | Nation::ImperialArmy => 1,
        Nation::Austria => 5,
    }
}

/// The objectives an attacking nation counts its share from, as the rulebooks' worked example
/// reports them (CAFE 2019 and CAFE 2023, "Prussian defensive victory": Russia 7 of 10, Sweden
/// 2 of 5, Austria 11 of 12, France 9 of 10, the Imperial Army 3 of 5); `None` for Prussia and
/// Hanover, which report none. Only a default for the table's forms: the texts' other examples
/// give other totals (the Imperial Army "of 10", Austria "of 16" with her claim), so the table
/// may change it and the ledger records what the table reports.
pub fn objectives_total(nation: Nation) -> Option<i32> {
    match nation {
        Nation::Prussia | Nation::Hanover => None,
        Nation::Russia | Nation::France => Some(10),
        Nation::Sweden | Nation::ImperialArmy => Some(5),
        Nation::Austria => Some(12),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::MAX_TC_PER_DEAL;

    #[test]
    fn the_bound_on_a_deal_is_the_largest_standard_deal() {
        let largest = Nation::ALL.iter().map(|&n| standard_deal(n)).max();
        assert_eq!(largest, Some(MAX_TC_PER_DEAL));
        assert!(Nation::ALL.iter().all(|&n| standard_deal(n) >= 1));
    }

    #[test]
    fn only_attacking_nations_count_objectives() {
        for &nation in Nation::ALL {
            assert_eq!(objectives_total(nation).is_some(), nation.is_attacking(), "{nation}");
        }
    }
}
