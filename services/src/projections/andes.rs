//! The Andes projections of one match (`andes/<match>`, docs/ANDES.md), shared by the
//! Projections service and `ledgerctl andes`: the board of a game, each game's points, the whole
//! match, the players' levels. Each is its canonical JSON and a text for people; every number in
//! them comes from `replay::andes` with the line saying how it was reached.

use super::{ProjectionError, Streams};
use ledger::andes::{AndesEvent, Side};
use ledger::{Event, StreamId};
use replay::andes::{andes_match_json, andes_match_text, board_text, AndesFold, AndesReplayError, MatchJson, Points};
use serde_json::{json, Value};

/// A projection as the service answers it and the CLI prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub json: String,
    pub text: String,
}

/// Which board: a game of the match (the last one started when `None`), from whose side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardView {
    pub game: Option<u8>,
    pub side: Side,
}

/// `sol` or `luna` (`None`: Sol).
///
/// # Errors
/// Anything else, in a sentence.
pub fn parse_side(text: Option<&str>) -> Result<Side, String> {
    match text.unwrap_or("sol") {
        "" | "sol" => Ok(Side::Sol),
        "luna" => Ok(Side::Luna),
        other => Err(format!("side `{}` must be sol or luna", ledger::rejection::quote(other))),
    }
}

/// The Andes events of a match as they stood after event `as_of_seq` (all of them for `None`):
/// jury events and voided events left out, as in every projection.
///
/// # Errors
/// The stream has no events.
pub fn events_of(streams: &Streams, id: &StreamId, as_of_seq: Option<u64>) -> Result<Vec<AndesEvent>, ProjectionError> {
    let events = streams.get(id).filter(|e| !e.is_empty()).ok_or_else(|| ProjectionError::NotFound(id.to_string()))?;
    let as_of = as_of_seq.unwrap_or(u64::MAX);
    let prefix: Vec<(u64, Event)> = events.iter().filter(|(seq, _)| *seq <= as_of).cloned().collect();
    let voided = replay::sheet::voided_seqs(&prefix);
    Ok(prefix
        .into_iter()
        .filter(|(seq, _)| !voided.contains(seq))
        .filter_map(|(_, event)| match event {
            Event::Andes(andes) => Some(andes),
            _ => None,
        })
        .collect())
}

/// The board of one game: the position now (after its last move, attacks and captures
/// included), as `view.side` sees it, with each side's points and how they were reached (5.1).
///
/// # Errors
/// No such match or game, or the stream is not one the rules accept.
pub fn board(
    streams: &Streams,
    id: &StreamId,
    as_of_seq: Option<u64>,
    view: BoardView,
) -> Result<Rendered, ProjectionError> {
    let events = events_of(streams, id, as_of_seq)?;
    let fold = AndesFold::of(&events)?;
    fold.setup().ok_or(AndesReplayError::NoMatch)?;
    let record = match view.game {
        Some(number) => fold.games().iter().find(|g| g.number == number),
        None => fold.games().last(),
    }
    .ok_or_else(|| match view.game {
        Some(number) => ProjectionError::NotFound(format!("game {number} of {id}: it has not started")),
        None => ProjectionError::NotFound(format!("a game of {id}: none has started")),
    })?;
    let position = &record.position;
    let who = |side: Side| format!("{} ({side})", record.player(side));
    let points = Side::BOTH.map(|side| Points::of(position, side));
    let mut text = format!(
        "{id}, game {}: {} – {}, after {} moves{}\n",
        record.number,
        who(Side::Sol),
        who(Side::Luna),
        record.plies.len(),
        record.end.map(|end| format!(", ended ({}, {})", end.reason.as_str(), end.side)).unwrap_or_default()
    );
    text.push_str(&board_text(position, view.side));
    for side in Side::BOTH {
        text.push_str(&format!("{}\n", points[side.index()].explain(&who(side))));
    }
    let sides = |f: &dyn Fn(Side) -> Value| -> Value {
        Side::BOTH.iter().map(|&side| (side.as_str().to_owned(), f(side))).collect::<serde_json::Map<_, _>>().into()
    };
    let json = json!({
        "match": id.to_string(),
        "game": record.number,
        "sol": record.sol,
        "luna": record.luna,
        "moves": record.plies.len(),
        "side": view.side,
        "position": {
            "sol_view": position.notation(Side::Sol),
            "luna_view": position.notation(Side::Luna),
            "to_move": position.to_move(),
            "reserve": sides(&|side| position.reserve(side).into()),
        },
        "end": record.end.map(|end| json!({"reason": end.reason.as_str(), "side": end.side, "at_ms": end.at_ms})),
        "points": sides(&|side| {
            let p = points[side.index()];
            json!({
                "on_board": p.on_board,
                "attacked": p.attacked,
                "reserve": p.reserve,
                "points": p.total(),
                "explain": p.explain(&who(side)),
            })
        }),
    });
    Ok(Rendered { json: json.to_string(), text })
}

/// The match sheet of a stream, or why there is none.
fn match_json(events: &[AndesEvent]) -> Result<MatchJson, ProjectionError> {
    Ok(andes_match_json(events)?)
}

/// Each game's points, winner and bonus (5.1, 5.2, 9.2, 9.4), each with its explain lines.
///
/// # Errors
/// No such match, or the stream is not one the rules accept.
pub fn score(streams: &Streams, id: &StreamId, as_of_seq: Option<u64>) -> Result<Rendered, ProjectionError> {
    let sheet = match_json(&events_of(streams, id, as_of_seq)?)?;
    let mut text = String::new();
    let mut games = Vec::new();
    for game in &sheet.games {
        text.push_str(&format!("game {}: {} (sol) – {} (luna)\n", game.game, game.sol, game.luna));
        for line in &game.explain {
            text.push_str(&format!("  {line}\n"));
        }
        games.push(json!({
            "game": game.game,
            "sol": game.sol,
            "luna": game.luna,
            "status": game.status,
            "end": game.end,
            "points": game.points,
            "winner": game.winner,
            "decided_by": game.decided_by,
            "bonus": game.bonus,
            "total": game.total,
            "explain": game.explain,
        }));
    }
    if sheet.games.is_empty() {
        text.push_str("no game has started\n");
    }
    let json = json!({"match": id.to_string(), "games": games});
    Ok(Rendered { json: json.to_string(), text })
}

/// The whole match: every game with its moves and positions, the totals and the winner (8.3,
/// 9.3, 9.4) — `replay::andes::andes_match_json` and `andes_match_text` as they are.
///
/// # Errors
/// No such match, or the stream is not one the rules accept.
pub fn whole_match(streams: &Streams, id: &StreamId, as_of_seq: Option<u64>) -> Result<Rendered, ProjectionError> {
    let events = events_of(streams, id, as_of_seq)?;
    let sheet = match_json(&events)?;
    let text = andes_match_text(&events)?;
    Ok(Rendered { json: serde_json::to_string(&sheet).expect("match sheets serialise"), text })
}

/// Each player's level from the match's two game scores without bonus (9.5).
///
/// # Errors
/// No such match, or the stream is not one the rules accept.
pub fn level(streams: &Streams, id: &StreamId, as_of_seq: Option<u64>) -> Result<Rendered, ProjectionError> {
    let sheet = match_json(&events_of(streams, id, as_of_seq)?)?;
    let mut text = String::new();
    let mut players = Vec::new();
    for player in &sheet.players {
        match &player.level {
            Some(level) => text.push_str(&format!("level of {}: {}\n", player.player, level.explain)),
            None => text.push_str(&format!(
                "level of {}: needs two ended games, has {} (9.5)\n",
                player.player,
                player.scores.len()
            )),
        }
        players.push(json!({"player": player.player, "scores": player.scores, "level": player.level}));
    }
    let json = json!({"match": id.to_string(), "players": players});
    Ok(Rendered { json: json.to_string(), text })
}

/// One player's level from their last two ended games across every Andes match of `streams`
/// (9.5), "last" by the global log position `position_of(stream, seq)` of the event that
/// ended each game. Voided and jury events are left out as in every projection.
///
/// # Errors
/// A stream the rules do not accept.
pub fn player_level(
    streams: &Streams,
    player: &str,
    position_of: impl Fn(&StreamId, u64) -> u64,
) -> Result<Rendered, ProjectionError> {
    let mut games = Vec::new();
    for (id, events) in streams.iter().filter(|(id, _)| id.kind() == ledger::StreamKind::Andes) {
        let voided = replay::sheet::voided_seqs(events);
        let andes: Vec<(u64, AndesEvent)> = events
            .iter()
            .filter(|(seq, _)| !voided.contains(seq))
            .filter_map(|(seq, event)| match event {
                Event::Andes(andes) => Some((position_of(id, *seq), andes.clone())),
                _ => None,
            })
            .collect();
        games.extend(replay::andes::ended_games(&id.to_string(), &andes)?);
    }
    let level = replay::andes::player_level(player, &games);
    let used: Vec<Value> = level
        .games
        .iter()
        .filter_map(|g| {
            let side = g.side_of(player)?;
            Some(json!({"match": g.match_id, "game": g.game, "side": side, "position": g.position, "points": g.points[side.index()]}))
        })
        .collect();
    let json = json!({
        "player": player,
        "games": used,
        "level": level.level.as_ref().map(|l| json!({
            "value": replay::exact::json_rounded(l.value, 2),
            "value_exact": l.value.exact_text(),
            "band": l.band.as_str(),
            "explain": l.explain,
        })),
        "explain": level.explain,
    });
    Ok(Rendered { json: json.to_string(), text: format!("{}\n", level.explain) })
}

#[cfg(test)]
mod tests;
