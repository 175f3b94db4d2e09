//! Target `stored_record`: what the sled backend reads back from disk. Arbitrary bytes are read
//! as a stored record, as a chunk of records, as a snapshot of a folded stream and as the small
//! values of the layout (a stream's head, a run, id entries). Each decoder answers `Ok` or `Err`
//! and never panics; whatever decodes encodes back to something that decodes to the same value,
//! and a record also survives the export (`ledgerctl export` → `verify --file`).

use ledger::envelope::{decode_record, encode_record};
use ledger::{Folded, Recorded, StreamId};
use ledger_store::sled::layout;
use ledger_store::snapshot;
use std::collections::BTreeMap;

/// Runs every decoder of stored bytes over `data`.
pub fn stored_record(data: &[u8]) {
    if let Ok(record) = decode_record(data) {
        record_round_trips(&record);
        load_path_is_total(std::slice::from_ref(&record));
    }
    chunk(data);
    if let Some(fold) = snapshot::decode(data) {
        let encoded = snapshot::encode(&fold);
        assert_eq!(snapshot::decode(&encoded).as_ref(), Some(&fold), "a re-encoded snapshot decodes the same");
        assert_eq!(snapshot::encode(&fold), encoded, "snapshot encoding is stable");
    }
    layout_values(data);
}

/// A decoded record encodes, decodes and exports to the same record.
fn record_round_trips(record: &Recorded) {
    let encoded = encode_record(record);
    let again = decode_record(&encoded).expect("a re-encoded record decodes");
    assert_eq!(&again, record, "record → bytes → record");
    assert_eq!(encode_record(&again), encoded, "record encoding is stable");
    // `verify` recomputes the hash, `export` writes the JSON Lines form, `verify --file` reads it.
    let _hash = record.recomputed_hash();
    let exported = record.to_json();
    let imported = Recorded::from_json(&exported)
        .unwrap_or_else(|e| panic!("the export of a stored record does not read back: {e}\n{exported}"));
    assert_eq!(&imported, record, "record → export → record");
}

/// A stream without a usable snapshot is loaded by evolving its stored events without deciding
/// them (store's sequencer, `load`): that must be total, whatever the events say.
fn load_path_is_total(records: &[Recorded]) {
    let mut streams: BTreeMap<&StreamId, (Folded, Vec<ledger::Event>)> = BTreeMap::new();
    for record in records {
        let stream = &record.envelope.stream;
        let (fold, history) = streams.entry(stream).or_insert_with(|| (Folded::new(stream, None), Vec::new()));
        fold.evolve(&record.event, history);
        history.push(record.event.clone());
    }
}

/// A chunk: length-prefixed records. The spans tile the chunk in order and stop at the first
/// damaged length; records that decode rebuild a chunk that reads back the same.
fn chunk(data: &[u8]) {
    let mut records = Vec::new();
    let mut next_start = 0usize;
    let mut damaged = false;
    for (n_spans, span) in layout::spans_of(data).enumerate() {
        assert!(!damaged, "a span after a damaged length");
        assert!(n_spans <= data.len() / 4, "more spans than 4-byte lengths in {} bytes", data.len());
        match span {
            Ok((start, end)) => {
                assert_eq!(start, next_start + 4, "spans follow each other");
                assert!(start <= end && end <= data.len(), "span {start}..{end} of {} bytes", data.len());
                next_start = end;
                records.push(decode_record(&data[start..end]));
            }
            Err(_) => damaged = true,
        }
    }
    if damaged {
        return;
    }
    assert_eq!(next_start, data.len(), "an undamaged chunk is all spans");
    let Ok(records) = records.into_iter().collect::<Result<Vec<Recorded>, _>>() else { return };
    let mut rebuilt = Vec::new();
    for record in &records {
        layout::push_record(&mut rebuilt, &encode_record(record));
    }
    let read_back: Vec<Recorded> = layout::records_of(&rebuilt)
        .map(|bytes| decode_record(bytes.expect("a rebuilt chunk is undamaged")).expect("re-encoded records decode"))
        .collect();
    assert_eq!(read_back, records, "records → chunk → records");
    load_path_is_total(&records);
}

/// A stream's head, a run of positions and id entries: each decodes or is refused, and what
/// decodes encodes back.
fn layout_values(data: &[u8]) {
    if let Ok((version, hash, snapshot)) = layout::decode_head(data) {
        assert_eq!(layout::encode_head(version, &hash, Some(snapshot)), data, "head → bytes");
    }
    if let Ok(positions) = layout::decode_run(data) {
        let encoded = layout::encode_run(&positions);
        assert_eq!(layout::decode_run(&encoded).ok(), Some(positions), "run → bytes → run");
    }
    if let Ok(entries) = layout::id_entries_of(data) {
        let mut encoded = Vec::new();
        for (hash, position) in entries {
            layout::push_id_entry(&mut encoded, hash, position);
        }
        assert_eq!(encoded, data, "id entries → bytes");
    }
}
