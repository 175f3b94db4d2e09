//! Writes the seed inputs of `fuzz/corpus/<target>/`: real events from the examples, the
//! refusal table's events, stored records and snapshots of real streams, and their protobuf
//! forms. Seeds are named `seed-…`; the inputs the fuzzer added (named by their SHA-1) are
//! left alone. Run it from anywhere in the checkout:
//!
//! ```sh
//! cargo run -p ledger-fuzz-targets --features seeds --bin seed-corpus
//! ```

use ledger::check::parse_lines;
use ledger::envelope::{encode_record, Draft, GENESIS};
use ledger::event::to_canonical_json;
use ledger::rules::StreamState;
use ledger::{Event, Recorded, StreamId};
use ledger_fuzz_targets::{APPEND_REQUEST, EVENT, RECORDED_EVENT};
use ledger_proto::convert::{record_into_proto, ToProto};
use ledger_proto::v1 as pb;
use ledger_store::sled::layout;
use ledger_store::snapshot;
use prost::Message;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Examples of each event type kept as seeds (the first ones met in the example files).
const PER_TYPE: usize = 2;

fn main() -> std::io::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize()?;
    let corpus = root.join("fuzz/corpus");
    let streams = example_streams(&root)?;
    let samples = samples_by_type(&streams);
    let records: Vec<Recorded> = streams.iter().flat_map(|(stream, events)| seal(stream, events)).collect();

    let mut seeds = Seeds::new(&corpus);
    stored_record(&mut seeds, &root, &streams, &records)?;
    json_events(&mut seeds, &streams, &samples, &records);
    proto_conversion(&mut seeds, &streams, &samples, &records);
    rules_sequence(&mut seeds);
    seeds.write()
}

/// Every stream of the example files, each as its events in order.
fn example_streams(root: &Path) -> std::io::Result<BTreeMap<StreamId, Vec<Event>>> {
    let mut files: Vec<PathBuf> = vec![root.join("examples/cafe2019-worked-example.jsonl")];
    files.push(root.join("examples/tournament-open26.jsonl"));
    let mut scores: Vec<PathBuf> = std::fs::read_dir(root.join("examples/scores"))?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    scores.retain(|p| p.extension().is_some_and(|e| e == "jsonl"));
    scores.sort();
    files.extend(scores);
    let mut streams: BTreeMap<StreamId, Vec<Event>> = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(&file)?;
        let lines = parse_lines(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let default_stream = format!("game/{}", file.file_stem().and_then(|s| s.to_str()).unwrap_or("example"));
        for line in lines {
            let name = line.stream.clone().unwrap_or_else(|| default_stream.clone());
            let stream = StreamId::parse(&name).unwrap_or_else(|r| panic!("{name}: {}", r.message));
            streams.entry(stream).or_default().push(line.event);
        }
    }
    Ok(streams)
}

/// The first [`PER_TYPE`] events of each type.
fn samples_by_type(streams: &BTreeMap<StreamId, Vec<Event>>) -> Vec<Event> {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut samples = Vec::new();
    for event in streams.values().flatten() {
        let n = seen.entry(event.type_name()).or_default();
        if *n < PER_TYPE {
            *n += 1;
            samples.push(event.clone());
        }
    }
    samples
}

/// A stream's events as the ledger stores them, sealed into its chain.
fn seal(stream: &StreamId, events: &[Event]) -> Vec<Recorded> {
    let mut prev = GENESIS;
    (1u64..)
        .zip(events)
        .map(|(seq, event)| {
            let draft = Draft {
                stream: stream.clone(),
                seq,
                position: seq,
                event_id: format!("{stream}#{seq}"),
                recorded_at_ms: 1_780_000_000_000 + seq * 1_000,
                actor: "table-1".into(),
            };
            let record = Recorded::seal(draft, prev, event.clone());
            prev = record.envelope.hash;
            record
        })
        .collect()
}

fn stored_record(
    seeds: &mut Seeds,
    root: &Path,
    streams: &BTreeMap<StreamId, Vec<Event>>,
    records: &[Recorded],
) -> std::io::Result<()> {
    let sample = std::fs::read_to_string(root.join("store/tests/samples/record-v1.hex"))?;
    seeds.add("stored_record", "record-v1-sample", unhex(sample.trim()));
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for record in records {
        let n = seen.entry(record.event.type_name()).or_default();
        if *n < PER_TYPE {
            *n += 1;
            seeds.add("stored_record", &format!("record-{}-{n}", record.event.type_name()), encode_record(record));
        }
    }
    let mut chunk = Vec::new();
    for record in records.iter().take(12) {
        layout::push_record(&mut chunk, &encode_record(record));
    }
    seeds.add("stored_record", "chunk-12-records", chunk);
    for (stream, events) in streams.iter().take(3) {
        let mut state = StreamState::new(stream, None);
        for event in events {
            state.evolve(event);
        }
        let snapshot = snapshot::encode(state.folded());
        seeds.add("stored_record", &format!("snapshot-{}", stream.id()), snapshot.clone());
        let head = layout::encode_head(state.version(), &[7; 32], Some(&snapshot));
        seeds.add("stored_record", &format!("head-{}", stream.id()), head);
    }
    seeds.add("stored_record", "run", layout::encode_run(&[1, 2, 3, 300, 70_000]));
    let mut ids = Vec::new();
    layout::push_id_entry(&mut ids, 0x0123_4567_89ab_cdef, 42);
    seeds.add("stored_record", "id-entries", ids);
    Ok(())
}

fn json_events(seeds: &mut Seeds, streams: &BTreeMap<StreamId, Vec<Event>>, samples: &[Event], records: &[Recorded]) {
    for (idx, event) in samples.iter().enumerate() {
        seeds.add("json_events", &format!("{}-{idx}", event.type_name()), line(&to_canonical_json(event)));
    }
    for (stream, events) in streams.iter().take(2) {
        let text: String = events.iter().take(12).map(|e| to_canonical_json(e).to_string() + "\n").collect();
        seeds.add("json_events", &format!("lines-{}", stream.id()), text.into_bytes());
    }
    for record in records.iter().take(3) {
        seeds.add("json_events", &format!("export-{}", record.envelope.seq), line(&record.to_json()));
    }
    let with_ids = "{\"type\":\"jury_called\",\"reason\":\"x\",\"event_id\":\"e1\",\"stream\":\"game/g\"}\n\n";
    seeds.add("json_events", "with-stream-and-id", with_ids.as_bytes().to_vec());
    for case in ledger::testing::refusal_cases() {
        let mut text: String = case.setup.iter().map(|v| v.to_string() + "\n").collect();
        text += &case.refused.to_string();
        seeds.add("json_events", &format!("refusal-{}", slug(case.name)), text.into_bytes());
    }
}

fn proto_conversion(
    seeds: &mut Seeds,
    streams: &BTreeMap<StreamId, Vec<Event>>,
    samples: &[Event],
    records: &[Recorded],
) {
    let tagged = |selector: u8, message: Vec<u8>| [vec![selector], message].concat();
    for (idx, event) in samples.iter().enumerate() {
        let bytes = tagged(EVENT, event.to_proto().encode_to_vec());
        seeds.add("proto_conversion", &format!("event-{}-{idx}", event.type_name()), bytes);
    }
    for (stream, events) in streams.iter().take(3) {
        let request = pb::AppendRequest {
            stream: stream.to_string(),
            events: (1..)
                .zip(events.iter().take(6))
                .map(|(n, e)| pb::ProposedEvent { event_id: format!("e{n}"), event: Some(e.to_proto()) })
                .collect(),
            expected_version: Some(0),
        };
        seeds.add(
            "proto_conversion",
            &format!("append-{}", stream.id()),
            tagged(APPEND_REQUEST, request.encode_to_vec()),
        );
    }
    for record in records.iter().take(4) {
        let bytes = tagged(RECORDED_EVENT, record_into_proto(record.clone()).encode_to_vec());
        seeds.add("proto_conversion", &format!("recorded-{}", record.envelope.seq), bytes);
    }
}

/// The rules target reads bytes as choices, not events: its seeds are seeded pseudo-random
/// bytes of several lengths for each kind of stream (the first byte), which the generators
/// turn into plausible games and tournaments.
fn rules_sequence(seeds: &mut Seeds) {
    let mut state = 0x5eed_u64;
    for setup in 0u8..8 {
        for len in [64usize, 400, 1_500] {
            let mut bytes = vec![setup];
            bytes.extend((1..len).map(|_| next_byte(&mut state)));
            seeds.add("rules_sequence", &format!("setup{setup}-{len}"), bytes);
        }
    }
    seeds.add("rules_sequence", "zeros", vec![0; 256]);
}

/// splitmix64's low byte: deterministic seeds without a dependency.
fn next_byte(state: &mut u64) -> u8 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)).to_le_bytes()[0]
}

fn line(value: &serde_json::Value) -> Vec<u8> {
    (value.to_string() + "\n").into_bytes()
}

fn slug(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len()).step_by(2).map(|at| u8::from_str_radix(&text[at..at + 2], 16).expect("the sample is hex")).collect()
}

/// The seeds of every target, written at the end.
struct Seeds {
    corpus: PathBuf,
    files: BTreeMap<PathBuf, Vec<u8>>,
}

impl Seeds {
    fn new(corpus: &Path) -> Self {
        Seeds { corpus: corpus.to_owned(), files: BTreeMap::new() }
    }

    fn add(&mut self, target: &str, name: &str, bytes: Vec<u8>) {
        self.files.insert(self.corpus.join(target).join(format!("seed-{name}")), bytes);
    }

    fn write(&self) -> std::io::Result<()> {
        for (path, bytes) in &self.files {
            std::fs::create_dir_all(path.parent().expect("a corpus directory"))?;
            std::fs::write(path, bytes)?;
        }
        println!("wrote {} seeds under {}", self.files.len(), self.corpus.display());
        Ok(())
    }
}
