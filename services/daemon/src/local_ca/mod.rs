//! A hall without internet (issue 34): ledgerd's own certificate authority. Browsers give the
//! table's offline app its service worker only over HTTPS, and with no internet no public
//! authority (ACME) can be reached, so `--tls-local-ca <names>` makes ledgerd, once, a root of
//! its own in `<data dir>/local-ca/` and signs with it the pages' certificate for the venue
//! laptop's names and LAN addresses. Each tablet installs the root once (the printed trust page,
//! `ledger_web`'s `trust`); from then on its browser trusts the pages as it would a public site's.
//!
//! The root lives ten years and is never replaced by ledgerd: a new root would have to be
//! installed again on every tablet. It vouches only for the hall ([`limits`]: the names given
//! when it was made and private addresses). The pages' certificate lives 397 days (within what every
//! browser accepts of any certificate) and is signed again by the same root when a third of its
//! validity is left, or at once when the names change; a tablet notices nothing. Both begin a day
//! before they are made, so a tablet whose clock is a little behind (no internet to set it)
//! still accepts them.

mod issue;
mod limits;
mod store;

use crate::tls::{TlsFiles, WebCertificate};
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};
use tokio::sync::watch;

pub use store::LocalCaError;

/// One name the pages' certificate is for: the laptop's name (a DNS name the venue's router
/// resolves, or `.local`) or one of its LAN addresses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HallName {
    Dns(String),
    Ip(IpAddr),
}

impl HallName {
    /// How a browser's `Host` names it (an IPv6 address in brackets), lower-case.
    pub fn host(&self) -> String {
        match self {
            HallName::Dns(name) => name.clone(),
            HallName::Ip(IpAddr::V6(ip)) => format!("[{ip}]"),
            HallName::Ip(IpAddr::V4(ip)) => ip.to_string(),
        }
    }
}

/// What `--tls-local-ca` says: the names, the first of which names the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalCaConfig {
    pub names: Vec<HallName>,
}

/// A flag that cannot be used; ledgerd does not start.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LocalCaConfigError {
    #[error("--tls-local-ca: give at least one name or address of this machine")]
    NoName,
    #[error("--tls-local-ca {0:?}: neither a DNS name (letters, digits, hyphens and dots) nor an IP address")]
    Name(String),
}

impl LocalCaConfig {
    /// Checks the names: IP addresses, else DNS names (lower-cased); each once.
    ///
    /// # Errors
    /// No name, or the first that is neither.
    pub fn new(names: Vec<String>) -> Result<LocalCaConfig, LocalCaConfigError> {
        let mut checked: Vec<HallName> = Vec::new();
        for name in names {
            let trimmed = name.trim();
            let parsed = match trimmed.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>() {
                Ok(ip) => HallName::Ip(ip),
                Err(_) if crate::acme::is_dns_name(&trimmed.to_ascii_lowercase()) => {
                    HallName::Dns(trimmed.to_ascii_lowercase())
                }
                Err(_) => return Err(LocalCaConfigError::Name(name)),
            };
            if !checked.contains(&parsed) {
                checked.push(parsed);
            }
        }
        if checked.is_empty() {
            return Err(LocalCaConfigError::NoName);
        }
        Ok(LocalCaConfig { names: checked })
    }

    /// The hosts a browser may ask for (the plain-HTTP port redirects only to these).
    pub fn hosts(&self) -> Vec<String> {
        self.names.iter().map(HallName::host).collect()
    }

    /// The file the pages' port reads its certificate from: the certificate and its key in one
    /// file, as ACME's.
    pub fn files(data_dir: &Path) -> TlsFiles {
        let path = store::Store::new(data_dir).server_path();
        TlsFiles { cert: path.clone(), key: path, client_ca: None }
    }
}

/// The hall's root as the tablets install it.
#[derive(Debug, Clone)]
pub struct HallRoot {
    /// The root certificate (DER), served at `/hall/root.crt`.
    pub der: Vec<u8>,
    /// Its common name, as a tablet lists it ("Tournament Ledger hall root — <first name>").
    pub name: String,
    /// Where it is kept (PEM), for the organiser's own tools (`certutil`, a browser's import).
    pub path: PathBuf,
    /// The names it may vouch for beside private addresses; `None`: any site (a root made
    /// before roots were constrained, issue 42).
    pub limited_to: Option<Vec<String>>,
}

/// How long the root is valid: ten years, a venue laptop's life.
const ROOT_LIFETIME: Duration = Duration::from_secs(3_652 * 86_400);
/// How long the pages' certificate is valid: 397 days, the most any browser accepts of a
/// publicly trusted one (Apple's limit for user-installed roots, 825 days, is wider still).
const SERVER_LIFETIME: Duration = Duration::from_secs(397 * 86_400);
/// How far back both begin: a tablet without internet may have a clock a little behind.
const BACKDATE: Duration = Duration::from_secs(86_400);

/// Makes the root if there is none yet, and the pages' certificate if there is none, it is
/// for other names, from another root, or due: what ledgerd does at start, before it serves.
///
/// # Errors
/// A file cannot be read or written, or the root's key is missing beside its certificate
/// (ledgerd never makes a new root over one the tablets may trust).
pub fn prepare(config: &LocalCaConfig, data_dir: &Path, now: SystemTime) -> Result<HallRoot, LocalCaError> {
    let store = store::Store::new(data_dir);
    let root = store.root_or_create(&config.names, now)?;
    match root.permitted() {
        Some(permitted) => {
            if let Some(outside) = config.names.iter().find(|name| !permitted.allows(name)) {
                return Err(store::failed(
                    &store.root_path(),
                    format!(
                        "the hall's root vouches only for private addresses and {}, not for {}: a tablet would \
                         refuse it. Drop that name, or move {} away to make a new root (every tablet must then \
                         install it)",
                        permitted.dns.join(", "),
                        outside.host(),
                        store.dir().display()
                    ),
                ));
            }
        }
        None => tracing::warn!(
            "local CA: the hall's root was made before roots were limited to their hall: a tablet that \
             installed it trusts it for every site. Move {} away to make a limited one (every tablet must \
             then install it again)",
            store.dir().display()
        ),
    }
    let reissue = match store.server() {
        Ok(Some(held)) => !(held.covers(&config.names) && held.issued_by(&root) && held.renewal_due() > now),
        Ok(None) => true,
        Err(error) => {
            tracing::warn!(%error, "local CA: the pages' certificate cannot be read; signing a new one");
            true
        }
    };
    if reissue {
        store.save_server(&sign_server(&root, &config.names, now)?)?;
        tracing::info!(names = ?config.hosts(), "local CA: a new certificate for the pages, signed by the hall's root");
    }
    if root.not_after() < now + Duration::from_secs(365 * 86_400) {
        tracing::warn!(
            "local CA: the hall's root expires within a year; move {} away to make a new one, \
             and install that on every tablet",
            store.dir().display()
        );
    }
    tracing::info!(
        sha256 = %ledger_web::trust::fingerprint(root.der()),
        root = %store.root_path().display(),
        "local CA: the hall's root (each tablet installs it from /hall/trust)"
    );
    Ok(HallRoot {
        der: root.der().to_vec(),
        name: root.name().to_owned(),
        path: store.root_path(),
        limited_to: root.permitted().map(|permitted| permitted.dns.clone()),
    })
}

/// The pages' certificate for `names`, signed by `root`; what rcgen refuses is said of
/// `server.pem`, the file it was for.
fn sign_server(root: &store::Root, names: &[HallName], now: SystemTime) -> Result<String, LocalCaError> {
    let fail = |e: rcgen::Error| store::failed(Path::new("server.pem"), e);
    let issuer = root.issuer().map_err(fail)?;
    issue::server(&issuer, root.not_after(), names, now).map_err(fail)
}

/// Keeps the pages' certificate valid until `stop`: sleeps until a third of its validity is
/// left, signs a new one with the same root and has `certificate` serve it. A failure is logged
/// and tried again an hour later (months before the certificate runs out).
pub async fn keep(
    config: LocalCaConfig,
    data_dir: PathBuf,
    certificate: Arc<WebCertificate>,
    mut stop: watch::Receiver<bool>,
) {
    let store = store::Store::new(&data_dir);
    loop {
        let due = match store.server() {
            Ok(Some(held)) => held.renewal_due(),
            _ => SystemTime::now(),
        };
        let wait = due.duration_since(SystemTime::now()).unwrap_or(Duration::ZERO);
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            _ = stop.wait_for(|stop| *stop) => return,
        }
        let renewed = {
            let (config, data_dir) = (config.clone(), data_dir.clone());
            tokio::task::spawn_blocking(move || prepare(&config, &data_dir, SystemTime::now())).await
        };
        let failure = match renewed {
            Ok(Ok(_)) => certificate.reload().err().map(|e| e.to_string()),
            Ok(Err(error)) => Some(error.to_string()),
            Err(error) => Some(error.to_string()),
        };
        if let Some(error) = failure {
            tracing::error!(%error, "local CA: the pages' certificate was not renewed; trying again in an hour");
            tokio::select! {
                () = tokio::time::sleep(Duration::from_secs(3_600)) => {}
                _ = stop.wait_for(|stop| *stop) => return,
            }
        } else {
            tracing::info!("local CA: the renewed certificate is served");
        }
    }
}

#[cfg(test)]
mod tests;
