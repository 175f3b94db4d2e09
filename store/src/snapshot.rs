//! Snapshots of a stream's folded state ([`ledger::Folded`]), stored with its head in every
//! commit, so that a stream the writer does not hold in memory is loaded in one read instead of
//! replaying its events.
//!
//! A snapshot is derived data: one that does not decode (written by another version of the
//! rules) is ignored and the stream is replayed from its events instead. Postcard is not
//! self-describing, so any change to the rules' state types must bump [`SNAPSHOT_VERSION`];
//! `store/tests/snapshot.rs` pins the encoding so such a change cannot go unnoticed.

use ledger::Folded;

/// The snapshot format written today. 2: `ledger::rules::Rules` gained `Andes` (issue 13);
/// 3: `TournamentState` gained `stand_ins`, 4: `withdrawn` (issue 24), 5: its `id` and
/// `pseudonyms` (issue 32); 6: `GameState` gained `dealt`, each nation's cards of the turn
/// (issue 35).
pub const SNAPSHOT_VERSION: u8 = 6;

/// One version byte, then postcard.
pub fn encode(fold: &Folded) -> Vec<u8> {
    let mut bytes = vec![SNAPSHOT_VERSION];
    bytes.extend(postcard::to_stdvec(fold).expect("folded states always encode"));
    bytes
}

/// The folded state, or `None` when the snapshot is of another version or damaged.
pub fn decode(bytes: &[u8]) -> Option<Folded> {
    match bytes.split_first() {
        Some((&SNAPSHOT_VERSION, body)) => postcard::from_bytes(body).ok(),
        _ => None,
    }
}
