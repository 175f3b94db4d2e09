//! `ledgerctl audit`: the jury replays a disputed game to any point — by event or by table
//! time — steps through it, compares two points, lists every event with the voids struck
//! through, and writes the report to hand over. Online from ledgerd, or offline from an export.

use super::common::{from_status, read_input, CliError};
use super::connection::{connect, read_stream};
use super::{values, Cli};
use ledger::{Recorded, StreamId};
use ledger_house::projections::{self, Streams};
use ledger_proto::v1 as pb;
use replay::audit::{self, AuditPoint, Auditor};
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// What the jury asked for.
#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    /// `<id>` or `game/<id>`.
    #[arg(value_parser = values::game)]
    game: StreamId,
    /// An export to audit offline (`ledgerctl export`).
    #[arg(long)]
    file: Option<PathBuf>,
    /// The game as it stood after this event (default: the last).
    #[arg(long)]
    at: Option<u64>,
    /// The game as it stood at this table time (ms).
    #[arg(long, conflicts_with = "at")]
    at_ms: Option<u64>,
    /// What changed between two events: `--diff 12 30`.
    #[arg(long, num_args = 2, value_names = ["FROM", "TO"])]
    diff: Option<Vec<u64>>,
    /// Step forward and back with commands on stdin.
    #[arg(long)]
    step: bool,
    /// Every event with time and actor, voided ones struck through with their ruling.
    #[arg(long)]
    timeline: bool,
    /// The audit report in Markdown.
    #[arg(long)]
    report: bool,
}

/// The game's records and the tournaments around it.
pub(crate) struct Loaded {
    pub(crate) game: StreamId,
    pub(crate) records: Vec<Recorded>,
    pub(crate) streams: Streams,
}

pub(crate) async fn load(cli: &Cli, game: StreamId, file: Option<&Path>) -> Result<Loaded, CliError> {
    let mut records = Vec::new();
    match file {
        Some(path) => {
            for (idx, line) in read_input(Some(path))?.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                let value: serde_json::Value = serde_json::from_str(line)
                    .map_err(|e| CliError::Refused(format!("line {}: not JSON: {e}", idx + 1)))?;
                let record = Recorded::from_json(&value).map_err(|e| {
                    CliError::Refused(format!("line {}: {e} (an audit reads an export: `ledgerctl export`)", idx + 1))
                })?;
                records.push(record);
            }
        }
        None => {
            let mut client = connect(cli).await?;
            let listed = client
                .list_streams(pb::ListStreamsRequest { prefix: "tournament/".into() })
                .await
                .map_err(|s| from_status(&s))?
                .into_inner();
            for summary in listed.streams {
                records.extend(read_stream(&mut client, &summary.stream).await.map_err(CliError::from)?);
            }
            records.extend(read_stream(&mut client, &game.to_string()).await.map_err(CliError::from)?);
        }
    }
    let streams = projections::from_records(&records);
    let records: Vec<Recorded> = records.into_iter().filter(|r| r.envelope.stream == game).collect();
    if records.is_empty() {
        return Err(CliError::Refused(format!("NOT_FOUND: there is no stream {game}")));
    }
    Ok(Loaded { game, records, streams })
}

fn show(cli: &Cli, point: &AuditPoint) {
    if cli.json {
        say!("{}", point.to_json_string());
    } else {
        say!("{}", point.to_string().trim_end());
    }
}

fn audit_error(e: audit::AuditError) -> CliError {
    CliError::Refused(e.to_string())
}

pub async fn run(cli: &Cli, args: &AuditArgs) -> Result<(), CliError> {
    let loaded = load(cli, args.game.clone(), args.file.as_deref()).await?;
    let (ruleset, ms_per_side) = projections::game_settings(&loaded.streams, &loaded.game);
    if args.report {
        let seats = projections::game_seats(&loaded.streams, &loaded.game);
        let text =
            audit::report(&loaded.game, &loaded.records, seats.as_ref(), ruleset, ms_per_side).map_err(audit_error)?;
        say!("{}", text.trim_end());
        if args.file.is_none() {
            if let Some(proof) = super::proof::report_section(cli, &loaded.game, &loaded.records).await? {
                say!("\n{}", proof.trim_end());
            }
        }
        return Ok(());
    }
    if args.timeline {
        for entry in audit::timeline(&loaded.records) {
            say!("{entry}");
        }
        return Ok(());
    }
    let mut auditor = Auditor::from_records(ruleset, &loaded.records, ms_per_side).map_err(audit_error)?;
    if let Some([a, b]) = args.diff.as_deref() {
        let (a, b) = (auditor.goto(*a).map_err(audit_error)?, auditor.goto(*b).map_err(audit_error)?);
        let changes = audit::diff(&a, &b);
        if cli.json {
            let list: Vec<_> = changes
                .iter()
                .map(|c| serde_json::json!({"path": c.path, "before": c.before, "after": c.after}))
                .collect();
            say!("{}", serde_json::Value::Array(list));
        } else if changes.is_empty() {
            say!("no difference between event {} and event {}", a.seq, b.seq);
        } else {
            for change in changes {
                say!("{change}");
            }
        }
        return Ok(());
    }
    let start = match (args.at, args.at_ms) {
        (_, Some(at_ms)) => auditor.goto_time(at_ms),
        (Some(seq), None) => auditor.goto(seq),
        (None, None) => auditor.goto(if args.step { 1 } else { auditor.len() }),
    }
    .map_err(audit_error)?;
    show(cli, &start);
    if args.step {
        step(cli, &mut auditor)?;
    }
    Ok(())
}

/// Reads commands from stdin: Enter or `n` next, `p` back, `g SEQ` go to, `t MS` go to a table
/// time, `q` quit.
fn step(cli: &Cli, auditor: &mut Auditor) -> Result<(), CliError> {
    eprintln!("step: Enter/n next · p back · g SEQ go to · t MS table time · q quit");
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let mut words = line.split_whitespace();
        let moved = match (words.next(), words.next().map(str::parse::<u64>)) {
            (None | Some("n"), _) => auditor.forward(),
            (Some("p"), _) => auditor.back(),
            (Some("g"), Some(Ok(seq))) => auditor.goto(seq).map(Some),
            (Some("t"), Some(Ok(ms))) => auditor.goto_time(ms).map(Some),
            (Some("q"), _) => return Ok(()),
            _ => {
                eprintln!("?  Enter/n next · p back · g SEQ · t MS · q");
                continue;
            }
        };
        match moved {
            Ok(Some(point)) => show(cli, &point),
            Ok(None) => eprintln!("(no event that way: at event {} of {})", auditor.position(), auditor.len()),
            Err(e) => eprintln!("{e}"),
        }
    }
    Ok(())
}
