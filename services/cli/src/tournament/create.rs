//! `ledgerctl tournament create`: the tournament's stream, its name, ruleset and clock.

use super::record;
use crate::common::CliError;
use crate::{values, Cli};
use ledger::{Ruleset, StreamId};
use ledger_house::commands::Command;

#[derive(Debug, clap::Args)]
pub struct CreateArgs {
    /// The tournament's id (its stream is `tournament/<id>`).
    #[arg(long, value_parser = values::tournament)]
    id: StreamId,
    #[arg(long)]
    name: String,
    #[arg(long, value_parser = values::ruleset())]
    ruleset: Ruleset,
    /// Minutes on each side of the chess clock (default 130).
    #[arg(long)]
    clock_minutes: Option<u64>,
}

pub async fn run(cli: &Cli, args: &CreateArgs) -> Result<(), CliError> {
    let command = Command::Create { name: args.name.clone(), ruleset: args.ruleset, clock_minutes: args.clock_minutes };
    record(cli, &args.id, command).await.map(drop)
}
