//! The gRPC service against a real server: every refusal of the rule book (and that nothing
//! was appended), idempotent retries, optimistic concurrency, pipelined appends, subscriptions,
//! health and reflection.
//!
//! The core of them (the functions taking a server) run on both backends: see `backends.rs`.

use crate::support::{append, events, TestServer};
use ledger::testing::{refusal_cases, simulate_game};
use ledger::{Event, RejectionKind, Ruleset};
use ledger_proto::convert::ToProto;
use ledger_proto::v1 as pb;
use serde_json::json;
use tokio_stream::StreamExt;
use tonic::Code;

pub(crate) async fn every_refusal_of_the_rule_book_is_refused_with_its_reason_and_appends_nothing(
    mut server: TestServer,
) {
    for (idx, case) in refusal_cases().into_iter().enumerate() {
        let stream = format!("{}-{idx}", case.stream);
        let mut setup = events(&case.setup);
        if let Some(Event::GameStarted { ruleset, .. }) = setup.first_mut() {
            *ruleset = Some(case.ruleset);
        }
        // Every case's tournament is a tournament of this one ledger: its draw names its games
        // after it, or the second case's draw would be refused for taking the first one's games.
        if let Some(tournament) = stream.strip_prefix("tournament/") {
            for event in &mut setup {
                if let Event::QualifyingDrawn { games, .. } = event {
                    games.iter_mut().for_each(|g| g.game = ledger::draw::tournament_game(tournament, &g.game));
                }
            }
        }
        if !setup.is_empty() {
            // As the jury: some setups hold corrections that name their turn.
            let mut request = tonic::Request::new(append(&stream, &setup, "", Some(0)));
            request.metadata_mut().insert(ledger_house::auth::CLEARANCE_HEADER, "jury".parse().unwrap());
            server.client.append(request).await.unwrap_or_else(|s| panic!("{}: {s}", case.name));
        }
        let before = server.read(&stream).await;
        let refused = match ledger::event::from_canonical_json(&case.refused) {
            Ok(event) => append(&stream, &[event], "r", None),
            // Malformed JSON has a malformed protobuf twin: an enum value the ledger does not know.
            Err(_) => pb::AppendRequest {
                stream: stream.clone(),
                events: vec![pb::ProposedEvent {
                    event_id: "r0".into(),
                    event: Some(pb::Event {
                        body: Some(pb::event::Body::TcDealt(pb::TcDealt { nation: 42, count: 1 })),
                    }),
                }],
                expected_version: None,
            },
        };
        // As the jury, so that only the rules (not the clearance) decide.
        let mut refused = tonic::Request::new(refused);
        refused.metadata_mut().insert(ledger_house::auth::CLEARANCE_HEADER, "jury".parse().unwrap());
        let status = server.client.append(refused).await.expect_err(case.name);
        let expected_code = match case.kind {
            RejectionKind::Malformed => Code::InvalidArgument,
            RejectionKind::Precondition => Code::FailedPrecondition,
            RejectionKind::Exhausted => Code::ResourceExhausted,
            other => panic!("unexpected kind {other:?}"),
        };
        assert_eq!(status.code(), expected_code, "{}: {}", case.name, status.message());
        if status.message() != "nation is missing or unknown (42)" {
            assert!(status.message().contains(case.message), "{}: got `{}`", case.name, status.message());
        }
        assert_eq!(server.read(&stream).await, before, "{}: nothing was appended", case.name);
    }
    server.stop().await;
}

pub(crate) async fn a_retried_append_returns_the_first_result_and_appends_nothing(mut server: TestServer) {
    let game = events(&ledger::testing::started_game(Some(Ruleset::Wm2015), 3));
    let first = server.client.append(append("game/g", &game, "t1-", None)).await.unwrap().into_inner();
    let retry = server.client.append(append("game/g", &game, "t1-", None)).await.unwrap().into_inner();
    assert!(!first.duplicate && retry.duplicate);
    assert_eq!(
        (retry.first_seq, retry.last_seq, &retry.head_hash),
        (first.first_seq, first.last_seq, &first.head_hash)
    );
    assert_eq!(server.version("game/g").await, 4);
    server.stop().await;
}

pub(crate) async fn two_writers_with_the_same_expected_version_one_wins_one_is_aborted(mut server: TestServer) {
    let game = events(&ledger::testing::started_game(Some(Ruleset::Cafe2023), 1));
    server.client.append(append("game/g", &game, "", Some(0))).await.unwrap();
    let tc = |nation| Event::TcDealt { nation, count: 3 };
    let (mut a, mut b) = (server.client.clone(), server.client.clone());
    let (ra, rb) = tokio::join!(
        a.append(append("game/g", &[tc(ledger::Nation::Prussia)], "a", Some(2))),
        b.append(append("game/g", &[tc(ledger::Nation::Russia)], "b", Some(2))),
    );
    let codes: Vec<Code> = [&ra, &rb].iter().map(|r| r.as_ref().map_or_else(|s| s.code(), |_| Code::Ok)).collect();
    assert!(codes.contains(&Code::Ok) && codes.contains(&Code::Aborted), "{codes:?}");
    let loser = ra.err().or(rb.err()).unwrap();
    assert_eq!(loser.message(), "expected game/g at version 2, but it is at version 3: re-read and retry");
    assert_eq!(server.version("game/g").await, 3);
    server.stop().await;
}

pub(crate) async fn a_batch_with_one_bad_event_names_it_and_appends_nothing(mut server: TestServer) {
    let mut request = append("game/g", &events(&ledger::testing::started_game(Some(Ruleset::Cafe2023), 1)), "", None);
    request.events[1].event =
        Some(pb::Event { body: Some(pb::event::Body::TcDealt(pb::TcDealt { nation: 0, count: 1 })) });
    let status = server.client.append(request).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert_eq!(status.message(), "event 2 of 2: nation is missing or unknown (0)");
    // Beside the message, for clients that should not parse it: which event, which kind of rule.
    assert_eq!(ledger_house::error::refusal_of(&status), (2, "malformed".to_owned()));
    assert_eq!(server.version("game/g").await, 0);
    server.stop().await;
}

pub(crate) async fn pipelined_appends_are_acknowledged_in_order_and_a_refusal_does_not_end_the_stream(
    mut server: TestServer,
) {
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2019), tournament: None };
    let mut requests = vec![append("game/p", &[start], "s", None)];
    // Turns 1 to 23, then the nations' action stages: each event valid only after the one before.
    for n in 1..=300u64 {
        if n == 101 {
            requests.push(append("game/p", &[Event::TurnStarted { turn: 9999, at_ms: None }], "bad", None));
        }
        requests.push(append("game/p", &[ledger::testing::play_event_at(n)], &format!("t{n}-"), None));
    }
    let n_requests = requests.len();
    let answers: Vec<pb::AppendStreamResponse> = server
        .client
        .append_stream(tokio_stream::iter(requests))
        .await
        .unwrap()
        .into_inner()
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(answers.len(), n_requests);
    let mut expected_seq = 1;
    for (idx, answer) in answers.iter().enumerate() {
        match answer.result.as_ref().unwrap() {
            pb::append_stream_response::Result::Ok(ok) => {
                assert_eq!(ok.first_seq, expected_seq, "answer {idx}");
                expected_seq += 1;
            }
            pb::append_stream_response::Result::Error(error) => {
                assert_eq!(idx, 101);
                assert_eq!(error.code, Code::FailedPrecondition as i32);
                assert_eq!(
                    error.message,
                    "turn_started 9999 is past the last turn: a game has at most 23 turns (Frederick's maximum of 23/2 = 11.5 points)"
                );
                assert_eq!((error.event, error.refusal.as_str()), (0, "precondition"), "its only event");
            }
        }
    }
    assert_eq!(server.version("game/p").await, 301);
    server.stop().await;
}

pub(crate) async fn subscribe_passes_from_stored_to_live_events_without_gap_or_duplicate(mut server: TestServer) {
    let game = simulate_game(Ruleset::Cafe2023, &(0..300).map(|i| (i * 104_729) % 1_000_003).collect::<Vec<u32>>());
    let (early, late) = game.split_at(game.len() / 2);
    for (i, event) in early.iter().enumerate() {
        server.client.append(append("game/s", std::slice::from_ref(event), &format!("e{i}-"), None)).await.unwrap();
    }
    let mut by_stream =
        server.client.subscribe(pb::SubscribeRequest { stream: "game/s".into(), from: 1 }).await.unwrap().into_inner();
    let mut everything =
        server.client.subscribe(pb::SubscribeRequest { stream: String::new(), from: 1 }).await.unwrap().into_inner();
    let mut writer = server.client.clone();
    let late = late.to_vec();
    let writing = tokio::spawn(async move {
        for (i, event) in late.iter().enumerate() {
            writer.append(append("game/s", std::slice::from_ref(event), &format!("l{i}-"), None)).await.unwrap();
        }
    });
    for expected in 1..=game.len() as u64 {
        let a = by_stream.next().await.unwrap().unwrap();
        let b = everything.next().await.unwrap().unwrap();
        assert_eq!(a.envelope.as_ref().unwrap().seq, expected);
        assert_eq!(b.envelope.as_ref().unwrap().position, expected);
        assert_eq!(a.event.unwrap(), game[usize::try_from(expected).unwrap() - 1].to_proto());
    }
    writing.await.unwrap();
    // A live subscription does not keep the server from shutting down.
    server.stop().await;
    assert!(by_stream.next().await.is_none_or(|item| item.is_err()));
}

/// `ReadPages` gives exactly what `Read` gives, many events to a message, from a seq and up to a
/// limit, for one stream and for the whole log.
pub(crate) async fn read_pages_gives_the_events_of_read_many_to_a_message(mut server: TestServer) {
    // 2,500 events: a game's start, its 23 turns, then the nations' action stages.
    let game: Vec<Event> = (0..2_500).map(ledger::testing::game_event_at).collect();
    for (idx, chunk) in game.chunks(500).enumerate() {
        let request = append("game/long", chunk, &format!("c{idx}-"), Some(idx as u64 * 500));
        server.client.append(request).await.unwrap();
    }
    for (stream, from_seq, limit, expected) in [
        ("game/long", 1, None, 2_500),
        ("game/long", 7, Some(1_500), 1_500),
        ("game/long", 1, Some(2_048), 2_048),
        ("", 1, None, 2_500),
        ("", 300, Some(1_100), 1_100),
    ] {
        let request = pb::ReadRequest { stream: stream.into(), from_seq, limit, ..Default::default() };
        let one_by_one: Vec<pb::RecordedEvent> =
            server.client.read(request.clone()).await.unwrap().into_inner().map(Result::unwrap).collect().await;
        let pages: Vec<pb::RecordedEventPage> =
            server.client.read_pages(request.clone()).await.unwrap().into_inner().map(Result::unwrap).collect().await;
        assert_eq!(one_by_one.len(), expected, "{stream} from {from_seq}");
        assert!(pages.len() >= 2 && pages.len() < expected / 100, "{stream}: many events to a page ({})", pages.len());
        assert!(pages.iter().all(|p| !p.events.is_empty()), "no empty page");
        let paged: Vec<pb::RecordedEvent> = pages.into_iter().flat_map(|p| p.events).collect();
        assert_eq!(paged, one_by_one, "{stream} from {from_seq}: the same events in the same order");
        let first = paged[0].envelope.as_ref().unwrap();
        assert_eq!(if stream.is_empty() { first.position } else { first.seq }, from_seq);
        // The stored encoding: the same records, copied from the log, in fewer bytes.
        let stored_request = pb::ReadRequest { encoding: pb::PageEncoding::StoredV1.into(), ..request };
        let pages: Vec<pb::RecordedEventPage> =
            server.client.read_pages(stored_request).await.unwrap().into_inner().map(Result::unwrap).collect().await;
        assert!(pages.len() >= 2 && pages.iter().all(|p| p.events.is_empty() && !p.stored.is_empty()));
        let stored: Vec<pb::RecordedEvent> = pages
            .iter()
            .flat_map(|p| ledger::envelope::decode_run(&p.stored))
            .map(|record| record.unwrap().to_proto())
            .collect();
        assert_eq!(stored, one_by_one, "{stream} from {from_seq}: stored pages hold the same events");
    }
    let unknown = pb::ReadRequest { stream: "game/long".into(), encoding: 9, ..Default::default() };
    let status = server.client.read_pages(unknown).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("unknown page encoding 9"), "{}", status.message());
    server.stop().await;
}

#[tokio::test]
async fn health_and_reflection_answer() {
    let server = TestServer::start().await;
    let channel =
        tonic::transport::Channel::from_shared(format!("http://{}", server.addr)).unwrap().connect().await.unwrap();
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel.clone());
    let answer = health
        .check(tonic_health::pb::HealthCheckRequest { service: "tournament_ledger.v1.Ledger".into() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(answer.status, tonic_health::pb::health_check_response::ServingStatus::Serving as i32);

    use tonic_reflection::pb::v1::{
        server_reflection_client::ServerReflectionClient, server_reflection_request::MessageRequest,
        server_reflection_response::MessageResponse, ServerReflectionRequest,
    };
    let mut reflection = ServerReflectionClient::new(channel);
    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut answers = reflection.server_reflection_info(tokio_stream::iter([request])).await.unwrap().into_inner();
    let Some(MessageResponse::ListServicesResponse(list)) = answers.next().await.unwrap().unwrap().message_response
    else {
        panic!("expected a service list")
    };
    let names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
    assert!(names.contains(&"tournament_ledger.v1.Ledger".to_string()), "{names:?}");
    assert!(names.contains(&"grpc.health.v1.Health".to_string()), "{names:?}");
    server.stop().await;
}

#[tokio::test]
async fn the_actor_header_is_recorded_in_the_envelope() {
    let mut server = TestServer::start().await;
    let mut request = tonic::Request::new(append(
        "game/a",
        &events(&[json!({"type": "game_started", "at_ms": 0, "ruleset": "wm2015"})]),
        "",
        None,
    ));
    request.metadata_mut().insert(ledger_house::ACTOR_HEADER, "table-7".parse().unwrap());
    server.client.append(request).await.unwrap();
    let stored = server.read("game/a").await;
    assert_eq!(stored[0].envelope.as_ref().unwrap().actor, "table-7");
    server.stop().await;
}

#[tokio::test]
async fn only_the_jury_may_void_and_rule() {
    use ledger_house::auth::{token_digest, Auth, Identity};
    let mut tokens = std::collections::HashMap::new();
    let jury = Identity::new("jury-anna", ledger_house::auth::Role::Jury);
    let table = Identity::new("table-3", ledger_house::auth::Role::Table);
    tokens.insert(token_digest("jury-secret"), jury);
    tokens.insert(token_digest("table-secret"), table);
    let mut server = TestServer::start_with_auth(Auth::Tokens(tokens.into())).await;
    fn with_token<T>(request: T, token: Option<&str>) -> tonic::Request<T> {
        let mut request = tonic::Request::new(request);
        if let Some(token) = token {
            request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
        }
        request
    }
    let game = events(&ledger::testing::started_game(Some(Ruleset::Cafe2023), 2));
    let anonymous = server.client.append(with_token(append("game/j", &game, "", None), None)).await.unwrap_err();
    assert_eq!(anonymous.code(), Code::Unauthenticated);
    server.client.append(with_token(append("game/j", &game, "", None), Some("table-secret"))).await.unwrap();
    let void = Event::EventVoided { seq: 3, reason: "turn 2 was started by mistake".into() };
    let refused = server
        .client
        .append(with_token(append("game/j", std::slice::from_ref(&void), "", None), Some("table-secret")))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
    assert_eq!(refused.message(), "only the jury may record event_voided; table-3 is cleared as table");
    let ruling = Event::JuryRuling { text: "turn 2 started before Sweden's action stage".into() };
    server.client.append(with_token(append("game/j", &[ruling, void], "", None), Some("jury-secret"))).await.unwrap();
    let read = pb::ReadRequest { stream: "game/j".into(), from_seq: 1, limit: None, ..Default::default() };
    let stored: Vec<_> = server
        .client
        .read(with_token(read, Some("table-secret")))
        .await
        .unwrap()
        .into_inner()
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(stored.len(), 5);
    assert_eq!(stored[4].envelope.as_ref().unwrap().actor, "jury-anna");
    assert_eq!(stored[0].envelope.as_ref().unwrap().actor, "table-3");
    // The voided turn no longer counts: turn 2 may start again.
    let again = Event::TurnStarted { turn: 2, at_ms: Some(2500) };
    server.client.append(with_token(append("game/j", &[again], "", None), Some("table-secret"))).await.unwrap();
    server.stop().await;
}

#[tokio::test]
async fn a_game_already_started_cannot_be_scheduled() {
    let mut server = TestServer::start().await;
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None };
    server.client.append(append("game/q1-t1", &[start], "", None)).await.unwrap();
    let mut tournament = ledger::testing::simple_tournament(Ruleset::Cafe2019, 4);
    tournament.truncate(5); // created and four players: the draw comes separately
    let mut request = tonic::Request::new(append("tournament/t", &tournament, "", None));
    request.metadata_mut().insert(ledger_house::auth::CLEARANCE_HEADER, "organiser".parse().unwrap());
    server.client.append(request).await.unwrap();
    let draw = ledger::draw::draw_qualifying(&["p1".into(), "p2".into(), "p3".into(), "p4".into()], 7).unwrap();
    let mut request = tonic::Request::new(append("tournament/t", &[draw.to_event()], "", None));
    request.metadata_mut().insert(ledger_house::auth::CLEARANCE_HEADER, "organiser".parse().unwrap());
    let refused = server.client.append(request).await.unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(
        refused.message(),
        "game q1-t1 already holds 1 event, started as a cafe2023 game: a tournament schedules only a game not yet played"
    );
    server.stop().await;
}

/// Hostile sizes: a 3.9 MB stream name, a 100,000-character event id, a megabyte prefix. Each
/// is refused as INVALID_ARGUMENT, and the message quotes at most a short, escaped prefix.
#[tokio::test]
async fn huge_or_hostile_names_are_refused_and_error_messages_quote_only_a_prefix() {
    let mut server = TestServer::start().await;
    let bounded = |status: &tonic::Status, what: &str| {
        assert_eq!(status.code(), Code::InvalidArgument, "{what}: {}", status.message());
        assert!(status.message().chars().count() < 300, "{what}: a {}-byte message", status.message().len());
        assert!(!status.message().chars().any(char::is_control), "{what}: {:?}", status.message());
    };
    let game = events(&ledger::testing::started_game(Some(Ruleset::Cafe2023), 1));

    let huge_stream = format!("game/{}", "a".repeat(3_900_000));
    let status = server.client.append(append(&huge_stream, &game, "h", None)).await.unwrap_err();
    bounded(&status, "append to a huge stream");
    assert!(
        status.message().contains("at most 200 bytes") && status.message().contains("aaa…"),
        "{}",
        status.message()
    );
    let read = pb::ReadRequest { stream: huge_stream.clone(), from_seq: 1, limit: None, ..Default::default() };
    bounded(&server.client.read(read).await.unwrap_err(), "read of a huge stream");
    let subscribe = pb::SubscribeRequest { stream: huge_stream.clone(), from: 1 };
    bounded(&server.client.subscribe(subscribe).await.unwrap_err(), "subscribe to a huge stream");
    let listed = server.client.list_streams(pb::ListStreamsRequest { prefix: "g".repeat(1_000_000) }).await;
    bounded(&listed.unwrap_err(), "a megabyte prefix");

    let long_id = "e".repeat(100_000);
    let mut request = append("game/ids", &game[..1], "", None);
    request.events[0].event_id = long_id;
    let status = server.client.append(request).await.unwrap_err();
    bounded(&status, "a long event id");
    assert!(status.message().contains("at most 128"), "{}", status.message());
    let mut request = append("game/ids", &game[..1], "", None);
    request.events[0].event_id = "id\u{1b}[2J\r\nforged".into();
    let status = server.client.append(request).await.unwrap_err();
    bounded(&status, "an event id with escapes");
    assert!(status.message().contains("id\\u{1b}[2J\\r\\nforged"), "{}", status.message());
    let mut request = append("game/ids", &game[..1], "", None);
    request.events[0].event_id = format!("auto:{}", "x".repeat(120));
    bounded(&server.client.append(request).await.unwrap_err(), "an id in the ledger's own namespace");

    let mut stats = ledger_proto::v1::projections_client::ProjectionsClient::connect(format!("http://{}", server.addr))
        .await
        .unwrap();
    let request = pb::RoleStatsRequest { ruleset: Some("\u{1b}[31m".repeat(50_000)), ..Default::default() };
    bounded(&stats.get_role_stats(request).await.unwrap_err(), "an unknown ruleset");
    let request = pb::RoleStatsRequest { tournament: Some("t".repeat(1_000_000)), ..Default::default() };
    bounded(&stats.get_role_stats(request).await.unwrap_err(), "a megabyte tournament filter");
    assert_eq!(server.version("game/ids").await, 0, "nothing was appended");
    server.stop().await;
}

/// Sends hand-encoded bytes as the body of `Ledger/Append`, so that a test can carry varints
/// no generated type would produce.
#[derive(Clone, Copy, Default)]
struct RawAppend;

struct RawEncoder;
struct AppendResponseDecoder;

impl tonic::codec::Codec for RawAppend {
    type Encode = Vec<u8>;
    type Decode = pb::AppendResponse;
    type Encoder = RawEncoder;
    type Decoder = AppendResponseDecoder;
    fn encoder(&mut self) -> RawEncoder {
        RawEncoder
    }
    fn decoder(&mut self) -> AppendResponseDecoder {
        AppendResponseDecoder
    }
}

impl tonic::codec::Encoder for RawEncoder {
    type Item = Vec<u8>;
    type Error = tonic::Status;
    fn encode(&mut self, item: Vec<u8>, dst: &mut tonic::codec::EncodeBuf<'_>) -> Result<(), tonic::Status> {
        prost::bytes::BufMut::put_slice(dst, &item);
        Ok(())
    }
}

impl tonic::codec::Decoder for AppendResponseDecoder {
    type Item = pb::AppendResponse;
    type Error = tonic::Status;
    fn decode(&mut self, buf: &mut tonic::codec::DecodeBuf<'_>) -> Result<Option<pb::AppendResponse>, tonic::Status> {
        prost::Message::decode(buf).map(Some).map_err(|e| tonic::Status::internal(e.to_string()))
    }
}

fn varint(mut value: u64) -> Vec<u8> {
    let mut out = Vec::new();
    while value >= 0x80 {
        out.push(u8::try_from(value & 0x7f).unwrap() | 0x80);
        value >>= 7;
    }
    out.push(u8::try_from(value).unwrap());
    out
}

fn varint_field(number: u64, value: u64) -> Vec<u8> {
    [varint(number << 3), varint(value)].concat()
}

fn bytes_field(number: u64, bytes: &[u8]) -> Vec<u8> {
    [varint((number << 3) | 2), varint(u64::try_from(bytes.len()).unwrap()), bytes.to_vec()].concat()
}

/// An `AppendRequest` of one event, `body` being the event's oneof field (number and bytes).
fn raw_append(stream: &str, event_id: &str, oneof: u64, body: &[u8]) -> Vec<u8> {
    let event = bytes_field(oneof, body);
    let proposed = [bytes_field(1, event_id.as_bytes()), bytes_field(2, &event)].concat();
    [bytes_field(1, stream.as_bytes()), bytes_field(2, &proposed)].concat()
}

/// The finding: "a uint32 of 2^32+2 is stored as 2". A protobuf decoder narrows an over-long
/// varint to the field's type (prost casts, as the protobuf spec says C++ does), so a client
/// that hand-encodes 2^32+2 for a turn used to record turn 2. The 32-bit fields are 64-bit on the
/// wire now (the same bytes for every value in range) and the ledger refuses what does not fit.
#[tokio::test]
async fn an_out_of_range_varint_is_refused_not_wrapped() {
    let mut server = TestServer::start().await;
    let setup = events(&ledger::testing::started_game(Some(Ruleset::Cafe2023), 1));
    server.client.append(append("game/varint", &setup, "s", None)).await.unwrap();
    let channel = tonic::transport::Channel::from_shared(format!("http://{}", server.addr)).unwrap().connect().await;
    let grpc = tonic::client::Grpc::new(channel.unwrap());
    let path = tonic::codegen::http::uri::PathAndQuery::from_static("/tournament_ledger.v1.Ledger/Append");
    let send = |body: Vec<u8>| {
        let mut request = tonic::Request::new(body);
        request.metadata_mut().insert(ledger_house::auth::CLEARANCE_HEADER, "jury".parse().unwrap());
        let path = path.clone();
        let mut grpc = grpc.clone();
        async move {
            grpc.ready().await.unwrap();
            grpc.unary(request, path, RawAppend).await
        }
    };
    const TURN_STARTED: u64 = 8;
    const TC_DEALT: u64 = 9;
    const NATION_DROPPED_OUT: u64 = 18;
    let wrapped_turn = (1u64 << 32) + 2;
    let status = send(raw_append("game/varint", "big-turn", TURN_STARTED, &varint_field(1, wrapped_turn)))
        .await
        .expect_err("turn 2^32+2 is not turn 2");
    assert_eq!(status.code(), Code::InvalidArgument, "{}", status.message());
    assert_eq!(status.message(), "turn_started.turn is 4294967298, which does not fit in 32 bits");
    // int32 fields: 2^32+3 is not 3 (a negative int32 is a sign-extended 64-bit varint, and stays fine).
    let count = send(raw_append(
        "game/varint",
        "big-count",
        TC_DEALT,
        &[varint_field(1, 1), varint_field(2, (1 << 32) + 3)].concat(),
    ))
    .await
    .expect_err("count 2^32+3 is not 3");
    assert_eq!(count.code(), Code::InvalidArgument, "{}", count.message());
    assert_eq!(count.message(), "tc_dealt.count is 4294967299, which does not fit in 32 bits");
    let optional_turn =
        [varint_field(1, 3), varint_field(2, 7), varint_field(3, 10), varint_field(4, 1 << 32)].concat();
    let status =
        send(raw_append("game/varint", "big-correction", NATION_DROPPED_OUT, &optional_turn)).await.unwrap_err();
    assert_eq!(status.message(), "nation_dropped_out.turn is 4294967296, which does not fit in 32 bits");
    assert_eq!(server.version("game/varint").await, 2, "nothing was appended");

    // The same hand-encoding with values in range is what every client sends, and is accepted.
    send(raw_append("game/varint", "turn-2", TURN_STARTED, &varint_field(1, 2))).await.unwrap();
    let negative = [varint_field(1, 1), varint_field(2, (-2i64).cast_unsigned())].concat();
    let refused = send(raw_append("game/varint", "negative", TC_DEALT, &negative)).await.unwrap_err();
    assert_eq!(refused.message(), "tc_dealt count must not be negative, got -2", "a negative int32 decodes as itself");
    let read = server.read("game/varint").await;
    assert_eq!(read.len(), 3);
    assert_eq!(read[2].event, Some(Event::TurnStarted { turn: 2, at_ms: None }.to_proto()));

    // What is left (docs/DECISIONS.md): an enum field is int32 on the wire and cannot widen, so
    // the decoder still narrows a hand-crafted over-long varint there: 2^32+1 reads as 1, prussia.
    let nation = [varint_field(1, (1 << 32) + 1), varint_field(2, 4)].concat();
    send(raw_append("game/varint", "big-nation", TC_DEALT, &nation)).await.unwrap();
    let read = server.read("game/varint").await;
    assert_eq!(read[3].event, Some(Event::TcDealt { nation: ledger::Nation::Prussia, count: 4 }.to_proto()));
    server.stop().await;
}

/// Reflection answers in both protocol versions: grpcurl speaks v1; Python's grpcio client,
/// grpc_cli and other tools speak only v1alpha.
#[tokio::test]
async fn reflection_lists_the_services_in_v1_and_v1alpha() {
    use tonic_reflection::pb::{v1, v1alpha};
    let server = TestServer::start().await;
    let channel =
        tonic::transport::Channel::from_shared(format!("http://{}", server.addr)).unwrap().connect().await.unwrap();
    let mut alpha = v1alpha::server_reflection_client::ServerReflectionClient::new(channel.clone());
    let request = v1alpha::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(v1alpha::server_reflection_request::MessageRequest::ListServices(String::new())),
    };
    let mut answers = alpha.server_reflection_info(tokio_stream::iter([request])).await.unwrap().into_inner();
    let Some(v1alpha::server_reflection_response::MessageResponse::ListServicesResponse(listed)) =
        answers.next().await.unwrap().unwrap().message_response
    else {
        panic!("v1alpha did not list services");
    };
    let names: Vec<String> = listed.service.into_iter().map(|s| s.name).collect();
    assert!(names.contains(&"tournament_ledger.v1.Ledger".to_owned()), "{names:?}");
    let mut v1_client = v1::server_reflection_client::ServerReflectionClient::new(channel);
    let request = v1::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(v1::server_reflection_request::MessageRequest::ListServices(String::new())),
    };
    let mut answers = v1_client.server_reflection_info(tokio_stream::iter([request])).await.unwrap().into_inner();
    assert!(matches!(
        answers.next().await.unwrap().unwrap().message_response,
        Some(v1::server_reflection_response::MessageResponse::ListServicesResponse(_))
    ));
    server.stop().await;
}
