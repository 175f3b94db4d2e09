//! The Projections gRPC service: the edge of the projections facade (`ledger_house::facade`). Each
//! RPC authorizes, parses its request into domain values, asks the facade off the async
//! workers and renders the answer as a `pb::Projection` (JSON, text, as-of position), the
//! Andes board, scores, match and levels (`ledger_house::projections::andes`'s views) and the
//! season's list (`ledger_house::facade::season`) included.

use ledger::{StreamId, StreamKind};
use ledger_house::auth::{Access, Auth};
use ledger_house::error::Error;
use ledger_house::facade::ratings::RatingsView;
use ledger_house::facade::season::Season;
use ledger_house::facade::{self, At, Projections};
use ledger_house::projections;
use ledger_house::projections::andes::WhichBoard;
use ledger_house::readmodels::ReadModels;
use ledger_proto::v1 as pb;
use ledger_store::Log;
use replay::Standings;
use serde::Serialize;
use std::fmt;
use std::sync::Arc;
use tonic::{Request, Response, Status};

#[derive(Clone)]
pub struct ProjectionsService {
    auth: Arc<Auth>,
    facade: Projections<Arc<Log>>,
}

impl ProjectionsService {
    /// The service over the log, answering the season's questions from `read_models` when given.
    pub fn new(log: Arc<Log>, auth: Arc<Auth>, read_models: Option<Arc<ReadModels>>) -> Self {
        let facade = Projections::new(log);
        let facade = match read_models {
            Some(models) => facade.with_read_models(models),
            None => facade,
        };
        ProjectionsService { auth, facade }
    }
}

/// `<id>` or `<kind>/<id>`, of the kind asked for ([`facade::stream_id`]).
fn stream_id(kind: StreamKind, text: &str) -> Result<StreamId, Status> {
    Ok(facade::stream_id(kind, text)?)
}

/// A projection as the API answers it: its JSON, its text and the newest position it includes.
fn projection<T>(at: At<T>, json: impl Fn(&T) -> String, text: impl Fn(&T) -> String) -> Response<pb::Projection> {
    Response::new(pb::Projection { json: json(&at.value), text: text(&at.value), as_of_position: at.as_of_position })
}

/// Runs a blocking load and fold of the facade off the async workers; its failure becomes the
/// answer's status (`From<Error> for Status`).
async fn blocking<T: Send + 'static>(work: impl FnOnce() -> Result<T, Error> + Send + 'static) -> Result<T, Status> {
    let done = tokio::task::spawn_blocking(work).await;
    Ok(done.map_err(|e| Error::Internal(format!("projection failed: {e}")))??)
}

/// An Andes view as the API answers it: its JSON (serde) and its text (`Display`).
fn andes_projection<T: Serialize + fmt::Display>(view: At<T>) -> Response<pb::Projection> {
    projection(view, |v| serde_json::to_string(v).expect("Andes views serialise"), ToString::to_string)
}

/// A facade's Andes projection of a whole match as of a seq: its score, its sheet or its levels.
type MatchProjection<T> = fn(&Projections<Arc<Log>>, &StreamId, Option<u64>) -> Result<At<T>, Error>;

impl ProjectionsService {
    async fn andes_match<T: Serialize + fmt::Display + Send + 'static>(
        &self,
        request: Request<pb::AndesMatchRequest>,
        project: MatchProjection<T>,
    ) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::AndesProjection)?;
        let request = request.into_inner();
        let id = stream_id(StreamKind::Andes, &request.match_id)?;
        let facade = self.facade.clone();
        let view = blocking(move || project(&facade, &id, request.as_of_seq)).await?;
        Ok(andes_projection(view))
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
        let side = facade::andes::side(&request.side)?;
        let game = request.game.map(facade::andes::game).transpose()?;
        let id = stream_id(StreamKind::Andes, &request.match_id)?;
        let facade = self.facade.clone();
        let which = WhichBoard { game, side };
        let board = blocking(move || facade.andes_board(&id, request.as_of_seq, which)).await?;
        Ok(andes_projection(board))
    }

    async fn get_andes_score(
        &self,
        request: Request<pb::AndesMatchRequest>,
    ) -> Result<Response<pb::Projection>, Status> {
        self.andes_match(request, Projections::andes_score).await
    }

    async fn get_andes_match(
        &self,
        request: Request<pb::AndesMatchRequest>,
    ) -> Result<Response<pb::Projection>, Status> {
        self.andes_match(request, Projections::andes_match).await
    }

    async fn get_andes_level(
        &self,
        request: Request<pb::AndesMatchRequest>,
    ) -> Result<Response<pb::Projection>, Status> {
        self.andes_match(request, Projections::andes_level).await
    }

    async fn get_andes_player_level(
        &self,
        request: Request<pb::AndesPlayerRequest>,
    ) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::AndesProjection)?;
        let player = request.into_inner().player;
        let facade = self.facade.clone();
        let level = blocking(move || facade.andes_player_level(&player)).await?;
        Ok(andes_projection(level))
    }

    async fn get_score_sheet(
        &self,
        request: Request<pb::ScoreSheetRequest>,
    ) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::ScoreSheet)?;
        let request = request.into_inner();
        let game = stream_id(StreamKind::Game, &request.game)?;
        let facade = self.facade.clone();
        let sheet = blocking(move || facade.score_sheet(&game, request.as_of_seq)).await?;
        Ok(projection(sheet, |s| s.to_json_string(), ToString::to_string))
    }

    async fn get_standings(&self, request: Request<pb::StandingsRequest>) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::Standings { public: request.get_ref().public })?;
        let request = request.into_inner();
        let tournament = stream_id(StreamKind::Tournament, &request.tournament)?;
        let facade = self.facade.clone();
        let standings = blocking(move || facade.standings(&tournament, request.as_of_position, request.public)).await?;
        Ok(projection(standings, Standings::to_json_string, ToString::to_string))
    }

    async fn get_clock(&self, request: Request<pb::ClockRequest>) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::Clock)?;
        let request = request.into_inner();
        let game = stream_id(StreamKind::Game, &request.game)?;
        let facade = self.facade.clone();
        let view = blocking(move || facade.clock(&game, request.as_of_seq, request.now_at_ms)).await?;
        Ok(projection(view, |v| serde_json::to_string(v).expect("clock views serialise"), ToString::to_string))
    }

    async fn get_season(&self, request: Request<pb::SeasonRequest>) -> Result<Response<pb::Projection>, Status> {
        let scope = self.auth.season_scope(request.metadata())?;
        let facade = self.facade.clone();
        let season = blocking(move || facade.season(scope)).await?;
        Ok(projection(season, Season::to_json_string, ToString::to_string))
    }

    async fn get_role_stats(&self, request: Request<pb::RoleStatsRequest>) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::RoleStats)?;
        let request = request.into_inner();
        let filter = facade::stats_filter(
            request.tournament,
            request.ruleset.as_deref(),
            request.stage.as_deref(),
            request.year,
        )?;
        let facade = self.facade.clone();
        let stats = blocking(move || facade.role_stats(&filter, request.as_of_position)).await?;
        Ok(projection(
            stats,
            |s| serde_json::to_string(&s.to_json()).expect("stats serialise"),
            projections::stats_text,
        ))
    }

    async fn get_ratings(&self, request: Request<pb::RatingsRequest>) -> Result<Response<pb::Projection>, Status> {
        self.auth.authorize(request.metadata(), Access::RoleStats)?;
        // Real names to who may see them in standings (organiser, jury); pseudonyms otherwise.
        let public = self.auth.authorize(request.metadata(), Access::Standings { public: false }).is_err();
        let asked = request.into_inner();
        let model = facade::ratings::model(&asked.model)?;
        let year = (asked.year != 0).then_some(asked.year);
        let facade = self.facade.clone();
        let ratings = blocking(move || facade.ratings(model, public, year)).await?;
        Ok(projection(ratings, RatingsView::to_json_string, RatingsView::text))
    }
}
