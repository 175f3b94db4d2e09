//! The players' pages: a player's own page behind a personal link ([`player`]), the sheet and
//! CSV of those links the organiser hands out ([`player_links`]), and the tournament's public
//! day they are cut from, built at most once a second however many phones ask ([`days`]).

pub(crate) mod days;
pub(crate) mod player;
pub(crate) mod player_links;
