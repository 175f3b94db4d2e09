//! The standings' numbers and words as the pages write them: a number rounded as the ruleset
//! shows it, a stand-in and a withdrawal marked, what decided the final, and a tie-breaker's name
//! and value in the reader's language. The board ([`crate::public::board`]), the printed
//! standings ([`crate::paper`]) and the players' pages ([`crate::players`]) share them.

use crate::i18n::Lang;
use crate::layout::esc;
use ledger::Ruleset;
use replay::exact::json_rounded;
use replay::sheet::display_places;
use replay::standings::{FinalDecider, TournamentFacts};
use replay::Rational;

/// A pseudonym as the board shows it: a stand-in (`stand-in 2` in the public standings) by its
/// number in the page's language, marked as a stand-in.
pub(crate) fn shown_player(lang: Lang, facts: &TournamentFacts, player: &str) -> String {
    match facts.stand_ins.iter().position(|(p, _)| p == player) {
        Some(n) => format!("<span class=\"stand-in\">{}</span>", esc(&stand_in_label(lang, n + 1))),
        None => esc(player),
    }
}

/// The `n`th stand-in (from 1, registration order) in `lang`.
pub(crate) fn stand_in_label(lang: Lang, n: usize) -> String {
    lang.t_args("board-stand-in", &[("n", n.into())])
}

/// `text` with every stand-in the public standings name (`stand-in 2`) named in `lang`.
fn stand_ins_named(lang: Lang, text: &str) -> String {
    const STAND_IN: &str = "stand-in ";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(STAND_IN) {
        let after = &rest[at + STAND_IN.len()..];
        let digits = after.find(|c: char| !c.is_ascii_digit()).unwrap_or(after.len());
        out.push_str(&rest[..at]);
        match after[..digits].parse::<usize>() {
            Ok(n) => out.push_str(&stand_in_label(lang, n)),
            Err(_) => out.push_str(STAND_IN),
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

/// The mark beside a player who withdrew from round `from_round` on: the last round played.
pub(crate) fn withdrawn_note(lang: Lang, from_round: u32) -> String {
    let after = lang.t_args("board-withdrawn", &[("after", from_round.saturating_sub(1).into())]);
    format!(" <span class=\"withdrawn-note\">{}</span>", esc(&after))
}

/// A number of the standings as their JSON writes it (rounded to the ruleset's places).
pub(crate) fn shown_number(ruleset: Ruleset, value: Rational) -> String {
    json_rounded(value, display_places(ruleset)).to_string()
}

/// What decided the final, by the name the catalogues give it (`final-decided-<name>`).
pub(crate) fn final_decider_name(decider: FinalDecider) -> &'static str {
    match decider {
        FinalDecider::NotEnded => "not_ended",
        FinalDecider::OnlyWinner => "only_winner",
        FinalDecider::MostWinningNations => "most_winning_nations",
        FinalDecider::FewestQualifyingWins => "fewest_qualifying_wins",
        FinalDecider::CafeRoleOrder => "cafe_role_order",
        FinalDecider::Lot => "lot",
        FinalDecider::Unresolved => "unresolved",
    }
}

/// A tie-breaker's name (`replay`'s `TieBreaker::as_str`) in `lang`.
pub(crate) fn tie_breaker_name(lang: Lang, name: &str) -> String {
    lang.t(&format!("tiebreak-{name}"))
}

/// A tie-breaker's value as `replay` shows it (`13.1 (elisabeth 6.7 + maria_theresa 6.4)`,
/// `0.654 (game q3-t1)`, `σ 1.2 (variance 3/2, game q1-t1)`, `drawn 3`) in `lang`: its few words
/// and the roles it names from the catalogues, its decimals as `lang` writes them. Ids and
/// pseudonyms are capitalised or carry digits, and are left alone.
pub(crate) fn tie_breaker_value(lang: Lang, display: &str) -> String {
    let named = stand_ins_named(lang, display);
    let display = named.as_str();
    let word = |w: &str| match w {
        "frederick" | "elisabeth" | "maria_theresa" | "pompadour" => Some(lang.t(&format!("role-{w}"))),
        "game" | "variance" | "drawn" => Some(lang.t(&format!("board-tb-{w}"))),
        _ => None,
    };
    let mut out = String::with_capacity(display.len());
    let mut rest = display;
    while let Some(start) = rest.find(|c: char| c.is_ascii_lowercase()) {
        let (before, from) = rest.split_at(start);
        out.push_str(before);
        let end = from.find(|c: char| !(c.is_ascii_lowercase() || c == '_')).unwrap_or(from.len());
        let (w, after) = from.split_at(end);
        // A word inside an id (`q3-t1`, `open26`) is part of the id.
        let inside = out.chars().last().is_some_and(|c| c.is_alphanumeric() || c == '-')
            || after.starts_with(|c: char| c.is_alphanumeric() || c == '-');
        match word(w).filter(|_| !inside) {
            Some(said) => out.push_str(&said),
            None => out.push_str(w),
        }
        rest = after;
    }
    out.push_str(rest);
    lang.decimal(&out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tie_breakers_value_reads_in_each_language() {
        let sum = "13.1 (elisabeth 6.7 + maria_theresa 6.4)";
        assert_eq!(tie_breaker_value(Lang::En, sum), "13.1 (Elisabeth 6.7 + Maria Theresa 6.4)");
        assert_eq!(tie_breaker_value(Lang::Es, sum), "13,1 (Isabel 6,7 + María Teresa 6,4)");
        let spread = "σ 1.25 (variance 25/16, game q3-t1)";
        assert_eq!(tie_breaker_value(Lang::Es, spread), "σ 1,25 (varianza 25/16, partida q3-t1)");
        assert_eq!(tie_breaker_value(Lang::Es, "drawn 3"), "n.º 3");
        // Pseudonyms and ids are not words.
        assert_eq!(tie_breaker_value(Lang::Es, "91.2 (Otter, Fox, game-q1)"), "91,2 (Otter, Fox, game-q1)");
        // A stand-in the public standings name, in the page's language.
        assert_eq!(
            tie_breaker_value(Lang::Es, "88.8 (Zorro 3, stand-in 1, Zorro 16)"),
            "88,8 (Zorro 3, suplente 1, Zorro 16)"
        );
    }
}
