//! The tokens ledgerd keeps itself (issue 33): the console issues, re-issues and revokes codes
//! without a terminal, and `ledgerd organiser` makes the first organiser's. They live in
//! `tokens.json` in ledgerd's data directory, beside the log, as the auth file holds its own:
//! the SHA-256 of each token with its actor, role, scope, a label and when it was issued, never a
//! usable secret. Every change is an atomic replace synced with its folder ([`super::durable`]),
//! made under an exclusive lock on `tokens.lock` and on the file as it is on disk at that moment,
//! so that the console and `ledgerd organiser` (another process) never lose each other's tokens.
//!
//! The store is bounded ([`MAX_KEPT`]): a public hall cannot make it grow, and a console that
//! issues more is refused with `RESOURCE_EXHAUSTED` until codes are revoked.

use super::durable;
use super::{check_actor, token_digest, AuthFileError, Identity, Role, Scope};
use crate::error::Error;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The file's name in the data directory.
pub const FILE_NAME: &str = "tokens.json";
/// The lock taken while the file is changed.
const LOCK_NAME: &str = "tokens.lock";
/// The most tokens the store keeps: a day of 200 tables printed ten times over, with room.
pub const MAX_KEPT: usize = 4096;
/// A browser's sign-in lasts a tournament day, as its cookie does.
pub const SESSION_MS: u64 = 12 * 3600 * 1000;
/// The sign-ins an actor holds at most: one more ends a person's oldest, and is refused to a
/// table (whose codes are spent on their first sign-in: issue 42), so that the store cannot fill.
pub const MAX_SESSIONS_PER_ACTOR: usize = 16;
/// A label's length at most, in characters.
pub const MAX_LABEL_CHARS: usize = 80;

/// One kept token, as the file stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct KeptEntry {
    pub sha256: String,
    pub actor: String,
    pub clearance: Role,
    #[serde(default, skip_serializing_if = "Scope::is_everywhere")]
    pub scope: Scope,
    #[serde(default)]
    pub label: String,
    /// Milliseconds since the Unix epoch, ledgerd's clock when it was issued.
    #[serde(default)]
    pub issued_at_ms: u64,
    /// A browser's sign-in ([`super::Auth::open_session`]): admitted until then, revoked by
    /// signing out. A code (printed, shown) has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at_ms: Option<u64>,
}

/// A kept token as the console lists it: everything but its digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptToken {
    pub actor: String,
    pub role: Role,
    pub scope: Scope,
    pub label: String,
    pub issued_at_ms: u64,
    /// A browser's sign-in, not a code: when it ends.
    pub expires_at_ms: Option<u64>,
    /// A short name of the token (16 hex digits of its digest's): the device the console ends.
    pub device: String,
    /// A table's code spent by its first sign-in (issue 42).
    pub spent: bool,
}

impl KeptToken {
    /// A browser's sign-in made from a code, rather than a code.
    pub fn is_session(&self) -> bool {
        self.expires_at_ms.is_some()
    }
}

impl KeptEntry {
    /// The entry of a fresh `token`.
    pub fn new(token: &str, actor: &str, role: Role, scope: Scope, label: &str, issued_at_ms: u64) -> KeptEntry {
        KeptEntry {
            sha256: hex::encode(token_digest(token)),
            actor: actor.to_owned(),
            clearance: role,
            scope,
            label: label.to_owned(),
            issued_at_ms,
            expires_at_ms: None,
        }
    }

    /// Still admitted at `now_ms`: a code, or a sign-in that has not ended.
    pub fn live(&self, now_ms: u64) -> bool {
        self.expires_at_ms.is_none_or(|end| now_ms < end)
    }

    pub fn listed(&self) -> KeptToken {
        KeptToken {
            actor: self.actor.clone(),
            role: self.clearance,
            scope: self.scope.clone(),
            label: self.label.clone(),
            issued_at_ms: self.issued_at_ms,
            expires_at_ms: self.expires_at_ms,
            device: self.sha256.chars().take(16).collect(),
            spent: false,
        }
    }

    /// Its digest and who it admits, once checked as an auth file's entry is.
    pub fn admits(&self) -> Result<([u8; 32], Identity), String> {
        let digest: [u8; 32] = hex::decode(&self.sha256)
            .ok()
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| format!("sha256 of {} must be 64 hex digits", self.actor))?;
        check_actor(&self.actor).map_err(|e| e.message())?;
        if self.clearance == Role::Public {
            return Err(format!("{} has role public: the public needs no token", self.actor));
        }
        if self.label.chars().count() > MAX_LABEL_CHARS || !self.label.chars().all(super::printable) {
            return Err(format!("the label of {} is over {MAX_LABEL_CHARS} printable characters", self.actor));
        }
        self.scope.check().map_err(|reason| format!("the scope of {}: {reason}", self.actor))?;
        Ok((digest, Identity { actor: self.actor.clone(), role: self.clearance, scope: self.scope.clone() }))
    }
}

/// A table's code spent by its first sign-in (issue 42): from then on it admits nothing by
/// itself, neither a request nor another sign-in, until the organiser lets one more device sign
/// in with it ([`super::Auth::admit_device`]). A code of the auth file is spent here too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SpentCode {
    pub sha256: String,
    pub actor: String,
    /// Milliseconds since the Unix epoch: the sign-in that spent it.
    pub at_ms: u64,
}

/// What the store holds: the kept tokens, and the tables' codes spent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Stored {
    pub tokens: Vec<KeptEntry>,
    pub spent: Vec<SpentCode>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeptFile {
    /// The file's format; 1 since it was first written (`spent` came later, optional).
    version: u32,
    tokens: Vec<KeptEntry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    spent: Vec<SpentCode>,
}

/// The store in a data directory.
#[derive(Debug, Clone)]
pub struct KeptStore {
    path: PathBuf,
}

impl KeptStore {
    /// The store of the data directory `data_dir`, which need not exist yet.
    pub fn in_dir(data_dir: &Path) -> KeptStore {
        KeptStore { path: data_dir.join(FILE_NAME) }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether tokens were ever kept here: from then on ledgerd runs with tokens, even when every
    /// one of them is revoked (revoking the last code must not open the ledger to anyone).
    pub fn exists(&self) -> bool {
        self.path.exists()
    }

    /// The kept entries, checked; none when the file does not exist.
    ///
    /// # Errors
    /// The file cannot be read, is malformed, or holds more than [`MAX_KEPT`] tokens.
    pub(super) fn read(&self) -> Result<Stored, AuthFileError> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Stored::default()),
            Err(error) => return Err(self.fail(error.to_string())),
        };
        let file: KeptFile = serde_json::from_str(&text).map_err(|e| self.fail(e.to_string()))?;
        if file.version != 1 {
            return Err(self.fail(format!("version {} is newer than this ledgerd knows (1)", file.version)));
        }
        if file.tokens.len() > MAX_KEPT {
            return Err(self.fail(format!("{} tokens, more than the {MAX_KEPT} a store keeps", file.tokens.len())));
        }
        for entry in &file.tokens {
            entry.admits().map_err(|reason| self.fail(reason))?;
        }
        if file.spent.len() > MAX_KEPT {
            return Err(self.fail(format!("{} spent codes, more than the {MAX_KEPT} a store keeps", file.spent.len())));
        }
        Ok(Stored { tokens: file.tokens, spent: file.spent })
    }

    /// Changes the store: `change` is given the entries as they are on disk now, under the lock,
    /// and what it leaves is written durably and returned with its answer. Nothing is written
    /// when `change` refuses, and nothing is kept past [`MAX_KEPT`].
    ///
    /// # Errors
    /// `change`'s refusal; `RESOURCE_EXHAUSTED` past the bound; `INTERNAL` when the file cannot be
    /// read or written.
    pub(super) fn update<T>(
        &self,
        change: impl FnOnce(&mut Vec<KeptEntry>) -> Result<T, Error>,
    ) -> Result<(T, Vec<KeptEntry>), Error> {
        let (answer, stored) = self.update_stored(|stored| change(&mut stored.tokens))?;
        Ok((answer, stored.tokens))
    }

    /// [`KeptStore::update`] of the tokens and the spent codes together.
    ///
    /// # Errors
    /// As [`KeptStore::update`].
    pub(super) fn update_stored<T>(
        &self,
        change: impl FnOnce(&mut Stored) -> Result<T, Error>,
    ) -> Result<(T, Stored), Error> {
        let internal = |reason: String| Error::Internal(format!("the kept tokens ({}): {reason}", self.path.display()));
        let dir = self.path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| internal(e.to_string()))?;
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(LOCK_NAME))
            .map_err(|e| internal(e.to_string()))?;
        // Released when `lock` is dropped, at the end of this call.
        lock.lock().map_err(|e| internal(e.to_string()))?;
        let mut stored = self.read().map_err(|e| internal(e.reason))?;
        let answer = change(&mut stored)?;
        if stored.tokens.len() > MAX_KEPT {
            return Err(Error::ResourceExhausted(format!(
                "ledgerd keeps at most {MAX_KEPT} codes; revoke some before issuing more"
            )));
        }
        // The oldest spent codes are forgotten first: those codes are long reprinted.
        let over = stored.spent.len().saturating_sub(MAX_KEPT);
        stored.spent.drain(..over);
        let file = KeptFile { version: 1, tokens: stored.tokens, spent: stored.spent };
        let text = serde_json::to_string_pretty(&file).map_err(|e| internal(e.to_string()))?;
        durable::replace(&self.path, &format!("{text}\n"), |temp| {
            KeptStore { path: temp.to_path_buf() }.read().map(drop).map_err(|e| e.reason)
        })
        .map_err(internal)?;
        Ok((answer, Stored { tokens: file.tokens, spent: file.spent }))
    }

    /// Mints a token for `actor` into the store, from a process that admits no one itself
    /// (`ledgerd organiser`): a running ledgerd admits it on its next SIGHUP, one started after
    /// at once. The token, in clear only in this answer.
    ///
    /// # Errors
    /// As [`super::Auth::issue`].
    pub fn issue(&self, actor: &str, role: Role, scope: Scope, label: &str) -> Result<String, Error> {
        let (token, entry) = minted(actor, role, scope, label)?;
        self.update(|entries| {
            entries.push(entry);
            Ok(())
        })?;
        Ok(token)
    }

    fn fail(&self, reason: String) -> AuthFileError {
        AuthFileError { path: self.path.display().to_string(), reason }
    }
}

/// A fresh token and its entry, checked.
///
/// # Errors
/// `INVALID_ARGUMENT` for an entry an auth file would refuse, `INTERNAL` without randomness.
pub(super) fn minted(actor: &str, role: Role, scope: Scope, label: &str) -> Result<(String, KeptEntry), Error> {
    let token = super::file::mint_token().map_err(|e| Error::Internal(format!("cannot mint a token: {e}")))?;
    let entry = KeptEntry::new(&token, actor, role, scope, label, now_ms());
    entry.admits().map_err(Error::InvalidArgument)?;
    Ok((token, entry))
}

/// Milliseconds since the Unix epoch: when a token is issued.
pub(super) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::super::file::tests::who;
    use super::super::{file, Auth, Role, Scope};
    use super::*;

    fn table(n: u32) -> Scope {
        Scope { tournament: Some("open26".into()), table: Some(n), streams: Vec::new() }
    }

    #[test]
    fn issued_codes_are_admitted_at_once_kept_across_a_restart_and_stored_as_digests() {
        let dir = tempfile::tempdir().unwrap();
        assert!(Auth::of_daemon(None, KeptStore::in_dir(dir.path())).unwrap().is_none(), "nothing kept: open");
        // The first organiser's code, as `ledgerd organiser` makes it before ledgerd starts.
        let first = KeptStore::in_dir(dir.path());
        let olga = first.issue("olga", Role::Organiser, Scope::default(), "first").unwrap();
        let auth = Auth::of_daemon(None, KeptStore::in_dir(dir.path())).unwrap().expect("kept tokens: not open");
        assert_eq!(who(&auth, &olga).as_deref(), Some("olga organiser"));
        let one = auth.issue("open26-table-1", Role::Table, table(1), "sheet").unwrap();
        let three = auth.issue("open26-table-3", Role::Table, table(3), "sheet").unwrap();
        let three_again = auth.issue("open26-table-3", Role::Table, table(3), "reprint").unwrap();
        assert_eq!(who(&auth, &three).as_deref(), Some("open26-table-3 table"), "a reprint revokes nothing");
        assert_eq!(who(&auth, &three_again).as_deref(), Some("open26-table-3 table"));
        let listed: Vec<(String, String)> = auth.kept().into_iter().map(|t| (t.actor, t.label)).collect();
        assert_eq!(listed.len(), 4);
        assert_eq!(listed[3], ("open26-table-3".to_owned(), "reprint".to_owned()));
        let text = std::fs::read_to_string(dir.path().join(FILE_NAME)).unwrap();
        for token in [&olga, &one, &three, &three_again] {
            assert!(!text.contains(token.as_str()), "a token in clear: {text}");
            assert!(text.contains(&hex::encode(token_digest(token))));
        }
        // Re-issuing table 3: its codes go, table 1's stays.
        assert_eq!(auth.revoke("open26-table-3").unwrap(), 2);
        assert_eq!(who(&auth, &three), None);
        assert_eq!(who(&auth, &three_again), None);
        assert_eq!(who(&auth, &one).as_deref(), Some("open26-table-1 table"));
        // A restart reads what was kept.
        let restarted = Auth::of_daemon(None, KeptStore::in_dir(dir.path())).unwrap().unwrap();
        assert_eq!(who(&restarted, &one).as_deref(), Some("open26-table-1 table"));
        assert_eq!(who(&restarted, &three), None);
        let scope = restarted.kept().into_iter().find(|t| t.actor == "open26-table-1").unwrap().scope;
        assert_eq!(scope, table(1), "kept with its scope");
        // Every code revoked: still a ledgerd with tokens, never an open one.
        restarted.revoke("olga").unwrap();
        restarted.revoke("open26-table-1").unwrap();
        assert!(Auth::of_daemon(None, KeptStore::in_dir(dir.path())).unwrap().is_some());
        // Only the store and its lock in the folder: no temporary file left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn a_sign_in_is_a_token_of_its_own_and_signing_out_ends_only_it() {
        let dir = tempfile::tempdir().unwrap();
        let auth_file = dir.path().join("auth.json");
        file::add_entries(&auth_file, &[file::entry("jury-secret", "jury-1", Role::Jury)]).unwrap();
        let auth = Auth::of_daemon(Some(&auth_file), KeptStore::in_dir(dir.path())).unwrap().unwrap();
        let code = auth.issue("open26-table-1", Role::Table, table(1), "sheet").unwrap();
        let reprint = auth.issue("open26-table-1", Role::Table, table(1), "reprint").unwrap();
        let (tablet, other) =
            (auth.open_session(&code).unwrap().unwrap(), auth.open_session(&reprint).unwrap().unwrap());
        assert_ne!(tablet, code);
        assert_eq!(who(&auth, &tablet).as_deref(), Some("open26-table-1 table"));
        let session = auth.kept().into_iter().find(|k| k.is_session()).unwrap();
        assert_eq!(session.scope, table(1), "a sign-in records where its code does");
        auth.end_session(&tablet).unwrap();
        assert_eq!(who(&auth, &tablet), None, "signed out");
        assert_eq!(who(&auth, &other).as_deref(), Some("open26-table-1 table"), "another browser stays in");
        auth.end_session(&code).unwrap();
        // An auth file's code signs in too; its sign-in is kept.
        let jury = auth.open_session("jury-secret").unwrap().unwrap();
        assert_eq!(who(&auth, &jury).as_deref(), Some("jury-1 jury"));
        assert_eq!(auth.open_session("unknown").unwrap_err().code(), crate::error::Code::Unauthenticated);
        auth.end_session("jury-secret").unwrap();
        assert_eq!(who(&auth, "jury-secret").as_deref(), Some("jury-1 jury"), "signing out never revokes a code");
        // A person's code signed in over and over holds at most MAX_SESSIONS_PER_ACTOR sign-ins: the oldest end.
        let many: Vec<String> =
            (0..MAX_SESSIONS_PER_ACTOR).map(|_| auth.open_session("jury-secret").unwrap().unwrap()).collect();
        assert_eq!(who(&auth, &jury), None, "the oldest sign-in ended");
        assert!(many.iter().all(|t| who(&auth, t).is_some()));
        let sessions = auth.kept().into_iter().filter(|k| k.is_session() && k.actor == "jury-1").count();
        assert_eq!(sessions, MAX_SESSIONS_PER_ACTOR);
        // Re-issuing the table's code ends its sign-ins too.
        auth.revoke("open26-table-1").unwrap();
        assert_eq!(who(&auth, &other), None);
        assert_eq!(Auth::Open.open_session("x").unwrap(), None);
    }

    #[test]
    fn bad_requests_change_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let auth_file = dir.path().join("auth.json");
        file::add_entries(&auth_file, &[file::entry("jury-secret", "jury-1", Role::Jury)]).unwrap();
        let data = dir.path().join("data");
        let auth = Auth::of_daemon(Some(&auth_file), KeptStore::in_dir(&data)).unwrap().unwrap();
        assert_eq!(who(&auth, "jury-secret").as_deref(), Some("jury-1 jury"), "the auth file's tokens too");
        let refused = auth.revoke("jury-1").unwrap_err();
        assert_eq!(refused.code(), crate::error::Code::FailedPrecondition);
        assert!(refused.message().contains("auth file"), "{}", refused.message());
        assert_eq!(who(&auth, "jury-secret").as_deref(), Some("jury-1 jury"));
        for (actor, role, scope, label) in [
            ("", Role::Jury, Scope::default(), ""),
            ("x", Role::Public, Scope::default(), ""),
            ("x", Role::Table, Scope { tournament: None, table: Some(1), streams: Vec::new() }, ""),
            ("x", Role::Jury, Scope::default(), "a\u{202e}b"),
            ("x", Role::Jury, Scope::default(), &"l".repeat(MAX_LABEL_CHARS + 1)),
        ] {
            let refused = auth.issue(actor, role, scope, label).unwrap_err();
            assert_eq!(refused.code(), crate::error::Code::InvalidArgument, "{actor:?} {label:?}");
        }
        assert!(!data.join(FILE_NAME).exists(), "a refused code wrote the store");
        let open = Auth::Open.issue("olga", Role::Organiser, Scope::default(), "").unwrap_err();
        assert_eq!(open.code(), crate::error::Code::FailedPrecondition);
        assert_eq!(Auth::Open.revoke("olga").unwrap_err().code(), crate::error::Code::FailedPrecondition);
    }

    #[test]
    fn the_store_is_bounded_and_a_reload_reads_another_process_s_codes() {
        let dir = tempfile::tempdir().unwrap();
        let store = KeptStore::in_dir(dir.path());
        store
            .update(|entries| {
                entries.extend(
                    (0..MAX_KEPT - 1)
                        .map(|n| KeptEntry::new(&format!("t{n}"), "open26-table-1", Role::Table, table(1), "", 0)),
                );
                Ok(())
            })
            .unwrap();
        let auth = Auth::of_daemon(None, KeptStore::in_dir(dir.path())).unwrap().unwrap();
        auth.issue("olga", Role::Organiser, Scope::default(), "").unwrap();
        let full = auth.issue("olga", Role::Organiser, Scope::default(), "").unwrap_err();
        assert_eq!(full.code(), crate::error::Code::ResourceExhausted);
        assert_eq!(auth.kept().len(), MAX_KEPT);
        // Another process (`ledgerd organiser`) changes the file; a reload (SIGHUP) admits it.
        let (token, _) = store
            .update(|entries| {
                entries.retain(|e| e.actor != "open26-table-1");
                entries.push(KeptEntry::new("other-process", "omar", Role::Organiser, Scope::default(), "", 0));
                Ok("other-process")
            })
            .unwrap();
        assert_eq!(who(&auth, token), None);
        assert_eq!(auth.reload().unwrap(), 2);
        assert_eq!(who(&auth, token).as_deref(), Some("omar organiser"));
        assert_eq!(who(&auth, "t0"), None);
    }
}
