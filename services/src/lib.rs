//! `ledgerd` and `ledgerctl`: the gRPC daemon over the durable log, and the command line for
//! table clients, the jury, analysts and organisers.

pub mod cli;
pub mod config;
pub mod convert;
pub mod projections;
pub mod server;
pub mod status;

/// The gRPC metadata key that names who appends. It becomes a verified identity once
/// authentication arrives; until then it is taken as given.
pub const ACTOR_HEADER: &str = "x-ledger-actor";
