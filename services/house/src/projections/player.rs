//! A tournament's day as the public may see it, and one player's part of it: where each player
//! sits in each round (the public pairings), and a player's own page — the game running or next,
//! the games after it, the scores and rank of the public standings, the final. Everyone is named
//! by pseudonym (a stand-in, who has none, by its number); the players' ids are kept only to find
//! the player a personal link names, and no view hands them out. Pure: the facade gathers the
//! streams ([`crate::facade::player`]).

use super::{pseudonymize, pseudonyms};
use ledger::event::Seats;
use ledger::{Event, Role, Ruleset, Stage};
use replay::season::GameProgress;
use replay::standings::{StandingRow, Standings, TournamentFacts};

/// Someone seated at a game, as the public may name them.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Shown {
    /// A registered player, by pseudonym.
    Player(String),
    /// The `n`th stand-in (from 1, registration order): stand-ins have no pseudonym.
    StandIn(usize),
}

/// A scheduled game under pseudonyms, and how far it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayGame {
    pub game: String,
    pub stage: Stage,
    pub round: u32,
    pub table: u32,
    /// Pseudonyms, as seated now (a withdrawal's stand-in included).
    pub seats: Seats,
    pub progress: GameProgress,
}

/// One player's seat at one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    pub game: String,
    pub stage: Stage,
    pub round: u32,
    pub table: u32,
    pub role: Role,
    pub progress: GameProgress,
    /// The other three, by role, in the rule book's role order.
    pub others: Vec<(Role, Shown)>,
}

/// What a player's own page shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerView {
    pub tournament: String,
    pub name: String,
    pub ruleset: Ruleset,
    pub who: Shown,
    /// The game running (else the next one to start), if any is left.
    pub now: Option<Seat>,
    /// The games after it that have not ended, in round order.
    pub next: Vec<Seat>,
    /// How many games the player is seated at, ended ones included (none before the draw).
    pub seated: usize,
    /// The player's line of the public standings (stand-ins are never ranked).
    pub row: Option<StandingRow>,
    /// How many players the standings rank.
    pub ranked: u32,
    /// Among the finalists once the qualifying rounds settled them (not "so far"), or with a
    /// role chosen for the final, or seated at it.
    pub finalist: bool,
    /// The role chosen for the final.
    pub final_role: Option<Role>,
    /// The round from which a stand-in took the player's seats.
    pub withdrawn: Option<u32>,
    /// The final has been played to its end.
    pub final_ended: bool,
    /// Its winner, the tournament's champion, once the final has ended and the rules name one.
    pub champion: Option<Shown>,
}

/// One line of a round's public pairings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    pub who: Shown,
    pub table: u32,
    pub role: Role,
    pub game: String,
}

/// A tournament's day as the public may see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicDay {
    /// The tournament's id (its stream's).
    pub tournament: String,
    pub name: String,
    pub ruleset: Ruleset,
    /// Every scheduled game, by round, then table.
    pub games: Vec<DayGame>,
    /// The public standings (the board's).
    pub standings: Standings,
    /// Stand-ins' public names, in registration order.
    stand_ins: Vec<String>,
    withdrawn: Vec<(String, u32)>,
    final_roles: Vec<(String, Role)>,
    /// Player id → public name, registered players then stand-ins. Never shown: only
    /// [`PublicDay::alias`] reads it, to find whom a personal link names.
    people: Vec<(String, String)>,
}

impl PublicDay {
    /// The day of tournament `id` from its stream's `events`, its public `standings` and each
    /// scheduled game's progress. `None` when the events created no tournament.
    pub fn fold(
        id: &str,
        events: &[(u64, Event)],
        standings: Standings,
        mut progress: impl FnMut(&str) -> GameProgress,
    ) -> Option<PublicDay> {
        let private = TournamentFacts::fold(events);
        let ruleset = private.ruleset?;
        let aliases = pseudonyms(events);
        let public = TournamentFacts::fold(&pseudonymize(events));
        let alias = |player: &String| aliases.get(player).cloned().unwrap_or_default();
        let people = private.players.iter().chain(&private.stand_ins).map(|(id, _)| (id.clone(), alias(id))).collect();
        let mut games: Vec<DayGame> = public
            .games
            .iter()
            .map(|g| DayGame {
                game: g.game.clone(),
                stage: g.slot.stage,
                round: g.slot.round,
                table: g.slot.table,
                seats: g.slot.seats.clone(),
                progress: progress(&g.game),
            })
            .collect();
        games.sort_by_key(|g| (g.round, g.table));
        Some(PublicDay {
            tournament: id.to_owned(),
            name: private.name,
            ruleset,
            games,
            standings,
            stand_ins: public.stand_ins.into_iter().map(|(p, _)| p).collect(),
            withdrawn: public.withdrawn,
            final_roles: public.final_roles,
            people,
        })
    }

    /// The ids of everyone registered, players then stand-ins (to find a personal link's).
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.people.iter().map(|(id, _)| id.as_str())
    }

    /// The public name of the player with id `player`.
    pub fn alias(&self, player: &str) -> Option<&str> {
        self.people.iter().find(|(id, _)| id == player).map(|(_, alias)| alias.as_str())
    }

    /// A public name as pages show it: a stand-in by its number.
    pub fn shown(&self, alias: &str) -> Shown {
        match self.stand_ins.iter().position(|s| s == alias) {
            Some(n) => Shown::StandIn(n + 1),
            None => Shown::Player(alias.to_owned()),
        }
    }

    /// The rounds, in order, each with whether it is the final.
    pub fn rounds(&self) -> Vec<(u32, bool)> {
        let mut rounds: Vec<(u32, bool)> = Vec::new();
        for game in &self.games {
            match rounds.last_mut() {
                Some((round, is_final)) if *round == game.round => *is_final &= game.stage == Stage::Final,
                _ => rounds.push((game.round, game.stage == Stage::Final)),
            }
        }
        rounds
    }

    /// Who sits where in `round`: registered players alphabetically by pseudonym (letter case
    /// aside), then stand-ins by number. `None` when the round has no games.
    pub fn pairings(&self, round: u32) -> Option<Vec<Pairing>> {
        let mut lines: Vec<Pairing> = self
            .games
            .iter()
            .filter(|g| g.round == round)
            .flat_map(|g| {
                Role::ALL.iter().map(move |role| Pairing {
                    who: self.shown(g.seats.player(*role)),
                    table: g.table,
                    role: *role,
                    game: g.game.clone(),
                })
            })
            .collect();
        if lines.is_empty() {
            return None;
        }
        lines.sort_by(|a, b| sort_key(&a.who).cmp(&sort_key(&b.who)).then_with(|| a.table.cmp(&b.table)));
        Some(lines)
    }

    /// The page of the player known in public as `alias`.
    pub fn player(&self, alias: &str) -> PlayerView {
        let seats: Vec<Seat> = self
            .games
            .iter()
            .filter_map(|g| {
                let role = Role::ALL.iter().copied().find(|r| g.seats.player(*r) == alias)?;
                let others =
                    Role::ALL.iter().filter(|r| **r != role).map(|r| (*r, self.shown(g.seats.player(*r)))).collect();
                Some(Seat {
                    game: g.game.clone(),
                    stage: g.stage,
                    round: g.round,
                    table: g.table,
                    role,
                    progress: g.progress,
                    others,
                })
            })
            .collect();
        let seated = seats.len();
        let mut left: Vec<Seat> = seats.into_iter().filter(|s| !s.progress.ended).collect();
        // A game being played comes first, even if an earlier one's end was voided meanwhile.
        let now = match left.iter().position(|s| s.progress.started) {
            Some(running) => Some(left.remove(running)),
            None if left.is_empty() => None,
            None => Some(left.remove(0)),
        };
        let final_role = self.final_roles.iter().find(|(p, _)| p == alias).map(|(_, role)| *role);
        let in_final =
            self.games.iter().any(|g| g.stage == Stage::Final && Role::ALL.iter().any(|r| g.seats.player(*r) == alias));
        PlayerView {
            tournament: self.tournament.clone(),
            name: self.name.clone(),
            ruleset: self.ruleset,
            who: self.shown(alias),
            now,
            next: left,
            seated,
            row: self.standings.rows.iter().find(|row| row.player == alias).cloned(),
            ranked: u32::try_from(self.standings.rows.len()).unwrap_or(u32::MAX),
            finalist: in_final
                || final_role.is_some()
                || (self.standings.finalists_settled && self.standings.finalists.iter().any(|p| p == alias)),
            final_role,
            withdrawn: self.withdrawn.iter().find(|(p, _)| p == alias).map(|(_, round)| *round),
            final_ended: self.games.iter().any(|g| g.stage == Stage::Final && g.progress.ended),
            champion: self
                .standings
                .final_result
                .as_ref()
                .and_then(|result| result.winner.as_deref())
                .map(|winner| self.shown(winner)),
        }
    }
}

/// Players by pseudonym, letter case aside, then stand-ins by number.
fn sort_key(who: &Shown) -> (u8, String, usize) {
    match who {
        Shown::Player(alias) => (0, alias.to_lowercase(), 0),
        Shown::StandIn(n) => (1, String::new(), *n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::projections::{public_standings, tournament_games, Streams};
    use ledger::StreamId;

    const OPEN26: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/tournament-open26.jsonl"));

    /// The example tournament, its first game left unplayed and its second only started.
    fn day() -> (PublicDay, Vec<(u64, Event)>) {
        let mut streams = Streams::new();
        for line in ledger::check::parse_lines(OPEN26).unwrap() {
            let id = StreamId::parse(line.stream.as_deref().unwrap()).unwrap();
            let events = streams.entry(id).or_default();
            events.push((events.len() as u64 + 1, line.event));
        }
        let tournament = StreamId::tournament("open26").unwrap();
        let events = streams[&tournament].clone();
        let games = tournament_games(&events);
        let (first, second) = (StreamId::game(&games[0]).unwrap(), StreamId::game(&games[1]).unwrap());
        streams.remove(&first);
        streams.get_mut(&second).unwrap().truncate(1);
        let standings = public_standings(&streams, &tournament).unwrap();
        let progress = |game: &str| {
            let events = streams.get(&StreamId::game(game).unwrap());
            let started = events.is_some_and(|e| !e.is_empty());
            let ended = events.is_some_and(|e| e.iter().any(|(_, e)| matches!(e, Event::GameEnded { .. })));
            GameProgress { started, ended }
        };
        (PublicDay::fold("open26", &events, standings, progress).unwrap(), events)
    }

    #[test]
    fn the_day_names_nobody_but_finds_each_player_by_id() {
        let (day, events) = day();
        let facts = TournamentFacts::fold(&events);
        let shown =
            format!("{:?}", (day.games.clone(), day.pairings(1), day.player(day.alias(&facts.players[0].0).unwrap())));
        for (id, name) in &facts.players {
            assert!(!shown.contains(name.as_str()), "{name} is shown");
            let alias = day.alias(id).unwrap();
            assert_ne!(alias, name);
        }
        assert_eq!(day.ids().count(), facts.players.len() + facts.stand_ins.len());
    }

    #[test]
    fn a_round_is_listed_alphabetically_once_per_seat() {
        let (day, _) = day();
        let lines = day.pairings(1).unwrap();
        let seats = day.games.iter().filter(|g| g.round == 1).count() * 4;
        assert_eq!(lines.len(), seats);
        let keys: Vec<_> = lines.iter().map(|l| sort_key(&l.who)).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
        // Each line is the draw's seat.
        for line in &lines {
            let game = day.games.iter().find(|g| g.game == line.game).unwrap();
            assert_eq!(day.shown(game.seats.player(line.role)), line.who);
            assert_eq!(game.table, line.table);
        }
        assert_eq!(day.pairings(99), None);
    }

    #[test]
    fn a_player_sees_the_running_game_first_then_the_rest_and_their_row() {
        let (day, _) = day();
        let running = day.games.iter().find(|g| g.progress.started && !g.progress.ended).unwrap();
        let alias = running.seats.player(Role::Elisabeth).clone();
        let view = day.player(&alias);
        let now = view.now.clone().unwrap();
        assert_eq!((now.game.as_str(), now.role), (running.game.as_str(), Role::Elisabeth));
        assert!(now.progress.started && !now.progress.ended);
        assert_eq!(now.others.len(), 3);
        assert!(now.others.iter().all(|(role, _)| *role != Role::Elisabeth));
        assert!(view.next.iter().all(|s| !s.progress.ended && s.round >= 1));
        assert_eq!(view.row.as_ref().map(|r| r.player.as_str()), Some(alias.as_str()));
        // Games still to play: nobody is a finalist yet, whatever the standings list so far.
        assert!(!day.standings.finalists_settled && !view.finalist);
        // A player of the unplayed first game has it as their game now.
        let unplayed = day.games.iter().find(|g| !g.progress.started).unwrap();
        let view = day.player(unplayed.seats.player(Role::Pompadour));
        assert_eq!(view.now.map(|s| (s.game, s.progress.started)), Some((unplayed.game.clone(), false)));
    }

    #[test]
    fn before_the_draw_nothing_and_after_a_withdrawal_the_stand_in_takes_the_seats() {
        let seats = |p: [&str; 4]| Seats {
            frederick: p[0].into(),
            elisabeth: p[1].into(),
            maria_theresa: p[2].into(),
            pompadour: p[3].into(),
        };
        let scheduled = |round: u32| Event::GameScheduled {
            game: format!("t-q{round}-t1"),
            stage: Stage::Qualifying,
            round,
            table: 1,
            seats: seats(["a", "b", "c", "d"]),
        };
        let mut events =
            vec![Event::TournamentCreated { name: "T".into(), ruleset: Ruleset::Cafe2019, clock_ms_per_side: None }];
        for (player, pseudonym) in [("a", "Ace"), ("b", "bee"), ("c", "Cat"), ("d", "dog")] {
            let name = format!("Real {player}");
            events.push(Event::PlayerRegistered { player: player.into(), name, pseudonym: Some(pseudonym.into()) });
        }
        events.push(Event::StandInRegistered { player: "s".into(), name: "Real s".into() });
        let day_of = |events: &[Event]| {
            let events: Vec<(u64, Event)> = (1..).zip(events.iter().cloned()).collect();
            let tournament = StreamId::tournament("t").unwrap();
            let streams = Streams::from([(tournament.clone(), events.clone())]);
            let standings = public_standings(&streams, &tournament).unwrap();
            PublicDay::fold("t", &events, standings, |_| GameProgress::default()).unwrap()
        };
        let before = day_of(&events).player("Ace");
        assert_eq!((before.seated, before.now, before.next.len()), (0, None, 0));
        assert_eq!(day_of(&events).rounds(), []);

        events.extend([scheduled(1), scheduled(2)]);
        events.push(Event::PlayerWithdrew { player: "a".into(), from_round: 2, stand_in: Some("s".into()) });
        let day = day_of(&events);
        let left = day.player("Ace");
        assert_eq!(left.withdrawn, Some(2));
        assert_eq!(left.now.map(|s| s.round), Some(1));
        assert!(left.next.is_empty(), "round 2 is the stand-in's");
        let stand_in = day.alias("s").unwrap().to_owned();
        let view = day.player(&stand_in);
        assert_eq!(view.who, Shown::StandIn(1));
        assert_eq!(view.now.as_ref().map(|s| (s.round, s.role)), Some((2, Role::Frederick)));
        assert_eq!(view.row, None, "a stand-in is never ranked");
        let round2: Vec<Shown> = day.pairings(2).unwrap().into_iter().map(|line| line.who).collect();
        let names = |n: &[&str]| n.iter().map(|p| Shown::Player((*p).to_owned())).collect::<Vec<_>>();
        assert_eq!(round2, [names(&["bee", "Cat", "dog"]), vec![Shown::StandIn(1)]].concat());
        assert_eq!(day.rounds(), [(1, false), (2, false)]);

        // The final: chosen roles, then its schedule.
        events.push(Event::FinalRoleChosen { player: "b".into(), role: Role::Pompadour });
        let chosen = day_of(&events).player("bee");
        assert_eq!((chosen.finalist, chosen.final_role), (true, Some(Role::Pompadour)));
        events.push(Event::GameScheduled {
            game: "t-final".into(),
            stage: Stage::Final,
            round: 5,
            table: 1,
            seats: seats(["c", "d", "s", "b"]),
        });
        let day = day_of(&events);
        let last = day.player("bee").next.pop().unwrap();
        assert_eq!((last.stage, last.round, last.role), (Stage::Final, 5, Role::Pompadour));
        assert_eq!(day.rounds().last(), Some(&(5, true)));
        assert!(!day.player("Ace").finalist);
    }
}
