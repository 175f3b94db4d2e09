//! The tournament stream's rules: creation, registration (of players and of stand-ins), the
//! draw, scheduled games, the final's role choices and recorded lots.

use crate::event::{DrawnGame, Event, PlayerId, Seats};
use crate::names::{Role, Ruleset, Stage};
use crate::rejection::{Arg, Rejection};
use crate::stream::StreamId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A game the tournament has put on a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduledGame {
    pub stage: Stage,
    pub round: u32,
    pub table: u32,
    pub seats: Seats,
}

/// What the tournament stream has recorded so far.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentState {
    /// The tournament's id (its stream's): its games' streams carry it (`<id>-q1-t1`).
    pub id: String,
    pub ruleset: Option<Ruleset>,
    /// Player id → name.
    pub players: BTreeMap<PlayerId, String>,
    /// Player ids in the order they registered: the qualifying draw deals from this list.
    pub registration_order: Vec<PlayerId>,
    /// Player id → the pseudonym the public board shows, for those who gave one: no two alike.
    pub pseudonyms: BTreeMap<PlayerId, String>,
    /// Stand-ins (id, name) in the order they registered: the draw seats the first it needs.
    /// They sit at tables, but are not players: never ranked, never in a lot or the final.
    pub stand_ins: Vec<(PlayerId, String)>,
    /// Players who withdrew, with the round from which a stand-in took their seats.
    pub withdrawn: BTreeMap<PlayerId, u32>,
    pub drawn: bool,
    pub games: BTreeMap<String, ScheduledGame>,
    pub final_roles: BTreeMap<Role, PlayerId>,
    /// Purposes of the lots drawn.
    pub lots: Vec<String>,
}

impl TournamentState {
    /// The state of the empty stream `tournament/<id>`.
    pub fn new(id: &str) -> Self {
        TournamentState { id: id.to_owned(), ..TournamentState::default() }
    }

    /// The same tournament before any event (what a void replays from).
    pub(super) fn fresh(&self) -> Self {
        TournamentState::new(&self.id)
    }

    /// The jury is called to a tournament that exists.
    pub(super) fn decide_jury(&self, event: &Event) -> Result<(), Rejection> {
        self.created_before(event)
    }

    fn created_before(&self, event: &Event) -> Result<(), Rejection> {
        if self.ruleset.is_none() {
            return Err(Rejection::precondition(format!(
                "the tournament has not been created: tournament_created comes before {}",
                event.type_name()
            ))
            .said("refusal-tournament-not-created", [("type", Arg::name("table-event-name", event.type_name()))]));
        }
        Ok(())
    }

    pub(super) fn decide(&self, event: &Event) -> Result<(), Rejection> {
        if !matches!(event, Event::TournamentCreated { .. }) {
            self.created_before(event)?;
        }
        match event {
            Event::TournamentCreated { .. } => match self.ruleset {
                Some(ruleset) => {
                    Err(Rejection::precondition(format!("the tournament was already created with ruleset {ruleset}"))
                        .said("refusal-tournament-exists", [("ruleset", Arg::name("ruleset", ruleset))]))
                }
                None => Ok(()),
            },
            Event::PlayerRegistered { player, pseudonym, .. } => {
                self.check_new_id(player)?;
                pseudonym.as_deref().map_or(Ok(()), |p| self.check_new_pseudonym(p))
            }
            Event::StandInRegistered { player, .. } => self.check_new_id(player),
            Event::PlayerUnregistered { player } => self.check_unregister(player),
            Event::QualifyingDrawn { seed, games } => {
                if self.drawn {
                    return Err(Rejection::precondition("the qualifying draw was already recorded")
                        .said("refusal-draw-recorded", []));
                }
                games.iter().try_for_each(|g| self.check_new_game(g))?;
                let stand_ins = self.stand_in_ids();
                crate::draw::verify_with_stand_ins(&self.id, &self.registration_order, &stand_ins, *seed, games)
                    .map_err(|difference| {
                        Rejection::precondition(format!(
                            "this is not the draw of seed {seed} for the {} registered players: {difference}",
                            self.registration_order.len()
                        ))
                        .said(
                            "refusal-draw-differs",
                            [("seed", Arg::text(seed)), ("players", self.registration_order.len().into())],
                        )
                    })
            }
            Event::GameScheduled { game, stage, round, table, seats } => {
                let drawn = DrawnGame { game: game.clone(), round: *round, table: *table, seats: seats.clone() };
                if *stage == Stage::Final {
                    self.check_new_game(&drawn).map_err(|r| r.context("final"))?;
                    for (role, player) in seats.iter() {
                        self.check_finalist(player).map_err(|r| r.context(format!("final {role}")))?;
                    }
                    return self.check_final_seats(seats);
                }
                self.check_new_game(&drawn)
            }
            Event::FinalRoleChosen { player, role } => {
                self.check_finalist(player)?;
                if let Some(taken_by) = self.final_roles.get(role) {
                    return Err(Rejection::precondition(format!("{role} was already chosen by {taken_by}")).said(
                        "refusal-role-taken",
                        [("role", Arg::name("role", role)), ("player", self.who(taken_by))],
                    ));
                }
                if let Some((chosen, _)) = self.final_roles.iter().find(|(_, p)| *p == player) {
                    return Err(Rejection::precondition(format!("{player} already chose {chosen}")).said(
                        "refusal-role-chosen",
                        [("player", self.who(player)), ("role", Arg::name("role", chosen))],
                    ));
                }
                Ok(())
            }
            Event::LotDrawn { purpose, seed, order } => {
                order.iter().try_for_each(|p| self.check_player(p))?;
                if self.lots.contains(purpose) {
                    return Err(Rejection::precondition(format!(
                        "a lot for `{purpose}` was already drawn; the jury voids it before another is drawn"
                    ))
                    .said("refusal-lot-drawn", [("purpose", purpose.into())]));
                }
                let expected = crate::draw::lot_order(order, *seed);
                if expected.len() != order.len() {
                    return Err(Rejection::malformed("a lot names each player once").said("refusal-lot-twice", []));
                }
                if &expected != order {
                    return Err(Rejection::precondition(format!(
                        "this is not the lot of seed {seed}: for these players it gives {}",
                        expected.join(", ")
                    ))
                    .said(
                        "refusal-lot-differs",
                        [("seed", Arg::text(seed)), ("order", Arg::Text(self.names(&expected)))],
                    ));
                }
                Ok(())
            }
            Event::PlayerWithdrew { player, from_round, stand_in } => {
                self.check_withdrawal(player, *from_round, stand_in.as_deref())
            }
            other @ (crate::game_events!() | crate::jury_events!() | Event::Andes(_)) => Err(Rejection::malformed(
                format!("{} does not belong in a tournament stream", other.type_name()),
            )
            .said("refusal-not-a-tournament-event", [("type", Arg::name("table-event-name", other.type_name()))])),
        }
    }

    pub(super) fn evolve(&mut self, event: &Event) {
        match event {
            Event::TournamentCreated { ruleset, .. } => self.ruleset = Some(*ruleset),
            Event::PlayerRegistered { player, name, pseudonym } => {
                self.players.insert(player.clone(), name.clone());
                self.registration_order.push(player.clone());
                if let Some(pseudonym) = pseudonym {
                    self.pseudonyms.insert(player.clone(), pseudonym.clone());
                }
            }
            Event::PlayerUnregistered { player } => {
                self.players.remove(player);
                self.registration_order.retain(|p| p != player);
                self.pseudonyms.remove(player);
                self.stand_ins.retain(|(p, _)| p != player);
            }
            Event::QualifyingDrawn { games, .. } => {
                self.drawn = true;
                for g in games {
                    self.games.insert(
                        g.game.clone(),
                        ScheduledGame {
                            stage: Stage::Qualifying,
                            round: g.round,
                            table: g.table,
                            seats: g.seats.clone(),
                        },
                    );
                }
            }
            Event::GameScheduled { game, stage, round, table, seats } => {
                self.games.insert(
                    game.clone(),
                    ScheduledGame { stage: *stage, round: *round, table: *table, seats: seats.clone() },
                );
            }
            Event::FinalRoleChosen { player, role } => {
                self.final_roles.insert(*role, player.clone());
            }
            Event::LotDrawn { purpose, .. } => self.lots.push(purpose.clone()),
            Event::StandInRegistered { player, name } => self.stand_ins.push((player.clone(), name.clone())),
            Event::PlayerWithdrew { player, from_round, stand_in } => {
                for game in self.reseated(player, *from_round) {
                    let slot = self.games.get_mut(&game).expect("a scheduled game");
                    slot.seats.replace(player, stand_in.as_deref().unwrap_or_default());
                }
                self.final_roles.retain(|_, p| p != player);
                self.withdrawn.insert(player.clone(), *from_round);
            }
            // Another family's event never reaches a tournament's rules (`Folded::decide`).
            crate::game_events!() | crate::jury_events!() | Event::Andes(_) => {}
        }
    }

    /// Once finalists chose roles, the final seats them as they chose.
    fn check_final_seats(&self, seats: &Seats) -> Result<(), Rejection> {
        if self.final_roles.is_empty() {
            return Ok(());
        }
        for (role, player) in seats.iter() {
            match self.final_roles.get(&role) {
                Some(chosen) if chosen == player => {}
                Some(chosen) => {
                    return Err(Rejection::precondition(format!(
                        "the final seats {player} as {role}, but {chosen} chose {role}"
                    ))
                    .said(
                        "refusal-final-seats-other",
                        [("player", self.who(player)), ("role", Arg::name("role", role)), ("chosen", self.who(chosen))],
                    ))
                }
                None => {
                    return Err(Rejection::precondition(format!(
                        "no finalist has chosen {role} yet: the final is scheduled after all four choices"
                    ))
                    .said("refusal-final-role-unchosen", [("role", Arg::name("role", role))]))
                }
            }
        }
        Ok(())
    }

    /// The stand-ins' ids, in registration order.
    pub fn stand_in_ids(&self) -> Vec<PlayerId> {
        self.stand_ins.iter().map(|(id, _)| id.clone()).collect()
    }

    /// A player or stand-in as a person names them: the registered name (the id if none).
    fn who(&self, id: &str) -> Arg {
        Arg::Text(self.display_name(id))
    }

    /// A player's or stand-in's registered name; the id of one not registered.
    pub fn display_name(&self, id: &str) -> String {
        self.players.get(id).or_else(|| self.stand_in_name(id)).cloned().unwrap_or_else(|| id.to_owned())
    }

    /// Players as people name them, joined by a comma.
    fn names(&self, ids: &[PlayerId]) -> String {
        ids.iter().map(|id| self.who(id).plain()).collect::<Vec<_>>().join(", ")
    }

    fn stand_in_name(&self, id: &str) -> Option<&String> {
        self.stand_ins.iter().find(|(p, _)| p == id).map(|(_, name)| name)
    }

    /// A registration's id is neither a player's nor a stand-in's yet.
    fn check_new_id(&self, id: &str) -> Result<(), Rejection> {
        if let Some(name) = self.players.get(id) {
            return Err(Rejection::precondition(format!("player {id} is already registered as {name}"))
                .said("refusal-id-taken", [("id", id.into()), ("name", name.into())]));
        }
        match self.stand_in_name(id) {
            Some(name) => Err(Rejection::precondition(format!("{id} is already registered as a stand-in ({name})"))
                .said("refusal-id-taken-stand-in", [("id", id.into()), ("name", name.into())])),
            None => Ok(()),
        }
    }

    /// A pseudonym no other player of the tournament has, letter case and surrounding spaces
    /// aside: the public board tells players apart by it.
    fn check_new_pseudonym(&self, pseudonym: &str) -> Result<(), Rejection> {
        let key = |p: &str| p.trim().to_lowercase();
        match self.pseudonyms.iter().find(|(_, taken)| key(taken) == key(pseudonym)) {
            Some((holder, taken)) => Err(Rejection::precondition(format!(
                "the pseudonym {taken} is already {holder}'s in this tournament: choose another"
            ))
            .said("refusal-pseudonym-taken", [("pseudonym", taken.into()), ("holder", self.who(holder))])),
            None => Ok(()),
        }
    }

    /// A registration is taken back only while nobody is drawn: after that, a player withdraws.
    fn check_unregister(&self, player: &str) -> Result<(), Rejection> {
        if !self.players.contains_key(player) && self.stand_in_name(player).is_none() {
            return Err(Rejection::precondition(format!("{player} is not registered"))
                .said("refusal-not-registered", [("player", player.into())]));
        }
        if let Some((game, _)) = self.games.iter().find(|(_, g)| g.seats.seats(player)) {
            return Err(Rejection::precondition(format!(
                "{player} already sits in game {game}: after the draw a registration stays; {player} withdraws instead"
            ))
            .said("refusal-unregister-seated", [("player", self.who(player)), ("game", game.into())]));
        }
        if self.drawn {
            return Err(Rejection::precondition(format!(
                "the qualifying draw was recorded: a registration stays after it; {player} withdraws instead"
            ))
            .said("refusal-unregister-drawn", [("player", self.who(player))]));
        }
        Ok(())
    }

    /// A registered player (not a stand-in: stand-ins are not ranked, so they choose no final
    /// role, take part in no lot and sit in no final).
    fn check_player(&self, player: &str) -> Result<(), Rejection> {
        if self.players.contains_key(player) {
            Ok(())
        } else if self.stand_in_name(player).is_some() {
            Err(Rejection::precondition(format!(
                "{player} is a stand-in: stand-ins are not ranked and never reach the final"
            ))
            .said("refusal-stand-in-not-ranked", [("player", self.who(player))]))
        } else {
            Err(Rejection::precondition(format!("player {player} is not registered"))
                .said("refusal-not-registered", [("player", player.into())]))
        }
    }

    /// The qualifying games from `from_round` on that seat `player`: those a withdrawal re-seats.
    pub fn reseated(&self, player: &str, from_round: u32) -> Vec<String> {
        self.games
            .iter()
            .filter(|(_, g)| g.stage == Stage::Qualifying && g.round >= from_round && g.seats.seats(player))
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// The first registered stand-in free in every round where `player`'s games from
    /// `from_round` on need one (`ledgerctl tournament withdraw` without `--stand-in`).
    pub fn free_stand_in(&self, player: &str, from_round: u32) -> Option<PlayerId> {
        let rounds: Vec<u32> = self.reseated(player, from_round).iter().map(|g| self.games[g].round).collect();
        self.stand_ins
            .iter()
            .map(|(id, _)| id)
            .find(|id| !self.games.values().any(|g| rounds.contains(&g.round) && g.seats.seats(id)))
            .cloned()
    }

    /// A withdrawal: a player still in, after the draw, a round, and a free stand-in for the
    /// games it re-seats.
    fn check_withdrawal(&self, player: &str, from_round: u32, stand_in: Option<&str>) -> Result<(), Rejection> {
        if from_round == 0 {
            return Err(Rejection::malformed("player_withdrew.from_round starts at 1").said("refusal-round-zero", []));
        }
        self.check_player(player)?;
        if let Some(round) = self.withdrawn.get(player) {
            return Err(Rejection::precondition(format!("{player} already withdrew (from round {round})"))
                .said("refusal-withdrew-already", [("player", self.who(player)), ("round", (*round).into())]));
        }
        // The draw deals every registered player: one who leaves before any qualifying game is
        // on a table (drawn, or scheduled by hand) is not registered (docs/DECISIONS.md, "A
        // withdrawal before the draw").
        if !self.games.values().any(|g| g.stage == Stage::Qualifying) {
            return Err(Rejection::precondition(format!(
                "{player} cannot withdraw before the qualifying draw, which seats every registered player: \
                 the organiser unregisters {player} instead (player_unregistered)"
            ))
            .said("refusal-withdraw-before-draw", [("player", self.who(player))]));
        }
        if let Some((game, _)) = self.games.iter().find(|(_, g)| g.stage == Stage::Final && g.seats.seats(player)) {
            return Err(Rejection::precondition(format!(
                "the final {game} seats {player}: the jury voids its game_scheduled before {player} withdraws"
            ))
            .said("refusal-withdraw-finalist", [("player", self.who(player)), ("game", game.into())]));
        }
        let games = self.reseated(player, from_round);
        let Some(stand_in) = stand_in else {
            if games.is_empty() {
                return Ok(());
            }
            return Err(Rejection::precondition(format!(
                "{player} still has qualifying games from round {from_round} on ({}): name the stand-in who takes the seat",
                games.join(", ")
            ))
            .said(
                "refusal-withdraw-needs-stand-in",
                [("player", self.who(player)), ("round", from_round.into()), ("games", games.len().into())],
            ));
        };
        if self.stand_in_name(stand_in).is_none() {
            return Err(Rejection::precondition(format!("{stand_in} is not a registered stand-in"))
                .said("refusal-not-a-stand-in", [("player", self.who(stand_in))]));
        }
        if games.is_empty() {
            return Err(Rejection::precondition(format!(
                "{player} has no qualifying game from round {from_round} on: no stand-in takes a seat"
            ))
            .said("refusal-withdraw-no-games", [("player", self.who(player)), ("round", from_round.into())]));
        }
        for game in &games {
            let round = self.games[game].round;
            if let Some((busy, _)) = self.games.iter().find(|(_, g)| g.round == round && g.seats.seats(stand_in)) {
                return Err(Rejection::precondition(format!(
                    "{stand_in} already plays in round {round} (game {busy}), where {player}'s game {game} needs a stand-in"
                ))
                .said(
                    "refusal-stand-in-busy",
                    [("stand_in", self.who(stand_in)), ("round", round.into()), ("player", self.who(player))],
                ));
            }
        }
        Ok(())
    }

    /// A registered player who has not withdrawn: who may choose a role and sit in the final.
    fn check_finalist(&self, player: &str) -> Result<(), Rejection> {
        self.check_player(player)?;
        match self.withdrawn.get(player) {
            Some(round) => Err(Rejection::precondition(format!(
                "{player} withdrew (from round {round}): the next in rank takes the place in the final"
            ))
            .said("refusal-finalist-withdrew", [("player", self.who(player)), ("round", (*round).into())])),
            None => Ok(()),
        }
    }

    /// A player or a stand-in: who may sit at a qualifying table.
    fn check_seated(&self, player: &str) -> Result<(), Rejection> {
        match self.stand_in_name(player) {
            Some(_) => Ok(()),
            None => self.check_player(player),
        }
    }

    fn check_new_game(&self, game: &DrawnGame) -> Result<(), Rejection> {
        StreamId::game(&game.game).map_err(|r| r.context("game"))?;
        if self.games.contains_key(&game.game) {
            return Err(Rejection::precondition(format!("game {} is already scheduled", game.game))
                .said("refusal-game-scheduled", [("game", (&game.game).into())]));
        }
        let mut seen: Vec<&PlayerId> = Vec::new();
        for (role, player) in game.seats.iter() {
            self.check_seated(player).map_err(|r| r.context(format!("game {} {role}", game.game)))?;
            if seen.contains(&player) {
                return Err(Rejection::precondition(format!("game {}: {player} sits in two roles", game.game))
                    .said("refusal-two-roles", [("game", (&game.game).into()), ("player", self.who(player))]));
            }
            seen.push(player);
        }
        Ok(())
    }
}
