//! The Proofs gRPC service: signed checkpoints, and inclusion, consistency and stream-head
//! proofs against them, read from the tree the keeper keeps (`crate::proofs`). Without a signing key every call
//! answers FAILED_PRECONDITION.

use crate::proofs::checkpoints::SignedCheckpoint;
use crate::proofs::Proofs;
use ledger::StreamId;
use ledger_house::auth::{Access, Auth};
use ledger_house::error::Error;
use ledger_proto::convert::record_into_proto;
use ledger_proto::v1 as pb;
use ledger_store::Log;
use std::sync::Arc;
use tonic::{Request, Response, Status};

#[derive(Clone)]
pub struct ProofsService {
    log: Arc<Log>,
    auth: Arc<Auth>,
    proofs: Option<Arc<Proofs>>,
}

impl ProofsService {
    pub fn new(log: Arc<Log>, auth: Arc<Auth>, proofs: Option<Arc<Proofs>>) -> Self {
        ProofsService { log, auth, proofs }
    }

    fn proofs(&self) -> Result<&Proofs, Error> {
        self.proofs.as_deref().ok_or_else(no_checkpoints)
    }

    /// `size`, or the latest checkpoint's for 0.
    fn size_or_latest(&self, size: u64) -> Result<u64, Error> {
        if size > 0 {
            return Ok(size);
        }
        let latest = self.proofs()?.latest().ok_or_else(not_signed_yet)?;
        Ok(latest.checkpoint.size)
    }
}

/// The refusal of a proof request to a ledgerd that signs no checkpoints.
fn no_checkpoints() -> Error {
    Error::FailedPrecondition(
        "this ledgerd signs no checkpoints, so it has no proofs: start it with --signing-key FILE \
         (`ledgerctl new-signing-key` makes one)"
            .into(),
    )
}

fn not_signed_yet() -> Error {
    Error::Unavailable("no checkpoint is signed yet".into())
}

/// A checkpoint with the cosignatures witnesses handed back for it.
fn to_proto(proofs: &Proofs, signed: &SignedCheckpoint) -> pb::SignedCheckpoint {
    let (note, cosigned_by) =
        proofs.cosigned(signed.checkpoint.size).unwrap_or_else(|| (signed.note.clone(), Vec::new()));
    pb::SignedCheckpoint {
        note,
        tree_size: signed.checkpoint.size,
        root: signed.checkpoint.root.to_vec(),
        signed_at_ms: signed.signed_at_ms,
        reason: signed.reason.clone(),
        cosigned_by,
    }
}

fn hashes(proof: Vec<ledger_proof::Hash>) -> Vec<Vec<u8>> {
    proof.into_iter().map(|h| h.to_vec()).collect()
}

#[tonic::async_trait]
impl pb::proofs_server::Proofs for ProofsService {
    async fn get_checkpoint(
        &self,
        request: Request<pb::GetCheckpointRequest>,
    ) -> Result<Response<pb::SignedCheckpoint>, Status> {
        self.auth.authorize(request.metadata(), Access::Checkpoints)?;
        let proofs = self.proofs()?;
        let size = request.into_inner().at_least_size;
        let found = if size == 0 { proofs.latest() } else { proofs.at_least(size) };
        let signed = found.ok_or_else(|| match size {
            0 => not_signed_yet(),
            _ => Error::NotFound(format!("no checkpoint holds {size} records yet")),
        })?;
        Ok(Response::new(to_proto(proofs, &signed)))
    }

    async fn add_cosignature(
        &self,
        request: Request<pb::AddCosignatureRequest>,
    ) -> Result<Response<pb::SignedCheckpoint>, Status> {
        self.auth.authorize(request.metadata(), Access::Checkpoints)?;
        let proofs = self.proofs()?;
        let note = request.into_inner().note;
        proofs.add_cosignature(&note).map_err(Error::InvalidArgument)?;
        let size = ledger_proof::Note::parse(&note)
            .ok()
            .and_then(|n| ledger_proof::Checkpoint::parse_text(n.text()).ok())
            .map_or(0, |c| c.size);
        let signed =
            proofs.at_least(size).ok_or_else(|| Error::Internal("a cosigned checkpoint went missing".into()))?;
        Ok(Response::new(to_proto(proofs, &signed)))
    }

    async fn get_inclusion_proof(
        &self,
        request: Request<pb::InclusionProofRequest>,
    ) -> Result<Response<pb::InclusionProof>, Status> {
        let (metadata, _, asked) = request.into_parts();
        let stream = match asked.stream.as_str() {
            "" => None,
            name => Some(StreamId::parse(name).map_err(Error::from)?),
        };
        let access = stream.as_ref().map_or(Access::ReadLog, |s| Access::ReadStream(s.kind()));
        self.auth.authorize(&metadata, access)?;
        super::cursor("seq", asked.seq)?;
        super::cursor("position", asked.position)?;
        let size = self.size_or_latest(asked.tree_size)?;
        let log = Arc::clone(&self.log);
        let found = tokio::task::spawn_blocking(move || match &stream {
            Some(stream) => log
                .read_stream(stream, asked.seq.max(1), 1)
                .map(|r| r.into_iter().find(|r| r.envelope.seq == asked.seq)),
            None => log
                .read_all(asked.position.max(1), 1)
                .map(|r| r.into_iter().find(|r| r.envelope.position == asked.position)),
        })
        .await
        .map_err(|e| panicked("a read", &e))?
        .map_err(Error::from)?;
        let record = found.ok_or_else(|| match asked.stream.as_str() {
            "" => Error::NotFound(format!("the log has no event at position {}", asked.position)),
            stream => Error::NotFound(format!("{stream} has no event {}", asked.seq)),
        })?;
        let position = record.envelope.position;
        let proofs = self.proofs.clone().ok_or_else(no_checkpoints)?;
        let proof = tokio::task::spawn_blocking(move || proofs.inclusion(position - 1, size))
            .await
            .map_err(|e| panicked("a proof", &e))?
            .map_err(Error::from)?;
        Ok(Response::new(pb::InclusionProof {
            position,
            tree_size: size,
            hashes: hashes(proof),
            envelope: record_into_proto(record).envelope,
        }))
    }

    async fn get_head_proof(&self, request: Request<pb::HeadProofRequest>) -> Result<Response<pb::HeadProof>, Status> {
        let (metadata, _, asked) = request.into_parts();
        let stream = StreamId::parse(&asked.stream).map_err(Error::from)?;
        self.auth.authorize(&metadata, Access::ReadStream(stream.kind()))?;
        let size = self.size_or_latest(asked.tree_size)?;
        let proofs = self.proofs.clone().ok_or_else(no_checkpoints)?;
        let name = stream.to_string();
        let proved = tokio::task::spawn_blocking(move || proofs.head_proof(&name, size))
            .await
            .map_err(|e| panicked("a proof", &e))?
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => Error::NotFound(e.to_string()),
                std::io::ErrorKind::Unsupported => Error::FailedPrecondition(e.to_string()),
                _ => {
                    tracing::error!(error = %e, "a head proof could not be made");
                    Error::Internal("a head proof could not be made; the log says why".into())
                }
            })?
            .ok_or_else(|| Error::NotFound(format!("{stream} had no event as of the checkpoint of {size} records")))?;
        Ok(Response::new(pb::HeadProof {
            stream: proved.head.stream,
            seq: proved.head.seq,
            hash: proved.head.hash.to_vec(),
            index: proved.index,
            count: proved.count,
            hashes: hashes(proved.hashes),
            tree_size: size,
        }))
    }

    async fn get_consistency_proof(
        &self,
        request: Request<pb::ConsistencyProofRequest>,
    ) -> Result<Response<pb::ConsistencyProof>, Status> {
        self.auth.authorize(request.metadata(), Access::Checkpoints)?;
        let asked = request.into_inner();
        let new_size = self.size_or_latest(asked.new_size)?;
        let proofs = self.proofs.clone().ok_or_else(no_checkpoints)?;
        let old_size = asked.old_size;
        let proof = tokio::task::spawn_blocking(move || proofs.consistency(old_size, new_size))
            .await
            .map_err(|e| panicked("a proof", &e))?
            .map_err(Error::from)?;
        Ok(Response::new(pb::ConsistencyProof { old_size, new_size, hashes: hashes(proof) }))
    }
}

/// A blocking task that panicked: logged here with what it said, answered `INTERNAL` without it
/// (a panic's text is no caller's business).
fn panicked(what: &str, error: &tokio::task::JoinError) -> Error {
    tracing::error!(%error, "{what} panicked");
    Error::Internal(format!("{what} failed inside ledgerd; the log says why"))
}
