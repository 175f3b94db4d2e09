//! The audit report of one game in Markdown, for the jury's file and the paper game report:
//! the players, the ruleset, every event with its server time, actor and table time (voided
//! ones struck through with the ruling behind the void), the jury's work, the final score sheet
//! with its explanation lines, and the hash chain's head and digest with whether it verifies.
//!
//! The report is built only from what it is given; it does not fail on a broken chain or a
//! stream the rules refuse — it says so, because that is what a jury needs to know.

use super::text::{event_text, iso_utc, table_time_text};
use super::timeline::{timeline, TimelineEntry};
use super::AuditError;
use crate::sheet::{score_game, started_with};
use ledger::envelope::{short_digest, verify_chain};
use ledger::event::Seats;
use ledger::{Event, Recorded, Ruleset, StreamId, StreamKind, StreamState};
use std::fmt::Write;

/// The Markdown audit report of `game`. `records` may hold other streams too; only `game`'s
/// are read, in the order given. `seats` names the players; `scheduled` is the ruleset of the
/// tournament that scheduled the game; `ms_per_side` its chess clock.
///
/// # Errors
/// [`AuditError::NotAGame`] for a tournament stream, [`AuditError::NoRecords`] when no record
/// belongs to `game`.
pub fn report(
    game: &StreamId,
    records: &[Recorded],
    seats: Option<&Seats>,
    scheduled: Option<Ruleset>,
    ms_per_side: u64,
) -> Result<String, AuditError> {
    if game.kind() != StreamKind::Game {
        return Err(AuditError::NotAGame(game.to_string()));
    }
    let own: Vec<Recorded> = records.iter().filter(|record| record.envelope.stream == *game).cloned().collect();
    let (Some(first), Some(last)) = (own.first(), own.last()) else {
        return Err(AuditError::NoRecords(game.to_string()));
    };
    let entries = timeline(&own);
    let events: Vec<(u64, Event)> = own.iter().map(|r| (r.envelope.seq, r.event.clone())).collect();
    let mut out = String::new();
    let w = &mut out;
    line(w, format!("# Audit report: {game}"));
    line(w, String::new());
    line(w, format!("- Ruleset: {}", ruleset_text(&events, scheduled)));
    let n_voided = entries.iter().filter(|e| e.voided_by.is_some()).count();
    line(w, format!("- Events: {} ({n_voided} voided by the jury)", entries.len()));
    line(
        w,
        format!(
            "- Recorded from {} to {} (UTC)",
            iso_utc(first.envelope.recorded_at_ms),
            iso_utc(last.envelope.recorded_at_ms)
        ),
    );
    if let Some(seats) = seats {
        line(w, "\n## Players\n\n| Role | Player |\n|---|---|".to_owned());
        for (role, player) in seats.iter() {
            line(w, format!("| {role} | {} |", escape(player)));
        }
    }
    line(w, "\n## Events\n".to_owned());
    line(w, "| # | Recorded (UTC) | Actor | Table time | Event |".to_owned());
    line(w, "|---:|---|---|---:|---|".to_owned());
    for entry in &entries {
        line(w, event_row(entry));
    }
    write_jury(w, &entries);
    line(w, "\n## Final score sheet\n".to_owned());
    match score_game(scheduled, &events) {
        Ok(sheet) => {
            line(w, "Voided events are left out of every number.\n".to_owned());
            line(w, format!("```text\n{}```", sheet.to_string().replace("```", "'''")));
        }
        Err(error) => line(w, format!("The stream cannot be scored: {}", escape(&error.to_string()))),
    }
    write_clock(w, &events, scheduled, ms_per_side);
    write_chain(w, &own, &events, scheduled);
    Ok(out)
}
/// The chess clock at the end of the record: time used, stops by reason, and every stopwatch
/// overrun the jury must hear about. Voided events are left out.
fn write_clock(w: &mut String, events: &[(u64, Event)], scheduled: Option<Ruleset>, ms_per_side: u64) {
    line(w, "\n## Chess clock\n".to_owned());
    let Some(ruleset) = named_ruleset(events).or(scheduled) else {
        line(w, "Unknown ruleset: no clock.".to_owned());
        return;
    };
    let voided = crate::sheet::voided_seqs(events);
    let mut fold = crate::clock::ClockFold::new(ruleset, ms_per_side);
    for (seq, event) in events.iter().filter(|(seq, _)| !voided.contains(seq)) {
        fold.apply(*seq, event);
    }
    let view = fold.view(None);
    let overruns = if view.overruns.is_empty() { "no stopwatch overrun" } else { "every overrun is listed" };
    line(w, format!("{ms_per_side} ms a side; {overruns}.\n"));
    line(w, format!("```text\n{}```", view.to_string().replace("```", "'''")));
}

fn line(out: &mut String, text: String) {
    out.push_str(&text);
    out.push('\n');
}

/// The ruleset named by the first `game_started` that names one.
fn named_ruleset(events: &[(u64, Event)]) -> Option<Ruleset> {
    events.iter().find_map(|(_, event)| started_with(event).flatten())
}

/// Where the game's ruleset comes from: `game_started`, else the scheduling tournament.
fn ruleset_text(events: &[(u64, Event)], scheduled: Option<Ruleset>) -> String {
    match (named_ruleset(events), scheduled) {
        (Some(ruleset), _) => format!("{ruleset} (named in game_started)"),
        (None, Some(ruleset)) => format!("{ruleset} (the scheduling tournament's)"),
        (None, None) => "unknown: the game names none and no tournament was given".to_owned(),
    }
}

fn event_row(entry: &TimelineEntry) -> String {
    let table_time = entry.table_time_ms.map_or_else(String::new, table_time_text);
    let text = code(&event_text(&entry.event));
    let cell = match &entry.voided_by {
        Some(note) => format!("~~{text}~~ **{}**", escape(&note.to_string())),
        None => text,
    };
    format!("| {} | {} | {} | {table_time} | {cell} |", entry.seq, iso_utc(entry.recorded_at_ms), escape(&entry.actor))
}

/// Every jury event: calls, rulings and voids, each void with the event it took out.
fn write_jury(w: &mut String, entries: &[TimelineEntry]) {
    line(w, "\n## The jury's rulings and voids\n".to_owned());
    let mut any = false;
    for entry in entries {
        let text = match &entry.event {
            Event::JuryCalled { reason } => format!("called: {}", escape(reason)),
            Event::JuryRuling { text } => format!("ruling: {}", escape(text)),
            Event::EventVoided { seq, reason } => {
                let target = entries
                    .iter()
                    .find(|e| e.seq == *seq)
                    .map_or_else(|| "an unknown event".to_owned(), |e| code(&event_text(&e.event)));
                let ruling = entries
                    .iter()
                    .find(|e| e.seq == *seq)
                    .and_then(|e| e.voided_by.as_ref())
                    .filter(|note| note.void_seq == entry.seq)
                    .and_then(|note| note.ruling.as_ref())
                    .map_or_else(String::new, |r| format!(" (under ruling #{})", r.seq));
                format!("voided #{seq} {target}: {}{ruling}", escape(reason))
            }
            ledger::tournament_events!() | ledger::game_events!() | Event::Andes(_) => continue,
        };
        any = true;
        line(w, format!("- #{} {} by {}: {text}", entry.seq, iso_utc(entry.recorded_at_ms), escape(&entry.actor)));
    }
    if !any {
        line(w, "The jury was not called and voided nothing.".to_owned());
    }
}

/// The head hash, its short digest, whether the chain verifies and whether the rules accept
/// every event.
fn write_chain(w: &mut String, own: &[Recorded], events: &[(u64, Event)], scheduled: Option<Ruleset>) {
    line(w, "\n## Hash chain\n".to_owned());
    if let Some(head) = own.last().map(|r| r.envelope.hash) {
        line(w, format!("- Head hash: `{}`", hex(&head)));
        line(w, format!("- Digest: `{}` (for the paper game report)", short_digest(&head)));
    }
    match verify_chain(own) {
        Ok(_) => line(
            w,
            format!(
                "- Chain: verifies — {} events from seq 1, each hash recomputed from its contents and linked to the one before",
                own.len()
            ),
        ),
        Err(broken) => line(
            w,
            format!(
                "- Chain: **BROKEN** at seq {}: {}",
                broken.seq,
                escape(&broken.reason)
            ),
        ),
    }
    let stream = StreamId::game("audit").expect("a valid stream id");
    let mut state = StreamState::new(&stream, scheduled);
    let refused = (0..events.len()).find_map(|index| match super::apply_at(&mut state, events, index) {
        Err(super::AuditError::Refused { seq, event, message }) => Some((seq, event, message)),
        Err(_) | Ok(()) => None,
    });
    match refused {
        None => line(w, "- Rules: every event, voids included, replays through the ledger's rules".to_owned()),
        Some((seq, kind, message)) => {
            line(w, format!("- Rules: **event {seq} ({kind}) is refused**: {}", escape(&message)))
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

/// Free text inside a Markdown table or list: one line, and no character that would open
/// markup, end a cell or make a link. The text always stands mid-line, so what Markdown reads
/// there is escaped with a backslash (CommonMark allows one before any ASCII punctuation):
/// emphasis, code, cells, HTML, and the brackets without which no link or image opens, so a
/// reason `[open](javascript:…)` or `![](http://…)` stays text; GitHub's autolinks too, by
/// escaping the `:` of `://`, the `@` of an address and the `.` of `www.`.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' | '\r' => out.push(' '),
            // Other control characters (a terminal escape in an old log) are shown, not obeyed.
            c if c.is_control() => out.push_str(&format!("\\u{{{:04X}}}", u32::from(c))),
            '|' | '*' | '~' | '`' | '<' | '>' | '\\' | '[' | ']' | '_' | '&' | '@' => {
                out.push('\\');
                out.push(c);
            }
            ':' if chars.peek() == Some(&'/') => out.push_str("\\:"),
            '.' if out.len() >= 3 && out.as_bytes()[out.len() - 3..].eq_ignore_ascii_case(b"www") => {
                out.push_str("\\.")
            }
            _ => out.push(c),
        }
    }
    out
}

/// An event's text as a code span that also survives a table cell. The span's fence is one
/// backtick longer than the longest run of backticks in the text (issue 42: a reason holding
/// two backticks closed a fence of two early, and what followed was read as Markdown: a link,
/// an autolink, raw HTML), so no run inside can close it; a space pads each side, which
/// CommonMark strips, so text that begins or ends with a backtick stays whole.
fn code(text: &str) -> String {
    let text = text.replace('|', "\\|").replace(['\n', '\r'], " ");
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    if longest == 0 {
        format!("{fence}{text}{fence}")
    } else {
        format!("{fence} {text} {fence}")
    }
}

#[cfg(test)]
mod tests {
    use super::{code, escape};

    #[test]
    fn a_code_spans_fence_is_longer_than_any_run_of_backticks_inside() {
        assert_eq!(code("turn_started turn=1"), "`turn_started turn=1`");
        assert_eq!(code("a ``b`` c"), "``` a ``b`` c ```");
        assert_eq!(code("`x"), "`` `x ``");
        assert_eq!(code("a|b\nc"), "`a\\|b c`");
    }

    #[test]
    fn control_characters_are_shown_not_obeyed() {
        assert_eq!(escape("a\u{1b}[31mb|c\nd\u{7}"), "a\\u{001B}\\[31mb\\|c d\\u{0007}");
    }

    #[test]
    fn links_images_and_autolinks_stay_text() {
        assert_eq!(
            escape("[open](javascript:alert(1)) ![](http://x.example/p.png)"),
            "\\[open\\](javascript:alert(1)) !\\[\\](http\\://x.example/p.png)"
        );
        assert_eq!(escape("mail a@b.c or WWW.evil.example"), "mail a\\@b.c or WWW\\.evil.example");
        assert_eq!(escape("<img src=x> &amp; _em_"), "\\<img src=x\\> \\&amp; \\_em\\_");
        assert_eq!(escape("Clock stopped at 0:15:00, turn 3."), "Clock stopped at 0:15:00, turn 3.", "prose unchanged");
        assert_eq!(escape("ñéw. é."), "ñéw. é.", "a dot after letters of more than one byte");
    }
}
