//! `ledgerctl tournament schedule`: a game put on a table by hand, its seats by role, named
//! after its tournament.

use super::record;
use crate::common::CliError;
use crate::{values, Cli};
use ledger::event::Seats;
use ledger::{Stage, StreamId};
use ledger_house::commands::Command;

#[derive(Debug, clap::Args)]
pub struct ScheduleArgs {
    #[arg(long, value_parser = values::tournament)]
    tournament: StreamId,
    /// The game's name in the tournament: `q5-t1` is recorded as `<tournament>-q5-t1`;
    /// `game/<id>` names the stream exactly.
    #[arg(long)]
    game: String,
    #[arg(long, default_value = "qualifying", value_parser = values::stage())]
    stage: Stage,
    #[arg(long)]
    round: u32,
    #[arg(long)]
    table: u32,
    #[arg(long)]
    frederick: String,
    #[arg(long)]
    elisabeth: String,
    #[arg(long)]
    maria_theresa: String,
    #[arg(long)]
    pompadour: String,
}

pub async fn run(cli: &Cli, args: &ScheduleArgs) -> Result<(), CliError> {
    let command = Command::Schedule {
        name: args.game.clone(),
        stage: args.stage,
        round: args.round,
        table: args.table,
        seats: Seats {
            frederick: args.frederick.clone(),
            elisabeth: args.elisabeth.clone(),
            maria_theresa: args.maria_theresa.clone(),
            pompadour: args.pompadour.clone(),
        },
    };
    record(cli, &args.tournament, command).await.map(drop)
}
