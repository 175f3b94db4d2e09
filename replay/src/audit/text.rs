//! Small text forms a jury reads: an event on one line, a table time as `h:mm:ss`, and a
//! server time as UTC ISO-8601. Dates are computed with integer arithmetic (the civil-from-days
//! algorithm, as in [`crate::stats::year_of_unix_ms`]): no clock, no date library, no `f64`.

use ledger::event::to_canonical_json;
use ledger::Event;
use serde_json::Value;

/// An event as `type field=value …`, the fields in canonical order:
/// `nation_dropped_out nation=russia objectives_held=7 objectives_total=10`. Text with spaces
/// or quotes is quoted as JSON, lists and maps are compact JSON.
pub fn event_text(event: &Event) -> String {
    let Value::Object(fields) = to_canonical_json(event) else {
        return event.type_name().to_owned();
    };
    let mut out = event.type_name().to_owned();
    for (key, value) in fields.iter().filter(|(key, _)| key.as_str() != "type") {
        out.push(' ');
        out.push_str(key);
        out.push('=');
        out.push_str(&value_text(value));
    }
    out
}

/// A JSON value as a jury reads it: plain words bare, everything else as compact JSON.
pub(super) fn value_text(value: &Value) -> String {
    match value {
        Value::String(text) if is_plain(text) => text.clone(),
        other => other.to_string(),
    }
}

fn is_plain(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '/'))
}

/// A table time (ms on the table device's clock) as `h:mm:ss`, with `.mmm` when the
/// milliseconds are not 0: 5_025_500 → "1:23:45.500".
pub fn table_time_text(ms: u64) -> String {
    let (seconds, millis) = (ms / 1000, ms % 1000);
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if millis == 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{hours}:{minutes:02}:{seconds:02}.{millis:03}")
    }
}

/// Milliseconds since the Unix epoch as UTC ISO-8601 with milliseconds:
/// 1_714_557_600_000 → "2024-05-01T10:00:00.000Z".
pub fn iso_utc(ms: u64) -> String {
    let days = ms / 86_400_000;
    let ms_of_day = ms % 86_400_000;
    let (year, month, day) = civil_from_days(days);
    let (hours, minutes) = (ms_of_day / 3_600_000, ms_of_day / 60_000 % 60);
    let (seconds, millis) = (ms_of_day / 1000 % 60, ms_of_day % 1000);
    format!("{year:04}-{month:02}-{day:02}T{hours:02}:{minutes:02}:{seconds:02}.{millis:03}Z")
}

/// (year, month 1–12, day 1–31) of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`, days shifted to start on 0000-03-01).
fn civil_from_days(days_since_epoch: u64) -> (u64, u64, u64) {
    let days = days_since_epoch + 719_468;
    let era = days / 146_097;
    let day_of_era = days % 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153; // March = 0
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_around_leap_days_and_century_rules() {
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_utc(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso_utc(951_868_799_999), "2000-02-29T23:59:59.999Z");
        assert_eq!(iso_utc(1_709_164_800_000), "2024-02-29T00:00:00.000Z");
        assert_eq!(iso_utc(1_714_557_600_123), "2024-05-01T10:00:00.123Z");
        assert_eq!(iso_utc(4_107_542_400_000), "2100-03-01T00:00:00.000Z");
        assert_eq!(iso_utc(1_767_225_599_000), "2025-12-31T23:59:59.000Z");
    }

    #[test]
    fn every_day_follows_the_one_before() {
        let mut previous = civil_from_days(0);
        for day in 1..200_000 {
            let (year, month, date) = civil_from_days(day);
            let next_in_month = (year, month, date) == (previous.0, previous.1, previous.2 + 1);
            let next_month = date == 1 && (year, month) == (previous.0, previous.1 + 1);
            let next_year = (month, date) == (1, 1) && year == previous.0 + 1 && previous.1 == 12;
            assert!(next_in_month || next_month || next_year, "{previous:?} → {year}-{month}-{date}");
            assert!(date <= month_length(year, month), "{year}-{month}-{date}");
            previous = (year, month, date);
        }
    }

    fn month_length(year: u64, month: u64) -> u64 {
        let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
        match month {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        }
    }

    #[test]
    fn table_times() {
        assert_eq!(table_time_text(0), "0:00:00");
        assert_eq!(table_time_text(5_025_500), "1:23:45.500");
        assert_eq!(table_time_text(36_000_000), "10:00:00");
    }
}
