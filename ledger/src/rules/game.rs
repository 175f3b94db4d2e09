//! The game stream's rules (docs/EVENTS.md, "What the ledger refuses"): turns in order,
//! table time that never goes back, nations in and out, the Prussian offensive, the clock and
//! the end of the game.

use crate::event::Event;
use crate::names::{ClockSide, Nation, Outcome, Role, Ruleset};
use crate::rejection::{Arg, Rejection};

/// The most a game's table clock may move on between two events: a day. A real game pauses
/// for a night at most; a larger leap is a broken or hostile clock.
pub const MAX_TABLE_LEAP_MS: u64 = 24 * 3_600_000;

/// The last turn a game can have. The tournament texts score Frederick half a point a turn "to
/// a maximum of 23/2=11.5 points" (CAFE 2019 and 2023, Frederick's score; WM 2015: "for a
/// maximum of 11.5 P"): a game lasts at most 23 turns, so a `turn_started` past it is a
/// mistyped turn, never a longer game (docs/RULES.md, "Where the texts disagree").
pub const MAX_TURNS: u32 = 23;

/// The earliest turn Maria Theresa may pick up the card Frederick set aside for the offensive:
/// both CAFE texts let her "pick up the tactical card laid aside by Frederick in turn 3", read
/// as "from turn 3 on" (the CAFE 2023 example picks it up in turn 7). WM 2015 names the bonus
/// without a turn and plays the same offensive option, so one reading holds for every ruleset.
pub const SET_ASIDE_EARLIEST_TURN: u32 = 3;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The Prussian offensive option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Offensive {
    #[default]
    NotLaunched,
    Active {
        launched_in: u32,
    },
    CalledOff {
        launched_in: u32,
        called_off_in: u32,
    },
}

/// What a game stream has recorded so far, as far as the rules need it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// The ruleset of the tournament that scheduled this game, if any.
    scheduled: Option<Ruleset>,
    pub ruleset: Option<Ruleset>,
    pub started: bool,
    /// The outcome and the turn it came in.
    pub ended: Option<(Outcome, u32)>,
    /// The current turn; 0 before the first `turn_started`.
    pub turn: u32,
    pub last_at_ms: Option<u64>,
    /// Nations that dropped out, with the turn they left in.
    pub out: BTreeMap<Nation, u32>,
    pub imperial_army: Role,
    pub offensive: Offensive,
    pub set_aside_picked_up: bool,
    pub austria_claimed: bool,
    pub clock_running: Option<ClockSide>,
    pub action_stage: Option<Nation>,
    pub retreat_open: bool,
    /// N, as the jury recorded it.
    pub fate_horizon: Option<u32>,
    /// The tactical cards dealt to each nation in the current turn: several `tc_dealt` for one
    /// nation add up, to at most a deal ([`crate::event::MAX_TC_PER_DEAL`]).
    pub dealt: BTreeMap<Nation, i32>,
}

impl GameState {
    pub(super) fn new(scheduled: Option<Ruleset>) -> Self {
        GameState {
            scheduled,
            ruleset: None,
            started: false,
            ended: None,
            turn: 0,
            last_at_ms: None,
            out: BTreeMap::new(),
            imperial_army: Role::MariaTheresa,
            offensive: Offensive::NotLaunched,
            set_aside_picked_up: false,
            austria_claimed: false,
            clock_running: None,
            action_stage: None,
            retreat_open: false,
            fate_horizon: None,
            dealt: BTreeMap::new(),
        }
    }

    /// The same game before any event.
    pub(super) fn fresh(&self) -> Self {
        GameState::new(self.scheduled)
    }

    /// The role that controls a nation now.
    pub fn controller(&self, nation: Nation) -> Role {
        nation.controller(self.imperial_army)
    }

    pub(super) fn decide(&self, event: &Event) -> Result<(), Rejection> {
        self.decide_phase(event)?;
        if let Some(turn) = event.corrected_turn() {
            if turn > self.turn {
                return Err(Rejection::precondition(format!(
                    "{} is recorded for turn {turn}, but the game is in turn {}",
                    event.type_name(),
                    self.turn
                ))
                .said(
                    "refusal-turn-ahead",
                    [("type", event_name(event)), ("turn", turn.into()), ("current", self.turn.into())],
                ));
            }
        }
        if let (Some(at), Some(last)) = (event.at_ms(), self.last_at_ms) {
            if at < last {
                return Err(Rejection::precondition(format!(
                    "at_ms {at} goes back in time: the table clock already read {last}"
                ))
                .said("refusal-time-goes-back", [("at_ms", at.into()), ("last_at_ms", last.into())]));
            }
            // A table clock that leaps a day would stick the game: every later tap would be "in
            // the past" until the jury voided it.
            if at - last > MAX_TABLE_LEAP_MS {
                return Err(Rejection::precondition(format!(
                    "at_ms {at} leaps {} hours past the table clock's last reading {last}: a game's table time moves on by at most 24 hours at once",
                    (at - last) / 3_600_000
                ))
                .said(
                    "refusal-time-leaps",
                    [("at_ms", at.into()), ("last_at_ms", last.into()), ("hours", ((at - last) / 3_600_000).into())],
                ));
            }
        }
        match event {
            Event::GameStarted { ruleset, .. } => self.decide_start(*ruleset),
            Event::TurnStarted { turn, .. } => {
                // Before the order: after turn 23 no turn comes next, so "turn 24 comes next"
                // would mislead.
                if *turn > MAX_TURNS {
                    return Err(Rejection::precondition(format!(
                        "turn_started {turn} is past the last turn: a game has at most {MAX_TURNS} turns (Frederick's maximum of 23/2 = 11.5 points)"
                    ))
                    .said("refusal-turn-past-last", [("turn", (*turn).into()), ("max", MAX_TURNS.into())]));
                }
                let next = self.turn + 1;
                if *turn != next {
                    let (what, id) = if *turn <= self.turn {
                        ("repeats", "refusal-turn-repeats")
                    } else {
                        ("skips", "refusal-turn-skips")
                    };
                    return Err(Rejection::precondition(format!(
                        "turn_started {turn} {what} a turn: turn {next} comes next"
                    ))
                    .said(id, [("turn", (*turn).into()), ("next", next.into())]));
                }
                Ok(())
            }
            Event::TcDealt { nation, count } => {
                self.in_turn()?;
                self.in_game(*nation)?;
                self.within_a_deal(*nation, *count)
            }
            Event::ClockStarted { .. } => match self.clock_running {
                Some(side) => Err(Rejection::precondition(format!("the clock already runs for {side}"))
                    .said("refusal-clock-already-runs", [("side", Arg::name("side", side))])),
                None => Ok(()),
            },
            Event::ClockPressed { .. } => self.clock_runs("press"),
            Event::ClockStopped { .. } => self.clock_runs("stop"),
            Event::ActionStageStarted { nation, .. } => {
                self.in_turn()?;
                self.in_game(*nation)?;
                match self.action_stage {
                    Some(open) => Err(Rejection::precondition(format!("the action stage of {open} has not ended"))
                        .said("refusal-stage-open", [("nation", Arg::name("nation", open))])),
                    None => Ok(()),
                }
            }
            Event::ActionStageEnded { nation, .. } => match self.action_stage {
                Some(open) if open == *nation => Ok(()),
                Some(open) => Err(Rejection::precondition(format!(
                    "the action stage of {nation} was not started: {open} is acting"
                ))
                .said(
                    "refusal-stage-other-acting",
                    [("nation", Arg::name("nation", nation)), ("acting", Arg::name("nation", open))],
                )),
                None => Err(Rejection::precondition(format!("the action stage of {nation} was not started"))
                    .said("refusal-stage-not-started", [("nation", Arg::name("nation", nation))])),
            },
            Event::RetreatStarted { .. } if self.retreat_open => {
                Err(Rejection::precondition("a retreat is already under way").said("refusal-retreat-open", []))
            }
            Event::RetreatEnded { .. } if !self.retreat_open => {
                Err(Rejection::precondition("no retreat was started").said("refusal-no-retreat", []))
            }
            Event::NationDroppedOut { nation, .. } => {
                self.in_turn()?;
                if !nation.can_drop_out() {
                    return Err(Rejection::precondition(format!(
                        "{nation} cannot drop out: only russia, sweden and france leave by a Card of Fate"
                    ))
                    .said("refusal-cannot-drop-out", [("nation", Arg::name("nation", nation))]));
                }
                self.in_game(*nation)
            }
            Event::ImperialArmySwitched { to, .. } => {
                self.in_turn()?;
                if !matches!(to, Role::Elisabeth | Role::Pompadour) {
                    return Err(Rejection::malformed(format!(
                        "the imperial army can pass only to elisabeth or pompadour, not {to}"
                    ))
                    .said("refusal-imperial-army-role", [("role", Arg::name("role", to))]));
                }
                if *to == self.imperial_army {
                    return Err(Rejection::precondition(format!("the imperial army is already controlled by {to}"))
                        .said("refusal-imperial-army-already", [("role", Arg::name("role", to))]));
                }
                Ok(())
            }
            Event::OffensiveLaunched { set_aside_tc, .. } => {
                self.in_turn()?;
                if let Offensive::Active { launched_in } | Offensive::CalledOff { launched_in, .. } = self.offensive {
                    return Err(Rejection::precondition(format!(
                        "the prussian offensive was already launched in turn {launched_in}"
                    ))
                    .said("refusal-offensive-already-launched", [("turn", launched_in.into())]));
                }
                if self.ruleset == Some(Ruleset::Cafe2019) && *set_aside_tc < 10 {
                    return Err(Rejection::precondition(format!(
                        "cafe2019: the tactical card set aside for the offensive must be worth at least 10, got {set_aside_tc}"
                    ))
                    .said(
                        "refusal-set-aside-tc-too-low",
                        [
                            ("ruleset", Arg::name("ruleset", Ruleset::Cafe2019)),
                            ("min", 10.into()),
                            ("value", (*set_aside_tc).into()),
                        ],
                    ));
                }
                Ok(())
            }
            Event::AustriaClaimedObjectives { count } => {
                self.offensive_active("austria can claim objectives", "claim")?;
                if self.austria_claimed {
                    return Err(Rejection::precondition("austria already claimed her objectives")
                        .said("refusal-austria-already-claimed", []));
                }
                match self.ruleset {
                    Some(r) if r.is_cafe() && *count != 4 => {
                        Err(Rejection::precondition(format!("{r}: austria claims exactly 4 objectives, got {count}"))
                            .said(
                                "refusal-austria-claims-four",
                                [
                                    ("ruleset", Arg::name("ruleset", r)),
                                    ("expected", 4.into()),
                                    ("count", (*count).into()),
                                ],
                            ))
                    }
                    _ => Ok(()),
                }
            }
            Event::SetAsideTcPickedUp {} => {
                self.offensive_active("the set-aside tactical card can be picked up", "pick-up")?;
                if self.set_aside_picked_up {
                    return Err(Rejection::precondition("the set-aside tactical card was already picked up")
                        .said("refusal-set-aside-already-picked-up", []));
                }
                if self.turn < SET_ASIDE_EARLIEST_TURN {
                    return Err(Rejection::precondition(format!(
                        "the set-aside tactical card can be picked up from turn {SET_ASIDE_EARLIEST_TURN} on, and the game is in turn {}",
                        self.turn
                    ))
                    .said(
                        "refusal-set-aside-too-early",
                        [("earliest", SET_ASIDE_EARLIEST_TURN.into()), ("turn", self.turn.into())],
                    ));
                }
                Ok(())
            }
            Event::OffensiveCalledOff { turn: Some(turn), .. } => {
                self.offensive_active("the offensive can be called off", "call-off")?;
                match self.offensive {
                    Offensive::Active { launched_in } if *turn < launched_in => Err(Rejection::precondition(format!(
                        "the offensive cannot be called off in turn {turn}: it was launched in turn {launched_in}"
                    ))
                    .said(
                        "refusal-call-off-before-launch",
                        [("turn", (*turn).into()), ("launched_in", launched_in.into())],
                    )),
                    _ => Ok(()),
                }
            }
            Event::OffensiveCalledOff { .. } => self.offensive_active("the offensive can be called off", "call-off"),
            Event::GameEnded { outcome, winners, objectives, bohemian_held_by_prussia } => {
                self.in_turn()?;
                self.decide_end(*outcome, winners, objectives, *bohemian_held_by_prussia)
            }
            Event::FateHorizonRecorded { turn } if *turn < self.turn => Err(Rejection::precondition(format!(
                "the fate horizon cannot come before the current turn {}, got {turn}",
                self.turn
            ))
            .said("refusal-fate-horizon-past", [("current", self.turn.into()), ("turn", (*turn).into())])),
            Event::FateHorizonRecorded { .. } => match self.fate_horizon {
                Some(recorded) => Err(Rejection::precondition(format!(
                    "the fate horizon was already recorded (turn {recorded}); void it to record another"
                ))
                .said("refusal-fate-horizon-twice", [("turn", recorded.into())])),
                None => Ok(()),
            },
            // Always in order once the game runs (or the guarded arm above passed).
            Event::RetreatStarted { .. } | Event::RetreatEnded { .. } | Event::FateCardDrawn { .. } => Ok(()),
            // Another family's event never reaches a game's rules: `Folded::decide` refuses it.
            crate::tournament_events!() | crate::jury_events!() | Event::Andes(_) => Ok(()),
        }
    }

    pub(super) fn evolve(&mut self, event: &Event) {
        if let Some(at) = event.at_ms() {
            self.last_at_ms = Some(at);
        }
        match event {
            Event::GameStarted { ruleset, .. } => {
                self.started = true;
                self.ruleset = ruleset.or(self.scheduled);
            }
            Event::TurnStarted { turn, .. } => {
                self.turn = *turn;
                self.dealt.clear();
            }
            Event::TcDealt { nation, count } => {
                let dealt = self.dealt.entry(*nation).or_insert(0);
                *dealt = dealt.saturating_add(*count);
            }
            Event::ClockStarted { side, .. } => self.clock_running = Some(*side),
            Event::ClockPressed { .. } => {
                self.clock_running = self.clock_running.map(ClockSide::other);
            }
            Event::ClockStopped { .. } => self.clock_running = None,
            Event::ActionStageStarted { nation, .. } => self.action_stage = Some(*nation),
            Event::ActionStageEnded { .. } => self.action_stage = None,
            Event::RetreatStarted { .. } => self.retreat_open = true,
            Event::RetreatEnded { .. } => self.retreat_open = false,
            Event::NationDroppedOut { nation, turn, .. } => {
                self.out.insert(*nation, turn.unwrap_or(self.turn));
            }
            Event::ImperialArmySwitched { to, .. } => self.imperial_army = *to,
            Event::OffensiveLaunched { turn, .. } => {
                self.offensive = Offensive::Active { launched_in: turn.unwrap_or(self.turn) };
            }
            Event::AustriaClaimedObjectives { .. } => self.austria_claimed = true,
            Event::SetAsideTcPickedUp {} => self.set_aside_picked_up = true,
            Event::OffensiveCalledOff { turn, .. } => {
                if let Offensive::Active { launched_in } = self.offensive {
                    self.offensive = Offensive::CalledOff { launched_in, called_off_in: turn.unwrap_or(self.turn) };
                }
            }
            Event::GameEnded { outcome, .. } => self.ended = Some((*outcome, self.turn)),
            Event::FateHorizonRecorded { turn } => self.fate_horizon = Some(*turn),
            // Recorded for the score sheet; nothing the game's rules decide by.
            Event::FateCardDrawn { .. } => {}
            crate::tournament_events!() | crate::jury_events!() | Event::Andes(_) => {}
        }
    }

    /// `jury_called` and `jury_ruling` come after `game_started`: the jury is called to a game
    /// in progress (or over: after `game_ended` they stay allowed, like voids).
    pub(super) fn decide_jury(&self, event: &Event) -> Result<(), Rejection> {
        self.started_before(event)
    }

    fn started_before(&self, event: &Event) -> Result<(), Rejection> {
        if !self.started {
            return Err(Rejection::precondition(format!(
                "the game has not started: game_started comes before {}",
                event.type_name()
            ))
            .said("refusal-not-started", [("type", event_name(event))]));
        }
        Ok(())
    }

    /// Events before the start, and anything but jury work after the end, are refused.
    fn decide_phase(&self, event: &Event) -> Result<(), Rejection> {
        let is_start = matches!(event, Event::GameStarted { .. });
        if !is_start {
            self.started_before(event)?;
        }
        if self.started && is_start {
            return Err(Rejection::precondition("the game has already started").said("refusal-already-started", []));
        }
        if let Some((outcome, turn)) = self.ended {
            if !matches!(event, Event::FateHorizonRecorded { .. }) {
                return Err(Rejection::precondition(format!(
                    "the game ended in turn {turn} ({outcome}); only the jury may record events now, not {}",
                    event.type_name()
                ))
                .said(
                    "refusal-game-over",
                    [("turn", turn.into()), ("outcome", Arg::name("outcome", outcome)), ("type", event_name(event))],
                ));
            }
        }
        Ok(())
    }

    fn decide_start(&self, ruleset: Option<Ruleset>) -> Result<(), Rejection> {
        match (ruleset, self.scheduled) {
            (Some(given), Some(scheduled)) if given != scheduled => Err(Rejection::precondition(format!(
                "game_started names ruleset {given}, but the tournament plays {scheduled}"
            ))
            .said(
                "refusal-ruleset-differs",
                [("given", Arg::name("ruleset", given)), ("scheduled", Arg::name("ruleset", scheduled))],
            )),
            (None, None) => Err(Rejection::precondition(
                "this game is not scheduled in any tournament: name its ruleset in game_started",
            )
            .said("refusal-ruleset-missing", [])),
            _ => Ok(()),
        }
    }

    fn in_turn(&self) -> Result<(), Rejection> {
        if self.turn == 0 {
            return Err(Rejection::precondition("no turn has started yet: turn_started 1 comes first")
                .said("refusal-no-turn-yet", []));
        }
        Ok(())
    }

    /// A nation's cards of this turn, with `count` more, are at most a deal: it draws once a
    /// turn, Prussia's 7 the most (see [`crate::event::MAX_TC_PER_DEAL`]).
    fn within_a_deal(&self, nation: Nation, count: i32) -> Result<(), Rejection> {
        let before = self.dealt.get(&nation).copied().unwrap_or(0);
        if before.saturating_add(count) > crate::event::MAX_TC_PER_DEAL {
            return Err(Rejection::precondition(format!(
                "{nation} was dealt {before} tactical cards in turn {} already; {count} more is more than a deal: at most {} a turn",
                self.turn,
                crate::event::MAX_TC_PER_DEAL
            ))
            .said(
                "refusal-tc-turn-above-deal",
                [
                    ("nation", Arg::name("nation", nation)),
                    ("before", before.into()),
                    ("turn", self.turn.into()),
                    ("count", count.into()),
                    ("max", crate::event::MAX_TC_PER_DEAL.into()),
                ],
            ));
        }
        Ok(())
    }

    /// The nation still plays: it has not dropped out.
    fn in_game(&self, nation: Nation) -> Result<(), Rejection> {
        match self.out.get(&nation) {
            Some(turn) => Err(Rejection::precondition(format!("{nation} already dropped out in turn {turn}"))
                .said("refusal-nation-out", [("nation", Arg::name("nation", nation)), ("turn", (*turn).into())])),
            None => Ok(()),
        }
    }

    fn clock_runs(&self, verb: &str) -> Result<(), Rejection> {
        match self.clock_running {
            Some(_) => Ok(()),
            None => Err(Rejection::precondition(format!("no clock is running to {verb}"))
                .said(if verb == "press" { "refusal-no-clock-to-press" } else { "refusal-no-clock-to-stop" }, [])),
        }
    }

    /// `which`: the catalogue's name of the act (`claim`, `pick-up`, `call-off`).
    fn offensive_active(&self, what: &str, which: &str) -> Result<(), Rejection> {
        let (none, called_off) = match which {
            "claim" => ("refusal-claim-no-offensive", "refusal-claim-offensive-called-off"),
            "pick-up" => ("refusal-pick-up-no-offensive", "refusal-pick-up-offensive-called-off"),
            _ => ("refusal-call-off-no-offensive", "refusal-call-off-offensive-called-off"),
        };
        match self.offensive {
            Offensive::Active { .. } => Ok(()),
            Offensive::NotLaunched => {
                Err(Rejection::precondition(format!("{what} only during a prussian offensive, and none was launched"))
                    .said(none, []))
            }
            Offensive::CalledOff { called_off_in, .. } => Err(Rejection::precondition(format!(
                "{what} only during a prussian offensive, and it was called off in turn {called_off_in}"
            ))
            .said(called_off, [("turn", called_off_in.into())])),
        }
    }

    fn decide_end(
        &self,
        outcome: Outcome,
        winners: &[Nation],
        objectives: &BTreeMap<Nation, (i32, i32)>,
        bohemian: Option<i32>,
    ) -> Result<(), Rejection> {
        if outcome.is_prussian() {
            if winners != [Nation::Prussia] {
                return Err(Rejection::precondition(format!(
                    "a {outcome} has prussia as its only winner, not {}",
                    list(winners)
                ))
                .said(
                    "refusal-prussian-winners",
                    [
                        ("outcome", Arg::name("outcome", outcome)),
                        ("winners", Arg::Names("nation", winners.iter().map(|n| n.as_str().to_owned()).collect())),
                    ],
                ));
            }
        } else {
            if winners.is_empty() {
                return Err(Rejection::precondition("an allied_victory needs at least one attacking winner")
                    .said("refusal-allied-no-winner", []));
            }
            for &winner in winners {
                if !winner.is_attacking() {
                    return Err(Rejection::precondition(format!("{winner} cannot win an allied_victory"))
                        .said("refusal-winner-not-attacking", [("nation", Arg::name("nation", winner))]));
                }
                self.in_game(winner).map_err(|r| {
                    let turn = self.out.get(&winner).copied().unwrap_or(0);
                    r.context("winner")
                        .said("refusal-winner-out", [("nation", Arg::name("nation", winner)), ("turn", turn.into())])
                })?;
            }
        }
        for nation in Nation::attacking() {
            match (self.out.get(&nation), objectives.contains_key(&nation)) {
                (None, false) => {
                    return Err(Rejection::precondition(format!(
                        "game_ended must report the objectives of {nation}, still in the game"
                    ))
                    .said("refusal-objectives-missing", [("nation", Arg::name("nation", nation))]))
                }
                (Some(turn), true) => {
                    return Err(Rejection::precondition(format!(
                        "{nation} dropped out in turn {turn}: its objectives were fixed then"
                    ))
                    .said(
                        "refusal-objectives-fixed",
                        [("nation", Arg::name("nation", nation)), ("turn", (*turn).into())],
                    ))
                }
                _ => {}
            }
        }
        let active = matches!(self.offensive, Offensive::Active { .. });
        match (active, bohemian) {
            (true, None) => Err(Rejection::precondition(
                "the prussian offensive is still active: game_ended must give bohemian_held_by_prussia",
            )
            .said("refusal-bohemian-missing", [])),
            (false, Some(_)) => Err(Rejection::precondition(
                "bohemian_held_by_prussia is reported only while the prussian offensive is active",
            )
            .said("refusal-bohemian-not-active", [])),
            _ if outcome == Outcome::PrussianOffensiveVictory && !active => {
                Err(Rejection::precondition("a prussian_offensive_victory needs an active prussian offensive")
                    .said("refusal-offensive-victory-not-active", []))
            }
            (true, Some(held)) if outcome == Outcome::PrussianOffensiveVictory && held != 14 => {
                Err(Rejection::precondition(format!(
                    "a prussian_offensive_victory means prussia holds all 14 bohemian objectives, got {held}"
                ))
                .said("refusal-offensive-victory-bohemian", [("max", 14.into()), ("held", held.into())]))
            }
            _ => Ok(()),
        }
    }
}

/// An event's type as an argument: the catalogue words it (`table-event-name-<type>`).
fn event_name(event: &Event) -> Arg {
    Arg::name("table-event-name", event.type_name())
}

fn list(nations: &[Nation]) -> String {
    let names: Vec<&str> = nations.iter().map(|n| n.as_str()).collect();
    format!("[{}]", names.join(", "))
}
