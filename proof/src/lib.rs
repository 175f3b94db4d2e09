//! The Tournament Ledger's proofs: a Merkle tree over the whole log (RFC 9162, Certificate
//! Transparency v2), inclusion and consistency proofs, and checkpoints in the C2SP
//! `tlog-checkpoint` format signed as C2SP `signed-note`s with Ed25519, so that a player, the jury
//! or a witness can check offline, trusting only a public key, that an event is in the log and
//! that the log only ever grew — and, through the heads map every checkpoint commits to
//! ([`heads`]), that a proof file holds *all* of a stream's events as of the checkpoint.
//!
//! Architecture Invariant: this crate does no I/O and draws no randomness; it knows nothing of
//! the store, gRPC or NATS. ledgerd's tree keeper (`services/daemon/src/proofs`) keeps a [`Frontier`]
//! as it follows the log, serves [`LeafHashes`] from its files (see `source.rs` for the O(log n)
//! layout), and signs and publishes [`Checkpoint`]s (docs/PROOFS.md).

pub mod checkpoint;
pub mod frontier;
pub mod hash;
pub mod heads;
pub mod note;
pub mod source;
pub mod verify;

pub use checkpoint::{Checkpoint, CheckpointError, Opened};
pub use frontier::{Frontier, FrontierShape, Subtree};
pub use hash::{empty_root, leaf_hash, node_hash, root_of, Hash};
pub use heads::{HeadProof, Heads, HeadsRoot, StreamHead, HEADS_LINE};
pub use note::{key_id, Note, NoteError, Signature, SigningKey, VerifierKey, MAX_SIGNATURES};
pub use source::{consistency_proof, inclusion_proof, tree_root, LeafHashes, MemoryTree, ProveError};
pub use verify::{root_from_inclusion, verify_consistency, verify_inclusion, VerifyError};
