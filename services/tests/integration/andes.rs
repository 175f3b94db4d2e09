//! Andes, the second game on the same log: a whole random legal match appended over gRPC to a
//! real ledgerd, the ledger appending the events it derives from each move, refusals with their
//! article that append nothing, and `ledgerctl andes board|score|match|level` (online and
//! offline) printing exactly what the pure projections of `replay::andes` give.

use crate::support::{run_ledgerctl as ledgerctl, TestServer};
use ledger::andes::testing::seeded_match;
use ledger::andes::{AndesEvent, AndesState, Side};
use ledger::event::to_canonical_json;
use ledger::Event;
use ledger_house::auth::{ACTOR_HEADER, CLEARANCE_HEADER};
use ledger_proto::convert::{FromProto, ToProto};
use ledger_proto::v1 as pb;
use replay::andes::{andes_match_json, andes_match_text, board_text, position_after, score_match, AndesFold};
use tonic::Code;

const STREAM: &str = "andes/m1";

/// A seeded match that plays both games to their end, as the ledger records it (derived events
/// included).
fn complete_match() -> Vec<AndesEvent> {
    (0..50)
        .map(|seed| seeded_match(seed, 700))
        .find(|events| AndesState::replay(events).is_ok_and(|state| state.is_over()))
        .expect("an aggressive seeded match ends both games")
}

/// An append of `events` as `clearance`, with ids `<prefix><i>`.
fn append_as(clearance: &str, events: &[AndesEvent], prefix: &str) -> tonic::Request<pb::AppendRequest> {
    let proposed = events
        .iter()
        .enumerate()
        .map(|(i, e)| pb::ProposedEvent {
            event_id: format!("{prefix}{i}"),
            event: Some(Event::Andes(e.clone()).to_proto()),
        })
        .collect();
    let mut request =
        tonic::Request::new(pb::AppendRequest { stream: STREAM.into(), events: proposed, expected_version: None });
    request.metadata_mut().insert(CLEARANCE_HEADER, clearance.parse().unwrap());
    request.metadata_mut().insert(ACTOR_HEADER, format!("{clearance}-1").parse().unwrap());
    request
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What `ledgerctl` printed, asserting it succeeded.
fn printed(out: &std::process::Output) -> String {
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    text(&out.stdout)
}

/// The score lines as the pure projection gives them.
fn expected_score(events: &[AndesEvent]) -> String {
    let fold = AndesFold::of(events).unwrap();
    let score = score_match(fold.setup().unwrap(), fold.games());
    let mut out = String::new();
    for (record, game) in fold.games().iter().zip(&score.games) {
        out.push_str(&format!("game {}: {} (sol) – {} (luna)\n", record.number, record.sol, record.luna));
        for line in &game.explain {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out
}

/// The level lines as the pure projection gives them.
fn expected_level(events: &[AndesEvent]) -> String {
    let fold = AndesFold::of(events).unwrap();
    let score = score_match(fold.setup().unwrap(), fold.games());
    score
        .players
        .iter()
        .map(|player| match replay::andes::level(&player.won) {
            Some(level) => format!("level of {}: {}\n", player.player, level.explain),
            None => format!("{}\n", replay::andes::no_level(&player.player, player.scores.len())),
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_match_is_recorded_over_grpc_with_the_ledger_deriving_each_moves_consequences() {
    let mut server = TestServer::start().await;
    let full = complete_match();
    let sent: Vec<AndesEvent> = full.iter().filter(|e| !e.is_derived()).cloned().collect();
    assert!(sent.len() < full.len(), "the match attacks or captures: the ledger has events to derive");

    // A table may not create a match; an organiser may.
    let refused = server.client.append(append_as("table", &sent[..1], "m1-create-")).await.unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{}", refused.message());
    server.client.append(append_as("organiser", &sent[..1], "m1-create-")).await.unwrap();
    server.client.append(append_as("table", &sent[1..2], "m1-start-")).await.unwrap();
    assert_eq!(server.version(STREAM).await, 2);

    // An illegal move is refused with its article, and nothing is appended.
    let at_ms = sent[1].at_ms().unwrap();
    let island = AndesEvent::MovePlayed { notation: "0a0".into(), at_ms };
    let refused = server.client.append(append_as("table", &[island], "bad-")).await.unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert!(refused.message().starts_with("article 3.4: "), "{}", refused.message());
    // So is a derived event sent by a client (even the jury), and a Friedrich event.
    let derived = full.iter().find(|e| e.is_derived()).unwrap().clone();
    let refused = server.client.append(append_as("jury", &[derived], "bad-")).await.unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert!(refused.message().contains("is derived by the ledger"), "{}", refused.message());
    let friedrich = crate::support::append(STREAM, &[Event::ClockPressed { at_ms }], "bad-", None);
    let refused = server.client.append(friedrich).await.unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert_eq!(refused.message(), "clock_pressed belongs in a game stream, not an andes stream");
    assert_eq!(server.version(STREAM).await, 2, "nothing was appended");

    // The rest of the match, several moves to an append: the ledger appends what each derives.
    let mut answers = Vec::new();
    for (chunk_idx, chunk) in sent[2..].chunks(7).enumerate() {
        let request = append_as("table", chunk, &format!("m1-{chunk_idx}-"));
        answers.push((chunk_idx, server.client.append(request).await.unwrap().into_inner()));
    }
    let records = server.read(STREAM).await;
    let stored: Vec<Event> = records.iter().map(|r| Event::from_proto(r.event.clone().unwrap()).unwrap()).collect();
    let expected: Vec<Event> = full.iter().cloned().map(Event::Andes).collect();
    assert_eq!(stored, expected, "the stream is the match with every derived event in its place");
    for record in &records {
        let envelope = record.envelope.as_ref().unwrap();
        let event = Event::from_proto(record.event.clone().unwrap()).unwrap();
        if event.is_derived() {
            assert_eq!(
                envelope.event_id,
                format!("auto:{STREAM}#{}", envelope.seq),
                "the ledger names what it derives"
            );
            assert_eq!(envelope.actor, "table-1", "recorded for the table whose move it follows");
        }
    }
    // A retried append answers as the first did, derived events included.
    let (chunk_idx, first) = answers.last().unwrap().clone();
    let chunk = sent[2..].chunks(7).last().unwrap();
    let retry =
        server.client.append(append_as("table", chunk, &format!("m1-{chunk_idx}-"))).await.unwrap().into_inner();
    assert!(retry.duplicate);
    assert_eq!(
        (retry.first_seq, retry.last_seq, &retry.head_hash),
        (first.first_seq, first.last_seq, &first.head_hash)
    );
    assert_eq!(first.last_seq, full.len() as u64);
    // After the match, nothing more.
    let late = AndesEvent::Resigned { side: Side::Sol, at_ms: 1 << 40 };
    let refused = server.client.append(append_as("table", &[late], "late-")).await.unwrap_err();
    assert!(refused.message().starts_with("article 9.3: the match is over"), "{}", refused.message());

    // ledgerctl, online and offline, prints what the pure projections give.
    let url = format!("http://{}", server.addr);
    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().join("export.jsonl");
    let lines = dir.path().join("lines.jsonl");
    let canonical: String =
        full.iter().map(|e| to_canonical_json(&Event::Andes(e.clone())).to_string() + "\n").collect();
    std::fs::write(&lines, canonical).unwrap();
    let game_one_moves = full
        .iter()
        .take_while(|e| !matches!(e, AndesEvent::GameStarted { game: 2, .. }))
        .filter(|e| matches!(e, AndesEvent::MovePlayed { .. }))
        .count();
    let game_two_start = 1 + full.iter().position(|e| matches!(e, AndesEvent::GameStarted { game: 2, .. })).unwrap();
    let first_sol = AndesFold::of(&full).unwrap().setup().unwrap().first_sol.clone();
    let (exported, online, offline, player_level) = tokio::task::spawn_blocking({
        let (export, lines, first_sol) = (export.clone(), lines.clone(), first_sol.clone());
        move || {
            let exported = ledgerctl(&["--server", &url, "export", "--stream", STREAM], "");
            std::fs::write(&export, &exported.stdout).unwrap();
            let run = |file: Option<&std::path::Path>, args: &[&str]| {
                let mut all: Vec<String> = vec!["--server".into(), url.clone(), "andes".into()];
                all.extend(args.iter().map(|a| (*a).to_owned()));
                if let Some(file) = file {
                    all.extend(["--file".to_owned(), file.to_str().unwrap().to_owned()]);
                }
                let all: Vec<&str> = all.iter().map(String::as_str).collect();
                printed(&ledgerctl(&all, ""))
            };
            let at = game_two_start.to_string();
            let commands: Vec<Vec<&str>> = vec![
                vec!["match", "m1"],
                vec!["score", STREAM],
                vec!["level", "m1"],
                vec!["board", "m1"],
                vec!["board", "m1", "--game", "1", "--side", "luna"],
                vec!["board", "m1", "--at", &at, "--game", "1"],
                vec!["--json", "match", "m1"],
            ];
            let online: Vec<String> = commands.iter().map(|c| run(None, c)).collect();
            let offline: Vec<(String, String)> =
                commands.iter().map(|c| (run(Some(&export), c), run(Some(&lines), c))).collect();
            // One player's level across every match of the log, online and from the export.
            let player = ["level", "--player", first_sol.as_str()];
            let player_level = (run(None, &player), run(Some(&export), &player));
            (printed(&exported), online, offline, player_level)
        }
    })
    .await
    .unwrap();
    let (online_level, offline_level) = player_level;
    assert_eq!(online_level, offline_level, "level --player online and from the export");
    let positioned: Vec<(u64, AndesEvent)> = (1u64..).zip(full.iter().cloned()).collect();
    let games = replay::andes::ended_games(STREAM, &positioned).unwrap();
    assert_eq!(online_level, format!("{}\n", replay::andes::player_level(&first_sol, &games).explain));
    assert_eq!(exported.lines().count(), full.len());
    assert_eq!(online[0], andes_match_text(&full).unwrap());
    assert_eq!(online[1], expected_score(&full));
    assert_eq!(online[2], expected_level(&full));
    let game_two = AndesFold::of(&full).unwrap().games()[1].clone();
    let board_two = board_text(&position_after(&full, 2, game_two.plies.len()).unwrap().unwrap(), Side::Sol);
    assert!(online[3].contains(&board_two), "{}\n---\n{board_two}", online[3]);
    let board_one_luna = board_text(&position_after(&full, 1, game_one_moves).unwrap().unwrap(), Side::Luna);
    assert!(online[4].contains(&board_one_luna), "{}", online[4]);
    assert!(online[5].contains(&board_text(&position_after(&full, 1, game_one_moves).unwrap().unwrap(), Side::Sol)));
    let json: serde_json::Value = serde_json::from_str(&online[6]).unwrap();
    assert_eq!(json, serde_json::to_value(andes_match_json(&full).unwrap()).unwrap());
    for (idx, (from_export, from_lines)) in offline.iter().enumerate() {
        assert_eq!(from_export, &online[idx], "offline from the export, command {idx}");
        assert_eq!(from_lines, &online[idx], "offline from canonical lines, command {idx}");
    }
    server.stop().await;
}

#[test]
fn offline_a_file_the_rules_refuse_names_its_line_and_article() {
    let full = seeded_match(3, 40);
    let mut file_text: String =
        full.iter().map(|e| to_canonical_json(&Event::Andes(e.clone())).to_string() + "\n").collect();
    file_text.push_str("{\"type\":\"move_played\",\"notation\":\"2c3f3\",\"at_ms\":999999999}\n");
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), &file_text).unwrap();
    let out = ledgerctl(&["andes", "score", "m1", "--file", file.path().to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let message = text(&out.stderr);
    assert!(message.starts_with(&format!("line {}: ", full.len() + 1)), "{message}");
    assert!(message.contains("article "), "{message}");
    // `check` takes Andes streams too, derived events included.
    let ok: String = full.iter().map(|e| to_canonical_json(&Event::Andes(e.clone())).to_string() + "\n").collect();
    let checked = ledgerctl(&["check", "--stream", STREAM], &ok);
    assert_eq!(checked.status.code(), Some(0), "{}", text(&checked.stderr));
    assert!(text(&checked.stdout).starts_with(&format!("ok: {} events, ", full.len())));
}
