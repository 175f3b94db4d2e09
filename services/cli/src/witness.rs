//! `ledgerctl witness`: follows a ledger's checkpoints over gRPC, checks that each one extends
//! the last one it saw (a consistency proof, verified to the last hash), cosigns it with the
//! witness's own key and prints the cosigned note. The last checkpoint seen is kept in a state
//! file, so a restarted witness still catches a log that was rewritten while it was away.
//!
//! Anything else is an alarm: an unsigned or badly signed checkpoint, a smaller tree, the same
//! size with another root, a proof that does not hold. The witness then says so on stderr
//! (`WITNESS ALARM: …`) and exits 1, and its state is left as it was, as evidence.

use super::common::{from_status, CliError};
use super::connection::{connect_proofs, Proofs};
use super::proof::verifier_key;
use super::Cli;
use ledger_house::proofs::read_signing_key;
use ledger_proof::{verify_consistency, Checkpoint, Hash, Note, Opened, SigningKey, VerifierKey};
use ledger_proto::v1 as pb;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct WitnessArgs {
    /// The ledgerd to follow (default: --server).
    #[arg(long)]
    url: Option<String>,
    /// The ledger's public key (or a file holding it).
    #[arg(long)]
    key: String,
    /// The witness's own signing key (`ledgerctl new-signing-key --name <witness name>`).
    #[arg(long)]
    witness_key: PathBuf,
    /// Where the last checkpoint seen is kept (default: `witness-state.json`).
    #[arg(long, default_value = "witness-state.json")]
    state: PathBuf,
    /// Seconds between two looks at the ledger.
    #[arg(long, default_value_t = 10)]
    interval: u64,
    /// Look once and exit (for cron or a script).
    #[arg(long)]
    once: bool,
    /// Hand each cosignature back to the ledger (its board shows it, if ledgerd was started
    /// with this witness's public key in --witness).
    #[arg(long)]
    publish: bool,
}

/// The last checkpoint the witness verified and cosigned.
#[derive(Debug, Serialize, Deserialize)]
struct State {
    /// The note as the ledger signed it.
    note: String,
}

/// Follows the ledger until an alarm (exit 1) or a failure to reach it for good.
pub async fn run(cli: &Cli, args: &WitnessArgs) -> Result<(), CliError> {
    let log_key = verifier_key(&args.key)?;
    let witness = read_signing_key(&args.witness_key).map_err(CliError::Failed)?;
    let mut proofs = connect_proofs(cli, args.url.as_deref()).await?;
    loop {
        look(&mut proofs, &log_key, &witness, &args.state, args.publish).await.inspect_err(|e| {
            if let CliError::Refused(why) = e {
                eprintln!("WITNESS ALARM: {why}");
            }
        })?;
        if args.once {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_secs(args.interval)).await;
    }
}

/// One look: the latest checkpoint, checked against the state, cosigned, printed, kept.
async fn look(
    proofs: &mut Proofs,
    log_key: &VerifierKey,
    witness: &SigningKey,
    state: &Path,
    publish: bool,
) -> Result<(), CliError> {
    let latest = proofs.get_checkpoint(pb::GetCheckpointRequest { at_least_size: 0 }).await;
    let latest = latest.map_err(|s| from_status(&s))?.into_inner();
    let new = Checkpoint::open(&latest.note, log_key, &[])
        .map_err(|e| CliError::Refused(format!("the ledger served a checkpoint its key did not sign: {e}")))?;
    let (size, root) = (new.checkpoint.size, new.checkpoint.root);
    if let Some(old) = read_state(state, log_key)? {
        let (old_size, old_root) = (old.checkpoint.size, old.checkpoint.root);
        if size < old_size {
            return Err(CliError::Refused(format!(
                "the log shrank: the ledger signed {size} events after {old_size} (a fork or a truncated log)"
            )));
        }
        let proof: Vec<Hash> = if size == old_size {
            Vec::new()
        } else {
            let asked = pb::ConsistencyProofRequest { old_size, new_size: size };
            let proof = proofs.get_consistency_proof(asked).await.map_err(|s| from_status(&s))?.into_inner();
            proof
                .hashes
                .into_iter()
                .map(Hash::try_from)
                .collect::<Result<_, _>>()
                .map_err(|_| CliError::Refused("the ledger sent a proof hash that is not 32 bytes".into()))?
        };
        verify_consistency(old_size, size, &old_root, &root, &proof).map_err(|why| {
            CliError::Refused(format!(
                "fork: the checkpoint of {size} events does not extend the one of {old_size} this witness cosigned ({why})"
            ))
        })?;
        if size == old_size {
            return Ok(());
        }
    }
    let mut note: Note = new.note.clone();
    note.sign(witness);
    say!("{note}");
    write_state(state, &State { note: latest.note })?;
    if publish {
        let handed = pb::AddCosignatureRequest { note: note.to_string() };
        // Not an alarm: the ledger keeping or refusing a cosignature says nothing of its log.
        let kept = proofs.add_cosignature(handed).await;
        kept.map_err(|s| CliError::Failed(format!("the ledger did not keep the cosignature: {}", from_status(&s))))?;
    }
    Ok(())
}

fn read_state(path: &Path, log_key: &VerifierKey) -> Result<Option<Opened>, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CliError::Failed(format!("cannot read the witness state {}: {e}", path.display()))),
    };
    let state: State = serde_json::from_str(&text)
        .map_err(|e| CliError::Failed(format!("the witness state {} is damaged: {e}", path.display())))?;
    let opened = Checkpoint::open(&state.note, log_key, &[]).map_err(|e| {
        CliError::Failed(format!("the witness state {} holds no checkpoint of this key: {e}", path.display()))
    })?;
    Ok(Some(opened))
}

/// Replaces the state file atomically (a temporary file, synced, renamed, the folder synced).
fn write_state(path: &Path, state: &State) -> Result<(), CliError> {
    let failed =
        |e: std::io::Error| CliError::Failed(format!("cannot write the witness state {}: {e}", path.display()));
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let temp = tempfile::NamedTempFile::new_in(dir).map_err(failed)?;
    let text = serde_json::to_string(state).map_err(|e| CliError::Failed(e.to_string()))?;
    std::fs::write(temp.path(), text).map_err(failed)?;
    temp.as_file().sync_all().map_err(failed)?;
    temp.persist(path).map_err(|e| failed(e.error))?;
    std::fs::File::open(dir).and_then(|d| d.sync_all()).map_err(failed)
}
