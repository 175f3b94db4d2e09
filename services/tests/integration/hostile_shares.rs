//! Issue 42, fair shares in a public hall: the denials that needed only one photo of one table's
//! printed code, or a laptop on the hall's Wi-Fi, each run as the attack was (bounded in time, on
//! loopback) against a real ledgerd, with what must hold after it: the jury rules on a game a
//! code filled; a flood of refused events spends nothing and stops no other device; sign-ins
//! with a photographed code sign the tablet out of nothing; anonymous viewers and one code's
//! subscriptions take only their own share; the scheme of a form's origin. The floods of pings
//! and slow handshakes are in `hostile_floods.rs`. Each test prints the append p50 of a table
//! during its attack (docs/BENCHMARKS.md).

use crate::daemon::Daemon;
use crate::hostile::{as_holder, http};
use crate::support::{append, events};
use ledger_house::auth::file::{entry, scoped_entry};
use ledger_house::auth::{Role, Scope};
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use serde_json::json;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_stream::StreamExt;
use tonic::transport::Channel;
use tonic::Code;

pub(crate) const ORGANISER: &str = "organiser-secret";
pub(crate) const JURY: &str = "jury-secret";
/// Table 1's printed code, which its tablet signs in with.
pub(crate) const PRINTED: &str = "printed-table-1";
/// The same table's code printed again (a reprint), photographed by a stranger.
pub(crate) const REPRINT: &str = "reprinted-table-1";
/// Table 2's code.
pub(crate) const TABLE_2: &str = "printed-table-2";
/// Table 1's game in the draw of `wm26`.
pub(crate) const GAME: &str = "game/wm26-q1-t1";

/// A ledgerd with tokens and the pages, and tournament `wm26` (cafe2023, 8 players) drawn, so
/// that the printed codes, scoped to their tables, record in their games.
pub(crate) struct Hall {
    pub _dir: tempfile::TempDir,
    pub _daemon: Daemon,
    pub grpc: LedgerClient<Channel>,
    pub web: String,
}

impl Hall {
    pub(crate) async fn open(extra: &[&str]) -> Hall {
        let dir = tempfile::tempdir().unwrap();
        let auth_file = dir.path().join("auth.json");
        let table = |n: u32| Scope { tournament: Some("wm26".into()), table: Some(n), streams: Vec::new() };
        let tokens = json!({"tokens": [
            entry(ORGANISER, "olga", Role::Organiser),
            entry(JURY, "judith", Role::Jury),
            scoped_entry(PRINTED, "wm26-table-1", Role::Table, &table(1)),
            scoped_entry(REPRINT, "wm26-table-1", Role::Table, &table(1)),
            scoped_entry(TABLE_2, "wm26-table-2", Role::Table, &table(2)),
        ]});
        std::fs::write(&auth_file, tokens.to_string()).unwrap();
        let flags = ["--auth-file", auth_file.to_str().unwrap(), "--http-listen", "127.0.0.1:0"];
        let daemon = Daemon::spawn_with(&dir.path().join("data"), &[&flags[..], extra].concat());
        let grpc = daemon.connect().await;
        let server = format!("http://{}", daemon.addr());
        tokio::task::block_in_place(|| {
            let organiser = |args: &[&str]| {
                let mut all = vec!["--server", server.as_str(), "--token", ORGANISER];
                all.extend_from_slice(args);
                let out = crate::support::run_ledgerctl(&all, "");
                assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
            };
            organiser(&["tournament", "create", "--id", "wm26", "--name", "WM 26", "--ruleset", "cafe2023"]);
            for n in 1..=8 {
                let player = format!("p{n}");
                organiser(&["tournament", "register", "--tournament", "wm26", "--player", &player, "--name", &player]);
            }
            organiser(&["tournament", "draw", "--tournament", "wm26", "--seed", "7"]);
        });
        let web = daemon.announced("http").to_owned();
        Hall { _dir: dir, _daemon: daemon, grpc, web }
    }

    /// Signs a browser in with `code`: its sign-in cookie's value, or the status and answer of
    /// the refusal.
    pub(crate) async fn sign_in(&self, code: &str) -> Result<String, (u16, String)> {
        let body = format!("token={code}&next=%2F");
        let request = format!(
            "POST /signin HTTP/1.1\r\nHost: {web}\r\nAccept-Language: en\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len(),
            web = self.web
        );
        let (status, answer) = http(&self.web, request).await;
        let cookie = answer.lines().find_map(|l| {
            let value = l.strip_prefix("set-cookie: ").or_else(|| l.strip_prefix("Set-Cookie: "))?;
            value.strip_prefix(&format!("{}=", ledger_web::COOKIE_TOKEN))?.split(';').next().map(str::to_owned)
        });
        match (status, cookie) {
            (303, Some(cookie)) => Ok(cookie),
            _ => Err((status, answer)),
        }
    }

    /// The tablet's queue posted with `cookie`: the status and the answer's body.
    pub(crate) async fn post_queue(&self, cookie: &str, queue: &serde_json::Value) -> (u16, String) {
        let body = queue.to_string();
        let request = format!(
            "POST /table/wm26-q1-t1/events HTTP/1.1\r\nHost: {web}\r\nCookie: {}={cookie}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            ledger_web::COOKIE_TOKEN,
            body.len(),
            web = self.web
        );
        let (status, answer) = http(&self.web, request).await;
        (status, answer.split("\r\n\r\n").nth(1).unwrap_or_default().to_owned())
    }

    /// A GET with `cookie` (hex of a token, or none): the status and the whole answer.
    pub(crate) async fn get(&self, path: &str, cookie: Option<&str>) -> (u16, String) {
        let cookie = cookie.map_or_else(String::new, |c| format!("Cookie: {}={c}\r\n", ledger_web::COOKIE_TOKEN));
        let request = format!("GET {path} HTTP/1.1\r\nHost: {}\r\n{cookie}Connection: close\r\n\r\n", self.web);
        http(&self.web, request).await
    }
}

/// The median of `n` appends of a `jury_called` to `stream` as `token`, each timed alone.
pub(crate) async fn append_p50(client: &mut LedgerClient<Channel>, token: &str, stream: &str, n: usize) -> Duration {
    use std::sync::atomic::{AtomicU64, Ordering};
    static TIMED: AtomicU64 = AtomicU64::new(0);
    let call = events(&[json!({"type": "jury_called", "reason": "timing"})]);
    let mut took = Vec::with_capacity(n);
    for _ in 0..n {
        let prefix = format!("p50-{}-", TIMED.fetch_add(1, Ordering::Relaxed));
        let started = Instant::now();
        client.append(as_holder(append(stream, &call, &prefix, None), token)).await.unwrap();
        took.push(started.elapsed());
    }
    took.sort();
    took[n / 2]
}

/// Row "a game filled to its bound" (issue 42, item 1): with `--max-stream-events 300`, a
/// table's code fills its game, and its next event is refused; the jury's ruling, the void of the
/// wrong `game_ended` and the corrected one are then accepted, past the bound.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_jury_rules_on_voids_and_closes_a_game_a_tables_code_filled() {
    let mut hall = Hall::open(&["--max-stream-events", "300"]).await;
    let mut filled = vec![json!({"type": "game_started", "at_ms": 0})];
    filled.extend((1..=3).map(|t| json!({"type": "turn_started", "turn": t})));
    filled.extend(std::iter::repeat_n(json!({"type": "jury_called", "reason": "junk"}), 295));
    filled.push(json!({"type": "game_ended", "outcome": "allied_victory", "winners": ["france"],
        "objectives": {"russia": [4, 10], "sweden": [1, 5], "austria": [6, 12], "imperial_army": [2, 5], "france": [10, 10]}}));
    for (n, chunk) in filled.chunks(100).enumerate() {
        let chunk = events(chunk);
        hall.grpc.append(as_holder(append(GAME, &chunk, &format!("fill{n}-"), None), REPRINT)).await.unwrap();
    }
    let one = events(&[json!({"type": "jury_called", "reason": "one more"})]);
    let refused = hall.grpc.append(as_holder(append(GAME, &one, "over-", None), REPRINT)).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{}", refused.message());
    assert!(refused.message().contains("a game stream holds at most 300 events"), "{}", refused.message());
    let ruling = events(&[
        json!({"type": "jury_ruling", "text": "the junk was a stranger's; the game ended with Russia's win"}),
        json!({"type": "event_voided", "seq": 300, "reason": "the wrong winner"}),
        json!({"type": "game_ended", "outcome": "allied_victory", "winners": ["russia"],
            "objectives": {"russia": [10, 10], "sweden": [5, 5], "austria": [6, 12], "imperial_army": [5, 5], "france": [4, 10]}}),
    ]);
    let ruled = hall.grpc.append(as_holder(append(GAME, &ruling, "jury-", None), JURY)).await.unwrap().into_inner();
    assert_eq!((ruled.first_seq, ruled.last_seq), (301, 303));
    // The table's code is still held at the bound; the read shows the jury's correction.
    let refused = hall.grpc.append(as_holder(append(GAME, &one, "over2-", None), REPRINT)).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted);
    let request = pb::ReadRequest { stream: GAME.into(), from_seq: 301, ..Default::default() };
    let read: Vec<pb::RecordedEvent> =
        hall.grpc.read(as_holder(request, ORGANISER)).await.unwrap().into_inner().map(Result::unwrap).collect().await;
    assert_eq!(read.len(), 3);
    assert_eq!(read[2].envelope.as_ref().unwrap().actor, "judith");
}

/// Row "a flood spends the real table's allowance" (item 2): the reprinted code floods refused
/// events for 20 s from four loops; the table's tablet, signed in with the other code (a device
/// of its own), records its next turn at once, and the flooding code too finds its allowance
/// whole: only what is recorded spends it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_refused_events_spends_nothing_and_stops_no_other_device() {
    const FLOOD: Duration = Duration::from_secs(20);
    let mut hall = Hall::open(&["--table-events-per-minute", "600"]).await;
    let tablet = hall.sign_in(PRINTED).await.expect("the tablet signs in");
    let start = events(&[json!({"type": "game_started", "at_ms": 0}), json!({"type": "turn_started", "turn": 1})]);
    hall.grpc.append(as_holder(append(GAME, &start, "start-", None), REPRINT)).await.unwrap();
    let table_2 = "game/wm26-q1-t2";
    hall.grpc.append(as_holder(append(table_2, &start, "t2-", None), TABLE_2)).await.unwrap();
    let quiet = append_p50(&mut hall.grpc, TABLE_2, table_2, 21).await;
    // The flood: a turn the rules refuse, as fast as four loops send it.
    let deadline = Instant::now() + FLOOD;
    let mut floods = tokio::task::JoinSet::new();
    for loop_n in 0..4 {
        let mut client = hall.grpc.clone();
        floods.spawn(async move {
            let wrong = events(&[json!({"type": "turn_started", "turn": 9})]);
            let (mut refused, mut n) = (0u64, 0u64);
            while Instant::now() < deadline {
                let prefix = format!("flood-{loop_n}-{n}-");
                n += 1;
                // A refusal by the rules, never for the allowance: refusals spend none of it.
                match client.append(as_holder(append(GAME, &wrong, &prefix, None), REPRINT)).await {
                    Err(status) if status.code() != Code::ResourceExhausted => refused += 1,
                    other => panic!("the flood's turn: {other:?}"),
                }
            }
            refused
        });
    }
    let during = append_p50(&mut hall.grpc, TABLE_2, table_2, 21).await;
    let mut refused = 0;
    while let Some(n) = floods.join_next().await {
        refused += n.unwrap();
    }
    assert!(refused > 600, "the flood sent more than a minute's allowance: {refused} refused");
    // The tablet's next turn, at once.
    let queued = json!({"events": [{"event_id": "tablet-2", "expected_version": 2, "event": {"type": "turn_started", "turn": 2}}]});
    let (status, body) = hall.post_queue(&tablet, &queued).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"status\":\"stored\""), "{body}");
    // The flooding code's own allowance is whole: a minute's worth at once.
    let minute = events(&vec![json!({"type": "jury_called", "reason": "after"}); 600]);
    hall.grpc.append(as_holder(append(GAME, &minute, "after-", None), REPRINT)).await.unwrap();
    eprintln!("append p50 of table 2 (gRPC): {quiet:?} quiet, {during:?} during a flood of {refused} refused events");
}

/// Row "sign-ins evict the tablet" (item 2): 16, then 100 sign-ins with a photographed code
/// after the tablet signed in. Each is refused with what to do; the tablet stays signed in and
/// records. The organiser's codes page lists the tablet, lets one more device in, and ends the
/// first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_ins_with_a_photographed_code_never_sign_the_tablet_out() {
    let hall = Hall::open(&[]).await;
    let tablet = hall.sign_in(PRINTED).await.expect("the tablet signs in");
    for attempt in 0..116 {
        let (status, answer) = hall.sign_in(PRINTED).await.expect_err("a spent code signs no one in");
        assert!((400..500).contains(&status), "sign-in {attempt}: {status}");
        if attempt == 15 || attempt == 115 {
            assert!(answer.contains("already signed in its tablet"), "{answer}");
        }
    }
    let start =
        json!({"events": [{"event_id": "t-1", "expected_version": 0, "event": {"type": "game_started", "at_ms": 0}}]});
    let (status, body) = hall.post_queue(&tablet, &start).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"status\":\"stored\""), "{body}");
    assert_eq!(hall.get("/", Some(&tablet)).await.0, 200);
    // The photo records nothing over gRPC either: a spent code admits nothing by itself.
    let mut grpc = hall.grpc.clone();
    let turn = events(&[json!({"type": "turn_started", "turn": 1})]);
    let refused = grpc.append(as_holder(append(GAME, &turn, "photo-", None), PRINTED)).await.unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);
    // The console: the tablet among table 1's devices; one more let in; the first ended.
    let organiser = hex::encode(ORGANISER);
    let (status, page) = hall.get("/organise/wm26/codes", Some(&organiser)).await;
    assert_eq!(status, 200, "{page}");
    let row = page.split("<tr data-table=\"1\">").nth(1).unwrap().split("</tr>").next().unwrap().to_owned();
    let device = row.split("data-device=\"").nth(1).unwrap().split('"').next().unwrap().to_owned();
    assert_eq!(row.matches("data-device=").count(), 1, "{row}");
    assert!(row.contains("admit-device"), "{row}");
    let post = |path: String| {
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: {web}\r\nCookie: {}={organiser}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            ledger_web::COOKIE_TOKEN,
            web = hall.web
        );
        http(&hall.web, request)
    };
    assert_eq!(post("/organise/wm26/codes/table/1/admit".into()).await.0, 303);
    let second = hall.sign_in(PRINTED).await.expect("the organiser let one more device in");
    assert!(hall.sign_in(PRINTED).await.is_err(), "and only one");
    assert_eq!(post(format!("/organise/wm26/codes/table/1/device/{device}/end")).await.0, 303);
    let turn =
        json!({"events": [{"event_id": "t-2", "expected_version": 1, "event": {"type": "turn_started", "turn": 1}}]});
    let (status, _) = hall.post_queue(&tablet, &turn).await;
    assert_eq!(status, 401, "the ended device is signed out");
    let (status, body) = hall.post_queue(&second, &turn).await;
    assert_eq!(status, 200, "{body}");
}

/// Row "global pools taken by one client" (item 3): 1,100 anonymous viewers of the board take
/// only the public's share (a quarter of it from one address); the table's live page and the
/// jury's desk open beside them. 2,100 subscriptions from one table's code take that device's
/// 16; the jury's `Subscribe` works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anonymous_viewers_and_one_codes_subscriptions_take_only_their_share() {
    const VIEWERS: usize = 1_100;
    const SUBSCRIPTIONS: usize = 2_100;
    let (_, soft) = ledger_daemon::server::descriptors::raise_soft_limit();
    assert!(soft > 2_500, "the test needs a hard open-file limit above 2,500 (ulimit -Hn), found {soft}");
    let mut hall = Hall::open(&["--http-max-connections", "3000"]).await;
    let tablet = hall.sign_in(PRINTED).await.unwrap();
    let start = events(&[json!({"type": "game_started", "at_ms": 0})]);
    hall.grpc.append(as_holder(append(GAME, &start, "start-", None), REPRINT)).await.unwrap();
    let quiet = append_p50(&mut hall.grpc, REPRINT, GAME, 21).await;
    // Opens a live page: its status line, and the stream (kept open while held).
    async fn follow(web: &str, path: &str, cookie: Option<&str>) -> (u16, tokio::net::TcpStream) {
        let cookie = cookie.map_or_else(String::new, |c| format!("Cookie: {}={c}\r\n", ledger_web::COOKIE_TOKEN));
        let mut stream = tokio::net::TcpStream::connect(web).await.unwrap();
        let request = format!("GET {path} HTTP/1.1\r\nHost: {web}\r\n{cookie}Accept: text/event-stream\r\n\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut head = vec![0; 512];
        let n = tokio::time::timeout(Duration::from_secs(20), stream.read(&mut head)).await.unwrap().unwrap();
        let status = String::from_utf8_lossy(&head[..n]).split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        (status, stream)
    }
    let mut held = Vec::new();
    let mut refused = 0;
    for _ in 0..VIEWERS {
        let (status, stream) = follow(&hall.web, "/board/wm26/live", None).await;
        match status {
            200 => held.push(stream),
            503 => refused += 1,
            other => panic!("a board viewer got {other}"),
        }
    }
    assert_eq!(held.len(), 128, "one address holds a quarter of the public's 512");
    assert_eq!(refused, VIEWERS - 128);
    let during = append_p50(&mut hall.grpc, REPRINT, GAME, 21).await;
    let (status, _table_live) = follow(&hall.web, "/table/wm26-q1-t1/live", Some(&tablet)).await;
    assert_eq!(status, 200, "the table's live page opens beside the anonymous flood");
    let (status, _desk_live) = follow(&hall.web, "/jury/desk/live", Some(&hex::encode(JURY))).await;
    assert_eq!(status, 200, "the jury's desk opens beside the anonymous flood");
    eprintln!("append p50 of a table (gRPC): {quiet:?} quiet, {during:?} with 1,100 anonymous viewers");

    // One code's subscriptions: its device's share.
    let mut open = Vec::new();
    let mut exhausted = 0;
    for _ in 0..SUBSCRIPTIONS {
        let request = pb::SubscribeRequest { stream: GAME.into(), from: 1 };
        match hall.grpc.subscribe(as_holder(request, REPRINT)).await {
            Ok(stream) => open.push(stream.into_inner()),
            Err(status) if status.code() == Code::ResourceExhausted => exhausted += 1,
            Err(status) => panic!("{status:?}"),
        }
    }
    assert_eq!((open.len(), exhausted), (16, SUBSCRIPTIONS - 16));
    let request = pb::SubscribeRequest { stream: GAME.into(), from: 1 };
    let mut jury = hall.grpc.subscribe(as_holder(request, JURY)).await.expect("the jury subscribes").into_inner();
    let first = tokio::time::timeout(Duration::from_secs(5), jury.next()).await.unwrap().unwrap().unwrap();
    assert_eq!(first.envelope.unwrap().seq, 1);
    drop(held);
}

/// Row "origin check without the scheme" (item 5): a form whose `Origin` names this host and
/// port but the other scheme is refused before its handler.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forms_origin_of_the_other_scheme_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let daemon = Daemon::spawn_with(dir.path(), &["--http-listen", "127.0.0.1:0"]);
    daemon.connect().await;
    let web = daemon.announced("http").to_owned();
    for (origin, status) in [(format!("https://{web}"), 403), (format!("http://{web}"), 303)] {
        let request = format!(
            "POST /signout HTTP/1.1\r\nHost: {web}\r\nOrigin: {origin}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
        assert_eq!(http(&web, request).await.0, status, "{origin}");
    }
}
