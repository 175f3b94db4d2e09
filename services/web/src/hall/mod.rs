//! The hall's door and trust: signing in and out ([`signin`]), and the sheet that makes a tablet
//! trust ledgerd's own root in a hall without internet ([`trust`]).

pub(crate) mod signin;
pub mod trust;
