//! C2SP `tlog-checkpoint` (c2sp.org/tlog-checkpoint): the note text `<origin>\n<tree size>\n
//! <base64 root>\n` and optional extension lines, signed by the log as a signed note and cosigned
//! by witnesses.
//!
//! Why this format: a player, a witness or any C2SP tool reads the same three lines; the tree size
//! and root pin the whole log, and consistency proofs between two checkpoints show that the later
//! one extends the earlier.

use crate::hash::Hash;
use crate::note::{Note, NoteError, SigningKey, VerifierKey};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use thiserror::Error;

/// A log's tree head: who (origin), how many leaves, which root; extension lines are opaque.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    pub origin: String,
    pub size: u64,
    pub root: Hash,
    pub extensions: Vec<String>,
}

/// Why a checkpoint was refused.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CheckpointError {
    #[error("malformed checkpoint: {0}")]
    Malformed(&'static str),
    #[error(transparent)]
    Note(#[from] NoteError),
    #[error("the checkpoint is not signed by the log's key {0}")]
    NotSignedByLog(String),
    #[error("the checkpoint's origin {origin:?} is not the log's key name {key:?}")]
    OriginMismatch { origin: String, key: String },
}

/// A checkpoint whose log signature verified, and the witnesses whose cosignatures verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opened {
    pub checkpoint: Checkpoint,
    pub note: Note,
    pub cosigned_by: Vec<VerifierKey>,
}

impl Checkpoint {
    /// A checkpoint without extension lines.
    pub fn new(origin: impl Into<String>, size: u64, root: Hash) -> Self {
        Self { origin: origin.into(), size, root, extensions: Vec::new() }
    }

    /// The note text: origin, size, root and extension lines, each ending in a newline.
    pub fn text(&self) -> Result<String, CheckpointError> {
        one_line(&self.origin)?;
        self.extensions.iter().try_for_each(|line| one_line(line))?;
        let mut text = format!("{}\n{}\n{}\n", self.origin, self.size, STANDARD.encode(self.root));
        for line in &self.extensions {
            text.push_str(line);
            text.push('\n');
        }
        Ok(text)
    }

    /// Reads a note text as a checkpoint: at least three non-empty lines, a size in decimal
    /// without leading zeros, a root of 32 bytes in canonical base64.
    pub fn parse_text(text: &str) -> Result<Self, CheckpointError> {
        let body = text.strip_suffix('\n').ok_or(CheckpointError::Malformed("the text does not end in a newline"))?;
        let mut lines = body.split('\n');
        let (Some(origin), Some(size), Some(root)) = (lines.next(), lines.next(), lines.next()) else {
            return Err(CheckpointError::Malformed("fewer than three lines"));
        };
        let extensions: Vec<String> = lines.map(str::to_owned).collect();
        if origin.is_empty() || extensions.iter().any(String::is_empty) {
            return Err(CheckpointError::Malformed("an empty line"));
        }
        let canonical =
            !size.is_empty() && size.bytes().all(|b| b.is_ascii_digit()) && (size == "0" || !size.starts_with('0'));
        if !canonical {
            return Err(CheckpointError::Malformed("the tree size is not a decimal number without leading zeros"));
        }
        let size = size.parse().map_err(|_| CheckpointError::Malformed("the tree size is too large"))?;
        let bytes = STANDARD.decode(root).map_err(|_| CheckpointError::Malformed("the root hash is not base64"))?;
        let root: Hash = bytes.try_into().map_err(|_| CheckpointError::Malformed("the root hash is not 32 bytes"))?;
        Ok(Self { origin: origin.to_owned(), size, root, extensions })
    }

    /// The checkpoint as a note signed by the log's `key`. The key's name must be the origin (the
    /// spec's SHOULD, made a rule here so that a key cannot vouch for another log's checkpoints).
    pub fn sign(&self, key: &SigningKey) -> Result<Note, CheckpointError> {
        if key.name() != self.origin {
            return Err(CheckpointError::OriginMismatch { origin: self.origin.clone(), key: key.name().to_owned() });
        }
        let mut note = Note::new(self.text()?)?;
        note.sign(key);
        Ok(note)
    }

    /// Reads a signed checkpoint, which the `log` key must have signed, and collects the
    /// cosignatures of the `witnesses` it knows. Unknown signatures are ignored; a failing
    /// signature of a known key refuses the whole note.
    pub fn open(signed: &str, log: &VerifierKey, witnesses: &[VerifierKey]) -> Result<Opened, CheckpointError> {
        let note = Note::parse(signed)?;
        let known: Vec<VerifierKey> = std::iter::once(log.clone()).chain(witnesses.iter().cloned()).collect();
        let verified = note.verify(&known).map_err(|e| match e {
            NoteError::NoKnownSignature => CheckpointError::NotSignedByLog(log.to_string()),
            other => CheckpointError::Note(other),
        })?;
        let same = |a: &VerifierKey, b: &VerifierKey| a.name() == b.name() && a.id() == b.id();
        if !verified.iter().any(|k| same(k, log)) {
            return Err(CheckpointError::NotSignedByLog(log.to_string()));
        }
        let checkpoint = Self::parse_text(note.text())?;
        if checkpoint.origin != log.name() {
            return Err(CheckpointError::OriginMismatch { origin: checkpoint.origin, key: log.name().to_owned() });
        }
        let cosigned_by = verified.into_iter().filter(|k| !same(k, log)).cloned().collect();
        Ok(Opened { checkpoint, note, cosigned_by })
    }
}

fn one_line(line: &str) -> Result<(), CheckpointError> {
    if line.is_empty() || line.contains('\n') {
        return Err(CheckpointError::Malformed("an origin or extension line is empty or holds a newline"));
    }
    Ok(())
}
