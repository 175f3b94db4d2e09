//! `ledgerd organiser`: the first organiser's code, one command before the day (issue 33). It
//! mints an organiser's token into the tokens ledgerd keeps in its data directory
//! (`ledger_house::auth::kept`) and gives the sign-in link that carries it; from then on the
//! organiser issues every other code from the console. A ledgerd started afterwards runs with
//! tokens and admits it at once; one already running admits it on SIGHUP.

use ledger_house::auth::{KeptStore, Role, Scope};
use ledger_house::error::Error;
use ledger_house::paper::tables::{person_signin_link, site_url};
use std::path::Path;

/// The label the console lists such a code under.
pub const LABEL: &str = "ledgerd organiser";

/// Mints organiser `name`'s code into `data_dir`'s kept tokens; the sign-in link at the site
/// `url` (`https://host:port`), the only place the token is written in clear.
///
/// # Errors
/// `INVALID_ARGUMENT` for a bad site or name; as `KeptStore::issue` otherwise.
pub fn first_organiser(data_dir: &Path, url: &str, name: &str) -> Result<String, Error> {
    let base = site_url(url).map_err(Error::InvalidArgument)?;
    let token = KeptStore::in_dir(data_dir).issue(name, Role::Organiser, Scope::default(), LABEL)?;
    Ok(person_signin_link(&base, None, &token))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_link_carries_a_kept_organiser_token() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let link = first_organiser(&data, "https://hall.local:8443/", "olga").unwrap();
        let token = link.strip_prefix("https://hall.local:8443/signin#token=").expect(&link);
        let auth = ledger_house::auth::Auth::of_daemon(None, KeptStore::in_dir(&data)).unwrap().unwrap();
        let mut metadata = tonic::metadata::MetadataMap::new();
        metadata.insert("authorization", format!("Bearer {token}").parse().unwrap());
        let who = auth.identify(&metadata).unwrap();
        assert_eq!((who.actor.as_str(), who.role), ("olga", Role::Organiser));
        let refused = first_organiser(&data, "hall.local", "olga").unwrap_err();
        assert_eq!(refused.code(), ledger_house::error::Code::InvalidArgument);
        assert_eq!(auth.kept().len(), 1, "a refused command kept nothing");
    }
}
