//! Who is calling, and what they may record.
//!
//! With an auth file (`ledgerd --auth-file`), every request must carry
//! `authorization: Bearer <token>`; the file maps the SHA-256 of each token to an actor and a
//! clearance, so the file itself holds no usable secret. Without one, ledgerd runs open (a
//! trusted network, development): the `x-ledger-actor` and `x-ledger-clearance` headers are
//! taken as given, and the daemon says so at startup.

use ledger::access::Clearance;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::Path;
use tonic::metadata::MetadataMap;
use tonic::Status;

/// The metadata key naming the actor in open mode.
pub const ACTOR_HEADER: &str = "x-ledger-actor";
/// The metadata key naming the clearance in open mode.
pub const CLEARANCE_HEADER: &str = "x-ledger-clearance";

/// A caller as the ledger records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub actor: String,
    pub clearance: Clearance,
}

/// How callers are identified.
#[derive(Debug, Clone)]
pub enum Auth {
    /// Headers are trusted.
    Open,
    /// SHA-256 of a bearer token → identity.
    Tokens(HashMap<[u8; 32], Identity>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AuthFile {
    tokens: Vec<TokenEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenEntry {
    sha256: String,
    actor: String,
    clearance: Clearance,
}

/// Why an auth file cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("auth file {path}: {reason}")]
pub struct AuthFileError {
    pub path: String,
    pub reason: String,
}

/// The SHA-256 of a token, as the auth file stores it.
pub fn token_digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

impl Auth {
    /// Reads `{"tokens": [{"sha256": "<hex>", "actor": "jury-1", "clearance": "jury"}, …]}`.
    ///
    /// # Errors
    /// The file cannot be read or is malformed.
    pub fn load(path: &Path) -> Result<Auth, AuthFileError> {
        let fail = |reason: String| AuthFileError { path: path.display().to_string(), reason };
        let text = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
        let file: AuthFile = serde_json::from_str(&text).map_err(|e| fail(e.to_string()))?;
        let mut tokens = HashMap::new();
        for entry in file.tokens {
            let digest: [u8; 32] = hex::decode(&entry.sha256)
                .ok()
                .and_then(|b| b.try_into().ok())
                .ok_or_else(|| fail(format!("sha256 of {} must be 64 hex digits", entry.actor)))?;
            check_actor(&entry.actor).map_err(|e| fail(e.message().to_owned()))?;
            tokens.insert(digest, Identity { actor: entry.actor, clearance: entry.clearance });
        }
        Ok(Auth::Tokens(tokens))
    }

    /// The caller of a request.
    ///
    /// # Errors
    /// `UNAUTHENTICATED` without a known token (token mode); `INVALID_ARGUMENT` for malformed
    /// headers (open mode).
    pub fn identify(&self, metadata: &MetadataMap) -> Result<Identity, Status> {
        match self {
            Auth::Open => {
                let header = |key: &str| -> Result<Option<String>, Status> {
                    metadata
                        .get(key)
                        .map(|v| {
                            v.to_str()
                                .map(str::to_owned)
                                .map_err(|_| Status::invalid_argument(format!("{key} must be ASCII")))
                        })
                        .transpose()
                };
                let actor = header(ACTOR_HEADER)?.unwrap_or_else(|| "anonymous".into());
                check_actor(&actor)?;
                let clearance = match header(CLEARANCE_HEADER)? {
                    None => Clearance::Table,
                    Some(text) => Clearance::parse(&text).ok_or_else(|| {
                        Status::invalid_argument(format!(
                            "{CLEARANCE_HEADER} must be table, organiser or jury, not {text}"
                        ))
                    })?,
                };
                Ok(Identity { actor, clearance })
            }
            Auth::Tokens(tokens) => {
                let token = metadata
                    .get("authorization")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.strip_prefix("Bearer "))
                    .ok_or_else(|| Status::unauthenticated("this ledger needs `authorization: Bearer <token>`"))?;
                tokens.get(&token_digest(token)).cloned().ok_or_else(|| Status::unauthenticated("unknown token"))
            }
        }
    }
}

fn check_actor(actor: &str) -> Result<(), Status> {
    if actor.is_empty() || actor.len() > 64 || actor.chars().any(char::is_control) {
        return Err(Status::invalid_argument("an actor is 1 to 64 printable characters"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_checked_by_digest() {
        let mut tokens = HashMap::new();
        tokens.insert(token_digest("s3cret"), Identity { actor: "jury-1".into(), clearance: Clearance::Jury });
        let auth = Auth::Tokens(tokens);
        let mut metadata = MetadataMap::new();
        assert_eq!(auth.identify(&metadata).unwrap_err().code(), tonic::Code::Unauthenticated);
        metadata.insert("authorization", "Bearer wrong".parse().unwrap());
        assert_eq!(auth.identify(&metadata).unwrap_err().message(), "unknown token");
        metadata.insert("authorization", "Bearer s3cret".parse().unwrap());
        assert_eq!(auth.identify(&metadata).unwrap().clearance, Clearance::Jury);
        // Headers do not override a token's identity.
        metadata.insert(CLEARANCE_HEADER, "jury".parse().unwrap());
        metadata.insert(ACTOR_HEADER, "mallory".parse().unwrap());
        assert_eq!(auth.identify(&metadata).unwrap().actor, "jury-1");
    }

    #[test]
    fn open_mode_trusts_headers() {
        let mut metadata = MetadataMap::new();
        let anonymous = Auth::Open.identify(&metadata).unwrap();
        assert_eq!((anonymous.actor.as_str(), anonymous.clearance), ("anonymous", Clearance::Table));
        metadata.insert(CLEARANCE_HEADER, "judge".parse().unwrap());
        assert!(Auth::Open.identify(&metadata).unwrap_err().message().contains("table, organiser or jury"));
    }
}
