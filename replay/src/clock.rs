//! The chess clock and the jury's stopwatch of one game (spec §9, docs/RULES.md), as a fold over the
//! game's events: time left on each side, which side runs, time stopped by reason, and every
//! stopwatch overrun the jury must hear about. The ledger never stops play; it reports.
//!
//! Feed [`ClockFold::apply`] the game stream's events in order, leaving out the ones the jury
//! voided (as for [`crate::sheet::GameFold`]; [`crate::sheet::voided_seqs`] lists them): the fold
//! trusts the ledger's validation and refuses nothing. Every number is whole milliseconds of the
//! table device's clock (`at_ms`). The module depends on `ledger` and serde only.
//!
//! # Readings of the source texts
//!
//! Each decision below rests on the quoted sentence (cafe2019 and cafe2023 say the same; wm2015
//! is quoted where it differs).
//!
//! 1. **Time charged.** "The running side loses time from `clock_started`/`clock_pressed` until
//!    the next press or stop" (docs/RULES.md). Time between a `clock_stopped {reason}` and the next
//!    `clock_started` is added to that reason.
//! 2. **On the stopwatch.** "If a side uses up its time on the chess clock, it goes on the
//!    stopwatch; from then on, nations of that side have the following amount of time per action
//!    stage" (cafe) and "each later action stage of its nations has an allowance" (docs/RULES.md): an
//!    action stage is on the stopwatch when its side's time is used up at `action_stage_started`.
//!    The stage in which the time runs out is not timed.
//! 3. **What the stopwatch measures.** The tables keep using the chess clock after a side's time
//!    is used up, so a stage's time is the time the clock runs for the stage's side between
//!    `action_stage_started` and `action_stage_ended`. Not counted: time the clock is stopped
//!    ("The clock is stopped: to resolve combat; when the jury is called; for rules discussions,
//!    other clarifications, and breaks."), time on the other side's clock (e.g. the opponent's
//!    retroactive conquest), and retreats ("This time is separate from the time allocated for the
//!    action stages", cafe; "He cannot use time from his normal stopwatch time contingent", wm2015).
//! 4. **Allowances**: Prussia 150 s, Hanover 30, Russia 60, Sweden 20, Austria 60, Imperial Army
//!    20, France 60 (all three texts).
//! 5. **Transfers, cafe2019/cafe2023.** "Unused time may not be saved from one turn to the next.
//!    However, unused time from a player's first nation is added to the time allotted to his
//!    second nation (if there is one)." Per turn and player (the nation's controller when its
//!    stage starts, so the Imperial Army counts for whoever controls it after
//!    `imperial_army_switched`): the first nation to act is the first nation, the next other
//!    nation of the same player the second; only first → second, so a third nation (Elisabeth
//!    with Russia, Sweden and the Imperial Army) gets nothing. "Unused" is the first nation's
//!    allowance minus its stage's time, when that stage was on the stopwatch.
//! 6. **Transfers, wm2015.** "it is possible to use unused Prussian time in the move of Hanover of
//!    the same turn. Similarly, Sweden may use unused Russian time, and Imperial Army may use
//!    unused Austrian time (but only if these 2 nations are led by the same player)." Only
//!    Prussia → Hanover, Russia → Sweden, and Austria → Imperial Army while Maria Theresa controls
//!    the Imperial Army; Imperial Army → France under Pompadour is not a transfer in wm2015.
//! 7. **Retreats.** "If a player on the stopwatch has to choose a retreat path, he receives 3
//!    seconds plus 1 second per retreat length (e.g. a –3 retreat would give him 6 seconds)."
//!    "Retreats are on the combat winner's time" (cafe2023): the chooser is the side whose clock
//!    runs at `retreat_started`, or, if none runs, the first side whose clock starts during the
//!    retreat. The retreat is timed when the chooser's time is used up when it is known, and its
//!    time is the chooser's clock time until `retreat_ended`. When the chooser fails and the
//!    other side takes over ("the combat loser may choose the retreat path. He will be on the
//!    chess clock for that"), the table records a new `retreat_started`.
//! 8. **Overruns are reported, never enforced**: "The ledger does not stop play: it reports every
//!    overrun (nation, turn, by how many ms) for the jury" (docs/RULES.md). A stage or retreat still
//!    open at `game_ended` is closed then, at the last table time.
//! 9. **After `game_ended`** no clock runs and nothing is extrapolated.

use ledger::{ClockSide, Event, Nation, Role, Ruleset, StopReason};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Each side's time when the tournament sets none: 130 minutes.
pub const DEFAULT_MS_PER_SIDE: u64 = 7_800_000;

/// A nation's time per action stage once its side is on the stopwatch.
pub fn stage_allowance_ms(nation: Nation) -> u64 {
    match nation {
        Nation::Prussia => 150_000,
        Nation::Hanover => 30_000,
        Nation::Russia | Nation::Austria | Nation::France => 60_000,
        Nation::Sweden | Nation::ImperialArmy => 20_000,
    }
}

/// The time to choose a retreat of `length` on the stopwatch: 3 s + 1 s per length.
pub fn retreat_allowance_ms(length: u32) -> u64 {
    3_000 + 1_000 * u64::from(length)
}

/// The side of the chess clock a nation's time runs on.
pub fn side_of(nation: Nation) -> ClockSide {
    if nation.is_attacking() {
        ClockSide::Attackers
    } else {
        ClockSide::Prussia
    }
}

/// Whether unused stopwatch time of `first` passes to `second` when one player leads both in a
/// turn (readings 5 and 6 of the module docs).
pub fn transfer_allowed(ruleset: Ruleset, first: Nation, second: Nation) -> bool {
    match ruleset {
        Ruleset::Cafe2019 | Ruleset::Cafe2023 => true,
        Ruleset::Wm2015 => matches!(
            (first, second),
            (Nation::Prussia, Nation::Hanover)
                | (Nation::Russia, Nation::Sweden)
                | (Nation::Austria, Nation::ImperialArmy)
        ),
    }
}

/// What the stopwatch timed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Timed {
    ActionStage,
    Retreat,
}

/// A stopwatch time limit that was exceeded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overrun {
    pub timed: Timed,
    /// The acting nation; for a retreat, the nation whose action stage it came in if that nation
    /// is on the chooser's side, else none.
    pub nation: Option<Nation>,
    pub side: ClockSide,
    pub turn: u32,
    /// Retreats only.
    pub retreat_length: Option<u32>,
    /// The nation's own allowance (or the retreat's).
    pub allowance_ms: u64,
    /// Unused time added from the player's first nation in the turn.
    pub transferred_ms: u64,
    pub used_ms: u64,
    /// `used_ms − allowance_ms − transferred_ms`.
    pub overrun_ms: u64,
    /// The seq of the event that ended the stage or retreat.
    pub seq: u64,
}

/// When a side's time ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeRanOut {
    pub at_ms: u64,
    pub turn: u32,
}

/// One side of the chess clock.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideView {
    /// Never below 0.
    pub remaining_ms: u64,
    /// Time the clock ran for this side; more than the side's time once it ran out.
    pub used_ms: u64,
    pub on_stopwatch: bool,
    pub ran_out: Option<TimeRanOut>,
}

/// The stopwatch running now: an open action stage or retreat on the stopwatch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StopwatchView {
    pub timed: Timed,
    pub nation: Option<Nation>,
    pub side: ClockSide,
    pub allowance_ms: u64,
    pub transferred_ms: u64,
    pub used_ms: u64,
    /// Time left before an overrun; 0 once over.
    pub left_ms: u64,
    pub overrun_ms: u64,
}

/// The clocks of a game as of its last event, or extrapolated to a live table time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    /// The table time the view is for; none before the first timed event.
    pub at_ms: Option<u64>,
    pub ms_per_side: u64,
    pub prussia: SideView,
    pub attackers: SideView,
    pub running: Option<ClockSide>,
    /// Why the clock is stopped now, if a `clock_stopped` is the last word.
    pub stopped_for: Option<StopReason>,
    /// Time the clock stood still, by reason (every reason listed).
    pub stopped_ms: BTreeMap<StopReason, u64>,
    pub stopwatch: Vec<StopwatchView>,
    /// Every overrun, in the order they ended.
    pub overruns: Vec<Overrun>,
    pub game_ended: bool,
}

impl ClockView {
    /// One side's clock.
    pub fn side(&self, side: ClockSide) -> &SideView {
        match side {
            ClockSide::Prussia => &self.prussia,
            ClockSide::Attackers => &self.attackers,
        }
    }
}

/// A stage or retreat being timed.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Timer {
    timed: Timed,
    nation: Option<Nation>,
    /// None for a retreat until someone's clock runs.
    side: Option<ClockSide>,
    turn: u32,
    retreat_length: Option<u32>,
    /// Whether the stopwatch applies (the side's time was used up when the timer began).
    on_stopwatch: bool,
    allowance_ms: u64,
    transferred_ms: u64,
    used_ms: u64,
}

impl Timer {
    fn budget(&self) -> u64 {
        self.allowance_ms + self.transferred_ms
    }

    fn overrun(&self, seq: u64) -> Option<Overrun> {
        let side = self.side?;
        let overrun_ms = self.used_ms.checked_sub(self.budget()).filter(|&over| over > 0)?;
        self.on_stopwatch.then_some(Overrun {
            timed: self.timed,
            nation: self.nation,
            side,
            turn: self.turn,
            retreat_length: self.retreat_length,
            allowance_ms: self.allowance_ms,
            transferred_ms: self.transferred_ms,
            used_ms: self.used_ms,
            overrun_ms,
            seq,
        })
    }

    fn view(&self) -> Option<StopwatchView> {
        self.on_stopwatch.then_some(StopwatchView {
            timed: self.timed,
            nation: self.nation,
            side: self.side?,
            allowance_ms: self.allowance_ms,
            transferred_ms: self.transferred_ms,
            used_ms: self.used_ms,
            left_ms: self.budget().saturating_sub(self.used_ms),
            overrun_ms: self.used_ms.saturating_sub(self.budget()),
        })
    }
}

/// A player's first nation in the current turn and the stopwatch time it left unused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FirstNation {
    nation: Nation,
    unused_ms: u64,
    passed_on: bool,
}

/// The clocks of one game, folded event by event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockFold {
    ruleset: Ruleset,
    ms_per_side: u64,
    last_at_ms: Option<u64>,
    turn: u32,
    used_ms: BTreeMap<ClockSide, u64>,
    ran_out: BTreeMap<ClockSide, TimeRanOut>,
    running: Option<ClockSide>,
    stopped_for: Option<StopReason>,
    stopped_ms: BTreeMap<StopReason, u64>,
    imperial_army: Role,
    stage: Option<Timer>,
    retreat: Option<Timer>,
    /// This turn's first nation of each player.
    first_nations: BTreeMap<Role, FirstNation>,
    overruns: Vec<Overrun>,
    ended: bool,
}

impl ClockFold {
    /// The clocks before the game starts: `ms_per_side` each (the tournament's
    /// `clock_ms_per_side`, else [`DEFAULT_MS_PER_SIDE`]).
    pub fn new(ruleset: Ruleset, ms_per_side: u64) -> Self {
        ClockFold {
            ruleset,
            ms_per_side,
            last_at_ms: None,
            turn: 0,
            used_ms: ClockSide::ALL.iter().map(|&side| (side, 0)).collect(),
            ran_out: BTreeMap::new(),
            running: None,
            stopped_for: None,
            stopped_ms: StopReason::ALL.iter().map(|&reason| (reason, 0)).collect(),
            imperial_army: Role::MariaTheresa,
            stage: None,
            retreat: None,
            first_nations: BTreeMap::new(),
            overruns: Vec::new(),
            ended: false,
        }
    }

    /// Folds in the next event of the game stream (`seq` is its place in the stream; voided
    /// events must be left out by the caller).
    pub fn apply(&mut self, seq: u64, event: &Event) {
        if self.ended {
            return;
        }
        if let Some(at) = event.at_ms() {
            self.advance_to(at);
        }
        match event {
            Event::TurnStarted { turn, .. } => {
                self.turn = *turn;
                self.first_nations.clear();
            }
            Event::ClockStarted { side, .. } => self.run(Some(*side)),
            Event::ClockPressed { .. } => self.run(self.running.map(ClockSide::other)),
            Event::ClockStopped { reason, .. } => {
                self.running = None;
                self.stopped_for = Some(*reason);
            }
            Event::ActionStageStarted { nation, .. } => self.start_stage(*nation),
            Event::ActionStageEnded { .. } => self.end_stage(seq),
            Event::RetreatStarted { length, .. } => self.start_retreat(*length),
            Event::RetreatEnded { .. } => self.end_retreat(seq),
            Event::ImperialArmySwitched { to, .. } => self.imperial_army = *to,
            Event::GameEnded { .. } => {
                self.end_retreat(seq);
                self.end_stage(seq);
                self.running = None;
                self.stopped_for = None;
                self.ended = true;
            }
            // Their table time, if any, is charged above; nothing else in them moves a clock.
            Event::GameStarted { .. }
            | Event::TcDealt { .. }
            | Event::FateCardDrawn { .. }
            | Event::NationDroppedOut { .. }
            | Event::OffensiveLaunched { .. }
            | Event::AustriaClaimedObjectives { .. }
            | Event::SetAsideTcPickedUp {}
            | Event::OffensiveCalledOff { .. }
            | Event::FateHorizonRecorded { .. } => {}
            ledger::tournament_events!() | ledger::jury_events!() | Event::Andes(_) => {}
        }
    }

    /// The clocks as of the last event, or, with `now_at_ms` (a later table time), as they
    /// stand at that moment with the running side's clock and any stop carried forward.
    pub fn view(&self, now_at_ms: Option<u64>) -> ClockView {
        let mut at_now = self.clone();
        if let Some(now) = now_at_ms.filter(|_| !self.ended && self.last_at_ms.is_some()) {
            at_now.advance_to(now);
        }
        at_now.build_view()
    }

    fn build_view(&self) -> ClockView {
        let side = |side: ClockSide| SideView {
            remaining_ms: self.ms_per_side.saturating_sub(self.used_ms[&side]),
            used_ms: self.used_ms[&side],
            on_stopwatch: self.out_of_time(side),
            ran_out: self.ran_out.get(&side).copied(),
        };
        ClockView {
            at_ms: self.last_at_ms,
            ms_per_side: self.ms_per_side,
            prussia: side(ClockSide::Prussia),
            attackers: side(ClockSide::Attackers),
            running: self.running,
            stopped_for: self.stopped_for,
            stopped_ms: self.stopped_ms.clone(),
            stopwatch: [&self.stage, &self.retreat]
                .into_iter()
                .filter_map(|timer| timer.as_ref().and_then(Timer::view))
                .collect(),
            overruns: self.overruns.clone(),
            game_ended: self.ended,
        }
    }

    fn out_of_time(&self, side: ClockSide) -> bool {
        self.used_ms[&side] >= self.ms_per_side
    }

    /// Charges the time since the last timed event to whoever's clock ran.
    fn advance_to(&mut self, at_ms: u64) {
        let elapsed = match self.last_at_ms {
            Some(last) => at_ms.saturating_sub(last),
            None => 0,
        };
        self.last_at_ms = Some(self.last_at_ms.map_or(at_ms, |last| last.max(at_ms)));
        if elapsed == 0 {
            return;
        }
        if let Some(reason) = self.stopped_for {
            *self.stopped_ms.entry(reason).or_default() += elapsed;
        }
        let Some(side) = self.running else { return };
        let before = self.used_ms[&side];
        let after = before + elapsed;
        self.used_ms.insert(side, after);
        if before < self.ms_per_side && after >= self.ms_per_side {
            let at = at_ms - elapsed + (self.ms_per_side - before);
            self.ran_out.insert(side, TimeRanOut { at_ms: at, turn: self.turn });
        }
        match &mut self.retreat {
            Some(retreat) => {
                if retreat.side == Some(side) {
                    retreat.used_ms += elapsed;
                }
            }
            None => {
                if let Some(stage) = self.stage.as_mut().filter(|stage| stage.side == Some(side)) {
                    stage.used_ms += elapsed;
                }
            }
        }
    }

    fn run(&mut self, side: Option<ClockSide>) {
        self.running = side;
        self.stopped_for = None;
        if let (Some(side), Some(retreat)) = (side, self.retreat.as_ref()) {
            if retreat.side.is_none() {
                let on_stopwatch = self.out_of_time(side);
                let retreat = self.retreat.as_mut().expect("checked above");
                retreat.side = Some(side);
                retreat.on_stopwatch = on_stopwatch;
                retreat.nation = self.stage.as_ref().and_then(|s| s.nation).filter(|&n| side_of(n) == side);
            }
        }
    }

    fn start_stage(&mut self, nation: Nation) {
        let side = side_of(nation);
        let on_stopwatch = self.out_of_time(side);
        let role = nation.controller(self.imperial_army);
        let mut transferred_ms = 0;
        match self.first_nations.get_mut(&role) {
            None => {
                self.first_nations.insert(role, FirstNation { nation, unused_ms: 0, passed_on: false });
            }
            Some(first) if first.nation != nation && !first.passed_on => {
                first.passed_on = true;
                if transfer_allowed(self.ruleset, first.nation, nation) {
                    transferred_ms = first.unused_ms;
                }
            }
            Some(_) => {}
        }
        self.stage = Some(Timer {
            timed: Timed::ActionStage,
            nation: Some(nation),
            side: Some(side),
            turn: self.turn,
            retreat_length: None,
            on_stopwatch,
            allowance_ms: stage_allowance_ms(nation),
            transferred_ms: if on_stopwatch { transferred_ms } else { 0 },
            used_ms: 0,
        });
    }

    fn end_stage(&mut self, seq: u64) {
        let Some(stage) = self.stage.take() else { return };
        self.overruns.extend(stage.overrun(seq));
        let nation = stage.nation.expect("a stage has a nation");
        if let Some(first) = self.first_nations.get_mut(&nation.controller(self.imperial_army)) {
            if first.nation == nation && !first.passed_on && stage.on_stopwatch {
                first.unused_ms = stage.allowance_ms.saturating_sub(stage.used_ms);
            }
        }
    }

    fn start_retreat(&mut self, length: u32) {
        let side = self.running;
        self.retreat = Some(Timer {
            timed: Timed::Retreat,
            nation: None,
            side: None,
            turn: self.turn,
            retreat_length: Some(length),
            on_stopwatch: false,
            allowance_ms: retreat_allowance_ms(length),
            transferred_ms: 0,
            used_ms: 0,
        });
        if side.is_some() {
            self.run(side);
        }
    }

    fn end_retreat(&mut self, seq: u64) {
        if let Some(retreat) = self.retreat.take() {
            self.overruns.extend(retreat.overrun(seq));
        }
    }
}

/// `1:23:45.678`
fn hms(ms: u64) -> String {
    let (h, m, s, rest) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    format!("{h}:{m:02}:{s:02}.{rest:03}")
}

/// The clock as a jury reads it.
impl fmt::Display for ClockView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&clock_text(self))
    }
}

fn clock_text(view: &ClockView) -> String {
    let mut out = String::new();
    let state = match (view.running, view.stopped_for, view.game_ended) {
        (_, _, true) => "game ended".to_owned(),
        (Some(side), _, _) => format!("{side} running"),
        (None, Some(reason), _) => format!("stopped ({reason})"),
        (None, None, _) => "not started".to_owned(),
    };
    out.push_str(&format!("Clock at table time {}: {state}\n", view.at_ms.map_or_else(|| "-".to_owned(), hms)));
    for side in [ClockSide::Prussia, ClockSide::Attackers] {
        let s = view.side(side);
        let flag = if s.on_stopwatch { "  ON THE STOPWATCH" } else { "" };
        out.push_str(&format!("  {:<10} {} left, {} used{flag}\n", side.as_str(), hms(s.remaining_ms), hms(s.used_ms)));
    }
    for w in &view.stopwatch {
        let what = w.nation.map_or_else(|| "retreat".to_owned(), |n| n.to_string());
        out.push_str(&format!(
            "  stopwatch {what}: {} of {} (+{} carried over) left\n",
            hms(w.left_ms),
            hms(w.allowance_ms + w.transferred_ms),
            hms(w.transferred_ms)
        ));
    }
    let stopped: Vec<String> = view
        .stopped_ms
        .iter()
        .filter(|(_, ms)| **ms > 0)
        .map(|(reason, ms)| format!("{reason} {}", hms(*ms)))
        .collect();
    if !stopped.is_empty() {
        out.push_str(&format!("  stopped: {}\n", stopped.join(", ")));
    }
    for o in &view.overruns {
        let what = o.nation.map_or_else(|| format!("retreat of {}", o.retreat_length.unwrap_or(0)), |n| n.to_string());
        out.push_str(&format!(
            "  OVERRUN turn {} {what}: {} over an allowance of {} (+{} carried over), event #{}\n",
            o.turn,
            hms(o.overrun_ms),
            hms(o.allowance_ms),
            hms(o.transferred_ms),
            o.seq
        ));
    }
    out
}
