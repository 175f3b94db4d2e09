//! `ledgerctl tournament register`: a player, by id, name and the pseudonym public standings show;
//! or, with `--stand-in`, a stand-in the qualifying draw seats to fill tables (never ranked); or,
//! with `--file`, a list (a CSV file or a spreadsheet's lines: name, pseudonym, id), all recorded
//! or none, every refused line named. The console's registration forms plan the same commands.

use super::record;
use crate::common::CliError;
use crate::{values, Cli};
use ledger::StreamId;
use ledger_house::commands::roster::{self, Registration};
use ledger_house::commands::{Command, Shows};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct RegisterArgs {
    #[arg(long, value_parser = values::tournament)]
    tournament: StreamId,
    /// The player's id, used in seats and standings; made from the name if not given.
    #[arg(long, conflicts_with = "file")]
    player: Option<String>,
    #[arg(long, required_unless_present = "file", conflicts_with = "file")]
    name: Option<String>,
    /// The name public standings show instead.
    #[arg(long, conflicts_with_all = ["stand_in", "file"])]
    pseudonym: Option<String>,
    /// A stand-in, not a player: the draw seats the first ones it needs when the players are not
    /// a multiple of 4; never ranked, never in the final.
    #[arg(long)]
    stand_in: bool,
    /// A list to register, a person a line: `name, pseudonym, id` (tabs, semicolons or commas;
    /// the last two may be empty; a first line of column names is skipped); `-` reads stdin.
    #[arg(long)]
    file: Option<PathBuf>,
}

pub async fn run(cli: &Cli, args: &RegisterArgs) -> Result<(), CliError> {
    let registrations = match &args.file {
        Some(path) => read_list(path, args.stand_in)?,
        None => vec![Registration {
            player: args.player.clone(),
            name: args.name.clone().unwrap_or_default(),
            pseudonym: args.pseudonym.clone(),
            stand_in: args.stand_in,
        }],
    };
    let plan = record(cli, &args.tournament, Command::Register(registrations)).await?;
    if let Shows::Registrations(registered) = plan.shows {
        for r in registered.iter().filter(|_| !cli.json) {
            say!(
                "{}  {}{}",
                r.player.as_deref().unwrap_or_default(),
                r.name,
                r.pseudonym.as_deref().map(|p| format!(" ({p})")).unwrap_or_default()
            );
        }
    }
    Ok(())
}

/// The people of a list file, or every line that is wrong (then nothing is recorded).
fn read_list(path: &std::path::Path, stand_ins: bool) -> Result<Vec<Registration>, CliError> {
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())?
    } else {
        std::fs::read_to_string(path).map_err(|e| CliError::Failed(format!("cannot read {}: {e}", path.display())))?
    };
    let (lines, bad) = roster::parse(&text, stand_ins);
    if !bad.is_empty() {
        let lines: Vec<String> = bad.iter().map(|b| format!("line {}: {} ({})", b.number, b.problem, b.text)).collect();
        return Err(CliError::Refused(format!(
            "INVALID_ARGUMENT: {} of the list's lines cannot be read, nothing was recorded:\n{}",
            bad.len(),
            lines.join("\n")
        )));
    }
    Ok(lines.into_iter().map(|l| l.registration).collect())
}
