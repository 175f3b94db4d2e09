//! TLS for the gRPC server (rustls): a certificate and key, and optionally the CA that signs
//! client certificates, in which case a client without one is refused at the handshake. Beside
//! `config`, which names the files, not inside `server`, which reads them: the imports point one
//! way.

use std::path::{Path, PathBuf};
use tonic::transport::{Certificate, Identity, ServerTlsConfig};

/// The PEM files `--tls-cert`, `--tls-key` and `--tls-client-ca` name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
    /// Require client certificates signed by this CA.
    pub client_ca: Option<PathBuf>,
}

/// A TLS file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("TLS: cannot read {path}: {reason}")]
pub struct TlsError {
    pub path: String,
    pub reason: String,
}

fn read(path: &Path) -> Result<Vec<u8>, TlsError> {
    let bytes =
        std::fs::read(path).map_err(|e| TlsError { path: path.display().to_string(), reason: e.to_string() })?;
    if !bytes.windows(11).any(|w| w == b"-----BEGIN ") {
        return Err(TlsError { path: path.display().to_string(), reason: "not a PEM file".into() });
    }
    Ok(bytes)
}

impl TlsFiles {
    /// Reads the files into a server configuration.
    ///
    /// # Errors
    /// A file is missing or not PEM. (A certificate that does not match its key is reported
    /// when the server starts.)
    pub fn load(&self) -> Result<ServerTlsConfig, TlsError> {
        let identity = Identity::from_pem(read(&self.cert)?, read(&self.key)?);
        let mut config = ServerTlsConfig::new().identity(identity);
        if let Some(ca) = &self.client_ca {
            config = config.client_ca_root(Certificate::from_pem(read(ca)?));
        }
        Ok(config)
    }
}

/// The pages' certificate (HTTPS on `--http-listen` when `--tls-cert` is given, issue 34):
/// browsers give the offline table its service worker only over HTTPS. Read from the same PEM
/// files as gRPC's, without client certificates (a tablet has none), and read again on SIGHUP:
/// handshakes from then on present the new certificate, connections already open go on.
/// Certificates by ACME (`crate::acme`) are read the same way from the data directory, after
/// each renewal; until the first is issued there is none, and handshakes fail.
#[derive(Debug)]
pub struct WebCertificate {
    files: TlsFiles,
    current: std::sync::RwLock<Option<std::sync::Arc<rustls::sign::CertifiedKey>>>,
}

impl WebCertificate {
    /// Reads the certificate chain and key `files` name.
    ///
    /// # Errors
    /// A file is missing, not PEM, or the key is of a kind rustls cannot sign with.
    pub fn load(files: &TlsFiles) -> Result<std::sync::Arc<WebCertificate>, TlsError> {
        let current = std::sync::RwLock::new(Some(std::sync::Arc::new(certified_key(files)?)));
        Ok(std::sync::Arc::new(WebCertificate { files: files.clone(), current }))
    }

    /// The certificate `files` name if they can be used, else none yet: [`WebCertificate::reload`]
    /// puts one in place once it is there (ACME's first certificate).
    pub fn load_or_await(files: &TlsFiles) -> std::sync::Arc<WebCertificate> {
        let current = match certified_key(files) {
            Ok(key) => Some(std::sync::Arc::new(key)),
            Err(error) => {
                if files.cert.exists() {
                    tracing::warn!(%error, "the kept certificate cannot be used; the pages wait for a new one");
                }
                None
            }
        };
        std::sync::Arc::new(WebCertificate { files: files.clone(), current: std::sync::RwLock::new(current) })
    }

    /// Reads the files again; a certificate that cannot be used changes nothing.
    ///
    /// # Errors
    /// As [`WebCertificate::load`].
    pub fn reload(&self) -> Result<(), TlsError> {
        let key = std::sync::Arc::new(certified_key(&self.files)?);
        *self.current.write().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(key);
        Ok(())
    }

    /// The rustls configuration of the pages' port: HTTP/1.1, this certificate.
    pub fn server_config(self: &std::sync::Arc<Self>) -> std::sync::Arc<rustls::ServerConfig> {
        let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("ring supports the default protocol versions")
            .with_no_client_auth()
            .with_cert_resolver(std::sync::Arc::clone(self) as std::sync::Arc<dyn rustls::server::ResolvesServerCert>);
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        std::sync::Arc::new(config)
    }
}

impl rustls::server::ResolvesServerCert for WebCertificate {
    fn resolve(&self, _: rustls::server::ClientHello<'_>) -> Option<std::sync::Arc<rustls::sign::CertifiedKey>> {
        self.current.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
}

fn certified_key(files: &TlsFiles) -> Result<rustls::sign::CertifiedKey, TlsError> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let fail = |path: &Path, reason: String| TlsError { path: path.display().to_string(), reason };
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&read(&files.cert)?)
        .collect::<Result<_, _>>()
        .map_err(|e| fail(&files.cert, e.to_string()))?;
    if chain.is_empty() {
        return Err(fail(&files.cert, "no certificate in it".into()));
    }
    let key = PrivateKeyDer::from_pem_slice(&read(&files.key)?).map_err(|e| fail(&files.key, e.to_string()))?;
    let signer = rustls::crypto::ring::sign::any_supported_type(&key).map_err(|e| fail(&files.key, e.to_string()))?;
    Ok(rustls::sign::CertifiedKey::new(chain, signer))
}
