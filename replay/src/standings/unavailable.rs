//! Why a tie-breaker has no value for a player, as a typed reason. `replay` prints it in its
//! one English text (`unavailable: no frederick game has ended`, byte for byte what the
//! standings' JSON and text always said); a reader in another language gets the variant back
//! from that text with [`Unavailable::parse`] and words it itself, so no output changes.

use crate::sheet::NoStcc;
use ledger::Ruleset;
use std::fmt;

/// What every unavailable tie-breaker's display starts with.
pub const PREFIX: &str = "unavailable: ";

/// Why a tie-breaker is unavailable for a player.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Unavailable {
    /// The second-best sum or the points not used: no Elisabeth or Maria Theresa game ended.
    NoElisabethOrMariaTheresaGameEnded,
    /// A tie-breaker of the Frederick game, and the player has none that ended.
    NoFrederickGameEnded,
    /// The attackers' spread: the Frederick game has no attacker scores.
    NoAttackerScores,
    /// The lot: none drawn with this player in it.
    NoLotDrawn,
    /// The player's Frederick game gives no coefficient.
    GameNotScorable { game: String, why: NotScorable },
}

/// Why a game gives no TCC or sTCC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NotScorable {
    /// No TCC: no tactical card was dealt to an attacking nation.
    NoTacticalCard,
    /// No sTCC, for the sheet's reason.
    Stcc(NoStcc),
}

impl fmt::Display for NotScorable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotScorable::NoTacticalCard => f.write_str("no tactical card was dealt to an attacking nation"),
            NotScorable::Stcc(why) => why.fmt(f),
        }
    }
}

impl fmt::Display for Unavailable {
    /// The reason as `replay` has always printed it, after [`PREFIX`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unavailable::NoElisabethOrMariaTheresaGameEnded => {
                f.write_str("no elisabeth or maria_theresa game has ended")
            }
            Unavailable::NoFrederickGameEnded => f.write_str("no frederick game has ended"),
            Unavailable::NoAttackerScores => f.write_str("the frederick game has no attacker scores"),
            Unavailable::NoLotDrawn => f.write_str("no lot drawn"),
            Unavailable::GameNotScorable { game, why } => write!(f, "game {game}: {why}"),
        }
    }
}

impl Unavailable {
    /// The whole display of an unavailable tie-breaker: [`PREFIX`] and the reason.
    pub fn display(&self) -> String {
        format!("{PREFIX}{self}")
    }

    /// The reason a display (`unavailable: …`, as in the standings' JSON) gives, or `None`
    /// for a value. The inverse of [`Unavailable::display`].
    pub fn parse(display: &str) -> Option<Unavailable> {
        let reason = display.strip_prefix(PREFIX)?;
        let fixed = [
            Unavailable::NoElisabethOrMariaTheresaGameEnded,
            Unavailable::NoFrederickGameEnded,
            Unavailable::NoAttackerScores,
            Unavailable::NoLotDrawn,
        ];
        if let Some(found) = fixed.into_iter().find(|u| u.to_string() == reason) {
            return Some(found);
        }
        let (game, why) = reason.strip_prefix("game ")?.split_once(": ")?;
        let reasons = NoStcc::FIXED
            .into_iter()
            .chain(Ruleset::ALL.iter().map(|r| NoStcc::NotInRuleset(*r)))
            .map(NotScorable::Stcc)
            .chain([NotScorable::NoTacticalCard]);
        let why = reasons.into_iter().find(|w| w.to_string() == why)?;
        Some(Unavailable::GameNotScorable { game: game.to_owned(), why })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_reads_back_from_its_display() {
        let mut all = vec![
            Unavailable::NoElisabethOrMariaTheresaGameEnded,
            Unavailable::NoFrederickGameEnded,
            Unavailable::NoAttackerScores,
            Unavailable::NoLotDrawn,
        ];
        let whys = NoStcc::FIXED
            .into_iter()
            .chain(Ruleset::ALL.iter().map(|r| NoStcc::NotInRuleset(*r)))
            .map(NotScorable::Stcc)
            .chain([NotScorable::NoTacticalCard]);
        all.extend(whys.map(|why| Unavailable::GameNotScorable { game: "q3-t1".into(), why }));
        for reason in all {
            assert_eq!(Unavailable::parse(&reason.display()), Some(reason.clone()), "{reason}");
        }
        // The texts replay always printed.
        assert_eq!(
            Unavailable::NoElisabethOrMariaTheresaGameEnded.display(),
            "unavailable: no elisabeth or maria_theresa game has ended"
        );
        let tcc = Unavailable::GameNotScorable { game: "q1-t2".into(), why: NotScorable::NoTacticalCard };
        assert_eq!(tcc.display(), "unavailable: game q1-t2: no tactical card was dealt to an attacking nation");
        // A value, or a text no reason gives, is no reason.
        assert_eq!(Unavailable::parse("0.654 (game q3-t1)"), None);
        assert_eq!(Unavailable::parse("unavailable: game q1: the moon is full"), None);
    }
}
