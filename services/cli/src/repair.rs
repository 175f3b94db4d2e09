//! `ledgerctl repair`: takes the damaged records of a stopped daemon's log back from a copy of
//! the log, and says what it did in a report beside it.
//!
//! A record from the copy is written only when it is exactly the one that was lost (its place,
//! its chain hashes and its checksum must match: `ledger_store::sled` checks them), so a copy
//! can be trusted no further than the log's own hashes. Copies: the JetStream stream ledgerd's
//! NATS fan-out fills (`--from-nats`), an export (`--from-export`), or another ledgerd serving
//! the same log (`--from-ledger`, at `--server`). Every repair is appended to `repairs.jsonl` in
//! the data directory, so the jury sees which events were taken back, from where, and when.

use super::common::{from_status, CliError};
use super::connection::{connect, Records};
use super::Cli;
use ledger::Recorded;
use ledger_proto::v1 as pb;
use ledger_store::sled::{rebuild_index, RepairReport, SledStorage};
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The report every repair appends to, in the data directory.
pub const REPORT_FILE: &str = "repairs.jsonl";

#[derive(Debug, clap::Args)]
pub struct RepairArgs {
    /// The stopped daemon's data directory (sled backend).
    #[arg(long)]
    data_dir: PathBuf,
    /// A NATS server whose JetStream holds ledgerd's fan-out stream (its `--nats-url`).
    #[arg(long, group = "copy")]
    from_nats: Option<String>,
    /// The fan-out stream's name (ledgerd's `--nats-stream`).
    #[arg(long, default_value = "LEDGER", requires = "from_nats")]
    nats_stream: String,
    /// An export of the log (`ledgerctl export`, JSON Lines with envelopes).
    #[arg(long, group = "copy")]
    from_export: Option<PathBuf>,
    /// Another ledgerd serving the same log, at the global `--server`.
    #[arg(long, group = "copy")]
    from_ledger: bool,
    /// Also rebuild the index from the records file (sled's files are moved aside, never
    /// deleted): for an index that leads reads to the wrong records.
    #[arg(long)]
    reindex: bool,
}

pub async fn run(cli: &Cli, args: &RepairArgs) -> Result<(), CliError> {
    let dir = &args.data_dir;
    let failed = |e: &dyn std::fmt::Display| CliError::Failed(e.to_string());
    if args.reindex {
        let aside = rebuild_index(dir, "ledgerctl repair --reindex").map_err(|e| failed(&e))?;
        say!("the index was moved to {} and is rebuilt from the records file", aside.display());
    }
    let storage = SledStorage::open_existing(dir).map_err(|e| failed(&e))?;
    let damaged: BTreeSet<u64> =
        storage.damaged_records().map_err(|e| failed(&e))?.into_iter().map(|d| d.position).collect();
    if damaged.is_empty() {
        say!("no damaged record in {}", dir.display());
        return Ok(());
    }
    let (source, copy) = match (&args.from_nats, &args.from_export, args.from_ledger) {
        (Some(url), _, _) => {
            (format!("nats {url} stream {}", args.nats_stream), from_nats(url, &args.nats_stream, &damaged).await?)
        }
        (_, Some(file), _) => (format!("export {}", file.display()), from_export(file, &damaged)?),
        (_, _, true) => (format!("ledgerd {}", cli.server), from_ledger(cli, &damaged).await?),
        _ => {
            return Err(CliError::Refused(format!(
                "{} damaged records in {}: name a copy to take them from (--from-nats, --from-export or --from-ledger)",
                damaged.len(),
                dir.display()
            )))
        }
    };
    let report = storage.repair(&mut |position| Ok(copy.get(&position).cloned())).map_err(|e| failed(&e))?;
    drop(storage);
    write_report(dir, &source, &report).map_err(|e| failed(&format!("cannot write {REPORT_FILE}: {e}")))?;
    for r in &report.repaired {
        say!("repaired {} #{} (position {}) from the {source}", r.stream, r.seq, r.position);
    }
    for (damage, why) in &report.left {
        say!("left position {} as it is: {why}", damage.position);
    }
    if report.left.is_empty() {
        eprintln!("{} records repaired; the report is in {}", report.repaired.len(), dir.join(REPORT_FILE).display());
        Ok(())
    } else {
        Err(CliError::Refused(format!("{} damaged records could not be repaired from the {source}", report.left.len())))
    }
}

/// Appends one line for this repair to the report and makes it durable.
fn write_report(dir: &Path, source: &str, report: &RepairReport) -> std::io::Result<()> {
    let at_ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis());
    let line = json!({
        "repaired_at_ms": u64::try_from(at_ms).unwrap_or(u64::MAX),
        "from": source,
        "repaired": report.repaired.iter().map(|r| json!({
            "stream": r.stream.to_string(), "seq": r.seq, "position": r.position, "offset": r.offset,
        })).collect::<Vec<_>>(),
        "left": report.left.iter().map(|(d, why)| json!({
            "position": d.position, "offset": d.offset, "why": why,
        })).collect::<Vec<_>>(),
    });
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(dir.join(REPORT_FILE))?;
    writeln!(file, "{line}")?;
    file.sync_all()?;
    std::fs::File::open(dir)?.sync_all()
}

/// The records of an export at the wanted positions.
fn from_export(file: &Path, wanted: &BTreeSet<u64>) -> Result<BTreeMap<u64, Recorded>, CliError> {
    let text =
        std::fs::read_to_string(file).map_err(|e| CliError::Failed(format!("cannot read {}: {e}", file.display())))?;
    let mut found = BTreeMap::new();
    for (idx, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let value: serde_json::Value =
            serde_json::from_str(line).map_err(|e| CliError::Refused(format!("line {}: not JSON: {e}", idx + 1)))?;
        if value.get("position").and_then(serde_json::Value::as_u64).is_some_and(|p| wanted.contains(&p)) {
            let record =
                Recorded::from_json(&value).map_err(|e| CliError::Refused(format!("line {}: {e}", idx + 1)))?;
            found.insert(record.envelope.position, record);
        }
    }
    Ok(found)
}

/// The records another ledgerd serves at the wanted positions.
async fn from_ledger(cli: &Cli, wanted: &BTreeSet<u64>) -> Result<BTreeMap<u64, Recorded>, CliError> {
    let mut client = connect(cli).await?;
    let mut found = BTreeMap::new();
    for &position in wanted {
        let request =
            pb::ReadRequest { stream: String::new(), from_seq: position, limit: Some(1), ..Default::default() };
        let mut read = Records::start(&mut client, request).await.map_err(|s| from_status(&s))?;
        if let Some(record) = read.next().await {
            let record = record.map_err(CliError::from)?;
            found.insert(record.envelope.position, record);
        }
    }
    Ok(found)
}

/// The records ledgerd's fan-out published to JetStream at the wanted positions. The stream
/// holds the log in position order from its first event, so a message's stream sequence is
/// its ledger position; a stream that began later is searched by its `Ledger-Position` header.
async fn from_nats(url: &str, stream: &str, wanted: &BTreeSet<u64>) -> Result<BTreeMap<u64, Recorded>, CliError> {
    let failed = |e: &dyn std::fmt::Display| CliError::Failed(format!("NATS {url}: {e}"));
    let client = async_nats::connect(url).await.map_err(|e| failed(&e))?;
    let mut js_stream = async_nats::jetstream::new(client).get_stream(stream).await.map_err(|e| failed(&e))?;
    let last = js_stream.info().await.map_err(|e| failed(&e))?.state.last_sequence;
    let mut found = BTreeMap::new();
    for &position in wanted {
        if let Some(record) = nats_record(&js_stream, position, last).await.map_err(|e| failed(&e))? {
            found.insert(position, record);
        }
    }
    Ok(found)
}

/// The record at a ledger position in the fan-out stream: tried at the same sequence first,
/// then by bisection over the sequences (positions grow with them).
async fn nats_record(
    stream: &async_nats::jetstream::stream::Stream,
    position: u64,
    last: u64,
) -> Result<Option<Recorded>, String> {
    let at = |seq: u64| async move {
        let message = stream.get_raw_message(seq).await.map_err(|e| e.to_string())?;
        let payload: serde_json::Value = serde_json::from_slice(&message.payload).map_err(|e| e.to_string())?;
        Recorded::from_json(&payload).map_err(|e| format!("message {seq}: {e}"))
    };
    let (mut low, mut high) = (1u64, last);
    let mut guess = position.min(last);
    while low <= high && guess >= 1 {
        let record = at(guess).await?;
        match record.envelope.position.cmp(&position) {
            std::cmp::Ordering::Equal => return Ok(Some(record)),
            std::cmp::Ordering::Less => low = guess + 1,
            std::cmp::Ordering::Greater => high = guess - 1,
        }
        guess = low + (high.saturating_sub(low)) / 2;
    }
    Ok(None)
}
