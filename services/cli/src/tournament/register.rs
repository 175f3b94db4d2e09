//! `ledgerctl tournament register`: a player, by id, name and the pseudonym public standings show;
//! or, with `--stand-in`, a stand-in the qualifying draw seats to fill tables (never ranked).

use crate::appending::append_events;
use crate::common::CliError;
use crate::{values, Cli};
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
    #[arg(long, conflicts_with = "stand_in")]
    pseudonym: Option<String>,
    /// A stand-in, not a player: the draw seats the first ones it needs when the players are not
    /// a multiple of 4; never ranked, never in the final.
    #[arg(long)]
    stand_in: bool,
}

pub async fn run(cli: &Cli, args: &RegisterArgs) -> Result<(), CliError> {
    let event = if args.stand_in {
        Event::StandInRegistered { player: args.player.clone(), name: args.name.clone() }
    } else {
        Event::PlayerRegistered {
            player: args.player.clone(),
            name: args.name.clone(),
            pseudonym: args.pseudonym.clone(),
        }
    };
    append_events(cli, &args.tournament, vec![event]).await
}
