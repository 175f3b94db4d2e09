//! `ledgerctl verify`, `export` and `digest`: prove the record was not altered.
//!
//! `verify --data-dir` recomputes every chain from the bytes of a stopped daemon's sled log (or
//! a copy), verifying a temporary copy of it so that the evidence is never opened for writing,
//! and the season's read models saved there against a full replay of that log;
//! `verify --file` does the same for an export. `digest` prints the short chain head
//! a jury writes on the paper game report.

use super::common::{from_status, read_input, CliError};
use super::connection::{connect, Records};
use super::output::json_line;
use super::{values, Cli};
use ledger::envelope::{short_digest, verify_chain, ChainBreak};
use ledger::{Hash, Recorded, StreamId};
use ledger_house::readmodels::Kept;
use ledger_proto::v1 as pb;
use ledger_store::sled::SledStorage;
use ledger_store::Log;
use serde_json::json;
use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// A sled data directory (the daemon must be stopped; or verify a copy).
    #[arg(long, conflicts_with = "file")]
    data_dir: Option<PathBuf>,
    /// An export (JSON Lines with envelopes); `-` for stdin.
    #[arg(long)]
    file: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    #[arg(long, value_parser = values::stream)]
    stream: Option<StreamId>,
}

#[derive(Debug, clap::Args)]
pub struct DigestArgs {
    #[arg(long, value_parser = values::stream)]
    stream: StreamId,
}

struct Verdict {
    stream: String,
    verified: u64,
    head: Option<Hash>,
    broken: Option<ChainBreak>,
}

pub fn verify(cli: &Cli, args: &VerifyArgs) -> Result<(), CliError> {
    let json = cli.json;
    let (verdicts, models) = match &args.data_dir {
        Some(dir) => verify_data_dir(dir)?,
        None => (verify_export(&read_input(args.file.as_deref())?)?, None),
    };
    let mut n_broken = 0;
    for v in &verdicts {
        if json {
            say!(
                "{}",
                json!({
                    "stream": v.stream,
                    "verified": v.verified,
                    "ok": v.broken.is_none(),
                    "digest": v.head.as_ref().map(short_digest),
                    "head_hash": v.head.as_ref().map(hex::encode),
                    "broken_at_seq": v.broken.as_ref().map(|b| b.seq),
                    "reason": v.broken.as_ref().map(|b| b.reason.clone()),
                })
            );
        } else {
            match (&v.broken, &v.head) {
                (None, Some(head)) => {
                    say!("{:<40} {:>6} events  ok      digest {}", v.stream, v.verified, short_digest(head))
                }
                (Some(b), _) => say!(
                    "{:<40} BROKEN at seq {}: {} ({} events verified before it)",
                    v.stream,
                    b.seq,
                    b.reason,
                    v.verified
                ),
                (None, None) => say!("{:<40} empty", v.stream),
            }
        }
        n_broken += usize::from(v.broken.is_some());
    }
    if n_broken > 0 {
        return Err(CliError::Refused(format!("{n_broken} of {} streams do not verify", verdicts.len())));
    }
    if let Some((position, differences)) = models {
        if json {
            say!(
                "{}",
                json!({"read_models": {"position": position, "ok": differences.is_empty(), "differences": differences}})
            );
        } else if differences.is_empty() {
            eprintln!("the read models (as of position {position}) equal a full replay");
        }
        if !differences.is_empty() {
            return Err(CliError::Refused(format!(
                "the read models (as of position {position}) differ from a full replay: {}",
                differences.join("; ")
            )));
        }
    }
    if !json {
        eprintln!("all {} streams verify", verdicts.len());
    }
    Ok(())
}

/// Verifies a sled data directory without ever opening it for writing. sled writes into the
/// directory it opens (its recovery writes a snapshot file, and it opens `db` read-write), so
/// the evidence is copied into a fresh temporary directory (under `TMPDIR`) and the copy is
/// verified, then removed. A read-only copy of the evidence (or read-only media) works too.
///
/// The copy is taken under a shared lock on sled's `db` file: a ledgerd running on the
/// directory holds it exclusively and is reported, and none can start halfway through the copy.
/// The read models' position and the differences found, when a data directory holds them.
type ModelsChecked = Option<(u64, Vec<String>)>;

fn verify_data_dir(dir: &Path) -> Result<(Vec<Verdict>, ModelsChecked), CliError> {
    if !dir.join("db").is_file() || !dir.join("conf").is_file() {
        return Err(CliError::Failed(format!("{} holds no ledger (no sled `db` and `conf` files)", dir.display())));
    }
    let failed = |what: &str, e: &dyn std::fmt::Display| CliError::Failed(format!("{what}: {e}"));
    let db = File::open(dir.join("db")).map_err(|e| failed(&format!("cannot read {}", dir.display()), &e))?;
    fs2::FileExt::try_lock_shared(&db).map_err(|_| {
        CliError::Failed(format!(
            "{} is locked: is ledgerd running on it? verify a stopped daemon's data or a copy of it",
            dir.display()
        ))
    })?;
    let copy = tempfile::Builder::new()
        .prefix("ledgerctl-verify-")
        .tempdir()
        .map_err(|e| failed("cannot make a temporary directory for the copy", &e))?;
    copy_tree(dir, copy.path()).map_err(|e| failed(&format!("cannot copy {}", dir.display()), &e))?;
    drop(db); // the copy is complete: the lock goes with the file
    let storage = SledStorage::open_existing(copy.path()).map_err(|e| CliError::Failed(e.to_string()))?;
    let found = storage.verify().map_err(|e| CliError::Failed(e.to_string()))?;
    drop(storage); // sled lets go of the copy before the copy is removed
    let verdicts: Vec<Verdict> = found
        .into_iter()
        .map(|v| Verdict { stream: v.stream.to_string(), verified: v.verified, head: v.head, broken: v.broken })
        .collect();
    // A log that does not verify cannot be replayed whole: the damage is the answer (exit 1),
    // and the read models are checked once it is repaired.
    if verdicts.iter().any(|v| v.broken.is_some()) {
        return Ok((verdicts, None));
    }
    Ok((verdicts, check_read_models(copy.path())?))
}

/// The season's read models ledgerd saved (`read-models.bin`), if any, against a full replay of
/// the log up to their position: their position and the differences found.
fn check_read_models(copy: &Path) -> Result<ModelsChecked, CliError> {
    let failed = |e: &dyn std::fmt::Display| CliError::Failed(format!("cannot check the read models: {e}"));
    let bytes = match std::fs::read(copy.join("read-models.bin")) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(failed(&error)),
    };
    let kept = match Kept::decode(&bytes) {
        Ok(kept) => kept,
        Err(why) => return Ok(Some((0, vec![why]))),
    };
    let log = std::sync::Arc::new(Log::open_sled(copy).map_err(|e| failed(&e))?);
    let differences = ledger_house::facade::check_read_models(&kept, &log).map_err(|e| failed(&e));
    log.close();
    Ok(Some((kept.position, differences?)))
}

/// Copies the directory tree `from` into the existing directory `to`: directories and regular
/// files only (sled makes nothing else), the copies writable by their owner alone.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            std::fs::create_dir(&target)?;
            copy_tree(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)?;
            // `copy` keeps the source's permissions; sled opens its files read-write.
            #[cfg(unix)]
            std::fs::set_permissions(&target, std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
        } else {
            return Err(std::io::Error::other(format!("{} is neither a file nor a directory", entry.path().display())));
        }
    }
    Ok(())
}

/// Groups export lines by stream, in file order, and verifies each chain.
fn verify_export(text: &str) -> Result<Vec<Verdict>, CliError> {
    let mut by_stream: BTreeMap<String, Vec<Recorded>> = BTreeMap::new();
    for (idx, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let value: serde_json::Value =
            serde_json::from_str(line).map_err(|e| CliError::Refused(format!("line {}: not JSON: {e}", idx + 1)))?;
        let record = Recorded::from_json(&value).map_err(|e| CliError::Refused(format!("line {}: {e}", idx + 1)))?;
        by_stream.entry(record.envelope.stream.to_string()).or_default().push(record);
    }
    Ok(by_stream
        .into_iter()
        .map(|(stream, records)| match verify_chain(&records) {
            Ok(head) => Verdict { stream, verified: records.len() as u64, head, broken: None },
            Err(b) => Verdict { stream, verified: b.seq.saturating_sub(1), head: None, broken: Some(b) },
        })
        .collect())
}

/// Every event of the log in global position order (or of one stream), as JSON Lines with
/// envelopes and hashes: `import` can replay it, `verify --file` can check it.
pub async fn export(cli: &Cli, args: &ExportArgs) -> Result<(), CliError> {
    let mut client = connect(cli).await?;
    let stream = args.stream.as_ref().map(StreamId::to_string).unwrap_or_default();
    let request = pb::ReadRequest { stream, from_seq: 1, limit: None, ..Default::default() };
    let mut read = Records::start(&mut client, request).await.map_err(|s| from_status(&s))?;
    while let Some(record) = read.next().await {
        say!("{}", json_line(&record.map_err(CliError::from)?.to_json()));
    }
    Ok(())
}

/// The chain head of a stream as the server holds it.
pub async fn digest(cli: &Cli, args: &DigestArgs) -> Result<(), CliError> {
    let stream = args.stream.to_string();
    let mut client = connect(cli).await?;
    let listed = client
        .list_streams(pb::ListStreamsRequest { prefix: stream.clone() })
        .await
        .map_err(|s| from_status(&s))?
        .into_inner();
    let summary = listed
        .streams
        .iter()
        .find(|s| s.stream == stream)
        .ok_or_else(|| CliError::Refused(format!("NOT_FOUND: there is no stream {stream}")))?;
    let head: Hash =
        summary.head_hash.clone().try_into().map_err(|_| CliError::Failed("malformed head hash".into()))?;
    if cli.json {
        say!(
            "{}",
            json!({"stream": stream, "version": summary.version, "digest": short_digest(&head), "head_hash": hex::encode(head)})
        );
    } else {
        say!("{stream} after event {}: digest {}", summary.version, short_digest(&head));
    }
    Ok(())
}
