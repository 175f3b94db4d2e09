//! Every refusal the rules give has its words in both catalogues: the cases of
//! `ledger::testing::refusal_cases` (every refusal of docs/EVENTS.md and the project's own, the
//! tournament's, the game's and the Andes laws') each carry a reason whose message exists in
//! English and Spanish and formats with the arguments given, and the Spanish sentence is not
//! the English one.

use super::*;
use ledger::testing::refusal_cases;
use ledger::StreamId;

/// The case's refusal, as the ledger gives it.
fn refused(case: &ledger::testing::RefusalCase) -> Rejection {
    let id = StreamId::parse(case.stream).unwrap();
    let text: Vec<String> = case.setup.iter().map(|v| v.to_string()).collect();
    let lines = ledger::check::parse_lines(&text.join("\n")).expect("setup parses");
    let state = ledger::check::check_stream(&id, Some(case.ruleset), &lines)
        .unwrap_or_else(|e| panic!("{}: setup refused: {e}", case.name));
    match ledger::event::from_canonical_json(&case.refused) {
        Ok(event) => state.decide(&event).expect_err(case.name),
        Err(parse) => Rejection::malformed(parse.0.clone()).because(input::of_event(&parse.0)),
    }
}

#[test]
fn every_refusal_of_the_rules_has_words_in_both_languages() {
    let mut missing = Vec::new();
    for case in refusal_cases() {
        let rejection = refused(&case);
        let Some(said) = &rejection.reason else {
            missing.push(format!("{}: no reason for «{}»", case.name, rejection.message));
            continue;
        };
        let en = reason_strict(Lang::En, said);
        let es = reason_strict(Lang::Es, said);
        match (en, es) {
            (Ok(en), Ok(es)) => {
                if en == es && !said.args.is_empty() {
                    missing.push(format!("{}: {} reads the same in both languages: {en}", case.name, said.id));
                }
            }
            (en, es) => missing.push(format!("{}: {} → {en:?} / {es:?}", case.name, said.id)),
        }
    }
    assert!(missing.is_empty(), "{} refusals without words:\n{}", missing.len(), missing.join("\n"));
}

#[test]
fn a_refusal_says_names_not_ids() {
    let reason = Reason::new("refusal-nation-out").arg("nation", Arg::name("nation", "russia")).arg("turn", 11u32);
    assert_eq!(super::reason(Lang::Es, &reason), "Rusia ya salió de la partida en el turno 11");
    assert_eq!(super::reason(Lang::En, &reason), "Russia already dropped out in turn 11");
    let taken = Rejection::precondition("the pseudonym Zorro is already lucia-fernandez's in this tournament")
        .said("refusal-pseudonym-taken", [("pseudonym", "Zorro".into()), ("holder", "Lucía Fernández".into())]);
    assert_eq!(refusal(Lang::Es, &taken), "El seudónimo Zorro ya es de Lucía Fernández en este torneo: elija otro");
    let mut in_batch = taken.in_event(2, 3);
    in_batch.kind = RejectionKind::Precondition;
    assert!(refusal(Lang::Es, &in_batch).starts_with("Evento 2: El seudónimo"));
}

#[test]
fn a_refusal_without_words_is_said_by_its_kind() {
    let bare = Rejection::stale_version("expected game/x at version 3");
    assert_eq!(refusal(Lang::Es, &bare), Lang::Es.t("refusal-stale"));
}
