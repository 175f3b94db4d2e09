//! What ledgerd (`ledger-daemon`), its web pages (`ledger-web`) and `ledgerctl` (`ledger-cli`)
//! share: the organiser's commands ([`commands`]), the typed projections facade ([`facade`], over [`projections`]), the one error type
//! ([`error`]), where streams are read ([`source`]: the log or a file, for the facade and the read models), who may do what ([`auth`]), the tournament's cross-stream checks
//! ([`cross_check`]), the words in Spanish and English ([`i18n`], [`html`]; the ledger's typed
//! values — refusals, events, score sheets — said in them by [`words`]), the organiser's
//! paper ([`paper`]), the proofs' file formats ([`proofs`]), the live streams' fair shares
//! ([`shares`]), the season's read models ([`readmodels`]) and the players' ratings ([`ratings`]).
//!
//! Architecture Invariant: no transport here beyond `error.rs`'s conversion to a gRPC status
//! and auth's metadata: no axum, no protobuf.

pub mod auth;
pub mod commands;
pub mod cross_check;
pub mod error;
pub mod facade;
pub mod html;
pub mod i18n;
pub mod paper;
pub mod player_links;
pub mod projections;
pub mod proofs;
pub mod ratings;
pub mod readmodels;
pub mod shares;
pub mod source;
pub mod words;

pub use auth::ACTOR_HEADER;
