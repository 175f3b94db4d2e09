//! `ledgerctl tournament final choose|schedule`: the finalists choose their roles in rank order
//! (the ledger refuses anything else), then the final is seated as they chose.

use super::record;
use crate::common::CliError;
use crate::{values, Cli};
use clap::Subcommand;
use ledger::{Role, StreamId};
use ledger_house::commands::Command;

#[derive(Debug, clap::Args)]
pub struct FinalArgs {
    #[command(subcommand)]
    what: FinalCommand,
}

#[derive(Debug, Subcommand)]
enum FinalCommand {
    /// A finalist chooses a role (in rank order; the ledger refuses anything else).
    Choose(ChooseArgs),
    /// Schedule the final from the four choices.
    Schedule(ScheduleArgs),
}

#[derive(Debug, clap::Args)]
struct ChooseArgs {
    #[arg(long, value_parser = values::tournament)]
    tournament: StreamId,
    #[arg(long)]
    player: String,
    #[arg(long, value_parser = values::role())]
    role: Role,
}

#[derive(Debug, clap::Args)]
struct ScheduleArgs {
    #[arg(long, value_parser = values::tournament)]
    tournament: StreamId,
    /// The final's name in the tournament, recorded as `<tournament>-final`; `game/<id>` names
    /// the stream exactly.
    #[arg(long, default_value = ledger::draw::FINAL)]
    game: String,
    #[arg(long, default_value_t = 1)]
    table: u32,
}

pub async fn run(cli: &Cli, args: &FinalArgs) -> Result<(), CliError> {
    match &args.what {
        FinalCommand::Choose(args) => choose(cli, args).await,
        FinalCommand::Schedule(args) => schedule(cli, args).await,
    }
}

async fn choose(cli: &Cli, args: &ChooseArgs) -> Result<(), CliError> {
    let command = Command::ChooseRole { player: args.player.clone(), role: args.role };
    record(cli, &args.tournament, command).await.map(drop)
}

/// Schedules the final from the four choices.
async fn schedule(cli: &Cli, args: &ScheduleArgs) -> Result<(), CliError> {
    let command = Command::ScheduleFinal { name: args.game.clone(), table: args.table };
    record(cli, &args.tournament, command).await.map(drop)
}
