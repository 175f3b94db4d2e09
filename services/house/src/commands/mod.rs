//! The organiser's commands: one typed way in for every caller. `ledgerctl tournament …` and the
//! console's forms (`/organise/<tournament>`) both turn what the organiser asks into a [`Plan`]
//! here — the events to record, and what a person is shown before they are recorded — and then
//! append it through the ledger like any other event, where the writer decides it again by the
//! same rules (those across streams included). Nothing here records: the callers append.
//!
//! A command is planned on the tournament's rules state as the caller read it ([`Tournament`]);
//! its version goes with the append as the expected version, so two organisers acting at once
//! cannot both record on the same state.

pub mod jury;
pub mod roster;

use crate::error::Error;
use crate::projections::NoTournament;
use ledger::draw::{draw_with_stand_ins, QualifyingDraw};
use ledger::event::Seats;
use ledger::rules::{Rules, TournamentState};
use ledger::{Arg, Event, Recorded, Rejection, Role, Ruleset, Stage, StreamId, StreamState};
pub use roster::Registration;

/// A tournament's rules state, as read at `version` (voided events left out).
#[derive(Debug, Clone)]
pub struct Tournament {
    pub id: StreamId,
    /// The stream as folded: what a planned event is checked against.
    pub stream: StreamState,
    pub version: u64,
}

impl Tournament {
    /// The tournament after `records` (its whole stream); `None` state when it is not created.
    pub fn read(id: &StreamId, records: &[Recorded]) -> Tournament {
        let mut stream = StreamState::new(id, None);
        for record in records {
            stream.evolve(&record.event);
        }
        let version = records.last().map_or(0, |r| r.envelope.seq);
        Tournament { id: id.clone(), stream, version }
    }

    /// Its name, as created (its id before that).
    pub fn name(&self) -> String {
        self.stream
            .events()
            .find_map(|(_, event)| match event {
                Event::TournamentCreated { name, .. } => Some(name.clone()),
                _ => None,
            })
            .unwrap_or_else(|| self.id.id().to_owned())
    }

    /// Its rules state, once created.
    ///
    /// # Errors
    /// `NOT_FOUND`: there is no tournament of that id (its stream holds no `tournament_created`).
    pub fn state(&self) -> Result<&TournamentState, Error> {
        match self.stream.rules() {
            Rules::Tournament(t) if t.ruleset.is_some() => Ok(t),
            _ => Err(Error::NotFound(NoTournament(self.id.clone()).to_string())),
        }
    }
}

/// What an organiser asks of a tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// The tournament itself: its name, ruleset and clock (minutes a side; the ruleset's 130 if none).
    Create { name: String, ruleset: Ruleset, clock_minutes: Option<u64> },
    /// Registrations, recorded all together or not at all (one, or a pasted list or a file).
    Register(Vec<Registration>),
    /// A registration made in error taken back, before the draw.
    Unregister { player: String },
    /// A registration corrected before the draw: taken back and made again, in one append.
    Fix { player: String, with: Registration },
    /// The four qualifying rounds drawn from `seed`.
    Draw { seed: u64 },
    /// A game put on a table by hand (`name` as [`game_of`] reads it).
    Schedule { name: String, stage: Stage, round: u32, table: u32, seats: Seats },
    /// A lot among tied players: the order follows from the seed.
    Lot { purpose: String, seed: u64, players: Vec<String> },
    /// A finalist's role (in rank order: the writer refuses anything else).
    ChooseRole { player: String, role: Role },
    /// The final, seated as the finalists chose.
    ScheduleFinal { name: String, table: u32 },
    /// A player leaves from `from_round` on; a stand-in takes the seats left (the one named, or
    /// the first free).
    Withdraw { player: String, from_round: u32, stand_in: Option<String> },
}

/// What a command will record, and what to show the organiser before it does.
#[derive(Debug, Clone)]
pub struct Plan {
    pub events: Vec<Event>,
    pub shows: Shows,
}

/// What a plan shows beyond its events.
#[derive(Debug, Clone)]
pub enum Shows {
    /// The events say it all.
    Events,
    /// The draw: its tables by round, the stand-ins it seats, the pairs that meet twice.
    Draw(QualifyingDraw),
    /// The lot's order, first to last.
    Lot(Vec<String>),
    /// The stand-in who takes the games the player leaves (none if none are left).
    Withdrawal { stand_in: Option<String>, games: Vec<String> },
    /// The players each registration records, with the id given or made from the name.
    Registrations(Vec<Registration>),
}

/// A planned event the rules refuse on the state before it: which one (0-based), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub index: usize,
    pub rejection: Rejection,
}

/// Plans `command` on `tournament` (its state as read; `Create` needs none) and checks every
/// event it would record against the tournament's rules, after the events before it.
///
/// # Errors
/// `NOT_FOUND` (no such tournament), `INVALID_ARGUMENT`/`FAILED_PRECONDITION` with the rule's
/// sentence: the first event refused (every one of them is in [`check`]).
pub fn plan(tournament: &Tournament, command: Command) -> Result<Plan, Error> {
    let plan = plan_unchecked(tournament, command)?;
    if let Err(refused) = check(tournament, &plan.events) {
        let first = &refused[0];
        let rejection = if plan.events.len() > 1 {
            first.rejection.clone().context(format!("event {} of {}", first.index + 1, plan.events.len()))
        } else {
            first.rejection.clone()
        };
        return Err(Error::Refused(rejection));
    }
    Ok(plan)
}

/// Every event of `events` the rules refuse, each checked after the ones before it that they
/// accept: a pasted list shows all its refused lines at once.
///
/// # Errors
/// The refused events, in order.
pub fn check(tournament: &Tournament, events: &[Event]) -> Result<(), Vec<Refused>> {
    check_on(&tournament.stream, events)
}

/// Every event of `events` the rules of `stream` (as folded) refuse, each checked after the
/// ones before it that they accept.
///
/// # Errors
/// The refused events, in order.
pub fn check_on(stream: &StreamState, events: &[Event]) -> Result<(), Vec<Refused>> {
    let mut stream = stream.clone();
    let refused: Vec<Refused> = events
        .iter()
        .enumerate()
        .filter_map(|(index, event)| stream.apply(event).err().map(|rejection| Refused { index, rejection }))
        .collect();
    if refused.is_empty() {
        Ok(())
    } else {
        Err(refused)
    }
}

fn plan_unchecked(tournament: &Tournament, command: Command) -> Result<Plan, Error> {
    let events = |events: Vec<Event>| Ok(Plan { events, shows: Shows::Events });
    match command {
        Command::Create { name, ruleset, clock_minutes } => events(vec![Event::TournamentCreated {
            name,
            ruleset,
            clock_ms_per_side: clock_minutes.map(|m| m.saturating_mul(60_000)),
        }]),
        Command::Register(registrations) => {
            let state = tournament.state()?;
            let registrations = roster::with_ids(state, registrations);
            let events = registrations.iter().map(Registration::to_event).collect();
            Ok(Plan { events, shows: Shows::Registrations(registrations) })
        }
        Command::Unregister { player } => events(vec![Event::PlayerUnregistered { player }]),
        Command::Fix { player, with } => {
            let state = tournament.state()?;
            // The corrected registration keeps the id unless a new one is given.
            let with = Registration { player: with.player.or(Some(player.clone())), ..with };
            let with = roster::with_ids(state, vec![with]).remove(0);
            events(vec![Event::PlayerUnregistered { player }, with.to_event()])
        }
        Command::Draw { seed } => {
            let state = tournament.state()?;
            let draw = draw_with_stand_ins(&state.registration_order, &state.stand_in_ids(), seed)
                .map_err(|e| Error::Refused(Rejection::precondition(e.to_string()).because(e.reason())))?
                .for_tournament(tournament.id.id());
            Ok(Plan { events: vec![draw.to_event()], shows: Shows::Draw(draw) })
        }
        Command::Schedule { name, stage, round, table, seats } => {
            let game = game_of(&tournament.id, &name)?.id().to_owned();
            events(vec![Event::GameScheduled { game, stage, round, table, seats }])
        }
        Command::Lot { purpose, seed, players } => {
            let order = ledger::draw::lot_order(&players, seed);
            Ok(Plan { events: vec![Event::LotDrawn { purpose, seed, order: order.clone() }], shows: Shows::Lot(order) })
        }
        Command::ChooseRole { player, role } => events(vec![Event::FinalRoleChosen { player, role }]),
        Command::ScheduleFinal { name, table } => {
            let state = tournament.state()?;
            let chosen = |role: Role| {
                state.final_roles.get(&role).cloned().ok_or_else(|| {
                    Error::Refused(
                        Rejection::precondition(format!("no finalist has chosen {role} yet: the four choose first"))
                            .said("refusal-final-role-unchosen", [("role", Arg::name("role", role))]),
                    )
                })
            };
            let seats = Seats {
                frederick: chosen(Role::Frederick)?,
                elisabeth: chosen(Role::Elisabeth)?,
                maria_theresa: chosen(Role::MariaTheresa)?,
                pompadour: chosen(Role::Pompadour)?,
            };
            let round = state.games.values().map(|g| g.round).max().unwrap_or(0) + 1;
            let game = game_of(&tournament.id, &name)?.id().to_owned();
            events(vec![Event::GameScheduled { game, stage: Stage::Final, round, table, seats }])
        }
        Command::Withdraw { player, from_round, stand_in } => {
            let state = tournament.state()?;
            let games = state.reseated(&player, from_round);
            let stand_in = match (stand_in, games.is_empty()) {
                (Some(named), _) => Some(named),
                (None, true) => None,
                (None, false) => Some(state.free_stand_in(&player, from_round).ok_or_else(|| {
                    Error::Refused(
                        Rejection::precondition(format!(
                            "{player} still has qualifying games from round {from_round} on ({}), and no registered \
                             stand-in is free in those rounds: register a stand-in first",
                            games.join(", ")
                        ))
                        .said(
                            "refusal-withdraw-no-free-stand-in",
                            [
                                ("player", state.display_name(&player).into()),
                                ("round", from_round.into()),
                                ("games", games.len().into()),
                            ],
                        ),
                    )
                })?),
            };
            let event = Event::PlayerWithdrew { player, from_round, stand_in: stand_in.clone() };
            Ok(Plan { events: vec![event], shows: Shows::Withdrawal { stand_in, games } })
        }
    }
}

/// The events of a plan as an append proposes them, each with an id made from the stream, the
/// version the plan was made on, its place and its canonical JSON: the same confirmation sent
/// twice (a double click, a resent form) is answered `duplicate`, never recorded twice.
/// `prefix` says who made them (`console`, `jury`).
pub fn proposed(prefix: &str, stream: &StreamId, version: u64, events: &[Event]) -> Vec<ledger_store::ProposedEvent> {
    use sha2::{Digest, Sha256};
    events
        .iter()
        .enumerate()
        .map(|(index, event)| {
            let mut digest = Sha256::new();
            digest.update(format!("{stream}\n{version}\n{index}\n"));
            digest.update(ledger::event::canonical_json_text(event));
            let event_id = format!("{prefix}-{}", hex::encode(&digest.finalize()[..12]));
            ledger_store::ProposedEvent { event_id, event: event.clone() }
        })
        .collect()
}

/// The stream of a game `tournament` schedules by hand: `name` after the tournament's id
/// (`q5-t1` → `<tournament>-q5-t1`, as the draw names its games) unless it already starts so;
/// `game/<id>` names the stream exactly.
///
/// # Errors
/// `INVALID_ARGUMENT`: not a game id.
pub fn game_of(tournament: &StreamId, name: &str) -> Result<StreamId, Error> {
    let id = match name.strip_prefix("game/") {
        Some(exact) => exact.to_owned(),
        None if name.starts_with(&format!("{}-", tournament.id())) => name.to_owned(),
        None => ledger::draw::tournament_game(tournament.id(), name),
    };
    StreamId::game(&id).map_err(Error::from)
}

#[cfg(test)]
mod tests;
