//! Stateless checks: what makes an event malformed whatever the game (INVALID_ARGUMENT).

use super::{DrawnGame, Event, Seats};
use crate::names::Nation;
use crate::rejection::{Arg, Rejection};
use std::borrow::Cow;

/// Bohemia has 14 objectives (spec §3, docs/RULES.md).
pub const BOHEMIAN_OBJECTIVES: i32 = 14;

/// The most tactical cards one nation is dealt in one turn: Prussia's 7, the largest deal of
/// the Friedrich rules of play (Prussia 7, Austria 5, Russia and France 4, Hanover 2, Sweden
/// and the Imperial Army 1); the Cards of Fate only lower a deal. More is a mistyped count (70
/// for 7), which would skew the TC coefficients until the jury voided it.
pub const MAX_TC_PER_DEAL: i32 = 7;

/// The longest free text, in characters: a jury's reason or ruling (about a page).
pub const MAX_TEXT_CHARS: usize = 2_000;
/// The longest name, id or label, in characters: names, pseudonyms, player and game ids, the
/// tournament a game names, a lot's purpose, a Card of Fate.
pub const MAX_NAME_CHARS: usize = 200;

/// The latest table time an event may carry, in milliseconds: 2^53 − 1, the largest whole
/// number a tablet's JavaScript clock holds exactly (some 285,000 years of Unix time). A time
/// past it could not be shown or answered by the tablets, and the table clock only moves on.
pub const MAX_AT_MS: u64 = (1 << 53) - 1;

pub(super) fn check(event: &Event) -> Result<(), Rejection> {
    each_string(event, &mut check_string)?;
    if let Some(at) = event.at_ms().filter(|at| *at > MAX_AT_MS) {
        return Err(Rejection::malformed(format!(
            "at_ms {at} is past any table clock: at most {MAX_AT_MS} (2^53 - 1) milliseconds"
        ))
        .said("refusal-at-ms-too-large", [("at_ms", at.into()), ("max", MAX_AT_MS.into())]));
    }
    if event.corrected_turn() == Some(0) {
        return Err(Rejection::malformed("turns start at 1").said("refusal-turn-zero", []));
    }
    match event {
        Event::TournamentCreated { clock_ms_per_side: Some(0), .. } => {
            Err(Rejection::malformed("clock_ms_per_side must be more than 0").said("refusal-clock-zero", []))
        }
        Event::TcDealt { count, .. } if *count < 0 => {
            Err(Rejection::malformed(format!("tc_dealt count must not be negative, got {count}"))
                .said("refusal-tc-count-negative", [("count", (*count).into())]))
        }
        Event::TcDealt { count, .. } if *count > MAX_TC_PER_DEAL => Err(Rejection::malformed(format!(
            "tc_dealt count {count} is more than a nation is dealt in one turn: at most {MAX_TC_PER_DEAL}"
        ))
        .said("refusal-tc-count-above-deal", [("count", (*count).into()), ("max", MAX_TC_PER_DEAL.into())])),
        Event::NationDroppedOut { objectives_held, objectives_total, .. }
        | Event::ImperialArmySwitched { objectives_held, objectives_total, .. } => {
            objectives(None, *objectives_held, *objectives_total)
        }
        Event::OffensiveLaunched { set_aside_tc, .. } if *set_aside_tc < 1 => Err(Rejection::malformed(format!(
            "set_aside_tc is the value of a tactical card, at least 1, got {set_aside_tc}"
        ))
        .said("refusal-set-aside-tc-below-one", [("value", (*set_aside_tc).into())])),
        Event::AustriaClaimedObjectives { count } if *count < 0 => {
            Err(Rejection::malformed(format!("austria_claimed_objectives count must not be negative, got {count}"))
                .said("refusal-austria-count-negative", [("count", (*count).into())]))
        }
        Event::OffensiveCalledOff { bohemian_held_by_prussia, .. } => bohemian(*bohemian_held_by_prussia),
        Event::GameEnded { objectives: held, winners, bohemian_held_by_prussia, .. } => {
            for (nation, (h, t)) in held {
                if !nation.is_attacking() {
                    return Err(Rejection::malformed(format!(
                        "objectives are reported for attacking nations only, not {nation}"
                    ))
                    .said("refusal-objectives-not-attacking", [("nation", Arg::name("nation", nation))]));
                }
                objectives(Some(*nation), *h, *t)?;
            }
            let mut seen: Vec<Nation> = Vec::new();
            for winner in winners {
                if seen.contains(winner) {
                    return Err(Rejection::malformed(format!("{winner} is listed twice among the winners"))
                        .said("refusal-winner-twice", [("nation", Arg::name("nation", winner))]));
                }
                seen.push(*winner);
            }
            bohemian_held_by_prussia.map_or(Ok(()), bohemian)
        }
        Event::FateHorizonRecorded { turn: 0 } => {
            Err(Rejection::malformed("fate horizon turn must be 1 or later").said("refusal-turn-zero", []))
        }
        Event::EventVoided { seq: 0, .. } => {
            Err(Rejection::malformed("event_voided seq starts at 1").said("refusal-seq-zero", []))
        }
        Event::LotDrawn { order, .. } if order.is_empty() => {
            Err(Rejection::malformed("lot_drawn order must name at least one player").said("refusal-lot-empty", []))
        }
        Event::Andes(andes) => andes.check_shape().map_err(Rejection::from),
        // Nothing to check beyond their strings (or their guarded arm above passed).
        crate::tournament_events!()
        | crate::jury_events!()
        | Event::GameStarted { .. }
        | Event::TurnStarted { .. }
        | Event::TcDealt { .. }
        | Event::ClockStarted { .. }
        | Event::ClockPressed { .. }
        | Event::ClockStopped { .. }
        | Event::ActionStageStarted { .. }
        | Event::ActionStageEnded { .. }
        | Event::RetreatStarted { .. }
        | Event::RetreatEnded { .. }
        | Event::FateCardDrawn { .. }
        | Event::OffensiveLaunched { .. }
        | Event::AustriaClaimedObjectives { .. }
        | Event::SetAsideTcPickedUp {}
        | Event::FateHorizonRecorded { .. } => Ok(()),
    }
}

/// One string an event carries, as the shape check sees it.
struct Field<'a> {
    /// `<event type>.<field>` as in the canonical JSON, e.g. `jury_called.reason`,
    /// `game_scheduled.seats.frederick`, `lot_drawn.order[1]`.
    name: Cow<'static, str>,
    value: &'a str,
    max_chars: usize,
    /// Must hold something besides whitespace.
    required: bool,
    /// A jury's reason or ruling may run over several lines (line feeds only).
    lines: bool,
}

/// Free text a person reads: printable, bounded, and not blank where it is required.
fn check_string(field: Field<'_>) -> Result<(), Rejection> {
    let Field { name, value, max_chars, required, lines } = field;
    let mut n_chars = 0usize;
    for c in value.chars() {
        n_chars += 1;
        if c.is_control() && !(lines && c == '\n') {
            return Err(Rejection::malformed(format!(
                "{name} must not contain control characters: found U+{:04X} at character {n_chars}",
                u32::from(c)
            ))
            .said(
                "refusal-control-character",
                [
                    ("field", Arg::name("field", &name)),
                    ("code", Arg::Text(format!("{:04X}", u32::from(c)))),
                    ("position", n_chars.into()),
                ],
            ));
        }
        // Embeddings, overrides and isolates turn the text after them around wherever it is
        // shown (a reason that reads backwards on the jury's screen); the marks U+200E/F stay.
        if matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}') {
            return Err(Rejection::malformed(format!(
                "{name} must not contain characters that change the text's direction: found U+{:04X} at character {n_chars}",
                u32::from(c)
            ))
            .said(
                "refusal-direction-character",
                [
                    ("field", Arg::name("field", &name)),
                    ("code", Arg::Text(format!("{:04X}", u32::from(c)))),
                    ("position", n_chars.into()),
                ],
            ));
        }
    }
    if n_chars > max_chars {
        return Err(Rejection::malformed(format!(
            "{name} is {n_chars} characters long; at most {max_chars} are allowed"
        ))
        .said(
            "refusal-too-long",
            [("field", Arg::name("field", &name)), ("length", n_chars.into()), ("max", max_chars.into())],
        ));
    }
    if required && value.trim().is_empty() {
        return Err(Rejection::malformed(format!("{name} must not be blank"))
            .said("refusal-blank", [("field", Arg::name("field", &name))]));
    }
    Ok(())
}

fn text<'a>(name: &'static str, value: &'a str) -> Field<'a> {
    Field { name: Cow::Borrowed(name), value, max_chars: MAX_TEXT_CHARS, required: true, lines: true }
}

fn name<'a>(name: impl Into<Cow<'static, str>>, value: &'a str, required: bool) -> Field<'a> {
    Field { name: name.into(), value, max_chars: MAX_NAME_CHARS, required, lines: false }
}

/// Calls `check` on every string of `event`. Every pattern names every field (no `..`), so a
/// new variant or field does not compile until it is listed here.
fn each_string<'a>(
    event: &'a Event,
    check: &mut impl FnMut(Field<'a>) -> Result<(), Rejection>,
) -> Result<(), Rejection> {
    match event {
        Event::TournamentCreated { name: title, ruleset: _, clock_ms_per_side: _ } => {
            check(name("tournament_created.name", title, true))
        }
        Event::PlayerRegistered { player, name: full_name, pseudonym } => {
            check(name("player_registered.player", player, true))?;
            check(name("player_registered.name", full_name, true))?;
            pseudonym.as_deref().map_or(Ok(()), |p| check(name("player_registered.pseudonym", p, false)))
        }
        Event::QualifyingDrawn { seed: _, games } => {
            for (idx, DrawnGame { game, round: _, table: _, seats: seated }) in games.iter().enumerate() {
                check(name(format!("qualifying_drawn.games[{idx}].game"), game, false))?;
                seats(&format!("qualifying_drawn.games[{idx}]"), seated, check)?;
            }
            Ok(())
        }
        Event::GameScheduled { game, stage: _, round: _, table: _, seats: seated } => {
            check(name("game_scheduled.game", game, false))?;
            seats("game_scheduled", seated, check)
        }
        Event::FinalRoleChosen { player, role: _ } => check(name("final_role_chosen.player", player, false)),
        Event::LotDrawn { purpose, seed: _, order } => {
            check(name("lot_drawn.purpose", purpose, true))?;
            for (idx, player) in order.iter().enumerate() {
                check(name(format!("lot_drawn.order[{idx}]"), player, false))?;
            }
            Ok(())
        }
        Event::StandInRegistered { player, name: full_name } => {
            check(name("stand_in_registered.player", player, true))?;
            check(name("stand_in_registered.name", full_name, true))
        }
        Event::PlayerWithdrew { player, from_round: _, stand_in } => {
            check(name("player_withdrew.player", player, true))?;
            stand_in.as_deref().map_or(Ok(()), |s| check(name("player_withdrew.stand_in", s, true)))
        }
        Event::PlayerUnregistered { player } => check(name("player_unregistered.player", player, true)),
        Event::GameStarted { at_ms: _, ruleset: _, tournament } => {
            tournament.as_deref().map_or(Ok(()), |t| check(name("game_started.tournament", t, false)))
        }
        Event::FateCardDrawn { card } => check(name("fate_card_drawn.card", card, false)),
        Event::JuryCalled { reason } => check(text("jury_called.reason", reason)),
        Event::JuryRuling { text: ruling } => check(text("jury_ruling.text", ruling)),
        Event::EventVoided { seq: _, reason } => check(text("event_voided.reason", reason)),
        // Players (1–64 printable characters) and the notation are checked, each with its
        // article, by `AndesEvent::check_shape`.
        Event::Andes(_) => Ok(()),
        Event::TurnStarted { turn: _, at_ms: _ }
        | Event::ClockStarted { side: _, at_ms: _ }
        | Event::ClockStopped { reason: _, at_ms: _ }
        | Event::ActionStageStarted { nation: _, at_ms: _ }
        | Event::ActionStageEnded { nation: _, at_ms: _ }
        | Event::ClockPressed { at_ms: _ }
        | Event::RetreatStarted { length: _, at_ms: _ }
        | Event::RetreatEnded { at_ms: _ }
        | Event::TcDealt { nation: _, count: _ }
        | Event::NationDroppedOut { nation: _, objectives_held: _, objectives_total: _, turn: _ }
        | Event::ImperialArmySwitched { to: _, objectives_held: _, objectives_total: _, turn: _ }
        | Event::OffensiveLaunched { set_aside_tc: _, turn: _ }
        | Event::AustriaClaimedObjectives { count: _ }
        | Event::SetAsideTcPickedUp {}
        | Event::OffensiveCalledOff { bohemian_held_by_prussia: _, turn: _ }
        | Event::GameEnded { outcome: _, winners: _, objectives: _, bohemian_held_by_prussia: _ }
        | Event::FateHorizonRecorded { turn: _ } => Ok(()),
    }
}

fn seats<'a>(
    prefix: &str,
    seats: &'a Seats,
    check: &mut impl FnMut(Field<'a>) -> Result<(), Rejection>,
) -> Result<(), Rejection> {
    let Seats { frederick, elisabeth, maria_theresa, pompadour } = seats;
    for (role, player) in
        [("frederick", frederick), ("elisabeth", elisabeth), ("maria_theresa", maria_theresa), ("pompadour", pompadour)]
    {
        check(name(format!("{prefix}.seats.{role}"), player, false))?;
    }
    Ok(())
}

fn objectives(nation: Option<Nation>, held: i32, total: i32) -> Result<(), Rejection> {
    let prefix = nation.map(|n| format!("{n}: ")).unwrap_or_default();
    let with_nation = |id_alone: &'static str, id_of_nation: &'static str, mut args: Vec<(&'static str, Arg)>| {
        let mut reason = crate::rejection::Reason::new(nation.map_or(id_alone, |_| id_of_nation));
        if let Some(n) = nation {
            args.push(("nation", Arg::name("nation", n)));
        }
        reason.args = args;
        reason
    };
    if total <= 0 {
        return Err(Rejection::malformed(format!("{prefix}objectives total must be more than 0, got {total}"))
            .because(with_nation(
                "refusal-objectives-total",
                "refusal-nation-objectives-total",
                vec![("total", total.into())],
            )));
    }
    if held < 0 || held > total {
        return Err(Rejection::malformed(format!(
            "{prefix}objectives held must be between 0 and the total {total}, got {held}"
        ))
        .because(with_nation(
            "refusal-objectives-held",
            "refusal-nation-objectives-held",
            vec![("held", held.into()), ("total", total.into())],
        )));
    }
    Ok(())
}

fn bohemian(held: i32) -> Result<(), Rejection> {
    if !(0..=BOHEMIAN_OBJECTIVES).contains(&held) {
        return Err(Rejection::malformed(format!(
            "bohemian_held_by_prussia must be between 0 and {BOHEMIAN_OBJECTIVES}, got {held}"
        ))
        .said("refusal-bohemian-range", [("held", held.into()), ("max", BOHEMIAN_OBJECTIVES.into())]));
    }
    Ok(())
}
