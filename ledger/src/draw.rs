//! The qualifying draw (spec §8, docs/RULES.md): from the registered players and a seed, who plays
//! which role at which table in each of the 4 qualifying rounds. The ledger records the draw
//! whole in `qualifying_drawn`, with its seed, so that a jury can compute it again and compare.
//!
//! What the draw guarantees:
//! - every player plays 4 games, one in each round, and each role (frederick, elisabeth,
//!   maria_theresa, pompadour) exactly once; each table has the four roles;
//! - no two players share a table twice from 16 players on; below that (4, 8 and 12 players)
//!   repeats cannot be avoided, and the draw reports each pair. It spreads them evenly rather
//!   than maximising distinct opponents: no pair meets more than twice (4 players excepted), which
//!   gives 24 pairs twice with 8 players and 18 with 12, the fewest possible (see
//!   `Schedule::lowest_possible_cost`). Fewer repeated meetings in all would need one pair to
//!   meet in 3 or 4 rounds.
//!   The source texts ask for exactly this: "As far as possible, players will meet different
//!   opponents in each of their four games (at least sixteen participants are needed for this)"
//!   (cafe2019, cafe2023); "if possible, since realization of this idea depends on the number of
//!   participants" (wm2015);
//! - the same players in the same registration order and the same seed give the same draw on
//!   every machine: the only randomness is `draw::lots` (ChaCha8 from the seed), and the only
//!   collections are vectors walked in order;
//! - stand-ins (issue 24): when the players are not a multiple of 4, the draw seats the first
//!   1, 2 or 3 registered stand-ins (`stand_in_registered`, in their registration order) as
//!   players, so every table has four. A stand-in plays one game a round and each role once like
//!   anyone, the guarantees above hold for the whole field, and no two stand-ins ever share a
//!   table: they sit in one row of the design's grid (see `draw::schedule`), which puts one
//!   member of each row at each table, and the search never moves them. Without stand-ins the
//!   draw is exactly what it always was (the stored draws verify).
//!
//! How: a design seats the players so that no pair repeats (see `draw::schedule`); for the few field
//! sizes the design cannot serve (16, 24 and 36 players among those of 16 and more) a seeded
//! search swaps players between tables until no pair repeats; then roles are given so that each
//! player and each table has each role once (see `draw::roles`); at last the tables of each round are
//! numbered by lot. A game is named `q{round}-t{table}` within its tournament, and its stream
//! carries the tournament's id before that name (`open27-q1-t3`, [`tournament_game`]), so that
//! every tournament on a ledger has games of its own. Draws stored before that (issue 32) name
//! their games `q{round}-t{table}` alone; they verify as they always did ([`verify_with_stand_ins`]).
//!
//! Stored draws are a promise: the recorded games of a `qualifying_drawn` must stay what
//! [`verify_draw`] computes from its seed. Any change to this module that changes a draw is a
//! breaking change; the golden test in `ledger/tests/it/draw.rs` pins one.

mod lots;
mod roles;
mod schedule;

use crate::event::{DrawnGame, Event, PlayerId, Seats};
use crate::names::Role;
use lots::Lots;
use schedule::{Schedule, ROUNDS, SEATS};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Two players the draw seats together more than once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepeatedPair {
    /// The two players, in registration order.
    pub players: [PlayerId; 2],
    /// In how many of the 4 rounds they share a table (2 or more).
    pub times_met: u32,
}

/// A computed qualifying draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QualifyingDraw {
    pub seed: u64,
    /// The stand-ins the draw seats (0 to 3), in registration order: as many as the players
    /// lack of a multiple of 4.
    pub stand_ins: Vec<PlayerId>,
    /// By round, then table.
    pub games: Vec<DrawnGame>,
    /// The repeats the draw could not avoid; empty from 16 players on.
    pub repeats: Vec<RepeatedPair>,
}

impl QualifyingDraw {
    /// Meetings beyond the first, over all pairs: 0 when nobody meets anyone twice.
    pub fn repeated_meetings(&self) -> u32 {
        self.repeats.iter().map(|pair| pair.times_met - 1).sum()
    }

    /// The same draw with each game's stream named for `tournament` ([`tournament_game`]).
    #[must_use]
    pub fn for_tournament(mut self, tournament: &str) -> Self {
        for game in &mut self.games {
            game.game = tournament_game(tournament, &game.game);
        }
        self
    }

    /// The event that records this draw.
    pub fn to_event(&self) -> Event {
        Event::QualifyingDrawn { seed: self.seed, games: self.games.clone() }
    }
}

/// Why no draw can be made for these players.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    #[error("a qualifying draw needs players: none are registered")]
    NoPlayers,
    #[error(
        "a qualifying draw of {players} players needs {needed} stand-in{} to fill its tables, but {registered} {} registered",
        if *needed == 1 { "" } else { "s" },
        if *registered == 1 { "is" } else { "are" }
    )]
    StandInsMissing { players: usize, needed: usize, registered: usize },
    #[error(
        "a qualifying draw of {players} players would need {needed} stand-ins at {tables} table{}: \
         register more players (stand-ins never share a table)",
        if *tables == 1 { "" } else { "s" }
    )]
    TooFewTables { players: usize, needed: usize, tables: usize },
    #[error("player {0} is listed twice for the qualifying draw")]
    ListedTwice(PlayerId),
}

impl DrawError {
    /// The catalogue's words for it.
    pub fn reason(&self) -> crate::rejection::Reason {
        use crate::rejection::Reason;
        match self {
            DrawError::NoPlayers => Reason::new("refusal-draw-no-players"),
            DrawError::StandInsMissing { players, needed, registered } => Reason::new("refusal-draw-stand-ins")
                .arg("players", *players)
                .arg("needed", *needed)
                .arg("registered", *registered),
            DrawError::TooFewTables { players, needed, tables } => Reason::new("refusal-draw-tables")
                .arg("players", *players)
                .arg("needed", *needed)
                .arg("tables", *tables),
            DrawError::ListedTwice(player) => Reason::new("refusal-draw-twice").arg("player", player.as_str()),
        }
    }
}

/// A recorded lot (docs/EVENTS.md, `lot_drawn`): the tied players in alphabetical order,
/// shuffled by the seeded lots. Recomputable, so a lot can be checked and never silently redrawn.
pub fn lot_order(players: &[PlayerId], seed: u64) -> Vec<PlayerId> {
    let mut order: Vec<PlayerId> = players.to_vec();
    order.sort();
    order.dedup();
    Lots::new(seed).shuffle(&mut order);
    order
}

/// The name of a qualifying game within its tournament: `q{round}-t{table}`, e.g. `q2-t5`.
pub fn game_id(round: u32, table: u32) -> String {
    format!("q{round}-t{table}")
}

/// The final's name within its tournament.
pub const FINAL: &str = "final";

/// The id of a tournament's game stream: the tournament's id, `-`, and the game's name in the
/// tournament (`open27-q2-t5`, `open27-final`). The name alone would be the same in every
/// tournament of a ledger; which tournament a game belongs to is still what its schedule says.
pub fn tournament_game(tournament: &str, name: &str) -> String {
    format!("{tournament}-{name}")
}

/// Is `game` a qualifying game's name as draws named them before games carried their
/// tournament's id (`q3-t12`)?
pub fn is_unprefixed_name(game: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    game.strip_prefix('q')
        .and_then(|rest| rest.split_once("-t"))
        .is_some_and(|(round, table)| digits(round) && digits(table))
}

/// How many stand-ins a field of `players` needs: what it lacks of a multiple of 4.
pub fn stand_ins_needed(players: usize) -> usize {
    (SEATS - players % SEATS) % SEATS
}

/// Draws the qualifying round for `players` (the registered players in registration order)
/// from `seed`, without stand-ins.
///
/// # Errors
/// See [`draw_with_stand_ins`].
pub fn draw_qualifying(players: &[PlayerId], seed: u64) -> Result<QualifyingDraw, DrawError> {
    draw_with_stand_ins(players, &[], seed)
}

/// Draws the qualifying round for `players` from `seed`, seating the first stand-ins of
/// `stand_ins` (registration order) when the players are not a multiple of 4.
///
/// # Errors
/// No players, too few stand-ins registered, too few tables to keep stand-ins apart, or a
/// player listed twice.
pub fn draw_with_stand_ins(
    players: &[PlayerId],
    stand_ins: &[PlayerId],
    seed: u64,
) -> Result<QualifyingDraw, DrawError> {
    let needed = stand_ins_needed(players.len());
    let field = check_players(players, stand_ins, needed)?;
    let players = field.as_slice();
    let n = players.len();
    let m = n / SEATS;
    let mut lots = Lots::new(seed);
    let mut schedule = Schedule::designed(n, n - needed, &mut lots);
    schedule.improve(&mut lots);
    let roles = roles::assign(n, schedule.members());
    let mut role_of_number = Role::ALL.to_vec();
    lots.shuffle(&mut role_of_number);
    let mut games = Vec::with_capacity(n);
    for (r, tables) in schedule.members().iter().enumerate() {
        let mut numbers: Vec<usize> = (1..=m).collect();
        lots.shuffle(&mut numbers);
        for (t, seated) in tables.iter().enumerate() {
            let seat = |role: Role| {
                let p = seated
                    .iter()
                    .copied()
                    .find(|&p| role_of_number[roles[r][p]] == role)
                    .expect("each table has each role once");
                players[p].clone()
            };
            let round = u32::try_from(r + 1).expect("4 rounds");
            let table = u32::try_from(numbers[t]).expect("fewer than 2^32 tables");
            games.push(DrawnGame {
                game: game_id(round, table),
                round,
                table,
                seats: Seats {
                    frederick: seat(Role::Frederick),
                    elisabeth: seat(Role::Elisabeth),
                    maria_theresa: seat(Role::MariaTheresa),
                    pompadour: seat(Role::Pompadour),
                },
            });
        }
    }
    games.sort_by_key(|g| (g.round, g.table));
    let repeats = schedule
        .repeated_pairs()
        .into_iter()
        .map(|(p, q, times_met)| RepeatedPair {
            players: [players[p].clone(), players[q].clone()],
            times_met: u32::from(times_met),
        })
        .collect();
    debug_assert_eq!(games.len(), ROUNDS * m);
    Ok(QualifyingDraw { seed, stand_ins: players[n - needed..].to_vec(), games, repeats })
}

/// Checks a recorded draw (e.g. the games of a `qualifying_drawn`) of `tournament` against the
/// draw that `seed` gives for `players` (registration order), game by game whatever their order.
///
/// # Errors
/// See [`verify_with_stand_ins`].
pub fn verify_draw(tournament: &str, players: &[PlayerId], seed: u64, games: &[DrawnGame]) -> Result<(), String> {
    verify_with_stand_ins(tournament, players, &[], seed, games)
}

/// Checks a recorded draw of `tournament` against the draw that `seed` gives for `players` and
/// the registered `stand_ins`, game by game whatever their order. Its games carry the
/// tournament's id ([`QualifyingDraw::for_tournament`]), or, as draws stored before issue 32
/// did, every one of them is named `q{round}-t{table}` alone: those still verify, and the
/// ledger's check across streams keeps them from taking another tournament's games.
///
/// # Errors
/// A sentence naming the first difference: a game missing, added or seated differently, or
/// why no draw can be made for these players.
pub fn verify_with_stand_ins(
    tournament: &str,
    players: &[PlayerId],
    stand_ins: &[PlayerId],
    seed: u64,
    games: &[DrawnGame],
) -> Result<(), String> {
    let drawn = draw_with_stand_ins(players, stand_ins, seed).map_err(|e| e.to_string())?;
    let unprefixed = !games.is_empty() && games.iter().all(|g| is_unprefixed_name(&g.game));
    let expected = if unprefixed { drawn } else { drawn.for_tournament(tournament) };
    let mut recorded: BTreeMap<&str, &DrawnGame> = BTreeMap::new();
    for game in games {
        if recorded.insert(&game.game, game).is_some() {
            return Err(format!("the recorded draw lists game {} twice", game.game));
        }
    }
    for want in &expected.games {
        match recorded.remove(want.game.as_str()) {
            None => {
                return Err(format!(
                    "the recorded draw has no game {}; seed {seed} gives {}",
                    want.game,
                    describe(want)
                ))
            }
            Some(got) if got != want => {
                return Err(format!(
                    "the recorded draw differs from seed {seed} in game {}: recorded {}, the seed gives {}",
                    want.game,
                    describe(got),
                    describe(want)
                ))
            }
            Some(_) => {}
        }
    }
    match recorded.keys().next() {
        Some(extra) => Err(format!("the recorded draw has game {extra}, which seed {seed} does not give")),
        None => Ok(()),
    }
}

fn describe(game: &DrawnGame) -> String {
    let seats: Vec<String> = game.seats.iter().map(|(role, p)| format!("{role} {p}")).collect();
    format!("round {} table {}: {}", game.round, game.table, seats.join(", "))
}

/// The whole field: the players, then the `needed` first stand-ins.
fn check_players(players: &[PlayerId], stand_ins: &[PlayerId], needed: usize) -> Result<Vec<PlayerId>, DrawError> {
    if players.is_empty() {
        return Err(DrawError::NoPlayers);
    }
    if stand_ins.len() < needed {
        return Err(DrawError::StandInsMissing { players: players.len(), needed, registered: stand_ins.len() });
    }
    let tables = (players.len() + needed) / SEATS;
    if tables < needed {
        return Err(DrawError::TooFewTables { players: players.len(), needed, tables });
    }
    let field: Vec<PlayerId> = players.iter().chain(&stand_ins[..needed]).cloned().collect();
    let mut seen = std::collections::BTreeSet::new();
    for p in &field {
        if !seen.insert(p) {
            return Err(DrawError::ListedTwice(p.clone()));
        }
    }
    Ok(field)
}
