//! `ledgerd`: the gRPC daemon over the durable log, and `ledgerd organiser`, the first
//! organiser's code ([`organiser`]). Its wiring ([`server`]: `server::run` starts
//! what the other modules define), the gRPC services, the NATS fan-out ([`nats`]), the proofs'
//! tree keeper and checkpoints ([`proofs`]), the keeper of the season's read models
//! ([`readmodels`]), the configuration ([`config`], [`limits`],
//! [`tls`]), the pages' certificates ([`acme`], or the hall's own authority [`local_ca`]) and
//! the metrics ([`metrics`]). The web pages are `ledger_web`'s, what the daemon shares with
//! `ledgerctl` is `ledger_house`'s.

pub mod acme;
pub mod config;
pub mod limits;
pub mod local_ca;
pub mod metrics;
pub mod nats;
pub mod organiser;
pub mod proofs;
pub mod readmodels;
pub mod server;
pub mod tls;
