//! Reaching ledgerd: the channel (plaintext, or TLS with `https://` and the `--tls-*` files),
//! and who we are on every request (the token, or the open-mode headers).

use super::{Cli, CliError};
use crate::convert::FromProto;
use ledger::Recorded;
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use ledger_proto::v1::projections_client::ProjectionsClient;
use tokio_stream::StreamExt;
use tonic::metadata::{AsciiMetadataValue, MetadataMap};
use tonic::service::interceptor::InterceptedService;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Identity};

/// The Ledger service, as this caller.
pub type Ledger = LedgerClient<InterceptedService<Channel, Credentials>>;
/// The Projections service, as this caller.
pub type Projections = ProjectionsClient<InterceptedService<Channel, Credentials>>;

/// What goes into every request's metadata.
#[derive(Clone)]
pub struct Credentials {
    token: Option<AsciiMetadataValue>,
    actor: AsciiMetadataValue,
    clearance: Option<AsciiMetadataValue>,
}

impl Credentials {
    fn of(cli: &Cli) -> Result<Credentials, CliError> {
        let value = |text: &str, what: &str| {
            text.parse().map_err(|_| CliError::Failed(format!("{what} must be printable ASCII")))
        };
        Ok(Credentials {
            token: cli.token.as_deref().map(|t| value(&format!("Bearer {t}"), "the token")).transpose()?,
            actor: value(&cli.actor, "--actor")?,
            clearance: cli.clearance.map(|c| value(c.as_str(), "--clearance")).transpose()?,
        })
    }

    fn apply(&self, metadata: &mut MetadataMap) {
        if let Some(token) = &self.token {
            metadata.insert("authorization", token.clone());
        }
        metadata.insert(crate::auth::ACTOR_HEADER, self.actor.clone());
        if let Some(clearance) = &self.clearance {
            metadata.insert(crate::auth::CLEARANCE_HEADER, clearance.clone());
        }
    }
}

impl tonic::service::Interceptor for Credentials {
    fn call(&mut self, mut request: tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status> {
        self.apply(request.metadata_mut());
        Ok(request)
    }
}

async fn channel(cli: &Cli) -> Result<Channel, CliError> {
    let failed = |e: &dyn std::fmt::Display| CliError::Failed(format!("cannot reach ledgerd at {}: {e}", cli.server));
    let mut endpoint = Endpoint::from_shared(cli.server.clone()).map_err(|e| failed(&e))?;
    if cli.server.starts_with("https://") || cli.tls_ca.is_some() || cli.tls_cert.is_some() {
        let read = |path: &std::path::Path| {
            std::fs::read(path).map_err(|e| CliError::Failed(format!("cannot read {}: {e}", path.display())))
        };
        let mut tls = ClientTlsConfig::new().with_enabled_roots();
        if let Some(ca) = &cli.tls_ca {
            tls = tls.ca_certificate(Certificate::from_pem(read(ca)?));
        }
        if let (Some(cert), Some(key)) = (&cli.tls_cert, &cli.tls_key) {
            tls = tls.identity(Identity::from_pem(read(cert)?, read(key)?));
        }
        endpoint = endpoint.tls_config(tls).map_err(|e| failed(&e))?;
    }
    endpoint.connect().await.map_err(|e| failed(&e))
}

pub(super) async fn connect(cli: &Cli) -> Result<Ledger, CliError> {
    Ok(LedgerClient::with_interceptor(channel(cli).await?, Credentials::of(cli)?))
}

pub(super) async fn connect_projections(cli: &Cli) -> Result<Projections, CliError> {
    Ok(ProjectionsClient::with_interceptor(channel(cli).await?, Credentials::of(cli)?))
}

/// The events of a read, in order: `ReadPages` (many to a message), or `Read` from a ledgerd
/// older than `ReadPages`.
pub(super) enum Records {
    Pages(tonic::Streaming<pb::RecordedEventPage>, std::vec::IntoIter<pb::RecordedEvent>),
    Events(tonic::Streaming<pb::RecordedEvent>),
}

impl Records {
    /// Starts a read.
    ///
    /// # Errors
    /// The server refused the read.
    pub(super) async fn start(client: &mut Ledger, request: pb::ReadRequest) -> Result<Records, tonic::Status> {
        match client.read_pages(request.clone()).await {
            Ok(pages) => Ok(Records::Pages(pages.into_inner(), Vec::new().into_iter())),
            Err(status) if status.code() == tonic::Code::Unimplemented => {
                Ok(Records::Events(client.read(request).await?.into_inner()))
            }
            Err(status) => Err(status),
        }
    }

    /// The next event, `None` at the end of the read.
    pub(super) async fn next(&mut self) -> Option<Result<pb::RecordedEvent, tonic::Status>> {
        match self {
            Records::Events(events) => events.next().await,
            Records::Pages(pages, page) => loop {
                if let Some(event) = page.next() {
                    return Some(Ok(event));
                }
                match pages.next().await? {
                    Ok(next) => *page = next.events.into_iter(),
                    Err(status) => return Some(Err(status)),
                }
            },
        }
    }

    /// The next event as a record, `None` at the end of the read.
    pub(super) async fn next_record(&mut self) -> Option<Result<Recorded, tonic::Status>> {
        let event = match self.next().await? {
            Ok(event) => event,
            Err(status) => return Some(Err(status)),
        };
        Some(Recorded::from_proto(event).map_err(|r| tonic::Status::data_loss(format!("the server sent {r}"))))
    }
}

/// Every event of one stream, or the server's status (a caller may treat a refusal to read
/// differently from a failure).
pub(super) async fn read_stream(client: &mut Ledger, stream: &str) -> Result<Vec<Recorded>, tonic::Status> {
    let request = pb::ReadRequest { stream: stream.to_owned(), from_seq: 1, limit: None };
    let mut read = Records::start(client, request).await?;
    let mut records = Vec::new();
    while let Some(record) = read.next_record().await {
        records.push(record?);
    }
    Ok(records)
}
