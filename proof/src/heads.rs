//! Every stream's head committed in a checkpoint (issue 43): the *heads map*, a second RFC 9162
//! tree whose leaves are the log's streams, one each, sorted by name, each leaf the stream's
//! last seq and chain hash as of the checkpoint's size. Its size and root are an extension line
//! of the checkpoint (`ledger-heads/v1 <count> <base64 root>`), so the log's signature covers
//! them; an inclusion proof of one stream's head leaf then shows how many events the stream had
//! as of that checkpoint, and which was last.
//!
//! Why: an inclusion proof shows an event is in the log, and the chain links each event to the
//! one before, so a proof file of a stream's events can be cut at its end (the last events left
//! out) and still verify. With the stream's head proved, a file that ends before the head is
//! seen for what it is. (Trillian's log-backed maps and immudb's verifiable state answer the same
//! question: does the verifier hold *all* of a key's entries.)
//!
//! A head leaf is `SHA-256(0x00 || stream || 0x0A || seq as 8 bytes big-endian || chain hash)`,
//! the stream its name in UTF-8 (`game/q1-t1`; names hold no newline). docs/PROOFS.md specifies
//! it for independent verifiers.

use crate::checkpoint::Checkpoint;
use crate::hash::{leaf_hash, root_of, Hash};
use crate::source::inclusion_proof;
use crate::verify::{verify_inclusion, VerifyError};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;

/// The first word of the checkpoint's extension line that commits to the heads.
pub const HEADS_LINE: &str = "ledger-heads/v1";

/// One stream's head: its last seq and that event's chain hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamHead {
    pub stream: String,
    pub seq: u64,
    pub hash: Hash,
}

impl StreamHead {
    /// The head's leaf hash in the heads map.
    pub fn leaf(&self) -> Hash {
        let mut data = Vec::with_capacity(self.stream.len() + 1 + 8 + 32);
        data.extend_from_slice(self.stream.as_bytes());
        data.push(b'\n');
        data.extend_from_slice(&self.seq.to_be_bytes());
        data.extend_from_slice(&self.hash);
        leaf_hash(&data)
    }
}

/// The heads map's size and root, as a checkpoint's extension line carries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadsRoot {
    pub count: u64,
    pub root: Hash,
}

impl HeadsRoot {
    /// `ledger-heads/v1 <count> <base64 root>`.
    pub fn line(&self) -> String {
        format!("{HEADS_LINE} {} {}", self.count, STANDARD.encode(self.root))
    }

    /// The heads a checkpoint commits to: `Ok(None)` for a checkpoint without the line (signed
    /// before issue 43), an error for a line that names itself but is malformed or repeated.
    ///
    /// # Errors
    /// A sentence saying what is wrong with the line.
    pub fn of(checkpoint: &Checkpoint) -> Result<Option<HeadsRoot>, String> {
        let mut found = None;
        for line in &checkpoint.extensions {
            let mut words = line.split(' ');
            if words.next() != Some(HEADS_LINE) {
                continue;
            }
            if found.is_some() {
                return Err(format!("the checkpoint has two {HEADS_LINE} lines"));
            }
            let (Some(count), Some(root), None) = (words.next(), words.next(), words.next()) else {
                return Err(format!("the {HEADS_LINE} line is not `{HEADS_LINE} <count> <root>`"));
            };
            let canonical = !count.is_empty()
                && count.bytes().all(|b| b.is_ascii_digit())
                && (count == "0" || !count.starts_with('0'));
            let count: u64 = count
                .parse()
                .ok()
                .filter(|_| canonical)
                .ok_or_else(|| format!("the {HEADS_LINE} count is not a decimal number"))?;
            let root = STANDARD
                .decode(root)
                .ok()
                .and_then(|b| Hash::try_from(b).ok())
                .ok_or_else(|| format!("the {HEADS_LINE} root is not 32 bytes of base64"))?;
            found = Some(HeadsRoot { count, root });
        }
        Ok(found)
    }

    /// Checks that `head` is leaf `index` of these heads.
    ///
    /// # Errors
    /// The proof does not lead to the root (another head, index or proof).
    pub fn verify(&self, head: &StreamHead, index: u64, proof: &[Hash]) -> Result<(), VerifyError> {
        verify_inclusion(index, self.count, &head.leaf(), proof, &self.root)
    }
}

/// The heads map of one checkpoint: every stream's head, sorted by name, and their leaves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Heads {
    heads: Vec<StreamHead>,
    leaves: Vec<Hash>,
}

/// One stream's head proved in its checkpoint's heads map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeadProof {
    pub head: StreamHead,
    pub index: u64,
    pub count: u64,
    pub hashes: Vec<Hash>,
}

impl Heads {
    /// The heads map of `heads`, given in any order, one per stream (a later one of the same
    /// stream replaces an earlier one).
    pub fn new(heads: impl IntoIterator<Item = StreamHead>) -> Heads {
        let mut heads: Vec<StreamHead> = heads.into_iter().collect();
        heads.sort_by(|a, b| a.stream.as_bytes().cmp(b.stream.as_bytes()));
        // Keep the last of each stream as given: a stable sort keeps their order, so drop all
        // but the last of a run.
        let mut unique: Vec<StreamHead> = Vec::with_capacity(heads.len());
        for head in heads {
            match unique.last_mut() {
                Some(last) if last.stream == head.stream => *last = head,
                _ => unique.push(head),
            }
        }
        let leaves = unique.iter().map(StreamHead::leaf).collect();
        Heads { heads: unique, leaves }
    }

    pub fn len(&self) -> usize {
        self.heads.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heads.is_empty()
    }

    /// The size and root a checkpoint commits to.
    pub fn root(&self) -> HeadsRoot {
        HeadsRoot { count: self.leaves.len() as u64, root: root_of(&self.leaves) }
    }

    /// `stream`'s head, if the map has the stream.
    pub fn get(&self, stream: &str) -> Option<&StreamHead> {
        self.index_of(stream).map(|i| &self.heads[i])
    }

    fn index_of(&self, stream: &str) -> Option<usize> {
        self.heads.binary_search_by(|h| h.stream.as_bytes().cmp(stream.as_bytes())).ok()
    }

    /// `stream`'s head with its inclusion proof in the map; `None` when the map has no such
    /// stream (it had no event as of the checkpoint).
    pub fn prove(&self, stream: &str) -> Option<HeadProof> {
        let index = self.index_of(stream)?;
        let count = self.leaves.len() as u64;
        // The index is the map's own and the size its length: nothing to refuse.
        let hashes = inclusion_proof(&self.leaves[..], index as u64, count).expect("a leaf of the map");
        Some(HeadProof { head: self.heads[index].clone(), index: index as u64, count, hashes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(stream: &str, seq: u64) -> StreamHead {
        StreamHead { stream: stream.into(), seq, hash: [u8::try_from(seq % 256).unwrap(); 32] }
    }

    #[test]
    fn every_head_is_proved_in_the_root_and_no_other_head_is() {
        for n in 1..40u64 {
            let heads = Heads::new((1..=n).rev().map(|i| head(&format!("game/g{i:02}"), i * 3)));
            let root = heads.root();
            assert_eq!(root.count, n);
            for i in 1..=n {
                let stream = format!("game/g{i:02}");
                let proof = heads.prove(&stream).unwrap();
                assert_eq!(proof.head, head(&stream, i * 3));
                root.verify(&proof.head, proof.index, &proof.hashes).unwrap();
                // The same stream one event short, or another stream's place: refused.
                let short = StreamHead { seq: i * 3 - 1, ..proof.head.clone() };
                assert!(root.verify(&short, proof.index, &proof.hashes).is_err());
                if n > 1 {
                    let elsewhere = (proof.index + 1) % n;
                    assert!(root.verify(&proof.head, elsewhere, &proof.hashes).is_err());
                }
            }
            assert!(heads.prove("game/none").is_none());
        }
    }

    #[test]
    fn the_line_round_trips_through_a_checkpoint_and_old_checkpoints_have_none() {
        let heads = Heads::new([head("game/b", 2), head("tournament/t", 9), head("game/a", 4), head("game/b", 5)]);
        assert_eq!(heads.len(), 3);
        assert_eq!(heads.get("game/b").unwrap().seq, 5, "the later head of a stream stands");
        let mut checkpoint = Checkpoint::new("ledger.test/h", 20, [7; 32]);
        assert_eq!(HeadsRoot::of(&checkpoint), Ok(None));
        checkpoint.extensions.push(heads.root().line());
        let text = checkpoint.text().unwrap();
        let read = Checkpoint::parse_text(&text).unwrap();
        assert_eq!(HeadsRoot::of(&read), Ok(Some(heads.root())));
        checkpoint.extensions.push(heads.root().line());
        assert!(HeadsRoot::of(&checkpoint).is_err(), "two lines");
        checkpoint.extensions = vec![format!("{HEADS_LINE} 03 AAAA")];
        assert!(HeadsRoot::of(&checkpoint).is_err());
    }

    /// A known answer, for an independent verifier to check its hashing against (PROOFS.md).
    #[test]
    fn a_head_leaf_is_hashed_as_specified() {
        let leaf = StreamHead { stream: "game/x".into(), seq: 130, hash: [0xab; 32] }.leaf();
        let mut data = b"game/x\n".to_vec();
        data.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 130]);
        data.extend_from_slice(&[0xab; 32]);
        assert_eq!(leaf, leaf_hash(&data));
        assert_eq!(hex::encode(leaf), KNOWN_LEAF);
    }

    const KNOWN_LEAF: &str = "795f3ec2c64e9462f766bf7af3288e064b4e72cdd05fee64c14e6748ef15feae";
}
