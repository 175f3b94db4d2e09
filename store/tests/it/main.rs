//! The store's one integration-test binary (each test file used to link its own): the sled log
//! end to end, its earlier layouts moved forward, a model test with restarts, a writer racing
//! another, recovery of unindexed and torn frames, snapshots, and tamper and bit-rot detection.

mod log;
mod migrate;
mod model;
mod race;
mod recover;
mod snapshot;
mod support;
mod verify;
