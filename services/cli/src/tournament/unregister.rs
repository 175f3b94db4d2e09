//! `ledgerctl tournament unregister`: a registration made in error (a player or a stand-in),
//! taken back by id before the draw; the id may register again. After the draw a player
//! withdraws instead (`ledgerctl tournament withdraw`).

use super::record;
use crate::common::CliError;
use crate::{values, Cli};
use ledger::StreamId;
use ledger_house::commands::Command;

#[derive(Debug, clap::Args)]
pub struct UnregisterArgs {
    #[arg(long, value_parser = values::tournament)]
    tournament: StreamId,
    /// The id the player or stand-in registered under.
    #[arg(long)]
    player: String,
}

pub async fn run(cli: &Cli, args: &UnregisterArgs) -> Result<(), CliError> {
    record(cli, &args.tournament, Command::Unregister { player: args.player.clone() }).await.map(drop)
}
