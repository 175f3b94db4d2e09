//! The proofs crate's one integration-test binary (each test file used to link its own): the
//! tree against published known answers, its properties for trees of any size, and signed notes
//! and checkpoints.

mod notes;
mod properties;
mod vectors;
