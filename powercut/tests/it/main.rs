//! The power-cut file system against its model, through a real FUSE mount: random writes,
//! truncations, creates, renames, unlinks and syncs of files and directories; after each, what
//! the disk holds is what the model says was synced, and after a cut and a remount the
//! directory holds exactly that. Also a torn write, a seeded subset of unsynced writes, a rename
//! across directories that a subset cut keeps whole or drops whole, and injected `EIO` and
//! `ENOSPC` (a deleted file's space is free again).
//!
//! Outside CI a machine without FUSE skips these loudly; under `CI=true` it fails them.

use ledger_powercut::{Cut, Faults, PowerCut};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// `true` when FUSE can be mounted here; otherwise skips loudly (fails under `CI=true`).
fn fuse_available() -> bool {
    ledger_powercut::available_or_skip("power-cut file system tests")
}

/// A backing directory and a mount point, both temporary.
struct Mounted {
    fs: PowerCut,
    backing: tempfile::TempDir,
    _mountpoint: tempfile::TempDir,
}

fn mount(prepare: impl FnOnce(&Path)) -> Mounted {
    let backing = tempfile::tempdir().unwrap();
    prepare(backing.path());
    let mountpoint = tempfile::tempdir().unwrap();
    let fs = PowerCut::mount(backing.path(), mountpoint.path()).unwrap();
    Mounted { fs, backing, _mountpoint: mountpoint }
}

impl Mounted {
    fn path(&self, relative: &str) -> PathBuf {
        self.fs.mountpoint().join(relative)
    }

    /// Cut, then boot again on what is left.
    fn cut_and_remount(&mut self, cut: Cut) -> ledger_powercut::CutReport {
        let report = self.fs.cut(cut).unwrap();
        self.fs.remount().unwrap();
        report
    }
}

/// Every file and directory under `root`: relative path → contents (`None`: a directory).
fn tree(root: &Path) -> BTreeMap<String, Option<Vec<u8>>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![root.to_owned()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let relative = entry.path().strip_prefix(root).unwrap().to_str().unwrap().to_owned();
            if entry.file_type().unwrap().is_dir() {
                out.insert(relative, None);
                todo.push(entry.path());
            } else {
                out.insert(relative, Some(std::fs::read(entry.path()).unwrap()));
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The model: inodes with their data and their synced data; two directories with their entries
// and their synced entries. A file sync copies its data. A directory's entry changes wait in
// one list for both directories, in order; a rename across the two is one change in both. A
// directory sync makes durable every change in it and, for a rename, the other directory's
// changes up to it (as a journal commits them: in order, a rename whole).

#[derive(Debug, Clone)]
enum Op {
    Create(usize),
    Write { file: usize, offset: u64, len: usize, byte: u8 },
    Truncate { file: usize, len: u64 },
    SyncFile(usize),
    Rename { from: usize, to: usize },
    Unlink(usize),
    SyncDir(usize),
}

/// The names the operations use: three in the root, three in `d/`.
const NAMES: [&str; 6] = ["a", "b", "c", "d/a", "d/b", "d/c"];
const DIRS: [&str; 2] = ["", "d"];

fn split(name: &str) -> (usize, &str) {
    match name.strip_prefix("d/") {
        Some(rest) => (1, rest),
        None => (0, name),
    }
}

/// One entry change: (directory, name, inode or `None` for a removal), one or two directories.
type EntryChange = Vec<(usize, String, Option<usize>)>;

#[derive(Debug, Default)]
struct Model {
    /// inode → (data, synced data)
    inodes: Vec<(Vec<u8>, Vec<u8>)>,
    /// directory → (entries, synced entries), names → inode
    dirs: [(BTreeMap<String, usize>, BTreeMap<String, usize>); 2],
    /// Entry changes not yet synced, in the order they were made.
    pending: Vec<EntryChange>,
}

impl Model {
    fn inode(&self, name: &str) -> Option<usize> {
        let (dir, base) = split(name);
        self.dirs[dir].0.get(base).copied()
    }

    /// Makes an entry change, now for programs, later for the disk.
    fn change(&mut self, change: EntryChange) {
        for (dir, name, ino) in &change {
            match ino {
                Some(ino) => self.dirs[*dir].0.insert(name.clone(), *ino),
                None => self.dirs[*dir].0.remove(name),
            };
        }
        self.pending.push(change);
    }

    /// A directory sync: every pending change in `dir`, and every earlier change in a directory
    /// that one of those touches, and so on, reaches the disk in order.
    fn sync_dir(&mut self, dir: usize) {
        let touches = |change: &EntryChange, dir: usize| change.iter().any(|(d, _, _)| *d == dir);
        let mut synced: Vec<bool> = self.pending.iter().map(|c| touches(c, dir)).collect();
        // From the last change back: a change is marked by later ones before its turn comes.
        for i in (0..self.pending.len()).rev() {
            if !synced[i] {
                continue;
            }
            let (earlier, from_i) = self.pending.split_at(i);
            for (j, change) in earlier.iter().enumerate() {
                if from_i[0].iter().any(|(d, _, _)| touches(change, *d)) {
                    synced[j] = true;
                }
            }
        }
        let mut kept = Vec::new();
        for (change, synced) in std::mem::take(&mut self.pending).into_iter().zip(synced) {
            if !synced {
                kept.push(change);
                continue;
            }
            for (dir, name, ino) in change {
                match ino {
                    Some(ino) => self.dirs[dir].1.insert(name, ino),
                    None => self.dirs[dir].1.remove(&name),
                };
            }
        }
        self.pending = kept;
    }

    /// Applies `op` to the model and to the mounted file system alike.
    fn apply(&mut self, op: &Op, mount: &Mounted) {
        match *op {
            Op::Create(file) => {
                let name = NAMES[file];
                if self.inode(name).is_none() {
                    OpenOptions::new().write(true).create(true).truncate(false).open(mount.path(name)).unwrap();
                    self.inodes.push((Vec::new(), Vec::new()));
                    let (dir, base) = split(name);
                    self.change(vec![(dir, base.to_owned(), Some(self.inodes.len() - 1))]);
                }
            }
            Op::Write { file, offset, len, byte } => {
                if let Some(ino) = self.inode(NAMES[file]) {
                    let bytes = vec![byte; len];
                    OpenOptions::new()
                        .write(true)
                        .open(mount.path(NAMES[file]))
                        .unwrap()
                        .write_all_at(&bytes, offset)
                        .unwrap();
                    let data = &mut self.inodes[ino].0;
                    let end = usize::try_from(offset).unwrap() + len;
                    if data.len() < end {
                        data.resize(end, 0);
                    }
                    data[usize::try_from(offset).unwrap()..end].copy_from_slice(&bytes);
                }
            }
            Op::Truncate { file, len } => {
                if let Some(ino) = self.inode(NAMES[file]) {
                    OpenOptions::new().write(true).open(mount.path(NAMES[file])).unwrap().set_len(len).unwrap();
                    self.inodes[ino].0.resize(usize::try_from(len).unwrap(), 0);
                }
            }
            Op::SyncFile(file) => {
                if let Some(ino) = self.inode(NAMES[file]) {
                    File::open(mount.path(NAMES[file])).unwrap().sync_data().unwrap();
                    self.inodes[ino].1 = self.inodes[ino].0.clone();
                }
            }
            Op::Rename { from, to } => {
                if let Some(ino) = self.inode(NAMES[from]).filter(|_| from != to) {
                    std::fs::rename(mount.path(NAMES[from]), mount.path(NAMES[to])).unwrap();
                    let (from_dir, from_base) = split(NAMES[from]);
                    let (to_dir, to_base) = split(NAMES[to]);
                    self.change(vec![(from_dir, from_base.to_owned(), None), (to_dir, to_base.to_owned(), Some(ino))]);
                }
            }
            Op::Unlink(file) => {
                if self.inode(NAMES[file]).is_some() {
                    std::fs::remove_file(mount.path(NAMES[file])).unwrap();
                    let (dir, base) = split(NAMES[file]);
                    self.change(vec![(dir, base.to_owned(), None)]);
                }
            }
            Op::SyncDir(dir) => {
                File::open(mount.path(DIRS[dir])).unwrap().sync_all().unwrap();
                self.sync_dir(dir);
            }
        }
    }

    /// What programs see now (`synced: false`) or what survives a cut (`synced: true`).
    fn tree(&self, synced: bool) -> BTreeMap<String, Option<Vec<u8>>> {
        let mut out = BTreeMap::from([("d".to_owned(), None)]);
        for (dir, prefix) in [(0, ""), (1, "d/")] {
            let entries = if synced { &self.dirs[dir].1 } else { &self.dirs[dir].0 };
            for (name, &ino) in entries {
                let (data, synced_data) = &self.inodes[ino];
                out.insert(format!("{prefix}{name}"), Some(if synced { synced_data } else { data }.clone()));
            }
        }
        out
    }
}

fn op() -> impl Strategy<Value = Op> {
    let file = 0..NAMES.len();
    prop_oneof![
        2 => file.clone().prop_map(Op::Create),
        4 => (file.clone(), 0..96u64, 1..48usize, 1..=255u8)
            .prop_map(|(file, offset, len, byte)| Op::Write { file, offset, len, byte }),
        1 => (file.clone(), 0..128u64).prop_map(|(file, len)| Op::Truncate { file, len }),
        2 => file.clone().prop_map(Op::SyncFile),
        1 => (file.clone(), file.clone()).prop_map(|(from, to)| Op::Rename { from, to }),
        1 => file.prop_map(Op::Unlink),
        2 => (0..DIRS.len()).prop_map(Op::SyncDir),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// What survives a cut of everything unsynced is exactly what the model synced.
    #[test]
    fn a_cut_leaves_exactly_what_was_synced(ops in proptest::collection::vec(op(), 1..40)) {
        if !fuse_available() {
            return Ok(());
        }
        // `d/` exists on the disk before the mount.
        let mut mount = mount(|backing| std::fs::create_dir(backing.join("d")).unwrap());
        let mut model = Model::default();
        for (i, op) in ops.iter().enumerate() {
            model.apply(op, &mount);
            prop_assert_eq!(durable(&mount.fs), model.tree(true), "the disk after op {} ({:?})", i, op);
        }
        prop_assert_eq!(tree(mount.fs.mountpoint()), model.tree(false), "the live view before the cut");
        mount.cut_and_remount(Cut::All);
        prop_assert_eq!(tree(mount.backing.path()), model.tree(true), "the backing directory after the cut");
        prop_assert_eq!(tree(mount.fs.mountpoint()), model.tree(true), "the remounted view after the cut");
    }
}

/// What the file system says the disk holds, as [`tree`] lists a directory.
fn durable(fs: &PowerCut) -> BTreeMap<String, Option<Vec<u8>>> {
    fs.durable_tree()
        .into_iter()
        .map(|(path, contents)| {
            let names: Vec<&str> = path.iter().map(|name| name.to_str().unwrap()).collect();
            (names.join("/"), contents)
        })
        .collect()
}

/// A file written, synced, then appended to without a sync.
fn synced_then_appended(mount: &Mounted, synced: &[u8], appended: &[u8]) {
    let mut file = File::create(mount.path("log")).unwrap();
    std::io::Write::write_all(&mut file, synced).unwrap();
    file.sync_all().unwrap();
    File::open(mount.fs.mountpoint()).unwrap().sync_all().unwrap();
    std::io::Write::write_all(&mut file, appended).unwrap();
}

#[test]
fn a_torn_write_keeps_a_byte_prefix_of_it_and_nothing_else_unsynced() {
    if !fuse_available() {
        return;
    }
    let synced: Vec<u8> = (0..500u32).map(|i| u8::try_from(i % 251).unwrap()).collect();
    let appended = vec![0xAB; 1000];
    let mut kept_lengths = std::collections::BTreeSet::new();
    for seed in 0..8 {
        let mut mount = mount(|_| ());
        synced_then_appended(&mount, &synced, &appended);
        File::create(mount.path("never-synced")).unwrap();
        let report = mount.cut_and_remount(Cut::Torn { seed });
        let torn = report.torn.expect("a write was torn");
        let (offset, kept, of) = (torn.offset, torn.kept, torn.of);
        assert_eq!((torn.path.as_str(), offset, of), ("/log", 500, 1000));
        assert!((1..1000).contains(&kept), "a torn write keeps some bytes, never all: {kept}");
        let mut expected = synced.clone();
        expected.extend_from_slice(&appended[..kept]);
        assert_eq!(std::fs::read(mount.path("log")).unwrap(), expected, "seed {seed}");
        assert!(!mount.path("never-synced").exists(), "an unsynced create is gone");
        kept_lengths.insert(kept);
    }
    assert!(kept_lengths.len() > 1, "the tear point depends on the seed: {kept_lengths:?}");
}

#[test]
fn a_subset_cut_keeps_whole_unsynced_writes_or_drops_them() {
    if !fuse_available() {
        return;
    }
    let blocks = 16usize;
    let mut outcomes = std::collections::BTreeSet::new();
    for seed in 0..6 {
        let mut mount = mount(|_| ());
        synced_then_appended(&mount, b"synced!", b"");
        let file = OpenOptions::new().write(true).open(mount.path("log")).unwrap();
        for block in 0..blocks {
            file.write_all_at(&[u8::try_from(block + 1).unwrap(); 100], 7 + 100 * block as u64).unwrap();
        }
        drop(file);
        let report = mount.cut_and_remount(Cut::Subset { seed });
        assert_eq!(report.data_changes_kept + report.data_changes_lost, blocks);
        let data = std::fs::read(mount.path("log")).unwrap();
        assert_eq!(&data[..7], b"synced!");
        let mut kept = 0;
        for block in 0..blocks {
            let region = data.get(7 + 100 * block..7 + 100 * (block + 1));
            match region {
                Some(r) if r.iter().all(|&b| b == u8::try_from(block + 1).unwrap()) => kept += 1,
                Some(r) => assert!(r.iter().all(|&b| b == 0), "block {block} is whole or absent"),
                None => assert!(data.len() <= 7 + 100 * block, "nothing after a missing tail"),
            }
        }
        assert_eq!(kept, report.data_changes_kept, "seed {seed}");
        outcomes.insert(kept);
    }
    assert!(outcomes.len() > 1, "the subset depends on the seed: {outcomes:?}");
}

#[test]
fn injected_eio_and_a_full_disk_fail_the_calls_and_lose_only_the_unsynced() {
    if !fuse_available() {
        return;
    }
    let mut mount = mount(|_| ());
    synced_then_appended(&mount, b"kept", b"");
    let file = OpenOptions::new().write(true).open(mount.path("log")).unwrap();

    mount.fs.set_faults(Faults { eio_on_write: true, ..Faults::default() });
    let error = file.write_all_at(b"x", 4).unwrap_err();
    assert_eq!(error.raw_os_error(), Some(5), "EIO on write: {error}");

    mount.fs.set_faults(Faults { eio_on_fsync: true, ..Faults::default() });
    file.write_all_at(b" and written", 4).unwrap();
    let error = file.sync_data().unwrap_err();
    assert_eq!(error.raw_os_error(), Some(5), "EIO on fdatasync: {error}");

    mount.fs.set_faults(Faults { capacity: Some(4096), ..Faults::default() });
    let error = file.write_all_at(&[7; 8192], 0).unwrap_err();
    assert_eq!(error.raw_os_error(), Some(28), "ENOSPC: {error}");
    file.write_all_at(b"!", 16).unwrap();

    drop(file);
    mount.fs.set_faults(Faults::default());
    mount.cut_and_remount(Cut::All);
    assert_eq!(std::fs::read(mount.path("log")).unwrap(), b"kept", "only the synced bytes survive");
}

#[test]
fn after_a_cut_every_call_fails_until_the_remount_and_an_orderly_unmount_keeps_everything() {
    if !fuse_available() {
        return;
    }
    let mut mount = mount(|_| ());
    std::fs::write(mount.path("unsynced"), b"lost").unwrap();
    mount.fs.cut(Cut::All).unwrap();
    let error = std::fs::read(mount.path("unsynced")).unwrap_err();
    assert_eq!(error.raw_os_error(), Some(5), "EIO without power: {error}");
    // Looking is a call too: a listing or a file's attributes fail the same way.
    let listing = std::fs::read_dir(mount.path(".")).and_then(|mut entries| entries.next().transpose());
    assert_eq!(listing.map(|_| ()).unwrap_err().raw_os_error(), Some(5), "a listing without power");
    let stat = std::fs::metadata(mount.path("unsynced")).unwrap_err();
    assert_eq!(stat.raw_os_error(), Some(5), "attributes without power: {stat}");
    mount.fs.remount().unwrap();
    assert!(!mount.path("unsynced").exists());

    // An orderly shutdown syncs everything, as unmounting does.
    std::fs::create_dir(mount.path("dir")).unwrap();
    std::fs::write(mount.path("dir/kept"), b"kept").unwrap();
    let Mounted { fs, backing, _mountpoint } = mount;
    drop(fs);
    assert_eq!(std::fs::read(backing.path().join("dir/kept")).unwrap(), b"kept");
}

#[test]
fn a_subset_cut_keeps_a_rename_across_directories_whole_or_drops_it_whole() {
    if !fuse_available() {
        return;
    }
    let mut outcomes = std::collections::BTreeSet::new();
    for seed in 0..24 {
        let mut mount = mount(|backing| {
            std::fs::create_dir(backing.join("d")).unwrap();
            std::fs::write(backing.join("moved"), b"moved").unwrap();
        });
        // Unsynced changes around the rename in both directories: a subset cut keeps a prefix
        // of each directory's, and never half of the rename.
        std::fs::write(mount.path("before"), b"").unwrap();
        std::fs::write(mount.path("d/before"), b"").unwrap();
        std::fs::rename(mount.path("moved"), mount.path("d/moved")).unwrap();
        std::fs::write(mount.path("after"), b"").unwrap();
        std::fs::write(mount.path("d/after"), b"").unwrap();
        let report = mount.cut_and_remount(Cut::Subset { seed });
        let names = tree(mount.fs.mountpoint());
        let (old, new) = (names.contains_key("moved"), names.contains_key("d/moved"));
        assert!(old != new, "seed {seed}: the file is in one place, never both or none: {names:?}");
        if new {
            // The rename's changes are durable only with what came before them in both.
            assert!(names.contains_key("before") && names.contains_key("d/before"), "seed {seed}: {names:?}");
        }
        for later in ["after", "d/after"] {
            assert!(!names.contains_key(later) || new, "seed {seed}: {later} kept without the rename before it");
        }
        // Each directory kept a prefix of its three changes (the rename is one in each).
        let kept = |dir: &str| {
            usize::from(names.contains_key(&format!("{dir}before")))
                + usize::from(new)
                + usize::from(names.contains_key(&format!("{dir}after")))
        };
        assert_eq!(report.entry_changes_lost, 6 - kept("") - kept("d/"), "seed {seed}: {report:?} {names:?}");
        outcomes.insert(new);
    }
    assert_eq!(outcomes.len(), 2, "some cuts keep the rename and some drop it");
}

#[test]
fn syncing_either_directory_of_a_rename_makes_all_of_it_durable() {
    if !fuse_available() {
        return;
    }
    for synced in ["", "d"] {
        let mut mount = mount(|backing| {
            std::fs::create_dir(backing.join("d")).unwrap();
            std::fs::write(backing.join("moved"), b"moved").unwrap();
        });
        std::fs::rename(mount.path("moved"), mount.path("d/moved")).unwrap();
        File::open(mount.path(synced)).unwrap().sync_all().unwrap();
        assert_eq!(
            durable(&mount.fs).keys().cloned().collect::<Vec<_>>(),
            ["d", "d/moved"],
            "synced `{synced}`: the rename is durable whole"
        );
        mount.cut_and_remount(Cut::All);
        assert_eq!(std::fs::read(mount.path("d/moved")).unwrap(), b"moved");
        assert!(!mount.path("moved").exists());
    }
}

#[test]
fn a_deleted_files_space_is_free_again() {
    if !fuse_available() {
        return;
    }
    let mount = mount(|_| ());
    std::fs::write(mount.path("old"), vec![1; 3000]).unwrap();
    mount.fs.set_faults(Faults { capacity: Some(4096), ..Faults::default() });
    let full = std::fs::write(mount.path("new"), vec![2; 3000]).unwrap_err();
    assert_eq!(full.raw_os_error(), Some(28), "ENOSPC while the old file is there: {full}");
    std::fs::remove_file(mount.path("old")).unwrap();
    std::fs::write(mount.path("new"), vec![2; 3000]).unwrap();
    // Renaming over a file frees the replaced file's space too.
    std::fs::write(mount.path("other"), vec![3; 1000]).unwrap();
    std::fs::rename(mount.path("other"), mount.path("new")).unwrap();
    std::fs::write(mount.path("third"), vec![4; 3000]).unwrap();
}

#[test]
fn mknod_makes_regular_files_only() {
    if !fuse_available() {
        return;
    }
    let mount = mount(|_| ());
    let fifo = std::process::Command::new("mkfifo").arg(mount.path("fifo")).output().unwrap();
    assert!(!fifo.status.success(), "a FIFO is refused");
    assert!(String::from_utf8_lossy(&fifo.stderr).contains("Operation not permitted"), "{fifo:?}");
    assert!(!mount.path("fifo").exists());
}
