//! A FUSE file system for tests that loses, on a "power cut", what was not yet on the disk.
//!
//! A `kill -9` leaves a process's writes in the kernel's page cache, so it never shows a
//! missing `fdatasync`, a directory entry never synced, or a torn write. This file system
//! keeps every change that no `fsync`/`fdatasync` covers yet (file data and sizes until the
//! file is synced; creates, renames and unlinks until their directory is synced) apart from
//! what "the disk" holds, and a [`Cut`] drops them: all, a seeded subset, or all but one write
//! torn at a byte boundary (as LazyFS does). It can also fail writes or syncs with `EIO` and
//! run out of space ([`Faults`]).
//!
//! It mounts over a real directory's contents: they are loaded at mount, and the directory is
//! rewritten with what the disk holds at each cut and at an orderly unmount (which syncs
//! everything first, as the kernel does). Used only by tests and the crash program.

mod fs;
mod state;

pub use state::{Cut, CutReport, Faults, State, TornWrite};

use fuser::{BackgroundSession, Config, MountOption};
use std::ffi::OsString;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

/// Why this machine cannot mount the file system (`None`: it can): FUSE needs `/dev/fuse`,
/// and `fusermount3` (Debian's `fuse3`) when the mount is not made as root.
pub fn unavailable() -> Option<String> {
    if !Path::new("/dev/fuse").exists() {
        return Some("no /dev/fuse (FUSE is not available: install fuse3, or run where /dev/fuse exists)".into());
    }
    let on_path = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join("fusermount3").is_file()));
    if !on_path {
        return Some("no fusermount3 on PATH (apt-get install fuse3)".into());
    }
    None
}

/// For tests: `true` when the file system can be mounted here; otherwise says loudly that
/// `what` is skipped and returns `false`, or fails under `CI=true`, where FUSE must work.
///
/// # Panics
/// Under `CI=true` when it cannot be mounted.
pub fn available_or_skip(what: &str) -> bool {
    let Some(why) = unavailable() else { return true };
    assert!(std::env::var("CI").as_deref() != Ok("true"), "CI=true and the power-cut file system cannot mount: {why}");
    eprintln!("\n************************************************************");
    eprintln!("SKIPPED: {what}: {why}");
    eprintln!("************************************************************\n");
    false
}

/// A mounted power-cut file system over `backing`, seen at `mountpoint`.
pub struct PowerCut {
    state: Arc<Mutex<State>>,
    session: Option<BackgroundSession>,
    backing: PathBuf,
    mountpoint: PathBuf,
}

impl PowerCut {
    /// Loads `backing` (every file and directory in it, as already on the disk) and mounts
    /// it at `mountpoint` (an existing empty directory).
    pub fn mount(backing: &Path, mountpoint: &Path) -> io::Result<PowerCut> {
        let mut cut = PowerCut {
            state: Arc::new(Mutex::new(State::default())),
            session: None,
            backing: backing.to_owned(),
            mountpoint: mountpoint.to_owned(),
        };
        cut.remount()?;
        Ok(cut)
    }

    pub fn mountpoint(&self) -> &Path {
        &self.mountpoint
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Faults from now on (replacing those set before).
    pub fn set_faults(&self, faults: Faults) {
        self.state().faults = faults;
    }

    /// Cuts the power: the disk keeps what `cut` allows of the unsynced changes, and every
    /// later request fails with `EIO` until [`PowerCut::remount`]. The backing directory then
    /// holds exactly what the disk holds.
    pub fn cut(&self, cut: Cut) -> io::Result<CutReport> {
        let mut state = self.state();
        let report = state.cut(cut);
        write_backing(&self.backing, &state)?;
        Ok(report)
    }

    /// What the disk holds now, without cutting: path (names from the mount's root) →
    /// contents, `None` for a directory. The model test compares it after every operation.
    pub fn durable_tree(&self) -> std::collections::BTreeMap<Vec<OsString>, Option<Vec<u8>>> {
        self.state().durable_tree()
    }

    /// Unmounts (lazily, like `umount -l`: a process that still holds a file gets `EIO`
    /// after a cut). The backing directory is not touched.
    pub fn unmount(&mut self) -> io::Result<()> {
        let Some(session) = self.session.take() else { return Ok(()) };
        match let_go(&self.mountpoint)? {
            // The kernel let the mount go: the session's thread ends on its own.
            LetGo::Unmounted => session.join(),
            // Whoever still holds a file keeps the old mount alive; its thread ends with that
            // holder, and is not waited for.
            LetGo::Detached => {
                drop(session);
                Ok(())
            }
            LetGo::NotRoot => session.umount_and_join(),
        }
    }

    /// Unmounts if mounted, loads the backing directory again and mounts it: the machine
    /// boots after a cut.
    pub fn remount(&mut self) -> io::Result<()> {
        self.unmount()?;
        let mut loaded = load(&self.backing)?;
        loaded.faults = self.state().faults;
        *self.state() = loaded;
        let metadata = std::fs::metadata(&self.backing)?;
        let fs = fs::PowerCutFs {
            state: Arc::clone(&self.state),
            uid: metadata.uid(),
            gid: metadata.gid(),
            mounted_at: SystemTime::now(),
        };
        let mut config = Config::default();
        config.mount_options = vec![MountOption::FSName("ledger-powercut".into()), MountOption::RW];
        self.session = Some(fuser::spawn_mount(fs, &self.mountpoint, &config)?);
        Ok(())
    }
}

/// How long an unmount waits for a busy mount to be let go before it detaches it.
const BUSY_WAIT: Duration = Duration::from_secs(20);

/// How [`let_go`] ended.
enum LetGo {
    Unmounted,
    Detached,
    /// Not root (`EPERM`): fuser's `fusermount3 -u -z` unmounts, detaching.
    NotRoot,
}

/// Unmounts `mountpoint` as root, waiting out `EBUSY` (bounded by [`BUSY_WAIT`], then a lazy
/// detach): on a loaded machine the kernel can still hold a file of the mount for a moment
/// after the test closed it (a release the FUSE thread has not answered yet), and a plain
/// `umount` then fails with `EBUSY` although nothing is wrong.
fn let_go(mountpoint: &Path) -> io::Result<LetGo> {
    use rustix::io::Errno;
    use rustix::mount::{unmount, UnmountFlags};
    let started = Instant::now();
    let mut pause = Duration::from_millis(5);
    loop {
        match unmount(mountpoint, UnmountFlags::empty()) {
            Ok(()) => return Ok(LetGo::Unmounted),
            Err(Errno::PERM) => return Ok(LetGo::NotRoot),
            Err(Errno::BUSY) if started.elapsed() < BUSY_WAIT => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(200));
            }
            Err(Errno::BUSY) => {
                unmount(mountpoint, UnmountFlags::DETACH)?;
                return Ok(LetGo::Detached);
            }
            Err(other) => return Err(io::Error::from(other)),
        }
    }
}

impl Drop for PowerCut {
    /// An orderly shutdown: everything is synced and written to the backing directory
    /// (unless the power was cut), then the file system is unmounted.
    fn drop(&mut self) {
        {
            let mut state = self.state();
            if !state.dead {
                state.sync_all();
                let _ = write_backing(&self.backing, &state);
            }
        }
        let _ = self.unmount();
    }
}

/// A directory's tree as a state in which everything is already on the disk.
fn load(backing: &Path) -> io::Result<State> {
    let mut state = State::default();
    let mut todo = vec![(backing.to_owned(), state::ROOT)];
    while let Some((dir, ino)) = todo.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&dir)?.collect::<io::Result<_>>()?;
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for entry in entries {
            if entry.file_type()?.is_dir() {
                let child = state.insert_durable(ino, entry.file_name(), state::Node::Dir(Default::default()));
                todo.push((entry.path(), child));
            } else {
                let data = std::fs::read(entry.path())?;
                state.insert_durable(ino, entry.file_name(), State::durable_file(data));
            }
        }
    }
    Ok(state)
}

/// Makes `backing` hold exactly what the disk holds.
fn write_backing(backing: &Path, state: &State) -> io::Result<()> {
    for entry in std::fs::read_dir(backing)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            std::fs::remove_dir_all(entry.path())?;
        } else {
            std::fs::remove_file(entry.path())?;
        }
    }
    // Parents come before their children in a path-ordered map.
    for (path, contents) in state.durable_tree() {
        let target: PathBuf = std::iter::once(backing.as_os_str().to_owned()).chain(path).collect();
        match contents {
            None => std::fs::create_dir(&target)?,
            Some(data) => std::fs::write(&target, data)?,
        }
    }
    Ok(())
}
