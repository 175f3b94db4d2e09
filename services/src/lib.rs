//! `ledgerd` and `ledgerctl`: the gRPC daemon over the durable log, and the command line for
//! table clients, the jury, analysts and organisers.

pub mod config;
pub mod limits;
pub mod metrics;
pub mod nats;
pub mod proofs;
pub mod server;
pub mod tls;
