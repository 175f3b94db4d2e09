//! The proofs' formats both sides of ledgerd read (issue 26, docs/PROOFS.md): the bundle
//! `ledgerctl prove` writes and `verify-proof` checks ([`bundle`]), the signing key file, and
//! how the web's board asks the daemon's proofs for the latest checkpoint ([`LatestCheckpoint`]).
//! The tree, the checkpoints and their keeper are ledgerd's (`ledger_daemon::proofs`).

pub mod bundle;

use bundle::Bundle;
use ledger::{Recorded, StreamId};
use ledger_proof::SigningKey;
use std::path::Path;

/// Reads a signing key file (`ledgerctl new-signing-key`: Go's `PRIVATE+KEY+…` form, one line).
///
/// # Errors
/// The file cannot be read or holds no signing key; the message names the file.
pub fn read_signing_key(path: &Path) -> Result<SigningKey, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read the signing key {}: {e}", path.display()))?;
    SigningKey::parse(text.trim()).map_err(|e| format!("{} holds no signing key: {e}", path.display()))
}

/// The signed checkpoints as the pages show them: the latest on the board, a game's proof on the
/// jury's page (ledgerd's proofs implement it).
pub trait LatestCheckpoint: Send + Sync {
    /// The latest checkpoint's signed note with the cosignatures witnesses handed back, and the
    /// witnesses' names (none when none did); `None` before the first checkpoint.
    fn latest_note(&self) -> Option<(String, Vec<String>)>;

    /// A stream's `records` (all of them, in order) each with its inclusion proof, and the
    /// stream's head proved in the heads map, against the first checkpoint that holds the last
    /// of them and commits to the heads: the file `ledgerctl prove` writes against that
    /// checkpoint, which `verify-proof --whole` accepts. `None` before such a checkpoint (or
    /// when a proof cannot be read, which ledgerd logs).
    fn whole_proof(&self, records: &[Recorded]) -> Option<GameProof>;
}

/// A stream's events proved in a signed checkpoint: all of them with its head (the jury's
/// download and report, `ledgerctl audit --report`, the file of `ledgerctl prove`).
pub struct GameProof {
    pub bundle: Bundle,
    /// The events the checkpoint's tree holds.
    pub tree_size: u64,
    /// Why the checkpoint was signed (`interval`, `round 2 of tournament/open26`, `start`).
    pub reason: String,
}

impl GameProof {
    /// The proof as the jury's Markdown report's last section: a sentence, and the proof file to
    /// save and check offline with `ledgerctl verify-proof`.
    ///
    /// # Errors
    /// The bundle cannot be written as JSON (it always can).
    pub fn report_section(&self, stream: &StreamId, head: &Recorded) -> Result<String, serde_json::Error> {
        let json = serde_json::to_string_pretty(&self.bundle)?;
        let (what, check) = if self.bundle.heads.is_empty() {
            (
                format!(
                    "{stream}'s events 1 to {} (chain head {}) are in the ledger's checkpoint of {} events ({}); the \
                     checkpoint does not commit to the streams' heads, so the file cannot show that no event came after",
                    head.envelope.seq,
                    ledger::envelope::short_digest(&head.envelope.hash),
                    self.tree_size,
                    self.reason,
                ),
                "`ledgerctl verify-proof proof.json --key <the ledger's public key>`",
            )
        } else {
            (
                format!(
                    "Every event of {stream}, 1 to {} (chain head {}), is in the ledger's checkpoint of {} events ({}), \
                     which commits to event {0} as the game's last: the file proves the game whole, as of that checkpoint",
                    head.envelope.seq,
                    ledger::envelope::short_digest(&head.envelope.hash),
                    self.tree_size,
                    self.reason,
                ),
                "`ledgerctl verify-proof --whole proof.json --key <the ledger's public key>`",
            )
        };
        Ok(format!(
            "## In the ledger's signed log\n\n{what}. Save the block below as `proof.json` and check it offline with \
             {check}.\n\n```json\n{json}\n```\n"
        ))
    }
}
