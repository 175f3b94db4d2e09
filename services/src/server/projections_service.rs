//! The Projections gRPC service: the edge of the projections facade (`crate::facade`). Each
//! RPC authorizes, parses its request into domain values, asks the facade off the async
//! workers and renders the answer as a `pb::Projection` (JSON, text, as-of position). The
//! Andes board, scores, match and levels of one match are folded here still
//! (`crate::projections::andes`).

use crate::auth::{Access, Auth};
use crate::error::Error;
use crate::facade::{self, At, Projections};
use crate::projections::andes::{self, BoardView, Rendered};
use crate::projections::{self, ProjectionError, Streams};
use crate::status::{from_rejection, from_store};
use ledger::{Recorded, StreamId, StreamKind};
use ledger_proto::v1 as pb;
use ledger_store::{Log, StoreError};
use replay::Standings;
use std::sync::Arc;
use tonic::{Request, Response, Status};

#[derive(Clone)]
pub struct ProjectionsService {
    log: Arc<Log>,
    auth: Arc<Auth>,
    facade: Projections<Arc<Log>>,
}

impl ProjectionsService {
    pub fn new(log: Arc<Log>, auth: Arc<Auth>) -> Self {
        let facade = Projections::new(Arc::clone(&log));
        ProjectionsService { log, auth, facade }
    }
}

/// What was read: the streams and the newest position included.
struct Loaded {
    records: Vec<Recorded>,
    streams: Streams,
    last_position: u64,
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
        Loaded { streams: projections::from_records(&records), records, last_position }
    }
}

/// `<id>` or `<kind>/<id>`, of the kind asked for ([`facade::stream_id`]).
fn stream_id(kind: StreamKind, text: &str) -> Result<StreamId, Status> {
    facade::stream_id(kind, text).map_err(status)
}

/// A failure of the facade as a gRPC status.
fn status(error: Error) -> Status {
    match error {
        Error::Refused(rejection) => from_rejection(rejection),
        other => Status::new(code(&other), other.message()),
    }
}

fn code(error: &Error) -> tonic::Code {
    use crate::error::Code as C;
    match error.code() {
        C::InvalidArgument => tonic::Code::InvalidArgument,
        C::NotFound => tonic::Code::NotFound,
        C::AlreadyExists => tonic::Code::AlreadyExists,
        C::PermissionDenied => tonic::Code::PermissionDenied,
        C::ResourceExhausted => tonic::Code::ResourceExhausted,
        C::FailedPrecondition => tonic::Code::FailedPrecondition,
        C::Aborted => tonic::Code::Aborted,
        C::OutOfRange => tonic::Code::OutOfRange,
        C::Internal => tonic::Code::Internal,
        C::Unavailable => tonic::Code::Unavailable,
        C::DataLoss => tonic::Code::DataLoss,
        C::Unauthenticated => tonic::Code::Unauthenticated,
    }
}

/// A projection as the API answers it: its JSON, its text and the newest position it includes.
fn projection<T>(at: At<T>, json: impl Fn(&T) -> String, text: impl Fn(&T) -> String) -> Response<pb::Projection> {
    Response::new(pb::Projection { json: json(&at.value), text: text(&at.value), as_of_position: at.as_of_position })
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
        let facade = self.facade.clone();
        let sheet = blocking(move || facade.score_sheet(&game, request.as_of_seq).map_err(status)).await?;
        Ok(projection(sheet, |s| s.to_json_string(), ToString::to_string))
    }

    async fn get_standings(&self, request: Request<pb::StandingsRequest>) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::Standings { public: request.get_ref().public })?;
        let request = request.into_inner();
        let tournament = stream_id(StreamKind::Tournament, &request.tournament)?;
        let facade = self.facade.clone();
        let standings =
            blocking(move || facade.standings(&tournament, request.as_of_position, request.public).map_err(status))
                .await?;
        Ok(projection(standings, Standings::to_json_string, ToString::to_string))
    }

    async fn get_clock(&self, request: Request<pb::ClockRequest>) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::Clock)?;
        let request = request.into_inner();
        let game = stream_id(StreamKind::Game, &request.game)?;
        let facade = self.facade.clone();
        let view = blocking(move || facade.clock(&game, request.as_of_seq, request.now_at_ms).map_err(status)).await?;
        Ok(projection(view, |v| serde_json::to_string(v).expect("clock views serialise"), ToString::to_string))
    }

    async fn get_role_stats(&self, request: Request<pb::RoleStatsRequest>) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::RoleStats)?;
        let request = request.into_inner();
        let filter = facade::stats_filter(
            request.tournament,
            request.ruleset.as_deref(),
            request.stage.as_deref(),
            request.year,
        )
        .map_err(status)?;
        let facade = self.facade.clone();
        let stats = blocking(move || facade.role_stats(&filter, request.as_of_position).map_err(status)).await?;
        Ok(projection(
            stats,
            |s| serde_json::to_string(&s.to_json()).expect("stats serialise"),
            projections::stats_text,
        ))
    }
}
