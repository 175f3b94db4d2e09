//! `<data dir>/acme/`: `account.json` (the account's key and the directory it belongs to) and
//! `certificate.pem` (the chain, then its key), each replaced whole and synced
//! (`ledger_house::auth::durable`), readable by ledgerd's user only. Read at start, so a restart
//! reuses both instead of asking the authority again (Let's Encrypt limits how often it issues
//! a certificate for the same names).

use instant_acme::AccountCredentials;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

pub(super) struct Store {
    dir: PathBuf,
}

/// What `account.json` holds: an account belongs to one authority.
#[derive(serde::Serialize, serde::Deserialize)]
struct KeptAccount {
    directory: String,
    credentials: AccountCredentials,
}

/// The kept certificate: what it is for and when it is valid.
#[derive(Debug)]
pub(super) struct Held {
    names: Vec<String>,
    not_before: SystemTime,
    not_after: SystemTime,
}

impl Held {
    /// Every configured name is in the certificate.
    pub(super) fn covers(&self, domains: &[String]) -> bool {
        domains.iter().all(|d| self.names.contains(d))
    }

    /// When a third of its validity is left.
    pub(super) fn renewal_due(&self) -> SystemTime {
        let validity = self.not_after.duration_since(self.not_before).unwrap_or(Duration::ZERO);
        self.not_after - validity / 3
    }
}

/// A file of `<data dir>/acme/` that cannot be read or written.
#[derive(Debug, thiserror::Error)]
#[error("cannot keep {path}: {reason}")]
pub struct StoreError {
    pub path: String,
    pub reason: String,
}

fn failed(path: &Path, reason: impl ToString) -> StoreError {
    StoreError { path: path.display().to_string(), reason: reason.to_string() }
}

impl Store {
    pub(super) fn new(data_dir: &Path) -> Store {
        Store { dir: data_dir.join("acme") }
    }

    pub(super) fn certificate_path(&self) -> PathBuf {
        self.dir.join("certificate.pem")
    }

    fn account_path(&self) -> PathBuf {
        self.dir.join("account.json")
    }

    fn make_dir(&self) -> Result<(), StoreError> {
        use std::os::unix::fs::DirBuilderExt;
        std::fs::DirBuilder::new().recursive(true).mode(0o700).create(&self.dir).map_err(|e| failed(&self.dir, e))
    }

    /// The kept account, if it belongs to `directory` (another authority's is not used).
    pub(super) fn account(&self, directory: &str) -> Result<Option<AccountCredentials>, StoreError> {
        let path = self.account_path();
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(failed(&path, e)),
        };
        let kept: KeptAccount = serde_json::from_str(&text).map_err(|e| failed(&path, e))?;
        Ok((kept.directory == directory).then_some(kept.credentials))
    }

    pub(super) fn save_account(&self, directory: &str, credentials: AccountCredentials) -> Result<(), StoreError> {
        self.make_dir()?;
        let path = self.account_path();
        let kept = KeptAccount { directory: directory.to_owned(), credentials };
        let text = serde_json::to_string_pretty(&kept).map_err(|e| failed(&path, e))?;
        ledger_house::auth::durable::replace(&path, &text, |_| Ok(())).map_err(|e| failed(&path, e))
    }

    /// The kept certificate; `None` when there is none yet.
    pub(super) fn certificate(&self) -> Result<Option<Held>, StoreError> {
        let path = self.certificate_path();
        match std::fs::read(&path) {
            Ok(pem) => held(&pem).map(Some).map_err(|e| failed(&path, e)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(failed(&path, e)),
        }
    }

    /// Replaces the certificate and its key in one file; a chain that cannot be read is refused
    /// and the old file stays.
    pub(super) fn save_certificate(&self, chain: &str, key: &str) -> Result<(), StoreError> {
        self.make_dir()?;
        let path = self.certificate_path();
        let text = format!("{}\n{key}", chain.trim_end());
        ledger_house::auth::durable::replace(&path, &text, |temp| {
            held(&std::fs::read(temp).map_err(|e| e.to_string())?).map(drop)
        })
        .map_err(|e| failed(&path, e))
    }
}

/// Reads the first certificate of a PEM chain: its DNS names and validity.
fn held(pem: &[u8]) -> Result<Held, String> {
    let first = CertificateDer::pem_slice_iter(pem).next().ok_or("no certificate in it")?.map_err(|e| e.to_string())?;
    let (_, cert) = x509_parser::parse_x509_certificate(&first).map_err(|e| e.to_string())?;
    let time = |t: x509_parser::time::ASN1Time| {
        SystemTime::UNIX_EPOCH + Duration::from_secs(u64::try_from(t.timestamp()).unwrap_or(0))
    };
    let names = match cert.subject_alternative_name().map_err(|e| e.to_string())? {
        Some(san) => san
            .value
            .general_names
            .iter()
            .filter_map(|name| match name {
                x509_parser::extensions::GeneralName::DNSName(name) => Some(name.to_ascii_lowercase()),
                _ => None,
            })
            .collect(),
        None => Vec::new(),
    };
    let validity = cert.validity();
    Ok(Held { names, not_before: time(validity.not_before), not_after: time(validity.not_after) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_certificate_is_read_back_and_due_when_a_third_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path());
        assert!(store.certificate().unwrap().is_none());
        let key = rcgen::KeyPair::generate().unwrap();
        let mut params = rcgen::CertificateParams::new(vec!["hall.example.org".to_owned()]).unwrap();
        let start = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        params.not_before = start.into();
        params.not_after = (start + Duration::from_secs(90 * 86_400)).into();
        let cert = params.self_signed(&key).unwrap();
        store.save_certificate(&cert.pem(), &key.serialize_pem()).unwrap();
        let held = store.certificate().unwrap().unwrap();
        assert!(held.covers(&["hall.example.org".to_owned()]));
        assert!(!held.covers(&["other.example.org".to_owned()]));
        assert_eq!(held.renewal_due(), start + Duration::from_secs(60 * 86_400));
        // The file is the pages' certificate: chain and key, readable by rustls.
        let files = super::super::AcmeConfig::files(dir.path());
        crate::tls::WebCertificate::load(&files).unwrap();
        // A chain that is not a certificate changes nothing.
        assert!(store.save_certificate("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----", "").is_err());
        assert!(store.certificate().unwrap().unwrap().covers(&["hall.example.org".to_owned()]));
    }
}
