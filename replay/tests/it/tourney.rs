//! Builders for tournaments whose scores a test controls: a template game (Russia wins in
//! turn 15) that every table plays, with small changes per game. Every stream built here is
//! checked against the ledger's rules.

use ledger::event::Seats;
use ledger::{Event, Nation, Outcome, Role, Ruleset, Stage, StreamId, StreamState};
use std::collections::BTreeMap;

/// One game, described by what scoring reads.
#[derive(Debug, Clone)]
pub struct GameSpec {
    pub turns: u32,
    pub outcome: Outcome,
    pub winners: Vec<Nation>,
    pub objectives: BTreeMap<Nation, (i32, i32)>,
    pub tc: BTreeMap<Nation, i32>,
    pub fate_horizon: Option<u32>,
}

impl GameSpec {
    /// Russia wins in turn 15. CAFE: F 7.5, E 11.5 (Sweden 4.1), MT 5.1 (Imperial Army 4.1),
    /// P 5.1. wm2015: F 7.5, E 10 + 2, MT 5 (Imperial Army 4), P 5. TCC 15/30, N 20.
    pub fn template() -> GameSpec {
        GameSpec {
            turns: 15,
            outcome: Outcome::AlliedVictory,
            winners: vec![Nation::Russia],
            objectives: BTreeMap::from([
                (Nation::Russia, (10, 10)),
                (Nation::Sweden, (2, 5)),
                (Nation::Austria, (6, 12)),
                (Nation::ImperialArmy, (2, 5)),
                (Nation::France, (10, 20)),
            ]),
            tc: BTreeMap::from([
                (Nation::Prussia, 10),
                (Nation::Hanover, 5),
                (Nation::Russia, 6),
                (Nation::Sweden, 6),
                (Nation::Austria, 6),
                (Nation::ImperialArmy, 6),
                (Nation::France, 6),
            ]),
            fate_horizon: Some(20),
        }
    }

    pub fn held(mut self, nation: Nation, held: i32) -> GameSpec {
        self.objectives.get_mut(&nation).expect("in the game").0 = held;
        self
    }

    pub fn events(&self, ruleset: Ruleset) -> Vec<(u64, Event)> {
        let mut events = vec![Event::GameStarted { at_ms: 0, ruleset: None, tournament: None }];
        for turn in 1..=self.turns {
            events.push(Event::TurnStarted { turn, at_ms: None });
            // Each nation's cards in deals the rules allow, the first turns first.
            let dealt = i32::try_from(turn - 1).map_or(i32::MAX, |t| t.saturating_mul(ledger::event::MAX_TC_PER_DEAL));
            events.extend(self.tc.iter().filter(|(_, &count)| count > dealt).map(|(&nation, &count)| Event::TcDealt {
                nation,
                count: (count - dealt).min(ledger::event::MAX_TC_PER_DEAL),
            }));
        }
        events.push(Event::GameEnded {
            outcome: self.outcome,
            winners: self.winners.clone(),
            objectives: self.objectives.clone(),
            bohemian_held_by_prussia: None,
        });
        if let Some(turn) = self.fate_horizon {
            events.push(Event::FateHorizonRecorded { turn });
        }
        checked("game/g", Some(ruleset), events)
    }
}

fn checked(stream: &str, ruleset: Option<Ruleset>, events: Vec<Event>) -> Vec<(u64, Event)> {
    let stream = StreamId::parse(stream).expect("valid stream");
    let mut state = StreamState::new(&stream, ruleset);
    for event in &events {
        state.apply(event).unwrap_or_else(|r| panic!("{stream}: {} refused: {}", event.type_name(), r.message));
    }
    replay::sheet::with_seqs(events)
}

pub fn player(n: usize) -> String {
    format!("p{n}")
}

/// Tables of four (p1–p4, p5–p8 …) that keep their players for four rounds; in round r the
/// role i goes to the table's player (i + r − 1) mod 4:
/// r1: F p1, E p2, MT p3, P p4 · r2: F p2, E p3, MT p4, P p1 ·
/// r3: F p3, E p4, MT p1, P p2 · r4: F p4, E p1, MT p2, P p3.
pub struct Tourney {
    pub ruleset: Ruleset,
    pub n_players: usize,
    pub games: BTreeMap<String, GameSpec>,
    pub final_game: Option<GameSpec>,
    pub lots: Vec<(&'static str, Vec<usize>)>,
    /// The last this many of the `n_players` seated are stand-ins (`stand_in_registered`).
    pub stand_ins: usize,
    /// Withdrawals, recorded after the line-up and the lots: player, first round missed, and
    /// the stand-in taking the seats, a spare one registered after the seated players.
    pub withdrawals: Vec<(usize, u32, Option<usize>)>,
}

pub fn seats(table: usize, round: usize) -> Seats {
    let at = |role: usize| player(4 * table + (role + round - 1) % 4 + 1);
    Seats { frederick: at(0), elisabeth: at(1), maria_theresa: at(2), pompadour: at(3) }
}

pub fn game_id(round: usize, table: usize) -> String {
    format!("r{round}-t{}", table + 1)
}

impl Tourney {
    pub fn new(ruleset: Ruleset, n_players: usize) -> Tourney {
        let mut games = BTreeMap::new();
        for table in 0..n_players / 4 {
            for round in 1..=4 {
                games.insert(game_id(round, table), GameSpec::template());
            }
        }
        Tourney { ruleset, n_players, games, final_game: None, lots: Vec::new(), stand_ins: 0, withdrawals: Vec::new() }
    }

    pub fn change(&mut self, game: &str, how: impl FnOnce(GameSpec) -> GameSpec) -> &mut Self {
        let spec = self.games.remove(game).expect("scheduled game");
        self.games.insert(game.to_owned(), how(spec));
        self
    }

    pub fn tournament_events(&self) -> Vec<(u64, Event)> {
        let mut events =
            vec![Event::TournamentCreated { name: "Test Open".into(), ruleset: self.ruleset, clock_ms_per_side: None }];
        for n in 1..=self.n_players {
            events.push(if n > self.n_players - self.stand_ins {
                Event::StandInRegistered { player: player(n), name: format!("Stand-in {n}") }
            } else {
                Event::PlayerRegistered { player: player(n), name: format!("Player {n}"), pseudonym: None }
            });
        }
        // A line-up entered by hand (`game_scheduled`): a `qualifying_drawn` must follow from
        // its seed, and these tests choose their seatings.
        for table in 0..self.n_players / 4 {
            for round in 1..=4 {
                events.push(Event::GameScheduled {
                    game: game_id(round, table),
                    stage: Stage::Qualifying,
                    round: u32::try_from(round).unwrap(),
                    table: u32::try_from(table + 1).unwrap(),
                    seats: seats(table, round),
                });
            }
        }
        if self.final_game.is_some() {
            events.push(Event::GameScheduled {
                game: "final".into(),
                stage: Stage::Final,
                round: 5,
                table: 1,
                seats: seats(0, 1),
            });
        }
        for (purpose, order) in &self.lots {
            // A lot must be what its seed gives: find a seed that gives the order this test wants.
            let order: Vec<String> = order.iter().map(|&n| player(n)).collect();
            let seed = (0..10_000).find(|&s| ledger::draw::lot_order(&order, s) == order).expect("some seed gives it");
            events.push(Event::LotDrawn { purpose: (*purpose).into(), seed, order });
        }
        for &(who, from_round, stand_in) in &self.withdrawals {
            if let Some(spare) = stand_in.filter(|&s| s > self.n_players) {
                events.push(Event::StandInRegistered { player: player(spare), name: format!("Stand-in {spare}") });
            }
            events.push(Event::PlayerWithdrew { player: player(who), from_round, stand_in: stand_in.map(player) });
        }
        checked("tournament/t", None, events)
    }

    pub fn standings(&self) -> replay::Standings {
        let mut streams: BTreeMap<String, Vec<(u64, Event)>> =
            self.games.iter().map(|(id, spec)| (id.clone(), spec.events(self.ruleset))).collect();
        if let Some(spec) = &self.final_game {
            streams.insert("final".into(), spec.events(self.ruleset));
        }
        replay::standings(&self.tournament_events(), &streams).expect("standings")
    }
}

/// The roles the final's seats give (seats of round 1 at table 1).
pub fn final_role(role: Role) -> String {
    seats(0, 1).player(role).clone()
}
