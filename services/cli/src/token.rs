//! `ledgerctl new-token`: a fresh random bearer token and the auth-file entry that admits it.

use super::common::CliError;
use super::values;
use ledger_house::auth::Role;

#[derive(Debug, clap::Args)]
pub struct NewTokenArgs {
    /// Who the token stands for, recorded as the actor of every append.
    #[arg(long)]
    actor: String,
    /// The token's role; an analyst reads everything and records nothing.
    #[arg(long, value_parser = values::token_clearance())]
    clearance: Role,
}

/// Prints a fresh random token and the auth-file entry that admits it.
pub fn run(args: &NewTokenArgs) -> Result<(), CliError> {
    let actor = &args.actor;
    let token = ledger_house::auth::file::mint_token()?;
    let entry = ledger_house::auth::file::entry(&token, actor, args.clearance);
    say!("token (give it to {actor}; it is not stored anywhere): {token}");
    say!("auth-file entry (add it to \"tokens\"): {entry}");
    Ok(())
}
