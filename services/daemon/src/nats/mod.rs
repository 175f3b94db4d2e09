//! NATS: every committed event published to a JetStream stream (the live fan-out), so that
//! scoreboards, analysts' pipelines and other venues follow the ledger without polling it.
//!
//! The log is its own outbox: records sit in the log in global position order, and the
//! publisher ([`fanout`]) drains them from where JetStream's last message says it stopped. So
//! nothing is lost between a commit and its publish (a crash, an outage), appends never wait for
//! NATS, and each event reaches the JetStream stream exactly once, in order.

pub mod fanout;
pub mod subject;

use std::path::PathBuf;
use std::time::Duration;

/// How to reach NATS and which JetStream stream to publish to.
#[derive(Debug, Clone)]
pub struct NatsOptions {
    /// e.g. `nats://127.0.0.1:4222`; several servers separated by commas.
    pub url: String,
    /// The JetStream stream the events go to (created if missing, subjects `ledger.v1.>`).
    pub stream: String,
    /// A `.creds` file (JWT and NKey seed).
    pub creds: Option<PathBuf>,
    pub user: Option<String>,
    pub password: Option<String>,
    pub token: Option<String>,
    /// Require TLS; implied by any of the TLS files.
    pub tls: bool,
    /// A CA certificate (PEM) to trust for the server.
    pub tls_ca: Option<PathBuf>,
    /// A client certificate and key (PEM), for servers that verify clients.
    pub tls_cert: Option<PathBuf>,
    pub tls_key: Option<PathBuf>,
}

impl NatsOptions {
    pub fn new(url: impl Into<String>) -> Self {
        NatsOptions {
            url: url.into(),
            stream: "LEDGER".into(),
            creds: None,
            user: None,
            password: None,
            token: None,
            tls: false,
            tls_ca: None,
            tls_cert: None,
            tls_key: None,
        }
    }

    /// Connects once (the fan-out retries on its own schedule).
    ///
    /// # Errors
    /// The credentials cannot be read or the server cannot be reached.
    pub async fn connect(&self) -> Result<async_nats::Client, async_nats::Error> {
        let mut options = async_nats::ConnectOptions::new()
            .name("ledgerd")
            .connection_timeout(Duration::from_secs(5))
            .request_timeout(Some(Duration::from_secs(10)));
        if let Some(creds) = &self.creds {
            options = options.credentials_file(creds).await?;
        }
        if let (Some(user), Some(password)) = (&self.user, &self.password) {
            options = options.user_and_password(user.clone(), password.clone());
        }
        if let Some(token) = &self.token {
            options = options.token(token.clone());
        }
        if self.tls || self.tls_ca.is_some() || self.tls_cert.is_some() {
            options = options.require_tls(true);
        }
        if let Some(ca) = &self.tls_ca {
            options = options.add_root_certificates(ca.clone());
        }
        if let (Some(cert), Some(key)) = (&self.tls_cert, &self.tls_key) {
            options = options.add_client_certificate(cert.clone(), key.clone());
        }
        let servers: Vec<&str> = self.url.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
        Ok(options.connect(servers.as_slice()).await?)
    }
}
