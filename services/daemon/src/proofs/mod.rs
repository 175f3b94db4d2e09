//! Proofs in ledgerd (issue 26, docs/PROOFS.md): the Merkle tree over the whole log, signed
//! checkpoints, and the inclusion and consistency proofs served against them.
//!
//! Off the append path: the [`keeper`], a thread of its own, reads what the durable log stored
//! past the tree in global position order ([`ledger_store::Log`]'s stored pages, polled rather
//! than followed group by group), so appends never wait for it and every
//! backend gives the same tree (on JetStream, every ledgerd follows the same order). The tree
//! lives in the data directory ([`tree`]), the checkpoints beside it ([`checkpoints`]).
//! Architecture Invariant: a record's leaf is its chain hash ([`leaf_of`]); positions are the
//! leaves' indexes plus one, without gaps.
//!
//! Each checkpoint also commits to every stream's head as of its size ([`heads`]), so that a
//! proof file can show a stream whole ([`Proofs::head_proof`]).

pub mod checkpoints;
pub mod heads;
pub mod keeper;
pub mod publish;
pub mod rounds;
pub mod tree;

use bundle::Bundle;
use checkpoints::{Checkpoints, SignedCheckpoint};
use heads::HeadMap;
use ledger::Recorded;
pub use ledger_house::proofs::{bundle, read_signing_key, GameProof, LatestCheckpoint};
use ledger_proof::{leaf_hash, Checkpoint, Hash, HeadProof, Heads, HeadsRoot, ProveError, SigningKey, VerifierKey};
use std::io;
use std::path::Path;
use std::sync::{Arc, Mutex, RwLock};
use tokio::sync::watch;
use tree::DiskTree;

/// The leaf hash of a record: its chain hash (which covers stream, seq, event id, time, actor,
/// the event and the hash before it), hashed as an RFC 9162 leaf.
pub fn leaf_of(record: &Recorded) -> Hash {
    leaf_hash(&record.envelope.hash)
}

/// Appends `line` to `path` and makes it durable before the caller answers.
fn keep_line(path: &Path, line: &str) -> io::Result<()> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    writeln!(file, "{line}")?;
    file.sync_data()?;
    // The file's name too, the first time (cosignatures are rare: syncing the folder is cheap).
    match path.parent() {
        Some(dir) => std::fs::File::open(dir)?.sync_all(),
        None => Ok(()),
    }
}

/// The tree, the checkpoints and the key, shared by the keeper (which writes) and the gRPC and
/// web services (which read).
#[derive(Debug)]
pub struct Proofs {
    key: SigningKey,
    tree: RwLock<DiskTree>,
    checkpoints: RwLock<Checkpoints>,
    latest: watch::Sender<Option<Arc<SignedCheckpoint>>>,
    /// Set when the log no longer matches a checkpoint signed before: nothing is signed again.
    alarm: Mutex<Option<String>>,
    /// The witnesses whose cosignatures are taken (`--witness`).
    witnesses: Vec<VerifierKey>,
    /// Cosigned notes by tree size, and who cosigned each; every note a witness handed back is
    /// also appended to [`COSIGNATURES_FILE`], so a restart shows them again.
    cosigned: Mutex<std::collections::BTreeMap<u64, (String, Vec<String>)>>,
    dir: std::path::PathBuf,
    /// The heads maps of the latest checkpoints signed; older ones are read again from the log.
    recent_heads: Mutex<heads::Recent>,
    /// The log the keeper follows (set when it starts), to read an older heads map again.
    log: heads::Followed,
}

/// The notes witnesses handed back, one JSON line each (`{"note": …}`), in the proofs folder.
pub const COSIGNATURES_FILE: &str = "cosignatures.jsonl";

impl Proofs {
    /// Opens the tree and the checkpoints in `dir` (created if missing).
    ///
    /// # Errors
    /// The files cannot be read, or a stored checkpoint is not one of `key`'s.
    pub fn open(dir: &Path, key: SigningKey) -> io::Result<Proofs> {
        let tree = DiskTree::open(&dir.join("tree"))?;
        let checkpoints = Checkpoints::open(dir, &key.verifier())?;
        let (latest, _) = watch::channel(checkpoints.latest());
        Ok(Proofs {
            key,
            tree: RwLock::new(tree),
            checkpoints: RwLock::new(checkpoints),
            latest,
            alarm: Mutex::new(None),
            witnesses: Vec::new(),
            cosigned: Mutex::new(std::collections::BTreeMap::new()),
            dir: dir.to_owned(),
            recent_heads: Mutex::new(heads::Recent::default()),
            log: heads::Followed::default(),
        })
    }

    /// Takes the cosignatures of these witnesses, and those they handed back before this start
    /// (a note whose witness is no longer named, or that no longer checks, is left out, said once).
    pub fn with_witnesses(mut self, witnesses: Vec<VerifierKey>) -> Self {
        self.witnesses = witnesses;
        let kept = std::fs::read_to_string(self.dir.join(COSIGNATURES_FILE)).unwrap_or_default();
        let mut left_out = 0usize;
        for line in kept.lines().filter(|l| !l.trim().is_empty()) {
            let note = serde_json::from_str::<serde_json::Value>(line)
                .ok()
                .and_then(|v| v.get("note").and_then(serde_json::Value::as_str).map(str::to_owned));
            if note.is_none_or(|note| self.merge_cosignature(&note).is_err()) {
                left_out += 1;
            }
        }
        if left_out > 0 {
            tracing::warn!(left_out, "cosignatures kept before this start no longer check against --witness");
        }
        self
    }

    /// The note of the checkpoint of `size` with the cosignatures handed back, and the
    /// witnesses' names; `None` when no witness handed one back.
    pub fn cosigned(&self, size: u64) -> Option<(String, Vec<String>)> {
        self.cosigned.lock().expect("not poisoned").get(&size).cloned()
    }

    /// Keeps a witness's cosignature of a checkpoint this ledgerd signed.
    ///
    /// # Errors
    /// A sentence: the note is not one of this ledgerd's checkpoints, or carries no valid
    /// cosignature of a known witness.
    pub fn add_cosignature(&self, note: &str) -> Result<(String, Vec<String>), String> {
        let merged = self.merge_cosignature(note)?;
        let line = serde_json::json!({ "note": note }).to_string();
        keep_line(&self.dir.join(COSIGNATURES_FILE), &line)
            .map_err(|e| format!("the cosignature could not be kept on disk: {e}"))?;
        Ok(merged)
    }

    /// Checks a cosigned note and adds its witnesses' signatures to the checkpoint's note.
    fn merge_cosignature(&self, note: &str) -> Result<(String, Vec<String>), String> {
        let opened = Checkpoint::open(note, &self.verifier(), &self.witnesses).map_err(|e| e.to_string())?;
        let log = self.verifier();
        let known = |name: &str, id: u32| {
            std::iter::once(&log).chain(&self.witnesses).any(|k| k.name() == name && k.id() == id)
        };
        if let Some(stranger) = opened.note.signatures().iter().find(|s| !known(&s.name, s.key_id)) {
            return Err(format!(
                "{} is not a witness this ledgerd knows (--witness): its cosignature is not kept",
                stranger.name
            ));
        }
        if opened.cosigned_by.is_empty() {
            return Err("the note carries no cosignature of a witness this ledgerd knows (--witness)".into());
        }
        let size = opened.checkpoint.size;
        let signed = self
            .at_least(size)
            .filter(|s| s.checkpoint == opened.checkpoint)
            .ok_or_else(|| format!("this ledgerd signed no checkpoint of {size} records with that root"))?;
        let mut cosigned = self.cosigned.lock().expect("not poisoned");
        let (merged, names) = cosigned.entry(size).or_insert_with(|| (signed.note.clone(), Vec::new()));
        for signature in opened.note.signatures() {
            let Some(key) =
                opened.cosigned_by.iter().find(|k| k.name() == signature.name && k.id() == signature.key_id)
            else {
                continue;
            };
            let line = format!("{signature}\n");
            if !merged.contains(&line) {
                merged.push_str(&line);
                names.push(key.name().to_owned());
            }
        }
        Ok((merged.clone(), names.clone()))
    }

    /// The log's public key.
    pub fn verifier(&self) -> VerifierKey {
        self.key.verifier()
    }

    pub fn latest(&self) -> Option<Arc<SignedCheckpoint>> {
        self.checkpoints.read().expect("not poisoned").latest()
    }

    /// The first checkpoint whose tree holds at least `size` records.
    pub fn at_least(&self, size: u64) -> Option<Arc<SignedCheckpoint>> {
        self.checkpoints.read().expect("not poisoned").at_least(size)
    }

    /// Follows the latest checkpoint as it is signed.
    pub fn watch(&self) -> watch::Receiver<Option<Arc<SignedCheckpoint>>> {
        self.latest.subscribe()
    }

    /// The records the tree holds.
    pub fn tree_size(&self) -> u64 {
        self.tree.read().expect("not poisoned").len()
    }

    /// The inclusion proof of leaf `index` in the tree of the first `size` records.
    ///
    /// # Errors
    /// The index or size lies beyond the tree, or a read failed.
    pub fn inclusion(&self, index: u64, size: u64) -> Result<Vec<Hash>, ProveError<io::Error>> {
        ledger_proof::inclusion_proof(&*self.tree.read().expect("not poisoned"), index, size)
    }

    /// The consistency proof between the trees of the first `old` and `new` records.
    ///
    /// # Errors
    /// The sizes are reversed or beyond the tree, or a read failed.
    pub fn consistency(&self, old: u64, new: u64) -> Result<Vec<Hash>, ProveError<io::Error>> {
        ledger_proof::consistency_proof(&*self.tree.read().expect("not poisoned"), old, new)
    }

    /// `stream`'s head with its proof in the heads map of the checkpoint of `size` records;
    /// `None` when the stream had no event as of it.
    ///
    /// # Errors
    /// No checkpoint of `size` records commits to the heads (one signed before issue 43, or
    /// none signed), or the log could not be read again.
    pub fn head_proof(&self, stream: &str, size: u64) -> io::Result<Option<HeadProof>> {
        let signed = self.at_least(size).filter(|s| s.checkpoint.size == size).ok_or_else(|| {
            io::Error::new(io::ErrorKind::NotFound, format!("this ledgerd signed no checkpoint of {size} records"))
        })?;
        let Some(committed) = HeadsRoot::of(&signed.checkpoint).map_err(io::Error::other)? else {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!("the checkpoint of {size} records was signed before checkpoints committed to stream heads"),
            ));
        };
        let heads = self.heads_at(size)?;
        if heads.root() != committed {
            return Err(io::Error::other(format!(
                "the heads read again from the log are not those the checkpoint of {size} records commits to"
            )));
        }
        Ok(heads.prove(stream))
    }

    /// The heads map as of `size`: kept since it was signed, or read again from the log.
    fn heads_at(&self, size: u64) -> io::Result<Arc<Heads>> {
        if let Some(heads) = self.recent_heads.lock().expect("not poisoned").get(size) {
            return Ok(heads);
        }
        let log = self.log.get().ok_or_else(|| io::Error::other("the proof keeper has not started"))?;
        let map = heads::heads_from_log(log, size).map_err(|e| io::Error::other(e.to_string()))?;
        let heads = Arc::new(map.heads());
        self.recent_heads.lock().expect("not poisoned").keep(size, Arc::clone(&heads));
        Ok(heads)
    }

    /// Why checkpoints are no longer signed, if they are not.
    pub fn alarm(&self) -> Option<String> {
        self.alarm.lock().expect("not poisoned").clone()
    }

    fn raise(&self, why: String) {
        tracing::error!("PROOF ALARM: {why}; no checkpoint is signed until this is looked into");
        *self.alarm.lock().expect("not poisoned") = Some(why);
    }

    /// Signs the tree as it is, with `heads` (every stream's head as of the tree's size) as its
    /// heads line, unless a checkpoint already covers it. Syncs the tree first, and the
    /// checkpoint before it is served.
    fn sign(&self, reason: &str, now_ms: u64, heads: &HeadMap) -> io::Result<Option<Arc<SignedCheckpoint>>> {
        if self.alarm().is_some() {
            return Ok(None);
        }
        let tree = self.tree.read().expect("not poisoned");
        let mut checkpoints = self.checkpoints.write().expect("not poisoned");
        let size = tree.len();
        if checkpoints.latest().is_some_and(|c| c.checkpoint.size >= size) {
            return Ok(None);
        }
        tree.sync()?;
        let heads = Arc::new(heads.heads());
        let mut checkpoint = Checkpoint::new(self.key.name(), size, tree.frontier().root());
        checkpoint.extensions.push(heads.root().line());
        self.recent_heads.lock().expect("not poisoned").keep(size, heads);
        let note = checkpoint.sign(&self.key).map_err(io::Error::other)?.to_string();
        let signed =
            checkpoints.push(SignedCheckpoint { checkpoint, note, signed_at_ms: now_ms, reason: reason.to_owned() })?;
        self.latest.send_replace(Some(Arc::clone(&signed)));
        tracing::info!(size, reason, "checkpoint signed");
        Ok(Some(signed))
    }
}

impl LatestCheckpoint for Proofs {
    fn latest_note(&self) -> Option<(String, Vec<String>)> {
        let signed = self.latest()?;
        Some(self.cosigned(signed.checkpoint.size).unwrap_or_else(|| (signed.note.clone(), Vec::new())))
    }

    fn whole_proof(&self, records: &[Recorded]) -> Option<GameProof> {
        let head = records.last()?;
        let signed = self.checkpoints.read().expect("not poisoned").at_least_with_heads(head.envelope.position)?;
        let size = signed.checkpoint.size;
        let proved = || -> io::Result<Bundle> {
            let mut bundle = Bundle::new(signed.note.clone());
            for record in records {
                let hashes = self.inclusion(record.envelope.position - 1, size).map_err(io::Error::other)?;
                bundle.push(record, &hashes);
            }
            let stream = head.envelope.stream.to_string();
            let proof = self.head_proof(&stream, size)?.ok_or_else(|| io::Error::other("the stream has no head"))?;
            bundle.push_head(&proof);
            Ok(bundle)
        };
        match proved() {
            Ok(bundle) => Some(GameProof { bundle, tree_size: size, reason: signed.reason.clone() }),
            Err(error) => {
                tracing::error!(%error, stream = %head.envelope.stream, "a whole stream's proof could not be made");
                None
            }
        }
    }
}
