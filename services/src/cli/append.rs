//! `ledgerctl append` and `import`: JSON Lines become atomic appends of up to 1000 events.
//!
//! Every line gets an event id: its own `event_id` field, or one derived from the stream, the
//! line number, the event and the digest of the whole input file — so appending the same file
//! again appends nothing twice, while two different files never share an id. Lines from stdin
//! get a fresh salt each run (the same line piped twice is two events); give them `event_id`s
//! to make a retry safe.

use super::{connect, from_status, read_input, Cli, CliError};
use crate::convert::ToProto;
use ledger::check::{parse_lines, Line};
use ledger::StreamId;
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use ledger_store::MAX_BATCH;
use serde_json::json;
use sha2::{Digest, Sha256};
use std::path::Path;
use tonic::transport::Channel;

/// What makes derived ids unique: the file's digest, or a fresh nonce for stdin.
fn salt(file: Option<&Path>, text: &str) -> Result<String, CliError> {
    match file {
        Some(path) if path.as_os_str() != "-" => Ok(hex::encode(Sha256::digest(text.as_bytes()))),
        _ => {
            let mut nonce = [0u8; 16];
            std::io::Read::read_exact(&mut std::fs::File::open("/dev/urandom")?, &mut nonce)?;
            Ok(hex::encode(nonce))
        }
    }
}

pub async fn run(cli: &Cli, stream: &str, file: Option<&Path>, expected_version: Option<u64>) -> Result<(), CliError> {
    let stream_id = StreamId::parse(stream).map_err(|r| CliError::Refused(format!("INVALID_ARGUMENT: {r}")))?;
    let text = read_input(file)?;
    let lines = parse_lines(&text).map_err(|e| CliError::Refused(format!("{e}")))?;
    if let Some(line) = lines.iter().find(|l| l.stream.as_deref().is_some_and(|s| s != stream)) {
        return Err(CliError::Refused(format!(
            "line {}: the line is for stream {}, not {stream}",
            line.number,
            line.stream.as_deref().unwrap_or_default()
        )));
    }
    let mut client = connect(cli).await?;
    let salt = salt(file, &text)?;
    let summary = append_lines(cli, &mut client, &stream_id, &lines, expected_version, &salt).await?;
    summary.print(cli.json);
    Ok(())
}

/// `ledgerctl import`: every line names its stream (an export, or lines with `stream`). Lines
/// are appended in file order — an export is in global position order, so a tournament's draw
/// comes before its games and the games before the final's choices — each run of consecutive
/// lines of one stream as one atomic append.
pub async fn import(cli: &Cli, file: Option<&Path>) -> Result<(), CliError> {
    let text = read_input(file)?;
    let lines = parse_lines(&text).map_err(|e| CliError::Refused(format!("{e}")))?;
    let mut runs: Vec<(StreamId, Vec<Line>)> = Vec::new();
    for line in lines {
        let name = line.stream.clone().ok_or_else(|| {
            CliError::Refused(format!(
                "line {}: no `stream` field: every line of an import names its stream",
                line.number
            ))
        })?;
        let id = StreamId::parse(&name).map_err(|r| CliError::Refused(format!("line {}: {r}", line.number)))?;
        match runs.last_mut() {
            Some((last, run)) if *last == id => run.push(line),
            _ => runs.push((id, vec![line])),
        }
    }
    let mut client = connect(cli).await?;
    let salt = salt(file, &text)?;
    for (id, run) in &runs {
        let summary = append_lines(cli, &mut client, id, run, None, &salt).await?;
        summary.print(cli.json);
    }
    Ok(())
}

/// Appends events made by a command (not read from a file) to one stream.
pub(super) async fn append_events(cli: &Cli, stream: &StreamId, events: Vec<ledger::Event>) -> Result<(), CliError> {
    let lines: Vec<Line> = (1..)
        .zip(events)
        .map(|(number, event)| Line { number, stream: None, event_id: None, recorded_at_ms: None, event })
        .collect();
    let mut client = connect(cli).await?;
    // A command's event is its own id: repeating the same command is a retry.
    let summary = append_lines(cli, &mut client, stream, &lines, None, "command").await?;
    summary.print(cli.json);
    Ok(())
}

/// What an append of many lines did.
struct Summary {
    stream: String,
    n_events: usize,
    answers: Vec<pb::AppendResponse>,
}

impl Summary {
    fn print(&self, as_json: bool) {
        let (first, last) = (&self.answers[0], self.answers.last().expect("at least one batch"));
        let stream = &self.stream;
        let duplicate = self.answers.iter().all(|a| a.duplicate);
        if as_json {
            say!(
                "{}",
                json!({
                    "stream": stream,
                    "events": self.n_events,
                    "first_seq": first.first_seq,
                    "last_seq": last.last_seq,
                    "first_position": first.first_position,
                    "last_position": last.last_position,
                    "head_hash": hex::encode(&last.head_hash),
                    "duplicate": duplicate,
                })
            );
        } else if duplicate {
            say!(
                "{stream}: these {} events were already appended (seq {}–{}); nothing new",
                self.n_events,
                first.first_seq,
                last.last_seq
            );
        } else {
            say!(
                "appended {} events to {stream}: seq {}–{}, chain head {}",
                self.n_events,
                first.first_seq,
                last.last_seq,
                hex::encode(&last.head_hash[..6.min(last.head_hash.len())])
            );
        }
    }
}

/// Appends lines to one stream in atomic batches of up to [`MAX_BATCH`].
async fn append_lines(
    cli: &Cli,
    client: &mut LedgerClient<Channel>,
    stream: &StreamId,
    lines: &[Line],
    expected_version: Option<u64>,
    salt: &str,
) -> Result<Summary, CliError> {
    if lines.is_empty() {
        return Err(CliError::Refused("the input holds no events".into()));
    }
    let mut expected = expected_version;
    let mut answers = Vec::new();
    for batch in lines.chunks(MAX_BATCH) {
        let events = batch
            .iter()
            .map(|line| pb::ProposedEvent {
                event_id: line.event_id.clone().unwrap_or_else(|| derived_id(stream, line, salt)),
                event: Some(line.event.to_proto()),
            })
            .collect();
        let mut request =
            tonic::Request::new(pb::AppendRequest { stream: stream.to_string(), events, expected_version: expected });
        super::authorize(cli, &mut request)?;
        let answer = client.append(request).await.map_err(|status| at_line(batch, &status))?.into_inner();
        expected = expected.map(|_| answer.last_seq);
        answers.push(answer);
    }
    Ok(Summary { stream: stream.to_string(), n_events: lines.len(), answers })
}

/// A stable id: the same stream, salt, line and event always give the same id.
fn derived_id(stream: &StreamId, line: &Line, salt: &str) -> String {
    let canonical = ledger::event::to_canonical_json(&line.event).to_string();
    let digest = Sha256::digest(format!("{stream}\n{salt}\n{}\n{canonical}", line.number));
    format!("cli-{}", hex::encode(&digest[..12]))
}

/// Points a refusal of "event k of n" at its line in the file.
fn at_line(batch: &[Line], status: &tonic::Status) -> CliError {
    let message = status.message();
    let line = message
        .strip_prefix("event ")
        .and_then(|rest| rest.split_once(" of "))
        .and_then(|(k, _)| k.parse::<usize>().ok())
        .and_then(|k| batch.get(k.wrapping_sub(1)))
        .or(if batch.len() == 1 { batch.first() } else { None });
    match (from_status(status), line) {
        (CliError::Refused(text), Some(line)) => {
            let text = text.replacen(&format!("event {} of {}: ", line_index(batch, line), batch.len()), "", 1);
            CliError::Refused(format!("line {}: {text}", line.number))
        }
        (other, _) => other,
    }
}

fn line_index(batch: &[Line], line: &Line) -> usize {
    batch.iter().position(|l| l.number == line.number).map_or(0, |i| i + 1)
}
