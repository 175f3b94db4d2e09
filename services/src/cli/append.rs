//! `ledgerctl append`: a JSON Lines file becomes atomic appends of up to 1000 events.
//!
//! Every line gets an event id: its own `event_id` field, or one derived from the stream, the
//! line number and the event, so that running the same command again appends nothing twice.

use super::{connect, from_status, read_input, Cli, CliError};
use crate::convert::ToProto;
use ledger::check::{parse_lines, Line};
use ledger::StreamId;
use ledger_proto::v1 as pb;
use ledger_store::MAX_BATCH;
use serde_json::json;
use sha2::{Digest, Sha256};
use std::path::Path;

pub async fn run(cli: &Cli, stream: &str, file: Option<&Path>, expected_version: Option<u64>) -> Result<(), CliError> {
    let stream_id = StreamId::parse(stream).map_err(|r| CliError::Refused(format!("INVALID_ARGUMENT: {r}")))?;
    let lines = parse_lines(&read_input(file)?).map_err(|e| CliError::Refused(format!("{e}")))?;
    if let Some(line) = lines.iter().find(|l| l.stream.as_deref().is_some_and(|s| s != stream)) {
        return Err(CliError::Refused(format!(
            "line {}: the line is for stream {}, not {stream}",
            line.number,
            line.stream.as_deref().unwrap_or_default()
        )));
    }
    if lines.is_empty() {
        return Err(CliError::Refused("the input holds no events".into()));
    }
    let mut client = connect(cli).await?;
    let mut expected = expected_version;
    let mut summary = Vec::new();
    for batch in lines.chunks(MAX_BATCH) {
        let events = batch
            .iter()
            .map(|line| pb::ProposedEvent {
                event_id: line.event_id.clone().unwrap_or_else(|| derived_id(&stream_id, line)),
                event: Some(line.event.to_proto()),
            })
            .collect();
        let mut request = tonic::Request::new(pb::AppendRequest {
            stream: stream.to_owned(),
            events,
            expected_version: expected,
        });
        if let Ok(actor) = cli.actor.parse() {
            request.metadata_mut().insert(crate::ACTOR_HEADER, actor);
        }
        let answer = client
            .append(request)
            .await
            .map_err(|status| at_line(batch, &status))?
            .into_inner();
        expected = expected.map(|_| answer.last_seq);
        summary.push(answer);
    }
    let first = &summary[0];
    let last = summary.last().expect("at least one batch");
    let duplicate = summary.iter().all(|a| a.duplicate);
    if cli.json {
        println!(
            "{}",
            json!({
                "stream": stream,
                "events": lines.len(),
                "first_seq": first.first_seq,
                "last_seq": last.last_seq,
                "first_position": first.first_position,
                "last_position": last.last_position,
                "head_hash": hex::encode(&last.head_hash),
                "duplicate": duplicate,
            })
        );
    } else if duplicate {
        println!(
            "{stream}: these {} events were already appended (seq {}–{}); nothing new",
            lines.len(),
            first.first_seq,
            last.last_seq
        );
    } else {
        println!(
            "appended {} events to {stream}: seq {}–{}, chain head {}",
            lines.len(),
            first.first_seq,
            last.last_seq,
            hex::encode(&last.head_hash[..6.min(last.head_hash.len())])
        );
    }
    Ok(())
}

/// A stable id: the same stream, line and event always give the same id.
fn derived_id(stream: &StreamId, line: &Line) -> String {
    let canonical = ledger::event::to_canonical_json(&line.event).to_string();
    let digest = Sha256::digest(format!("{stream}\n{}\n{canonical}", line.number));
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
            let text = text.replacen(
                &format!("event {} of {}: ", line_index(batch, line), batch.len()),
                "",
                1,
            );
            CliError::Refused(format!("line {}: {text}", line.number))
        }
        (other, _) => other,
    }
}

fn line_index(batch: &[Line], line: &Line) -> usize {
    batch.iter().position(|l| l.number == line.number).map_or(0, |i| i + 1)
}
