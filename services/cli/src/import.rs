//! `ledgerctl import`: every line names its stream (an export, or lines with `stream`). Lines
//! are appended in file order — an export is in global position order, so a tournament's draw
//! comes before its games and the games before the final's choices — each run of consecutive
//! lines of one stream as one atomic append, idempotent like `append`. The events the ledger
//! derived (an Andes move's consequences) are checked to be exactly what it derives from the move
//! before them, and not sent: it derives them again.

use super::appending::{append_lines, salt, DerivedLines};
use super::common::{read_input, CliError};
use super::connection::connect;
use super::Cli;
use ledger::check::{parse_lines, Line};
use ledger::StreamId;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    #[arg(long)]
    file: Option<PathBuf>,
}

pub async fn run(cli: &Cli, args: &ImportArgs) -> Result<(), CliError> {
    let file = args.file.as_deref();
    let text = read_input(file)?;
    let lines = parse_lines(&text).map_err(|e| CliError::Refused(format!("{e}")))?;
    let mut runs: Vec<(StreamId, Vec<Line>)> = Vec::new();
    for line in lines {
        let name = line.stream.clone().ok_or_else(|| {
            CliError::Refused(format!(
                "line {}: no `stream` field: every line of an import names its stream",
                line.number
            ))
        })?;
        let id = StreamId::parse(&name).map_err(|r| CliError::Refused(format!("line {}: {r}", line.number)))?;
        match runs.last_mut() {
            Some((last, run)) if *last == id => run.push(line),
            _ => runs.push((id, vec![line])),
        }
    }
    let mut client = connect(cli).await?;
    let salt = salt(file)?;
    for (id, run) in &runs {
        let summary = append_lines(&mut client, id, run, None, &salt, DerivedLines::Checked).await?;
        summary.print(cli.json);
    }
    Ok(())
}
