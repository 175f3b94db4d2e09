//! Field values shared by the game and tournament generators. Choice 0 is always a plausible
//! value, the last choices are hostile ones the rules must refuse (blank, control characters,
//! too long, out of range), so the fuzzer can reach both with one byte.

use crate::choices::Choices;
use ledger::Event;

/// Free text: a jury's reason or ruling.
pub fn text(c: &mut Choices<'_>) -> String {
    match c.below(12) {
        0 => "rules question".into(),
        1 => "France held 9, not 1".into(),
        2 => "misread objectives\nsecond line".into(),
        3 => "é".repeat(2_000),
        4 => String::new(),
        5 => " \u{3000} ".into(),
        6 => "ok\u{1b}[2J\u{1b}[Hall clear".into(),
        7 => "forged\rline".into(),
        8 => "a\u{7f}b".into(),
        9 => "x\u{9b}2J".into(),
        10 => "a".repeat(2_001),
        _ => "tab\there".into(),
    }
}

/// A short name: a fate card, a tournament, a pseudonym, a lot's purpose.
pub fn name(c: &mut Choices<'_>, plausible: &[&str]) -> String {
    let n = plausible.len();
    let pick = c.below(n + 4);
    if pick < n {
        return plausible[pick].into();
    }
    match pick - n {
        0 => String::new(),
        1 => "é".repeat(201),
        2 => "open\u{0}26".into(),
        _ => "n".repeat(200),
    }
}

/// A table-clock reading: mostly a little after the last one, sometimes earlier (refused) or
/// anything at all.
pub fn at_ms(c: &mut Choices<'_>, last: Option<u64>) -> u64 {
    let last = last.unwrap_or(0);
    match c.below(16) {
        14 => last.saturating_sub(1 + u64::from(c.byte())),
        15 => c.u64(),
        _ => last.saturating_add(u64::from(c.byte()) * 1_000),
    }
}

/// The seq a void names: mostly the last event or one of the last few (a void further back
/// mostly breaks the events after it and is refused), sometimes none at all.
pub fn void_seq(c: &mut Choices<'_>, n_events: u64) -> u64 {
    match c.below(8) {
        0..=2 => n_events.max(1),
        6 => 0,
        7 => match c.below(3) {
            0 => n_events + 1,
            1 => u64::MAX,
            _ => c.u64(),
        },
        _ => n_events.saturating_sub(u64::from(c.byte() % 16)).max(1),
    }
}

/// A jury event, usable in either kind of stream.
pub fn jury_event(c: &mut Choices<'_>, n_events: u64) -> Event {
    match c.below(3) {
        0 => Event::JuryCalled { reason: text(c) },
        1 => Event::JuryRuling { text: text(c) },
        _ => Event::EventVoided { seq: void_seq(c, n_events), reason: text(c) },
    }
}

/// Objectives `(held, total)`: mostly held within a total of at most `max_total`.
pub fn objectives(c: &mut Choices<'_>, max_total: i32) -> (i32, i32) {
    match c.below(16) {
        15 => (c.i32(), c.i32()),
        14 => (-1, max_total),
        13 => (0, 0),
        _ => {
            let total = max_total;
            let held = i32::from(c.byte()) % (total + 1);
            (held, total)
        }
    }
}
