//! The web pages ledgerd serves with `--http-listen`, a folder for the people each page is for:
//! the public's ([`public`]: the front page, the standings board, the pairings, the Andes board),
//! the players' ([`players`]: a player's own page and the links to it), the table's tablet
//! ([`table`]: the offline app, the Andes recording page, the manifest and service worker), the
//! organiser's ([`organise`]: the console and the codes), the jury's ([`jury`]: the replay viewer
//! and the desk), the printed paper ([`paper`]), the hall's door and trust ([`hall`]: sign-in, the
//! sheet that makes a tablet trust a hall without internet) and the analysts' charts
//! ([`analysts`]). Server-rendered HTML with a little plain JavaScript, every asset compiled into
//! the binary ([`layout`]); Spanish and English from Fluent catalogues ([`i18n`]), refusals in
//! the reader's language ([`refusal`]).
//!
//! Architecture Invariant: the pages are one more client of the same code the gRPC API runs.
//! Who may see and record what is `Auth::authorize`/`Auth::recorder` on metadata built from the
//! browser's cookie ([`auth`]); numbers are projections: the pages ask the projections facade
//! (`ledger_house::facade`, the code behind the Projections service) and render its typed values
//! (`replay`'s standings, statistics and clock, the Andes views, the typed
//! `projections::table::TableView`), never protobuf or the API's JSON read back; the jury's view
//! is `replay::audit`, and an append is a `store::AppendRequest` decided by the sequencer like
//! any other. Live pages follow `Log::subscribe` ([`live`]), which knows no page: the board, the
//! Andes board and the jury's desk register how they render (`live::shared::LivePage`) and are
//! rendered once per change for all their viewers. The folders import one another without a
//! circle, and none imports this file's router.

mod analysts;
mod auth;
mod game;
mod hall;
pub mod i18n;
mod jury;
mod layout;
pub mod links;
mod live;
#[cfg(test)]
mod mirrors;
mod organise;
mod paper;
mod players;
mod public;
mod refusal;
mod standings;
mod table;

pub use hall::trust;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use ledger_house::auth::Auth;
use ledger_house::error::{Code, Error};
use ledger_house::facade::Projections;
use ledger_store::Log;
use std::sync::Arc;
use tokio::sync::watch;

pub use auth::{COOKIE_ACTOR, COOKIE_CLEARANCE, COOKIE_TOKEN};

/// What every page handler shares.
#[derive(Clone)]
pub struct WebState {
    log: Arc<Log>,
    auth: Arc<Auth>,
    /// The projections the pages show (`ledger_house::facade`), over the live log.
    facade: Projections<Arc<Log>>,
    /// Turns true when ledgerd shuts down: live pages end their event streams then.
    stopping: watch::Receiver<bool>,
    /// The live pages' slots (open event streams), shared out by class and client (issue 42).
    live_pages: ledger_house::shares::Shares,
    /// The signed checkpoints the board shows (`--signing-key`); `None`: none.
    proofs: Option<Arc<dyn ledger_house::proofs::LatestCheckpoint>>,
    /// The live pages being watched (boards, Andes boards, the jury's desk), each rendered once
    /// per change for all its viewers.
    shared: Arc<live::shared::SharedPages>,
    /// The pages are served over HTTPS: cookies are `Secure` and `__Host-`, HSTS is sent.
    https: bool,
    /// The key of the players' personal links (`/me/<tournament>/<code>`).
    player_links: Arc<ledger_house::player_links::PlayerLinks>,
    /// Each tournament's public day, built at most once a second for every player's page.
    days: Arc<players::days::Days>,
    /// ledgerd's own root for a hall without internet (`--tls-local-ca`): its trust sheet.
    trust: Option<Arc<trust::HallTrust>>,
    /// `--public-origin`: the origin every printed link starts with, behind a proxy.
    public_origin: Option<String>,
    /// A hall with its own root: the plain-HTTP port that serves the reading pages too
    /// ([`reading_router`]); their printed links name it.
    plain_reading: Option<u16>,
}

impl WebState {
    pub fn new(log: Arc<Log>, auth: Arc<Auth>, stopping: watch::Receiver<bool>) -> Self {
        let live_pages = ledger_house::shares::Shares::split(live::sse::MAX_LIVE_PAGES);
        let facade = Projections::new(Arc::clone(&log));
        // Without ledgerd's key (pages built by tests), links valid as long as these pages run.
        let player_links = ledger_house::player_links::PlayerLinks::random()
            .unwrap_or_else(|error| panic!("no random key for the players' links: {error}"));
        WebState {
            log,
            auth,
            facade,
            stopping,
            live_pages,
            proofs: None,
            shared: Arc::default(),
            https: false,
            player_links: Arc::new(player_links),
            days: Arc::default(),
            trust: None,
            public_origin: None,
            plain_reading: None,
        }
    }

    /// The pages behind a proxy that serves them at `origin` (`--public-origin`, checked by
    /// [`links::public_origin`]): every printed link starts with it.
    pub fn with_public_origin(mut self, origin: Option<String>) -> Self {
        self.public_origin = origin;
        self
    }

    /// A hall with its own root whose plain-HTTP port `port` also serves the reading pages
    /// ([`reading_router`]): their links are printed there, and no HSTS is sent.
    pub fn with_plain_reading(mut self, port: Option<u16>) -> Self {
        self.plain_reading = port;
        self
    }

    /// `scheme://host[:port]` for a printed or shown link that `leads` somewhere.
    pub(crate) fn site(&self, headers: &axum::http::HeaderMap, leads: links::Leads) -> Result<String, PageError> {
        let origins =
            links::Origins { public: self.public_origin.clone(), https: self.https, plain_reading: self.plain_reading };
        Ok(origins.site(headers, leads)?)
    }

    /// The pages with the hall's own root (ledgerd `--tls-local-ca`): `/hall/trust` prints it
    /// for the tablets, `/hall/root.crt` serves it.
    pub fn with_hall_trust(mut self, trust: Option<trust::HallTrust>) -> Self {
        self.trust = trust.map(Arc::new);
        self
    }

    /// The pages with ledgerd's key for the players' personal links (kept in its data directory,
    /// so a printed link stays valid across restarts).
    pub fn with_player_links(mut self, links: ledger_house::player_links::PlayerLinks) -> Self {
        self.player_links = Arc::new(links);
        self
    }

    /// How many times a tournament's public day was built for the players' pages.
    pub fn days_built(&self) -> u64 {
        self.days.builds()
    }

    /// How many times live boards were rendered since these pages started (each render serves
    /// every viewer of one board's language and clearance).
    pub fn board_renders(&self) -> u64 {
        self.shared.renders()
    }

    /// The caller as a recorder of `stream`, if it may record there (its role and its token's
    /// scope): what a table page offers its buttons for. Every append asks again.
    pub(crate) fn recorder_of(
        &self,
        metadata: &tonic::metadata::MetadataMap,
        stream: &ledger::StreamId,
    ) -> Option<ledger_house::auth::Recorder> {
        let recorder = self.auth.recorder(metadata).ok()?;
        recorder.may_write(stream, &*self.log).ok().map(|()| recorder)
    }

    /// The pages as served over HTTPS (ledgerd with `--tls-cert`): the sign-in's cookies are
    /// `Secure` with the `__Host-` prefix (no other port or subdomain can set them), and every
    /// answer says `Strict-Transport-Security`.
    pub fn over_https(mut self, https: bool) -> Self {
        self.https = https;
        self
    }

    /// The pages with the checkpoints of `proofs` (the board shows the latest).
    pub fn with_proofs(mut self, proofs: Option<Arc<dyn ledger_house::proofs::LatestCheckpoint>>) -> Self {
        self.proofs = proofs;
        self
    }

    /// The pages answering the season's questions (the front page, `/jury`, `/analyst`, its
    /// CSV, the ratings) from the read models ledgerd keeps as events commit.
    pub fn with_read_models(mut self, models: Arc<ledger_house::readmodels::ReadModels>) -> Self {
        self.facade = self.facade.with_read_models(models);
        self
    }
}

/// The pages and their routes.
pub fn router(state: WebState) -> axum::Router {
    axum::Router::new()
        .route("/", get(public::home::index))
        .route("/assets/{file}", get(layout::asset))
        .route("/open", get(layout::open))
        .route("/signin", get(hall::signin::signin_page).post(hall::signin::signin))
        .route("/signout", post(hall::signin::signout))
        .route("/lang", get(table::pwa::switch))
        .route("/sw.js", get(table::pwa::service_worker))
        .route("/table.webmanifest", get(table::pwa::manifest))
        .route("/assets/i18n/{lang}/{file}", get(table::pwa::catalogue))
        .route("/table/{game}", get(table::page))
        .route("/table/{game}/view", get(table::view))
        .route("/table/{game}/events", post(table::events))
        .route("/table/{game}/live", get(table::live))
        .route("/board/{tournament}", get(public::board::page))
        .route("/board/{tournament}/live", get(public::board::live))
        .route("/jury", get(jury::desk::desk))
        .route("/jury/desk/live", get(jury::desk::live))
        .route("/jury/{game}", get(jury::replay::page))
        .route("/jury/{game}/rule", post(jury::desk::rule))
        .route("/jury/{game}/horizon", post(jury::desk::horizon))
        .route("/jury/{game}/report.md", get(jury::replay::report))
        .route("/jury/{game}/proof.json", get(jury::replay::proof))
        .route("/andes/{match}", get(public::andes::page))
        .route("/andes/{match}/live", get(public::andes::live))
        .route("/andes/{match}/record", get(table::andes_record::page))
        .route("/andes/{match}/record/view", get(table::andes_record::view))
        .route("/andes/{match}/record/events", post(table::andes_record::events))
        .route("/andes/{match}/record/live", get(table::andes_record::live))
        .route("/analyst", get(analysts::analyst::page))
        .route("/analyst/roles.csv", get(analysts::analyst::csv))
        .route("/analyst/ratings", get(analysts::ratings::page))
        .route("/analyst/ratings.csv", get(analysts::ratings::csv))
        .route("/analyst/ratings.json", get(analysts::ratings::json))
        .route("/analyst/trends.csv", get(analysts::ratings::trends_csv))
        .route("/tables/{tournament}/{table}", get(table::tables::redirect))
        .route("/organise", get(organise::season).post(organise::create))
        .route("/organise/{tournament}", get(organise::console))
        .route("/organise/{tournament}/upload", post(organise::upload))
        .route("/organise/{tournament}/{action}", post(organise::act))
        .route("/paper/{tournament}", get(paper::index))
        .route("/paper/{tournament}/pairings/{round}", get(paper::pairings))
        .route("/paper/{tournament}/sheets/{round}", get(paper::sheets))
        .route("/paper/{tournament}/standings", get(paper::standings))
        .route("/paper/{tournament}/players", get(players::player_links::page))
        .route("/paper/{tournament}/players.csv", get(players::player_links::csv))
        .route("/me/{tournament}/{code}", get(players::player::page))
        .route("/me/{tournament}/{code}/view", get(players::player::view))
        .route("/pairings/{tournament}", get(public::pairings::index))
        .route("/pairings/{tournament}/{round}", get(public::pairings::round))
        // A hall without internet (issue 34): the sheet that makes a tablet trust ledgerd's root.
        .route("/hall/trust", get(trust::page))
        .route(trust::ROOT_PATH, get(trust::root))
        // The organiser's codes page (issue 33): the tokens ledgerd keeps, issued and revoked.
        .route("/organise/{tournament}/codes", get(organise::codes::page))
        .route("/organise/{tournament}/codes/sheet", post(organise::codes::print_sheet))
        .route("/organise/{tournament}/codes/table/{table}/reissue", post(organise::codes::reissue))
        .route("/organise/{tournament}/codes/table/{table}/revoke", post(organise::codes::revoke_table))
        .route("/organise/{tournament}/codes/table/{table}/admit", post(organise::codes::admit_device))
        .route("/organise/{tournament}/codes/table/{table}/device/{device}/end", post(organise::codes::end_device))
        .route("/organise/{tournament}/codes/person", post(organise::codes::issue_person))
        .route("/organise/{tournament}/codes/person/revoke", post(organise::codes::revoke_person))
        .layer(axum::middleware::from_fn_with_state(state.clone(), auth::scheme_of_forms))
        .layer(axum::middleware::from_fn(refusal::localize))
        .layer(axum::middleware::map_response_with_state(state.clone(), security_headers))
        .with_state(state)
}

/// The pages of a hall's plain-HTTP port besides the trust sheet (issue 41, [`links`]): a
/// player's page, the public pairings and the board, with their live parts, for the public only
/// (no cookie is read but the language), with the pages' own security headers and no HSTS.
pub fn reading_router(state: WebState) -> axum::Router {
    axum::Router::new()
        .route("/me/{tournament}/{code}", get(players::player::page))
        .route("/me/{tournament}/{code}/view", get(players::player::view))
        .route("/pairings/{tournament}", get(public::pairings::index))
        .route("/pairings/{tournament}/{round}", get(public::pairings::round))
        .route("/board/{tournament}", get(public::board::page))
        .route("/board/{tournament}/live", get(public::board::live))
        .layer(axum::middleware::from_fn(refusal::localize))
        .layer(axum::middleware::map_response_with_state(state.clone(), security_headers))
        .layer(axum::middleware::map_request(links::only_the_language))
        .with_state(state)
}

/// Scripts and styles only from this site, no framing, no sniffing; over HTTPS, HTTPS only
/// from now on (a year), except in a hall whose plain port serves the reading pages too (HSTS
/// would turn their printed plain links into HTTPS on the plain port for a browser that trusts
/// the hall's root).
async fn security_headers(
    axum::extract::State(state): axum::extract::State<WebState>,
    mut response: Response,
) -> Response {
    use axum::http::header::{self, HeaderValue};
    let headers = response.headers_mut();
    if state.https && state.plain_reading.is_none() {
        headers.insert(header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static("max-age=31536000"));
    }
    page_policy(
        headers,
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'",
    );
    response
}

/// What every answer of the pages says a browser may do with it: the content security policy
/// `csp`, no sniffing of its type, no referrer beyond this site.
fn page_policy(headers: &mut axum::http::HeaderMap, csp: &'static str) {
    use axum::http::header::{self, HeaderValue};
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(csp));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("same-origin"));
}

/// Runs blocking reads and folds off the async workers.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, PageError> + Send + 'static,
) -> Result<T, PageError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| Error::Internal(format!("a page failed: {e}")))?
}

/// A page that cannot be shown, as the gRPC API would have refused it: its code (which says
/// the HTTP status, [`Code::http_status`]), the machine text for JSON routes and logs, and what
/// a person reads in their language ([`refusal`]).
#[derive(Debug, Clone)]
pub(crate) struct PageError {
    code: Code,
    /// `CODE: the ledger's sentence`, as `ledgerctl` prints it.
    message: String,
    say: i18n::Say,
    /// The refusal of the rules behind it, with its own words (`ledger::Reason`): the page
    /// says them under the sentence, in the reader's language.
    refused: Option<ledger::Rejection>,
}

impl PageError {
    /// The same refusal, said as `say` in a page.
    fn saying(mut self, say: i18n::Say) -> Self {
        self.say = say;
        self
    }

    /// A "not found" said as `say` (a page that knows what it looked for).
    fn when_not_found(self, say: i18n::Say) -> Self {
        if self.code == Code::NotFound {
            self.saying(say)
        } else {
            self
        }
    }

    /// The HTTP status the page is answered with.
    fn status(&self) -> StatusCode {
        http_status(self.code)
    }

    /// Logs a failure of the server (not a refusal) where it is answered: on its page or JSON.
    fn log_failure(&self) {
        if matches!(self.code, Code::Internal | Code::DataLoss) {
            tracing::error!(message = %self.message, "a page failed");
        }
    }
}

/// The HTTP status of a code.
fn http_status(code: Code) -> StatusCode {
    StatusCode::from_u16(code.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

impl From<Error> for PageError {
    /// A failure of the house on a page: its HTTP status, its machine text and its sentence.
    fn from(error: Error) -> Self {
        let refused = match &error {
            Error::Refused(rejection) if rejection.reason.is_some() => Some(rejection.clone()),
            _ => None,
        };
        PageError { code: error.code(), message: error.text(), say: i18n::Say::of_error(&error), refused }
    }
}

impl From<ledger_store::StoreError> for PageError {
    fn from(error: ledger_store::StoreError) -> Self {
        PageError::from(Error::from(error))
    }
}

impl IntoResponse for PageError {
    /// In English here; [`refusal::localize`] writes it again in the reader's language. A
    /// failure of the server (not a refusal) is logged here, where it is answered.
    fn into_response(self) -> Response {
        self.log_failure();
        let mut response = refusal::page(i18n::Lang::En, "/", &self);
        response.extensions_mut().insert(self);
        response
    }
}

/// A plain-text answer for what is no page (an asset, a catalogue): the failure's HTTP status
/// and its message alone.
fn plain(error: Error) -> Response {
    (http_status(error.code()), error.message()).into_response()
}

/// Milliseconds since the Unix epoch, the server's clock (table time on web-started games
/// is derived from it: see [`game::table_now_ms`]).
fn wall_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
