//! The records file: every group the writer commits, appended as one **frame**, so that a
//! commit is one sequential write and one `fdatasync` of one file.
//!
//! A frame (the second frame format, `LGF2`, written since per-record checksums) is a 48-byte
//! header, a body and a table:
//! - the header: `LGF2` (magic), the body's length (u32 LE), the first record's global position
//!   (u64 LE), the number of records (u32 LE), an XXH3-64 checksum of the body (u64 LE), one of
//!   the table (u64 LE), `durable_before` (u64 LE: where the file was known durable when the
//!   frame was written) and an XXH3 checksum of the 44 bytes before it (u32 LE);
//! - the body: each record as a little-endian u32 length and the stored record (version byte +
//!   postcard), in position order: the same bytes as a chunk of the second layout;
//! - the table: for each record, where it ends in the body (u32 LE) and an XXH3 checksum of the
//!   record alone (u32 LE).
//!
//! The body's checksum is all a reader checks when nothing is wrong. When it fails, the table
//! says where each record lies and which ones still match, so a flipped bit costs the records
//! it touches, not the group (up to 16,384 events of many streams). A header that fails its own
//! checksum loses its frame's records; readers find the next frame by its magic and checksum.
//!
//! Frames of the first format (`LGF1`: a 28-byte header whose one checksum covers the numbers
//! and the body, no table) are still read: their damage stays whole-frame.
//!
//! Frames follow each other with no gap, positions without a gap across them. After a crash the
//! file may end in a frame that was being written: [`super::recover`] tells that from damage
//! inside the log by `durable_before`. The checksums guard against torn writes and bit rot,
//! not against an attacker: the hash chain does that ([`super::verify`]).
//!
//! Public so that the tamper tests can damage a log the way an attacker would.

use super::layout;
use crate::error::StoreError;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

/// The file's name in the data directory.
pub const FILE: &str = "records";

/// Bytes before a frame's body.
pub const HEADER: usize = 48;

/// Bytes before a first-format frame's body.
pub const HEADER_V1: usize = 28;

/// Bytes per record in a frame's table.
const ENTRY: usize = 8;

const MAGIC: [u8; 4] = *b"LGF2";
const MAGIC_V1: [u8; 4] = *b"LGF1";

/// Readers read the file this many bytes at a time (more when one frame is larger); a reader
/// for lookups, after its first few reads ([`FIRST_READ`]).
const WINDOW: usize = 256 * 1024;

/// A lookup reader's first read (more when the frame is larger); each read after it reads twice
/// as much, up to [`WINDOW`]. A lookup (a stream's few frames, an event by its id) then reads
/// little more than the frames it wants, however much of the file follows them, and a long
/// stream read in order soon reads a whole window at a time.
const FIRST_READ: usize = 16 * 1024;

/// Opens (or creates) the records file for reading and appending at known offsets.
///
/// # Errors
/// The file cannot be opened.
pub fn open(dir: &Path) -> std::io::Result<File> {
    std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(false).open(dir.join(FILE))
}

/// Which format a frame was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `LGF1`: one checksum over the numbers and the body, no table.
    V1,
    /// `LGF2`: checksums of the header, the body and the table, and a checksum per record.
    V2,
}

/// What a frame's header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub format: Format,
    pub body_len: u32,
    pub first_position: u64,
    pub count: u32,
    /// V2: the body's checksum; V1: the checksum of the numbers and the body.
    pub body_sum: u64,
    /// V2 only (0 in V1).
    pub table_sum: u64,
    /// V2 only (0 in V1): the records file was durable up to this offset when the frame was
    /// written, so a frame before it that is damaged was acknowledged, not torn by a stop.
    pub durable_before: u64,
}

impl Header {
    /// The header at the start of `bytes`, if a whole one that checks starts there.
    pub fn parse(bytes: &[u8]) -> Option<Header> {
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        match bytes.get(..4)? {
            magic if magic == MAGIC && bytes.len() >= HEADER => {
                if short_sum(&bytes[..44]) != u32_at(44) {
                    return None;
                }
                Some(Header {
                    format: Format::V2,
                    body_len: u32_at(4),
                    first_position: u64_at(8),
                    count: u32_at(16),
                    body_sum: u64_at(20),
                    table_sum: u64_at(28),
                    durable_before: u64_at(36),
                })
            }
            magic if magic == MAGIC_V1 && bytes.len() >= HEADER_V1 => Some(Header {
                format: Format::V1,
                body_len: u32_at(4),
                first_position: u64_at(8),
                count: u32_at(16),
                body_sum: u64_at(20),
                table_sum: 0,
                durable_before: 0,
            }),
            _ => None,
        }
    }

    /// Bytes before the body.
    pub fn header_len(&self) -> usize {
        match self.format {
            Format::V1 => HEADER_V1,
            Format::V2 => HEADER,
        }
    }

    /// Bytes of the table after the body.
    fn table_len(&self) -> u64 {
        match self.format {
            Format::V1 => 0,
            Format::V2 => u64::from(self.count) * ENTRY as u64,
        }
    }

    /// The whole frame's length in the file.
    pub fn frame_len(&self) -> u64 {
        self.header_len() as u64 + u64::from(self.body_len) + self.table_len()
    }

    /// The position after the frame's last record.
    pub fn next_position(&self) -> u64 {
        self.first_position + u64::from(self.count)
    }

    /// Whether `body` is the body this header was written with.
    pub fn checks(&self, body: &[u8]) -> bool {
        body.len() == self.body_len as usize
            && match self.format {
                Format::V1 => checksum_v1(self.body_len, self.first_position, self.count, body) == self.body_sum,
                Format::V2 => xxh3_64(body) == self.body_sum,
            }
    }
}

fn checksum_v1(body_len: u32, first_position: u64, count: u32, body: &[u8]) -> u64 {
    let mut hasher = Xxh3::new();
    hasher.update(&body_len.to_le_bytes());
    hasher.update(&first_position.to_le_bytes());
    hasher.update(&count.to_le_bytes());
    hasher.update(body);
    hasher.digest()
}

/// A record's own checksum in the table.
pub fn record_sum(record: &[u8]) -> u32 {
    short_sum(record)
}

/// The low 32 bits of XXH3-64: enough to tell a damaged record or header from an intact one.
fn short_sum(bytes: &[u8]) -> u32 {
    u32::try_from(xxh3_64(bytes) & u64::from(u32::MAX)).expect("masked to 32 bits")
}

/// A frame of records with consecutive positions from `first_position`, written when the file
/// was durable up to `durable_before`.
pub fn encode<'a>(first_position: u64, durable_before: u64, records: impl IntoIterator<Item = &'a [u8]>) -> Vec<u8> {
    let mut frame = vec![0; HEADER];
    let mut table = Vec::new();
    for record in records {
        layout::push_record(&mut frame, record);
        push_entry(&mut table, frame.len() - HEADER, record);
    }
    seal(frame, first_position, durable_before, &table)
}

/// A frame around a body already in the record format (a chunk of the second layout).
///
/// # Errors
/// The body is not a run of whole records.
pub fn around(first_position: u64, body: &[u8]) -> Result<Vec<u8>, StoreError> {
    let mut table = Vec::new();
    for span in layout::spans_of(body) {
        let (start, end) = span?;
        push_entry(&mut table, end, &body[start..end]);
    }
    let mut frame = Vec::with_capacity(HEADER + body.len() + table.len());
    frame.resize(HEADER, 0);
    frame.extend_from_slice(body);
    Ok(seal(frame, first_position, 0, &table))
}

fn push_entry(table: &mut Vec<u8>, end: usize, record: &[u8]) {
    let end = u32::try_from(end).expect("a group is far below 4 GiB");
    table.extend_from_slice(&end.to_le_bytes());
    table.extend_from_slice(&record_sum(record).to_le_bytes());
}

/// Fills in the header of a frame whose body follows [`HEADER`] zero bytes, and appends the table.
fn seal(mut frame: Vec<u8>, first_position: u64, durable_before: u64, table: &[u8]) -> Vec<u8> {
    let body_len = u32::try_from(frame.len() - HEADER).expect("a group is far below 4 GiB");
    let count = u32::try_from(table.len() / ENTRY).expect("a group is far below 4 G records");
    let body_sum = xxh3_64(&frame[HEADER..]);
    frame[..4].copy_from_slice(&MAGIC);
    frame[4..8].copy_from_slice(&body_len.to_le_bytes());
    frame[8..16].copy_from_slice(&first_position.to_le_bytes());
    frame[16..20].copy_from_slice(&count.to_le_bytes());
    frame[20..28].copy_from_slice(&body_sum.to_le_bytes());
    frame[28..36].copy_from_slice(&xxh3_64(table).to_le_bytes());
    frame[36..44].copy_from_slice(&durable_before.to_le_bytes());
    let header_sum = short_sum(&frame[..44]);
    frame[44..48].copy_from_slice(&header_sum.to_le_bytes());
    frame.extend_from_slice(table);
    frame
}

/// A first-format frame, as ledgerd wrote them before the table (for tests of old logs).
#[doc(hidden)]
pub fn encode_v1<'a>(first_position: u64, records: impl IntoIterator<Item = &'a [u8]>) -> Vec<u8> {
    let mut frame = vec![0; HEADER_V1];
    let mut count = 0u32;
    for record in records {
        layout::push_record(&mut frame, record);
        count += 1;
    }
    let body_len = u32::try_from(frame.len() - HEADER_V1).expect("a group is far below 4 GiB");
    let sum = checksum_v1(body_len, first_position, count, &frame[HEADER_V1..]);
    frame[..4].copy_from_slice(&MAGIC_V1);
    frame[4..8].copy_from_slice(&body_len.to_le_bytes());
    frame[8..16].copy_from_slice(&first_position.to_le_bytes());
    frame[16..20].copy_from_slice(&count.to_le_bytes());
    frame[20..28].copy_from_slice(&sum.to_le_bytes());
    frame
}

/// One record of a frame as a reader finds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// Where the record lies in the reader's window; it matches its checksum.
    Intact(usize, usize),
    /// It does not match (or the frame cannot say where it lies): `at` is its offset in the
    /// file (the frame's, when the record's own is unknown).
    Damaged { at: u64 },
}

/// A frame read from the file: its header, where it is, and where its body and table lie in
/// the reader's window.
#[derive(Debug, Clone, Copy)]
pub struct Found {
    pub header: Header,
    pub offset: u64,
    body: (usize, usize),
    table: (usize, usize),
}

impl Found {
    /// The offset of the frame after this one.
    pub fn next_offset(&self) -> u64 {
        self.offset + self.header.frame_len()
    }

    /// Where the body starts in the file.
    pub fn body_offset(&self) -> u64 {
        self.offset + self.header.header_len() as u64
    }
}

/// Reads frames of the file up to `end` through a window, so that frames read in order cost
/// one `pread` per [`WINDOW`] bytes (for lookups, after the first few, which read less:
/// [`FrameReader::for_lookups`]).
pub struct FrameReader<'a> {
    file: &'a File,
    end: u64,
    start: u64,
    window: Vec<u8>,
    /// How much the next read reads at least.
    read_ahead: usize,
}

impl<'a> FrameReader<'a> {
    /// A reader that never reads at or past `end` (the durable end, for readers).
    pub fn new(file: &'a File, end: u64) -> Self {
        FrameReader { file, end, start: 0, window: Vec::new(), read_ahead: WINDOW }
    }

    /// A reader whose first read is small and each next one twice as large, up to a window
    /// ([`FIRST_READ`]): for reads that want a few frames here and there, not the file in order.
    pub fn for_lookups(file: &'a File, end: u64) -> Self {
        FrameReader { read_ahead: FIRST_READ, ..FrameReader::new(file, end) }
    }

    /// Fails unless every record of a frame is what it was written as.
    ///
    /// # Errors
    /// A checksum does not match.
    pub fn check(&self, found: &Found) -> Result<(), StoreError> {
        if found.header.checks(self.body(found)) {
            Ok(())
        } else {
            Err(damaged(found.offset, "its checksum does not match"))
        }
    }

    /// The frame at `offset` without its records checked (its header is, in the second format).
    ///
    /// # Errors
    /// The file cannot be read, or no whole frame starts at `offset`.
    pub fn frame_unchecked(&mut self, offset: u64) -> Result<Option<Found>, StoreError> {
        if offset >= self.end {
            return Ok(None);
        }
        self.cover(offset, HEADER.min(usize::try_from(self.end - offset).unwrap_or(usize::MAX)))?;
        let at = usize::try_from(offset - self.start).expect("inside the window");
        let header = Header::parse(&self.window[at..]).ok_or_else(|| damaged(offset, "no frame starts there"))?;
        if offset + header.frame_len() > self.end {
            return Err(damaged(offset, "it runs past the end of the records"));
        }
        let len = usize::try_from(header.frame_len()).expect("a frame fits in memory");
        self.cover(offset, len)?;
        let at = usize::try_from(offset - self.start).expect("inside the window");
        let body = (at + header.header_len(), at + header.header_len() + header.body_len as usize);
        Ok(Some(Found { header, offset, body, table: (body.1, at + len) }))
    }

    /// The body of a frame this reader returned last (or earlier, in the same window).
    pub fn body(&self, found: &Found) -> &[u8] {
        &self.window[found.body.0..found.body.1]
    }

    /// The bytes of an intact slot of a frame this reader returned last.
    pub fn record(&self, found: &Found, slot: (usize, usize)) -> &[u8] {
        &self.body(found)[slot.0..slot.1]
    }

    /// A frame's table as (end in the body, record checksum) pairs, when it has one that checks.
    pub fn table(&self, found: &Found) -> Option<Vec<(usize, u32)>> {
        let table = &self.window[found.table.0..found.table.1];
        if found.header.format == Format::V1 || xxh3_64(table) != found.header.table_sum {
            return None;
        }
        Some(
            table
                .chunks_exact(ENTRY)
                .map(|entry| {
                    let end = u32::from_le_bytes(entry[..4].try_into().expect("4 bytes")) as usize;
                    (end, u32::from_le_bytes(entry[4..].try_into().expect("4 bytes")))
                })
                .collect(),
        )
    }

    /// Each record of a frame, checked: when the body's checksum fails, the table (if it checks)
    /// says which records still match, so the damage costs only those.
    ///
    /// # Errors
    /// A frame whose body checks but does not hold `count` whole records (written wrong, not
    /// damaged since).
    pub fn slots(&self, found: &Found) -> Result<Vec<Slot>, StoreError> {
        let body = self.body(found);
        let count = found.header.count as usize;
        if found.header.checks(body) {
            let slots: Vec<Slot> =
                layout::spans_of(body).map(|span| span.map(|(s, e)| Slot::Intact(s, e))).collect::<Result<_, _>>()?;
            if slots.len() != count {
                return Err(damaged(found.offset, "its records do not add up to its count"));
            }
            return Ok(slots);
        }
        let Some(table) = self.table(found) else {
            return Ok(vec![Slot::Damaged { at: found.offset }; count]);
        };
        let mut slots = Vec::with_capacity(count);
        let mut start = 0usize;
        for (end, sum) in table {
            let at = found.body_offset() + start as u64;
            let slot = match (body.get(start..start + 4), body.get(start + 4..end)) {
                (Some(len), Some(record))
                    if u32::from_le_bytes(len.try_into().expect("4 bytes")) as usize == record.len()
                        && record_sum(record) == sum =>
                {
                    Slot::Intact(start + 4, end)
                }
                _ => Slot::Damaged { at },
            };
            slots.push(slot);
            start = end.max(start);
        }
        Ok(slots)
    }

    /// The next frame after `offset` whose header checks (a damaged header hides where its
    /// frame ends): found by its magic, at most up to the reader's end.
    ///
    /// # Errors
    /// The file cannot be read.
    pub fn next_header_after(&mut self, offset: u64) -> Result<Option<Found>, StoreError> {
        let mut at = offset + 1;
        while at < self.end {
            let len = usize::try_from((self.end - at).min(WINDOW as u64)).expect("a window");
            self.cover(at, len)?;
            let from = usize::try_from(at - self.start).expect("inside the window");
            let window = &self.window[from..from + len];
            let Some(hit) = window.windows(4).position(|w| w == MAGIC || w == MAGIC_V1) else {
                at += (len as u64).saturating_sub(3).max(1);
                continue;
            };
            let candidate = at + hit as u64;
            match self.frame_unchecked(candidate) {
                Ok(Some(found)) => return Ok(Some(found)),
                Ok(None) => return Ok(None),
                Err(StoreError::Corrupt(_)) => at = candidate + 1,
                Err(other) => return Err(other),
            }
        }
        Ok(None)
    }

    /// Makes the window hold `len` bytes from `offset`.
    fn cover(&mut self, offset: u64, len: usize) -> Result<(), StoreError> {
        let window_end = self.start + self.window.len() as u64;
        if offset >= self.start && offset + len as u64 <= window_end {
            return Ok(());
        }
        let available = usize::try_from(self.end - offset).unwrap_or(usize::MAX);
        let size = len.max(self.read_ahead).min(available);
        if size < len {
            return Err(damaged(offset, "the records end inside it"));
        }
        self.window.resize(size, 0);
        self.file.read_exact_at(&mut self.window, offset)?;
        self.start = offset;
        self.read_ahead = (self.read_ahead * 2).min(WINDOW);
        Ok(())
    }
}

/// What a walk over the records file meets next (see [`FrameWalk`]).
#[derive(Debug)]
pub enum Walked {
    /// A frame whose header checks (its records may not: [`FrameReader::slots`] says).
    Frame(Found),
    /// Bytes from `offset` to `end` where no header checks: the records at `positions` are lost
    /// with them (up to the next frame that checks, or the last position the log holds).
    Lost { offset: u64, end: u64, positions: std::ops::Range<u64> },
}

/// Every frame of the records file in order, stepping over damaged headers: the one walk the
/// scrub, verification and repair share.
pub struct FrameWalk<'a> {
    pub reader: FrameReader<'a>,
    at: u64,
    next_position: u64,
    last_position: u64,
}

impl<'a> FrameWalk<'a> {
    /// A walk up to `end`, over a log whose last position is `last_position`.
    pub fn new(file: &'a File, end: u64, last_position: u64) -> Self {
        FrameWalk { reader: FrameReader::new(file, end), at: 0, next_position: 1, last_position }
    }

    /// The next frame or lost stretch; `Ok(None)` at the end.
    ///
    /// # Errors
    /// The file cannot be read.
    pub fn step(&mut self) -> Result<Option<Walked>, StoreError> {
        match self.reader.frame_unchecked(self.at) {
            Ok(None) => Ok(None),
            Ok(Some(found)) => {
                self.next_position = found.header.next_position();
                self.at = found.next_offset();
                Ok(Some(Walked::Frame(found)))
            }
            Err(StoreError::Corrupt(_)) => {
                let (offset, from) = (self.at, self.next_position);
                let (end, until) = match self.reader.next_header_after(offset)? {
                    Some(next) => (next.offset, next.header.first_position),
                    None => (self.reader.end, self.last_position.max(from.saturating_sub(1)) + 1),
                };
                (self.at, self.next_position) = (end, until);
                Ok(Some(Walked::Lost { offset, end, positions: from..until }))
            }
            Err(other) => Err(other),
        }
    }
}

fn damaged(offset: u64, why: &str) -> StoreError {
    StoreError::Corrupt(format!("the records file is damaged at byte {offset}: {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records() -> Vec<Vec<u8>> {
        vec![b"one".to_vec(), Vec::new(), b"three".to_vec(), vec![7; 300]]
    }

    /// Reads the one frame of `bytes` and returns each record, `None` where it is damaged.
    fn read_back(bytes: &[u8]) -> Option<Vec<Option<Vec<u8>>>> {
        let dir = tempfile::tempdir().unwrap();
        let file = open(dir.path()).unwrap();
        file.write_all_at(bytes, 0).unwrap();
        let mut reader = FrameReader::new(&file, bytes.len() as u64);
        let found = reader.frame_unchecked(0).ok()??;
        let slots = reader.slots(&found).unwrap();
        Some(
            slots
                .into_iter()
                .map(|slot| match slot {
                    Slot::Intact(s, e) => Some(reader.record(&found, (s, e)).to_vec()),
                    Slot::Damaged { .. } => None,
                })
                .collect(),
        )
    }

    #[test]
    fn a_frame_reads_back_and_a_flipped_bit_costs_only_the_record_it_touches() {
        let records = records();
        let frame = encode(7, 3, records.iter().map(Vec::as_slice));
        let header = Header::parse(&frame).unwrap();
        assert_eq!((header.first_position, header.count, header.frame_len()), (7, 4, frame.len() as u64));
        assert_eq!(header.durable_before, 3);
        let whole: Vec<Option<Vec<u8>>> = records.iter().cloned().map(Some).collect();
        assert_eq!(read_back(&frame).unwrap(), whole);
        // Where each record (with its length) lies in the frame.
        let mut spans = Vec::new();
        let mut at = HEADER;
        for record in &records {
            spans.push(at..at + 4 + record.len());
            at += 4 + record.len();
        }
        let body_end = at;
        for byte in 0..frame.len() {
            for bit in [0, 5] {
                let mut flipped = frame.clone();
                flipped[byte] ^= 1 << bit;
                let read = read_back(&flipped);
                if byte < HEADER {
                    assert!(read.is_none(), "a flipped header byte {byte} is noticed");
                    continue;
                }
                let read = read.unwrap();
                for (i, span) in spans.iter().enumerate() {
                    let hit = span.contains(&byte);
                    assert_eq!(read[i].is_none(), hit, "byte {byte}: record {i} is damaged exactly when hit");
                    if !hit {
                        assert_eq!(read[i].as_deref(), Some(records[i].as_slice()));
                    }
                }
                if byte >= body_end {
                    assert_eq!(read, whole, "a damaged table costs nothing while the body checks");
                }
            }
        }
    }

    #[test]
    fn a_first_format_frame_still_reads_and_its_damage_stays_whole() {
        let records = records();
        let frame = encode_v1(1, records.iter().map(Vec::as_slice));
        assert_eq!(read_back(&frame).unwrap(), records.iter().cloned().map(Some).collect::<Vec<_>>());
        let mut flipped = frame.clone();
        flipped[HEADER_V1 + 5] ^= 1;
        assert_eq!(read_back(&flipped).unwrap(), vec![None; 4]);
    }

    #[test]
    fn the_reader_walks_frames_across_its_window_and_stops_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let file = open(dir.path()).unwrap();
        let big = vec![b'x'; WINDOW + 100];
        let frames =
            [encode(1, 0, [b"a".as_slice(), b"b"]), encode_v1(3, [big.as_slice()]), encode(4, 0, [b"c".as_slice()])];
        let mut offset = 0;
        for frame in &frames {
            file.write_all_at(frame, offset).unwrap();
            offset += frame.len() as u64;
        }
        // The last frame is written but not yet durable: a reader bounded before it stops there.
        let durable = offset - frames[2].len() as u64;
        let mut reader = FrameReader::new(&file, durable);
        let mut at = 0;
        let mut firsts = Vec::new();
        while let Some(found) = reader.frame_unchecked(at).unwrap() {
            reader.check(&found).unwrap();
            firsts.push(found.header.first_position);
            at = found.next_offset();
        }
        assert_eq!(firsts, [1, 3]);
        // A reader bounded inside a frame refuses it.
        let mut short = FrameReader::new(&file, durable - 1);
        assert!(short.frame_unchecked(frames[0].len() as u64).is_err());
    }

    #[test]
    fn a_lookup_reads_little_more_than_its_frame_and_a_walk_soon_reads_whole_windows() {
        let dir = tempfile::tempdir().unwrap();
        let file = open(dir.path()).unwrap();
        let record = vec![b'r'; 1000];
        let mut offset = 0;
        for first in 1..=2000 {
            let frame = encode(first, 0, [record.as_slice()]);
            file.write_all_at(&frame, offset).unwrap();
            offset += frame.len() as u64;
        }
        // Two megabytes follow the first frame: a lookup of it reads one small read's worth, a
        // walk a window.
        let mut lookup = FrameReader::for_lookups(&file, offset);
        assert_eq!(lookup.frame_unchecked(0).unwrap().unwrap().header.first_position, 1);
        assert_eq!(lookup.window.len(), FIRST_READ);
        let mut walk = FrameReader::new(&file, offset);
        walk.frame_unchecked(0).unwrap();
        assert_eq!(walk.window.len(), WINDOW);
        // Reading on, a lookup's reads grow to a window too.
        let mut walk = FrameReader::for_lookups(&file, offset);
        let mut at = 0;
        while at < 4 * WINDOW as u64 {
            at = walk.frame_unchecked(at).unwrap().unwrap().next_offset();
        }
        assert_eq!(walk.window.len(), WINDOW);
    }

    #[test]
    fn past_a_damaged_header_the_next_frame_is_found_by_its_magic() {
        let dir = tempfile::tempdir().unwrap();
        let file = open(dir.path()).unwrap();
        let filler = vec![b'L'; WINDOW * 2];
        let frames =
            [encode(1, 0, [b"a".as_slice()]), encode(2, 0, [filler.as_slice()]), encode(3, 0, [b"LGF2".as_slice()])];
        let mut offsets = Vec::new();
        let mut offset = 0;
        for frame in &frames {
            file.write_all_at(frame, offset).unwrap();
            offsets.push(offset);
            offset += frame.len() as u64;
        }
        file.write_all_at(&[0xff], offsets[1] + 9).unwrap();
        let mut reader = FrameReader::new(&file, offset);
        assert!(reader.frame_unchecked(offsets[1]).is_err());
        let next = reader.next_header_after(offsets[1]).unwrap().unwrap();
        assert_eq!((next.offset, next.header.first_position), (offsets[2], 3));
        assert!(reader.next_header_after(offsets[2]).unwrap().is_none());
        // A walk meets the first frame, the stretch lost with the damaged header, the third.
        let mut walk = FrameWalk::new(&file, offset, 3);
        let mut met = Vec::new();
        while let Some(step) = walk.step().unwrap() {
            met.push(match step {
                Walked::Frame(found) => format!("frame {}", found.header.first_position),
                Walked::Lost { offset, end, positions } => format!("lost {offset}..{end} {positions:?}"),
            });
        }
        assert_eq!(met, ["frame 1".to_owned(), format!("lost {}..{} 2..3", offsets[1], offsets[2]), "frame 3".into()]);
        // Damage running to the end loses every position the log holds after it.
        file.write_all_at(&[0xff], offsets[2] + 9).unwrap();
        let mut walk = FrameWalk::new(&file, offset, 3);
        walk.step().unwrap();
        assert!(matches!(walk.step().unwrap(), Some(Walked::Lost { positions, .. }) if positions == (2..4)));
        assert!(walk.step().unwrap().is_none());
    }
}
