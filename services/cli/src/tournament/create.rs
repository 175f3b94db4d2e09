//! `ledgerctl tournament create`: the tournament's stream, its name, ruleset and clock.

use crate::appending::append_events;
use crate::common::CliError;
use crate::{values, Cli};
use ledger::{Event, Ruleset, StreamId};

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
    let event = Event::TournamentCreated {
        name: args.name.clone(),
        ruleset: args.ruleset,
        clock_ms_per_side: args.clock_minutes.map(|m| m * 60_000),
    };
    append_events(cli, &args.id, vec![event]).await
}
