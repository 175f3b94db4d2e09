//! The gRPC messages and service of the Tournament Ledger, generated at build time from
//! `proto/` by protox and tonic-prost-build (no `protoc`), and the conversions between them and
//! the domain's types ([`convert`]), shared by ledgerd and ledgerctl.

pub mod convert;
#[allow(clippy::all, missing_docs)]
pub mod page;

#[allow(clippy::all, missing_docs)]
pub mod v1 {
    tonic::include_proto!("tournament_ledger.v1");
    pub use crate::page::RecordedEventPage;
}

/// The encoded file descriptor set, for gRPC server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/descriptor.bin"));
