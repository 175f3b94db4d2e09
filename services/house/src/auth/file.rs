//! Adding tokens to an auth file while ledgerd may be reading it: new tokens are minted here,
//! only their SHA-256 goes into the file, and the file is replaced whole (a temporary file in
//! the same directory, synced, then renamed over it), so a ledgerd reloading it on SIGHUP reads
//! either the old file or the new one, never half of one.
//!
//! Entries are only ever added: an actor may hold several tokens, so printing the tablets' sheet
//! again adds a token per table and logs no tablet out (issue 33). A token is revoked by removing
//! its entry from the file by hand and reloading, or, for the tokens ledgerd keeps itself, from
//! the console ([`super::kept`]).

use super::{token_digest, Auth, AuthFileError, Role, Scope};
use serde_json::{json, Value};
use std::path::Path;

/// A fresh random bearer token: 24 bytes from the kernel, in hex.
///
/// # Errors
/// `/dev/urandom` cannot be read.
pub fn mint_token() -> std::io::Result<String> {
    let mut bytes = [0u8; 24];
    std::io::Read::read_exact(&mut std::fs::File::open("/dev/urandom")?, &mut bytes)?;
    Ok(hex::encode(bytes))
}

/// The auth-file entry admitting `token` as `actor` with `role`, recording wherever the role may.
pub fn entry(token: &str, actor: &str, role: Role) -> Value {
    json!({"sha256": hex::encode(token_digest(token)), "actor": actor, "clearance": role.as_str()})
}

/// The same, recording only within `scope` (a table's code: its tournament and table).
pub fn scoped_entry(token: &str, actor: &str, role: Role, scope: &Scope) -> Value {
    let mut entry = entry(token, actor, role);
    if !scope.is_everywhere() {
        entry["scope"] = serde_json::to_value(scope).expect("a scope is plain data");
    }
    entry
}

/// Adds `entries` to the auth file at `path` (created if missing), keeping every entry it holds,
/// the same actors' earlier tokens too. The file written is checked the way ledgerd
/// reads it before it replaces the old one.
///
/// # Errors
/// The existing file is not an auth file, or the new one cannot be written.
pub fn add_entries(path: &Path, entries: &[Value]) -> Result<(), AuthFileError> {
    let fail = |reason: String| AuthFileError { path: path.display().to_string(), reason };
    let mut document: Value = match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text).map_err(|e| fail(e.to_string()))?,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => json!({"tokens": []}),
        Err(error) => return Err(fail(error.to_string())),
    };
    // The existing file must be one ledgerd accepts: nothing is added to a broken file.
    if path.exists() {
        Auth::load(path)?;
    }
    let tokens = document
        .get_mut("tokens")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| fail("an auth file is {\"tokens\": [...]}".into()))?;
    tokens.extend(entries.iter().cloned());
    let text = serde_json::to_string_pretty(&document).map_err(|e| fail(e.to_string()))?;
    super::durable::replace(path, &format!("{text}\n"), |temp| {
        Auth::load(temp).map(drop).map_err(|e| format!("the new file would not load: {}", e.reason))
    })
    .map_err(fail)?;
    Ok(())
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use tonic::metadata::MetadataMap;

    /// Whom `auth` admits `token` as: `actor role`.
    pub(in crate::auth) fn who(auth: &Auth, token: &str) -> Option<String> {
        let mut metadata = MetadataMap::new();
        metadata.insert("authorization", format!("Bearer {token}").parse().unwrap());
        auth.identify(&metadata).ok().map(|who| format!("{} {}", who.actor, who.role.as_str()))
    }

    #[test]
    fn new_tokens_join_the_old_ones_and_a_reprint_revokes_none() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("auth.json");
        std::fs::write(&path, json!({"tokens": [entry("jury-secret", "jury-1", Role::Jury)]}).to_string()).unwrap();
        let (first, second) = (mint_token().unwrap(), mint_token().unwrap());
        assert_eq!(first.len(), 48);
        assert_ne!(first, second);
        add_entries(
            &path,
            &[entry(&first, "open26-table-1", Role::Table), entry(&second, "open26-table-2", Role::Table)],
        )
        .unwrap();
        let auth = Auth::load(&path).unwrap();
        assert_eq!(who(&auth, "jury-secret").as_deref(), Some("jury-1 jury"));
        assert_eq!(who(&auth, &first).as_deref(), Some("open26-table-1 table"));
        assert_eq!(who(&auth, &second).as_deref(), Some("open26-table-2 table"));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains(&first), "a token is stored: {text}");
        // Table 1's sheet printed again: the tablet signed in with its first code stays signed in.
        let again = mint_token().unwrap();
        add_entries(&path, &[entry(&again, "open26-table-1", Role::Table)]).unwrap();
        let auth = Auth::load(&path).unwrap();
        assert_eq!(who(&auth, &first).as_deref(), Some("open26-table-1 table"));
        assert_eq!(who(&auth, &again).as_deref(), Some("open26-table-1 table"));
        assert_eq!(who(&auth, &second).as_deref(), Some("open26-table-2 table"));
        assert_eq!(who(&auth, "jury-secret").as_deref(), Some("jury-1 jury"));
        // Only the auth file is in the directory: no temporary file left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_broken_file_is_left_alone_and_a_missing_one_is_created() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("auth.json");
        std::fs::write(&path, "{\"tokens\": [{\"sha256\": \"zz\", \"actor\": \"x\", \"clearance\": \"jury\"}]}")
            .unwrap();
        let before = std::fs::read_to_string(&path).unwrap();
        let error = add_entries(&path, &[entry("t", "open26-table-1", Role::Table)]).unwrap_err();
        assert!(error.reason.contains("64 hex digits"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
        let fresh = dir.path().join("new.json");
        add_entries(&fresh, &[entry("t", "open26-table-1", Role::Table)]).unwrap();
        assert_eq!(who(&Auth::load(&fresh).unwrap(), "t").as_deref(), Some("open26-table-1 table"));
    }

    #[test]
    fn a_reload_admits_exactly_the_file_s_tokens() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("auth.json");
        add_entries(&path, &[entry("old", "jury-1", Role::Jury)]).unwrap();
        let auth = Auth::load(&path).unwrap();
        let shared = auth.clone();
        add_entries(&path, &[entry("new", "open26-table-1", Role::Table)]).unwrap();
        assert_eq!(who(&shared, "new"), None);
        assert_eq!(auth.reload().unwrap(), 2);
        // Every holder of the ledgerd's Auth sees the reload.
        assert_eq!(who(&shared, "new").as_deref(), Some("open26-table-1 table"));
        std::fs::write(&path, "not json").unwrap();
        assert!(auth.reload().is_err());
        assert_eq!(who(&shared, "old").as_deref(), Some("jury-1 jury"), "a broken file changed the tokens");
        assert!(Auth::Open.reload().is_err());
    }
}
