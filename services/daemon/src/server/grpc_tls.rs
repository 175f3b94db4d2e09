//! gRPC over TLS with the certificate the pages use (issue 34): the `--tls-cert` files, read
//! again on SIGHUP, or the one ACME keeps and renews — one [`WebCertificate`] for both ports, so a
//! new certificate reaches new gRPC connections as it reaches new page loads, and the
//! connections already open go on. rustls does the handshake here, before tonic sees the
//! connection (tonic's own TLS takes one certificate for the server's life); with
//! `--tls-client-ca` a client without a certificate signed by that CA is refused at the handshake.

use super::connections::Connection;
use crate::tls::{TlsError, TlsFiles, WebCertificate};
use std::io;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio_rustls::server::TlsStream;
use tokio_rustls::TlsAcceptor;
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::StreamExt;

/// A handshake not done within this long is dropped (its slot in the port's gate is freed).
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Handshakes under way at once; past this a new connection waits for one to end.
const HANDSHAKES_AT_ONCE: usize = 256;

/// The rustls configuration of the gRPC port: HTTP/2, `certificate` (whatever it is now), and
/// client certificates signed by `client_ca` required when one is named.
///
/// # Errors
/// The client CA file cannot be read or holds no usable certificate.
pub fn server_config(
    certificate: &Arc<WebCertificate>,
    client_ca: Option<&Path>,
) -> Result<Arc<rustls::ServerConfig>, TlsError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ServerConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .expect("ring supports the default protocol versions");
    let resolver = Arc::clone(certificate) as Arc<dyn rustls::server::ResolvesServerCert>;
    let mut config = match client_ca {
        None => builder.with_no_client_auth().with_cert_resolver(resolver),
        Some(path) => {
            use rustls::pki_types::pem::PemObject;
            use rustls::pki_types::CertificateDer;
            let fail = |reason: String| TlsError { path: path.display().to_string(), reason };
            let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
            let mut roots = rustls::RootCertStore::empty();
            for cert in CertificateDer::pem_slice_iter(&bytes) {
                roots.add(cert.map_err(|e| fail(e.to_string()))?).map_err(|e| fail(e.to_string()))?;
            }
            if roots.is_empty() {
                return Err(fail("no certificate in it".into()));
            }
            let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .build()
                .map_err(|e| fail(e.to_string()))?;
            builder.with_client_cert_verifier(verifier).with_cert_resolver(resolver)
        }
    };
    config.alpn_protocols = vec![b"h2".to_vec()];
    Ok(Arc::new(config))
}

/// [`server_config`] for the certificate and client CA `files` name, read once (embedders and
/// tests; ledgerd itself shares the pages' certificate, which SIGHUP reads again).
///
/// # Errors
/// A file is missing, not PEM, or unusable.
pub fn config_of(files: &TlsFiles) -> Result<Arc<rustls::ServerConfig>, TlsError> {
    server_config(&WebCertificate::load(files)?, files.client_ca.as_deref())
}

/// The admitted connections after their TLS handshake, each done apart (a slow client holds
/// only its own), within [`HANDSHAKE_TIMEOUT`]; one that fails is logged and dropped.
pub(super) fn secured(
    mut incoming: ReceiverStream<io::Result<Connection>>,
    config: Arc<rustls::ServerConfig>,
) -> ReceiverStream<io::Result<TlsStream<Connection>>> {
    let acceptor = TlsAcceptor::from(config);
    let (tx, rx) = tokio::sync::mpsc::channel(64);
    let handshakes = Arc::new(tokio::sync::Semaphore::new(HANDSHAKES_AT_ONCE));
    tokio::spawn(async move {
        while let Some(next) = incoming.next().await {
            let Ok(connection) = next else { continue };
            let Ok(permit) = Arc::clone(&handshakes).acquire_owned().await else { break };
            let (acceptor, out) = (acceptor.clone(), tx.clone());
            tokio::spawn(async move {
                let _permit = permit;
                match tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(connection)).await {
                    Ok(Ok(secured)) => drop(out.send(Ok(secured)).await),
                    Ok(Err(error)) => tracing::debug!(%error, "a gRPC TLS handshake failed"),
                    Err(_) => tracing::debug!("a gRPC TLS handshake took too long"),
                }
            });
            if tx.is_closed() {
                break;
            }
        }
    });
    ReceiverStream::new(rx)
}
