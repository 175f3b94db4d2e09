//! `ledgerctl read`, `tail` and `streams`.

use super::common::{from_status, CliError};
use super::connection::{connect, Ledger, Records};
use super::output::{json_line, record_line};
use super::{values, Cli};
use ledger::{Recorded, StreamId};
use ledger_proto::convert::FromProto;
use ledger_proto::v1 as pb;
use serde_json::json;
use tokio_stream::StreamExt;

#[derive(Debug, clap::Args)]
pub struct ReadArgs {
    #[arg(long, value_parser = values::stream)]
    stream: StreamId,
    /// First seq to print.
    #[arg(long, default_value_t = 1)]
    from: u64,
}

#[derive(Debug, clap::Args)]
pub struct TailArgs {
    #[arg(long, value_parser = values::stream)]
    stream: Option<StreamId>,
    /// First seq (of the stream) or global position to print; default: only new events.
    #[arg(long)]
    from: Option<u64>,
}

#[derive(Debug, clap::Args)]
pub struct StreamsArgs {
    /// Only streams whose name starts with this, e.g. `game/`.
    #[arg(long, default_value = "")]
    prefix: String,
}

fn print(cli: &Cli, record: &Recorded) -> Result<(), CliError> {
    if cli.json {
        say!("{}", json_line(&record.to_json()));
    } else {
        say!("{}", record_line(record));
    }
    Ok(())
}

pub async fn read(cli: &Cli, args: &ReadArgs) -> Result<(), CliError> {
    let (stream, from) = (&args.stream, args.from);
    let mut client = connect(cli).await?;
    let request = pb::ReadRequest { stream: stream.to_string(), from_seq: from, limit: None, ..Default::default() };
    let mut read = Records::start(&mut client, request).await.map_err(|s| from_status(&s))?;
    let mut n_events = 0usize;
    while let Some(event) = read.next().await {
        print(cli, &event.map_err(CliError::from)?)?;
        n_events += 1;
    }
    if n_events == 0 && !cli.json {
        eprintln!("{stream} has no events from seq {from}");
    }
    Ok(())
}

pub async fn tail(cli: &Cli, args: &TailArgs) -> Result<(), CliError> {
    let mut client = connect(cli).await?;
    let stream = args.stream.as_ref().map(StreamId::to_string).unwrap_or_default();
    // Without --from, start after what is stored now.
    let from = match args.from {
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
        let proto = item.map_err(|s| from_status(&s))?;
        print(cli, &Recorded::from_proto(proto).map_err(|r| CliError::Failed(format!("the server sent {r}")))?)?;
    }
    Ok(())
}

/// One past the newest global position stored now.
async fn latest_position(client: &mut Ledger) -> Result<u64, CliError> {
    let listed =
        client.list_streams(pb::ListStreamsRequest { prefix: String::new() }).await.map_err(|s| from_status(&s))?;
    Ok(listed.into_inner().last_position + 1)
}

pub async fn streams(cli: &Cli, args: &StreamsArgs) -> Result<(), CliError> {
    let prefix = args.prefix.as_str();
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
