//! Certificates by ACME (RFC 8555, issue 34): ledgerd asks a certificate authority (Let's Encrypt
//! by default) for a certificate for the hall's names, proves it answers for them with HTTP-01
//! challenges on the plain-HTTP port (`--http-redirect-listen`, port 80 for a public CA), keeps
//! the account and the certificate in `<data dir>/acme/`, and renews the certificate when a third
//! of its validity is left. The pages' port reads each new certificate as SIGHUP makes it read a
//! certificate file ([`crate::tls::WebCertificate`]): new connections get it, open ones go on.

mod challenges;
mod order;
mod store;

pub use challenges::Challenges;

use crate::tls::{TlsFiles, WebCertificate};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};
use tokio::sync::watch;

/// Let's Encrypt's production directory: `--acme-directory`'s default.
pub const LETS_ENCRYPT: &str = "https://acme-v02.api.letsencrypt.org/directory";
/// Let's Encrypt's staging directory: untrusted certificates, generous rate limits, for a rehearsal.
pub const LETS_ENCRYPT_STAGING: &str = "https://acme-staging-v02.api.letsencrypt.org/directory";

/// What `--acme-domain`, `--acme-directory`, `--acme-contact` and `--acme-ca-root` say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcmeConfig {
    /// The names the certificate is for (each must reach this ledgerd on port 80).
    pub domains: Vec<String>,
    /// The certificate authority's directory URL.
    pub directory: String,
    /// `mailto:` addresses the authority may write to about the account.
    pub contact: Vec<String>,
    /// A root to trust for the authority's own HTTPS (a test CA such as pebble's) instead of
    /// the system's.
    pub ca_root: Option<PathBuf>,
}

/// A flag that cannot be used; ledgerd does not start.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AcmeConfigError {
    #[error("--acme-domain: give at least one name")]
    NoDomain,
    #[error("--acme-domain {0:?}: not a DNS name (letters, digits, hyphens and dots, at most 253 characters)")]
    Domain(String),
    #[error("--acme-contact {0:?}: give a mailto: address")]
    Contact(String),
    #[error("--acme-directory {0:?}: give an https:// URL")]
    Directory(String),
}

impl AcmeConfig {
    /// Checks the flags: DNS names (lower-cased), `mailto:` contacts, an `https://` directory.
    ///
    /// # Errors
    /// The first flag that cannot be used.
    pub fn new(
        domains: Vec<String>,
        directory: String,
        contact: Vec<String>,
        ca_root: Option<PathBuf>,
    ) -> Result<AcmeConfig, AcmeConfigError> {
        if domains.is_empty() {
            return Err(AcmeConfigError::NoDomain);
        }
        let domains: Vec<String> = domains.into_iter().map(|d| d.to_ascii_lowercase()).collect();
        if let Some(bad) = domains.iter().find(|d| !is_dns_name(d)) {
            return Err(AcmeConfigError::Domain(bad.clone()));
        }
        if let Some(bad) = contact.iter().find(|c| !c.starts_with("mailto:") || c.len() <= 7 || c.len() > 254) {
            return Err(AcmeConfigError::Contact(bad.clone()));
        }
        if !directory.starts_with("https://") || directory.len() > 2_048 {
            return Err(AcmeConfigError::Directory(directory));
        }
        Ok(AcmeConfig { domains, directory, contact, ca_root })
    }

    /// The file the pages' port reads its certificate from: the chain and its key in one file,
    /// so that a crash can never leave a certificate beside another one's key.
    pub fn files(data_dir: &Path) -> TlsFiles {
        let path = store::Store::new(data_dir).certificate_path();
        TlsFiles { cert: path.clone(), key: path, client_ca: None }
    }
}

/// A name a certificate can be for: labels of letters, digits and inner hyphens, dot-separated.
pub fn is_dns_name(name: &str) -> bool {
    name.len() <= 253
        && name.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

/// Keeps a certificate for `config.domains` in `<data_dir>/acme/` until `stop`: obtains one when
/// there is none (or it is for other names), then sleeps until a third of its validity is left
/// and renews it; each new certificate is put in place durably and read by `certificate`. A
/// failed order is logged and tried again, sooner than the certificate runs out.
pub async fn keep(
    config: AcmeConfig,
    data_dir: PathBuf,
    certificate: Arc<WebCertificate>,
    challenges: Challenges,
    mut stop: watch::Receiver<bool>,
) {
    let store = store::Store::new(&data_dir);
    let mut failures = 0u32;
    loop {
        let due = match store.certificate() {
            Ok(Some(held)) if held.covers(&config.domains) => held.renewal_due(),
            Ok(_) => SystemTime::now(),
            Err(error) => {
                tracing::warn!(%error, "ACME: the kept certificate cannot be read; ordering a new one");
                SystemTime::now()
            }
        };
        let wait = due.duration_since(SystemTime::now()).unwrap_or(Duration::ZERO);
        if !wait.is_zero() {
            tracing::info!(
                in_secs = wait.as_secs(),
                "ACME: the certificate is renewed when a third of its validity is left"
            );
        }
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            _ = stop.wait_for(|stop| *stop) => return,
        }
        let obtained = tokio::select! {
            obtained = order::obtain(&config, &store, &challenges) => obtained,
            _ = stop.wait_for(|stop| *stop) => return,
        };
        match obtained.and_then(|(chain, key)| Ok(store.save_certificate(&chain, &key)?)) {
            Ok(()) => match certificate.reload() {
                Ok(()) => {
                    failures = 0;
                    tracing::info!(domains = ?config.domains, "ACME: a new certificate is served");
                }
                Err(error) => {
                    failures += 1;
                    tracing::error!(%error, "ACME: the new certificate cannot be served");
                }
            },
            Err(error) => {
                failures += 1;
                tracing::error!(%error, failures, "ACME: no certificate this time; trying again");
            }
        }
        if failures > 0 {
            // 10 s, 20 s, 40 s … at most an hour: a CA that is away is not hammered, and a
            // certificate with a third of its life left (30 days at Let's Encrypt) has many tries.
            let backoff = Duration::from_secs(10u64 << failures.min(9)).min(Duration::from_secs(3_600));
            tokio::select! {
                () = tokio::time::sleep(backoff) => {}
                _ = stop.wait_for(|stop| *stop) => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(domains: &[&str], contact: &[&str], directory: &str) -> Result<AcmeConfig, AcmeConfigError> {
        AcmeConfig::new(
            domains.iter().map(|d| (*d).to_owned()).collect(),
            directory.to_owned(),
            contact.iter().map(|c| (*c).to_owned()).collect(),
            None,
        )
    }

    #[test]
    fn the_flags_are_checked() {
        let ok = config(&["Hall.Example.org"], &["mailto:ana@example.org"], LETS_ENCRYPT).unwrap();
        assert_eq!(ok.domains, ["hall.example.org"]);
        assert_eq!(config(&[], &[], LETS_ENCRYPT), Err(AcmeConfigError::NoDomain));
        for bad in ["", "a..b", "-a.org", "a-.org", "a b.org", "évora.pt", "x/y", &"a".repeat(64)] {
            assert_eq!(config(&[bad], &[], LETS_ENCRYPT), Err(AcmeConfigError::Domain(bad.to_owned())), "{bad}");
        }
        assert_eq!(
            config(&["a.org"], &["ana@example.org"], LETS_ENCRYPT),
            Err(AcmeConfigError::Contact("ana@example.org".into()))
        );
        assert!(matches!(config(&["a.org"], &[], "http://ca.test/dir"), Err(AcmeConfigError::Directory(_))));
    }
}
