//! Devices: a browser's sign-in is a device of its own, with its own token, its own share of
//! what its table may record ([`super::Quotas`]) and its own end (issue 42).
//!
//! A table's code lies printed on the table of a public hall, so anyone may photograph it. A
//! printed code — one scoped to a table, as `ledgerctl tournament tables` and the console's
//! sheet make every one — is therefore **spent by its first sign-in**: from then on it admits nothing by itself —
//! no request, no further sign-in —, and a stranger with the photo can neither sign the table's
//! tablet out (no sign-in of theirs ends another) nor record as it. When the table really needs
//! a second device (a tablet swapped, a phone beside it), the organiser lets one more device
//! sign in with that table's codes from the console ([`Auth::admit_device`]), or re-issues the
//! code; the console lists each table's signed-in devices and ends any one of them
//! ([`Auth::end_device`]). A jury member's or an organiser's code, which is not printed, signs in
//! as often as its holder likes (their oldest sign-in ends past
//! [`kept::MAX_SESSIONS_PER_ACTOR`]); so does a table's token bound to no table (a club's own
//! device, set up by hand), whose sign-ins past that bound are refused rather than ending one.
//! Whatever the code, a sign-in never ends another device's.

use super::kept::{self, SpentCode};
use super::{token_digest, Auth, Role};
use crate::error::Error;

impl Auth {
    /// A browser's sign-in with `token` (a code it knows, kept or of the auth file): a fresh
    /// token for the same actor, role and scope, kept until [`kept::SESSION_MS`] from now, for
    /// the browser's cookie, so that signing out ([`Auth::end_session`]) revokes that browser
    /// alone. A table's printed code (scoped to its table) is spent by it: it signs in no other
    /// device until the organiser says so. Ended sign-ins are dropped; a person's oldest past
    /// [`kept::MAX_SESSIONS_PER_ACTOR`] ends. `None` where nothing is kept (the cookie then
    /// holds the code itself).
    ///
    /// # Errors
    /// `UNAUTHENTICATED` for a token it does not know; `FAILED_PRECONDITION` for a table's code
    /// already spent; `RESOURCE_EXHAUSTED` for a table already holding
    /// [`kept::MAX_SESSIONS_PER_ACTOR`] devices; as [`Auth::issue`] when it cannot be kept.
    pub fn open_session(&self, token: &str) -> Result<Option<String>, Error> {
        let Auth::Tokens(table) = self else { return Ok(None) };
        if table.sources.kept.is_none() {
            return Ok(None);
        }
        let digest = token_digest(token);
        if table.read().is_spent(&digest) {
            return Err(spent_refusal());
        }
        let who = table.get(&digest).ok_or_else(|| Error::Unauthenticated("unknown token".into()))?;
        let (session, mut entry) = kept::minted(&who.actor, who.role, who.scope.clone(), "sign-in")?;
        let now = kept::now_ms();
        entry.expires_at_ms = Some(now.saturating_add(kept::SESSION_MS));
        let sha256 = hex::encode(digest);
        table.change_stored(|stored| {
            stored.tokens.retain(|kept| kept.live(now));
            let is_code = stored.tokens.iter().all(|kept| kept.sha256 != sha256 || kept.expires_at_ms.is_none());
            if who.role == Role::Table && who.scope.table.is_some() && is_code {
                if stored.spent.iter().any(|spent| spent.sha256 == sha256) {
                    return Err(spent_refusal());
                }
                stored.spent.push(SpentCode { sha256, actor: who.actor.clone(), at_ms: now });
            }
            let theirs: Vec<usize> = (0..stored.tokens.len())
                .filter(|&n| stored.tokens[n].actor == entry.actor && stored.tokens[n].expires_at_ms.is_some())
                .collect();
            let over = (theirs.len() + 1).saturating_sub(kept::MAX_SESSIONS_PER_ACTOR);
            if over > 0 && who.role == Role::Table {
                return Err(Error::ResourceExhausted(format!(
                    "{} already has {} signed-in devices: the organiser ends one from the codes page first",
                    who.actor,
                    theirs.len()
                )));
            }
            // Kept in the order issued: the first are the oldest.
            for n in theirs.into_iter().take(over).rev() {
                stored.tokens.remove(n);
            }
            stored.tokens.push(entry);
            Ok(())
        })?;
        Ok(Some(session))
    }

    /// Whether `token` may still sign in: not a table's code spent by its first sign-in.
    ///
    /// # Errors
    /// `FAILED_PRECONDITION` for a spent code, with the sentence saying what to do.
    pub fn unspent(&self, token: &str) -> Result<(), Error> {
        match self {
            Auth::Tokens(table) if table.read().is_spent(&token_digest(token)) => Err(spent_refusal()),
            _ => Ok(()),
        }
    }

    /// Whether a code of `actor` (kept or of the auth file) is spent by its first sign-in: the
    /// organiser may then let one more device sign in.
    pub fn has_spent_code(&self, actor: &str) -> bool {
        matches!(self, Auth::Tokens(table) if table.read().spent_actors.contains(actor))
    }

    /// Signing out: the sign-in `token` is revoked, at once and durably. A code (printed, shown,
    /// of the auth file) is never revoked here; an unknown token is nothing to do.
    ///
    /// # Errors
    /// `INTERNAL` when the store cannot be written.
    pub fn end_session(&self, token: &str) -> Result<(), Error> {
        let Auth::Tokens(table) = self else { return Ok(()) };
        let digest = hex::encode(token_digest(token));
        let is_session = table.read().kept.iter().any(|k| k.sha256 == digest && k.expires_at_ms.is_some());
        if !is_session {
            return Ok(());
        }
        table.change_kept(|entries| {
            entries.retain(|kept| !(kept.sha256 == digest && kept.expires_at_ms.is_some()));
            Ok(())
        })
    }

    /// The organiser ends `actor`'s signed-in device `device` (as [`super::KeptToken::device`]
    /// names it): it is signed out at once. Whether there was one.
    ///
    /// # Errors
    /// `FAILED_PRECONDITION` on an open ledgerd or one that keeps no tokens; `INTERNAL` when the
    /// store cannot be written.
    pub fn end_device(&self, actor: &str, device: &str) -> Result<bool, Error> {
        let table = self.table()?;
        let ended = |kept: &kept::KeptEntry| {
            kept.actor == actor && kept.expires_at_ms.is_some() && device.len() == 16 && kept.sha256.starts_with(device)
        };
        table.change_kept(|entries| {
            let before = entries.len();
            entries.retain(|kept| !ended(kept));
            Ok(entries.len() < before)
        })
    }

    /// The organiser lets one more device sign in with `actor`'s codes: its spent codes admit
    /// again until each signs in once more. How many were spent.
    ///
    /// # Errors
    /// As [`Auth::end_device`].
    pub fn admit_device(&self, actor: &str) -> Result<usize, Error> {
        let table = self.table()?;
        table.change_stored(|stored| {
            let before = stored.spent.len();
            stored.spent.retain(|spent| spent.actor != actor);
            Ok(before - stored.spent.len())
        })
    }
}

/// A photographed code after its tablet signed in.
fn spent_refusal() -> Error {
    Error::FailedPrecondition(
        "this table's code has already signed in its device: ask the organiser to let another device sign in, \
         or to re-issue the code"
            .into(),
    )
}

#[cfg(test)]
mod tests {
    use super::super::file::tests::who;
    use super::super::{file, KeptStore, Scope};
    use super::*;

    fn table(n: u32) -> Scope {
        Scope { tournament: Some("open26".into()), table: Some(n), streams: Vec::new() }
    }

    #[test]
    fn a_tables_code_is_spent_by_its_first_sign_in_and_a_photo_of_it_signs_no_one_out() {
        let dir = tempfile::tempdir().unwrap();
        let auth_file = dir.path().join("auth.json");
        let printed = file::scoped_entry("printed-secret", "open26-table-2", Role::Table, &table(2));
        file::add_entries(&auth_file, &[printed]).unwrap();
        let auth = Auth::of_daemon(Some(&auth_file), KeptStore::in_dir(dir.path())).unwrap().unwrap();
        let code = auth.issue("open26-table-1", Role::Table, table(1), "sheet").unwrap();
        let tablet = auth.open_session(&code).unwrap().unwrap();
        assert_eq!(who(&auth, &tablet).as_deref(), Some("open26-table-1 table"));
        assert_eq!(who(&auth, &code), None, "a spent code admits nothing by itself");
        for _ in 0..100 {
            let refused = auth.open_session(&code).unwrap_err();
            assert_eq!(refused.code(), crate::error::Code::FailedPrecondition, "{}", refused.message());
        }
        assert_eq!(who(&auth, &tablet).as_deref(), Some("open26-table-1 table"), "the tablet stays signed in");
        let listed = auth.kept();
        assert!(listed.iter().any(|k| k.actor == "open26-table-1" && !k.is_session() && k.spent));
        assert!(auth.has_spent_code("open26-table-1") && !auth.has_spent_code("open26-table-2"));
        // The auth file's printed code is spent the same way, across a restart too.
        let other = auth.open_session("printed-secret").unwrap().unwrap();
        let restarted = Auth::of_daemon(Some(&auth_file), KeptStore::in_dir(dir.path())).unwrap().unwrap();
        assert_eq!(who(&restarted, "printed-secret"), None);
        assert_eq!(who(&restarted, &other).as_deref(), Some("open26-table-2 table"));
        // The organiser lets one more device sign in: the code signs in once more, then is spent.
        assert_eq!(auth.admit_device("open26-table-1").unwrap(), 1);
        let second = auth.open_session(&code).unwrap().unwrap();
        assert!(auth.open_session(&code).is_err());
        // The console ends one device: the other stays.
        let devices: Vec<String> = auth
            .kept()
            .into_iter()
            .filter(|k| k.is_session() && k.actor == "open26-table-1")
            .map(|k| k.device)
            .collect();
        assert_eq!(devices.len(), 2);
        assert!(!auth.end_device("open26-table-2", &devices[0]).unwrap(), "another table's device is not this one");
        assert!(auth.end_device("open26-table-1", &devices[0]).unwrap());
        assert_eq!(who(&auth, &tablet), None, "the first device, ended");
        assert_eq!(who(&auth, &second).as_deref(), Some("open26-table-1 table"));
        // A person's code signs in as often as they like.
        let olga = auth.issue("olga", Role::Organiser, Scope::default(), "").unwrap();
        for _ in 0..3 {
            auth.open_session(&olga).unwrap().unwrap();
        }
        assert_eq!(who(&auth, &olga).as_deref(), Some("olga organiser"));
    }
}
