//! `ledgerctl append`: one stream's JSON Lines, appended so that a retried or corrected file
//! appends exactly what is missing (see [`super::appending`]). A line of an event the ledger
//! derives is refused with the ledger's reason: `import` restores an export that holds them.

use super::appending::{append_lines, salt, DerivedLines};
use super::common::{read_input, CliError};
use super::connection::connect;
use super::{values, Cli};
use ledger::check::parse_lines;
use ledger::StreamId;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct AppendArgs {
    /// `game/<id>`, `tournament/<id>` or `andes/<id>`.
    #[arg(long, value_parser = values::stream)]
    stream: StreamId,
    /// JSON Lines file; `-` or absent for stdin.
    #[arg(long)]
    file: Option<PathBuf>,
    /// Refuse unless the stream was at this version before the file (0 = new stream). On a
    /// re-run give the same value: the lines already stored are counted on top of it.
    #[arg(long)]
    expected_version: Option<u64>,
}

pub async fn run(cli: &Cli, args: &AppendArgs) -> Result<(), CliError> {
    let stream = args.stream.to_string();
    let file = args.file.as_deref();
    let text = read_input(file)?;
    let lines = parse_lines(&text).map_err(|e| CliError::Refused(format!("{e}")))?;
    if let Some(line) = lines.iter().find(|l| l.stream.as_deref().is_some_and(|s| s != stream)) {
        return Err(CliError::Refused(format!(
            "line {}: the line is for stream {}, not {stream}",
            line.number,
            line.stream.as_deref().unwrap_or_default()
        )));
    }
    let mut client = connect(cli).await?;
    let salt = salt(file)?;
    let summary =
        append_lines(&mut client, &args.stream, &lines, args.expected_version, &salt, DerivedLines::Refused).await?;
    summary.print(cli.json);
    Ok(())
}
