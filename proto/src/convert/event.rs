//! Events, domain ↔ protobuf, field by field. Andes events (`Event::Andes`) take the oneof
//! fields `andes_*`: squares as Sol's names, sides, piece kinds and end reasons as enums.

use super::{FromProto, ToProto};
use crate::v1 as pb;
use ledger::andes::{AndesEvent, EndReason, PieceKind, Side, Square};
use ledger::event::{DrawnGame, Seats};
use ledger::{Event, Nation, Rejection, Role, Ruleset};
use pb::event::Body;

impl ToProto for Seats {
    type Proto = pb::Seats;
    fn to_proto(&self) -> pb::Seats {
        pb::Seats {
            frederick: self.frederick.clone(),
            elisabeth: self.elisabeth.clone(),
            maria_theresa: self.maria_theresa.clone(),
            pompadour: self.pompadour.clone(),
        }
    }
}

impl FromProto<Option<pb::Seats>> for Seats {
    fn from_proto(proto: Option<pb::Seats>) -> Result<Self, Rejection> {
        let s = proto.ok_or_else(|| Rejection::malformed("seats are missing"))?;
        Ok(Seats {
            frederick: s.frederick,
            elisabeth: s.elisabeth,
            maria_theresa: s.maria_theresa,
            pompadour: s.pompadour,
        })
    }
}

fn drawn_to_proto(g: &DrawnGame) -> pb::DrawnGame {
    pb::DrawnGame {
        game: g.game.clone(),
        round: g.round.into(),
        table: g.table.into(),
        seats: Some(g.seats.to_proto()),
    }
}

/// A 64-bit wire integer into the domain's 32 bits, refusing what does not fit: a value never
/// wraps (events.proto says why these fields are 64-bit on the wire).
fn narrow<T: TryFrom<W>, W: Copy + std::fmt::Display>(field: &str, value: W) -> Result<T, Rejection> {
    T::try_from(value).map_err(|_| Rejection::malformed(format!("{field} is {value}, which does not fit in 32 bits")))
}

fn narrow_optional<T: TryFrom<W>, W: Copy + std::fmt::Display>(
    field: &str,
    value: Option<W>,
) -> Result<Option<T>, Rejection> {
    value.map(|v| narrow(field, v)).transpose()
}

fn nations(values: &[i32]) -> Result<Vec<Nation>, Rejection> {
    values.iter().map(|&v| Nation::from_proto(v)).collect()
}

impl ToProto for Event {
    type Proto = pb::Event;
    fn to_proto(&self) -> pb::Event {
        let body = match self.clone() {
            Event::TournamentCreated { name, ruleset, clock_ms_per_side } => {
                Body::TournamentCreated(pb::TournamentCreated { name, ruleset: ruleset.to_proto(), clock_ms_per_side })
            }
            Event::PlayerRegistered { player, name, pseudonym } => {
                Body::PlayerRegistered(pb::PlayerRegistered { player, name, pseudonym })
            }
            Event::QualifyingDrawn { seed, games } => {
                Body::QualifyingDrawn(pb::QualifyingDrawn { seed, games: games.iter().map(drawn_to_proto).collect() })
            }
            Event::GameScheduled { game, stage, round, table, seats } => Body::GameScheduled(pb::GameScheduled {
                game,
                stage: stage.to_proto(),
                round: round.into(),
                table: table.into(),
                seats: Some(seats.to_proto()),
            }),
            Event::FinalRoleChosen { player, role } => {
                Body::FinalRoleChosen(pb::FinalRoleChosen { player, role: role.to_proto() })
            }
            Event::LotDrawn { purpose, seed, order } => Body::LotDrawn(pb::LotDrawn { purpose, seed, order }),
            Event::StandInRegistered { player, name } => {
                Body::StandInRegistered(pb::StandInRegistered { player, name })
            }
            Event::PlayerWithdrew { player, from_round, stand_in } => {
                Body::PlayerWithdrew(pb::PlayerWithdrew { player, from_round: from_round.into(), stand_in })
            }
            Event::PlayerUnregistered { player } => Body::PlayerUnregistered(pb::PlayerUnregistered { player }),
            Event::GameStarted { at_ms, ruleset, tournament } => Body::GameStarted(pb::GameStarted {
                at_ms,
                ruleset: ruleset.map_or(pb::Ruleset::Unspecified as i32, |r| r.to_proto()),
                tournament,
            }),
            Event::TurnStarted { turn, at_ms } => Body::TurnStarted(pb::TurnStarted { turn: turn.into(), at_ms }),
            Event::TcDealt { nation, count } => {
                Body::TcDealt(pb::TcDealt { nation: nation.to_proto(), count: count.into() })
            }
            Event::ClockStarted { side, at_ms } => {
                Body::ClockStarted(pb::ClockStarted { side: side.to_proto(), at_ms })
            }
            Event::ClockPressed { at_ms } => Body::ClockPressed(pb::ClockPressed { at_ms }),
            Event::ClockStopped { reason, at_ms } => {
                Body::ClockStopped(pb::ClockStopped { reason: reason.to_proto(), at_ms })
            }
            Event::ActionStageStarted { nation, at_ms } => {
                Body::ActionStageStarted(pb::ActionStageStarted { nation: nation.to_proto(), at_ms })
            }
            Event::ActionStageEnded { nation, at_ms } => {
                Body::ActionStageEnded(pb::ActionStageEnded { nation: nation.to_proto(), at_ms })
            }
            Event::RetreatStarted { length, at_ms } => {
                Body::RetreatStarted(pb::RetreatStarted { length: length.into(), at_ms })
            }
            Event::RetreatEnded { at_ms } => Body::RetreatEnded(pb::RetreatEnded { at_ms }),
            Event::FateCardDrawn { card } => Body::FateCardDrawn(pb::FateCardDrawn { card }),
            Event::NationDroppedOut { nation, objectives_held, objectives_total, turn } => {
                Body::NationDroppedOut(pb::NationDroppedOut {
                    nation: nation.to_proto(),
                    objectives_held: objectives_held.into(),
                    objectives_total: objectives_total.into(),
                    turn: turn.map(Into::into),
                })
            }
            Event::ImperialArmySwitched { to, objectives_held, objectives_total, turn } => {
                Body::ImperialArmySwitched(pb::ImperialArmySwitched {
                    to: to.to_proto(),
                    objectives_held: objectives_held.into(),
                    objectives_total: objectives_total.into(),
                    turn: turn.map(Into::into),
                })
            }
            Event::OffensiveLaunched { set_aside_tc, turn } => Body::OffensiveLaunched(pb::OffensiveLaunched {
                set_aside_tc: set_aside_tc.into(),
                turn: turn.map(Into::into),
            }),
            Event::AustriaClaimedObjectives { count } => {
                Body::AustriaClaimedObjectives(pb::AustriaClaimedObjectives { count: count.into() })
            }
            Event::SetAsideTcPickedUp {} => Body::SetAsideTcPickedUp(pb::SetAsideTcPickedUp {}),
            Event::OffensiveCalledOff { bohemian_held_by_prussia, turn } => {
                Body::OffensiveCalledOff(pb::OffensiveCalledOff {
                    bohemian_held_by_prussia: bohemian_held_by_prussia.into(),
                    turn: turn.map(Into::into),
                })
            }
            Event::GameEnded { outcome, winners, objectives, bohemian_held_by_prussia } => {
                Body::GameEnded(pb::GameEnded {
                    outcome: outcome.to_proto(),
                    winners: winners.iter().map(ToProto::to_proto).collect(),
                    objectives: objectives
                        .iter()
                        .map(|(nation, (held, total))| pb::NationObjectives {
                            nation: nation.to_proto(),
                            held: (*held).into(),
                            total: (*total).into(),
                        })
                        .collect(),
                    bohemian_held_by_prussia: bohemian_held_by_prussia.map(Into::into),
                })
            }
            Event::FateHorizonRecorded { turn } => {
                Body::FateHorizonRecorded(pb::FateHorizonRecorded { turn: turn.into() })
            }
            Event::JuryCalled { reason } => Body::JuryCalled(pb::JuryCalled { reason }),
            Event::JuryRuling { text } => Body::JuryRuling(pb::JuryRuling { text }),
            Event::EventVoided { seq, reason } => Body::EventVoided(pb::EventVoided { seq, reason }),
            Event::Andes(andes) => andes_to_body(andes),
        };
        pb::Event { body: Some(body) }
    }
}

impl FromProto<pb::Event> for Event {
    fn from_proto(proto: pb::Event) -> Result<Self, Rejection> {
        let body = proto.body.ok_or_else(|| Rejection::malformed("the event is empty: set one event type"))?;
        Ok(match body {
            Body::TournamentCreated(m) => Event::TournamentCreated {
                name: m.name,
                ruleset: Ruleset::from_proto(m.ruleset)?,
                clock_ms_per_side: m.clock_ms_per_side,
            },
            Body::PlayerRegistered(m) => {
                Event::PlayerRegistered { player: m.player, name: m.name, pseudonym: m.pseudonym }
            }
            Body::QualifyingDrawn(m) => Event::QualifyingDrawn {
                seed: m.seed,
                games: m
                    .games
                    .into_iter()
                    .enumerate()
                    .map(|(idx, g)| {
                        Ok(DrawnGame {
                            game: g.game,
                            round: narrow(&format!("qualifying_drawn.games[{idx}].round"), g.round)?,
                            table: narrow(&format!("qualifying_drawn.games[{idx}].table"), g.table)?,
                            seats: Seats::from_proto(g.seats)?,
                        })
                    })
                    .collect::<Result<_, Rejection>>()?,
            },
            Body::GameScheduled(m) => Event::GameScheduled {
                game: m.game,
                stage: ledger::Stage::from_proto(m.stage)?,
                round: narrow("game_scheduled.round", m.round)?,
                table: narrow("game_scheduled.table", m.table)?,
                seats: Seats::from_proto(m.seats)?,
            },
            Body::FinalRoleChosen(m) => Event::FinalRoleChosen { player: m.player, role: Role::from_proto(m.role)? },
            Body::LotDrawn(m) => Event::LotDrawn { purpose: m.purpose, seed: m.seed, order: m.order },
            Body::StandInRegistered(m) => Event::StandInRegistered { player: m.player, name: m.name },
            Body::PlayerUnregistered(m) => Event::PlayerUnregistered { player: m.player },
            Body::PlayerWithdrew(m) => Event::PlayerWithdrew {
                player: m.player,
                from_round: narrow("player_withdrew.from_round", m.from_round)?,
                stand_in: m.stand_in,
            },
            Body::GameStarted(m) => Event::GameStarted {
                at_ms: m.at_ms,
                ruleset: match m.ruleset {
                    0 => None,
                    other => Some(Ruleset::from_proto(other)?),
                },
                tournament: m.tournament,
            },
            Body::TurnStarted(m) => Event::TurnStarted { turn: narrow("turn_started.turn", m.turn)?, at_ms: m.at_ms },
            Body::TcDealt(m) => {
                Event::TcDealt { nation: Nation::from_proto(m.nation)?, count: narrow("tc_dealt.count", m.count)? }
            }
            Body::ClockStarted(m) => {
                Event::ClockStarted { side: ledger::ClockSide::from_proto(m.side)?, at_ms: m.at_ms }
            }
            Body::ClockPressed(m) => Event::ClockPressed { at_ms: m.at_ms },
            Body::ClockStopped(m) => {
                Event::ClockStopped { reason: ledger::StopReason::from_proto(m.reason)?, at_ms: m.at_ms }
            }
            Body::ActionStageStarted(m) => {
                Event::ActionStageStarted { nation: Nation::from_proto(m.nation)?, at_ms: m.at_ms }
            }
            Body::ActionStageEnded(m) => {
                Event::ActionStageEnded { nation: Nation::from_proto(m.nation)?, at_ms: m.at_ms }
            }
            Body::RetreatStarted(m) => {
                Event::RetreatStarted { length: narrow("retreat_started.length", m.length)?, at_ms: m.at_ms }
            }
            Body::RetreatEnded(m) => Event::RetreatEnded { at_ms: m.at_ms },
            Body::FateCardDrawn(m) => Event::FateCardDrawn { card: m.card },
            Body::NationDroppedOut(m) => Event::NationDroppedOut {
                nation: Nation::from_proto(m.nation)?,
                objectives_held: narrow("nation_dropped_out.objectives_held", m.objectives_held)?,
                objectives_total: narrow("nation_dropped_out.objectives_total", m.objectives_total)?,
                turn: narrow_optional("nation_dropped_out.turn", m.turn)?,
            },
            Body::ImperialArmySwitched(m) => Event::ImperialArmySwitched {
                to: Role::from_proto(m.to)?,
                objectives_held: narrow("imperial_army_switched.objectives_held", m.objectives_held)?,
                objectives_total: narrow("imperial_army_switched.objectives_total", m.objectives_total)?,
                turn: narrow_optional("imperial_army_switched.turn", m.turn)?,
            },
            Body::OffensiveLaunched(m) => Event::OffensiveLaunched {
                set_aside_tc: narrow("offensive_launched.set_aside_tc", m.set_aside_tc)?,
                turn: narrow_optional("offensive_launched.turn", m.turn)?,
            },
            Body::AustriaClaimedObjectives(m) => {
                Event::AustriaClaimedObjectives { count: narrow("austria_claimed_objectives.count", m.count)? }
            }
            Body::SetAsideTcPickedUp(_) => Event::SetAsideTcPickedUp {},
            Body::OffensiveCalledOff(m) => Event::OffensiveCalledOff {
                bohemian_held_by_prussia: narrow(
                    "offensive_called_off.bohemian_held_by_prussia",
                    m.bohemian_held_by_prussia,
                )?,
                turn: narrow_optional("offensive_called_off.turn", m.turn)?,
            },
            Body::GameEnded(m) => {
                let mut objectives = std::collections::BTreeMap::new();
                for (idx, o) in m.objectives.into_iter().enumerate() {
                    let nation = Nation::from_proto(o.nation)?;
                    let held = narrow(&format!("game_ended.objectives[{idx}].held"), o.held)?;
                    let total = narrow(&format!("game_ended.objectives[{idx}].total"), o.total)?;
                    if objectives.insert(nation, (held, total)).is_some() {
                        return Err(Rejection::malformed(format!("objectives of {nation} are given twice")));
                    }
                }
                Event::GameEnded {
                    outcome: ledger::Outcome::from_proto(m.outcome)?,
                    winners: nations(&m.winners)?,
                    objectives,
                    bohemian_held_by_prussia: narrow_optional(
                        "game_ended.bohemian_held_by_prussia",
                        m.bohemian_held_by_prussia,
                    )?,
                }
            }
            Body::FateHorizonRecorded(m) => {
                Event::FateHorizonRecorded { turn: narrow("fate_horizon_recorded.turn", m.turn)? }
            }
            Body::JuryCalled(m) => Event::JuryCalled { reason: m.reason },
            Body::JuryRuling(m) => Event::JuryRuling { text: m.text },
            Body::EventVoided(m) => Event::EventVoided { seq: m.seq, reason: m.reason },
            Body::AndesMatchCreated(m) => Event::Andes(AndesEvent::MatchCreated {
                first_sol: m.first_sol,
                first_luna: m.first_luna,
                clock_ms: m.clock_ms,
            }),
            Body::AndesGameStarted(m) => Event::Andes(AndesEvent::GameStarted {
                game: narrow("andes_game_started.game", m.game)?,
                at_ms: m.at_ms,
            }),
            Body::AndesMovePlayed(m) => Event::Andes(AndesEvent::MovePlayed { notation: m.notation, at_ms: m.at_ms }),
            Body::AndesPieceAttacked(m) => Event::Andes(AndesEvent::PieceAttacked {
                square: square("andes_piece_attacked.square", &m.square)?,
                owner: Side::from_proto(m.owner)?,
                kind: PieceKind::from_proto(m.kind)?,
            }),
            Body::AndesPieceCaptured(m) => Event::Andes(AndesEvent::PieceCaptured {
                square: square("andes_piece_captured.square", &m.square)?,
                owner: Side::from_proto(m.owner)?,
                kind: PieceKind::from_proto(m.kind)?,
            }),
            Body::AndesGameEnded(m) => Event::Andes(AndesEvent::GameEnded {
                reason: EndReason::from_proto(m.reason)?,
                side: Side::from_proto(m.side)?,
            }),
            Body::AndesFlagFell(m) => {
                Event::Andes(AndesEvent::FlagFell { side: Side::from_proto(m.side)?, at_ms: m.at_ms })
            }
            Body::AndesResigned(m) => {
                Event::Andes(AndesEvent::Resigned { side: Side::from_proto(m.side)?, at_ms: m.at_ms })
            }
        })
    }
}

/// A square in Sol's coordinates, as stored.
fn square(field: &str, text: &str) -> Result<Square, Rejection> {
    match Square::parse_with_side(text) {
        Ok((square, Side::Sol)) => Ok(square),
        Ok((_, Side::Luna)) | Err(_) => Err(Rejection::malformed(format!(
            "{field} `{}` is not a square in Sol's coordinates (a0 … g6)",
            ledger::rejection::quote(text)
        ))),
    }
}

fn andes_to_body(event: AndesEvent) -> Body {
    match event {
        AndesEvent::MatchCreated { first_sol, first_luna, clock_ms } => {
            Body::AndesMatchCreated(pb::AndesMatchCreated { first_sol, first_luna, clock_ms })
        }
        AndesEvent::GameStarted { game, at_ms } => {
            Body::AndesGameStarted(pb::AndesGameStarted { game: game.into(), at_ms })
        }
        AndesEvent::MovePlayed { notation, at_ms } => Body::AndesMovePlayed(pb::AndesMovePlayed { notation, at_ms }),
        AndesEvent::PieceAttacked { square, owner, kind } => Body::AndesPieceAttacked(pb::AndesPieceAttacked {
            square: square.sol_name(),
            owner: owner.to_proto(),
            kind: kind.to_proto(),
        }),
        AndesEvent::PieceCaptured { square, owner, kind } => Body::AndesPieceCaptured(pb::AndesPieceCaptured {
            square: square.sol_name(),
            owner: owner.to_proto(),
            kind: kind.to_proto(),
        }),
        AndesEvent::GameEnded { reason, side } => {
            Body::AndesGameEnded(pb::AndesGameEnded { reason: reason.to_proto(), side: side.to_proto() })
        }
        AndesEvent::FlagFell { side, at_ms } => Body::AndesFlagFell(pb::AndesFlagFell { side: side.to_proto(), at_ms }),
        AndesEvent::Resigned { side, at_ms } => Body::AndesResigned(pb::AndesResigned { side: side.to_proto(), at_ms }),
    }
}
