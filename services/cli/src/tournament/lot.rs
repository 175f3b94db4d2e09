//! `ledgerctl tournament lot`: a lot drawn among tied players from a seed, shown and recorded;
//! the order follows from the seed, so anyone can check it.

use crate::appending::append_events;
use crate::common::CliError;
use crate::{values, Cli};
use ledger::{Event, StreamId};
use serde_json::json;

#[derive(Debug, clap::Args)]
pub struct LotArgs {
    #[arg(long, value_parser = values::tournament)]
    tournament: StreamId,
    /// What the lot decides, e.g. `qualifying` or `final`.
    #[arg(long)]
    purpose: String,
    #[arg(long)]
    seed: u64,
    /// The tied players, comma-separated.
    #[arg(long, value_delimiter = ',', required = true)]
    players: Vec<String>,
}

pub async fn run(cli: &Cli, args: &LotArgs) -> Result<(), CliError> {
    let (purpose, seed) = (&args.purpose, args.seed);
    let order = ledger::draw::lot_order(&args.players, seed);
    if cli.json {
        say!("{}", json!({"purpose": purpose, "seed": seed, "order": order}));
    } else {
        say!("lot for {purpose} (seed {seed}): {}", order.join(" > "));
    }
    let event = Event::LotDrawn { purpose: purpose.clone(), seed, order };
    append_events(cli, &args.tournament, vec![event]).await
}
