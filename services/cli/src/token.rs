//! `ledgerctl new-token`: a fresh random bearer token and the auth-file entry that admits it.

use super::common::CliError;
use super::values;
use ledger::StreamId;
use ledger_house::auth::{Role, Scope};

#[derive(Debug, clap::Args)]
pub struct NewTokenArgs {
    /// Who the token stands for, recorded as the actor of every append.
    #[arg(long)]
    actor: String,
    /// The token's role; an analyst reads the games and the statistics and records nothing.
    #[arg(long, value_parser = values::token_clearance())]
    clearance: Role,
    /// Records only in this tournament: its stream and the games it schedules.
    #[arg(long, value_parser = values::tournament)]
    tournament: Option<StreamId>,
    /// With --tournament: only the games the tournament puts on this table.
    #[arg(long, requires = "tournament")]
    table: Option<u32>,
    /// Also records in this stream (a stand-alone game, `game/<id>` or `andes/<id>`); repeatable.
    #[arg(long = "stream", value_parser = values::stream)]
    streams: Vec<StreamId>,
}

/// Prints a fresh random token and the auth-file entry that admits it.
pub fn run(args: &NewTokenArgs) -> Result<(), CliError> {
    let actor = &args.actor;
    let token = ledger_house::auth::file::mint_token()?;
    let scope = Scope {
        tournament: args.tournament.as_ref().map(|t| t.id().to_owned()),
        table: args.table,
        streams: args.streams.iter().map(ToString::to_string).collect(),
    };
    let entry = ledger_house::auth::file::scoped_entry(&token, actor, args.clearance, &scope);
    say!("token (give it to {actor}; it is not stored anywhere): {token}");
    say!("auth-file entry (add it to \"tokens\"): {entry}");
    Ok(())
}
