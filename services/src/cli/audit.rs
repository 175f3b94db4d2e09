//! `ledgerctl audit`: the jury replays a disputed game to any point — by event or by table
//! time — steps through it, compares two points, lists every event with the voids struck
//! through, and writes the report to hand over. Online from ledgerd, or offline from an export.

use super::connection::read_stream;
use super::{connect, from_status, read_input, Cli, CliError};
use crate::projections::{self, Streams};
use ledger::{Recorded, StreamId, StreamKind};
use ledger_proto::v1 as pb;
use replay::audit::{self, AuditPoint, Auditor};
use std::io::BufRead;
use std::path::Path;

/// What the jury asked for.
pub struct AuditArgs<'a> {
    pub game: &'a str,
    pub file: Option<&'a Path>,
    pub at: Option<u64>,
    pub at_ms: Option<u64>,
    pub diff: Option<(u64, u64)>,
    pub step: bool,
    pub timeline: bool,
    pub report: bool,
}

/// The game's records and the tournaments around it.
struct Loaded {
    game: StreamId,
    records: Vec<Recorded>,
    streams: Streams,
}

async fn load(cli: &Cli, game: StreamId, file: Option<&Path>) -> Result<Loaded, CliError> {
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
                records.extend(read_stream(&mut client, &summary.stream).await.map_err(|s| from_status(&s))?);
            }
            records.extend(read_stream(&mut client, &game.to_string()).await.map_err(|s| from_status(&s))?);
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

pub async fn run(cli: &Cli, args: AuditArgs<'_>) -> Result<(), CliError> {
    let name = if args.game.contains('/') { args.game.to_owned() } else { format!("game/{}", args.game) };
    let game = StreamId::parse(&name).map_err(|r| CliError::Failed(r.message))?;
    if game.kind() != StreamKind::Game {
        return Err(CliError::Failed(format!("{game} is not a game")));
    }
    let loaded = load(cli, game, args.file).await?;
    let (ruleset, ms_per_side) = projections::game_settings(&loaded.streams, &loaded.game);
    if args.report {
        let seats = projections::game_seats(&loaded.streams, &loaded.game);
        let text =
            audit::report(&loaded.game, &loaded.records, seats.as_ref(), ruleset, ms_per_side).map_err(audit_error)?;
        say!("{}", text.trim_end());
        return Ok(());
    }
    if args.timeline {
        for entry in audit::timeline(&loaded.records) {
            say!("{entry}");
        }
        return Ok(());
    }
    let mut auditor = Auditor::from_records(ruleset, &loaded.records, ms_per_side).map_err(audit_error)?;
    if let Some((a, b)) = args.diff {
        let (a, b) = (auditor.goto(a).map_err(audit_error)?, auditor.goto(b).map_err(audit_error)?);
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
