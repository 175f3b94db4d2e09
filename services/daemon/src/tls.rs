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
