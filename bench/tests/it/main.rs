//! The bench's one integration-test binary (each test file used to link its own): the
//! crash-consistency program and the benchmark, each in miniature.

mod crash;
mod smoke;
