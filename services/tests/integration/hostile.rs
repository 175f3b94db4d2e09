//! Issue 35, a public hall is hostile: probes an attacker on the hall's Wi-Fi would send, each
//! against a real ledgerd on loopback, each bounded. Every probe here failed before its defence:
//! huge cursors that panicked an async worker, an open redirect through `/lang`, a form posted
//! from another port of the same host (`Origin: null`, `Sec-Fetch-Site: same-site`), and a
//! direction override stored in free text. After each, ledgerd still serves.

use crate::daemon::Daemon;
use crate::support::{append, events};
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use ledger_proto::v1::proofs_client::ProofsClient;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_stream::StreamExt;
use tonic::Code;

/// A raw HTTP/1.1 exchange: the status and the whole answer.
async fn http(web: &str, request: String) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(web).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, answer)
}

fn location(answer: &str) -> Option<&str> {
    answer.lines().find_map(|l| l.strip_prefix("location: ").or_else(|| l.strip_prefix("Location: ")))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn huge_cursors_are_out_of_range_and_never_panic() {
    let dir = tempfile::tempdir().unwrap();
    let daemon = Daemon::spawn(dir.path());
    let mut client: LedgerClient<_> = daemon.connect().await;
    let game = events(&ledger::testing::started_game(Some(ledger::Ruleset::Cafe2023), 2));
    client.append(append("game/g", &game, "h-", None)).await.unwrap();
    for stream in ["game/g", ""] {
        for from in [u64::MAX, ledger_store::MAX_CURSOR + 1] {
            let request = pb::ReadRequest { stream: stream.into(), from_seq: from, ..Default::default() };
            let refused = client.read(request.clone()).await.unwrap_err();
            assert_eq!(refused.code(), Code::OutOfRange, "Read {stream:?} from {from}: {}", refused.message());
            assert!(refused.message().starts_with("from_seq "), "{}", refused.message());
            let refused = client.read_pages(request).await.unwrap_err();
            assert_eq!(refused.code(), Code::OutOfRange, "ReadPages {stream:?} from {from}");
            let subscribe = pb::SubscribeRequest { stream: stream.into(), from };
            let refused = client.subscribe(subscribe).await.unwrap_err();
            assert_eq!(refused.code(), Code::OutOfRange, "Subscribe {stream:?} from {from}");
            assert!(!refused.message().contains("overflow") && !refused.message().contains("panicked"));
        }
    }
    // The largest cursor allowed reads nothing, and does not panic either.
    let request = pb::ReadRequest { stream: "game/g".into(), from_seq: ledger_store::MAX_CURSOR, ..Default::default() };
    let mut read = client.read(request).await.unwrap().into_inner();
    assert!(read.next().await.is_none(), "nothing past the end");
    let mut proofs = ProofsClient::connect(format!("http://{}", daemon.addr())).await.unwrap();
    let asked = pb::InclusionProofRequest { stream: "game/g".into(), seq: u64::MAX, ..Default::default() };
    let refused = proofs.get_inclusion_proof(asked).await.unwrap_err();
    assert_eq!(refused.code(), Code::OutOfRange, "{}", refused.message());
    // ledgerd still reads and appends.
    let request = pb::ReadRequest { stream: "game/g".into(), from_seq: 1, ..Default::default() };
    assert_eq!(client.read(request).await.unwrap().into_inner().collect::<Vec<_>>().await.len(), 3);
    let turn = events(&[json!({"type": "turn_started", "turn": 3})]);
    client.append(append("game/g", &turn, "h2-", None)).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_stay_on_the_site_and_forms_come_only_from_this_origin() {
    let dir = tempfile::tempdir().unwrap();
    let daemon = Daemon::spawn_with(dir.path(), &["--http-listen", "127.0.0.1:0"]);
    daemon.connect().await;
    let web = daemon.announced("http").to_owned();
    // `/lang` goes back only to a path of this site, whatever a QR poster's link says.
    for next in
        ["/%09/evil.example/x", "%2F%2Fevil.example", "/%5Cevil.example", "https://evil.example/", "//evil.example"]
    {
        let request = format!("GET /lang?to=es&next={next} HTTP/1.1\r\nHost: {web}\r\nConnection: close\r\n\r\n");
        let (status, answer) = http(&web, request).await;
        assert_eq!((status, location(&answer)), (303, Some("/")), "next={next}");
    }
    let request = format!("GET /lang?to=es&next=/board/x%3Fy HTTP/1.1\r\nHost: {web}\r\nConnection: close\r\n\r\n");
    let (status, answer) = http(&web, request).await;
    assert_eq!((status, location(&answer)), (303, Some("/board/x?y")), "a path of the site is followed");
    // A form from another port of the same host, or from an opaque origin, is refused.
    let port = web.rsplit_once(':').unwrap().1.parse::<u16>().unwrap();
    let other_port = format!("http://127.0.0.1:{}", port.wrapping_add(1));
    for (header, value) in [
        ("Origin", "null"),
        ("Origin", other_port.as_str()),
        ("Sec-Fetch-Site", "same-site"),
        ("Sec-Fetch-Site", "cross-site"),
    ] {
        for path in ["/signout", "/signin"] {
            let request = format!(
                "POST {path} HTTP/1.1\r\nHost: {web}\r\n{header}: {value}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
            let (status, _) = http(&web, request).await;
            assert_eq!(status, 403, "{path} with {header}: {value}");
        }
    }
    // From this origin, signing out works.
    let request = format!(
        "POST /signout HTTP/1.1\r\nHost: {web}\r\nOrigin: http://{web}\r\nSec-Fetch-Site: same-origin\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    let (status, answer) = http(&web, request).await;
    assert_eq!((status, location(&answer)), (303, Some("/")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_direction_override_in_free_text_is_refused_and_stores_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let daemon = Daemon::spawn(dir.path());
    let mut client: LedgerClient<_> = daemon.connect().await;
    let game = events(&ledger::testing::started_game(Some(ledger::Ruleset::Cafe2023), 1));
    client.append(append("game/g", &game, "d-", None)).await.unwrap();
    for hostile in ["clock \u{202E}deppots", "isolated \u{2066}x\u{2069}"] {
        let call = events(&[json!({"type": "jury_called", "reason": hostile})]);
        let refused = client.append(append("game/g", &call, "d2-", None)).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{}", refused.message());
        assert!(refused.message().contains("must not contain characters that change the text's direction"));
    }
    let request = pb::ReadRequest { stream: "game/g".into(), from_seq: 1, ..Default::default() };
    assert_eq!(client.read(request).await.unwrap().into_inner().collect::<Vec<_>>().await.len(), 2);
}
