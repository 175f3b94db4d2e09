//! An event as a sentence in the reader's language: the same messages the tablets word their
//! lists with (`table-event-*` of `pages.ftl` for Friedrich, `record-event-*` of
//! `andes-table.ftl` for Andes), so the jury's timeline reads like the table's list. Built from
//! the event's canonical JSON, as the scripts do: names (nations, roles, sides, outcomes, piece
//! types) worded by the catalogue, table times as `h:mm:ss`.

use super::name;
use crate::i18n::Lang;
use fluent_bundle::FluentValue;
use ledger::andes::{AndesEvent, Move};
use ledger::Event;
use serde_json::Value;

/// `event` as one sentence.
pub fn sentence(lang: Lang, event: &Event) -> String {
    match event {
        Event::Andes(andes) => andes_sentence(lang, andes),
        other => friedrich_sentence(lang, other),
    }
}

/// The name of an event's type (`the start of a turn`), for a list's column.
pub fn type_name(lang: Lang, event: &Event) -> String {
    match event {
        Event::Andes(andes) => name(lang, "record-event-name", andes.type_name()),
        other => name(lang, "table-event-name", other.type_name()),
    }
}

/// A table time (`at_ms`) as `h:mm:ss`, as the tablets show it.
pub fn hms(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}

fn friedrich_sentence(lang: Lang, event: &Event) -> String {
    let json = ledger::event::to_canonical_json(event);
    let Value::Object(fields) = json else { return lang.t("table-event-unknown") };
    let mut args: Vec<(String, FluentValue<'static>)> = Vec::new();
    for (key, value) in &fields {
        let worded = match (key.as_str(), value) {
            ("type", _) => continue,
            ("nation", Value::String(n)) => FluentValue::from(name(lang, "nation", n)),
            ("side", Value::String(s)) => FluentValue::from(name(lang, "side", s)),
            ("reason", Value::String(r)) if event.type_name() == "clock_stopped" => {
                FluentValue::from(name(lang, "stop", r))
            }
            ("to", Value::String(r)) => FluentValue::from(name(lang, "role", r)),
            ("ruleset", Value::String(r)) => FluentValue::from(name(lang, "ruleset", r)),
            ("outcome", Value::String(o)) => FluentValue::from(name(lang, "outcome", o)),
            ("winners", Value::Array(ws)) => FluentValue::from(
                ws.iter().filter_map(Value::as_str).map(|n| name(lang, "nation", n)).collect::<Vec<_>>().join(", "),
            ),
            ("objectives", Value::Object(held)) => FluentValue::from(
                held.iter()
                    .map(|(n, pair)| {
                        let number = |i: usize| pair.get(i).and_then(Value::as_i64).unwrap_or(0);
                        lang.t_args(
                            "table-event-objectives-of",
                            &[
                                ("nation", name(lang, "nation", n).into()),
                                ("held", number(0).into()),
                                ("total", number(1).into()),
                            ],
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            (_, Value::Number(n)) => match n.as_i64() {
                Some(n) => FluentValue::from(n),
                None => FluentValue::from(n.to_string()),
            },
            (_, Value::String(s)) => FluentValue::from(s.clone()),
            (_, other) => FluentValue::from(other.to_string()),
        };
        args.push((key.clone(), worded));
    }
    if let Some(at) = event.at_ms() {
        args.push(("time".to_owned(), FluentValue::from(hms(at))));
    }
    let id = format!("table-event-{}", event.type_name());
    if !lang.has(&id) {
        return name(lang, "table-event-name", event.type_name());
    }
    let borrowed: Vec<(&str, FluentValue<'_>)> = args.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    lang.t_args(&id, &borrowed)
}

fn andes_sentence(lang: Lang, event: &AndesEvent) -> String {
    let side = |s: &dyn std::fmt::Display| name(lang, "record-side", &s.to_string());
    let kind = |k: &dyn std::fmt::Display| name(lang, "record-kind", &k.to_string());
    match event {
        AndesEvent::MatchCreated { first_sol, first_luna, clock_ms } => lang.t_args(
            "record-event-match_created",
            &[
                ("sol", first_sol.clone().into()),
                ("luna", first_luna.clone().into()),
                ("minutes", (clock_ms / 60_000).into()),
            ],
        ),
        AndesEvent::GameStarted { game, at_ms } => {
            lang.t_args("record-event-game_started", &[("game", (*game).into()), ("time", hms(*at_ms).into())])
        }
        AndesEvent::MovePlayed { notation, at_ms } => {
            let time = hms(*at_ms);
            match Move::parse_written(notation).map(|w| w.mv) {
                Ok(Move::Place { kind: k, square }) => lang.t_args(
                    "record-event-placed",
                    &[("kind", kind(&k).into()), ("square", square.to_string().into()), ("time", time.into())],
                ),
                Ok(Move::Shift { kind: k, from, to }) => lang.t_args(
                    "record-event-moved",
                    &[
                        ("kind", kind(&k).into()),
                        ("from", from.to_string().into()),
                        ("to", to.to_string().into()),
                        ("time", time.into()),
                    ],
                ),
                Err(_) => lang.t_args(
                    "record-event-move_played",
                    &[("notation", notation.clone().into()), ("time", time.into())],
                ),
            }
        }
        AndesEvent::PieceAttacked { square, owner, kind: k } => lang.t_args(
            "record-event-piece_attacked",
            &[("owner", side(owner).into()), ("kind", kind(k).into()), ("square", square.to_string().into())],
        ),
        AndesEvent::PieceCaptured { square, owner, kind: k } => lang.t_args(
            "record-event-piece_captured",
            &[("owner", side(owner).into()), ("kind", kind(k).into()), ("square", square.to_string().into())],
        ),
        AndesEvent::GameEnded { reason, side: s } => lang.t_args(
            "record-event-game_ended",
            &[("reason", name(lang, "record-reason", reason.as_str()).into()), ("side", side(s).into())],
        ),
        AndesEvent::FlagFell { side: s, at_ms } => {
            lang.t_args("record-event-flag_fell", &[("side", side(s).into()), ("time", hms(*at_ms).into())])
        }
        AndesEvent::Resigned { side: s, at_ms } => {
            lang.t_args("record-event-resigned", &[("side", side(s).into()), ("time", hms(*at_ms).into())])
        }
    }
}
