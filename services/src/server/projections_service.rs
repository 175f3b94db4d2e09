//! The Projections gRPC service: score sheets, standings and statistics folded from the log,
//! as of the newest event or an earlier point; and the Andes board, scores, match and levels
//! of one match (`crate::projections::andes`).

use crate::auth::{Access, Auth};
use crate::projections::andes::{self, BoardView, Rendered};
use crate::projections::{self, ProjectionError, Streams};
use crate::status::{from_rejection, from_store};
use ledger::rejection::quote;
use ledger::stream::MAX_NAME_BYTES;
use ledger::{Recorded, Ruleset, Stage, StreamId, StreamKind};
use ledger_proto::v1 as pb;
use ledger_store::{Log, StoreError};
use replay::stats::{year_of_unix_ms, Filter};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use tonic::{Request, Response, Status};

#[derive(Clone)]
pub struct ProjectionsService {
    log: Arc<Log>,
    auth: Arc<Auth>,
}

impl ProjectionsService {
    pub fn new(log: Arc<Log>, auth: Arc<Auth>) -> Self {
        ProjectionsService { log, auth }
    }
}

/// What was read: the streams, the newest position included, and when each stream began.
struct Loaded {
    records: Vec<Recorded>,
    streams: Streams,
    last_position: u64,
    first_recorded_ms: BTreeMap<StreamId, u64>,
}

impl Loaded {
    /// The global position of a stream's event `seq` (its last event for `None`), 0 if none.
    fn position_of(&self, stream: &StreamId, seq: Option<u64>) -> u64 {
        let seq = seq.unwrap_or(u64::MAX);
        self.records
            .iter()
            .filter(|r| r.envelope.stream == *stream && r.envelope.seq <= seq)
            .map(|r| r.envelope.position)
            .max()
            .unwrap_or(0)
    }
}

fn load(log: &Log, ids: &[StreamId], as_of_position: Option<u64>) -> Result<Loaded, StoreError> {
    Ok(Loaded::from_records(read(log, ids, as_of_position)?))
}

/// The records of `ids`, each stream read once, up to a global position.
fn read(log: &Log, ids: &[StreamId], as_of_position: Option<u64>) -> Result<Vec<Recorded>, StoreError> {
    let limit = as_of_position.unwrap_or(u64::MAX);
    let mut records: Vec<Recorded> = Vec::new();
    for id in ids {
        records.extend(log.read_stream(id, 1, usize::MAX)?.into_iter().filter(|r| r.envelope.position <= limit));
    }
    Ok(records)
}

impl Loaded {
    fn from_records(records: Vec<Recorded>) -> Loaded {
        let last_position = records.iter().map(|r| r.envelope.position).max().unwrap_or(0);
        let mut first_recorded_ms = BTreeMap::new();
        for r in &records {
            first_recorded_ms.entry(r.envelope.stream.clone()).or_insert(r.envelope.recorded_at_ms);
        }
        Loaded { streams: projections::from_records(&records), records, last_position, first_recorded_ms }
    }
}

/// A game with the tournaments that scheduled it (its ruleset, clock and seats), and nothing
/// else of the log: the writer knows which tournaments those are.
fn load_game(log: &Log, game: &StreamId) -> Result<Loaded, StoreError> {
    let mut ids = log.tournaments_of(game.id())?;
    ids.push(game.clone());
    load(log, &ids, None)
}

/// Tournaments and the games they schedule, every stream read once.
fn load_tournaments(log: &Log, tournaments: &[StreamId], as_of: Option<u64>) -> Result<Loaded, StoreError> {
    let mut records = read(log, tournaments, as_of)?;
    let streams = projections::from_records(&records);
    let games: BTreeSet<StreamId> = tournaments
        .iter()
        .filter_map(|t| streams.get(t))
        .flat_map(|events| projections::tournament_games(events))
        .filter_map(|game| StreamId::game(&game).ok())
        .collect();
    records.extend(read(log, &games.into_iter().collect::<Vec<_>>(), as_of)?);
    Ok(Loaded::from_records(records))
}

/// `<id>` or `<kind>/<id>`.
fn stream_id(kind: StreamKind, text: &str) -> Result<StreamId, Status> {
    let name = if text.contains('/') { text.to_owned() } else { format!("{}/{text}", kind.prefix()) };
    let id = StreamId::parse(&name).map_err(from_rejection)?;
    if id.kind() != kind {
        return Err(Status::invalid_argument(format!("{name} is not a {} stream", kind.prefix())));
    }
    Ok(id)
}

fn from_projection(error: ProjectionError) -> Status {
    match error {
        ProjectionError::NotFound(_) => Status::not_found(error.to_string()),
        other => Status::failed_precondition(other.to_string()),
    }
}

/// Runs a blocking load and fold off the async workers.
async fn blocking<T: Send + 'static>(work: impl FnOnce() -> Result<T, Status> + Send + 'static) -> Result<T, Status> {
    tokio::task::spawn_blocking(work).await.map_err(|e| Status::internal(format!("projection failed: {e}")))?
}

/// An Andes projection of one match, as of a seq: `project` over the match's stream alone.
async fn andes_projection(
    log: &Arc<Log>,
    match_id: &str,
    as_of_seq: Option<u64>,
    project: impl FnOnce(&Streams, &StreamId) -> Result<Rendered, ProjectionError> + Send + 'static,
) -> Result<Response<pb::Projection>, Status> {
    let id = stream_id(StreamKind::Andes, match_id)?;
    let log = Arc::clone(log);
    blocking(move || {
        let loaded = load(&log, std::slice::from_ref(&id), None).map_err(from_store)?;
        let rendered = project(&loaded.streams, &id).map_err(from_projection)?;
        let as_of_position = loaded.position_of(&id, as_of_seq);
        Ok(Response::new(pb::Projection { json: rendered.json, text: rendered.text, as_of_position }))
    })
    .await
}

/// An Andes projection of a whole match as of a seq: its score, its sheet or its levels.
type MatchProjection = fn(&Streams, &StreamId, Option<u64>) -> Result<Rendered, ProjectionError>;

impl ProjectionsService {
    async fn andes_match(
        &self,
        request: Request<pb::AndesMatchRequest>,
        project: MatchProjection,
    ) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::AndesProjection)?;
        let request = request.into_inner();
        let as_of = request.as_of_seq;
        andes_projection(&self.log, &request.match_id, as_of, move |streams, id| project(streams, id, as_of)).await
    }
}

#[tonic::async_trait]
impl pb::projections_server::Projections for ProjectionsService {
    async fn get_andes_board(
        &self,
        request: Request<pb::AndesBoardRequest>,
    ) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::AndesProjection)?;
        let request = request.into_inner();
        let side = andes::parse_side(Some(&request.side)).map_err(Status::invalid_argument)?;
        let game = request
            .game
            .map(|g| {
                u8::try_from(g)
                    .ok()
                    .filter(|g| (1..=ledger::andes::GAMES_PER_MATCH).contains(g))
                    .ok_or_else(|| Status::invalid_argument(format!("a match has games 1 and 2, not game {g}")))
            })
            .transpose()?;
        let as_of = request.as_of_seq;
        andes_projection(&self.log, &request.match_id, as_of, move |streams, id| {
            andes::board(streams, id, as_of, BoardView { game, side })
        })
        .await
    }

    async fn get_andes_score(
        &self,
        request: Request<pb::AndesMatchRequest>,
    ) -> Result<Response<pb::Projection>, Status> {
        self.andes_match(request, andes::score).await
    }

    async fn get_andes_match(
        &self,
        request: Request<pb::AndesMatchRequest>,
    ) -> Result<Response<pb::Projection>, Status> {
        self.andes_match(request, andes::whole_match).await
    }

    async fn get_andes_level(
        &self,
        request: Request<pb::AndesMatchRequest>,
    ) -> Result<Response<pb::Projection>, Status> {
        self.andes_match(request, andes::level).await
    }

    async fn get_andes_player_level(
        &self,
        request: Request<pb::AndesPlayerRequest>,
    ) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::AndesProjection)?;
        let player = request.into_inner().player;
        if player.is_empty() {
            return Err(Status::invalid_argument("name the player"));
        }
        let log = Arc::clone(&self.log);
        blocking(move || {
            let ids: Vec<StreamId> = log
                .streams()
                .map_err(from_store)?
                .into_iter()
                .map(|s| s.stream)
                .filter(|s| s.kind() == StreamKind::Andes)
                .collect();
            let loaded = load(&log, &ids, None).map_err(from_store)?;
            let rendered = andes::player_level(&loaded.streams, &player, |id, seq| loaded.position_of(id, Some(seq)))
                .map_err(from_projection)?;
            Ok(Response::new(pb::Projection {
                json: rendered.json,
                text: rendered.text,
                as_of_position: loaded.last_position,
            }))
        })
        .await
    }

    async fn get_score_sheet(
        &self,
        request: Request<pb::ScoreSheetRequest>,
    ) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::ScoreSheet)?;
        let request = request.into_inner();
        let game = stream_id(StreamKind::Game, &request.game)?;
        let log = Arc::clone(&self.log);
        blocking(move || {
            let loaded = load_game(&log, &game).map_err(from_store)?;
            let sheet = projections::score_sheet(&loaded.streams, &game, request.as_of_seq).map_err(from_projection)?;
            let as_of_position = loaded.position_of(&game, request.as_of_seq);
            Ok(Response::new(pb::Projection { json: sheet.to_json_string(), text: sheet.to_string(), as_of_position }))
        })
        .await
    }

    async fn get_standings(&self, request: Request<pb::StandingsRequest>) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::Standings { public: request.get_ref().public })?;
        let request = request.into_inner();
        let tournament = stream_id(StreamKind::Tournament, &request.tournament)?;
        let log = Arc::clone(&self.log);
        blocking(move || {
            let loaded = load_tournaments(&log, std::slice::from_ref(&tournament), request.as_of_position)
                .map_err(from_store)?;
            let standings = if request.public {
                projections::public_standings(&loaded.streams, &tournament)
            } else {
                projections::standings(&loaded.streams, &tournament)
            }
            .map_err(from_projection)?;
            Ok(Response::new(pb::Projection {
                json: standings.to_json_string(),
                text: standings.to_string(),
                as_of_position: loaded.last_position,
            }))
        })
        .await
    }

    async fn get_clock(&self, request: Request<pb::ClockRequest>) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::Clock)?;
        let request = request.into_inner();
        let game = stream_id(StreamKind::Game, &request.game)?;
        let log = Arc::clone(&self.log);
        blocking(move || {
            let loaded = load_game(&log, &game).map_err(from_store)?;
            let view = projections::clock(&loaded.streams, &game, request.as_of_seq, request.now_at_ms)
                .map_err(from_projection)?;
            let as_of_position = loaded.position_of(&game, request.as_of_seq);
            Ok(Response::new(pb::Projection {
                json: serde_json::to_string(&view).expect("clock views serialise"),
                text: view.to_string(),
                as_of_position,
            }))
        })
        .await
    }

    async fn get_role_stats(&self, request: Request<pb::RoleStatsRequest>) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::RoleStats)?;
        let request = request.into_inner();
        if let Some(tournament) = request.tournament.as_deref().filter(|t| t.len() > MAX_NAME_BYTES) {
            return Err(Status::invalid_argument(format!(
                "tournament `{}` is {} bytes long; a stream name is at most {MAX_NAME_BYTES} bytes",
                quote(tournament),
                tournament.len()
            )));
        }
        let filter = Filter {
            tournament: request.tournament.clone(),
            ruleset: request
                .ruleset
                .as_deref()
                .map(|r| {
                    Ruleset::parse(r).ok_or_else(|| Status::invalid_argument(format!("unknown ruleset `{}`", quote(r))))
                })
                .transpose()?,
            stage: request
                .stage
                .as_deref()
                .map(|s| {
                    Stage::parse(s).ok_or_else(|| Status::invalid_argument(format!("unknown stage `{}`", quote(s))))
                })
                .transpose()?,
            year: request.year,
        };
        let log = Arc::clone(&self.log);
        blocking(move || {
            // The analysts' tournament filter names a stream id: only that tournament is read.
            let tournaments: Vec<StreamId> = log
                .tournaments()
                .into_iter()
                .filter(|id| filter.tournament.as_deref().is_none_or(|wanted| id.id() == wanted))
                .collect();
            let loaded = load_tournaments(&log, &tournaments, request.as_of_position).map_err(from_store)?;
            let years = loaded
                .first_recorded_ms
                .iter()
                .filter(|(id, _)| id.kind() == StreamKind::Tournament)
                .map(|(id, ms)| (id.clone(), year_of_unix_ms(*ms)))
                .collect();
            let stats = projections::role_stats(&loaded.streams, &years, &filter).map_err(from_projection)?;
            Ok(Response::new(pb::Projection {
                json: serde_json::to_string(&stats.to_json()).expect("stats serialise"),
                text: projections::stats_text(&stats),
                as_of_position: loaded.last_position,
            }))
        })
        .await
    }
}
