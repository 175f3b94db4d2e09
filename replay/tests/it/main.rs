//! The replay crate's one integration-test binary: golden score sheets from the rule books,
//! standings and their tie-breakers, statistics, the jury's audit, and property tests.

mod audit;
mod audit_props;
mod corrections;
mod golden;
mod props;
mod standings;
mod stats;
mod support;
mod tourney;
