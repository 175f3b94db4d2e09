//! The gRPC service against a real server: every refusal of the rule book (and that nothing
//! was appended), idempotent retries, optimistic concurrency, pipelined appends, subscriptions,
//! health and reflection.

use crate::support::{append, events, TestServer};
use ledger::testing::{refusal_cases, simulate_game};
use ledger::{Event, RejectionKind, Ruleset};
use ledger_proto::v1 as pb;
use ledger_services::convert::ToProto;
use serde_json::json;
use tokio_stream::StreamExt;
use tonic::Code;

#[tokio::test]
async fn every_refusal_of_the_rule_book_is_refused_with_its_reason_and_appends_nothing() {
    let mut server = TestServer::start().await;
    for (idx, case) in refusal_cases().into_iter().enumerate() {
        let stream = format!("game/refusal-{idx}");
        let mut setup = events(&case.setup);
        if let Some(Event::GameStarted { ruleset, .. }) = setup.first_mut() {
            *ruleset = Some(case.ruleset);
        }
        if !setup.is_empty() {
            // As the jury: some setups hold corrections that name their turn.
            let mut request = tonic::Request::new(append(&stream, &setup, "", Some(0)));
            request.metadata_mut().insert(ledger_services::auth::CLEARANCE_HEADER, "jury".parse().unwrap());
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
        refused.metadata_mut().insert(ledger_services::auth::CLEARANCE_HEADER, "jury".parse().unwrap());
        let status = server.client.append(refused).await.expect_err(case.name);
        let expected_code = match case.kind {
            RejectionKind::Malformed => Code::InvalidArgument,
            RejectionKind::Precondition => Code::FailedPrecondition,
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

#[tokio::test]
async fn a_retried_append_returns_the_first_result_and_appends_nothing() {
    let mut server = TestServer::start().await;
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

#[tokio::test]
async fn two_writers_with_the_same_expected_version_one_wins_one_is_aborted() {
    let mut server = TestServer::start().await;
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

#[tokio::test]
async fn a_batch_with_one_bad_event_names_it_and_appends_nothing() {
    let mut server = TestServer::start().await;
    let mut request = append("game/g", &events(&ledger::testing::started_game(Some(Ruleset::Cafe2023), 1)), "", None);
    request.events[1].event =
        Some(pb::Event { body: Some(pb::event::Body::TcDealt(pb::TcDealt { nation: 0, count: 1 })) });
    let status = server.client.append(request).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert_eq!(status.message(), "event 2 of 2: nation is missing or unknown (0)");
    assert_eq!(server.version("game/g").await, 0);
    server.stop().await;
}

#[tokio::test]
async fn pipelined_appends_are_acknowledged_in_order_and_a_refusal_does_not_end_the_stream() {
    let mut server = TestServer::start().await;
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2019), tournament: None };
    let mut requests = vec![append("game/p", &[start], "s", None)];
    for turn in 1..=300u32 {
        if turn == 101 {
            requests.push(append("game/p", &[Event::TurnStarted { turn: 9999, at_ms: None }], "bad", None));
        }
        requests.push(append("game/p", &[Event::TurnStarted { turn, at_ms: None }], &format!("t{turn}-"), None));
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
                assert_eq!(error.message, "turn_started 9999 skips a turn: turn 101 comes next");
            }
        }
    }
    assert_eq!(server.version("game/p").await, 301);
    server.stop().await;
}

#[tokio::test]
async fn subscribe_passes_from_stored_to_live_events_without_gap_or_duplicate() {
    let mut server = TestServer::start().await;
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
    request.metadata_mut().insert(ledger_services::ACTOR_HEADER, "table-7".parse().unwrap());
    server.client.append(request).await.unwrap();
    let stored = server.read("game/a").await;
    assert_eq!(stored[0].envelope.as_ref().unwrap().actor, "table-7");
    server.stop().await;
}

#[tokio::test]
async fn only_the_jury_may_void_and_rule() {
    use ledger_services::auth::{token_digest, Auth, Identity};
    let mut tokens = std::collections::HashMap::new();
    let jury = Identity { actor: "jury-anna".into(), clearance: ledger::access::Clearance::Jury };
    let table = Identity { actor: "table-3".into(), clearance: ledger::access::Clearance::Table };
    tokens.insert(token_digest("jury-secret"), jury);
    tokens.insert(token_digest("table-secret"), table);
    let mut server = TestServer::start_with_auth(Auth::Tokens(tokens)).await;
    let with_token = |request: pb::AppendRequest, token: Option<&str>| {
        let mut request = tonic::Request::new(request);
        if let Some(token) = token {
            request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
        }
        request
    };
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
    let stored = server.read("game/j").await;
    assert_eq!(stored.len(), 5);
    assert_eq!(stored[4].envelope.as_ref().unwrap().actor, "jury-anna");
    assert_eq!(stored[0].envelope.as_ref().unwrap().actor, "table-3");
    // The voided turn no longer counts: turn 2 may start again.
    let again = Event::TurnStarted { turn: 2, at_ms: Some(2500) };
    server.client.append(with_token(append("game/j", &[again], "", None), Some("table-secret"))).await.unwrap();
    server.stop().await;
}

#[tokio::test]
async fn a_game_started_under_another_ruleset_cannot_be_scheduled() {
    let mut server = TestServer::start().await;
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None };
    server.client.append(append("game/q1-t1", &[start], "", None)).await.unwrap();
    let mut tournament = ledger::testing::simple_tournament(Ruleset::Cafe2019, 4);
    tournament.truncate(5); // created and four players: the draw comes separately
    let mut request = tonic::Request::new(append("tournament/t", &tournament, "", None));
    request.metadata_mut().insert(ledger_services::auth::CLEARANCE_HEADER, "organiser".parse().unwrap());
    server.client.append(request).await.unwrap();
    let draw = ledger::draw::draw_qualifying(&["p1".into(), "p2".into(), "p3".into(), "p4".into()], 7).unwrap();
    let mut request = tonic::Request::new(append("tournament/t", &[draw.to_event()], "", None));
    request.metadata_mut().insert(ledger_services::auth::CLEARANCE_HEADER, "organiser".parse().unwrap());
    let refused = server.client.append(request).await.unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(refused.message(), "game q1-t1 already started as a cafe2023 game; this tournament plays cafe2019");
    server.stop().await;
}
