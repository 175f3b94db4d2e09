//! Who may read what, and the bounds that keep ledgerd serving its tables: connections,
//! subscribers, stalled readers, TLS.

use crate::daemon::Daemon;
use crate::support::{append, eventually, TestServer};
use ledger::testing::simulate_game;
use ledger::{Event, Ruleset};
use ledger_daemon::server::{Limits, PortStats, ServeOptions, ServerStats};
use ledger_house::auth::{token_digest, Auth, Identity, Role};
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use ledger_proto::v1::projections_client::ProjectionsClient;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncReadExt;
use tokio_stream::StreamExt;
use tonic::transport::Channel;
use tonic::Code;

/// The callers of the authorisation table: no token, a wrong token, and one token per role.
const CALLERS: [(&str, Option<&str>); 6] = [
    ("public", None),
    ("wrong token", Some("not-a-token")),
    ("analyst", Some("analyst-secret")),
    ("table", Some("table-secret")),
    ("organiser", Some("organiser-secret")),
    ("jury", Some("jury-secret")),
];

fn tokens() -> Auth {
    let mut tokens = HashMap::new();
    for (role, name) in
        [(Role::Analyst, "analyst"), (Role::Table, "table"), (Role::Organiser, "organiser"), (Role::Jury, "jury")]
    {
        tokens.insert(token_digest(&format!("{name}-secret")), Identity::new(format!("{name}-1"), role));
    }
    Auth::Tokens(tokens.into())
}

fn request<T>(message: T, token: Option<&str>) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    if let Some(token) = token {
        request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    }
    request
}

/// One RPC as a caller makes it: OK, or the status code it got.
async fn call(addr: std::net::SocketAddr, rpc: &str, caller: &str, token: Option<&str>) -> Result<(), Code> {
    let channel = Channel::from_shared(format!("http://{addr}")).unwrap().connect().await.unwrap();
    let (mut ledger, mut projections) = (LedgerClient::new(channel.clone()), ProjectionsClient::new(channel));
    let read =
        |stream: &str| pb::ReadRequest { stream: stream.into(), from_seq: 1, limit: Some(1), ..Default::default() };
    let subscribe = |stream: &str| pb::SubscribeRequest { stream: stream.into(), from: 1 };
    // Each caller appends to a stream of its own, so that every allowed append is accepted.
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None };
    let own_game = format!("game/{}-{rpc}", caller.replace(' ', "-"));
    let result = match rpc {
        "Append" => ledger.append(request(append(&own_game, &[start], "", None), token)).await.map(drop),
        "AppendStream" => {
            let outbound = tokio_stream::iter([append(&own_game, &[start], "", None)]);
            match ledger.append_stream(request(outbound, token)).await {
                Ok(answers) => {
                    let first = answers.into_inner().next().await.unwrap().unwrap();
                    match first.result.unwrap() {
                        pb::append_stream_response::Result::Ok(_) => Ok(()),
                        pb::append_stream_response::Result::Error(e) => {
                            Err(tonic::Status::new(e.code.into(), e.message))
                        }
                    }
                }
                Err(status) => Err(status),
            }
        }
        "Read game" => ledger.read(request(read("game/g1"), token)).await.map(drop),
        "Read tournament" => ledger.read(request(read("tournament/t1"), token)).await.map(drop),
        "Read log" => ledger.read(request(read(""), token)).await.map(drop),
        "ReadPages game" => ledger.read_pages(request(read("game/g1"), token)).await.map(drop),
        "ReadPages tournament" => ledger.read_pages(request(read("tournament/t1"), token)).await.map(drop),
        "ReadPages log" => ledger.read_pages(request(read(""), token)).await.map(drop),
        "Subscribe game" => ledger.subscribe(request(subscribe("game/g1"), token)).await.map(drop),
        "Subscribe log" => ledger.subscribe(request(subscribe(""), token)).await.map(drop),
        "ListStreams" => {
            ledger.list_streams(request(pb::ListStreamsRequest { prefix: String::new() }, token)).await.map(drop)
        }
        "GetScoreSheet" => {
            let sheet = pb::ScoreSheetRequest { game: "g1".into(), ..Default::default() };
            projections.get_score_sheet(request(sheet, token)).await.map(drop)
        }
        "GetStandings public" => {
            let standings = pb::StandingsRequest { tournament: "t1".into(), public: true, ..Default::default() };
            projections.get_standings(request(standings, token)).await.map(drop)
        }
        "GetStandings" => {
            let standings = pb::StandingsRequest { tournament: "t1".into(), public: false, ..Default::default() };
            projections.get_standings(request(standings, token)).await.map(drop)
        }
        "GetClock" => {
            let clock = pb::ClockRequest { game: "g1".into(), ..Default::default() };
            projections.get_clock(request(clock, token)).await.map(drop)
        }
        "GetSeason" => projections.get_season(request(pb::SeasonRequest {}, token)).await.map(drop),
        "GetRoleStats" => projections.get_role_stats(request(pb::RoleStatsRequest::default(), token)).await.map(drop),
        "GetRatings" => projections.get_ratings(request(pb::RatingsRequest::default(), token)).await.map(drop),
        "Read andes" => ledger.read(request(read("andes/m1"), token)).await.map(drop),
        "GetAndesBoard" => {
            let board = pb::AndesBoardRequest { match_id: "m1".into(), ..Default::default() };
            projections.get_andes_board(request(board, token)).await.map(drop)
        }
        "GetAndesScore" => {
            let score = pb::AndesMatchRequest { match_id: "m1".into(), as_of_seq: None };
            projections.get_andes_score(request(score, token)).await.map(drop)
        }
        "GetAndesMatch" => {
            let sheet = pb::AndesMatchRequest { match_id: "m1".into(), as_of_seq: None };
            projections.get_andes_match(request(sheet, token)).await.map(drop)
        }
        "GetAndesLevel" => {
            let level = pb::AndesMatchRequest { match_id: "m1".into(), as_of_seq: None };
            projections.get_andes_level(request(level, token)).await.map(drop)
        }
        "GetAndesPlayerLevel" => {
            let level = pb::AndesPlayerRequest { player: "ana".into() };
            projections.get_andes_player_level(request(level, token)).await.map(drop)
        }
        other => panic!("no RPC {other}"),
    };
    result.map_err(|status| {
        // Refusals say why; everything else about the seeded data must be fine.
        if !matches!(status.code(), Code::Unauthenticated | Code::PermissionDenied) {
            panic!("{rpc} as {caller}: unexpected {:?}: {}", status.code(), status.message());
        }
        status.code()
    })
}

/// Every RPC, as every kind of caller, against the table in docs/RELIABILITY.md (written out
/// here again, not derived from the code it checks).
#[tokio::test]
async fn every_rpc_answers_each_role_as_the_access_table_says() {
    const OK: Result<(), Code> = Ok(());
    const UNAUTH: Result<(), Code> = Err(Code::Unauthenticated);
    const DENIED: Result<(), Code> = Err(Code::PermissionDenied);
    #[rustfmt::skip]
    let table: [(&str, [Result<(), Code>; 6]); 24] = [
        //                       public  wrong   analyst table   organiser jury
        ("Append",              [UNAUTH, UNAUTH, DENIED, OK,     OK,     OK]),
        ("AppendStream",        [UNAUTH, UNAUTH, DENIED, OK,     OK,     OK]),
        ("Read game",           [UNAUTH, UNAUTH, OK,     OK,     OK,     OK]),
        ("Read tournament",     [UNAUTH, UNAUTH, DENIED, DENIED, OK,     OK]),
        ("Read log",            [UNAUTH, UNAUTH, DENIED, DENIED, OK,     OK]),
        ("ReadPages game",      [UNAUTH, UNAUTH, OK,     OK,     OK,     OK]),
        ("ReadPages tournament",[UNAUTH, UNAUTH, DENIED, DENIED, OK,     OK]),
        ("ReadPages log",       [UNAUTH, UNAUTH, DENIED, DENIED, OK,     OK]),
        ("Subscribe game",      [UNAUTH, UNAUTH, OK,     OK,     OK,     OK]),
        ("Subscribe log",       [UNAUTH, UNAUTH, DENIED, DENIED, OK,     OK]),
        ("ListStreams",         [UNAUTH, UNAUTH, OK,     DENIED, OK,     OK]),
        ("GetScoreSheet",       [UNAUTH, UNAUTH, OK,     OK,     OK,     OK]),
        ("GetStandings public", [OK,     UNAUTH, OK,     OK,     OK,     OK]),
        ("GetStandings",        [UNAUTH, UNAUTH, DENIED, DENIED, OK,     OK]),
        ("GetClock",            [OK,     UNAUTH, OK,     OK,     OK,     OK]),
        ("GetRoleStats",        [UNAUTH, UNAUTH, OK,     DENIED, OK,     OK]),
        ("GetSeason",           [OK,     UNAUTH, OK,     OK,     OK,     OK]),
        ("GetRatings",          [UNAUTH, UNAUTH, OK,     DENIED, OK,     OK]),
        ("Read andes",          [UNAUTH, UNAUTH, OK,     OK,     OK,     OK]),
        ("GetAndesBoard",       [UNAUTH, UNAUTH, OK,     OK,     OK,     OK]),
        ("GetAndesScore",       [UNAUTH, UNAUTH, OK,     OK,     OK,     OK]),
        ("GetAndesMatch",       [UNAUTH, UNAUTH, OK,     OK,     OK,     OK]),
        ("GetAndesLevel",       [UNAUTH, UNAUTH, OK,     OK,     OK,     OK]),
        ("GetAndesPlayerLevel", [UNAUTH, UNAUTH, OK,     OK,     OK,     OK]),
    ];
    let mut server = TestServer::start_with_auth(tokens()).await;
    let mut tournament = ledger::testing::simple_tournament(Ruleset::Cafe2023, 4);
    tournament.truncate(5);
    let game = simulate_game(Ruleset::Cafe2023, &(0..300).map(|i| (i * 7_919) % 1_000_003).collect::<Vec<u32>>());
    let andes: Vec<Event> =
        ledger::andes::testing::seeded_match(0, 60).into_iter().filter(|e| !e.is_derived()).map(Event::Andes).collect();
    for (stream, events) in [("tournament/t1", &tournament), ("game/g1", &game), ("andes/m1", &andes)] {
        server.client.append(request(append(stream, events, "", None), Some("jury-secret"))).await.unwrap();
    }
    let mut wrong = Vec::new();
    for (rpc, expected) in table {
        for ((caller, token), expected) in CALLERS.into_iter().zip(expected) {
            let got = call(server.addr, rpc, caller, token).await;
            if got != expected {
                wrong.push(format!("{rpc} as {caller}: expected {expected:?}, got {got:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The refusals say what was asked and who may have it.
    let denied = server
        .client
        .list_streams(request(pb::ListStreamsRequest { prefix: String::new() }, Some("table-secret")))
        .await
        .unwrap_err();
    assert_eq!(denied.message(), "listing the streams is for analyst, organiser, jury; table-1 is cleared as table");
    let unauth = server.client.read(request(
        pb::ReadRequest { stream: "game/g1".into(), from_seq: 1, limit: None, ..Default::default() },
        None,
    ));
    assert!(unauth.await.unwrap_err().message().starts_with("reading game streams needs a token"));
    // The season lists its tournaments to anyone, its Andes matches only to those who may see
    // the Andes projections.
    let mut projections = ProjectionsClient::connect(format!("http://{}", server.addr)).await.unwrap();
    for (token, andes) in [(None, false), (Some("table-secret"), true), (Some("analyst-secret"), true)] {
        let season = projections.get_season(request(pb::SeasonRequest {}, token)).await.unwrap().into_inner();
        let json: serde_json::Value = serde_json::from_str(&season.json).unwrap();
        assert_eq!(json["tournaments"][0]["tournament"], "tournament/t1", "{token:?}");
        assert_eq!(json.get("andes").is_some(), andes, "{token:?}: {}", season.json);
    }
    server.stop().await;
}

/// The jury's replay viewer (`/jury/<game>` and its report), a page and no RPC, as every kind
/// of caller: its row of the access table (`Access::ReplayViewer`: the jury alone, after the
/// right to read the game), written out here again, with an auth file and on an open ledgerd,
/// where the clearance the browser chose still decides.
#[tokio::test]
async fn the_jury_viewer_answers_each_role_as_the_access_table_says() {
    const OK: Result<(), Code> = Ok(());
    const UNAUTH: Result<(), Code> = Err(Code::Unauthenticated);
    const DENIED: Result<(), Code> = Err(Code::PermissionDenied);
    #[rustfmt::skip]
    let table: [(&str, [Result<(), Code>; 6]); 2] = [
        //                       public  wrong   analyst table   organiser jury
        ("jury viewer",         [UNAUTH, UNAUTH, DENIED, DENIED, DENIED, OK]),
        ("jury report",         [UNAUTH, UNAUTH, DENIED, DENIED, DENIED, OK]),
    ];
    let dir = tempfile::tempdir().unwrap();
    let entries: Vec<serde_json::Value> = CALLERS[2..]
        .iter()
        .map(|(role, token)| {
            let digest = hex::encode(token_digest(token.unwrap()));
            serde_json::json!({"sha256": digest, "actor": format!("{role}-1"), "clearance": role})
        })
        .collect();
    let auth_file = dir.path().join("auth.json");
    std::fs::write(&auth_file, serde_json::json!({ "tokens": entries }).to_string()).unwrap();
    let daemon = Daemon::spawn_with(
        &dir.path().join("data"),
        &["--auth-file", auth_file.to_str().unwrap(), "--http-listen", "127.0.0.1:0"],
    );
    let mut client = daemon.connect().await;
    let game = simulate_game(Ruleset::Cafe2023, &(0..40).map(|i| (i * 7_919) % 1_000_003).collect::<Vec<u32>>());
    client.append(request(append("game/g1", &game, "", None), Some("jury-secret"))).await.unwrap();
    let mut wrong = Vec::new();
    for (page, expected) in table {
        let path = if page == "jury viewer" { "/jury/g1" } else { "/jury/g1/report.md" };
        for ((caller, token), expected) in CALLERS.into_iter().zip(expected) {
            let cookie = token.map(|t| format!("ledger_token={}", hex::encode(t)));
            let got = page_answer(daemon.announced("http"), path, cookie).await;
            if got != expected {
                wrong.push(format!("{page} as {caller}: expected {expected:?}, got {got:?}"));
            }
        }
    }
    drop(daemon);
    // Open: every read is allowed, but the viewer still asks for the jury's clearance.
    let open_dir = tempfile::tempdir().unwrap();
    let daemon = Daemon::spawn_with(open_dir.path(), &["--http-listen", "127.0.0.1:0"]);
    let mut client = daemon.connect().await;
    client.append(request(append("game/g1", &game, "", None), None)).await.unwrap();
    #[rustfmt::skip]
    let open: [(&str, Result<(), Code>); 6] = [
        ("no cookie (anonymous, table)", DENIED),
        ("public", UNAUTH), ("analyst", DENIED), ("table", DENIED), ("organiser", DENIED), ("jury", OK),
    ];
    for (clearance, expected) in open {
        let cookie = (!clearance.starts_with("no cookie"))
            .then(|| format!("ledger_actor={}; ledger_clearance={clearance}", hex::encode("anna")));
        let got = page_answer(daemon.announced("http"), "/jury/g1", cookie).await;
        if got != expected {
            wrong.push(format!("open jury viewer as {clearance}: expected {expected:?}, got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A page as the code its HTTP status stands for: OK for 200.
async fn page_answer(http: &str, path: &str, cookie: Option<String>) -> Result<(), Code> {
    use std::io::{Read, Write};
    let mut request = format!("GET {path} HTTP/1.1\r\nHost: {http}\r\nConnection: close\r\n");
    if let Some(cookie) = cookie {
        request.push_str(&format!("Cookie: {cookie}\r\n"));
    }
    request.push_str("\r\n");
    let addr = http.to_owned();
    let head = tokio::task::spawn_blocking(move || {
        let mut stream = std::net::TcpStream::connect(&addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).unwrap();
        String::from_utf8_lossy(&raw).into_owned()
    })
    .await
    .unwrap();
    match head.split(' ').nth(1) {
        Some("200") => Ok(()),
        Some("401") => Err(Code::Unauthenticated),
        Some("403") => Err(Code::PermissionDenied),
        other => panic!("GET {path}: {other:?}"),
    }
}

/// How long a bound the server keeps may take to show in its stats.
const WAIT: Duration = Duration::from_secs(10);

fn limited(limits: Limits) -> (ServeOptions, Arc<ServerStats>) {
    let stats = Arc::new(ServerStats::default());
    (ServeOptions { limits, stats: Arc::clone(&stats), ..ServeOptions::default() }, stats)
}

/// At the limit the longest-idle connection is closed to admit a new one, and counted, while
/// existing clients are served; silent ones are closed after the idle timeout; a real client
/// that stays idle longer keeps its connection (it answers the keepalive pings), and ledgerd
/// recovers by itself.
#[tokio::test]
async fn connections_are_limited_the_longest_idle_evicted_and_idle_ones_closed() {
    let limits = Limits { max_connections: 4, idle_timeout: Duration::from_secs(3), ..Limits::default() };
    let idle_timeout = limits.idle_timeout;
    let (options, stats) = limited(limits);
    let mut server = TestServer::start_with_options(Auth::Open, options).await;
    let get = |counter: fn(&PortStats) -> &std::sync::atomic::AtomicU64| ServerStats::get(counter(&stats.grpc));
    let mut silent = Vec::new();
    for _ in 0..3 {
        silent.push(tokio::net::TcpStream::connect(server.addr).await.unwrap());
    }
    eventually("four connections open", WAIT, || async { (get(|s| &s.open) == 4).then_some(()) }).await;
    // A fifth is admitted: a silent one (never heard from) is closed for it, not the client.
    silent.push(tokio::net::TcpStream::connect(server.addr).await.unwrap());
    eventually("the fifth admitted", WAIT, || async { (get(|s| &s.accepted) == 5).then_some(()) }).await;
    assert_eq!((get(|s| &s.evicted), get(|s| &s.shed), get(|s| &s.open)), (1, 0, 4));
    // The existing client is served meanwhile on its own connection: from here on it sends no
    // request.
    server.client.list_streams(pb::ListStreamsRequest::default()).await.unwrap();
    assert_eq!(get(|s| &s.accepted), 5, "the client was not the one evicted");
    let last_request = tokio::time::Instant::now();
    // The three silent ones left are closed after the idle timeout (one to two of them).
    eventually("the three silent connections closed as idle", WAIT, || async {
        (get(|s| &s.idle_closed) == 3).then_some(())
    })
    .await;
    // The real client, idle as long, is not. Its absence of a close is what is under test, so
    // time itself must pass: two idle timeouts after its last request (the server's timer closes a
    // silent peer after one to two), plus its timer's round to close it.
    tokio::time::sleep_until(last_request + idle_timeout * 2 + Duration::from_millis(500)).await;
    for mut connection in silent {
        // What the server sent (its HTTP/2 settings), then the end.
        let mut sent = Vec::new();
        let end = tokio::time::timeout(Duration::from_secs(1), connection.read_to_end(&mut sent)).await;
        assert!(end.is_ok(), "a silent connection is still open after the idle timeout or its eviction");
    }
    assert_eq!(get(|s| &s.idle_closed), 3);
    server.client.list_streams(pb::ListStreamsRequest::default()).await.unwrap();
    assert_eq!(get(|s| &s.accepted), 5, "the real client kept its connection");
    // Room again for new clients.
    let mut another = LedgerClient::connect(format!("http://{}", server.addr)).await.unwrap();
    another.list_streams(pb::ListStreamsRequest::default()).await.unwrap();
    server.stop().await;
}

/// At most `max_subscribers` live subscriptions, shared out (issue 42): half for the public (a
/// quarter of that per client), an eighth for organisers, the jury and analysts, the rest for
/// the tables; one client at its share is refused and the others are not; a closed one frees its
/// slot at once.
#[tokio::test]
async fn subscriptions_are_shared_out_and_a_closed_one_frees_its_slot() {
    let (options, stats) = limited(Limits { max_subscribers: 8, ..Limits::default() });
    let mut server = TestServer::start_with_options(Auth::Open, options).await;
    let subscribe = || pb::SubscribeRequest { stream: "game/s".into(), from: 1 };
    let as_who = |actor: &str, role: &str| {
        let mut request = tonic::Request::new(subscribe());
        request.metadata_mut().insert(ledger_house::auth::ACTOR_HEADER, actor.parse().unwrap());
        request.metadata_mut().insert(ledger_house::auth::CLEARANCE_HEADER, role.parse().unwrap());
        request
    };
    // The public (no actor named): one at a time from one client (a quarter of its 4).
    let first = server.client.subscribe(subscribe()).await.unwrap().into_inner();
    let refused = server.client.subscribe(subscribe()).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted);
    assert!(refused.message().contains("--max-subscribers 8"), "{}", refused.message());
    assert!(refused.message().contains("one client of the public holds at most 1 at once"), "{}", refused.message());
    // A table's device: its 3; the jury's: its 1, beside them.
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(server.client.subscribe(as_who("t1", "table")).await.unwrap().into_inner());
    }
    assert_eq!(server.client.subscribe(as_who("t1", "table")).await.unwrap_err().code(), Code::ResourceExhausted);
    held.push(server.client.subscribe(as_who("judith", "jury")).await.unwrap().into_inner());
    assert_eq!(ServerStats::get(&stats.subscribers_refused), 2);
    drop(first);
    eventually("the closed subscription's slot is free", WAIT, || async {
        (ServerStats::get(&stats.subscribers_open) == 4).then_some(())
    })
    .await;
    server.client.subscribe(subscribe()).await.unwrap();
    server.stop().await;
}

/// A subscriber that stops reading while events wait is cut off with RESOURCE_EXHAUSTED, after
/// the events it had been sent.
#[tokio::test]
async fn a_stalled_subscriber_is_cut_off_with_a_clear_status() {
    let (options, stats) = limited(Limits { subscriber_stall: Duration::from_secs(1), ..Limits::default() });
    let mut server = TestServer::start_with_options(Auth::Open, options).await;
    let mut stalled =
        server.client.subscribe(pb::SubscribeRequest { stream: "game/s".into(), from: 1 }).await.unwrap().into_inner();
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None };
    server.client.append(append("game/s", &[start], "", None)).await.unwrap();
    // Four batches stay under ledgerd's bound on a game's length (5,000 events); long reasons
    // fill HTTP/2's windows all the same.
    let call = Event::JuryCalled { reason: "a long enough reason to fill the windows of HTTP/2 quickly: ".repeat(8) };
    let n_batches = 4;
    for batch in 0..n_batches {
        let events = vec![call.clone(); 1_000];
        server.client.append(append("game/s", &events, &format!("b{batch}-"), None)).await.unwrap();
    }
    eventually("the stalled subscriber is cut off", WAIT, || async {
        (ServerStats::get(&stats.subscribers_cut_off) == 1).then_some(())
    })
    .await;
    let mut received = 0;
    let status = loop {
        match stalled.next().await {
            Some(Ok(_)) => received += 1,
            Some(Err(status)) => break status,
            None => panic!("the subscription ended without a status after {received} events"),
        }
    };
    assert_eq!(status.code(), Code::ResourceExhausted);
    assert!(status.message().starts_with("subscription cut off: it took no event for 1 s"), "{}", status.message());
    assert!(received < 1 + n_batches * 1_000, "{received} events arrived: nothing was cut off");
    eventually("its slot is free", WAIT, || async { (ServerStats::get(&stats.subscribers_open) == 0).then_some(()) })
        .await;
    server.stop().await;
}

/// A CA, a server certificate for 127.0.0.1 and a client certificate, as PEM files in `dir`.
fn make_certificates(dir: &std::path::Path) {
    use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().unwrap()).unwrap();
    std::fs::write(dir.join("ca.pem"), ca.pem()).unwrap();
    for (name, names) in [("server", vec!["127.0.0.1".to_owned()]), ("client", vec!["table-7".to_owned()])] {
        let key = KeyPair::generate().unwrap();
        let cert = CertificateParams::new(names).unwrap().signed_by(&key, &ca).unwrap();
        std::fs::write(dir.join(format!("{name}.pem")), cert.pem()).unwrap();
        std::fs::write(dir.join(format!("{name}.key")), key.serialize_pem()).unwrap();
    }
}

/// ledgerd over TLS with client certificates required: a client with the CA and its own
/// certificate is served (the gRPC client and `ledgerctl` alike); one without a certificate,
/// or in plaintext, is not.
#[tokio::test]
async fn tls_with_client_certificates_admits_only_clients_that_have_one() {
    use ledger_daemon::server::TlsFiles;
    use tonic::transport::{Certificate, ClientTlsConfig, Identity as TlsIdentity};
    let dir = tempfile::tempdir().unwrap();
    make_certificates(dir.path());
    let file = |name: &str| dir.path().join(name);
    let files = TlsFiles { cert: file("server.pem"), key: file("server.key"), client_ca: Some(file("ca.pem")) };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let data = tempfile::tempdir().unwrap();
    let log = Arc::new(ledger_store::Log::open_sled(data.path()).unwrap());
    let options = ServeOptions {
        tls: Some(ledger_daemon::server::grpc_tls::config_of(&files).unwrap()),
        ..ServeOptions::default()
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(ledger_daemon::server::serve_with(
        log,
        Arc::new(Auth::Open),
        listener,
        async {
            stopped.await.ok();
        },
        options,
    ));
    let read = |name: &str| std::fs::read(file(name)).unwrap();
    let url = format!("https://{addr}");
    let tls = ClientTlsConfig::new().ca_certificate(Certificate::from_pem(read("ca.pem")));
    let with_cert = tls.clone().identity(TlsIdentity::from_pem(read("client.pem"), read("client.key")));
    let channel = Channel::from_shared(url.clone()).unwrap().tls_config(with_cert).unwrap().connect().await.unwrap();
    let listed = LedgerClient::new(channel).list_streams(pb::ListStreamsRequest::default()).await.unwrap();
    assert_eq!(listed.into_inner().last_position, 0);
    // Without a client certificate the handshake (or the first call) fails.
    let without = async {
        let channel = Channel::from_shared(url.clone()).unwrap().tls_config(tls).unwrap().connect().await?;
        LedgerClient::new(channel).list_streams(pb::ListStreamsRequest::default()).await.map_err(Into::into).map(drop)
    };
    let refused: Result<(), Box<dyn std::error::Error + Send + Sync>> = without.await;
    assert!(refused.is_err(), "a client without a certificate was served");
    // Plaintext is not served.
    let plain = async {
        let channel = Channel::from_shared(format!("http://{addr}")).unwrap().connect().await?;
        LedgerClient::new(channel).list_streams(pb::ListStreamsRequest::default()).await.map_err(Into::into).map(drop)
    };
    let plain: Result<(), Box<dyn std::error::Error + Send + Sync>> = plain.await;
    assert!(plain.is_err(), "plaintext was served");
    // ledgerctl speaks TLS too.
    let path = |name: &str| file(name).display().to_string();
    let args: Vec<String> = ["--server", &url, "--tls-ca", &path("ca.pem"), "--tls-cert", &path("client.pem")]
        .into_iter()
        .map(str::to_owned)
        .chain(["--tls-key".to_owned(), path("client.key"), "--json".to_owned(), "streams".to_owned()])
        .collect();
    let output = tokio::task::spawn_blocking(move || {
        crate::support::run_ledgerctl(&args.iter().map(String::as_str).collect::<Vec<_>>(), "")
    })
    .await
    .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
}

/// Issue 34, item 1 in part: with `--tls-cert` the pages' port speaks HTTPS (browsers give the
/// offline table its service worker only there), with gRPC's certificate and no client
/// certificate; SIGHUP reads the certificate again, new connections get the new one and a
/// connection already open goes on; plain HTTP is not served there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_speak_https_and_a_new_certificate_is_taken_on_sighup() {
    use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
    use tokio::io::AsyncWriteExt;
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str| dir.path().join(name);
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().unwrap()).unwrap();
    let issue = || {
        let key = KeyPair::generate().unwrap();
        let cert = CertificateParams::new(vec!["127.0.0.1".to_owned()]).unwrap().signed_by(&key, &ca).unwrap();
        std::fs::write(file("server.pem"), cert.pem()).unwrap();
        std::fs::write(file("server.key"), key.serialize_pem()).unwrap();
        cert.der().to_vec()
    };
    let first = issue();
    let (cert, key) = (file("server.pem"), file("server.key"));
    let daemon = Daemon::spawn_with(
        &file("data"),
        &["--tls-cert", cert.to_str().unwrap(), "--tls-key", key.to_str().unwrap(), "--http-listen", "127.0.0.1:0"],
    );
    let web = daemon.announced("http").to_owned();
    let connector = crate::support::tls_client_trusting(ca.der().clone());
    let connect = || async {
        let tcp = tokio::net::TcpStream::connect(&web).await.unwrap();
        let name = rustls::pki_types::ServerName::try_from("127.0.0.1").unwrap();
        connector.connect(name, tcp).await.unwrap()
    };
    // One request on a kept-alive connection: its head and its body, read to its length.
    async fn send<S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin>(stream: &mut S, request: &str) -> String {
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        let mut byte = [0u8; 1];
        while !answer.ends_with(b"\r\n\r\n") {
            stream.read_exact(&mut byte).await.unwrap();
            answer.push(byte[0]);
        }
        let head = String::from_utf8(answer).unwrap();
        let length: usize = head
            .lines()
            .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length: ").map(|n| n.trim().parse().unwrap()))
            .unwrap_or(0);
        let mut body = vec![0u8; length];
        stream.read_exact(&mut body).await.unwrap();
        format!("{head}{}", String::from_utf8_lossy(&body))
    }
    async fn get<S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin>(stream: &mut S, host: &str) -> String {
        send(stream, &format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n")).await
    }
    let peer = |stream: &tokio_rustls::client::TlsStream<tokio::net::TcpStream>| {
        stream.get_ref().1.peer_certificates().unwrap()[0].to_vec()
    };
    let mut open = connect().await;
    assert_eq!(peer(&open), first);
    // gRPC speaks TLS with the same certificate.
    let grpc = daemon.addr().to_string();
    let grpc_peer = || async {
        let tcp = tokio::net::TcpStream::connect(&grpc).await.unwrap();
        let name = rustls::pki_types::ServerName::try_from("127.0.0.1").unwrap();
        peer(&connector.connect(name, tcp).await.unwrap())
    };
    assert_eq!(grpc_peer().await, first);
    let root = ca.pem();
    let health = |root: String| {
        let url = format!("https://{grpc}");
        async move {
            let tls =
                tonic::transport::ClientTlsConfig::new().ca_certificate(tonic::transport::Certificate::from_pem(root));
            let channel = Channel::from_shared(url).unwrap().tls_config(tls).unwrap().connect().await?;
            let asked = tonic_health::pb::HealthCheckRequest { service: String::new() };
            let answer = tonic_health::pb::health_client::HealthClient::new(channel).check(asked).await?;
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>(answer.into_inner().status)
        }
    };
    assert_eq!(health(root.clone()).await.unwrap(), 1, "gRPC over TLS answers: SERVING");
    let page = get(&mut open, &web).await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("<html"), "{page}");
    assert!(page.to_ascii_lowercase().contains("strict-transport-security: max-age=31536000"), "{page}");
    // Signing in over HTTPS sets `Secure` cookies that only this host over HTTPS can set; the
    // same names without the prefix are not read.
    let form = "actor=anna&clearance=jury";
    let signin = send(
        &mut open,
        &format!(
            "POST /signin HTTP/1.1\r\nHost: {web}\r\nOrigin: https://{web}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{form}",
            form.len()
        ),
    )
    .await;
    assert!(signin.starts_with("HTTP/1.1 303"), "{signin}");
    let actor = hex::encode("anna");
    assert!(
        signin.contains(&format!("__Host-ledger_actor={actor}; Path=/; HttpOnly; SameSite=Strict; Max-Age=")),
        "{signin}"
    );
    assert!(signin.contains("; Secure"), "{signin}");
    let as_anna = |prefix: &str| {
        format!("GET /signin HTTP/1.1\r\nHost: {web}\r\nCookie: {prefix}ledger_actor={actor}; {prefix}ledger_clearance=jury\r\n\r\n")
    };
    assert!(send(&mut open, &as_anna("__Host-")).await.contains("anna"), "the prefixed cookie signs in");
    assert!(!send(&mut open, &as_anna("")).await.contains("anna"), "a cookie without the prefix is not read");
    // A new certificate in the files, SIGHUP: new handshakes present it.
    let second = issue();
    assert_ne!(first, second);
    let hup = std::process::Command::new("kill").args(["-HUP", &daemon.child.id().to_string()]).status().unwrap();
    assert!(hup.success());
    eventually("new connections to present the new certificate", Duration::from_secs(10), || async {
        (peer(&connect().await) == second).then_some(())
    })
    .await;
    assert_eq!(grpc_peer().await, second, "gRPC's new connections present it too");
    assert_eq!(health(root).await.unwrap(), 1, "gRPC over TLS still answers");
    // The connection opened before goes on.
    let again = get(&mut open, &web).await;
    assert!(again.starts_with("HTTP/1.1 200"), "{again}");
    // Plain HTTP on that port is no page.
    let mut plain = tokio::net::TcpStream::connect(&web).await.unwrap();
    plain.write_all(format!("GET / HTTP/1.1\r\nHost: {web}\r\nConnection: close\r\n\r\n").as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(15), plain.read_to_end(&mut answer)).await;
    assert!(!answer.starts_with(b"HTTP/1.1 200"), "plain HTTP was served");
}
