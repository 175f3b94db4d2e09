//! The FUSE side: each kernel request becomes one call on the shared [`State`]. Attributes are
//! never cached by the kernel (a zero TTL) and files are opened for direct I/O, so every read
//! and write reaches the state, and a cut is seen by the next request.

use crate::state::{Error, Node, State};
use fuser::{
    Errno, FileAttr, FileHandle, FileType, Filesystem, FopenFlags, Generation, INodeNo, LockOwner, OpenFlags,
    RenameFlags, ReplyAttr, ReplyCreate, ReplyData, ReplyDirectory, ReplyEmpty, ReplyEntry, ReplyOpen, ReplyStatfs,
    ReplyWrite, Request, TimeOrNow, WriteFlags,
};
use std::ffi::OsStr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

const TTL: Duration = Duration::ZERO;

pub(crate) struct PowerCutFs {
    pub(crate) state: Arc<Mutex<State>>,
    pub(crate) uid: u32,
    pub(crate) gid: u32,
    pub(crate) mounted_at: SystemTime,
}

fn errno(error: Error) -> Errno {
    match error {
        Error::NotFound => Errno::ENOENT,
        Error::Exists => Errno::EEXIST,
        Error::NotDir => Errno::ENOTDIR,
        Error::IsDir => Errno::EISDIR,
        Error::NotEmpty => Errno::ENOTEMPTY,
        Error::Io => Errno::EIO,
        Error::NoSpace => Errno::ENOSPC,
        Error::Invalid => Errno::EINVAL,
    }
}

/// Whether a mode's file type is a regular file (`S_IFREG`, or no type given).
fn is_regular(mode: u32) -> bool {
    const S_IFMT: u32 = 0o170_000;
    const S_IFREG: u32 = 0o100_000;
    matches!(mode & S_IFMT, 0 | S_IFREG)
}

impl PowerCutFs {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn attr(&self, state: &State, ino: u64) -> Result<FileAttr, Error> {
        let (kind, size, perm, nlink) = match state.node(ino)? {
            Node::File(file) => (FileType::RegularFile, file.data.len() as u64, 0o644, 1),
            Node::Dir(dir) => (FileType::Directory, dir.entries.len() as u64, 0o755, 2),
        };
        let t = self.mounted_at;
        Ok(FileAttr {
            ino: INodeNo(ino),
            size,
            blocks: size.div_ceil(512),
            atime: t,
            mtime: t,
            ctime: t,
            crtime: t,
            kind,
            perm,
            nlink,
            uid: self.uid,
            gid: self.gid,
            rdev: 0,
            blksize: 4096,
            flags: 0,
        })
    }

    fn entry(&self, reply: ReplyEntry, found: impl FnOnce(&mut State) -> Result<u64, Error>) {
        let mut state = self.state();
        match found(&mut state).and_then(|ino| self.attr(&state, ino)) {
            Ok(attr) => reply.entry(&TTL, &attr, Generation(0)),
            Err(error) => reply.error(errno(error)),
        }
    }

    /// Answers with `ino`'s attributes once `change` (if any) is made.
    fn attributes(&self, reply: ReplyAttr, ino: u64, change: impl FnOnce(&mut State) -> Result<(), Error>) {
        let mut state = self.state();
        match change(&mut state).and_then(|()| self.attr(&state, ino)) {
            Ok(attr) => reply.attr(&TTL, &attr),
            Err(error) => reply.error(errno(error)),
        }
    }

    fn empty(&self, reply: ReplyEmpty, done: impl FnOnce(&mut State) -> Result<(), Error>) {
        match done(&mut self.state()) {
            Ok(()) => reply.ok(),
            Err(error) => reply.error(errno(error)),
        }
    }
}

impl Filesystem for PowerCutFs {
    fn lookup(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEntry) {
        self.entry(reply, |state| state.lookup(parent.0, name));
    }

    fn getattr(&self, _req: &Request, ino: INodeNo, _fh: Option<FileHandle>, reply: ReplyAttr) {
        self.attributes(reply, ino.0, |state| state.alive());
    }

    fn setattr(
        &self,
        _req: &Request,
        ino: INodeNo,
        _mode: Option<u32>,
        _uid: Option<u32>,
        _gid: Option<u32>,
        size: Option<u64>,
        _atime: Option<TimeOrNow>,
        _mtime: Option<TimeOrNow>,
        _ctime: Option<SystemTime>,
        _fh: Option<FileHandle>,
        _crtime: Option<SystemTime>,
        _chgtime: Option<SystemTime>,
        _bkuptime: Option<SystemTime>,
        _flags: Option<fuser::BsdFileFlags>,
        reply: ReplyAttr,
    ) {
        self.attributes(reply, ino.0, |state| size.map_or(Ok(()), |size| state.set_len(ino.0, size)));
    }

    /// Regular files only (the kernel asks here when it does not use `create`): a FIFO, socket
    /// or device node is refused with `EPERM`, as mknod(2) says for a file system without them.
    fn mknod(
        &self,
        _req: &Request,
        parent: INodeNo,
        name: &OsStr,
        mode: u32,
        _umask: u32,
        _rdev: u32,
        reply: ReplyEntry,
    ) {
        if !is_regular(mode) {
            return reply.error(Errno::EPERM);
        }
        self.entry(reply, |state| state.create(parent.0, name, false));
    }

    fn mkdir(&self, _req: &Request, parent: INodeNo, name: &OsStr, _mode: u32, _umask: u32, reply: ReplyEntry) {
        self.entry(reply, |state| state.create(parent.0, name, true));
    }

    fn unlink(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEmpty) {
        self.empty(reply, |state| state.remove(parent.0, name, false));
    }

    fn rmdir(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEmpty) {
        self.empty(reply, |state| state.remove(parent.0, name, true));
    }

    fn rename(
        &self,
        _req: &Request,
        parent: INodeNo,
        name: &OsStr,
        newparent: INodeNo,
        newname: &OsStr,
        flags: RenameFlags,
        reply: ReplyEmpty,
    ) {
        if !flags.is_empty() {
            return reply.error(Errno::EINVAL);
        }
        self.empty(reply, |state| state.rename(parent.0, name, newparent.0, newname));
    }

    fn open(&self, _req: &Request, ino: INodeNo, _flags: OpenFlags, reply: ReplyOpen) {
        let state = self.state();
        match state.alive().and_then(|()| state.node(ino.0).map(|_| ())) {
            Ok(()) => reply.opened(FileHandle(0), FopenFlags::FOPEN_DIRECT_IO),
            Err(error) => reply.error(errno(error)),
        }
    }

    fn read(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        size: u32,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        reply: ReplyData,
    ) {
        match self.state().read(ino.0, offset, size as usize) {
            Ok(data) => reply.data(&data),
            Err(error) => reply.error(errno(error)),
        }
    }

    fn write(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        data: &[u8],
        _write_flags: WriteFlags,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        reply: ReplyWrite,
    ) {
        match self.state().write(ino.0, offset, data).map(u32::try_from) {
            Ok(Ok(written)) => reply.written(written),
            Ok(Err(_)) => reply.error(Errno::EINVAL),
            Err(error) => reply.error(errno(error)),
        }
    }

    fn flush(&self, _req: &Request, _ino: INodeNo, _fh: FileHandle, _lock_owner: LockOwner, reply: ReplyEmpty) {
        reply.ok();
    }

    fn fsync(&self, _req: &Request, ino: INodeNo, _fh: FileHandle, _datasync: bool, reply: ReplyEmpty) {
        self.empty(reply, |state| state.sync(ino.0));
    }

    fn readdir(&self, _req: &Request, ino: INodeNo, _fh: FileHandle, offset: u64, mut reply: ReplyDirectory) {
        let state = self.state();
        if let Err(error) = state.alive() {
            return reply.error(errno(error));
        }
        let Ok(Node::Dir(dir)) = state.node(ino.0) else {
            return reply.error(Errno::ENOTDIR);
        };
        let mut entries =
            vec![(ino.0, FileType::Directory, OsStr::new(".")), (ino.0, FileType::Directory, OsStr::new(".."))];
        for (name, &child) in &dir.entries {
            let kind = match state.node(child) {
                Ok(Node::Dir(_)) => FileType::Directory,
                _ => FileType::RegularFile,
            };
            entries.push((child, kind, name.as_os_str()));
        }
        let skip = usize::try_from(offset).unwrap_or(usize::MAX);
        for (i, (child, kind, name)) in entries.into_iter().enumerate().skip(skip) {
            if reply.add(INodeNo(child), i as u64 + 1, kind, name) {
                break;
            }
        }
        reply.ok();
    }

    fn fsyncdir(&self, _req: &Request, ino: INodeNo, _fh: FileHandle, _datasync: bool, reply: ReplyEmpty) {
        self.empty(reply, |state| state.sync(ino.0));
    }

    fn statfs(&self, _req: &Request, _ino: INodeNo, reply: ReplyStatfs) {
        let state = self.state();
        if let Err(error) = state.alive() {
            return reply.error(errno(error));
        }
        let capacity = state.faults.capacity.unwrap_or(1 << 40) / 4096;
        reply.statfs(capacity, capacity, capacity, 1 << 20, 1 << 20, 4096, 255, 4096);
    }

    fn create(
        &self,
        _req: &Request,
        parent: INodeNo,
        name: &OsStr,
        _mode: u32,
        _umask: u32,
        _flags: i32,
        reply: ReplyCreate,
    ) {
        let mut state = self.state();
        match state.create(parent.0, name, false).and_then(|ino| self.attr(&state, ino)) {
            Ok(attr) => reply.created(&TTL, &attr, Generation(0), FileHandle(0), FopenFlags::FOPEN_DIRECT_IO),
            Err(error) => reply.error(errno(error)),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_regular_files_are_made_by_mknod() {
        assert!(super::is_regular(0o100_644) && super::is_regular(0o644));
        for special in [0o010_644, 0o140_644, 0o020_644, 0o060_644, 0o040_755] {
            assert!(!super::is_regular(special), "{special:o}");
        }
    }
}
