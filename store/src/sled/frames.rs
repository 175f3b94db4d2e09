//! The records file: every group the writer commits, appended as one **frame**, so that a
//! commit is one sequential write and one `fdatasync` of one file.
//!
//! A frame is a 28-byte header and a body:
//! - `LGF1` (magic), the body's length (u32 LE), the first record's global position (u64 LE),
//!   the number of records (u32 LE), and an XXH3-64 checksum (u64 LE) of the three numbers and
//!   the body;
//! - the body: each record as a little-endian u32 length and the stored record (version byte +
//!   postcard), in position order: the same bytes as a chunk of the second layout.
//!
//! Frames follow each other with no gap, positions without a gap across them. After a crash the
//! file may end in a frame that was being written: its checksum (or its length, or its
//! position) does not match, and recovery cuts it off ([`super::recover`]). The checksum guards
//! against a torn write, not against an attacker: the hash chain does that ([`super::verify`]).
//!
//! Public so that the tamper tests can damage a log the way an attacker would.

use super::layout;
use crate::error::StoreError;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;
use xxhash_rust::xxh3::Xxh3;

/// The file's name in the data directory.
pub const FILE: &str = "records";

/// Bytes before a frame's body.
pub const HEADER: usize = 28;

const MAGIC: [u8; 4] = *b"LGF1";

/// Readers read the file this many bytes at a time (more when one frame is larger).
const WINDOW: usize = 256 * 1024;

/// Opens (or creates) the records file for reading and appending at known offsets.
///
/// # Errors
/// The file cannot be opened.
pub fn open(dir: &Path) -> std::io::Result<File> {
    std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(false).open(dir.join(FILE))
}

/// What a frame's header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub body_len: u32,
    pub first_position: u64,
    pub count: u32,
    pub checksum: u64,
}

impl Header {
    /// The header at the start of `bytes`, if they start with one.
    pub fn parse(bytes: &[u8]) -> Option<Header> {
        let bytes = bytes.get(..HEADER)?;
        if bytes[..4] != MAGIC {
            return None;
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        Some(Header { body_len: u32_at(4), first_position: u64_at(8), count: u32_at(16), checksum: u64_at(20) })
    }

    /// The whole frame's length in the file.
    pub fn frame_len(&self) -> u64 {
        HEADER as u64 + u64::from(self.body_len)
    }

    /// The position after the frame's last record.
    pub fn next_position(&self) -> u64 {
        self.first_position + u64::from(self.count)
    }

    /// Whether `body` is the body this header was written with.
    pub fn checks(&self, body: &[u8]) -> bool {
        body.len() == self.body_len as usize
            && checksum(self.body_len, self.first_position, self.count, body) == self.checksum
    }
}

fn checksum(body_len: u32, first_position: u64, count: u32, body: &[u8]) -> u64 {
    let mut hasher = Xxh3::new();
    hasher.update(&body_len.to_le_bytes());
    hasher.update(&first_position.to_le_bytes());
    hasher.update(&count.to_le_bytes());
    hasher.update(body);
    hasher.digest()
}

/// A frame of records with consecutive positions from `first_position`.
pub fn encode<'a>(first_position: u64, records: impl IntoIterator<Item = &'a [u8]>) -> Vec<u8> {
    let mut frame = vec![0; HEADER];
    let mut count = 0u32;
    for record in records {
        layout::push_record(&mut frame, record);
        count += 1;
    }
    seal(frame, first_position, count)
}

/// A frame around a body already in the record format (a chunk of the second layout).
pub fn around(first_position: u64, count: u32, body: &[u8]) -> Vec<u8> {
    let mut frame = Vec::with_capacity(HEADER + body.len());
    frame.resize(HEADER, 0);
    frame.extend_from_slice(body);
    seal(frame, first_position, count)
}

/// Fills in the header of a frame whose body follows [`HEADER`] zero bytes.
fn seal(mut frame: Vec<u8>, first_position: u64, count: u32) -> Vec<u8> {
    let body_len = u32::try_from(frame.len() - HEADER).expect("a group is far below 4 GiB");
    let sum = checksum(body_len, first_position, count, &frame[HEADER..]);
    frame[..4].copy_from_slice(&MAGIC);
    frame[4..8].copy_from_slice(&body_len.to_le_bytes());
    frame[8..16].copy_from_slice(&first_position.to_le_bytes());
    frame[16..20].copy_from_slice(&count.to_le_bytes());
    frame[20..28].copy_from_slice(&sum.to_le_bytes());
    frame
}

/// A frame read from the file: its header, where it is, and where its body lies in the
/// reader's window.
#[derive(Debug, Clone, Copy)]
pub struct Found {
    pub header: Header,
    pub offset: u64,
    body: (usize, usize),
}

impl Found {
    /// The offset of the frame after this one.
    pub fn next_offset(&self) -> u64 {
        self.offset + self.header.frame_len()
    }
}

/// Reads frames of the file up to `end` through a window, so that frames read in order cost
/// one `pread` per [`WINDOW`] bytes.
pub struct FrameReader<'a> {
    file: &'a File,
    end: u64,
    start: u64,
    window: Vec<u8>,
}

impl<'a> FrameReader<'a> {
    /// A reader that never reads at or past `end` (the durable end, for readers).
    pub fn new(file: &'a File, end: u64) -> Self {
        FrameReader { file, end, start: 0, window: Vec::new() }
    }

    /// The frame at `offset`, its checksum checked. `Ok(None)` at the end.
    ///
    /// # Errors
    /// The file cannot be read, or what is there is not a whole frame that checks.
    pub fn frame(&mut self, offset: u64) -> Result<Option<Found>, StoreError> {
        let found = self.frame_unchecked(offset)?;
        if let Some(found) = &found {
            self.check(found)?;
        }
        Ok(found)
    }

    /// Fails unless a frame's body is what its header was written with.
    ///
    /// # Errors
    /// The checksum does not match.
    pub fn check(&self, found: &Found) -> Result<(), StoreError> {
        if found.header.checks(self.body(found)) {
            Ok(())
        } else {
            Err(damaged(found.offset, "its checksum does not match"))
        }
    }

    /// The frame at `offset` without its checksum checked (verification reports damage itself).
    ///
    /// # Errors
    /// The file cannot be read, or no whole frame starts at `offset`.
    pub fn frame_unchecked(&mut self, offset: u64) -> Result<Option<Found>, StoreError> {
        if offset >= self.end {
            return Ok(None);
        }
        self.cover(offset, HEADER)?;
        let at = usize::try_from(offset - self.start).expect("inside the window");
        let header = Header::parse(&self.window[at..]).ok_or_else(|| damaged(offset, "no frame starts there"))?;
        if offset + header.frame_len() > self.end {
            return Err(damaged(offset, "it runs past the end of the records"));
        }
        let len = usize::try_from(header.frame_len()).expect("a frame fits in memory");
        self.cover(offset, len)?;
        let at = usize::try_from(offset - self.start).expect("inside the window");
        Ok(Some(Found { header, offset, body: (at + HEADER, at + len) }))
    }

    /// The body of a frame this reader returned last (or earlier, in the same window).
    pub fn body(&self, found: &Found) -> &[u8] {
        &self.window[found.body.0..found.body.1]
    }

    /// Makes the window hold `len` bytes from `offset`.
    fn cover(&mut self, offset: u64, len: usize) -> Result<(), StoreError> {
        let window_end = self.start + self.window.len() as u64;
        if offset >= self.start && offset + len as u64 <= window_end {
            return Ok(());
        }
        let available = usize::try_from(self.end - offset).unwrap_or(usize::MAX);
        let size = len.max(WINDOW).min(available);
        if size < len {
            return Err(damaged(offset, "the records end inside it"));
        }
        self.window.resize(size, 0);
        self.file.read_exact_at(&mut self.window, offset)?;
        self.start = offset;
        Ok(())
    }
}

fn damaged(offset: u64, why: &str) -> StoreError {
    StoreError::Corrupt(format!("the records file is damaged at byte {offset}: {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_reads_back_and_any_changed_byte_fails_its_checksum() {
        let records: [&[u8]; 3] = [b"one", b"", b"three"];
        let frame = encode(7, records);
        let header = Header::parse(&frame).unwrap();
        assert_eq!((header.first_position, header.count, header.frame_len()), (7, 3, frame.len() as u64));
        assert!(header.checks(&frame[HEADER..]));
        let read: Vec<&[u8]> = layout::records_of(&frame[HEADER..]).map(Result::unwrap).collect();
        assert_eq!(read, records);
        for at in 0..frame.len() {
            let mut torn = frame.clone();
            torn[at] ^= 0x40;
            let intact = Header::parse(&torn).is_some_and(|h| h.checks(&torn[HEADER..]));
            assert!(!intact, "a change at byte {at} went unnoticed");
        }
    }

    #[test]
    fn the_reader_walks_frames_across_its_window_and_stops_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let file = open(dir.path()).unwrap();
        let big = vec![b'x'; WINDOW + 100];
        let frames = [encode(1, [b"a".as_slice(), b"b"]), encode(3, [big.as_slice()]), encode(4, [b"c".as_slice()])];
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
        while let Some(found) = reader.frame(at).unwrap() {
            firsts.push(found.header.first_position);
            at = found.next_offset();
        }
        assert_eq!(firsts, [1, 3]);
        // A reader bounded inside a frame refuses it.
        let mut short = FrameReader::new(&file, durable - 1);
        assert!(short.frame(frames[0].len() as u64).is_err());
    }
}
