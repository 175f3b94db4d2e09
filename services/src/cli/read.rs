//! `ledgerctl read`, `tail` and `streams`.

use super::output::{json_line, record_line};
use super::{connect, from_status, Cli, CliError};
use crate::convert::FromProto;
use ledger::Recorded;
use ledger_proto::v1 as pb;
use serde_json::json;
use tokio_stream::StreamExt;

fn print(cli: &Cli, proto: pb::RecordedEvent) -> Result<(), CliError> {
    let record = Recorded::from_proto(proto).map_err(|r| CliError::Failed(format!("the server sent {r}")))?;
    if cli.json {
        say!("{}", json_line(&record.to_json()));
    } else {
        say!("{}", record_line(&record));
    }
    Ok(())
}

pub async fn read(cli: &Cli, stream: &str, from: u64) -> Result<(), CliError> {
    let mut client = connect(cli).await?;
    let request = pb::ReadRequest { stream: stream.to_owned(), from_seq: from, limit: None };
    let mut events = client.read(request).await.map_err(|s| from_status(&s))?.into_inner();
    let mut n_events = 0usize;
    while let Some(item) = events.next().await {
        print(cli, item.map_err(|s| from_status(&s))?)?;
        n_events += 1;
    }
    if n_events == 0 && !cli.json {
        eprintln!("{stream} has no events from seq {from}");
    }
    Ok(())
}

pub async fn tail(cli: &Cli, stream: Option<&str>, from: Option<u64>) -> Result<(), CliError> {
    let mut client = connect(cli).await?;
    let stream = stream.unwrap_or_default().to_owned();
    // Without --from, start after what is stored now.
    let from = match from {
        Some(from) => from,
        None if stream.is_empty() => u64::MAX,
        None => {
            let listed = client
                .list_streams(pb::ListStreamsRequest { prefix: stream.clone() })
                .await
                .map_err(|s| from_status(&s))?
                .into_inner();
            listed.streams.iter().find(|s| s.stream == stream).map_or(1, |s| s.version + 1)
        }
    };
    let from = if from == u64::MAX { latest_position(&mut client).await? } else { from };
    let mut events =
        client.subscribe(pb::SubscribeRequest { stream, from }).await.map_err(|s| from_status(&s))?.into_inner();
    while let Some(item) = events.next().await {
        print(cli, item.map_err(|s| from_status(&s))?)?;
    }
    Ok(())
}

/// One past the newest global position stored now.
async fn latest_position(client: &mut super::connection::Ledger) -> Result<u64, CliError> {
    let listed =
        client.list_streams(pb::ListStreamsRequest { prefix: String::new() }).await.map_err(|s| from_status(&s))?;
    Ok(listed.into_inner().last_position + 1)
}

pub async fn streams(cli: &Cli, prefix: &str) -> Result<(), CliError> {
    let mut client = connect(cli).await?;
    let listed = client
        .list_streams(pb::ListStreamsRequest { prefix: prefix.to_owned() })
        .await
        .map_err(|s| from_status(&s))?
        .into_inner();
    for s in &listed.streams {
        if cli.json {
            say!("{}", json!({"stream": s.stream, "version": s.version, "head_hash": hex::encode(&s.head_hash)}));
        } else {
            say!(
                "{:<40} {:>6} events  head {}",
                s.stream,
                s.version,
                hex::encode(&s.head_hash[..6.min(s.head_hash.len())])
            );
        }
    }
    if listed.streams.is_empty() && !cli.json {
        eprintln!("no streams{}", if prefix.is_empty() { String::new() } else { format!(" starting with {prefix}") });
    }
    Ok(())
}
