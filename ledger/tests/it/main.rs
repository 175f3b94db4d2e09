//! The ledger crate's one integration-test binary (each test file used to link its own): the
//! Andes rules, the qualifying draw, the golden hashes that pin the chain, and one spelling per
//! name.

mod andes;
mod draw;
mod golden_hashes;
mod spellings;
