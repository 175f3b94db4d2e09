//! Registrations as organisers bring them: one typed in a form, or many pasted from a
//! spreadsheet or uploaded as a CSV file — a line per person, `name, pseudonym, id`, the
//! pseudonym and the id optional. The columns may be split by tabs (a paste from a
//! spreadsheet), semicolons (a CSV saved by a Spanish spreadsheet) or commas; a first line of
//! column names is skipped. A person without an id gets one made from the name (`José García`
//! → `jose-garcia`, `-2` after a taken one).
//!
//! What is wrong with a line's *form* (too many columns, no name) is said here; whether the
//! tournament takes it (an id or pseudonym already taken) is the rules' to say, through
//! [`super::check`].

use ledger::event::MAX_NAME_CHARS;
use ledger::rules::TournamentState;
use ledger::Event;
use std::collections::BTreeSet;
use unicode_normalization::UnicodeNormalization;

/// The most lines a list may hold: more than any tournament's players.
pub const MAX_LINES: usize = 2_000;

/// One person to register.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    /// The id seats and standings use; made from the name when `None`.
    pub player: Option<String>,
    /// The full name (only the organiser and the jury see it).
    pub name: String,
    /// What the public board shows instead.
    pub pseudonym: Option<String>,
    /// A stand-in: seated by the draw to fill tables, never ranked.
    pub stand_in: bool,
}

impl Registration {
    /// The event that records it (its id made already: [`with_ids`]).
    pub fn to_event(&self) -> Event {
        let player = self.player.clone().unwrap_or_default();
        if self.stand_in {
            Event::StandInRegistered { player, name: self.name.clone() }
        } else {
            Event::PlayerRegistered { player, name: self.name.clone(), pseudonym: self.pseudonym.clone() }
        }
    }
}

/// A line of a list, as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Its number in the text, from 1.
    pub number: usize,
    pub registration: Registration,
}

/// Why a line's form is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineProblem {
    /// More than the three columns: name, pseudonym, id.
    Columns(usize),
    /// No name.
    NoName,
    /// A value longer than a name may be.
    TooLong,
    /// Not readable as CSV (an unclosed quote).
    Unreadable(String),
    /// The list goes on past [`MAX_LINES`].
    TooMany,
}

impl std::fmt::Display for LineProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineProblem::Columns(n) => {
                write!(f, "{n} columns: a line is name, pseudonym, id (the last two may be empty)")
            }
            LineProblem::NoName => write!(f, "no name: a line starts with the person's name"),
            LineProblem::TooLong => write!(f, "a value is longer than {MAX_NAME_CHARS} characters"),
            LineProblem::Unreadable(why) => write!(f, "cannot be read: {why}"),
            LineProblem::TooMany => write!(f, "a list holds at most {MAX_LINES} lines"),
        }
    }
}

/// A line whose form is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    pub number: usize,
    pub text: String,
    pub problem: LineProblem,
}

/// Reads a pasted list or a CSV file: its lines of people, and its lines that are wrong (a list
/// with any of those is not recorded). Empty lines are skipped; every person is a player, or a
/// stand-in when `stand_ins`.
pub fn parse(text: &str, stand_ins: bool) -> (Vec<Line>, Vec<BadLine>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let delimiter = delimiter_of(text);
    let mut good = Vec::new();
    let mut bad = Vec::new();
    let mut first = true;
    // A line a person: each is read alone, so that a refusal names the line the organiser sees.
    for (index, line_text) in text.lines().enumerate() {
        let number = index + 1;
        if line_text.trim().is_empty() {
            continue;
        }
        let bad_line = |problem| BadLine { number, text: line_text.to_owned(), problem };
        if good.len() + bad.len() >= MAX_LINES {
            bad.push(bad_line(LineProblem::TooMany));
            break;
        }
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .has_headers(false)
            .flexible(true)
            .trim(csv::Trim::All)
            .from_reader(line_text.as_bytes());
        let record = match reader.records().next() {
            Some(Ok(record)) => record,
            Some(Err(error)) => {
                bad.push(bad_line(LineProblem::Unreadable(error.to_string())));
                continue;
            }
            None => continue,
        };
        let cells: Vec<&str> = record.iter().collect();
        if std::mem::take(&mut first) && is_header(&cells) {
            continue;
        }
        match registration(&cells, stand_ins) {
            Ok(registration) => good.push(Line { number, registration }),
            Err(problem) => bad.push(bad_line(problem)),
        }
    }
    (good, bad)
}

/// Tabs if any line has one (a spreadsheet's paste), else semicolons if the first line has one
/// and no comma, else commas.
fn delimiter_of(text: &str) -> u8 {
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or_default();
    if text.contains('\t') {
        b'\t'
    } else if first.contains(';') && !first.contains(',') {
        b';'
    } else {
        b','
    }
}

/// A first line of column names, in either language.
fn is_header(cells: &[&str]) -> bool {
    let first = cells.first().map(|c| c.to_lowercase()).unwrap_or_default();
    matches!(first.as_str(), "name" | "nombre" | "full name" | "nombre completo")
}

fn registration(cells: &[&str], stand_in: bool) -> Result<Registration, LineProblem> {
    if cells.len() > 3 {
        return Err(LineProblem::Columns(cells.len()));
    }
    if cells.iter().any(|c| c.chars().count() > MAX_NAME_CHARS) {
        return Err(LineProblem::TooLong);
    }
    let cell = |i: usize| cells.get(i).map(|c| (*c).to_owned()).filter(|c| !c.is_empty());
    let name = cell(0).ok_or(LineProblem::NoName)?;
    Ok(Registration { name, pseudonym: cell(1), player: cell(2), stand_in })
}

/// The registrations with an id each: the one given, or one made from the name that no one in
/// `state` and no registration before it has.
pub fn with_ids(state: &TournamentState, registrations: Vec<Registration>) -> Vec<Registration> {
    let mut taken: BTreeSet<String> =
        state.players.keys().cloned().chain(state.stand_ins.iter().map(|(id, _)| id.clone())).collect();
    taken.extend(registrations.iter().filter_map(|r| r.player.clone()));
    registrations
        .into_iter()
        .map(|registration| {
            if registration.player.is_some() {
                return registration;
            }
            let base = slug(&registration.name);
            let id = std::iter::once(base.clone())
                .chain((2..).map(|n| format!("{base}-{n}")))
                .find(|id| !taken.contains(id))
                .unwrap_or(base);
            taken.insert(id.clone());
            Registration { player: Some(id), ..registration }
        })
        .collect()
}

/// An id made from a name: letters without their accents, lower case, digits, and `-` between
/// words (`José García-Núñez` → `jose-garcia-nunez`); `player` if nothing is left.
pub fn slug(name: &str) -> String {
    let mut id = String::new();
    for c in name.nfd().filter(char::is_ascii).flat_map(|c| c.to_lowercase()) {
        if c.is_ascii_alphanumeric() {
            id.push(c);
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    let id: String = id.trim_end_matches('-').chars().take(60).collect();
    if id.is_empty() {
        "player".into()
    } else {
        id
    }
}
