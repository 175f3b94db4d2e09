//! Files read offline (`score --file`, `standings --file`, `stats roles --file`, `andes … --file`):
//! validated with exactly the server's rules before anything is computed from them.

use super::common::CliError;
use crate::projections::{self, Streams};
use crate::status::rejection_code;
use ledger::check::{check_stream, parse_lines, Line, LineError};
use ledger::{StreamId, StreamKind};
use replay::stats::year_of_unix_ms;
use std::collections::BTreeMap;

/// A line the rules refuse: `line N: CODE: message`.
pub(super) fn refused_line(e: LineError) -> CliError {
    CliError::Refused(format!("line {}: {}: {}", e.line, crate::status::code_name(rejection_code(e.kind)), e.message))
}

/// A multi-stream file: every line names its stream (an export, or lines with `stream`).
/// Each stream is validated with the server's rules, tournaments first so that games know their
/// ruleset. Also the year each stream was first recorded in, where the file says.
pub(super) fn load_streams(text: &str) -> Result<(Streams, BTreeMap<StreamId, i32>), CliError> {
    let mut by_stream: BTreeMap<StreamId, Vec<Line>> = BTreeMap::new();
    for line in parse_lines(text).map_err(refused_line)? {
        let name = line.stream.clone().ok_or_else(|| {
            CliError::Refused(format!(
                "line {}: no `stream` field: use an export or lines that name their stream",
                line.number
            ))
        })?;
        let id = StreamId::parse(&name).map_err(|r| CliError::Refused(format!("line {}: {r}", line.number)))?;
        by_stream.entry(id).or_default().push(line);
    }
    let mut streams = Streams::new();
    let mut years = BTreeMap::new();
    let (tournaments, games): (Vec<_>, Vec<_>) =
        by_stream.into_iter().partition(|(id, _)| id.kind() == StreamKind::Tournament);
    for (id, lines) in tournaments.into_iter().chain(games) {
        let scheduled = projections::scheduled_ruleset(&streams, id.id());
        check_stream(&id, scheduled, &lines).map_err(refused_line)?;
        if let Some(ms) = lines.first().and_then(|l| l.recorded_at_ms) {
            years.insert(id.clone(), year_of_unix_ms(ms));
        }
        streams.insert(id, (1u64..).zip(lines.into_iter().map(|l| l.event)).collect());
    }
    Ok((streams, years))
}
