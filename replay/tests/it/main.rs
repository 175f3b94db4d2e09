//! The replay crate's one integration-test binary: golden score sheets from the rule books,
//! standings and their tie-breakers, statistics, and property tests.

mod golden;
mod props;
mod standings;
mod stats;
mod support;
mod tourney;
