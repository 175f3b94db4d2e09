//! `ledgerctl tournament withdraw`: a player leaves. Their games played keep counting; their
//! qualifying games from `--from-round` on seat a stand-in (the one named, or the first
//! registered stand-in free in those rounds); the ledger checks and records the re-seating.

use super::{tournament, Command};
use crate::appending::append_events;
use crate::common::CliError;
use crate::{values, Cli};
use ledger::StreamId;
use ledger_house::commands::{self, Shows};

#[derive(Debug, clap::Args)]
pub struct WithdrawArgs {
    #[arg(long, value_parser = values::tournament)]
    tournament: StreamId,
    #[arg(long)]
    player: String,
    /// The first round the player no longer plays (5: after the qualifying, before the final).
    #[arg(long)]
    from_round: u32,
    /// The stand-in who takes the player's seats; default: the first registered stand-in free
    /// in every round concerned.
    #[arg(long)]
    stand_in: Option<String>,
}

pub async fn run(cli: &Cli, args: &WithdrawArgs) -> Result<(), CliError> {
    let command =
        Command::Withdraw { player: args.player.clone(), from_round: args.from_round, stand_in: args.stand_in.clone() };
    let plan = commands::plan(&tournament(cli, &args.tournament).await?, command)?;
    if let Shows::Withdrawal { stand_in: Some(stand_in), games } = &plan.shows {
        if !games.is_empty() {
            say!("{stand_in} takes {}'s seat in {}", args.player, games.join(", "));
        }
    }
    append_events(cli, &args.tournament, plan.events).await
}
