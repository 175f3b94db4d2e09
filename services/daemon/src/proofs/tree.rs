//! The Merkle tree over the whole log, on disk in ledgerd's data directory: one file per level of
//! complete subtrees (`level-00` the leaf hashes, `level-01` the roots of pairs, …), 32 bytes a
//! hash, appended as the frontier closes subtrees. Any hash a proof needs is then one read at
//! `32 × index` of one file (O(log n) reads a proof), and a restart reads the right edge back
//! instead of rehashing the log. About 64 bytes a record in all.
//!
//! Level 0 is the truth: on open, a torn last hash is dropped, and every higher level is cut to
//! or completed up to what level 0 implies (a crash may leave the upper levels of the last batch
//! unwritten, or written without the leaves under them). The files are synced before a checkpoint
//! is signed over them.

use ledger_proof::{node_hash, Frontier, Hash, LeafHashes, Subtree};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

const HASH: u64 = 32;

/// The tree's files and its right edge.
#[derive(Debug)]
pub struct DiskTree {
    dir: PathBuf,
    levels: Vec<File>,
    frontier: Frontier,
}

impl DiskTree {
    /// Opens (or creates) the tree in `dir`, repairing what a crash left (see the module's doc).
    ///
    /// # Errors
    /// The files cannot be read or written.
    pub fn open(dir: &Path) -> io::Result<DiskTree> {
        let created = !dir.exists();
        std::fs::create_dir_all(dir)?;
        if created {
            sync_dir(dir.parent().unwrap_or(Path::new(".")))?;
        }
        let mut tree = DiskTree { dir: dir.to_owned(), levels: Vec::new(), frontier: Frontier::new() };
        let leaves = tree.level_file(0)?;
        let size = leaves.metadata()?.len() / HASH;
        leaves.set_len(size * HASH)?;
        tree.levels.push(leaves);
        let mut level: u8 = 1;
        while size >> level > 0 {
            let file = tree.level_file(level)?;
            tree.levels.push(file);
            tree.repair(level, size >> level)?;
            level += 1;
        }
        // Levels above the tree's height (left by a longer tree) go.
        for stale in level..64 {
            if tree.path(stale).exists() {
                std::fs::remove_file(tree.path(stale))?;
            }
        }
        let edge = (0..64u8)
            .rev()
            .filter(|bit| (size >> bit) & 1 == 1)
            .map(|bit| tree.read(Subtree { level: bit, index: (size >> bit) - 1 }))
            .collect::<io::Result<Vec<Hash>>>()?;
        tree.frontier = Frontier::from_parts(size, edge).map_err(|e| io::Error::other(e.to_string()))?;
        sync_dir(dir)?;
        Ok(tree)
    }

    /// Empties the tree (to rebuild it from the log).
    ///
    /// # Errors
    /// The files cannot be cut.
    pub fn clear(&mut self) -> io::Result<()> {
        for file in &self.levels {
            file.set_len(0)?;
            file.sync_data()?;
        }
        self.frontier = Frontier::new();
        Ok(())
    }

    /// Appends leaf hashes and every subtree they close, each level in one write.
    ///
    /// # Errors
    /// A write failed; the tree is then as a crash would leave it (reopen to repair).
    pub fn append(&mut self, leaves: &[Hash]) -> io::Result<()> {
        let mut closed: Vec<Vec<u8>> = Vec::new();
        for leaf in leaves {
            self.frontier.append_with(*leaf, |node, hash| {
                let level = usize::from(node.level);
                if closed.len() <= level {
                    closed.resize_with(level + 1, Vec::new);
                }
                closed[level].extend_from_slice(hash);
            });
        }
        for (level, bytes) in closed.iter().enumerate() {
            if self.levels.len() <= level {
                let file = self.level_file(u8::try_from(level).expect("at most 64 levels"))?;
                self.levels.push(file);
            }
            (&self.levels[level]).write_all(bytes)?;
        }
        Ok(())
    }

    /// Makes every level durable.
    ///
    /// # Errors
    /// A sync failed.
    pub fn sync(&self) -> io::Result<()> {
        self.levels.iter().try_for_each(File::sync_data)?;
        sync_dir(&self.dir)
    }

    pub fn frontier(&self) -> &Frontier {
        &self.frontier
    }

    /// The leaves held.
    pub fn len(&self) -> u64 {
        self.frontier.size()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The first stored subtree hash that is not its children's node hash, if any: every level
    /// recomputed from the one below, read sequentially (64 bytes and one hash a record; proofs
    /// are checked by their readers anyway, so a damaged file can only make a good proof fail).
    ///
    /// # Errors
    /// A read failed.
    pub fn damaged(&self) -> io::Result<Option<Subtree>> {
        const CHUNK: u64 = 4096;
        for level in 1..self.levels.len() {
            let level = u8::try_from(level).expect("at most 64 levels");
            let count = self.len() >> level;
            let mut index = 0;
            while index < count {
                let n = CHUNK.min(count - index);
                let below = read_run(&self.levels[usize::from(level - 1)], index * 2, n * 2)?;
                let stored = read_run(&self.levels[usize::from(level)], index, n)?;
                let computed = below.chunks_exact(64).map(|pair| {
                    let (left, right) = pair.split_at(32);
                    node_hash(left.try_into().expect("32 bytes"), right.try_into().expect("32 bytes"))
                });
                if let Some(bad) = computed.zip(stored.chunks_exact(32)).position(|(c, s)| c[..] != *s) {
                    return Ok(Some(Subtree { level, index: index + bad as u64 }));
                }
                index += n;
            }
        }
        Ok(None)
    }

    fn path(&self, level: u8) -> PathBuf {
        self.dir.join(format!("level-{level:02}"))
    }

    fn level_file(&self, level: u8) -> io::Result<File> {
        OpenOptions::new().create(true).read(true).append(true).open(self.path(level))
    }

    /// Cuts `level` to `count` hashes, or completes it from the level below.
    fn repair(&mut self, level: u8, count: u64) -> io::Result<()> {
        let file = &self.levels[usize::from(level)];
        let held = file.metadata()?.len() / HASH;
        if held >= count {
            return file.set_len(count * HASH);
        }
        file.set_len(held * HASH)?;
        let mut bytes = Vec::new();
        for index in held..count {
            let below = level - 1;
            let left = self.read(Subtree { level: below, index: index << 1 })?;
            let right = self.read(Subtree { level: below, index: (index << 1) | 1 })?;
            bytes.extend_from_slice(&node_hash(&left, &right));
        }
        (&self.levels[usize::from(level)]).write_all(&bytes)
    }

    fn read(&self, node: Subtree) -> io::Result<Hash> {
        let file = self
            .levels
            .get(usize::from(node.level))
            .ok_or_else(|| io::Error::other(format!("the tree has no level {}", node.level)))?;
        let mut hash = [0u8; 32];
        let offset = node.index.checked_mul(HASH).ok_or_else(|| io::Error::other("an index past the tree"))?;
        file.read_exact_at(&mut hash, offset)?;
        Ok(hash)
    }
}

/// Proofs read the files: a complete subtree is one read.
impl LeafHashes for DiskTree {
    type Error = io::Error;

    fn size(&self) -> io::Result<u64> {
        Ok(self.len())
    }

    fn leaf(&self, index: u64) -> io::Result<Hash> {
        self.read(Subtree { level: 0, index })
    }

    fn subtree(&self, node: Subtree) -> io::Result<Hash> {
        self.read(node)
    }
}

/// `count` hashes of `file` from hash `first`.
fn read_run(file: &File, first: u64, count: u64) -> io::Result<Vec<u8>> {
    let mut bytes = vec![0u8; usize::try_from(count * HASH).map_err(io::Error::other)?];
    file.read_exact_at(&mut bytes, first * HASH)?;
    Ok(bytes)
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger_proof::{inclusion_proof, leaf_hash, root_of, tree_root, MemoryTree};

    fn leaves(n: u32) -> Vec<Hash> {
        (0..n).map(|i| leaf_hash(&i.to_be_bytes())).collect()
    }

    #[test]
    fn proofs_from_the_files_are_the_reference_proofs() {
        let dir = tempfile::tempdir().unwrap();
        let mut tree = DiskTree::open(dir.path()).unwrap();
        let all = leaves(77);
        let mut memory = MemoryTree::new();
        for chunk in all.chunks(10) {
            tree.append(chunk).unwrap();
            chunk.iter().for_each(|leaf| memory.append(*leaf));
        }
        assert_eq!(tree.frontier(), memory.frontier());
        for size in [1, 2, 13, 64, 77] {
            assert_eq!(tree_root(&tree, size).unwrap(), root_of(&all[..usize::try_from(size).unwrap()]));
            for index in [0, size / 2, size - 1] {
                assert_eq!(
                    inclusion_proof(&tree, index, size).unwrap(),
                    inclusion_proof(&memory, index, size).unwrap()
                );
            }
        }
    }

    #[test]
    fn a_crash_between_levels_is_repaired_from_the_leaves() {
        let dir = tempfile::tempdir().unwrap();
        let all = leaves(45);
        let mut tree = DiskTree::open(dir.path()).unwrap();
        tree.append(&all).unwrap();
        drop(tree);
        // As a crash may leave it: a torn leaf, a level cut short, another too long, a stale level.
        let append = |name: &str, bytes: &[u8]| {
            OpenOptions::new().append(true).open(dir.path().join(name)).unwrap().write_all(bytes).unwrap()
        };
        append("level-00", &[7; 5]);
        OpenOptions::new().write(true).open(dir.path().join("level-02")).unwrap().set_len(3 * HASH).unwrap();
        append("level-01", &[9; 64]);
        std::fs::write(dir.path().join("level-09"), [1; 32]).unwrap();
        let tree = DiskTree::open(dir.path()).unwrap();
        assert_eq!(tree.len(), 45);
        assert_eq!(tree.frontier().root(), root_of(&all));
        assert_eq!(tree_root(&tree, 45).unwrap(), root_of(&all));
        assert_eq!(tree_root(&tree, 32).unwrap(), root_of(&all[..32]));
        assert!(!dir.path().join("level-09").exists());
        assert_eq!(tree.damaged().unwrap(), None);
        let mut bytes = std::fs::read(dir.path().join("level-00")).unwrap();
        bytes[21 * 32 + 7] ^= 1;
        std::fs::write(dir.path().join("level-00"), bytes).unwrap();
        assert_eq!(tree.damaged().unwrap(), Some(Subtree { level: 1, index: 10 }));
    }
}
