//! Each player's personal link, `/me/<tournament>/<code>`: the code is the first 16 hex digits
//! (64 bits) of HMAC-SHA256 over the tournament id and the player id, under a key only ledgerd
//! knows. Player ids may be real names and pseudonyms are public, so a code made from either
//! alone could be guessed; with the key it cannot, and it needs no table of codes: the same key
//! gives the same link on every printout, and a page finds its player by computing the codes of
//! the tournament's players.
//!
//! ledgerd keeps the key in its data directory (`player-links.key`, 32 random bytes in hex,
//! created on its first start with mode 0600), so links stay valid across restarts. Pages built
//! without one (tests) use a random key held in memory.

use sha2::Sha256;
use std::io::{Read, Write};
use std::path::Path;

/// The key file's name in ledgerd's data directory.
pub const KEY_FILE: &str = "player-links.key";

/// The hex digits a code has.
pub const CODE_LEN: usize = 16;

/// The key that makes the players' codes.
#[derive(Clone)]
pub struct PlayerLinks {
    key: [u8; 32],
}

impl std::fmt::Debug for PlayerLinks {
    /// Never the key.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PlayerLinks(..)")
    }
}

impl PlayerLinks {
    /// A key from the kernel, held in memory only.
    ///
    /// # Errors
    /// `/dev/urandom` cannot be read.
    pub fn random() -> std::io::Result<PlayerLinks> {
        let mut key = [0u8; 32];
        std::fs::File::open("/dev/urandom")?.read_exact(&mut key)?;
        Ok(PlayerLinks { key })
    }

    /// The key kept in `dir` ([`KEY_FILE`]), made (random, mode 0600) if there is none yet.
    /// A new key is written whole to a file of its own, synced, then linked into place, so a
    /// crash leaves either no key or the whole key, and of two ledgerd starting at once on one
    /// directory both read the one that was linked first.
    ///
    /// # Errors
    /// The file cannot be read or written, or does not hold 64 hex digits.
    pub fn load_or_create(dir: &Path) -> std::io::Result<PlayerLinks> {
        let path = dir.join(KEY_FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let bytes = hex::decode(text.trim()).ok().and_then(|b| <[u8; 32]>::try_from(b).ok());
                let key = bytes.ok_or_else(|| {
                    let what = format!("{} does not hold a key (64 hex digits)", path.display());
                    std::io::Error::new(std::io::ErrorKind::InvalidData, what)
                })?;
                Ok(PlayerLinks { key })
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                let links = PlayerLinks::random()?;
                std::fs::create_dir_all(dir)?;
                // Made with mode 0600 (`tempfile`'s), which the link keeps.
                let mut fresh = tempfile::Builder::new().prefix(".player-links.").tempfile_in(dir)?;
                fresh.write_all(hex::encode(links.key).as_bytes())?;
                fresh.as_file().sync_all()?;
                match std::fs::hard_link(fresh.path(), &path) {
                    Ok(()) => {
                        std::fs::File::open(dir)?.sync_all()?;
                        Ok(links)
                    }
                    // Another ledgerd made one meanwhile: that one is the key.
                    Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => PlayerLinks::load_or_create(dir),
                    Err(error) => Err(error),
                }
            }
            Err(error) => Err(error),
        }
    }

    /// The code of `player` in `tournament` (ids, not stream names): 16 lowercase hex digits.
    pub fn code(&self, tournament: &str, player: &str) -> String {
        // Lengths first, so that no two (tournament, player) pairs give the same message.
        let mut message = Vec::with_capacity(16 + tournament.len() + player.len());
        message.extend_from_slice(&(tournament.len() as u64).to_be_bytes());
        message.extend_from_slice(tournament.as_bytes());
        message.extend_from_slice(&(player.len() as u64).to_be_bytes());
        message.extend_from_slice(player.as_bytes());
        let mac = hmac_sha256(&self.key, &message);
        hex::encode(&mac[..CODE_LEN / 2])
    }

    /// Of `players` (ids), the one whose code in `tournament` is `code`.
    pub fn find<'a>(
        &self,
        tournament: &str,
        code: &str,
        players: impl IntoIterator<Item = &'a str>,
    ) -> Option<&'a str> {
        if code.len() != CODE_LEN {
            return None;
        }
        players.into_iter().find(|player| self.code(tournament, player) == code)
    }
}

/// HMAC-SHA256 (RFC 2104), by the RustCrypto `hmac` crate.
fn hmac_sha256(key: &[u8; 32], message: &[u8]) -> [u8; 32] {
    use hmac::{Hmac, Mac};
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(message);
    mac.finalize().into_bytes().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc_4231_test_case_1() {
        // RFC 4231 test case 1: key 0x0b × 20 (zero-padded to a block, as any short key is).
        let mut key = [0u8; 32];
        key[..20].fill(0x0b);
        let key20 = hmac_sha256(&key, b"Hi There");
        assert_eq!(hex::encode(key20), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    }

    #[test]
    fn codes_differ_by_tournament_and_player_and_key_and_are_found_back() {
        let links = PlayerLinks::random().unwrap();
        let code = links.code("cafe26", "ana");
        assert_eq!(code.len(), CODE_LEN);
        assert!(code.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_eq!(code, links.code("cafe26", "ana"));
        assert_ne!(code, links.code("cafe27", "ana"));
        assert_ne!(code, links.code("cafe26", "ben"));
        // The lengths keep ("ab", "c") apart from ("a", "bc").
        assert_ne!(links.code("ab", "c"), links.code("a", "bc"));
        assert_ne!(code, PlayerLinks::random().unwrap().code("cafe26", "ana"));
        assert_eq!(links.find("cafe26", &code, ["ben", "ana"]), Some("ana"));
        assert_eq!(links.find("cafe26", &code, ["ben"]), None);
        assert_eq!(links.find("cafe26", "ANA", ["ana"]), None);
    }

    #[test]
    fn the_key_is_made_once_private_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let first = PlayerLinks::load_or_create(dir.path()).unwrap();
        let again = PlayerLinks::load_or_create(dir.path()).unwrap();
        assert_eq!(first.code("t", "p"), again.code("t", "p"));
        let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|f| f.unwrap().file_name()).collect();
        assert_eq!(files, [KEY_FILE], "the key alone, no file left half-made");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(KEY_FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::write(dir.path().join(KEY_FILE), "not a key").unwrap();
        let refused = PlayerLinks::load_or_create(dir.path()).unwrap_err();
        assert_eq!(refused.kind(), std::io::ErrorKind::InvalidData);
    }
}
