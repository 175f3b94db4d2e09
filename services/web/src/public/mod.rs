//! The public's pages, open to anyone in the hall: the front page with the season's tournaments
//! and Andes matches ([`home`]), a tournament's standings board ([`board`], its day-dependent
//! parts in [`board_sections`]), the round's pairings under pseudonyms ([`pairings`]) and an
//! Andes match's board ([`andes`]). The board and the Andes board are live pages
//! ([`crate::live`]).

pub(crate) mod andes;
pub(crate) mod board;
mod board_sections;
pub(crate) mod home;
pub(crate) mod pairings;
