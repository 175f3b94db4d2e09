//! Replacing a small file so that it survives a crash whole: the new text goes to a temporary
//! file beside it, is synced, checked, renamed over the old one, and the folder is synced so the
//! rename lasts. A reader sees the old file or the new one, never half of one. The auth file
//! ([`super::file`]) and the tokens ledgerd keeps ([`super::kept`]) are both written this way.

use std::io::Write;
use std::path::Path;

/// Writes `text` to `path` by an atomic replace, keeping the old file's permissions (a new file
/// is readable by its owner only); `check` reads the temporary file before it takes the place of
/// the old one, and a refusal leaves the old file as it was.
///
/// # Errors
/// A sentence: the file cannot be written, synced or renamed, or `check` refused it.
pub fn replace(path: &Path, text: &str, check: impl FnOnce(&Path) -> Result<(), String>) -> Result<(), String> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut temp = tempfile::NamedTempFile::new_in(dir).map_err(|e| e.to_string())?;
    if let Ok(metadata) = std::fs::metadata(path) {
        temp.as_file().set_permissions(metadata.permissions()).map_err(|e| e.to_string())?;
    }
    temp.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    temp.as_file().sync_all().map_err(|e| e.to_string())?;
    check(temp.path())?;
    temp.persist(path).map_err(|e| e.error.to_string())?;
    std::fs::File::open(dir)
        .and_then(|dir| dir.sync_all())
        .map_err(|e| format!("the new file is in place but its folder could not be synced: {e}"))
}
