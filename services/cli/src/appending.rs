//! What `ledgerctl append`, `import` and the tournament commands share: JSON Lines appended so
//! that a retried or corrected file appends exactly what is missing, nothing twice.
//!
//! Every line gets an event id: its own `event_id` field, or one derived from the stream, the
//! event's canonical JSON and how many identical events came before it in the input. A line
//! keeps its id when other lines are corrected, inserted or removed, so re-running a corrected
//! file recognises what is already stored. Lines from stdin get a fresh salt each run (the same
//! line piped twice is two events); give them `event_id`s to make a retry safe.
//!
//! Before anything is sent the stream is read: lines already stored are skipped, and a line
//! that is missing *before* one that is stored is refused (the stream's history differs there;
//! corrections are jury events). The missing lines are checked offline against the stream's own
//! rules, after what is stored, so a refused line stores nothing. They then go in atomic
//! batches of up to 1,000; should the server still refuse one (a rule across streams), the
//! message says which lines were stored.
//!
//! Lines of events the ledger derives (an Andes move's `piece_attacked`, `piece_captured`,
//! `game_ended`) are never sent: the ledger derives them again from the move they follow, and
//! refuses them from a client. `append` refuses such a line with the ledger's own reason
//! ([`DerivedLines::Refused`]); `import`, whose export holds them, checks that they are exactly
//! what the ledger derives from the line before them ([`DerivedLines::Checked`]).

use super::common::{from_status, CliError};
use super::connection::{connect, read_stream, Ledger, ReadError};
use super::Cli;
use ledger::check::Line;
use ledger::{Recorded, StreamId, StreamKind, StreamState};
use ledger_proto::convert::ToProto;
use ledger_proto::v1 as pb;
use ledger_store::MAX_BATCH;
use serde_json::json;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::Path;

/// What a file's lines of events the ledger derives mean to [`append_lines`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DerivedLines {
    /// A client's own lines (`append`, the tournament commands): refused with the ledger's reason.
    Refused,
    /// An export's lines (`import`): after every line, exactly what the ledger derives (or
    /// derived, for what is stored) from it; they are checked, not sent. A file that holds no
    /// derived line at all is a file of moves: nothing to check.
    Checked,
}

/// The derived lines a file holds after each line to send (by line number); `None` when it holds
/// none at all (a file of moves alone: nothing to check).
type DerivedAfter<'a> = Option<HashMap<usize, Vec<&'a Line>>>;

/// The lines to send, and the derived lines after them.
type Split<'a> = (Vec<Line>, DerivedAfter<'a>);

/// Separates the derived lines from the lines to send.
///
/// # Errors
/// `Refused`: the first derived line, with the ledger's reason; `Checked`: a derived line that
/// follows no line to send.
fn split_derived(lines: &[Line], mode: DerivedLines) -> Result<Split<'_>, CliError> {
    let mut sent: Vec<Line> = Vec::with_capacity(lines.len());
    let mut derived: HashMap<usize, Vec<&Line>> = HashMap::new();
    for line in lines {
        let Err(rejection) = ledger::access::refuse_derived(&line.event) else {
            sent.push(line.clone());
            continue;
        };
        if mode == DerivedLines::Refused {
            return Err(refusal(line, &rejection, lines.len()));
        }
        let Some(cause) = sent.last() else {
            return Err(CliError::Refused(format!(
                "line {}: {} follows no move in the file: the ledger derives it from the move before it; \
                 nothing was stored",
                line.number,
                line.event.type_name()
            )));
        };
        derived.entry(cause.number).or_default().push(line);
    }
    let any = sent.len() < lines.len();
    Ok((sent, any.then_some(derived)))
}

/// A rule's refusal of one line of `of`, as the server would word it.
fn refusal(line: &Line, rejection: &ledger::Rejection, of: usize) -> CliError {
    let code = ledger_house::error::Code::of_rejection(rejection.kind).name();
    let stored = if of > 1 { "; nothing was stored" } else { "" };
    CliError::Refused(format!("line {}: {code}: {}{stored}", line.number, rejection.message))
}

/// Checks that the derived lines after `cause` are exactly `derived`, what the ledger derives
/// (or derived) from it.
///
/// # Errors
/// The first line that differs, or the move whose derived event the file lacks.
fn same_derived(cause: &Line, in_file: &[&Line], derived: &[ledger::Event], tense: &str) -> Result<(), CliError> {
    let differs = |number: usize, found: String| {
        let names: Vec<&str> = derived.iter().map(ledger::Event::type_name).collect();
        let names = if names.is_empty() { "nothing".to_owned() } else { names.join(", ") };
        CliError::Refused(format!(
            "line {number}: {found}, where the ledger {tense} {names} from the {} on line {}; nothing was stored",
            cause.event.type_name(),
            cause.number
        ))
    };
    for (idx, line) in in_file.iter().enumerate() {
        if derived.get(idx) != Some(&line.event) {
            return Err(differs(line.number, format!("the file holds {} here", line.event.type_name())));
        }
    }
    match derived.get(in_file.len()) {
        Some(missing) => Err(differs(cause.number, format!("the file lacks the {} after it", missing.type_name()))),
        None => Ok(()),
    }
}

/// Checks, for lines already stored, that the file's derived lines after each are those stored.
///
/// # Errors
/// See [`same_derived`].
fn stored_derived(
    lines: &[Line],
    ids: &[String],
    stored: &[Recorded],
    derived: &DerivedAfter<'_>,
) -> Result<(), CliError> {
    let Some(derived) = derived else { return Ok(()) };
    let at: HashMap<&str, usize> = stored.iter().enumerate().map(|(i, r)| (r.envelope.event_id.as_str(), i)).collect();
    for (line, id) in lines.iter().zip(ids) {
        let Some(&idx) = at.get(id.as_str()) else { continue };
        let after: Vec<ledger::Event> =
            stored[idx + 1..].iter().take_while(|r| r.event.is_derived()).map(|r| r.event.clone()).collect();
        let in_file = derived.get(&line.number).map_or(&[][..], Vec::as_slice);
        same_derived(line, in_file, &after, "derived")?;
    }
    Ok(())
}

/// What makes derived ids differ between runs: nothing for a file (a retry is the same
/// events), a fresh nonce for stdin.
pub(super) fn salt(file: Option<&Path>) -> Result<String, CliError> {
    match file {
        Some(path) if path.as_os_str() != "-" => Ok(String::new()),
        _ => {
            let mut nonce = [0u8; 16];
            std::io::Read::read_exact(&mut std::fs::File::open("/dev/urandom")?, &mut nonce)?;
            Ok(hex::encode(nonce))
        }
    }
}

/// Appends events made by a command (not read from a file) to one stream.
pub(super) async fn append_events(cli: &Cli, stream: &StreamId, events: Vec<ledger::Event>) -> Result<(), CliError> {
    let lines: Vec<Line> = (1..)
        .zip(events)
        .map(|(number, event)| Line { number, stream: None, event_id: None, recorded_at_ms: None, event })
        .collect();
    let mut client = connect(cli).await?;
    // A command's event is its own id: repeating the same command is a retry.
    let summary = append_lines(&mut client, stream, &lines, None, "command", DerivedLines::Refused).await?;
    summary.print(cli.json);
    Ok(())
}

/// What an append of many lines did.
pub(super) struct Summary {
    stream: String,
    /// Lines skipped because they were already stored.
    already_stored: usize,
    /// Lines appended now.
    appended: usize,
    first_seq: u64,
    last_seq: u64,
    first_position: u64,
    last_position: u64,
    head_hash: Vec<u8>,
}

impl Summary {
    pub(super) fn print(&self, as_json: bool) {
        let stream = &self.stream;
        if as_json {
            say!(
                "{}",
                json!({
                    "stream": stream,
                    "events": self.appended,
                    "already_stored": self.already_stored,
                    "first_seq": self.first_seq,
                    "last_seq": self.last_seq,
                    "first_position": self.first_position,
                    "last_position": self.last_position,
                    "head_hash": hex::encode(&self.head_hash),
                    "duplicate": self.appended == 0,
                })
            );
        } else if self.appended == 0 {
            say!("{stream}: these {} events were already appended; nothing new", self.already_stored);
        } else {
            let skipped = match self.already_stored {
                0 => String::new(),
                n => format!(" ({n} lines before them were already stored)"),
            };
            let span = usize::try_from(self.last_seq + 1 - self.first_seq).unwrap_or(usize::MAX);
            let derived = match span.saturating_sub(self.appended) {
                0 => String::new(),
                n => format!(" and {n} the ledger derived"),
            };
            say!(
                "appended {} events{derived} to {stream}: seq {}–{}, chain head {}{skipped}",
                self.appended,
                self.first_seq,
                self.last_seq,
                hex::encode(&self.head_hash[..6.min(self.head_hash.len())])
            );
        }
    }
}

/// The event id of every line: its own, or derived from the stream, the salt, the event and
/// the number of identical events before it.
fn event_ids(stream: &StreamId, lines: &[Line], salt: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    lines
        .iter()
        .map(|line| {
            if let Some(id) = &line.event_id {
                return id.clone();
            }
            let canonical = ledger::event::to_canonical_json(&line.event).to_string();
            let occurrence = seen.entry(canonical.clone()).or_default();
            *occurrence += 1;
            let digest = Sha256::digest(format!("{stream}\n{salt}\n{occurrence}\n{canonical}"));
            format!("cli-{}", hex::encode(&digest[..12]))
        })
        .collect()
}

/// The lines still to append, after those the stream already holds.
///
/// # Errors
/// A stored id names another event, or a missing line comes before a stored one.
fn missing_lines<'a>(
    stream: &StreamId,
    lines: &'a [Line],
    ids: &[String],
    stored: &[Recorded],
) -> Result<Vec<(&'a Line, String)>, CliError> {
    let by_id: HashMap<&str, &Recorded> = stored.iter().map(|r| (r.envelope.event_id.as_str(), r)).collect();
    let mut missing: Vec<(&Line, String)> = Vec::new();
    for (line, id) in lines.iter().zip(ids) {
        let Some(record) = by_id.get(id.as_str()) else {
            missing.push((line, id.clone()));
            continue;
        };
        let seq = record.envelope.seq;
        if record.event != line.event {
            return Err(CliError::Refused(format!(
                "line {}: event id {id} is already stored in {stream} as seq {seq}, a different event ({})",
                line.number,
                record.event.type_name()
            )));
        }
        if let Some((first_missing, _)) = missing.first() {
            return Err(CliError::Refused(format!(
                "line {} is not in {stream}, but line {} after it is stored as seq {seq}: the stream's history \
                 differs from the file there; nothing was stored (record corrections as jury events)",
                first_missing.number, line.number
            )));
        }
    }
    Ok(missing)
}

/// Checks the missing lines against the stream's own rules, after what is stored, as the server
/// will. Skipped (the server decides) for a game whose ruleset comes from its tournament.
///
/// # Errors
/// The first line the rules refuse.
fn preflight(
    stream: &StreamId,
    stored: &[Recorded],
    missing: &[(&Line, String)],
    of: usize,
    derived_lines: &DerivedAfter<'_>,
) -> Result<(), CliError> {
    let started = stored
        .iter()
        .map(|r| &r.event)
        .chain(missing.iter().map(|(l, _)| &l.event))
        .find_map(replay::sheet::started_with);
    if stream.kind() == StreamKind::Game && matches!(started, Some(None)) {
        return Ok(());
    }
    let mut state = StreamState::new(stream, None);
    for record in stored {
        state.evolve(&record.event);
    }
    for (line, _) in missing {
        let refused = |rejection: ledger::Rejection| refusal(line, &rejection, of);
        state.apply(&line.event).map_err(refused)?;
        // What the server will derive from it and append right after.
        let derived = state.folded().pending_derived();
        if let Some(by_line) = derived_lines {
            let in_file = by_line.get(&line.number).map_or(&[][..], Vec::as_slice);
            same_derived(line, in_file, &derived, "derives")?;
        }
        for derived in derived {
            state.apply(&derived).map_err(refused)?;
        }
    }
    Ok(())
}

/// Appends what is missing of `lines` to one stream, in atomic batches of up to [`MAX_BATCH`].
pub(super) async fn append_lines(
    client: &mut Ledger,
    stream: &StreamId,
    lines: &[Line],
    expected_version: Option<u64>,
    salt: &str,
    mode: DerivedLines,
) -> Result<Summary, CliError> {
    let (sent, derived) = split_derived(lines, mode)?;
    let lines = sent.as_slice();
    let ids = event_ids(stream, lines, salt);
    // Without the right to read the stream (a table appending to a tournament, say), the server
    // alone decides: retries are still recognised there by their ids.
    let stored = match read_stream(client, &stream.to_string()).await {
        Ok(stored) => stored,
        Err(ReadError::Server(status)) if status.code() == tonic::Code::PermissionDenied => Vec::new(),
        Err(error) => return Err(error.into()),
    };
    let missing = missing_lines(stream, lines, &ids, &stored)?;
    stored_derived(lines, &ids, &stored, &derived)?;
    let already_stored = lines.len() - missing.len();
    let mut summary = Summary {
        stream: stream.to_string(),
        already_stored,
        appended: 0,
        first_seq: 0,
        last_seq: stored.last().map_or(0, |r| r.envelope.seq),
        first_position: 0,
        last_position: stored.last().map_or(0, |r| r.envelope.position),
        head_hash: stored.last().map(|r| r.envelope.hash.to_vec()).unwrap_or_default(),
    };
    if missing.is_empty() {
        return Ok(summary);
    }
    preflight(stream, &stored, &missing, lines.len(), &derived)?;
    // An expected version names the stream before the file: skipped lines moved it on.
    // So did the events the ledger derived after them.
    let mut expected = expected_version.map(|v| {
        let derived = stored.iter().filter(|r| r.envelope.seq > v && r.event.is_derived()).count();
        v + (already_stored + derived) as u64
    });
    for batch in missing.chunks(MAX_BATCH) {
        let events = batch
            .iter()
            .map(|(line, id)| pb::ProposedEvent { event_id: id.clone(), event: Some(line.event.to_proto()) })
            .collect();
        let request = pb::AppendRequest { stream: stream.to_string(), events, expected_version: expected };
        let answer = match client.append(request).await {
            Ok(answer) => answer.into_inner(),
            Err(status) => return Err(refused_batch(batch, &status, &summary, lines.len())),
        };
        expected = expected.map(|_| answer.last_seq);
        if summary.appended == 0 {
            (summary.first_seq, summary.first_position) = (answer.first_seq, answer.first_position);
        }
        summary.appended += batch.len();
        (summary.last_seq, summary.last_position, summary.head_hash) =
            (answer.last_seq, answer.last_position, answer.head_hash);
    }
    Ok(summary)
}

/// A refusal of "event k of n" of a batch, pointed at its line, saying what was stored before.
fn refused_batch(batch: &[(&Line, String)], status: &tonic::Status, done: &Summary, of: usize) -> CliError {
    let (event, _) = ledger_house::error::refusal_of(status);
    let k = usize::try_from(event).ok().filter(|k| (1..=batch.len()).contains(k)).or(if batch.len() == 1 {
        Some(1)
    } else {
        None
    });
    let stored = match (done.appended, done.already_stored) {
        (0, 0) if of == 1 => String::new(),
        (0, 0) => "; nothing was stored".to_owned(),
        (0, before) => format!("; nothing new was stored ({before} lines were already stored before)"),
        (n, before) => format!(
            "; the {n} lines before it were stored as seq {}–{}{}; run the corrected file again to append the rest",
            done.first_seq,
            done.last_seq,
            if before > 0 { format!(" ({before} were already stored before)") } else { String::new() }
        ),
    };
    match (from_status(status), k) {
        (CliError::Refused(text), Some(k)) => {
            let text = text.replacen(&format!("event {k} of {}: ", batch.len()), "", 1);
            CliError::Refused(format!("line {}: {text}{stored}", batch[k - 1].0.number))
        }
        (CliError::Refused(text), None) => CliError::Refused(format!("{text}{stored}")),
        (CliError::Failed(text), _) => CliError::Failed(format!("{text}{stored}")),
    }
}
