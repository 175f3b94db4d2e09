//! What the organiser prints: the tablets' sign-in sheet ([`tables`], written by `ledgerctl
//! tournament tables`, since it carries fresh tokens that must never pass through ledgerd) and
//! the day's pairings, game report sheets and final standings (served by ledgerd, `web::paper`).
//! Both are plain HTML with print CSS and QR codes drawn as SVG ([`qr`]), in Spanish or English.

pub mod qr;
pub mod tables;

/// The print stylesheet every paper page carries inline (the tablets' sheet is a file opened
/// from disk, with no site to fetch a stylesheet from): A4, black on white, blocks that never
/// split across pages, one report sheet a page, and the site's header left off the paper.
pub const PRINT_CSS: &str = include_str!("print.css");

/// The path of a table's current game (`/tables/<tournament>/<n>`), which ledgerd redirects to
/// the game that table plays now.
pub fn table_path(tournament: &str, table: u32) -> String {
    format!("/tables/{tournament}/{table}")
}
