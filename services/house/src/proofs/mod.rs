//! The proofs' formats both sides of ledgerd read (issue 26, docs/PROOFS.md): the bundle
//! `ledgerctl prove` writes and `verify-proof` checks ([`bundle`]), the signing key file, and
//! how the web's board asks the daemon's proofs for the latest checkpoint ([`LatestCheckpoint`]).
//! The tree, the checkpoints and their keeper are ledgerd's (`ledger_daemon::proofs`).

pub mod bundle;

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

/// The latest signed checkpoint, as the board shows it (ledgerd's proofs implement it).
pub trait LatestCheckpoint: Send + Sync {
    /// The latest checkpoint's signed note with the cosignatures witnesses handed back, and the
    /// witnesses' names (none when none did); `None` before the first checkpoint.
    fn latest_note(&self) -> Option<(String, Vec<String>)>;
}
