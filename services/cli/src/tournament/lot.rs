//! `ledgerctl tournament lot`: a lot drawn among tied players from a seed, shown and recorded;
//! the order follows from the seed, so anyone can check it.

use super::record;
use crate::common::CliError;
use crate::{values, Cli};
use ledger::StreamId;
use ledger_house::commands::{Command, Shows};
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
    let command = Command::Lot { purpose: purpose.clone(), seed, players: args.players.clone() };
    let plan = record(cli, &args.tournament, command).await?;
    if let Shows::Lot(order) = plan.shows {
        if cli.json {
            say!("{}", json!({"purpose": purpose, "seed": seed, "order": order}));
        } else {
            say!("lot for {purpose} (seed {seed}): {}", order.join(" > "));
        }
    }
    Ok(())
}
