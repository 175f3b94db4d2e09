//! `ledgerctl new-signing-key`, `checkpoint`, `prove` and `verify-proof`: the ledger's checkpoint
//! key, a signed checkpoint, a proof file of a stream's events against it (with the stream's head
//! in the checkpoint's heads map, when the checkpoint commits to one), and its check offline
//! (`ledger_house::proofs::bundle`); `--whole` asks that the file hold every event of its stream.

use super::common::{from_status, read_input, CliError};
use super::connection::{connect, connect_proofs, read_stream};
use super::{values, Cli};
use ledger::StreamId;
use ledger_house::proofs::bundle::Bundle;
use ledger_house::proofs::GameProof;
use ledger_proof::{Checkpoint, Hash, Note, SigningKey, VerifierKey};
use ledger_proto::v1 as pb;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct NewSigningKeyArgs {
    /// The log's name, the first line of every checkpoint (e.g. `ledger.example.org/open26`).
    #[arg(long)]
    name: String,
    /// Where to write the private key (created; an existing file is never overwritten).
    #[arg(long)]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct CheckpointArgs {
    /// The first checkpoint holding at least this many events; without it, the latest.
    #[arg(long)]
    at_least: Option<u64>,
}

#[derive(Debug, clap::Args)]
pub struct ProveArgs {
    #[arg(long, value_parser = values::stream)]
    stream: StreamId,
    /// One event only; without it, every event of the stream the checkpoint holds.
    #[arg(long)]
    seq: Option<u64>,
    /// The signed checkpoint to prove against (as `GetCheckpoint` or the board gave it).
    #[arg(long)]
    checkpoint: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct VerifyProofArgs {
    /// The proof file (`ledgerctl prove`); `-` for stdin.
    file: PathBuf,
    /// The ledger's public key (`<name>+<id>+<key>`, as `new-signing-key` printed it), or a file
    /// holding it.
    #[arg(long)]
    key: String,
    /// Exit 1 unless the file holds every event of its stream, from seq 1 to the head its
    /// checkpoint commits to.
    #[arg(long)]
    whole: bool,
}

/// Writes a fresh key and prints its public half.
pub fn new_signing_key(args: &NewSigningKeyArgs) -> Result<(), CliError> {
    let mut seed = [0u8; 32];
    std::io::Read::read_exact(&mut std::fs::File::open("/dev/urandom")?, &mut seed)?;
    let key = SigningKey::from_seed(&args.name, &seed).map_err(|e| CliError::Failed(e.to_string()))?;
    write_secret(&args.out, &format!("{}\n", key.to_private_string()))?;
    say!("{}", key.verifier());
    eprintln!(
        "signing key written to {} (keep it secret; give ledgerd --signing-key {0}); its public key, above, is what players check proofs with",
        args.out.display()
    );
    Ok(())
}

/// Creates `path` readable by its owner only, and syncs it.
fn write_secret(path: &Path, text: &str) -> Result<(), CliError> {
    use std::os::unix::fs::OpenOptionsExt;
    let failed = |e: std::io::Error| CliError::Failed(format!("cannot write {}: {e}", path.display()));
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path).map_err(failed)?;
    file.write_all(text.as_bytes()).and_then(|()| file.sync_all()).map_err(failed)
}

/// The ledger's public key: the text given, or the content of the file it names.
pub(super) fn verifier_key(key: &str) -> Result<VerifierKey, CliError> {
    let text = match std::fs::read_to_string(key) {
        Ok(text) => text,
        Err(_) => key.to_owned(),
    };
    VerifierKey::parse(text.trim()).map_err(|e| CliError::Failed(format!("--key is not a public key: {e}")))
}

/// Prints a signed checkpoint as the ledger signed it (the file `prove --checkpoint` takes).
pub async fn checkpoint(cli: &Cli, args: &CheckpointArgs) -> Result<(), CliError> {
    let mut proofs = connect_proofs(cli, None).await?;
    let asked = pb::GetCheckpointRequest { at_least_size: args.at_least.unwrap_or(0) };
    let signed = proofs.get_checkpoint(asked).await.map_err(|s| from_status(&s))?.into_inner();
    if cli.json {
        say!(
            "{}",
            serde_json::json!({"note": signed.note, "tree_size": signed.tree_size, "signed_at_ms": signed.signed_at_ms,
                "reason": signed.reason})
        );
    } else {
        // The note ends in a newline already.
        say!("{}", signed.note.trim_end_matches('\n'));
    }
    Ok(())
}

/// Fetches the inclusion proofs of a stream's events and prints the proof file.
pub async fn prove(cli: &Cli, args: &ProveArgs) -> Result<(), CliError> {
    let note = read_input(Some(&args.checkpoint))?;
    let parsed = Note::parse(&note)
        .map_err(|e| CliError::Failed(format!("{} is no signed note: {e}", args.checkpoint.display())))?;
    let checkpoint = Checkpoint::parse_text(parsed.text())
        .map_err(|e| CliError::Failed(format!("{} is no checkpoint: {e}", args.checkpoint.display())))?;
    let mut ledger = connect(cli).await?;
    let records = read_stream(&mut ledger, &args.stream.to_string()).await.map_err(CliError::from)?;
    let chosen: Vec<_> = records.into_iter().filter(|r| args.seq.is_none_or(|seq| r.envelope.seq == seq)).collect();
    if chosen.is_empty() {
        return Err(CliError::Refused(match args.seq {
            Some(seq) => format!("{} has no event {seq}", args.stream),
            None => format!("{} has no events", args.stream),
        }));
    }
    let held: Vec<_> = chosen.into_iter().filter(|r| r.envelope.position <= checkpoint.size).collect();
    if held.is_empty() {
        return Err(CliError::Refused(format!(
            "the checkpoint holds the log's first {} events, none of them {}'s asked for: prove against a later checkpoint",
            checkpoint.size, args.stream
        )));
    }
    let mut proofs = connect_proofs(cli, None).await?;
    let bundle = stream_bundle(&mut proofs, note, &checkpoint, &args.stream, &held).await?;
    let text = bundle.to_file().map_err(|e| CliError::Failed(e.to_string()))?;
    say!("{}", text.trim_end_matches('\n'));
    Ok(())
}

/// A proof file of `records` (all of `stream`) against the signed checkpoint `note`, with the
/// stream's head proved in the heads map when the checkpoint commits to one: with every event
/// from seq 1, the file `verify-proof --whole` accepts.
async fn stream_bundle(
    proofs: &mut super::connection::Proofs,
    note: String,
    checkpoint: &Checkpoint,
    stream: &StreamId,
    records: &[ledger::Recorded],
) -> Result<Bundle, CliError> {
    let mut bundle = bundle_of(proofs, note, checkpoint.size, records).await?;
    if matches!(ledger_proof::HeadsRoot::of(checkpoint), Ok(Some(_))) {
        let asked = pb::HeadProofRequest { stream: stream.to_string(), tree_size: checkpoint.size };
        // A ledgerd that cannot prove the head against this checkpoint (it did not sign it, or
        // its log no longer gives the heads it committed to) still gets its events proved: the
        // file then says it does not show how many events the stream had.
        match proofs.get_head_proof(asked).await {
            Ok(proved) => bundle.push_head(&head_from_proto(proved.into_inner())?),
            Err(status) => eprintln!("the stream's head is not proved: {}", from_status(&status)),
        }
    }
    Ok(bundle)
}

/// A head proof as the server sent it, its hashes checked to be 32 bytes.
fn head_from_proto(proved: pb::HeadProof) -> Result<ledger_proof::HeadProof, CliError> {
    let short = || CliError::Failed("the server sent a head proof hash that is not 32 bytes".into());
    let hash = Hash::try_from(proved.hash).map_err(|_| short())?;
    let hashes =
        proved.hashes.into_iter().map(Hash::try_from).collect::<Result<Vec<Hash>, _>>().map_err(|_| short())?;
    Ok(ledger_proof::HeadProof {
        head: ledger_proof::StreamHead { stream: proved.stream, seq: proved.seq, hash },
        index: proved.index,
        count: proved.count,
        hashes,
    })
}

/// A proof file of `records` (all of one stream) against the signed checkpoint `note` of `size`.
pub(super) async fn bundle_of(
    proofs: &mut super::connection::Proofs,
    note: String,
    size: u64,
    records: &[ledger::Recorded],
) -> Result<Bundle, CliError> {
    let mut bundle = Bundle::new(note);
    for record in records {
        let request = pb::InclusionProofRequest {
            stream: record.envelope.stream.to_string(),
            seq: record.envelope.seq,
            position: 0,
            tree_size: size,
        };
        let proof = proofs.get_inclusion_proof(request).await.map_err(|s| from_status(&s))?.into_inner();
        let hashes = proof
            .hashes
            .into_iter()
            .map(Hash::try_from)
            .collect::<Result<Vec<Hash>, _>>()
            .map_err(|_| CliError::Failed("the server sent a proof hash that is not 32 bytes".into()))?;
        bundle.push(record, &hashes);
    }
    Ok(bundle)
}

/// The jury report's proof: every event of the game, and its head, against the first checkpoint
/// that holds the game's last event (the round's, once the round has ended), as the proof file
/// `ledgerctl prove` writes against it: `verify-proof --whole` shows the game had exactly these
/// events as of that checkpoint. `None` from a ledgerd that signs no checkpoints, or none holding
/// the game's last event yet.
pub(super) async fn report_section(
    cli: &Cli,
    game: &StreamId,
    records: &[ledger::Recorded],
) -> Result<Option<String>, CliError> {
    let Some(head) = records.last() else { return Ok(None) };
    let mut proofs = connect_proofs(cli, None).await?;
    let asked = pb::GetCheckpointRequest { at_least_size: head.envelope.position };
    let signed = match proofs.get_checkpoint(asked).await {
        Ok(signed) => signed.into_inner(),
        Err(status) if matches!(status.code(), tonic::Code::FailedPrecondition | tonic::Code::NotFound) => {
            return Ok(None)
        }
        Err(status) => return Err(from_status(&status)),
    };
    let parsed =
        Note::parse(&signed.note).map_err(|e| CliError::Failed(format!("the checkpoint is no signed note: {e}")))?;
    let checkpoint = Checkpoint::parse_text(parsed.text())
        .map_err(|e| CliError::Failed(format!("the checkpoint does not parse: {e}")))?;
    let bundle = stream_bundle(&mut proofs, signed.note.clone(), &checkpoint, game, records).await?;
    let proof = GameProof { bundle, tree_size: signed.tree_size, reason: signed.reason };
    let section = proof.report_section(game, head).map_err(|e| CliError::Failed(e.to_string()))?;
    Ok(Some(section))
}

/// Checks a proof file offline: exit 0 and a sentence when it holds, 1 and why when it does not.
pub fn verify_proof(cli: &Cli, args: &VerifyProofArgs) -> Result<(), CliError> {
    let key = verifier_key(&args.key)?;
    let text = read_input(Some(&args.file))?;
    let bundle: Bundle = serde_json::from_str(&text)
        .map_err(|e| CliError::Refused(format!("{} is not a proof file: {e}", args.file.display())))?;
    let verified = bundle.verify(&key).map_err(CliError::Refused)?;
    if args.whole {
        verified.whole().map_err(|why| CliError::Refused(format!("not the whole stream: {why}")))?;
    }
    let checkpoint = &verified.opened.checkpoint;
    let streams: Vec<String> = verified.spans.iter().map(|s| s.stream.to_string()).collect();
    if cli.json {
        let spans: Vec<serde_json::Value> = verified
            .spans
            .iter()
            .map(|s| {
                serde_json::json!({"stream": s.stream.to_string(), "first_seq": s.first_seq, "last_seq": s.last_seq,
                    "from_the_start": s.from_the_start(), "head_seq": s.head, "whole": s.is_whole()})
            })
            .collect();
        say!(
            "{}",
            serde_json::json!({"verified": true, "events": verified.records.len(), "streams": streams, "spans": spans,
                "origin": checkpoint.origin, "tree_size": checkpoint.size})
        );
    } else {
        let spans: Vec<String> = verified.spans.iter().map(ToString::to_string).collect();
        say!(
            "verified: {}; each is in the log of {} as shown, linked to the one before, in its checkpoint of {} \
             events signed by {}",
            spans.join("; "),
            checkpoint.origin,
            checkpoint.size,
            key
        );
        let unproved: Vec<String> =
            verified.spans.iter().filter(|s| s.head.is_none()).map(|s| s.stream.to_string()).collect();
        if !unproved.is_empty() {
            say!(
                "the file does not prove how many events {} had as of its checkpoint, so events before or after \
                 those shown may be left out{}",
                unproved.join(", "),
                if verified.heads.is_none() {
                    " (its checkpoint was signed before checkpoints committed to the streams' heads)"
                } else {
                    ""
                }
            );
        }
    }
    Ok(())
}
