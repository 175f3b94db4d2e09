//! Files read offline (`score --file`, `standings --file`, `stats roles --file`, `andes … --file`):
//! validated with exactly the server's rules before anything is computed from them, then
//! projected by the same facade as ledgerd's (`ledger_house::facade`, over [`Records`]).

use super::common::CliError;
use ledger::check::{check_stream, parse_lines, Line, LineError};
use ledger::{StreamId, StreamKind};
use ledger_house::error::Code;
use ledger_house::facade::Projections;
use ledger_house::projections::{self, Streams};
use ledger_house::source::Records;
use std::collections::BTreeMap;

/// A line the rules refuse: `line N: CODE: message`.
pub(super) fn refused_line(e: LineError) -> CliError {
    CliError::Refused(format!("line {}: {}: {}", e.line, Code::of_rejection(e.kind).name(), e.message))
}

/// A multi-stream file: every line names its stream (an export, or lines with `stream`).
/// Each stream is validated with the server's rules, tournaments first so that games know their
/// ruleset, then held for the facade (each line's place in the file is its position, and its
/// `recorded_at_ms`, where the file says, gives the year statistics filter on).
pub(super) fn load_records(text: &str) -> Result<Records, CliError> {
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
    let mut validated = Streams::new();
    let mut records = Records::new();
    let (tournaments, games): (Vec<_>, Vec<_>) =
        by_stream.into_iter().partition(|(id, _)| id.kind() == StreamKind::Tournament);
    for (id, lines) in tournaments.into_iter().chain(games) {
        let scheduled = projections::scheduled_ruleset(&validated, id.id());
        check_stream(&id, scheduled, &lines).map_err(refused_line)?;
        validated.insert(id.clone(), (1u64..).zip(lines.iter().map(|l| l.event.clone())).collect());
        for line in lines {
            records.push(id.clone(), line.number as u64, line.recorded_at_ms, line.event);
        }
    }
    Ok(records)
}

/// The facade over a validated file.
pub(super) fn offline(records: Records) -> Projections<Records> {
    Projections::new(records)
}
