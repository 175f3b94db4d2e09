//! Issue 35's probes that held when it was filed, kept holding: the path of an asset, a body of
//! 10 MB, JSON nested a hundred thousand deep, and the actor header when tokens are on. Each
//! against a ledgerd of its own, on loopback, in bounded loops (the other held probes and where
//! their tests are: docs/RELIABILITY.md, the threat table).

use crate::daemon::Daemon;
use crate::hostile::{as_holder, http};
use crate::support::{append, events};
use ledger_house::auth::file::entry;
use ledger_house::auth::{Access, Role, ACTOR_HEADER, CLEARANCE_HEADER};
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_stream::StreamExt;
use tonic::transport::Channel;
use tonic::Code;

const ORGANISER: &str = "organiser-secret";
const TABLE: &str = "table-1-secret";
const JURY: &str = "jury-secret";
const ANALYST: &str = "analyst-secret";

/// A ledgerd with tokens (an organiser, an unscoped table, a jury, an analyst) and the pages, holding `game/g`
/// started by the organiser.
struct Hall {
    _dir: tempfile::TempDir,
    daemon: Daemon,
    grpc: LedgerClient<Channel>,
    web: String,
}

impl Hall {
    async fn open() -> Hall {
        Hall::open_with(&[]).await
    }

    async fn open_with(extra: &[&str]) -> Hall {
        let dir = tempfile::tempdir().unwrap();
        let auth_file = dir.path().join("auth.json");
        let tokens = json!({"tokens": [
            entry(ORGANISER, "olga", Role::Organiser),
            entry(TABLE, "table-1", Role::Table),
            entry(JURY, "judith", Role::Jury),
            entry(ANALYST, "ana", Role::Analyst),
        ]});
        std::fs::write(&auth_file, tokens.to_string()).unwrap();
        let flags = ["--auth-file", auth_file.to_str().unwrap(), "--http-listen", "127.0.0.1:0"];
        let daemon = Daemon::spawn_with(&dir.path().join("data"), &[&flags[..], extra].concat());
        let mut grpc = daemon.connect().await;
        let start = events(&[json!({"type": "game_started", "at_ms": 0, "ruleset": "cafe2023"})]);
        grpc.append(as_holder(append("game/g", &start, "g-", None), ORGANISER)).await.unwrap();
        let web = daemon.announced("http").to_owned();
        Hall { _dir: dir, daemon, grpc, web }
    }

    /// Every record of `game/g`, as the organiser reads them.
    async fn game(&mut self) -> Vec<pb::RecordedEvent> {
        let request = pb::ReadRequest { stream: "game/g".into(), from_seq: 1, ..Default::default() };
        let read = self.grpc.read(as_holder(request, ORGANISER)).await.unwrap().into_inner();
        read.map(Result::unwrap).collect().await
    }

    /// The head of a POST of `length` bytes to the table page's queue, signed in as the table.
    fn post_head(&self, length: usize, extra: &str) -> String {
        format!(
            "POST /table/g/events HTTP/1.1\r\nHost: {}\r\nCookie: {}={}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n{extra}Connection: close\r\n\r\n",
            self.web,
            ledger_web::COOKIE_TOKEN,
            hex::encode(TABLE)
        )
    }

    /// The front page still answers: nothing before it took ledgerd down.
    async fn still_serves(&mut self) {
        let (status, answer) =
            http(&self.web, format!("GET / HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", self.web)).await;
        assert_eq!(status, 200, "{answer}");
        assert!(self.daemon.child.try_wait().unwrap().is_none(), "ledgerd is still running");
    }
}

/// An asset's name with `..`, encoded or not, slashes and backslashes, under `/assets/` and
/// `/assets/i18n/`: never a file of the machine, never a page's error with a path in it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paths_outside_the_assets_are_never_served() {
    let mut hall = Hall::open().await;
    let get = |path: &str| format!("GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", hall.web);
    let (status, answer) = http(&hall.web, get("/assets/style.css")).await;
    assert_eq!(status, 200, "the assets are served: {answer}");
    for path in [
        "/assets/../Cargo.toml",
        "/assets/..%2fCargo.toml",
        "/assets/%2e%2e%2f%2e%2e%2fCargo.toml",
        "/assets/..%5c..%5cCargo.toml",
        "/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/assets/..%252f..%252fCargo.toml",
        "/assets/i18n/en/..%2f..%2fCargo.toml",
        "/assets/i18n/..%2f..%2f/Cargo.toml",
        "/assets/i18n/%2e%2e/rules.ftl",
        "/assets/i18n/en/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/assets/i18n/en/..%5crules.ftl",
    ] {
        let (status, answer) = http(&hall.web, get(path)).await;
        assert!(matches!(status, 400 | 404), "{path}: {status}\n{answer}");
        for leak in ["[package]", "[workspace]", "root:", "/work/", "/home/", "/etc/"] {
            assert!(!answer.contains(leak), "{path} shows {leak}:\n{answer}");
        }
    }
    hall.still_serves().await;
}

/// A POST of 10 MB is refused `413 Payload Too Large` once the body limit is read, and nothing of
/// it is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ten_megabyte_post_is_refused_and_stores_nothing() {
    const SIZE: usize = 10 * 1024 * 1024;
    let mut hall = Hall::open().await;
    let reason = "x".repeat(SIZE - 200);
    let body = json!({"events": [{"event_id": "huge-1", "expected_version": 1,
        "event": {"type": "jury_called", "reason": reason}}]})
    .to_string();
    assert!(body.len() > 10_000_000);
    // Sent whole: ledgerd reads 2 MiB (the body limit), answers 413 and closes.
    let mut stream = tokio::net::TcpStream::connect(&hall.web).await.unwrap();
    let mut sent = stream.write_all(hall.post_head(body.len(), "").as_bytes()).await.is_ok();
    for chunk in body.as_bytes().chunks(64 * 1024) {
        if !sent || stream.write_all(chunk).await.is_err() {
            sent = false;
            break;
        }
    }
    let mut answer = Vec::new();
    let read = tokio::time::timeout(std::time::Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "ledgerd neither answered nor closed the connection");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "sent whole: {sent}; {answer}");
    assert_eq!(hall.game().await.len(), 1, "nothing of the 10 MB was stored");
    hall.still_serves().await;
}

/// Event JSON nested 100,000 deep (200 KB, well inside the body limit), in the queue and in an
/// event's field: refused with a sentence, no stack overflow, nothing stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deeply_nested_json_is_refused_without_a_panic() {
    const DEPTH: usize = 100_000;
    let mut hall = Hall::open().await;
    let nested = format!("{}{}", "[".repeat(DEPTH), "]".repeat(DEPTH));
    // Too deep to parse: 400; parsed but not a queue: 422.
    for (body, expected, why) in [
        (
            format!(r#"{{"events": [{{"event_id": "deep-1", "expected_version": 1, "event": {nested}}}]}}"#),
            400,
            "recursion limit",
        ),
        (
            format!(
                r#"{{"events": [{{"event_id": "deep-2", "expected_version": 1, "event": {{"type": "jury_called", "reason": {nested}}}}}]}}"#
            ),
            400,
            "recursion limit",
        ),
        (format!(r#"{{"events": {nested}}}"#), 422, "invalid type: sequence"),
    ] {
        let (status, answer) = http(&hall.web, format!("{}{body}", hall.post_head(body.len(), ""))).await;
        let shown = &answer[..answer.len().min(800)];
        assert_eq!(status, expected, "{shown}");
        assert!(answer.contains(why), "{shown}");
    }
    assert_eq!(hall.game().await.len(), 1, "nothing nested was stored");
    hall.still_serves().await;
}

/// With tokens on, `x-ledger-actor` and `x-ledger-clearance` are ignored: a table's code that
/// claims to be the organiser records as the table and may not do what only the organiser may,
/// and the headers alone are the public. Over the pages too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_actor_header_is_ignored_when_tokens_are_on() {
    let mut hall = Hall::open().await;
    let claim = |mut request: tonic::Request<pb::AppendRequest>| {
        request.metadata_mut().insert(ACTOR_HEADER, "olga".parse().unwrap());
        request.metadata_mut().insert(CLEARANCE_HEADER, "organiser".parse().unwrap());
        request
    };
    let turn = events(&[json!({"type": "turn_started", "turn": 1})]);
    let request = claim(as_holder(append("game/g", &turn, "claimed-", Some(1)), TABLE));
    hall.grpc.append(request).await.unwrap();
    let stored = hall.game().await;
    assert_eq!(stored.len(), 2);
    assert_eq!(stored[1].envelope.as_ref().unwrap().actor, "table-1", "recorded as the code's holder");
    // The organiser's own: creating a tournament, refused to the table that claims to be her.
    let created = events(&[json!({"type": "tournament_created", "name": "claimed", "ruleset": "cafe2023"})]);
    let refused = hall
        .grpc
        .append(claim(as_holder(append("tournament/claimed", &created, "t-", None), TABLE)))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{}", refused.message());
    // The headers without a token: the public, who records nothing.
    let refused = hall.grpc.append(claim(tonic::Request::new(append("game/g", &turn, "bare-", Some(2))))).await;
    let refused = refused.unwrap_err();
    assert!(matches!(refused.code(), Code::Unauthenticated | Code::PermissionDenied), "{refused:?}");
    // The pages: the same headers and no cookie post nothing.
    let body = json!({"events": [{"event_id": "web-1", "expected_version": 2,
        "event": {"type": "jury_called", "reason": "claimed"}}]})
    .to_string();
    let request = format!(
        "POST /table/g/events HTTP/1.1\r\nHost: {}\r\n{ACTOR_HEADER}: olga\r\n{CLEARANCE_HEADER}: organiser\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        hall.web,
        body.len()
    );
    let (status, answer) = http(&hall.web, request).await;
    assert!(matches!(status, 401 | 403), "{answer}");
    assert_eq!(hall.game().await.len(), 2, "nothing recorded under a claimed name");
}

/// A player whose name is a script and whose pseudonym closes an attribute: every page that
/// names players (the board, the pairings, the paper, the console, the player's own) shows
/// them as text, escaped, and none of these nor the jury's carries either as markup.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_with_markup_is_shown_as_text_on_every_page_that_names_players() {
    const NAME: &str = r#"<script>alert("name")</script>"#;
    const PSEUDONYM: &str = r#""><img src=x onerror=alert(1)>"#;
    let mut hall = Hall::open().await;
    let server = format!("http://{}", hall.daemon.addr());
    tokio::task::block_in_place(|| {
        let organiser = |args: &[&str]| {
            let mut all = vec!["--server", server.as_str(), "--token", ORGANISER];
            all.extend_from_slice(args);
            let out = crate::support::run_ledgerctl(&all, "");
            assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        organiser(&["tournament", "create", "--id", "xss", "--name", "xss", "--ruleset", "cafe2023"]);
        let register = ["tournament", "register", "--tournament", "xss", "--player"];
        organiser(&[&register[..], &["p1", "--name", NAME, "--pseudonym", PSEUDONYM]].concat());
        for n in 2..=8 {
            let player = format!("p{n}");
            organiser(&[&register[..], &[player.as_str(), "--name", player.as_str()]].concat());
        }
        organiser(&["tournament", "draw", "--tournament", "xss", "--seed", "7"]);
    });
    let start = events(&[json!({"type": "game_started", "at_ms": 0})]);
    for table in 1..=2 {
        let game = format!("game/xss-q1-t{table}");
        hall.grpc.append(as_holder(append(&game, &start, &format!("xss-{table}-"), None), ORGANISER)).await.unwrap();
    }
    let get = |path: &str| {
        // The replay viewer is the jury's alone; every other page here the organiser's too.
        let token = if path.starts_with("/jury/") { JURY } else { ORGANISER };
        format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nCookie: {}={}\r\nConnection: close\r\n\r\n",
            hall.web,
            ledger_web::COOKIE_TOKEN,
            hex::encode(token)
        )
    };
    let (status, csv) = http(&hall.web, get("/paper/xss/players.csv")).await;
    assert_eq!(status, 200, "{csv}");
    let own = csv.lines().find(|l| l.starts_with("p1,")).and_then(|l| l.rsplit(',').next()).expect("p1's link");
    let own = own.split_once("/me/").map(|(_, code)| format!("/me/{code}")).expect("a /me/ link");
    let mut pages = vec![
        "/board/xss".to_owned(),
        "/pairings/xss/1".to_owned(),
        "/paper/xss/standings".to_owned(),
        "/paper/xss/pairings/1".to_owned(),
        "/paper/xss/sheets/1".to_owned(),
        "/paper/xss/players".to_owned(),
        "/organise/xss".to_owned(),
        own,
    ];
    // The jury's replay viewer and its report name seats by player id: no markup there either.
    for table in 1..=2 {
        pages.extend([format!("/jury/xss-q1-t{table}"), format!("/jury/xss-q1-t{table}/report.md")]);
    }
    for path in &pages {
        let (status, page) = http(&hall.web, get(path)).await;
        assert_eq!(status, 200, "{path}: {page}");
        for markup in ["<script>alert", "<img src=x", "\"><img"] {
            assert!(!page.contains(markup), "{path} carries {markup} as markup");
        }
        let named = page.contains("&lt;script&gt;alert") || page.contains("&lt;img src=x onerror=alert(1)&gt;");
        if !path.starts_with("/jury/") {
            assert!(named, "{path} does not show the player's name or pseudonym as text");
        }
    }
}

/// The live pages are bounded (`MAX_LIVE_PAGES`, 1,024), shared out since issue 42: one
/// organiser follows at most 64 (the staff's share per person), the next is refused `503` with
/// a sentence at once, and one going away lets another in. (Other clients' shares beside a
/// flood: `hostile_shares.rs`.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_pages_beyond_the_bound_are_refused_at_once() {
    const LIVE: usize = 64;
    // This test holds the 65 sockets itself.
    let (_, soft) = ledger_daemon::server::descriptors::raise_soft_limit();
    assert!(soft > 2_500, "the test needs a hard open-file limit above 2,500 (ulimit -Hn), found {soft}");
    let hall = Hall::open_with(&["--http-max-connections", "1500"]).await;
    let request = format!(
        "GET /table/g/live HTTP/1.1\r\nHost: {}\r\nCookie: {}={}\r\nAccept: text/event-stream\r\n\r\n",
        hall.web,
        ledger_web::COOKIE_TOKEN,
        hex::encode(ORGANISER)
    );
    // The answer's head: its status line.
    async fn follow(web: &str, request: &str) -> (tokio::net::TcpStream, String) {
        let mut stream = tokio::net::TcpStream::connect(web).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut head = vec![0; 1024];
        let n =
            tokio::time::timeout(std::time::Duration::from_secs(10), stream.read(&mut head)).await.unwrap().unwrap();
        let head = String::from_utf8_lossy(&head[..n]).into_owned();
        (stream, head)
    }
    let mut held = Vec::with_capacity(LIVE);
    for n in 0..LIVE {
        let (stream, head) = follow(&hall.web, &request).await;
        assert!(head.starts_with("HTTP/1.1 200"), "live page {n}: {head}");
        held.push(stream);
    }
    let (_, head) = follow(&hall.web, &request).await;
    assert!(head.starts_with("HTTP/1.1 503"), "{head}");
    let (_, answer) = http(&hall.web, request.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n")).await;
    assert!(answer.contains("You already follow 64 live pages"), "{answer}");
    // One tablet goes away: another follows.
    drop(held.pop());
    crate::support::eventually("a live page to be let go", std::time::Duration::from_secs(10), || async {
        let (stream, head) = follow(&hall.web, &request).await;
        head.starts_with("HTTP/1.1 200").then_some(stream)
    })
    .await;
}

/// Each role's forbidden pages refused, its allowed ones served, as the access table
/// (`house/src/auth/policy.rs`) says: the replay viewer, the console, the day's paper, the
/// full standings, and recording through the table page. (Over gRPC: `security.rs`.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_roles_pages_are_what_the_access_table_says() {
    let mut hall = Hall::open().await;
    let created = events(&[json!({"type": "tournament_created", "name": "t1", "ruleset": "cafe2023"})]);
    hall.grpc.append(as_holder(append("tournament/t1", &created, "t1-", None), ORGANISER)).await.unwrap();
    // A resend of the stored start: answered, nothing new stored.
    let resend = json!({"events": [{"event_id": "g-0", "expected_version": 0,
        "event": {"type": "game_started", "at_ms": 0, "ruleset": "cafe2023"}}]})
    .to_string();
    let pages = [
        ("GET /jury/g", Access::ReplayViewer),
        ("GET /organise/t1", Access::Organise),
        ("GET /paper/t1/standings", Access::Paper),
        ("GET /paper/t1/players.csv", Access::Paper),
        ("POST /table/g/events", Access::Record),
    ];
    let holders = [(None, Role::Public), (Some(ANALYST), Role::Analyst), (Some(TABLE), Role::Table)];
    let holders = [&holders[..], &[(Some(ORGANISER), Role::Organiser), (Some(JURY), Role::Jury)]].concat();
    for (token, role) in holders {
        for (page, access) in pages {
            let cookie =
                token.map_or(String::new(), |t| format!("Cookie: {}={}\r\n", ledger_web::COOKIE_TOKEN, hex::encode(t)));
            let body = if page.starts_with("POST") { resend.as_str() } else { "" };
            let request = format!(
                "{page} HTTP/1.1\r\nHost: {}\r\n{cookie}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                hall.web,
                body.len()
            );
            let (status, answer) = http(&hall.web, request).await;
            let shown = &answer[..answer.len().min(600)];
            if role.may(access) {
                assert_eq!(status, 200, "{role:?} {page}: {shown}");
            } else {
                assert!(matches!(status, 303 | 401 | 403), "{role:?} {page}: {shown}");
                assert!(!answer.contains("\"status\":\"duplicate\""), "{role:?} {page}: {shown}");
            }
        }
    }
    assert_eq!(hall.game().await.len(), 1, "the resends stored nothing");
}
