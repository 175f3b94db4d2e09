//! The replay crate's one integration-test binary: golden score sheets from the rule books,
//! standings and their tie-breakers, statistics, the jury's audit, the chess clock, the Andes
//! projections, and property tests (one binary: each links once).

mod andes;
mod audit;
mod audit_props;
mod clock;
mod corrections;
mod golden;
mod props;
mod standings;
mod stats;
mod support;
mod tourney;
