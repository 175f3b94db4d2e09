//! Reaching ledgerd: the channel (plaintext, or TLS with `https://` and the `--tls-*` files),
//! and who we are on every request (the token, or the open-mode headers).

use super::{Cli, CliError};
use ledger::Recorded;
use ledger_proto::convert::FromProto;
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use ledger_proto::v1::projections_client::ProjectionsClient;
use ledger_proto::v1::proofs_client::ProofsClient;
use tokio_stream::StreamExt;
use tonic::metadata::{AsciiMetadataValue, MetadataMap};
use tonic::service::interceptor::InterceptedService;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Identity};

/// The Ledger service, as this caller.
pub type Ledger = LedgerClient<InterceptedService<Channel, Credentials>>;
/// The Projections service, as this caller.
pub type Projections = ProjectionsClient<InterceptedService<Channel, Credentials>>;
/// The Proofs service, as this caller.
pub type Proofs = ProofsClient<InterceptedService<Channel, Credentials>>;

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
        metadata.insert(ledger_house::auth::ACTOR_HEADER, self.actor.clone());
        if let Some(clearance) = &self.clearance {
            metadata.insert(ledger_house::auth::CLEARANCE_HEADER, clearance.clone());
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
    channel_to(cli, &cli.server).await
}

/// A channel to `server` with the TLS settings of `cli`.
async fn channel_to(cli: &Cli, server: &str) -> Result<Channel, CliError> {
    let failed = |e: &dyn std::fmt::Display| CliError::Failed(format!("cannot reach ledgerd at {server}: {e}"));
    let mut endpoint = Endpoint::from_shared(server.to_owned()).map_err(|e| failed(&e))?;
    if server.starts_with("https://") || cli.tls_ca.is_some() || cli.tls_cert.is_some() {
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

/// The Proofs service of `server` (`--server` when `None`).
pub(super) async fn connect_proofs(cli: &Cli, server: Option<&str>) -> Result<Proofs, CliError> {
    let channel = channel_to(cli, server.unwrap_or(&cli.server)).await?;
    Ok(ProofsClient::with_interceptor(channel, Credentials::of(cli)?))
}

pub(super) async fn connect_projections(cli: &Cli) -> Result<Projections, CliError> {
    Ok(ProjectionsClient::with_interceptor(channel(cli).await?, Credentials::of(cli)?))
}

/// Why a read ended early: the server's status (a refusal, a failure it reports), or records
/// it sent that do not decode (`DATA_LOSS`, said by ledgerctl itself).
#[derive(Debug)]
pub(super) enum ReadError {
    Server(tonic::Status),
    Damaged(String),
}

impl From<tonic::Status> for ReadError {
    fn from(status: tonic::Status) -> Self {
        ReadError::Server(status)
    }
}

impl From<ReadError> for CliError {
    fn from(error: ReadError) -> Self {
        match error {
            ReadError::Server(status) => super::common::from_status(&status),
            ReadError::Damaged(message) => CliError::Failed(format!(
                "{}: {}",
                ledger_house::error::Code::DataLoss.name(),
                super::output::printable(&message)
            )),
        }
    }
}

/// The events of a read, in order: `ReadPages` (many to a message, in the stored encoding), or
/// `Read` from a ledgerd older than `ReadPages`.
pub(super) enum Records {
    Pages(tonic::Streaming<pb::RecordedEventPage>, std::vec::IntoIter<Recorded>),
    Events(tonic::Streaming<pb::RecordedEvent>),
}

impl Records {
    /// Starts a read, asking for pages in the stored encoding: ledgerctl decodes it with the
    /// same code as ledgerd, and the server sends records without decoding them.
    ///
    /// # Errors
    /// The server refused the read.
    pub(super) async fn start(client: &mut Ledger, mut request: pb::ReadRequest) -> Result<Records, tonic::Status> {
        request.encoding = pb::PageEncoding::StoredV1.into();
        match client.read_pages(request.clone()).await {
            Ok(pages) => Ok(Records::Pages(pages.into_inner(), Vec::new().into_iter())),
            Err(status) if status.code() == tonic::Code::Unimplemented => {
                Ok(Records::Events(client.read(request).await?.into_inner()))
            }
            Err(status) => Err(status),
        }
    }

    /// The next event, `None` at the end of the read.
    pub(super) async fn next(&mut self) -> Option<Result<Recorded, ReadError>> {
        match self {
            Records::Events(events) => Some(events.next().await?.map_err(ReadError::from).and_then(from_proto)),
            Records::Pages(pages, page) => loop {
                if let Some(record) = page.next() {
                    return Some(Ok(record));
                }
                match pages.next().await? {
                    Ok(next) => match page_records(next) {
                        Ok(records) => *page = records.into_iter(),
                        Err(damaged) => return Some(Err(damaged)),
                    },
                    Err(status) => return Some(Err(status.into())),
                }
            },
        }
    }
}

/// A page's records: in the stored encoding, or as messages (a ledgerd older than the
/// encoding field ignores it).
fn page_records(page: pb::RecordedEventPage) -> Result<Vec<Recorded>, ReadError> {
    let mut records = Vec::with_capacity(page.events.len());
    for event in page.events {
        records.push(from_proto(event)?);
    }
    for record in ledger::envelope::decode_run(&page.stored) {
        records.push(record.map_err(|e| ReadError::Damaged(format!("the server sent a {e}")))?);
    }
    Ok(records)
}

fn from_proto(event: pb::RecordedEvent) -> Result<Recorded, ReadError> {
    Recorded::from_proto(event).map_err(|r| ReadError::Damaged(format!("the server sent {r}")))
}

/// Every event of one stream, or why not (a caller may treat the server's refusal to read
/// differently from a failure).
pub(super) async fn read_stream(client: &mut Ledger, stream: &str) -> Result<Vec<Recorded>, ReadError> {
    let request = pb::ReadRequest { stream: stream.to_owned(), from_seq: 1, limit: None, ..Default::default() };
    let mut read = Records::start(client, request).await?;
    let mut records = Vec::new();
    while let Some(record) = read.next().await {
        records.push(record?);
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::envelope::{encode_record, push_stored, Draft, GENESIS};
    use ledger::{Event, Recorded, StreamId};
    use ledger_proto::convert::ToProto;

    /// A stand-alone game's chain of `n` jury calls at positions 1 to `n` (as the house's
    /// `proofs::bundle` tests build it).
    fn records(n: u64) -> Vec<Recorded> {
        let mut prev = GENESIS;
        (1..=n)
            .map(|seq| {
                let draft = Draft {
                    stream: StreamId::game("g").unwrap(),
                    seq,
                    position: seq,
                    event_id: format!("e{seq}"),
                    recorded_at_ms: 0,
                    actor: "t".into(),
                };
                let record = Recorded::seal(draft, prev, Event::JuryCalled { reason: format!("call {seq}") });
                prev = record.envelope.hash;
                record
            })
            .collect()
    }

    /// A page in the stored encoding and a page of messages (what a ledgerd older than the
    /// encoding field sends) give the same records; a damaged run is `DATA_LOSS`.
    #[test]
    fn pages_of_either_encoding_give_the_same_records() {
        let expected = records(3);
        let mut run = Vec::new();
        for record in &expected {
            push_stored(&mut run, &encode_record(record));
        }
        let stored = pb::RecordedEventPage { stored: run.clone().into(), ..Default::default() };
        assert_eq!(page_records(stored).unwrap(), expected);
        let messages =
            pb::RecordedEventPage { events: expected.iter().map(ToProto::to_proto).collect(), ..Default::default() };
        assert_eq!(page_records(messages).unwrap(), expected);
        let damaged = pb::RecordedEventPage { stored: run[..run.len() - 2].to_vec().into(), ..Default::default() };
        let damaged = CliError::from(page_records(damaged).unwrap_err());
        assert!(damaged.to_string().starts_with("DATA_LOSS: the server sent a "), "{damaged}");
    }
}
