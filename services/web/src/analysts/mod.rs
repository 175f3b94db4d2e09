//! The analysts' pages: the season's statistics by role with their CSV ([`analyst`]), and the
//! players' ratings with their trends ([`ratings`]).

pub(crate) mod analyst;
pub(crate) mod ratings;
