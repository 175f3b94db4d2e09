//! The plain-text face of an [`AuditPoint`], for a jury at the table: the event, the voids
//! known so far (struck through), where the game stands, every nation, the offensive, the
//! clocks and the score sheet with its explanation lines.

use super::point::{AuditPoint, OffensiveStatus, StateView};
use super::text::{event_text, table_time_text};
use crate::clock::{ClockView, SideView, Timed};
use ledger::ClockSide;
use std::fmt;

impl fmt::Display for AuditPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let time = self
            .table_time_ms
            .map_or_else(|| "no table time yet".to_owned(), |ms| format!("table time {}", table_time_text(ms)));
        writeln!(f, "After event #{} ({time}): {}", self.seq, event_text(&self.event))?;
        if let Some(asked) = self.asked_at_ms {
            writeln!(f, "  as of table time {}", table_time_text(asked))?;
        }
        if !self.voids.is_empty() {
            writeln!(f, "Voided by the jury so far:")?;
            for void in &self.voids {
                writeln!(
                    f,
                    "  ~~#{} {}~~ voided by #{}: {}",
                    void.seq,
                    event_text(&void.event),
                    void.void_seq,
                    void.reason
                )?;
            }
        }
        write_state(f, &self.state)?;
        for (nation, view) in &self.state.nations {
            let status = match view.out_in_turn {
                Some(turn) => format!("out in turn {turn}"),
                None => "in game".to_owned(),
            };
            let tc = self.tc_dealt.get(nation).copied().unwrap_or(0);
            writeln!(f, "  {:<14}{status:<17}{:<14}TC dealt {tc}", nation.as_str(), view.controller.as_str())?;
        }
        if let Some(clock) = &self.clock {
            write_clock(f, clock)?;
        }
        match &self.sheet {
            Some(sheet) => write!(f, "{sheet}"),
            None => writeln!(f, "No score sheet: the game has not started."),
        }
    }
}

fn write_state(f: &mut fmt::Formatter<'_>, state: &StateView) -> fmt::Result {
    let ruleset = state.ruleset.map_or_else(|| "no ruleset yet".to_owned(), |r| r.to_string());
    let standing = match (state.started, state.ended) {
        (false, _) => "not started".to_owned(),
        (true, Some(ended)) => format!("ended in turn {}: {}", ended.turn, ended.outcome),
        (true, None) if state.turn == 0 => "started, no turn yet".to_owned(),
        (true, None) => format!("turn {}, in progress", state.turn),
    };
    writeln!(f, "Game: {ruleset}, {standing}")?;
    let mut offensive = match state.offensive.status {
        OffensiveStatus::NotLaunched => "not launched".to_owned(),
        OffensiveStatus::Active { since_turn } => format!("active since turn {since_turn}"),
        OffensiveStatus::CalledOff { launched_in, called_off_in } => {
            format!("launched in turn {launched_in}, called off in turn {called_off_in}")
        }
    };
    if state.offensive.austria_claimed {
        offensive.push_str("; austria claimed her objectives");
    }
    if state.offensive.set_aside_picked_up {
        offensive.push_str("; set-aside card picked up");
    }
    writeln!(f, "Imperial Army: {}", state.imperial_army)?;
    writeln!(f, "Prussian offensive: {offensive}")?;
    let stage = state.action_stage.map_or_else(|| "none".to_owned(), |n| n.to_string());
    let retreat = if state.retreat_open { "under way" } else { "none" };
    writeln!(f, "Action stage open: {stage}; retreat: {retreat}")?;
    writeln!(f, "Nations:")
}

fn write_clock(f: &mut fmt::Formatter<'_>, clock: &ClockView) -> fmt::Result {
    let running = match (clock.running, clock.stopped_for) {
        (Some(side), _) => format!("{side} running"),
        (None, Some(reason)) => format!("stopped ({reason})"),
        (None, None) => "not running".to_owned(),
    };
    let side = |name: ClockSide, view: &SideView| {
        let mut text = format!("{name} {} left", table_time_text(view.remaining_ms));
        if let Some(out) = view.ran_out {
            text.push_str(&format!(" (on the stopwatch since turn {}, {})", out.turn, table_time_text(out.at_ms)));
        }
        text
    };
    writeln!(
        f,
        "Clock: {running}; {}, {}",
        side(ClockSide::Prussia, &clock.prussia),
        side(ClockSide::Attackers, &clock.attackers)
    )?;
    for watch in &clock.stopwatch {
        let what = watch.nation.map_or_else(|| "retreat".to_owned(), |n| n.to_string());
        writeln!(
            f,
            "  stopwatch: {what}, {} used of {}",
            table_time_text(watch.used_ms),
            table_time_text(watch.allowance_ms + watch.transferred_ms)
        )?;
    }
    for overrun in &clock.overruns {
        let what = match overrun.timed {
            Timed::ActionStage => "action stage",
            Timed::Retreat => "retreat",
        };
        let nation = overrun.nation.map_or_else(|| overrun.side.to_string(), |n| n.to_string());
        writeln!(
            f,
            "  overrun: {nation} {what} in turn {} by {} (event #{})",
            overrun.turn,
            table_time_text(overrun.overrun_ms),
            overrun.seq
        )?;
    }
    Ok(())
}
