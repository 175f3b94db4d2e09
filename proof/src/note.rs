//! C2SP `signed-note` (c2sp.org/signed-note): a text ending in a newline, a blank line, then one
//! or more lines `— <key name> base64(key ID || signature)`, with Ed25519 keys (signature type
//! 0x01) and the verifier keys in the `<name>+<hex key ID>+base64(0x01 || public key)` form of
//! golang.org/x/mod/sumdb/note, whose published examples the tests reproduce byte for byte.
//!
//! Why notes: a checkpoint signed this way is checked by any C2SP tool (Go's `note`, witnesses,
//! Tessera), and further signatures (a witness's cosignature) are just more lines.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use ed25519_dalek::{Signer, SigningKey as DalekSigningKey, VerifyingKey};
use sha2::{Digest, Sha256};
use std::fmt;
use thiserror::Error;

/// The signature type byte of Ed25519 (signed-note, "Signature types").
const ED25519: u8 = 0x01;
/// The em dash and space that open a signature line.
const SIGNATURE_PREFIX: &str = "\u{2014} ";
/// The most signature lines a note may carry (the spec asks to accept at least 16; Go's
/// `note.Open` accepts 100).
pub const MAX_SIGNATURES: usize = 100;

/// Why a note, a key or a signature was refused.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum NoteError {
    #[error("malformed note: {0}")]
    Malformed(&'static str),
    #[error("malformed key: {0}")]
    MalformedKey(&'static str),
    #[error("invalid key name {0:?}: key names are non-empty, without spaces or '+'")]
    KeyName(String),
    #[error("the signature of the known key {name}+{id:08x} does not verify")]
    InvalidSignature { name: String, id: u32 },
    #[error("no signature of a known key")]
    NoKnownSignature,
}

/// One signature line: the key's name, its 32-bit ID and the signature bytes after the ID.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub name: String,
    pub key_id: u32,
    pub signature: Vec<u8>,
}

impl fmt::Display for Signature {
    /// The signature line without its newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut bytes = self.key_id.to_be_bytes().to_vec();
        bytes.extend_from_slice(&self.signature);
        write!(f, "{SIGNATURE_PREFIX}{} {}", self.name, STANDARD.encode(bytes))
    }
}

/// A note: its text (ending in a newline) and its signature lines, verified or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    text: String,
    signatures: Vec<Signature>,
}

impl Note {
    /// A note of `text`, not yet signed. The text must end in a newline and hold no control
    /// character other than newlines.
    pub fn new(text: impl Into<String>) -> Result<Self, NoteError> {
        let text = text.into();
        if !text.ends_with('\n') {
            return Err(NoteError::Malformed("the text does not end in a newline"));
        }
        no_control_characters(&text)?;
        Ok(Self { text, signatures: Vec::new() })
    }

    /// Reads a signed note's syntax; nothing is verified yet (see [`Note::verify`]).
    pub fn parse(note: &str) -> Result<Self, NoteError> {
        no_control_characters(note)?;
        let split = note.rfind("\n\n").ok_or(NoteError::Malformed("no blank line before the signatures"))?;
        let (text, lines) = (&note[..=split], &note[split + 2..]);
        let lines = lines.strip_suffix('\n').ok_or(NoteError::Malformed("the last signature line has no newline"))?;
        let mut signatures = Vec::new();
        for line in lines.split('\n') {
            if signatures.len() == MAX_SIGNATURES {
                return Err(NoteError::Malformed("too many signatures"));
            }
            signatures.push(parse_signature_line(line)?);
        }
        Ok(Self { text: text.to_owned(), signatures })
    }

    /// The signed text, final newline included.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Every signature line, known keys or not.
    pub fn signatures(&self) -> &[Signature] {
        &self.signatures
    }

    /// Signs the text with `key`, replacing an earlier signature of the same key: how the log
    /// signs and how a witness cosigns.
    pub fn sign(&mut self, key: &SigningKey) {
        self.signatures.retain(|s| !(s.name == key.name && s.key_id == key.id));
        self.signatures.push(Signature {
            name: key.name.clone(),
            key_id: key.id,
            signature: key.key.sign(self.text.as_bytes()).to_bytes().to_vec(),
        });
    }

    /// Verifies the signatures of the keys in `known` and returns those keys, each once, in the
    /// order of their lines. As the spec says: a signature of an unknown key (name and ID not both
    /// matching) is ignored; one of a known key that fails rejects the whole note; a note with no
    /// signature of a known key is rejected.
    pub fn verify<'k>(&self, known: &'k [VerifierKey]) -> Result<Vec<&'k VerifierKey>, NoteError> {
        let mut verified: Vec<&VerifierKey> = Vec::new();
        for signature in &self.signatures {
            let Some(key) = known.iter().find(|k| k.name == signature.name && k.id == signature.key_id) else {
                continue;
            };
            let invalid = || NoteError::InvalidSignature { name: key.name.clone(), id: key.id };
            let bytes: [u8; 64] = signature.signature.as_slice().try_into().map_err(|_| invalid())?;
            let ed = ed25519_dalek::Signature::from_bytes(&bytes);
            key.key.verify_strict(self.text.as_bytes(), &ed).map_err(|_| invalid())?;
            if !verified.iter().any(|k| k.name == key.name && k.id == key.id) {
                verified.push(key);
            }
        }
        if verified.is_empty() {
            return Err(NoteError::NoKnownSignature);
        }
        Ok(verified)
    }
}

impl fmt::Display for Note {
    /// The note as sent: text, blank line, one line per signature.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.text)?;
        for signature in &self.signatures {
            writeln!(f, "{signature}")?;
        }
        Ok(())
    }
}

fn no_control_characters(s: &str) -> Result<(), NoteError> {
    if s.chars().any(|c| c < ' ' && c != '\n') {
        return Err(NoteError::Malformed("a control character other than newline"));
    }
    Ok(())
}

fn parse_signature_line(line: &str) -> Result<Signature, NoteError> {
    let rest = line.strip_prefix(SIGNATURE_PREFIX).ok_or(NoteError::Malformed("a signature line without '— '"))?;
    let (name, encoded) = rest.split_once(' ').ok_or(NoteError::Malformed("a signature line without a signature"))?;
    check_name(name).map_err(|_| NoteError::Malformed("a signature line with an invalid key name"))?;
    let bytes = STANDARD.decode(encoded).map_err(|_| NoteError::Malformed("a signature that is not base64"))?;
    if bytes.len() <= 4 {
        return Err(NoteError::Malformed("a signature shorter than its key ID"));
    }
    let (id, signature) = bytes.split_at(4);
    Ok(Signature {
        name: name.to_owned(),
        key_id: u32::from_be_bytes(id.try_into().expect("four bytes")),
        signature: signature.to_vec(),
    })
}

/// Key names are non-empty, without Unicode spaces or '+' (signed-note, "Format").
fn check_name(name: &str) -> Result<(), NoteError> {
    if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c == '+' || c.is_control()) {
        return Err(NoteError::KeyName(name.to_owned()));
    }
    Ok(())
}

/// The key ID: the first four bytes, big-endian, of SHA-256(name || 0x0A || 0x01 || public key).
pub fn key_id(name: &str, public_key: &[u8; 32]) -> u32 {
    let mut hasher = Sha256::new();
    hasher.update(name.as_bytes());
    hasher.update([b'\n', ED25519]);
    hasher.update(public_key);
    let digest = hasher.finalize();
    u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]])
}

/// A public key that verifies notes: its name, ID and Ed25519 key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifierKey {
    name: String,
    id: u32,
    key: VerifyingKey,
}

impl VerifierKey {
    /// The verifier key of `name` and an Ed25519 public key.
    pub fn new(name: &str, public_key: &[u8; 32]) -> Result<Self, NoteError> {
        check_name(name)?;
        let key = VerifyingKey::from_bytes(public_key).map_err(|_| NoteError::MalformedKey("not an Ed25519 point"))?;
        Ok(Self { name: name.to_owned(), id: key_id(name, public_key), key })
    }

    /// Reads `<name>+<hex key ID>+<base64(0x01 || public key)>`; the ID must be the key's.
    pub fn parse(vkey: &str) -> Result<Self, NoteError> {
        // The base64 key may itself hold '+': only the first two split.
        let mut parts = vkey.splitn(3, '+');
        let (Some(name), Some(id), Some(key)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(NoteError::MalformedKey("a verifier key is <name>+<key ID>+<key>"));
        };
        let id = parse_id(id)?;
        let key = decode_typed_key(key)?;
        let parsed = Self::new(name, &key)?;
        if parsed.id != id {
            return Err(NoteError::MalformedKey("the key ID is not the key's"));
        }
        Ok(parsed)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn id(&self) -> u32 {
        self.id
    }

    /// The raw Ed25519 public key.
    pub fn public_key(&self) -> [u8; 32] {
        self.key.to_bytes()
    }
}

impl fmt::Display for VerifierKey {
    /// The `<name>+<key ID>+<key>` form, as [`VerifierKey::parse`] reads it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut typed = vec![ED25519];
        typed.extend_from_slice(self.key.as_bytes());
        write!(f, "{}+{:08x}+{}", self.name, self.id, STANDARD.encode(typed))
    }
}

/// A private key that signs notes. Its `Debug` shows the name and ID, never the key.
#[derive(Clone)]
pub struct SigningKey {
    name: String,
    id: u32,
    key: DalekSigningKey,
}

/// The prefix of the private key form of Go's `note.NewSigner`.
const PRIVATE_PREFIX: &str = "PRIVATE+KEY+";

impl SigningKey {
    /// The signing key of `name` from a 32-byte Ed25519 seed (drawn by the caller from the
    /// operating system's randomness: this crate draws none).
    pub fn from_seed(name: &str, seed: &[u8; 32]) -> Result<Self, NoteError> {
        check_name(name)?;
        let key = DalekSigningKey::from_bytes(seed);
        Ok(Self { name: name.to_owned(), id: key_id(name, key.verifying_key().as_bytes()), key })
    }

    /// Reads `PRIVATE+KEY+<name>+<hex key ID>+<base64(0x01 || seed)>` (Go's `note.NewSigner`
    /// form, the key file's content); the ID must be the key's.
    pub fn parse(skey: &str) -> Result<Self, NoteError> {
        let malformed = NoteError::MalformedKey("a signing key is PRIVATE+KEY+<name>+<key ID>+<key>");
        let rest = skey.strip_prefix(PRIVATE_PREFIX).ok_or(malformed.clone())?;
        let mut parts = rest.splitn(3, '+');
        let (Some(name), Some(id), Some(seed)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(malformed);
        };
        let id = parse_id(id)?;
        let parsed = Self::from_seed(name, &decode_typed_key(seed)?)?;
        if parsed.id != id {
            return Err(NoteError::MalformedKey("the key ID is not the key's"));
        }
        Ok(parsed)
    }

    /// The `PRIVATE+KEY+…` form, as [`SigningKey::parse`] reads it: a secret.
    pub fn to_private_string(&self) -> String {
        let mut typed = vec![ED25519];
        typed.extend_from_slice(self.key.as_bytes());
        format!("{PRIVATE_PREFIX}{}+{:08x}+{}", self.name, self.id, STANDARD.encode(typed))
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn id(&self) -> u32 {
        self.id
    }

    /// The public half, to publish.
    pub fn verifier(&self) -> VerifierKey {
        VerifierKey { name: self.name.clone(), id: self.id, key: self.key.verifying_key() }
    }
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SigningKey({}+{:08x})", self.name, self.id)
    }
}

/// Eight lowercase hex digits, as Go writes them.
fn parse_id(id: &str) -> Result<u32, NoteError> {
    if id.len() != 8 || !id.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        return Err(NoteError::MalformedKey("a key ID is eight lowercase hex digits"));
    }
    u32::from_str_radix(id, 16).map_err(|_| NoteError::MalformedKey("a key ID is eight lowercase hex digits"))
}

/// `base64(0x01 || 32 bytes)`: an Ed25519 key with its type byte.
fn decode_typed_key(encoded: &str) -> Result<[u8; 32], NoteError> {
    let bytes = STANDARD.decode(encoded).map_err(|_| NoteError::MalformedKey("the key is not base64"))?;
    match bytes.split_first() {
        Some((&ED25519, key)) => key.try_into().map_err(|_| NoteError::MalformedKey("an Ed25519 key is 32 bytes")),
        Some(_) => Err(NoteError::MalformedKey("not an Ed25519 key (type 0x01)")),
        None => Err(NoteError::MalformedKey("an empty key")),
    }
}
