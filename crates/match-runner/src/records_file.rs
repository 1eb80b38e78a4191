//! The records file on disk: locked by one runner for the whole match,
//! replaced atomically when a resume rewrites it, and appended to with one
//! write per finished game, so that a runner killed at any instant leaves
//! every game it had finished in the file (at worst followed by a cut-off
//! record, which the parser drops).
//!
//! The lock is an exclusive advisory lock (`flock` on Unix, through std's
//! `File::try_lock`) on the records file itself, not on a sidecar file that
//! would be left behind. A rewrite renames a new file over the old one; the
//! new file is locked before the rename and the old one unlocked after it,
//! so the path is locked throughout, and a runner that opened the old file
//! just before the rename notices that it holds a file no longer at the path.

use super::MatchError;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// How often [`RecordsFile::lock`] opens the path again when the file it
/// locked was replaced in the meantime (by the runner that holds the lock:
/// the next attempt finds the new file locked).
const LOCK_ATTEMPTS: usize = 5;

/// A records file held under an exclusive lock.
#[derive(Debug)]
pub struct RecordsFile {
    path: PathBuf,
    file: File,
}

impl RecordsFile {
    /// Opens `path` (creating it empty when missing) and locks it; another
    /// runner holding it is an error ([`MatchError::Locked`]).
    pub fn lock(path: &Path) -> Result<RecordsFile, MatchError> {
        let io = |e| MatchError::Io(path.to_path_buf(), e);
        for _ in 0..LOCK_ATTEMPTS {
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(path)
                .map_err(io)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    return Err(MatchError::Locked(path.to_path_buf()))
                }
                Err(TryLockError::Error(e)) => return Err(io(e)),
            }
            if is_at(&file, path).map_err(io)? {
                return Ok(RecordsFile {
                    path: path.to_path_buf(),
                    file,
                });
            }
        }
        Err(MatchError::Locked(path.to_path_buf()))
    }

    /// The file's whole content.
    pub fn read(&mut self) -> Result<Vec<u8>, MatchError> {
        let mut bytes = Vec::new();
        self.file
            .seek(SeekFrom::Start(0))
            .and_then(|_| self.file.read_to_end(&mut bytes))
            .map_err(|e| MatchError::Io(self.path.clone(), e))?;
        Ok(bytes)
    }

    /// Replaces the file's content with `text`: written to a new file in the
    /// same directory (same permissions), synced, locked, and renamed over
    /// the old one, so that the path holds the old content or the new, never
    /// a part. The lock passes to the new file.
    pub fn replace(self, text: &str) -> Result<RecordsFile, MatchError> {
        let path = self.path.clone();
        let io = |e| MatchError::Io(path.clone(), e);
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        remove_stale_temps(dir, &name);
        let mut tmp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".tmp")
            .rand_bytes(TEMP_RAND)
            .tempfile_in(dir)
            .map_err(io)?;
        let permissions = self.file.metadata().map_err(io)?.permissions();
        let new = tmp.as_file_mut();
        new.set_permissions(permissions).map_err(io)?;
        // Locked before the rename: a runner that opens the path after it
        // finds the new file locked.
        new.try_lock()
            .map_err(|_| MatchError::Locked(path.clone()))?;
        new.write_all(text.as_bytes())
            .and_then(|_| new.sync_all())
            .map_err(io)?;
        let file = tmp.persist(&path).map_err(|e| io(e.error))?;
        sync_dir(dir).map_err(io)?;
        // Dropping the old file's handle unlocks it, now that it is no
        // longer at the path.
        drop(self.file);
        Ok(RecordsFile { path, file })
    }

    /// Appends `text` (one game's record) with a single write, and syncs it
    /// to the disk.
    pub fn append(&mut self, text: &str) -> Result<(), MatchError> {
        self.file
            .seek(SeekFrom::End(0))
            .and_then(|_| self.file.write_all(text.as_bytes()))
            .and_then(|_| self.file.sync_data())
            .map_err(|e| MatchError::Io(self.path.clone(), e))
    }
}

/// Random characters in a temporary file's name: `.NAME.XXXXXX.tmp`.
const TEMP_RAND: usize = 6;

/// Removes the temporary files of earlier rewrites of the records file
/// `name` in `dir` that a kill left behind (between their creation and
/// their rename). Only the holder of the lock makes them, so none is in use.
fn remove_stale_temps(dir: &Path, name: &str) {
    let prefix = format!(".{name}.");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let stale = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix)?.strip_suffix(".tmp"))
            .is_some_and(|r| r.len() == TEMP_RAND && r.bytes().all(|b| b.is_ascii_alphanumeric()));
        if stale {
            log::info!(
                "removing {}, left by a killed rewrite",
                entry.path().display()
            );
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether `path` still names the open `file` (it may have been renamed
/// over or removed since it was opened).
#[cfg(unix)]
fn is_at(file: &File, path: &Path) -> std::io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let held = file.metadata()?;
    match std::fs::metadata(path) {
        Ok(now) => Ok(now.dev() == held.dev() && now.ino() == held.ino()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

#[cfg(not(unix))]
fn is_at(_file: &File, _path: &Path) -> std::io::Result<bool> {
    Ok(true)
}

/// Makes a rename in `dir` durable (on Unix, by syncing the directory).
#[cfg(unix)]
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        (dir, path)
    }

    #[test]
    fn a_second_lock_is_refused_naming_the_file() {
        let (_dir, path) = scratch("two.pgn");
        let held = RecordsFile::lock(&path).unwrap();
        let e = RecordsFile::lock(&path).unwrap_err();
        assert!(matches!(e, MatchError::Locked(_)), "{e}");
        assert!(e.to_string().contains("two.pgn"), "{e}");
        drop(held);
        RecordsFile::lock(&path).unwrap();
    }

    #[test]
    fn the_lock_survives_a_replace() {
        let (_dir, path) = scratch("kept.pgn");
        let held = RecordsFile::lock(&path).unwrap();
        let held = held.replace("new\n").unwrap();
        assert!(matches!(
            RecordsFile::lock(&path),
            Err(MatchError::Locked(_))
        ));
        drop(held);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
    }

    #[test]
    fn a_file_opened_before_a_replace_is_not_taken_for_the_records() {
        let (_dir, path) = scratch("race.pgn");
        // Another runner opened the old file, then the holder replaced it
        std::fs::write(&path, "old\n").unwrap();
        let early = File::open(&path).unwrap();
        let held = RecordsFile::lock(&path).unwrap().replace("new\n").unwrap();
        // The old file is unlocked now, but no longer the records
        early.try_lock().unwrap();
        assert!(!is_at(&early, &path).unwrap());
        assert!(matches!(
            RecordsFile::lock(&path),
            Err(MatchError::Locked(_))
        ));
        drop(held);
    }

    #[test]
    fn replace_keeps_the_permissions_appends_follow_and_stale_temporaries_go() {
        let (_dir, path) = scratch("perm.pgn");
        std::fs::write(&path, "old\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        }
        let mut held = RecordsFile::lock(&path).unwrap();
        assert_eq!(held.read().unwrap(), b"old\n");
        let mut held = held.replace("a\n").unwrap();
        held.append("b\n").unwrap();
        held.append("c\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a\nb\nc\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
        // No temporary file is left beside the records, and those that
        // killed rewrites left are removed (but not another file's)
        let dir = path.parent().unwrap();
        for stale in [
            ".perm.pgn.AbC123.tmp",
            ".perm.pgn.x.tmp",
            ".other.pgn.AbC123.tmp",
        ] {
            std::fs::write(dir.join(stale), "old\n").unwrap();
        }
        drop(held);
        RecordsFile::lock(&path).unwrap().replace("d\n").unwrap();
        let left: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        let mut left: Vec<_> = left.iter().map(|f| f.to_string_lossy()).collect();
        left.sort();
        assert_eq!(
            left,
            [".other.pgn.AbC123.tmp", ".perm.pgn.x.tmp", "perm.pgn"],
            "{left:?}"
        );
    }
}
