//! The file system's state: every file and directory as the programs see it, and as the disk
//! holds it. A change reaches "the disk" only through `fsync`/`fdatasync` of the file (its
//! data and size) or of the directory (its entries: create, rename, unlink); until then it is
//! a pending change, which a power cut drops (all, a seeded subset, or one write torn). A rename
//! across two directories is one change in both (as a journal commits it): syncing either
//! directory makes all of it durable, and a cut keeps all of it or none.
//!
//! Kept apart from FUSE so that the rules are plain code: `fs.rs` only translates requests.

use chacha20::rand_core::{Rng, SeedableRng};
use chacha20::ChaCha8Rng;
use std::collections::{BTreeMap, HashMap};
use std::ffi::{OsStr, OsString};

/// The root directory's inode (FUSE's `FUSE_ROOT_ID`).
pub const ROOT: u64 = 1;

/// A change to a file's data not yet synced.
#[derive(Debug, Clone, PartialEq, Eq)]
enum DataChange {
    Write { offset: u64, bytes: Vec<u8> },
    SetLen(u64),
}

/// One change to a directory's entries not yet synced, atomic (a rename within one directory
/// removes and adds together). `None`: the name is removed.
#[derive(Debug, Clone)]
struct EntryChange {
    /// Unique in the state; the two halves of a rename across directories share it.
    id: u64,
    names: Vec<(OsString, Option<u64>)>,
    /// The other directory of a rename across two, which holds the other half.
    partner: Option<u64>,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct FileNode {
    /// What programs read.
    pub(crate) data: Vec<u8>,
    /// What the disk holds.
    durable: Vec<u8>,
    pending: Vec<DataChange>,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct DirNode {
    pub(crate) entries: BTreeMap<OsString, u64>,
    durable: BTreeMap<OsString, u64>,
    pending: Vec<EntryChange>,
}

impl DirNode {
    /// Makes the first `n` pending changes durable.
    fn commit(&mut self, n: usize) {
        for change in self.pending.drain(..n) {
            for (name, ino) in change.names {
                match ino {
                    Some(ino) => self.durable.insert(name, ino),
                    None => self.durable.remove(&name),
                };
            }
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) enum Node {
    File(FileNode),
    Dir(DirNode),
}

/// How a power cut treats the changes not yet synced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// Every unsynced change is lost.
    All,
    /// Each unsynced data change reaches the disk or not (a coin per change, in order), and
    /// each directory keeps a random prefix of its unsynced entry changes (the order a
    /// journal commits them), shortened so that a rename across directories is kept in both
    /// or in neither.
    Subset { seed: u64 },
    /// Everything unsynced is lost except one write, torn: a seeded byte-boundary prefix of
    /// it (at least one byte, never all) reaches the disk.
    Torn { seed: u64 },
}

/// What a cut did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CutReport {
    /// Unsynced data changes (writes, size changes) that were lost.
    pub data_changes_lost: usize,
    /// Unsynced data changes that reached the disk anyway.
    pub data_changes_kept: usize,
    /// Unsynced directory entry changes that were lost (a rename across two directories counts
    /// once in each).
    pub entry_changes_lost: usize,
    /// The torn write, if any.
    pub torn: Option<TornWrite>,
    /// The files that had unsynced data changes, as programs saw their paths before the cut.
    pub files: Vec<String>,
}

/// The one write a [`Cut::Torn`] tore.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TornWrite {
    /// The file's path from the mount's root as programs saw it before the cut (`?` for a file
    /// no directory named).
    pub path: String,
    pub offset: u64,
    /// The bytes of it that reached the disk.
    pub kept: usize,
    /// The bytes written.
    pub of: usize,
}

/// Faults to inject; each stays until cleared.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Faults {
    /// `write` fails with `EIO`.
    pub eio_on_write: bool,
    /// `fsync`/`fdatasync` (of files and directories) fail with `EIO`, and sync nothing.
    pub eio_on_fsync: bool,
    /// The disk holds at most this many bytes of file data: a write or size change past it
    /// fails with `ENOSPC`.
    pub capacity: Option<u64>,
}

/// Why an operation failed (mapped to an errno by `fs.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Error {
    NotFound,
    Exists,
    NotDir,
    IsDir,
    NotEmpty,
    Io,
    NoSpace,
    Invalid,
}

/// The whole tree, in memory.
#[derive(Debug, Clone)]
pub struct State {
    pub(crate) nodes: HashMap<u64, Node>,
    next_ino: u64,
    /// The next [`EntryChange::id`].
    next_change: u64,
    pub faults: Faults,
    /// After a cut every operation fails with `EIO`, as on a machine without power.
    pub(crate) dead: bool,
}

impl Default for State {
    fn default() -> Self {
        let mut nodes = HashMap::new();
        nodes.insert(ROOT, Node::Dir(DirNode::default()));
        State { nodes, next_ino: ROOT + 1, next_change: 0, faults: Faults::default(), dead: false }
    }
}

impl State {
    pub(crate) fn alive(&self) -> Result<(), Error> {
        if self.dead {
            Err(Error::Io)
        } else {
            Ok(())
        }
    }

    pub(crate) fn node(&self, ino: u64) -> Result<&Node, Error> {
        self.nodes.get(&ino).ok_or(Error::NotFound)
    }

    fn dir(&self, ino: u64) -> Result<&DirNode, Error> {
        match self.node(ino)? {
            Node::Dir(dir) => Ok(dir),
            Node::File(_) => Err(Error::NotDir),
        }
    }

    fn dir_mut(&mut self, ino: u64) -> Result<&mut DirNode, Error> {
        match self.nodes.get_mut(&ino).ok_or(Error::NotFound)? {
            Node::Dir(dir) => Ok(dir),
            Node::File(_) => Err(Error::NotDir),
        }
    }

    fn file_mut(&mut self, ino: u64) -> Result<&mut FileNode, Error> {
        match self.nodes.get_mut(&ino).ok_or(Error::NotFound)? {
            Node::File(file) => Ok(file),
            Node::Dir(_) => Err(Error::IsDir),
        }
    }

    pub fn lookup(&self, parent: u64, name: &OsStr) -> Result<u64, Error> {
        self.alive()?;
        self.dir(parent)?.entries.get(name).copied().ok_or(Error::NotFound)
    }

    /// A new file or directory, already on the disk in both views (used when loading).
    pub(crate) fn insert_durable(&mut self, parent: u64, name: OsString, node: Node) -> u64 {
        let ino = self.fresh(node);
        let dir = self.dir_mut(parent).expect("loading into a directory");
        dir.entries.insert(name.clone(), ino);
        dir.durable.insert(name, ino);
        ino
    }

    pub(crate) fn durable_file(data: Vec<u8>) -> Node {
        Node::File(FileNode { durable: data.clone(), data, pending: Vec::new() })
    }

    fn fresh(&mut self, node: Node) -> u64 {
        let ino = self.next_ino;
        self.next_ino += 1;
        self.nodes.insert(ino, node);
        ino
    }

    /// Creates an empty file or directory named `name` in `parent` (not yet synced).
    pub fn create(&mut self, parent: u64, name: &OsStr, dir: bool) -> Result<u64, Error> {
        self.alive()?;
        if self.dir(parent)?.entries.contains_key(name) {
            return Err(Error::Exists);
        }
        let node = if dir { Node::Dir(DirNode::default()) } else { Node::File(FileNode::default()) };
        let ino = self.fresh(node);
        let id = self.change_id();
        self.change_entries(parent, id, vec![(name.to_owned(), Some(ino))], None)?;
        Ok(ino)
    }

    fn change_id(&mut self) -> u64 {
        self.next_change += 1;
        self.next_change
    }

    fn change_entries(
        &mut self,
        parent: u64,
        id: u64,
        names: Vec<(OsString, Option<u64>)>,
        partner: Option<u64>,
    ) -> Result<(), Error> {
        let dir = self.dir_mut(parent)?;
        for (name, ino) in &names {
            match ino {
                Some(ino) => dir.entries.insert(name.clone(), *ino),
                None => dir.entries.remove(name),
            };
        }
        dir.pending.push(EntryChange { id, names, partner });
        Ok(())
    }

    /// Removes `name` from `parent` (a file, or an empty directory when `dir`).
    pub fn remove(&mut self, parent: u64, name: &OsStr, dir: bool) -> Result<(), Error> {
        self.alive()?;
        let ino = self.lookup(parent, name)?;
        match (self.node(ino)?, dir) {
            (Node::Dir(d), true) if !d.entries.is_empty() => return Err(Error::NotEmpty),
            (Node::Dir(_), false) => return Err(Error::IsDir),
            (Node::File(_), true) => return Err(Error::NotDir),
            _ => {}
        }
        let id = self.change_id();
        self.change_entries(parent, id, vec![(name.to_owned(), None)], None)
    }

    /// Renames, replacing a file (or an empty directory) at the target.
    pub fn rename(&mut self, parent: u64, name: &OsStr, new_parent: u64, new_name: &OsStr) -> Result<(), Error> {
        self.alive()?;
        let ino = self.lookup(parent, name)?;
        if let Some(&target) = self.dir(new_parent)?.entries.get(new_name) {
            if target == ino {
                return Ok(());
            }
            match (self.node(target)?, self.node(ino)?) {
                (Node::Dir(d), Node::Dir(_)) if !d.entries.is_empty() => return Err(Error::NotEmpty),
                (Node::Dir(_), Node::File(_)) => return Err(Error::IsDir),
                (Node::File(_), Node::Dir(_)) => return Err(Error::NotDir),
                _ => {}
            }
        }
        let id = self.change_id();
        if parent == new_parent {
            self.change_entries(parent, id, vec![(name.to_owned(), None), (new_name.to_owned(), Some(ino))], None)
        } else {
            // One change, a half in each directory.
            self.change_entries(new_parent, id, vec![(new_name.to_owned(), Some(ino))], Some(parent))?;
            self.change_entries(parent, id, vec![(name.to_owned(), None)], Some(new_parent))
        }
    }

    pub fn read(&self, ino: u64, offset: u64, size: usize) -> Result<Vec<u8>, Error> {
        self.alive()?;
        match self.node(ino)? {
            Node::File(file) => {
                let start = usize::try_from(offset).map_err(|_| Error::Invalid)?.min(file.data.len());
                let end = start.saturating_add(size).min(file.data.len());
                Ok(file.data[start..end].to_vec())
            }
            Node::Dir(_) => Err(Error::IsDir),
        }
    }

    /// File data the disk would need if every pending change were synced, with `ino` at
    /// `new_len`: the files programs can name, and `ino` (which may be unlinked but open). A
    /// file's old data counts until a sync lets it go.
    fn used_after(&self, ino: u64, new_len: u64) -> u64 {
        let mut counted = std::collections::HashSet::from([ino]);
        let mut used = match self.nodes.get(&ino) {
            Some(Node::File(f)) => new_len.max(f.durable.len() as u64),
            _ => 0,
        };
        let mut todo = vec![ROOT];
        while let Some(dir) = todo.pop() {
            let Some(Node::Dir(d)) = self.nodes.get(&dir) else { continue };
            for &child in d.entries.values() {
                if !counted.insert(child) {
                    continue;
                }
                match self.nodes.get(&child) {
                    Some(Node::File(f)) => used += f.data.len().max(f.durable.len()) as u64,
                    Some(Node::Dir(_)) => todo.push(child),
                    None => {}
                }
            }
        }
        used
    }

    fn check_space(&self, ino: u64, new_len: u64) -> Result<(), Error> {
        match self.faults.capacity {
            Some(capacity) if self.used_after(ino, new_len) > capacity => Err(Error::NoSpace),
            _ => Ok(()),
        }
    }

    pub fn write(&mut self, ino: u64, offset: u64, bytes: &[u8]) -> Result<usize, Error> {
        self.alive()?;
        if self.faults.eio_on_write {
            return Err(Error::Io);
        }
        let start = usize::try_from(offset).map_err(|_| Error::Invalid)?;
        let end = start.checked_add(bytes.len()).ok_or(Error::Invalid)?;
        let len = self.file_mut(ino)?.data.len().max(end);
        self.check_space(ino, len as u64)?;
        let file = self.file_mut(ino)?;
        apply(&mut file.data, &DataChange::Write { offset, bytes: bytes.to_vec() });
        file.pending.push(DataChange::Write { offset, bytes: bytes.to_vec() });
        Ok(bytes.len())
    }

    pub fn set_len(&mut self, ino: u64, len: u64) -> Result<(), Error> {
        self.alive()?;
        usize::try_from(len).map_err(|_| Error::Invalid)?;
        self.check_space(ino, len)?;
        let file = self.file_mut(ino)?;
        apply(&mut file.data, &DataChange::SetLen(len));
        file.pending.push(DataChange::SetLen(len));
        Ok(())
    }

    /// `fsync`/`fdatasync` of a file (its data and size) or a directory (its entries).
    pub fn sync(&mut self, ino: u64) -> Result<(), Error> {
        self.alive()?;
        if self.faults.eio_on_fsync {
            return Err(Error::Io);
        }
        match self.nodes.get_mut(&ino).ok_or(Error::NotFound)? {
            Node::File(file) => {
                for change in file.pending.drain(..) {
                    apply(&mut file.durable, &change);
                }
            }
            Node::Dir(dir) => {
                if let Some(last) = dir.pending.last().map(|c| c.id) {
                    self.commit_entries(vec![(ino, last)]);
                }
            }
        }
        Ok(())
    }

    /// Makes durable, for each `(dir, id)`, the changes of `dir` up to change `id`, with the
    /// other half of each rename across directories among them and what came before that half
    /// in its directory (a journal commits in order).
    fn commit_entries(&mut self, mut todo: Vec<(u64, u64)>) {
        while let Some((ino, id)) = todo.pop() {
            let Some(Node::Dir(dir)) = self.nodes.get_mut(&ino) else { continue };
            // Not found: already durable.
            let Some(at) = dir.pending.iter().position(|c| c.id == id) else { continue };
            todo.extend(dir.pending[..=at].iter().filter_map(|c| Some((c.partner?, c.id))));
            dir.commit(at + 1);
        }
    }

    /// Syncs everything, as an orderly shutdown (`sync`, unmount) does.
    pub fn sync_all(&mut self) {
        let inodes: Vec<u64> = self.nodes.keys().copied().collect();
        let faults = std::mem::take(&mut self.faults);
        for ino in inodes {
            let _ = self.sync(ino);
        }
        self.faults = faults;
    }

    /// The power goes: the disk keeps what `cut` says of the unsynced changes, every later
    /// operation fails with `EIO`, and the programs' view becomes the disk's.
    pub fn cut(&mut self, cut: Cut) -> CutReport {
        let mut report = CutReport::default();
        let seed = match cut {
            Cut::All => 0,
            Cut::Subset { seed } | Cut::Torn { seed } => seed,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let paths = self.paths();
        let mut inodes: Vec<u64> = self.nodes.keys().copied().collect();
        inodes.sort_unstable();
        // Directory → how many of its pending entry changes reach the disk.
        let mut entries_kept: BTreeMap<u64, usize> = BTreeMap::new();
        let torn = match cut {
            Cut::Torn { .. } => {
                let writes: Vec<(u64, usize)> = inodes
                    .iter()
                    .filter_map(|ino| match &self.nodes[ino] {
                        Node::File(f) => Some(f.pending.iter().enumerate().filter_map(move |(i, c)| match c {
                            DataChange::Write { bytes, .. } if bytes.len() >= 2 => Some((*ino, i)),
                            _ => None,
                        })),
                        Node::Dir(_) => None,
                    })
                    .flatten()
                    .collect();
                pick(&mut rng, writes.len()).map(|i| writes[i])
            }
            _ => None,
        };
        for ino in inodes {
            let Some(node) = self.nodes.get_mut(&ino) else { continue };
            match node {
                Node::File(file) => {
                    if !file.pending.is_empty() {
                        report.files.push(paths.get(&ino).cloned().unwrap_or_else(|| "?".into()));
                    }
                    for (i, change) in file.pending.drain(..).enumerate() {
                        let keep = match cut {
                            Cut::All => false,
                            Cut::Subset { .. } => rng.next_u32() & 1 == 1,
                            Cut::Torn { .. } => {
                                if torn == Some((ino, i)) {
                                    if let DataChange::Write { offset, bytes } = &change {
                                        let kept = 1 + pick(&mut rng, bytes.len() - 1).unwrap_or(0);
                                        let part = DataChange::Write { offset: *offset, bytes: bytes[..kept].to_vec() };
                                        apply(&mut file.durable, &part);
                                        report.torn = Some(TornWrite {
                                            path: paths.get(&ino).cloned().unwrap_or_else(|| "?".into()),
                                            offset: *offset,
                                            kept,
                                            of: bytes.len(),
                                        });
                                    }
                                }
                                false
                            }
                        };
                        if keep {
                            apply(&mut file.durable, &change);
                            report.data_changes_kept += 1;
                        } else if torn != Some((ino, i)) {
                            report.data_changes_lost += 1;
                        }
                    }
                    file.data = file.durable.clone();
                }
                Node::Dir(dir) => {
                    let kept = match cut {
                        Cut::Subset { .. } => pick(&mut rng, dir.pending.len() + 1).unwrap_or(0),
                        _ => 0,
                    };
                    entries_kept.insert(ino, kept);
                }
            }
        }
        self.keep_renames_whole(&mut entries_kept);
        for (ino, kept) in entries_kept {
            if let Some(Node::Dir(dir)) = self.nodes.get_mut(&ino) {
                dir.commit(kept);
                report.entry_changes_lost += dir.pending.len();
                dir.pending.clear();
                dir.entries = dir.durable.clone();
            }
        }
        self.dead = true;
        self.forget_unreachable();
        report
    }

    /// Shortens the directories' kept prefixes until no rename across two directories is kept
    /// in one and lost in the other: the cut keeps each whole or not at all.
    fn keep_renames_whole(&self, kept: &mut BTreeMap<u64, usize>) {
        let position = |dir: u64, id: u64| match self.nodes.get(&dir) {
            Some(Node::Dir(d)) => d.pending.iter().position(|c| c.id == id),
            _ => None,
        };
        // Each round shortens one prefix, so this ends.
        loop {
            let half_kept = kept.iter().find_map(|(&ino, &n)| {
                let Some(Node::Dir(dir)) = self.nodes.get(&ino) else { return None };
                let at = dir.pending[..n].iter().position(|c| {
                    c.partner.is_some_and(|other| {
                        let other_kept = kept.get(&other).copied().unwrap_or(0);
                        position(other, c.id).is_some_and(|at| at >= other_kept)
                    })
                })?;
                Some((ino, at))
            });
            match half_kept {
                Some((ino, at)) => kept.insert(ino, at),
                None => return,
            };
        }
    }

    /// Every named inode's path as programs see it (the first name found).
    fn paths(&self) -> HashMap<u64, String> {
        let mut paths = HashMap::new();
        let mut todo = vec![(ROOT, String::new())];
        while let Some((ino, path)) = todo.pop() {
            if let Some(Node::Dir(dir)) = self.nodes.get(&ino) {
                for (name, &child) in &dir.entries {
                    let child_path = format!("{path}/{}", name.to_string_lossy());
                    if let std::collections::hash_map::Entry::Vacant(entry) = paths.entry(child) {
                        entry.insert(child_path.clone());
                        todo.push((child, child_path));
                    }
                }
            }
        }
        paths
    }

    /// Drops inodes no directory on the disk names (their data went with the cut).
    fn forget_unreachable(&mut self) {
        let mut reachable = std::collections::HashSet::from([ROOT]);
        let mut todo = vec![ROOT];
        while let Some(ino) = todo.pop() {
            if let Some(Node::Dir(dir)) = self.nodes.get(&ino) {
                for &child in dir.entries.values() {
                    if reachable.insert(child) {
                        todo.push(child);
                    }
                }
            }
        }
        self.nodes.retain(|ino, _| reachable.contains(ino));
    }

    /// The tree as the disk holds it: path → contents (`None` for a directory).
    pub fn durable_tree(&self) -> BTreeMap<Vec<OsString>, Option<Vec<u8>>> {
        let mut out = BTreeMap::new();
        let mut todo = vec![(ROOT, Vec::new())];
        while let Some((ino, path)) = todo.pop() {
            if let Some(Node::Dir(dir)) = self.nodes.get(&ino) {
                for (name, &child) in &dir.durable {
                    let mut child_path: Vec<OsString> = path.clone();
                    child_path.push(name.clone());
                    match self.nodes.get(&child) {
                        Some(Node::File(file)) => {
                            out.insert(child_path, Some(file.durable.clone()));
                        }
                        Some(Node::Dir(_)) => {
                            out.insert(child_path.clone(), None);
                            todo.push((child, child_path));
                        }
                        None => {}
                    }
                }
            }
        }
        out
    }
}

fn apply(data: &mut Vec<u8>, change: &DataChange) {
    match change {
        DataChange::Write { offset, bytes } => {
            let start = usize::try_from(*offset).expect("checked when written");
            let end = start + bytes.len();
            if data.len() < end {
                data.resize(end, 0);
            }
            data[start..end].copy_from_slice(bytes);
        }
        DataChange::SetLen(len) => data.resize(usize::try_from(*len).expect("checked when set"), 0),
    }
}

/// A seeded index below `n` (`None` when `n` is 0).
fn pick(rng: &mut ChaCha8Rng, n: usize) -> Option<usize> {
    let n64 = u64::try_from(n).ok().filter(|&n| n > 0)?;
    usize::try_from(rng.next_u64() % n64).ok()
}
