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
//! ledgerd also keeps tokens itself, in its data directory ([`kept`]): the console issues and
//! revokes them ([`Auth::issue`], [`Auth::revoke`]), admitted or refused at once, beside the auth
//! file's. A ledgerd whose data directory holds kept tokens runs with tokens even without an
//! auth file ([`Auth::of_daemon`]).

pub mod devices;
pub mod durable;
pub mod file;
pub mod kept;
pub mod policy;
pub mod quota;
pub mod scope;

pub use kept::{KeptStore, KeptToken};
pub use policy::{Access, Role};
pub use quota::Quotas;
pub use scope::{Scope, Tables};

use kept::{KeptEntry, Stored};
use ledger::access::Clearance;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
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
    /// A table's device on a ledgerd with tokens: its allowance a minute ([`Quotas`]), kept
    /// under its token's digest (a sign-in, or a code used as it is).
    quotas: Option<(Arc<Quotas>, String)>,
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
        self.quotas.as_ref().map_or(Ok(()), |(quotas, device)| quotas.take(device, &self.actor, events, bytes))
    }

    /// Gives back what [`Recorder::take`] took for events the ledger then refused: only what is
    /// recorded spends an allowance (issue 42).
    pub fn give_back(&self, events: usize, bytes: usize) {
        if let Some((quotas, device)) = &self.quotas {
            quotas.give_back(device, events, bytes);
        }
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

/// The token digests a ledgerd knows, shared by every service: the auth file's, replaced whole on
/// reload, and the ones it keeps itself ([`kept`]), changed by [`Auth::issue`] and
/// [`Auth::revoke`]; and the tables' codes' allowances.
#[derive(Debug, Clone, Default)]
pub struct TokenTable {
    known: Arc<RwLock<Known>>,
    quotas: Arc<Quotas>,
    sources: Arc<Sources>,
}

/// The tokens admitted now.
#[derive(Debug, Default)]
struct Known {
    /// The auth file's.
    file: HashMap<[u8; 32], Identity>,
    /// The kept store's, as it was last read or written, in the order they were issued.
    kept: Vec<KeptEntry>,
    /// Who each kept token admits, and until when (a sign-in's end).
    kept_by_digest: HashMap<[u8; 32], (Identity, Option<u64>)>,
    /// The digests (hex) of the tables' codes spent by a sign-in, which admit nothing by
    /// themselves (issue 42).
    spent_digests: std::collections::HashSet<String>,
    /// The actors whose codes those are.
    spent_actors: std::collections::HashSet<String>,
}

impl Known {
    fn keep(&mut self, stored: Stored) {
        self.kept_by_digest = stored
            .tokens
            .iter()
            .filter_map(|entry| entry.admits().ok().map(|(digest, who)| (digest, (who, entry.expires_at_ms))))
            .collect();
        self.kept = stored.tokens;
        self.spent_actors = stored.spent.iter().map(|spent| spent.actor.clone()).collect();
        self.spent_digests = stored.spent.into_iter().map(|spent| spent.sha256).collect();
    }

    fn is_spent(&self, digest: &[u8; 32]) -> bool {
        !self.spent_digests.is_empty() && self.spent_digests.contains(&hex::encode(digest))
    }
}

/// Where the tokens come from.
#[derive(Debug, Default)]
struct Sources {
    auth_file: Option<PathBuf>,
    kept: Option<KeptStore>,
    /// One change of the kept tokens at a time in this ledgerd, so that what it admits is the
    /// last change written (the store's file lock orders it with other processes).
    changing: Mutex<()>,
}

impl TokenTable {
    fn read(&self) -> std::sync::RwLockReadGuard<'_, Known> {
        // A poisoned lock still holds whole tables: each is only ever replaced, never edited.
        self.known.read().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Known> {
        self.known.write().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn get(&self, digest: &[u8; 32]) -> Option<Identity> {
        let known = self.read();
        if known.is_spent(digest) {
            return None;
        }
        let kept = known.kept_by_digest.get(digest).filter(|(_, end)| end.is_none_or(|end| kept::now_ms() < end));
        kept.map(|(who, _)| who).or_else(|| known.file.get(digest)).cloned()
    }

    /// How many tokens it admits.
    pub fn len(&self) -> usize {
        let known = self.read();
        known.file.len() + known.kept_by_digest.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The kept store, or why this ledgerd has none.
    fn store(&self) -> Result<&KeptStore, Error> {
        self.sources.kept.as_ref().ok_or_else(|| {
            Error::FailedPrecondition("this ledgerd keeps no tokens itself: only its auth file's".into())
        })
    }

    /// Changes the kept tokens durably, then admits what was written.
    fn change_kept<T>(&self, change: impl FnOnce(&mut Vec<KeptEntry>) -> Result<T, Error>) -> Result<T, Error> {
        self.change_stored(|stored| change(&mut stored.tokens))
    }

    /// Changes the kept tokens and the spent codes durably, then admits what was written.
    fn change_stored<T>(&self, change: impl FnOnce(&mut Stored) -> Result<T, Error>) -> Result<T, Error> {
        let store = self.store()?;
        let _one_at_a_time = self.sources.changing.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (answer, written) = store.update_stored(change)?;
        self.write().keep(written);
        Ok(answer)
    }
}

impl From<HashMap<[u8; 32], Identity>> for TokenTable {
    fn from(tokens: HashMap<[u8; 32], Identity>) -> Self {
        let known = Known { file: tokens, ..Known::default() };
        TokenTable { known: Arc::new(RwLock::new(known)), ..TokenTable::default() }
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
        let known = Known { file: read_tokens(path)?, ..Known::default() };
        let sources = Sources { auth_file: Some(path.to_owned()), ..Sources::default() };
        Ok(Auth::Tokens(TokenTable {
            known: Arc::new(RwLock::new(known)),
            sources: Arc::new(sources),
            quotas: Arc::default(),
        }))
    }

    /// The tokens of a ledgerd: its auth file's, if it has one, and the ones it keeps in `kept`
    /// (its data directory's). `None` when it has neither an auth file nor kept tokens: it runs
    /// open. A store that ever held a token keeps ledgerd on tokens, even emptied.
    ///
    /// # Errors
    /// The auth file or the kept tokens cannot be read or are malformed.
    pub fn of_daemon(auth_file: Option<&Path>, kept: KeptStore) -> Result<Option<Auth>, AuthFileError> {
        if auth_file.is_none() && !kept.exists() {
            return Ok(None);
        }
        let file = auth_file.map(read_tokens).transpose()?.unwrap_or_default();
        let mut known = Known { file, ..Known::default() };
        known.keep(kept.read()?);
        let sources = Sources { auth_file: auth_file.map(Path::to_owned), kept: Some(kept), ..Sources::default() };
        Ok(Some(Auth::Tokens(TokenTable {
            known: Arc::new(RwLock::new(known)),
            sources: Arc::new(sources),
            quotas: Arc::default(),
        })))
    }

    /// Reads the auth file and the kept tokens again and from now on admits exactly theirs; the
    /// number of tokens it now knows. If either cannot be used, nothing changes.
    ///
    /// # Errors
    /// A file cannot be read or is malformed, or this ledgerd runs open (it has no tokens).
    pub fn reload(&self) -> Result<usize, AuthFileError> {
        let Auth::Tokens(table) = self else {
            return Err(AuthFileError {
                path: String::new(),
                reason: "ledgerd runs open: restart it with --auth-file, or make an organiser's code \
                         (`ledgerd organiser`), to use tokens"
                    .into(),
            });
        };
        let file = table.sources.auth_file.as_deref().map(read_tokens).transpose()?.unwrap_or_default();
        let _one_at_a_time = table.sources.changing.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let kept = table.sources.kept.as_ref().map(KeptStore::read).transpose()?.unwrap_or_default();
        let mut known = table.write();
        known.file = file;
        known.keep(kept);
        Ok(known.file.len() + known.kept_by_digest.len())
    }

    /// The token table, or the refusal of an open ledgerd, which has none to change.
    fn table(&self) -> Result<&TokenTable, Error> {
        match self {
            Auth::Tokens(table) => Ok(table),
            Auth::Open => Err(Error::FailedPrecondition(
                "ledgerd runs open, without tokens: make the first organiser's code with `ledgerd organiser` \
                 and restart it"
                    .into(),
            )),
        }
    }

    /// Mints a token for `actor` with `role`, recording within `scope`, keeps its digest durably
    /// and admits it at once; the token, which exists in clear only in this answer. An actor may
    /// hold several tokens: issuing revokes none.
    ///
    /// # Errors
    /// `FAILED_PRECONDITION` on an open ledgerd or one that keeps no tokens; `INVALID_ARGUMENT`
    /// for a bad actor, the public's role, a bad scope or a label over [`kept::MAX_LABEL_CHARS`]
    /// printable characters; `RESOURCE_EXHAUSTED` past [`kept::MAX_KEPT`]; `INTERNAL` when the
    /// store cannot be written (nothing is admitted then).
    pub fn issue(&self, actor: &str, role: Role, scope: Scope, label: &str) -> Result<String, Error> {
        let table = self.table()?;
        let (token, entry) = kept::minted(actor, role, scope, label)?;
        table.change_kept(|entries| {
            entries.push(entry);
            Ok(())
        })?;
        Ok(token)
    }

    /// Revokes every kept token of `actor`, durably and at once; how many there were. A token of
    /// the auth file cannot be revoked from here: an actor the auth file admits is refused and
    /// nothing is revoked.
    ///
    /// # Errors
    /// `FAILED_PRECONDITION` on an open ledgerd, one that keeps no tokens, or for an actor of the
    /// auth file; `INTERNAL` when the store cannot be written (nothing is revoked then).
    pub fn revoke(&self, actor: &str) -> Result<usize, Error> {
        let table = self.table()?;
        if table.read().file.values().any(|who| who.actor == actor) {
            return Err(Error::FailedPrecondition(format!(
                "{actor} holds a token of the auth file, which only an edit of that file and a reload revoke"
            )));
        }
        table.change_stored(|stored| {
            let before = stored.tokens.len();
            stored.tokens.retain(|entry| entry.actor != actor);
            stored.spent.retain(|spent| spent.actor != actor);
            Ok(before - stored.tokens.len())
        })
    }

    /// The tokens this ledgerd keeps, in the order they were issued (none when open).
    pub fn kept(&self) -> Vec<KeptToken> {
        match self {
            Auth::Open => Vec::new(),
            Auth::Tokens(table) => {
                let known = table.read();
                let spent = |entry: &KeptEntry| known.spent_digests.contains(&entry.sha256);
                known.kept.iter().map(|entry| KeptToken { spent: spent(entry), ..entry.listed() }).collect()
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
            Auth::Tokens(table) if clearance == Clearance::Table => {
                let bearer = metadata.get("authorization").map(|v| v.as_bytes()).unwrap_or_default();
                Some((Arc::clone(&table.quotas), hex::encode(Sha256::digest(bearer))))
            }
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
    if actor.is_empty() || actor.len() > 64 || !actor.chars().all(printable) {
        return Err(Error::InvalidArgument("an actor is 1 to 64 printable characters".into()));
    }
    Ok(())
}

/// A character a name or a label may hold: no control character, and none of the embeddings,
/// overrides and isolates that turn the text after them around wherever it is shown (the
/// events' free text refuses the same, `ledger::event`).
pub(crate) fn printable(c: char) -> bool {
    !c.is_control() && !matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
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
