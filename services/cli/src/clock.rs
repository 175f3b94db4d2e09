//! `ledgerctl clock`: a game's chess clock, once, or following the game live.

use super::common::{from_status, CliError};
use super::connection::{connect, connect_projections};
use super::{values, Cli};
use ledger::StreamId;
use ledger_proto::v1 as pb;
use tokio_stream::StreamExt;

#[derive(Debug, clap::Args)]
pub struct ClockArgs {
    /// `<id>` or `game/<id>`.
    #[arg(value_parser = values::game)]
    game: StreamId,
    /// The clock as it stood after this event (seq).
    #[arg(long, conflicts_with = "follow")]
    as_of: Option<u64>,
    /// Redraw as presses arrive, until interrupted.
    #[arg(long)]
    follow: bool,
}

pub async fn run(cli: &Cli, args: &ClockArgs) -> Result<(), CliError> {
    let (stream, follow) = (args.game.to_string(), args.follow);
    let mut client = connect_projections(cli).await?;
    let show = |answer: pb::Projection, clear: bool| {
        if cli.json {
            say!("{}", answer.json);
        } else {
            if clear {
                // Redraw in place on a terminal.
                print!("\x1b[2J\x1b[H");
            }
            say!("{}", answer.text.trim_end());
        }
    };
    let request = pb::ClockRequest { game: stream.clone(), as_of_seq: args.as_of, now_at_ms: None };
    let first = client.get_clock(request).await.map_err(|s| from_status(&s))?.into_inner();
    show(first, follow && !cli.json);
    if !follow {
        return Ok(());
    }
    let mut ledger = connect(cli).await?;
    let listed = ledger
        .list_streams(pb::ListStreamsRequest { prefix: stream.clone() })
        .await
        .map_err(|s| from_status(&s))?
        .into_inner();
    let from = listed.streams.iter().find(|s| s.stream == stream).map_or(1, |s| s.version + 1);
    let mut events = ledger
        .subscribe(pb::SubscribeRequest { stream: stream.clone(), from })
        .await
        .map_err(|s| from_status(&s))?
        .into_inner();
    while let Some(item) = events.next().await {
        item.map_err(|s| from_status(&s))?;
        let request = pb::ClockRequest { game: stream.clone(), as_of_seq: None, now_at_ms: None };
        let answer = client.get_clock(request).await.map_err(|s| from_status(&s))?.into_inner();
        show(answer, !cli.json);
    }
    Ok(())
}
