//! The tablets' copies of the ledger's event schema, held to `ledger::event::schema`: which events
//! carry the table's clock (`TIMED`: the tablet stamps them with the table time), which an Andes
//! table records (`RECORDED`: the rest the ledger derives), which may name a corrected turn
//! (`correctedTurn`) and which fields are numbers (`TABLE_EVENTS`' `u32`, `u64` and `i32`). The
//! differential tests compare decisions on the events they generate; these compare the lists
//! themselves, so a new timed or numeric event fails here until the tablet knows it.

use ledger::access::{permits, Clearance};
use ledger::event::schema::{event_types, EventType};
use ledger::event::Family;

const TABLE_RULES: &str = include_str!("assets/table-rules.js");
const ANDES_RULES: &str = include_str!("assets/andes-rules.js");

/// The quoted names of the array declared as `declaration` (`var TIMED = [`) in a script.
fn js_names(script: &str, declaration: &str) -> Vec<String> {
    let (_, rest) = script.split_once(declaration).unwrap_or_else(|| panic!("no `{declaration}` in the script"));
    let (list, _) = rest.split_once(']').expect("the array ends");
    list.split('"').skip(1).step_by(2).map(str::to_owned).collect()
}

/// `TABLE_EVENTS` of table-rules.js: each event's fields declared as `u32`, `u64` or `i32`.
fn js_numbers(script: &str) -> Vec<(String, Vec<String>)> {
    let (_, rest) = script.split_once("var TABLE_EVENTS = {").expect("table-rules.js declares TABLE_EVENTS");
    let (table, _) = rest.split_once("\n  };").expect("TABLE_EVENTS ends");
    let mut events: Vec<(String, Vec<String>)> = Vec::new();
    for line in table.lines() {
        if let Some((name, _)) = line.trim().split_once(": [") {
            events.push((name.to_owned(), Vec::new()));
        }
        for field in line.split("f(\"").skip(1) {
            let (name, kind) = field.split_once("\", ").expect("f(name, type)");
            if ["\"u32\"", "\"u64\"", "\"i32\""].iter().any(|number| kind.starts_with(number)) {
                events.last_mut().expect("a field belongs to an event").1.push(name.to_owned());
            }
        }
    }
    events
}

fn names(keep: impl Fn(&EventType) -> bool) -> Vec<String> {
    event_types().iter().filter(|t| keep(t)).map(|t| t.name.to_owned()).collect()
}

#[test]
fn the_table_stamps_the_events_the_ledger_times() {
    assert_eq!(js_names(TABLE_RULES, "var TIMED = ["), names(|t| t.family == Family::Game && t.timed));
    assert_eq!(js_names(ANDES_RULES, "const TIMED = ["), names(|t| t.family == Family::Andes && t.timed));
}

#[test]
fn the_table_reads_a_corrected_turn_where_the_ledger_does() {
    let (_, body) = TABLE_RULES.split_once("function correctedTurn(event)").expect("table-rules.js has correctedTurn");
    let (cases, _) = body.split_once("default:").expect("its switch has a default");
    let named: Vec<String> =
        cases.split("case \"").skip(1).filter_map(|c| c.split_once('"')).map(|(n, _)| n.to_owned()).collect();
    assert_eq!(named, names(|t| matches!(t.family, Family::Game | Family::Jury) && t.corrects_turn));
}

#[test]
fn the_andes_table_records_what_a_table_may_and_the_ledger_does_not_derive() {
    let recorded = names(|t| t.family == Family::Andes && permits(Clearance::Table, "table", &t.example).is_ok());
    assert_eq!(js_names(ANDES_RULES, "const RECORDED = ["), recorded);
}

#[test]
fn the_table_reads_as_numbers_the_fields_the_ledger_writes_as_numbers() {
    let table = js_numbers(TABLE_RULES);
    assert!(table.len() > 10, "{table:?}");
    for (name, numbers) in table {
        let ledger = event_types()
            .into_iter()
            .find(|t| t.name == name && matches!(t.family, Family::Game | Family::Jury))
            .unwrap_or_else(|| panic!("table-rules.js decides {name}, which is no game or jury event"));
        assert_eq!(numbers, ledger.numbers, "the numbers of {name}");
    }
}
