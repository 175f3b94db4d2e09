//! The table page's controls: the chess clock's buttons and stops, the stopwatch's stages and
//! retreats, and the entry forms for the events of play — each offered only when the ledger's
//! own rules (`StreamState::decide`) would take it now, with every choice (a nation, a side)
//! tried the same way. And the other direction: a posted form back into a canonical event.

use super::game::Game;
use super::layout::{esc, hms};
use super::PageError;
use ledger::rules::Offensive;
use ledger::{ClockSide, Event, Nation, Outcome, Role, Ruleset, StopReason};
use replay::clock::ClockView;
use serde_json::{json, Map, Value};

/// Events whose `at_ms` the page fills with the table time when they are sent.
const TIMED: &[&str] = &[
    "game_started",
    "turn_started",
    "clock_started",
    "clock_pressed",
    "clock_stopped",
    "action_stage_started",
    "action_stage_ended",
    "retreat_started",
    "retreat_ended",
];

/// Fields that are whole numbers in the canonical JSON.
const NUMBERS: &[&str] = &[
    "at_ms",
    "turn",
    "count",
    "objectives_held",
    "objectives_total",
    "set_aside_tc",
    "bohemian_held_by_prussia",
    "length",
];

pub(crate) fn is_timed(event_type: &str) -> bool {
    TIMED.contains(&event_type)
}

fn event(value: Value) -> Option<Event> {
    ledger::event::from_canonical_json(&value).ok()
}

/// A form that appends one event: `fields` is its inner HTML; `label` the button.
fn form(version: u64, game: &Game, action: &str, fields: &str, label: &str, class: &str) -> String {
    format!(
        "<form class=\"act {class}\" method=\"post\" action=\"/table/{id}/act\" data-action=\"{action}\">\
         <input type=\"hidden\" name=\"version\" value=\"{version}\">\
         <input type=\"hidden\" name=\"action\" value=\"{action}\">{fields}\
         <button type=\"submit\" id=\"do-{action}\">{label}</button></form>",
        id = esc(game.id.id()),
    )
}

fn options<T: Copy>(items: &[T], name: impl Fn(T) -> &'static str, allowed: impl Fn(T) -> bool) -> String {
    items
        .iter()
        .filter(|item| allowed(**item))
        .map(|item| format!("<option value=\"{0}\">{1}</option>", name(*item), name(*item).replace('_', " ")))
        .collect()
}

fn number(name: &str, label: &str, min: i64, max: Option<i64>, value: Option<i64>) -> String {
    let max = max.map(|m| format!(" max=\"{m}\"")).unwrap_or_default();
    let value = value.map(|v| format!(" value=\"{v}\"")).unwrap_or_default();
    format!(
        "<label>{label} <input type=\"number\" inputmode=\"numeric\" name=\"e.{name}\" id=\"f-{name}\" min=\"{min}\"{max}{value} required></label>"
    )
}

/// The chess clock: two large buttons and the stops the rules allow.
pub(crate) fn clock_controls(game: &Game, clock: Option<&ClockView>, now_ms: u64, may_record: bool) -> String {
    let version = game.version();
    let running = game.rules().and_then(|r| r.clock_running);
    let mut out = String::from("<div class=\"chess-clock\" id=\"chess-clock\">");
    for side in [ClockSide::Prussia, ClockSide::Attackers] {
        let label = match side {
            ClockSide::Prussia => "Prussia",
            ClockSide::Attackers => "Attackers",
        };
        let view = clock.map(|c| c.side(side));
        let remaining = view.map_or(0, |v| v.remaining_ms);
        let is_running = running == Some(side);
        let time = format!(
            "<span class=\"clock\" id=\"clock-{side}\" data-ms=\"{remaining}\"{ticking}>{shown}</span>",
            side = side.as_str(),
            ticking = if is_running { " data-running=\"down\"" } else { "" },
            shown = hms(remaining),
        );
        let ran_out =
            view.and_then(|v| v.ran_out).map_or(String::new(), |_| "<span class=\"flag\">time ran out</span>".into());
        // A running side hands over with `clock_pressed`; a stopped clock starts for the side tapped.
        let (action, extra) = if is_running {
            ("clock_pressed", String::new())
        } else {
            ("clock_started", format!("<input type=\"hidden\" name=\"e.side\" value=\"{}\">", side.as_str()))
        };
        let candidate = if is_running {
            event(json!({"type": "clock_pressed", "at_ms": now_ms}))
        } else {
            event(json!({"type": "clock_started", "side": side.as_str(), "at_ms": now_ms}))
        };
        let enabled = may_record && candidate.is_some_and(|e| game.allows(&e));
        let class = format!("side {}{}", side.as_str(), if is_running { " running" } else { "" });
        let button = format!(
            "<button type=\"submit\" class=\"{class}\" id=\"press-{side}\" data-side=\"{side}\"{disabled}>\
             <span class=\"name\">{label}</span>{time}{ran_out}<span class=\"hint\">{hint}</span></button>",
            side = side.as_str(),
            disabled = if enabled { "" } else { " disabled" },
            hint = if is_running {
                "tap to hand over"
            } else if enabled {
                "tap to start"
            } else {
                ""
            },
        );
        out.push_str(&format!(
            "<form class=\"act clock-side\" method=\"post\" action=\"/table/{id}/act\" data-action=\"{action}\">\
             <input type=\"hidden\" name=\"version\" value=\"{version}\">\
             <input type=\"hidden\" name=\"action\" value=\"{action}\">{extra}{button}</form>",
            id = esc(game.id.id()),
        ));
    }
    out.push_str("</div>");
    if may_record {
        let stops: String = StopReason::ALL
            .iter()
            .filter(|reason| {
                event(json!({"type": "clock_stopped", "reason": reason.as_str(), "at_ms": now_ms}))
                    .is_some_and(|e| game.allows(&e))
            })
            .map(|reason| {
                form(
                    version,
                    game,
                    "clock_stopped",
                    &format!("<input type=\"hidden\" name=\"e.reason\" value=\"{}\">", reason.as_str()),
                    &format!("Stop: {}", reason.as_str().replace('_', " ")),
                    &format!("stop stop-{}", reason.as_str()),
                )
            })
            .collect();
        if !stops.is_empty() {
            out.push_str(&format!("<div class=\"stops\" id=\"stops\">{stops}</div>"));
        }
    }
    if let Some(clock) = clock {
        out.push_str(&clock_summary(clock));
    }
    out
}

/// The stopwatch and the time the clock stood still.
fn clock_summary(clock: &ClockView) -> String {
    let mut out = String::new();
    if let Some(reason) = clock.stopped_for {
        out.push_str(&format!("<p class=\"stopped\">Clock stopped: {}</p>", reason.as_str().replace('_', " ")));
    }
    for watch in &clock.stopwatch {
        let who = watch.nation.map_or_else(|| watch.side.as_str().to_owned(), |n| n.as_str().replace('_', " "));
        out.push_str(&format!(
            "<p class=\"stopwatch\">Stopwatch ({who}): <span class=\"clock\" data-ms=\"{left}\" data-running=\"down\">{shown}</span> \
             left of {allowance}{over}</p>",
            left = watch.left_ms,
            shown = hms(watch.left_ms),
            allowance = hms(watch.allowance_ms + watch.transferred_ms),
            over = if watch.overrun_ms > 0 { format!(", <strong>over by {}</strong>", hms(watch.overrun_ms)) } else { String::new() },
        ));
    }
    out
}

/// The entry forms the rules allow now.
pub(crate) fn entry_forms(game: &Game, now_ms: u64) -> String {
    let version = game.version();
    let Some(rules) = game.rules() else { return String::new() };
    let allows = |value: Value| event(value).is_some_and(|e| game.allows(&e));
    let mut out = Vec::new();
    if !rules.started {
        let rulesets = if projections_scheduled(game) {
            String::new()
        } else {
            format!(
                "<label>Ruleset <select name=\"e.ruleset\" id=\"f-ruleset\">{}</select></label>",
                options(Ruleset::ALL, Ruleset::as_str, |_| true)
            )
        };
        out.push(form(version, game, "game_started", &rulesets, "Start the game", "wide"));
    }
    let next_turn = rules.turn + 1;
    if allows(json!({"type": "turn_started", "turn": next_turn, "at_ms": now_ms})) {
        let fields = format!("<input type=\"hidden\" name=\"e.turn\" value=\"{next_turn}\">");
        out.push(form(version, game, "turn_started", &fields, &format!("Start turn {next_turn}"), "wide"));
    }
    // The stopwatch: action stages and retreats.
    let stage_nations =
        |n: Nation| allows(json!({"type": "action_stage_started", "nation": n.as_str(), "at_ms": now_ms}));
    if Nation::ALL.iter().any(|n| stage_nations(*n)) {
        let fields = format!(
            "<label>Nation <select name=\"e.nation\" id=\"f-stage-nation\">{}</select></label>",
            options(Nation::ALL, Nation::as_str, stage_nations)
        );
        out.push(form(version, game, "action_stage_started", &fields, "Start action stage", ""));
    }
    if let Some(open) = rules.action_stage {
        let fields = format!("<input type=\"hidden\" name=\"e.nation\" value=\"{}\">", open.as_str());
        out.push(form(
            version,
            game,
            "action_stage_ended",
            &fields,
            &format!("End {}'s action stage", open.as_str().replace('_', " ")),
            "",
        ));
    }
    if allows(json!({"type": "retreat_started", "length": 1, "at_ms": now_ms})) {
        out.push(form(
            version,
            game,
            "retreat_started",
            &number("length", "Retreat length", 0, None, Some(1)),
            "Start retreat",
            "",
        ));
    }
    if allows(json!({"type": "retreat_ended", "at_ms": now_ms})) {
        out.push(form(version, game, "retreat_ended", "", "End retreat", ""));
    }
    let dealt_to = |n: Nation| allows(json!({"type": "tc_dealt", "nation": n.as_str(), "count": 0}));
    if Nation::ALL.iter().any(|n| dealt_to(*n)) {
        let fields = format!(
            "<label>Nation <select name=\"e.nation\" id=\"f-tc-nation\">{}</select></label>{}",
            options(Nation::ALL, Nation::as_str, dealt_to),
            number("count", "Cards", 0, None, None)
        );
        out.push(form(version, game, "tc_dealt", &fields, "Record TCs dealt", ""));
    }
    let drops = |n: Nation| {
        allows(
            json!({"type": "nation_dropped_out", "nation": n.as_str(), "objectives_held": 0, "objectives_total": 10}),
        )
    };
    if Nation::ALL.iter().any(|n| drops(*n)) {
        let fields = format!(
            "<label>Nation <select name=\"e.nation\" id=\"f-drop-nation\">{}</select></label>{}{}",
            options(Nation::ALL, Nation::as_str, drops),
            number("objectives_held", "Objectives held", 0, None, None),
            number("objectives_total", "of", 1, None, None),
        );
        out.push(form(version, game, "nation_dropped_out", &fields, "Record drop-out", ""));
    }
    let switches = |r: Role| {
        allows(json!({"type": "imperial_army_switched", "to": r.as_str(), "objectives_held": 0, "objectives_total": 5}))
    };
    if Role::ALL.iter().any(|r| switches(*r)) {
        let fields = format!(
            "<label>To <select name=\"e.to\" id=\"f-ia-to\">{}</select></label>{}{}",
            options(Role::ALL, Role::as_str, switches),
            number("objectives_held", "Objectives held", 0, None, None),
            number("objectives_total", "of", 1, None, Some(5)),
        );
        out.push(form(version, game, "imperial_army_switched", &fields, "Switch the Imperial Army", ""));
    }
    if allows(json!({"type": "offensive_launched", "set_aside_tc": 13})) {
        let fields = number("set_aside_tc", "Tactical card set aside (value)", 1, None, None);
        out.push(form(version, game, "offensive_launched", &fields, "Launch the offensive", ""));
    }
    if allows(json!({"type": "austria_claimed_objectives", "count": 4})) {
        let fields = number("count", "Objectives Austria claims", 0, None, Some(4));
        out.push(form(version, game, "austria_claimed_objectives", &fields, "Record Austria's claim", ""));
    }
    if allows(json!({"type": "set_aside_tc_picked_up"})) {
        out.push(form(version, game, "set_aside_tc_picked_up", "", "Austria picks up the set-aside TC", ""));
    }
    if allows(json!({"type": "offensive_called_off", "bohemian_held_by_prussia": 0})) {
        let fields = number("bohemian_held_by_prussia", "Bohemian objectives Prussia holds", 0, Some(14), None);
        out.push(form(version, game, "offensive_called_off", &fields, "Call off the offensive", ""));
    }
    if rules.started && rules.ended.is_none() && rules.turn >= 1 {
        out.push(game_end_form(game, rules));
    }
    if rules.started && allows(json!({"type": "jury_called", "reason": "x"})) {
        let fields = "<label>Reason <input name=\"e.reason\" id=\"f-jury-reason\" maxlength=\"2000\" required></label>";
        out.push(form(version, game, "jury_called", fields, "Call the jury", ""));
    }
    out.into_iter().map(|f| format!("<div class=\"entry\">{f}</div>")).collect()
}

fn projections_scheduled(game: &Game) -> bool {
    crate::projections::scheduled_ruleset(&game.streams, game.id.id()).is_some()
}

/// `game_ended`: the outcomes, winners and objectives of the nations still in the game.
fn game_end_form(game: &Game, rules: &ledger::rules::GameState) -> String {
    let active = matches!(rules.offensive, Offensive::Active { .. });
    let outcomes = options(Outcome::ALL, Outcome::as_str, |o| active || o != Outcome::PrussianOffensiveVictory);
    let attacking: Vec<Nation> = Nation::ALL
        .iter()
        .copied()
        .filter(|n| !matches!(n, Nation::Prussia | Nation::Hanover) && !rules.out.contains_key(n))
        .collect();
    let winners: String = std::iter::once(Nation::Prussia)
        .chain(attacking.iter().copied())
        .map(|n| {
            format!(
                "<label class=\"check\"><input type=\"checkbox\" name=\"e.winners\" value=\"{0}\">{1}</label>",
                n.as_str(),
                n.as_str().replace('_', " ")
            )
        })
        .collect();
    let objectives: String = attacking
        .iter()
        .map(|n| {
            format!(
                "<fieldset class=\"objectives\"><legend>{label}</legend>\
                 <input type=\"number\" inputmode=\"numeric\" name=\"obj.{n}.held\" min=\"0\" required aria-label=\"{label} held\"> of \
                 <input type=\"number\" inputmode=\"numeric\" name=\"obj.{n}.total\" min=\"1\" required aria-label=\"{label} total\"></fieldset>",
                n = n.as_str(),
                label = n.as_str().replace('_', " "),
            )
        })
        .collect();
    let bohemian = if active {
        number("bohemian_held_by_prussia", "Bohemian objectives Prussia holds", 0, Some(14), None)
    } else {
        String::new()
    };
    let fields = format!(
        "<label>Outcome <select name=\"e.outcome\" id=\"f-outcome\">{outcomes}</select></label>\
         <div class=\"winners\">Winners {winners}</div>{objectives}{bohemian}"
    );
    form(game.version(), game, "game_ended", &fields, "End the game", "wide")
}

/// A posted form as a canonical event: `e.<field>` fields (numbers where the event has
/// numbers, `e.winners` repeated into a list), `obj.<nation>.held|total` into `objectives`.
///
/// # Errors
/// A number that is not one, or an event the ledger's JSON cannot read (`INVALID_ARGUMENT`,
/// worded like `ledgerctl`'s line errors).
pub(crate) fn event_from_form(action: &str, fields: &[(String, String)]) -> Result<Event, PageError> {
    let mut map = Map::new();
    map.insert("type".into(), Value::String(action.to_owned()));
    let mut objectives: std::collections::BTreeMap<String, [Option<i64>; 2]> = Default::default();
    let whole = |name: &str, text: &str| -> Result<i64, PageError> {
        text.trim().parse::<i64>().map_err(|_| {
            PageError::bad_request(format!(
                "INVALID_ARGUMENT: {action}.{name} must be a whole number, got `{}`",
                ledger::rejection::quote(text)
            ))
        })
    };
    for (key, value) in fields {
        if let Some(name) = key.strip_prefix("e.") {
            if value.trim().is_empty() {
                continue;
            }
            if name == "winners" {
                let list = map.entry("winners").or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(items) = list {
                    items.push(Value::String(value.clone()));
                }
            } else if NUMBERS.contains(&name) {
                if name == "at_ms" || name == "turn" || name == "length" {
                    let n = whole(name, value)?;
                    let n = u64::try_from(n).map_err(|_| {
                        PageError::bad_request(format!("INVALID_ARGUMENT: {action}.{name} must not be negative"))
                    })?;
                    map.insert(name.to_owned(), json!(n));
                } else {
                    map.insert(name.to_owned(), json!(whole(name, value)?));
                }
            } else {
                map.insert(name.to_owned(), Value::String(value.clone()));
            }
        } else if let Some(rest) = key.strip_prefix("obj.") {
            let Some((nation, part)) = rest.rsplit_once('.') else { continue };
            let slot = objectives.entry(nation.to_owned()).or_default();
            match part {
                "held" => slot[0] = Some(whole(&format!("objectives.{nation}"), value)?),
                "total" => slot[1] = Some(whole(&format!("objectives.{nation}"), value)?),
                _ => {}
            }
        }
    }
    if action == "game_ended" {
        map.entry("winners").or_insert_with(|| Value::Array(Vec::new()));
        let mut objects = Map::new();
        for (nation, [held, total]) in objectives {
            if let (Some(held), Some(total)) = (held, total) {
                objects.insert(nation, json!([held, total]));
            }
        }
        map.insert("objectives".into(), Value::Object(objects));
    }
    ledger::event::from_canonical_json(&Value::Object(map))
        .map_err(|e| PageError::bad_request(format!("INVALID_ARGUMENT: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn forms_become_canonical_events() {
        let tc = event_from_form("tc_dealt", &fields(&[("e.nation", "prussia"), ("e.count", "7")])).unwrap();
        assert_eq!(ledger::event::to_canonical_json(&tc), json!({"type": "tc_dealt", "nation": "prussia", "count": 7}));
        let end = event_from_form(
            "game_ended",
            &fields(&[
                ("e.outcome", "allied_victory"),
                ("e.winners", "russia"),
                ("e.winners", "france"),
                ("obj.russia.held", "10"),
                ("obj.russia.total", "10"),
                ("obj.france.held", "9"),
                ("obj.france.total", "10"),
            ]),
        )
        .unwrap();
        let json = ledger::event::to_canonical_json(&end);
        assert_eq!(json["winners"], json!(["russia", "france"]));
        assert_eq!(json["objectives"]["france"], json!([9, 10]));
        let refused =
            event_from_form("tc_dealt", &fields(&[("e.nation", "prussia"), ("e.count", "seven")])).unwrap_err();
        assert_eq!(refused.message, "INVALID_ARGUMENT: tc_dealt.count must be a whole number, got `seven`");
    }
}
