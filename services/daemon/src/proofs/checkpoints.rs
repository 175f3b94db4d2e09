//! The checkpoints this ledgerd signed, oldest first, in `checkpoints-<key ID>.jsonl` beside the
//! tree: one JSON line each (the signed note as sent, when it was signed, why), appended and
//! synced before the checkpoint is served or published. One file per key, so a new key never
//! serves notes it cannot vouch for. Read back strictly: each note must open with the key.

use ledger_proof::{Checkpoint, VerifierKey};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A checkpoint as signed and kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedCheckpoint {
    pub checkpoint: Checkpoint,
    /// The signed note: the checkpoint's text, a blank line, the signature lines.
    pub note: String,
    pub signed_at_ms: u64,
    /// Why it was signed: `interval`, `round 2 of tournament/open26`, `start`.
    pub reason: String,
}

#[derive(Serialize, Deserialize)]
struct Line {
    note: String,
    signed_at_ms: u64,
    reason: String,
}

/// The file and what it holds.
#[derive(Debug)]
pub struct Checkpoints {
    path: PathBuf,
    list: Vec<Arc<SignedCheckpoint>>,
}

impl Checkpoints {
    /// Reads the file of `key` in `dir` (none yet: empty). A torn last line (a crash while it was
    /// written, before it was served) is cut off.
    ///
    /// # Errors
    /// The file cannot be read, or a line is not a checkpoint signed by `key`, or sizes go back.
    pub fn open(dir: &Path, key: &VerifierKey) -> io::Result<Checkpoints> {
        let path = dir.join(format!("checkpoints-{:08x}.jsonl", key.id()));
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e),
        };
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        if whole < text.len() {
            tracing::warn!(file = %path.display(), "a torn last checkpoint line is cut off");
            OpenOptions::new().write(true).open(&path)?.set_len(whole as u64)?;
        }
        let mut list: Vec<Arc<SignedCheckpoint>> = Vec::new();
        for (n, line) in text[..whole].lines().enumerate() {
            let bad = |why: String| io::Error::other(format!("{} line {}: {why}", path.display(), n + 1));
            let line: Line = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
            let opened = Checkpoint::open(&line.note, key, &[]).map_err(|e| bad(e.to_string()))?;
            if list.last().is_some_and(|last| last.checkpoint.size > opened.checkpoint.size) {
                return Err(bad("a checkpoint smaller than the one before".into()));
            }
            list.push(Arc::new(SignedCheckpoint {
                checkpoint: opened.checkpoint,
                note: line.note,
                signed_at_ms: line.signed_at_ms,
                reason: line.reason,
            }));
        }
        Ok(Checkpoints { path, list })
    }

    /// Appends a checkpoint and syncs it.
    ///
    /// # Errors
    /// The write or the sync failed (the checkpoint must then not be served).
    pub fn push(&mut self, signed: SignedCheckpoint) -> io::Result<Arc<SignedCheckpoint>> {
        let line = Line { note: signed.note.clone(), signed_at_ms: signed.signed_at_ms, reason: signed.reason.clone() };
        let mut text = serde_json::to_string(&line).map_err(io::Error::other)?;
        text.push('\n');
        let created = !self.path.exists();
        let mut file = OpenOptions::new().create(true).append(true).open(&self.path)?;
        file.write_all(text.as_bytes())?;
        file.sync_data()?;
        if created {
            File::open(self.path.parent().unwrap_or(Path::new(".")))?.sync_all()?;
        }
        let signed = Arc::new(signed);
        self.list.push(Arc::clone(&signed));
        Ok(signed)
    }

    pub fn latest(&self) -> Option<Arc<SignedCheckpoint>> {
        self.list.last().cloned()
    }

    /// The first checkpoint whose tree holds at least `size` records.
    pub fn at_least(&self, size: u64) -> Option<Arc<SignedCheckpoint>> {
        let first = self.list.partition_point(|c| c.checkpoint.size < size);
        self.list.get(first).cloned()
    }

    /// The first checkpoint whose tree holds at least `size` records and that commits to the
    /// streams' heads (every one signed since issue 43).
    pub fn at_least_with_heads(&self, size: u64) -> Option<Arc<SignedCheckpoint>> {
        let first = self.list.partition_point(|c| c.checkpoint.size < size);
        self.list[first..].iter().find(|c| matches!(ledger_proof::HeadsRoot::of(&c.checkpoint), Ok(Some(_)))).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger_proof::SigningKey;

    #[test]
    fn checkpoints_are_read_back_and_found_by_size() {
        let dir = tempfile::tempdir().unwrap();
        let key = SigningKey::from_seed("ledger.test/a", &[3; 32]).unwrap();
        let mut store = Checkpoints::open(dir.path(), &key.verifier()).unwrap();
        for size in [3, 9] {
            let checkpoint = Checkpoint::new("ledger.test/a", size, [u8::try_from(size).unwrap(); 32]);
            let note = checkpoint.sign(&key).unwrap().to_string();
            store.push(SignedCheckpoint { checkpoint, note, signed_at_ms: size, reason: "interval".into() }).unwrap();
        }
        // A torn line after them is cut off on open.
        OpenOptions::new().append(true).open(&store.path).unwrap().write_all(b"{\"note\":").unwrap();
        let again = Checkpoints::open(dir.path(), &key.verifier()).unwrap();
        assert_eq!(again.latest().unwrap().checkpoint.size, 9);
        assert_eq!(again.at_least(4).unwrap().checkpoint.size, 9);
        assert_eq!(again.at_least(3).unwrap().checkpoint.size, 3);
        assert!(again.at_least(10).is_none());
        // Another key's file is another file; a note not signed by the key is refused.
        let other = SigningKey::from_seed("ledger.test/a", &[4; 32]).unwrap();
        assert!(Checkpoints::open(dir.path(), &other.verifier()).unwrap().latest().is_none());
        let forged = std::fs::read_to_string(&again.path).unwrap().replace("ledger.test/a\\n9", "ledger.test/a\\n8");
        std::fs::write(&again.path, forged).unwrap();
        assert!(Checkpoints::open(dir.path(), &key.verifier()).is_err());
    }
}
