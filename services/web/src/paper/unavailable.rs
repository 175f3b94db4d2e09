//! Why a tie-breaker is unavailable, in the reader's language, on the printed standings.
//! `replay` prints the reason in English inside the standings' JSON (`unavailable: no
//! frederick game has ended`), which must stay byte-identical for `ledgerctl` and the golden
//! tests; the page reads the typed reason back from that text (`replay::standings::Unavailable`)
//! and words it from paper.ftl, with the role names of rules.ftl. (The board shows only the
//! tie-breakers that have a value, so it never needs this.)

use crate::i18n::Lang;
use replay::sheet::NoStcc;
use replay::standings::{NotScorable, Unavailable};

/// The display of a tie-breaker (`replay`'s `TieBreakValue::display`) worded in `lang` when it
/// says why the value is unavailable; `None` for a value.
#[cfg(test)]
pub(crate) fn reason(lang: Lang, display: &str) -> Option<String> {
    Unavailable::parse(display).map(|why| said(lang, &why))
}

fn said(lang: Lang, why: &Unavailable) -> String {
    let role = |r: &str| lang.t(&format!("role-{r}"));
    let id = |name: &str| format!("paper-tb-why-{name}");
    let text = match why {
        Unavailable::NoElisabethOrMariaTheresaGameEnded => lang.t_args(
            &id("no-attacking-game"),
            &[("elisabeth", role("elisabeth").into()), ("maria_theresa", role("maria_theresa").into())],
        ),
        Unavailable::NoFrederickGameEnded => {
            lang.t_args(&id("no-frederick-game"), &[("frederick", role("frederick").into())])
        }
        Unavailable::NoAttackerScores => {
            lang.t_args(&id("no-attacker-scores"), &[("frederick", role("frederick").into())])
        }
        Unavailable::NoLotDrawn => lang.t(&id("no-lot")),
        Unavailable::GameNotScorable { game, why } => {
            lang.t_args(&id("game"), &[("game", game.clone().into()), ("why", not_scorable(lang, why).into())])
        }
    };
    lang.t_args("paper-tb-unavailable", &[("why", text.into())])
}

/// Why a game gives no value, in `lang`.
fn not_scorable(lang: Lang, why: &NotScorable) -> String {
    let id = |name: &str| format!("paper-tb-why-{name}");
    match why {
        NotScorable::NoTacticalCard => lang.t(&id("no-tactical-card")),
        NotScorable::Stcc(NoStcc::NoTcc) => lang.t(&id("no-tcc")),
        NotScorable::Stcc(NoStcc::NotEnded) => lang.t(&id("not-ended")),
        NotScorable::Stcc(NoStcc::NoFateHorizon) => lang.t(&id("no-fate-horizon")),
        NotScorable::Stcc(NoStcc::NotInRuleset(ruleset)) => {
            lang.t_args(&id("no-stcc-in-ruleset"), &[("ruleset", ruleset.as_str().into())])
        }
    }
}

/// The same reason without the game it names, and that game: the printed standings say each
/// reason once, in a note with every game it holds for, rather than in every row.
pub(crate) fn reason_and_game(lang: Lang, display: &str) -> Option<(String, Option<String>)> {
    Some(match Unavailable::parse(display)? {
        Unavailable::GameNotScorable { game, why } => {
            (lang.t_args("paper-tb-unavailable", &[("why", not_scorable(lang, &why).into())]), Some(game))
        }
        other => (said(lang, &other), None),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_reads_in_each_language() {
        let attacking = "unavailable: no elisabeth or maria_theresa game has ended";
        let es = reason(Lang::Es, attacking).unwrap();
        assert_eq!(es, "no disponible: ninguna partida de Isabel o María Teresa ha terminado");
        let en = reason(Lang::En, attacking).unwrap();
        assert_eq!(en, "unavailable: no Elisabeth or Maria Theresa game has ended");
        let tcc = "unavailable: game q3-t1: no tactical card was dealt to an attacking nation";
        let es = reason(Lang::Es, tcc).unwrap();
        assert_eq!(es, "no disponible: partida q3-t1: no se repartió ninguna carta táctica a una nación atacante");
        // Every reason has its Spanish words (a missing message would show its id).
        for display in [
            "unavailable: no frederick game has ended",
            "unavailable: the frederick game has no attacker scores",
            "unavailable: no lot drawn",
            "unavailable: game q1: there is no TCC",
            "unavailable: game q1: the game has not ended",
            "unavailable: game q1: no fate_horizon_recorded after a game that did not end in a prussian defensive victory",
            "unavailable: game q1: wm2015 uses no sTCC",
        ] {
            let es = reason(Lang::Es, display).unwrap();
            assert!(es.starts_with("no disponible: ") && !es.contains("unavailable") && !es.contains("paper-"), "{es}");
            let en = reason(Lang::En, display).unwrap();
            assert!(en.starts_with("unavailable: ") && !en.contains("paper-"), "{en}");
        }
        // A value is no reason.
        assert_eq!(reason(Lang::Es, "0.654 (game q3-t1)"), None);
        assert_eq!(reason_and_game(Lang::Es, "0.654 (game q3-t1)"), None);
        // The paper's note: the reason once, the game apart.
        let (why, game) = reason_and_game(Lang::Es, tcc).unwrap();
        assert_eq!(why, "no disponible: no se repartió ninguna carta táctica a una nación atacante");
        assert_eq!(game.as_deref(), Some("q3-t1"));
        assert_eq!(reason_and_game(Lang::En, attacking).unwrap().1, None);
    }
}
