//! Who is calling, and what they may read and record.
//!
//! With an auth file (`ledgerd --auth-file`), a caller is who their token says: the file maps
//! the SHA-256 of each token to an actor and a role, so the file itself holds no usable secret.
//! A caller without a token is the public, who may see only the public standings and the clocks
//! ([`policy`]). Without an auth file ledgerd runs open (a trusted network, development): the
//! `x-ledger-actor` and `x-ledger-clearance` headers are taken as given, every read but the
//! jury's replay viewer is allowed, and the daemon says so at startup. Every refusal here is an
//! [`Error`]; the transports turn it into their status.
//!
//! The tokens can change while ledgerd runs: [`Auth::reload`] reads the file again (ledgerd does
//! it on SIGHUP), so tablets given new tokens need no restart; [`file`] adds entries to the file.

pub mod file;
pub mod policy;
pub mod quota;
pub mod scope;

pub use policy::{Access, Role};
pub use quota::Quotas;
pub use scope::{Scope, Tables};

use ledger::access::Clearance;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, RwLock};
use tonic::metadata::MetadataMap;

use crate::error::Error;
use crate::facade::season::SeasonScope;

/// The metadata key naming the actor in open mode.
pub const ACTOR_HEADER: &str = "x-ledger-actor";
/// The metadata key naming the role in open mode.
pub const CLEARANCE_HEADER: &str = "x-ledger-clearance";

/// A caller as the ledger records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub actor: String,
    pub role: Role,
    /// Where its token may record ([`Scope`]); everywhere its role may, by default.
    pub scope: Scope,
}

impl Identity {
    /// A caller whose token records wherever its role may.
    pub fn new(actor: impl Into<String>, role: Role) -> Identity {
        Identity { actor: actor.into(), role, scope: Scope::default() }
    }

    /// Anyone, without a token.
    pub fn public() -> Identity {
        Identity::new("public", Role::Public)
    }
}

/// A caller who may record: as whom, with which clearance, where, and how much a minute.
#[derive(Debug, Clone)]
pub struct Recorder {
    pub actor: String,
    pub clearance: Clearance,
    pub scope: Scope,
    /// A table's code on a ledgerd with tokens: its allowance a minute ([`Quotas`]).
    quotas: Option<Arc<Quotas>>,
}

impl Recorder {
    /// May it append to `stream`? Asked of every append, before anything is decided.
    ///
    /// # Errors
    /// `PERMISSION_DENIED` naming where its token records.
    pub fn may_write(&self, stream: &ledger::StreamId, tables: &dyn Tables) -> Result<(), Error> {
        self.scope.permits(&self.actor, stream, tables)
    }

    /// Takes an append of `events` events and about `bytes` bytes from a table's code's
    /// allowance; anyone else records without one.
    ///
    /// # Errors
    /// `RESOURCE_EXHAUSTED`: the code recorded its minute's worth.
    pub fn take(&self, events: usize, bytes: usize) -> Result<(), Error> {
        self.quotas.as_ref().map_or(Ok(()), |quotas| quotas.take(&self.actor, events, bytes))
    }
}

/// How callers are identified.
#[derive(Debug, Clone)]
pub enum Auth {
    /// Headers are trusted and every read is allowed.
    Open,
    /// SHA-256 of a bearer token → identity.
    Tokens(TokenTable),
}

/// The token digests a ledgerd knows, shared by every service and replaced whole on reload,
/// and the tables' codes' allowances.
#[derive(Debug, Clone, Default)]
pub struct TokenTable {
    tokens: Arc<RwLock<HashMap<[u8; 32], Identity>>>,
    quotas: Arc<Quotas>,
}

impl TokenTable {
    fn get(&self, digest: &[u8; 32]) -> Option<Identity> {
        // A poisoned lock still holds a whole table: it is only ever replaced, never edited.
        self.tokens.read().unwrap_or_else(std::sync::PoisonError::into_inner).get(digest).cloned()
    }

    fn replace(&self, tokens: HashMap<[u8; 32], Identity>) {
        *self.tokens.write().unwrap_or_else(std::sync::PoisonError::into_inner) = tokens;
    }

    /// How many tokens it admits.
    pub fn len(&self) -> usize {
        self.tokens.read().unwrap_or_else(std::sync::PoisonError::into_inner).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl From<HashMap<[u8; 32], Identity>> for TokenTable {
    fn from(tokens: HashMap<[u8; 32], Identity>) -> Self {
        TokenTable { tokens: Arc::new(RwLock::new(tokens)), quotas: Arc::default() }
    }
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
    /// The role (`analyst`, `table`, `organiser`, `jury`); named `clearance` since the first
    /// auth files.
    clearance: Role,
    /// Where the token may record; everywhere its role may without one.
    #[serde(default)]
    scope: Scope,
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
        Ok(Auth::Tokens(read_tokens(path)?.into()))
    }

    /// Reads the auth file again and from now on admits exactly its tokens; the number of
    /// tokens it now knows. A file that cannot be used changes nothing.
    ///
    /// # Errors
    /// The file cannot be read or is malformed, or this ledgerd runs open (it has no file).
    pub fn reload(&self, path: &Path) -> Result<usize, AuthFileError> {
        match self {
            Auth::Open => Err(AuthFileError {
                path: path.display().to_string(),
                reason: "ledgerd runs open: restart it with --auth-file to use tokens".into(),
            }),
            Auth::Tokens(table) => {
                let tokens = read_tokens(path)?;
                let count = tokens.len();
                table.replace(tokens);
                Ok(count)
            }
        }
    }
}

/// The identities of an auth file, by token digest.
fn read_tokens(path: &Path) -> Result<HashMap<[u8; 32], Identity>, AuthFileError> {
    let fail = |reason: String| AuthFileError { path: path.display().to_string(), reason };
    let text = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
    let file: AuthFile = serde_json::from_str(&text).map_err(|e| fail(e.to_string()))?;
    let mut tokens = HashMap::new();
    for entry in file.tokens {
        let digest: [u8; 32] = hex::decode(&entry.sha256)
            .ok()
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| fail(format!("sha256 of {} must be 64 hex digits", entry.actor)))?;
        check_actor(&entry.actor).map_err(|e| fail(e.message()))?;
        if entry.clearance == Role::Public {
            return Err(fail(format!("{} has role public: the public needs no token", entry.actor)));
        }
        entry.scope.check().map_err(|reason| fail(format!("the scope of {}: {reason}", entry.actor)))?;
        tokens.insert(digest, Identity { actor: entry.actor, role: entry.clearance, scope: entry.scope });
    }
    Ok(tokens)
}

impl Auth {
    /// The caller of a request.
    ///
    /// # Errors
    /// `UNAUTHENTICATED` for a malformed or unknown token (token mode); `INVALID_ARGUMENT` for
    /// malformed headers (open mode).
    pub fn identify(&self, metadata: &MetadataMap) -> Result<Identity, Error> {
        match self {
            Auth::Open => open_identity(metadata),
            Auth::Tokens(tokens) => {
                let Some(header) = metadata.get("authorization") else { return Ok(Identity::public()) };
                let token = header.to_str().ok().and_then(|v| v.strip_prefix("Bearer ")).ok_or_else(|| {
                    Error::Unauthenticated("the authorization header must read `Bearer <token>`".into())
                })?;
                tokens.get(&token_digest(token)).ok_or_else(|| Error::Unauthenticated("unknown token".into()))
            }
        }
    }

    /// The caller of a request, if they may have `access`.
    ///
    /// # Errors
    /// As [`Auth::identify`]; then `UNAUTHENTICATED` when the public asks for more than the
    /// public may see, `PERMISSION_DENIED` when a role asks for what it may not.
    pub fn authorize(&self, metadata: &MetadataMap, access: Access) -> Result<Identity, Error> {
        let who = self.identify(metadata)?;
        match self {
            // Open mode trusts whoever reaches it; the clearance still decides what is recorded
            // and who sees the jury's viewer.
            Auth::Open if !access.when_open_too() => Ok(who),
            _ if who.role.may(access) => Ok(who),
            _ => Err(policy::denied(&who, access)),
        }
    }
}

impl Auth {
    /// The actor, clearance and scope of a caller who may record events; where it records is
    /// then asked of each append ([`Recorder::may_write`]).
    ///
    /// # Errors
    /// As [`Auth::authorize`] for [`Access::Record`]: analysts and the public record nothing.
    pub fn recorder(&self, metadata: &MetadataMap) -> Result<Recorder, Error> {
        let who = self.authorize(metadata, Access::Record)?;
        let Some(clearance) = who.role.clearance() else { return Err(policy::denied(&who, Access::Record)) };
        let quotas = match self {
            Auth::Tokens(table) if clearance == Clearance::Table => Some(Arc::clone(&table.quotas)),
            Auth::Tokens(_) | Auth::Open => None,
        };
        Ok(Recorder { actor: who.actor, clearance, scope: who.scope, quotas })
    }

    /// The same tokens with the tables' codes allowed `quotas` (`ledgerd
    /// --table-events-per-minute`, `--table-bytes-per-minute`); an open ledgerd has none.
    #[must_use]
    pub fn with_quotas(self, quotas: Quotas) -> Auth {
        match self {
            Auth::Open => Auth::Open,
            Auth::Tokens(table) => Auth::Tokens(TokenTable { quotas: Arc::new(quotas), ..table }),
        }
    }

    /// What of the season a caller sees: the tournaments, which anyone may list (a wrong token
    /// is still refused), and the Andes matches where the access table allows them.
    ///
    /// # Errors
    /// As [`Auth::identify`].
    pub fn season_scope(&self, metadata: &MetadataMap) -> Result<SeasonScope, Error> {
        self.authorize(metadata, Access::Season { andes: false })?;
        Ok(SeasonScope { andes: self.authorize(metadata, Access::Season { andes: true }).is_ok() })
    }
}

fn open_identity(metadata: &MetadataMap) -> Result<Identity, Error> {
    let header = |key: &str| -> Result<Option<String>, Error> {
        metadata
            .get(key)
            .map(|v| v.to_str().map(str::to_owned).map_err(|_| Error::InvalidArgument(format!("{key} must be ASCII"))))
            .transpose()
    };
    let actor = header(ACTOR_HEADER)?.unwrap_or_else(|| "anonymous".into());
    check_actor(&actor)?;
    let role = match header(CLEARANCE_HEADER)? {
        None => Role::Table,
        Some(text) => Role::parse(&text).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "{CLEARANCE_HEADER} must be one of {}, not {}",
                Role::ALL.map(Role::as_str).join(", "),
                ledger::rejection::quote(&text)
            ))
        })?,
    };
    Ok(Identity::new(actor, role))
}

/// An actor's name as the ledger records it: 1 to 64 printable characters.
///
/// # Errors
/// `INVALID_ARGUMENT` for any other.
pub fn check_actor(actor: &str) -> Result<(), Error> {
    if actor.is_empty() || actor.len() > 64 || actor.chars().any(char::is_control) {
        return Err(Error::InvalidArgument("an actor is 1 to 64 printable characters".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens() -> Auth {
        let mut tokens = HashMap::new();
        tokens.insert(token_digest("s3cret"), Identity::new("jury-1", Role::Jury));
        tokens.insert(token_digest("numbers"), Identity::new("ana", Role::Analyst));
        Auth::Tokens(tokens.into())
    }

    fn bearer(token: &str) -> MetadataMap {
        let mut metadata = MetadataMap::new();
        metadata.insert("authorization", format!("Bearer {token}").parse().unwrap());
        metadata
    }

    #[test]
    fn tokens_are_checked_by_digest() {
        let auth = tokens();
        let mut metadata = MetadataMap::new();
        assert_eq!(auth.identify(&metadata).unwrap(), Identity::public());
        metadata.insert("authorization", "Basic abc".parse().unwrap());
        assert_eq!(auth.identify(&metadata).unwrap_err().code(), crate::error::Code::Unauthenticated);
        assert_eq!(auth.identify(&bearer("wrong")).unwrap_err().message(), "unknown token");
        let mut metadata = bearer("s3cret");
        assert_eq!(auth.identify(&metadata).unwrap().role, Role::Jury);
        // Headers do not override a token's identity.
        metadata.insert(CLEARANCE_HEADER, "jury".parse().unwrap());
        metadata.insert(ACTOR_HEADER, "mallory".parse().unwrap());
        assert_eq!(auth.identify(&metadata).unwrap().actor, "jury-1");
    }

    #[test]
    fn with_tokens_the_public_sees_only_the_public_standings_and_the_clocks() {
        let auth = tokens();
        let public = MetadataMap::new();
        assert!(auth.authorize(&public, Access::Standings { public: true }).is_ok());
        assert!(auth.authorize(&public, Access::Clock).is_ok());
        let refused = auth.authorize(&public, Access::ListStreams).unwrap_err();
        assert_eq!(refused.code(), crate::error::Code::Unauthenticated);
        let refused = auth.authorize(&bearer("numbers"), Access::Record).unwrap_err();
        assert_eq!(refused.code(), crate::error::Code::PermissionDenied);
        assert!(auth.authorize(&bearer("numbers"), Access::RoleStats).is_ok());
        // An analyst counts roles and nations; players' names stay with the organiser and jury.
        let refused = auth.authorize(&bearer("numbers"), Access::ReadLog).unwrap_err();
        assert_eq!(refused.code(), crate::error::Code::PermissionDenied);
        // A wrong token is refused even where the public is welcome: it is a mistake to report.
        assert_eq!(
            auth.authorize(&bearer("wrong"), Access::Clock).unwrap_err().code(),
            crate::error::Code::Unauthenticated
        );
    }

    #[test]
    fn open_mode_trusts_headers() {
        let mut metadata = MetadataMap::new();
        let anonymous = Auth::Open.identify(&metadata).unwrap();
        assert_eq!((anonymous.actor.as_str(), anonymous.role), ("anonymous", Role::Table));
        assert!(Auth::Open.authorize(&metadata, Access::ReadLog).is_ok());
        metadata.insert(CLEARANCE_HEADER, "judge".parse().unwrap());
        let refused = Auth::Open.identify(&metadata).unwrap_err();
        assert!(refused.message().contains("analyst, table, organiser, jury"), "{}", refused.message());
        metadata.insert(CLEARANCE_HEADER, "analyst".parse().unwrap());
        assert_eq!(
            Auth::Open.authorize(&metadata, Access::Record).unwrap_err().code(),
            crate::error::Code::PermissionDenied
        );
    }
}
