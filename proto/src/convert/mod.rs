//! Protobuf types stop here: `FromProto` turns wire messages into the stricter domain types
//! (a failure is malformed input, `INVALID_ARGUMENT`), `ToProto` goes the other way.

mod event;
mod names;
mod record;

use ledger::Rejection;

/// Domain → protobuf.
pub trait ToProto {
    type Proto;
    fn to_proto(&self) -> Self::Proto;
}

/// Protobuf → domain, refusing what the domain cannot hold.
pub trait FromProto<P>: Sized {
    /// # Errors
    /// A malformed rejection naming the field.
    fn from_proto(proto: P) -> Result<Self, Rejection>;
}

pub use record::{append_from_proto, appended_to_proto, proposed_from_proto, record_into_proto, stream_info_to_proto};
