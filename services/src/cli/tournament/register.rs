//! `ledgerctl tournament register`: a player, by id, name and the pseudonym public standings show.

use crate::cli::appending::append_events;
use crate::cli::common::CliError;
use crate::cli::{values, Cli};
use ledger::{Event, StreamId};

#[derive(Debug, clap::Args)]
pub struct RegisterArgs {
    #[arg(long, value_parser = values::tournament)]
    tournament: StreamId,
    /// The player's id, used in seats and standings.
    #[arg(long)]
    player: String,
    #[arg(long)]
    name: String,
    /// The name public standings show instead.
    #[arg(long)]
    pseudonym: Option<String>,
}

pub async fn run(cli: &Cli, args: &RegisterArgs) -> Result<(), CliError> {
    let event = Event::PlayerRegistered {
        player: args.player.clone(),
        name: args.name.clone(),
        pseudonym: args.pseudonym.clone(),
    };
    append_events(cli, &args.tournament, vec![event]).await
}
