//! Issue 34, one render per change shared by every viewer: many viewers of a tournament's board
//! on a real `ledgerd --http-listen` get the same bytes (one board per language), the board the
//! page itself shows, within a second of the last of many commits made in quick succession,
//! and fewer updates than commits; a commit to another tournament sends them nothing.

use crate::daemon::Daemon;
use crate::support::{append, events};
use crate::tournament::Ctl;
use serde_json::json;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const OPEN26: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/tournament-open26.jsonl");

/// A viewer of `/board/open26/live` in `lang`, on its own connection, and the board events
/// (position, HTML) it got.
struct Viewer {
    connection: TcpStream,
    text: String,
    boards: Vec<(u64, String)>,
}

impl Viewer {
    async fn open(web: &str, lang: &str, from: u64) -> Viewer {
        let mut connection = TcpStream::connect(web).await.unwrap();
        let ask =
            format!("GET /board/open26/live?from={from} HTTP/1.1\r\nHost: {web}\r\nAccept-Language: {lang}\r\n\r\n");
        connection.write_all(ask.as_bytes()).await.unwrap();
        Viewer { connection, text: String::new(), boards: Vec::new() }
    }

    /// Reads until a board at `position` or later came.
    async fn until(&mut self, position: u64) {
        let mut buffer = vec![0u8; 64 * 1024];
        while self.boards.last().is_none_or(|(at, _)| *at < position) {
            let read = self.connection.read(&mut buffer).await.unwrap();
            assert!(read > 0, "the live stream ended");
            self.text.push_str(std::str::from_utf8(&buffer[..read]).unwrap());
            // An event is one chunk of the response: `event: board`, its id and its data lines.
            while let Some(start) = self.text.find("event: ") {
                let Some(length) = self.text[start..].find("\n\n") else { break };
                let block: String = self.text.drain(..start + length + 2).skip(start).collect();
                let mut lines = block.lines();
                assert_eq!(lines.next(), Some("event: board"), "{block}");
                let (mut id, mut data) = (0, Vec::new());
                for line in lines {
                    if let Some(value) = line.strip_prefix("id: ") {
                        id = value.parse().unwrap();
                    } else if let Some(value) = line.strip_prefix("data: ") {
                        data.push(value);
                    }
                }
                self.boards.push((id, data.join("\n")));
            }
        }
    }
}

/// A page's body.
async fn page(web: &str, path: &str, lang: &str) -> String {
    let mut connection = TcpStream::connect(web).await.unwrap();
    let ask = format!("GET {path} HTTP/1.1\r\nHost: {web}\r\nAccept-Language: {lang}\r\nConnection: close\r\n\r\n");
    connection.write_all(ask.as_bytes()).await.unwrap();
    let mut answer = String::new();
    connection.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{path}: {answer}");
    answer.split_once("\r\n\r\n").unwrap().1.to_owned()
}

/// The live part of the board's page, and the position its live stream follows from.
fn board_of(page: &str) -> (String, u64) {
    let from = page.split_once("/live?from=").unwrap().1;
    let from = from[..from.find('"').unwrap()].parse().unwrap();
    let content = page.split_once("data-event=\"board\">").unwrap().1;
    (content.split_once("</section><p class=\"live-status").unwrap().0.to_owned(), from)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_viewer_of_a_board_gets_the_same_bytes_once_per_burst_of_commits() {
    let dir = tempfile::tempdir().unwrap();
    let daemon = Daemon::spawn_with(&dir.path().join("data"), &["--http-listen", "127.0.0.1:0"]);
    let mut client = daemon.connect().await;
    let web = daemon.announced("http").to_owned();
    Ctl { url: format!("http://{}", daemon.addr()) }.ok(&["import", "--file", OPEN26]);
    let other = events(&[json!({"type": "tournament_created", "name": "Other", "ruleset": "cafe2023"})]);
    let mut request = tonic::Request::new(append("tournament/other", &other, "other-", None));
    request.metadata_mut().insert("x-ledger-clearance", "organiser".parse().unwrap());
    client.append(request).await.unwrap();

    let (_, from) = board_of(&page(&web, "/board/open26", "en").await);
    let mut viewers = Vec::new();
    for n in 0..24 {
        viewers.push((
            if n % 4 == 0 { "es" } else { "en" },
            Viewer::open(&web, if n % 4 == 0 { "es" } else { "en" }, from).await,
        ));
    }
    // Commits in quick succession: each a ruling of the jury on the tournament.
    let commits = 30;
    let started = Instant::now();
    let mut last = 0;
    for n in 0..commits {
        let ruling = events(&[json!({"type": "jury_ruling", "text": format!("ruling {n}")})]);
        let mut request = tonic::Request::new(append("tournament/open26", &ruling, &format!("ruling-{n}-"), None));
        request.metadata_mut().insert("x-ledger-clearance", "jury".parse().unwrap());
        last = client.append(request).await.unwrap().into_inner().last_position;
    }
    let committing = started.elapsed();
    let acknowledged = Instant::now();
    for (_, viewer) in &mut viewers {
        tokio::time::timeout(Duration::from_secs(1).saturating_sub(acknowledged.elapsed()), viewer.until(last))
            .await
            .expect("every viewer has the last commit within 1 s");
    }
    // At most 4 renders a second: one when the first commit came, one per quarter second while
    // they came, one for the last.
    let bound = 2 + committing.as_millis() / 250;
    for (_, viewer) in &viewers {
        let got = viewer.boards.len();
        assert!(u128::try_from(got).unwrap() <= bound && got < commits, "{got} updates for {commits} commits");
    }
    // One board per language, byte for byte the page's.
    for lang in ["en", "es"] {
        let (shown, _) = board_of(&page(&web, "/board/open26", lang).await);
        for (_, viewer) in viewers.iter().filter(|(l, _)| *l == lang) {
            assert_eq!(viewer.boards.last().unwrap().1, shown, "a viewer in {lang} got another board");
        }
    }
    assert_ne!(viewers[0].1.boards.last(), viewers[1].1.boards.last(), "Spanish and English are one board");

    // Another tournament's commit: nothing for these viewers.
    let ruling = events(&[json!({"type": "jury_ruling", "text": "elsewhere"})]);
    let mut request = tonic::Request::new(append("tournament/other", &ruling, "elsewhere-", None));
    request.metadata_mut().insert("x-ledger-clearance", "jury".parse().unwrap());
    let elsewhere = client.append(request).await.unwrap().into_inner().last_position;
    // Longer than a render's gap, for all viewers at once.
    let deadline = tokio::time::Instant::now() + Duration::from_millis(600);
    for (_, viewer) in &mut viewers {
        let more = tokio::time::timeout_at(deadline, viewer.until(elsewhere)).await;
        assert!(more.is_err(), "another tournament's commit reached this board");
    }
}
