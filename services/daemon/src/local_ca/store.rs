//! `<data dir>/local-ca/` (0700): `root-key.pem` (the root's private key), `root.pem` (its
//! certificate) and `server.pem` (the pages' certificate, then its key), each replaced whole and
//! synced (`ledger_house::auth::durable`), readable by ledgerd's user only.
//!
//! The root's key is written before its certificate: a crash between the two leaves a key
//! without a certificate, which the next start completes (no tablet can have seen that root). A
//! certificate without its key is an error, never a reason to make a new root: the tablets trust
//! the old one, and only the organiser may decide they must all install another.

use super::limits::Permitted;
use super::{issue, HallName};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// A file of the local CA that cannot be read or written.
#[derive(Debug, thiserror::Error)]
#[error("local CA: {path}: {reason}")]
pub struct LocalCaError {
    pub path: String,
    pub reason: String,
}

pub(super) fn failed(path: &Path, reason: impl ToString) -> LocalCaError {
    LocalCaError { path: path.display().to_string(), reason: reason.to_string() }
}

pub(super) struct Store {
    dir: PathBuf,
}

/// The hall's root: its key and certificate.
pub(super) struct Root {
    key: rcgen::KeyPair,
    der: CertificateDer<'static>,
    /// The DER of its subject, which a certificate it signed names as issuer.
    subject: Vec<u8>,
    /// Its common name, as a tablet lists it.
    name: String,
    not_after: SystemTime,
    /// What it may vouch for; `None`: anything (made before issue 42).
    permitted: Option<Permitted>,
}

impl Root {
    pub(super) fn name(&self) -> &str {
        &self.name
    }

    pub(super) fn der(&self) -> &[u8] {
        &self.der
    }

    pub(super) fn not_after(&self) -> SystemTime {
        self.not_after
    }

    pub(super) fn permitted(&self) -> Option<&Permitted> {
        self.permitted.as_ref()
    }

    /// What signs with it (its name and key identifier read from its certificate).
    pub(super) fn issuer(&self) -> Result<rcgen::Issuer<'static, &rcgen::KeyPair>, rcgen::Error> {
        rcgen::Issuer::from_ca_cert_der(&self.der, &self.key)
    }
}

/// The pages' certificate as kept: what it is for, who signed it, when it is valid.
#[derive(Debug)]
pub(super) struct Held {
    dns: Vec<String>,
    ips: Vec<IpAddr>,
    issuer: Vec<u8>,
    not_before: SystemTime,
    not_after: SystemTime,
}

impl Held {
    /// Exactly the configured names: a name dropped from the flag is dropped from the certificate.
    pub(super) fn covers(&self, names: &[HallName]) -> bool {
        let wanted = names.len() == self.dns.len() + self.ips.len();
        wanted
            && names.iter().all(|name| match name {
                HallName::Dns(dns) => self.dns.contains(dns),
                HallName::Ip(ip) => self.ips.contains(ip),
            })
    }

    /// Signed by this root (one made by hand, or by a root since moved away, is not).
    pub(super) fn issued_by(&self, root: &Root) -> bool {
        self.issuer == root.subject
    }

    /// When a third of its validity is left.
    pub(super) fn renewal_due(&self) -> SystemTime {
        let validity = self.not_after.duration_since(self.not_before).unwrap_or(Duration::ZERO);
        self.not_after - validity / 3
    }
}

impl Store {
    pub(super) fn new(data_dir: &Path) -> Store {
        Store { dir: data_dir.join("local-ca") }
    }

    pub(super) fn dir(&self) -> &Path {
        &self.dir
    }

    pub(super) fn root_path(&self) -> PathBuf {
        self.dir.join("root.pem")
    }

    fn root_key_path(&self) -> PathBuf {
        self.dir.join("root-key.pem")
    }

    pub(super) fn server_path(&self) -> PathBuf {
        self.dir.join("server.pem")
    }

    fn make_dir(&self) -> Result<(), LocalCaError> {
        use std::os::unix::fs::DirBuilderExt;
        std::fs::DirBuilder::new().recursive(true).mode(0o700).create(&self.dir).map_err(|e| failed(&self.dir, e))
    }

    fn write(
        &self,
        path: &Path,
        text: &str,
        check: impl FnOnce(&Path) -> Result<(), String>,
    ) -> Result<(), LocalCaError> {
        self.make_dir()?;
        ledger_house::auth::durable::replace(path, text, check).map_err(|e| failed(path, e))
    }

    /// The kept root; made (key first, then certificate, named after the first of `names` and
    /// constrained to them) when there is none.
    pub(super) fn root_or_create(&self, names: &[HallName], now: SystemTime) -> Result<Root, LocalCaError> {
        let (key_path, cert_path) = (self.root_key_path(), self.root_path());
        let key = match read_optional(&key_path)? {
            Some(pem) => rcgen::KeyPair::from_pem(&pem).map_err(|e| failed(&key_path, e))?,
            None if cert_path.exists() => {
                return Err(failed(
                    &key_path,
                    "the hall's root certificate is here but its key is missing: restore root-key.pem from a \
                     copy, or move this folder away to make a new root (every tablet must then install it)",
                ))
            }
            None => {
                let key = rcgen::KeyPair::generate().map_err(|e| failed(&key_path, e))?;
                self.write(&key_path, &key.serialize_pem(), |_| Ok(()))?;
                key
            }
        };
        let pem = match read_optional(&cert_path)? {
            Some(pem) => pem,
            None => {
                let pem = issue::root(&key, names, now).map_err(|e| failed(&cert_path, e))?;
                self.write(&cert_path, &pem, |_| Ok(()))?;
                tracing::info!(root = %cert_path.display(), "local CA: a new hall root was made");
                pem
            }
        };
        let der = CertificateDer::from_pem_slice(pem.as_bytes()).map_err(|e| failed(&cert_path, e))?;
        let (_, cert) = x509_parser::parse_x509_certificate(&der).map_err(|e| failed(&cert_path, e))?;
        if cert.public_key().subject_public_key.data.as_ref() != key.public_key_raw() {
            return Err(failed(&cert_path, "the hall's root certificate is not the one of root-key.pem beside it"));
        }
        let subject = cert.tbs_certificate.subject.as_raw().to_vec();
        let name = cert.subject().iter_common_name().next().and_then(|cn| cn.as_str().ok()).unwrap_or_default();
        let name = name.to_owned();
        let not_after = time(cert.validity().not_after);
        let permitted = Permitted::of_root(&cert);
        Ok(Root { key, der: der.into_owned(), subject, name, not_after, permitted })
    }

    /// The kept pages' certificate; `None` when there is none yet.
    pub(super) fn server(&self) -> Result<Option<Held>, LocalCaError> {
        let path = self.server_path();
        match read_optional(&path)? {
            Some(pem) => held(pem.as_bytes()).map(Some).map_err(|e| failed(&path, e)),
            None => Ok(None),
        }
    }

    /// Replaces the pages' certificate and its key (one file); one that cannot be read is
    /// refused and the old file stays.
    pub(super) fn save_server(&self, chain_and_key: &str) -> Result<(), LocalCaError> {
        self.write(&self.server_path(), chain_and_key, |temp| {
            held(&std::fs::read(temp).map_err(|e| e.to_string())?).map(drop)
        })
    }
}

fn read_optional(path: &Path) -> Result<Option<String>, LocalCaError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(failed(path, e)),
    }
}

fn time(t: x509_parser::time::ASN1Time) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(u64::try_from(t.timestamp()).unwrap_or(0))
}

/// Reads the first certificate of a PEM file: its names, issuer and validity.
fn held(pem: &[u8]) -> Result<Held, String> {
    let first = CertificateDer::pem_slice_iter(pem).next().ok_or("no certificate in it")?.map_err(|e| e.to_string())?;
    let (_, cert) = x509_parser::parse_x509_certificate(&first).map_err(|e| e.to_string())?;
    let (mut dns, mut ips) = (Vec::new(), Vec::new());
    if let Some(san) = cert.subject_alternative_name().map_err(|e| e.to_string())? {
        for name in &san.value.general_names {
            match name {
                x509_parser::extensions::GeneralName::DNSName(name) => dns.push(name.to_ascii_lowercase()),
                x509_parser::extensions::GeneralName::IPAddress(octets) => match octets.len() {
                    4 => ips.push(IpAddr::from(<[u8; 4]>::try_from(*octets).map_err(|e| e.to_string())?)),
                    16 => ips.push(IpAddr::from(<[u8; 16]>::try_from(*octets).map_err(|e| e.to_string())?)),
                    _ => return Err("an IP address of neither 4 nor 16 bytes".into()),
                },
                _ => {}
            }
        }
    }
    let validity = cert.validity();
    Ok(Held {
        dns,
        ips,
        issuer: cert.tbs_certificate.issuer.as_raw().to_vec(),
        not_before: time(validity.not_before),
        not_after: time(validity.not_after),
    })
}
