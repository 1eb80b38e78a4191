//! Writing a file so that a reader never sees half of it: the one home of
//! the atomic write behind the bear-off caches, rollout checkpoints and the
//! lab's run files; and the one home of the on-disk cache of generated
//! tables ([`cached`]: where it lives, how a damaged copy is refused).

use fnv1a::fnv1a;
use std::path::{Path, PathBuf};

/// Writes `bytes` to a temporary file of this process beside `path` and
/// renames it over `path` (atomic on one file system): a reader sees the
/// old file or the new one, and processes writing the same file at once
/// never mix their bytes. The temporary file is removed if the rename fails.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Where generated tables are cached: `$GRASSHOPPER_CACHE` (`off` for no
/// cache), else `$XDG_CACHE_HOME/grasshopper`, else
/// `$HOME/.cache/grasshopper`.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(dir) = var("GRASSHOPPER_CACHE") {
        return (dir != "off").then(|| PathBuf::from(dir));
    }
    var("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .map(|d| d.join("grasshopper"))
}

/// A generated table kept on disk: the file's name, the 8 bytes that name
/// its format and generation (change them whenever the generation's
/// results change), and how to make, write and read the table's body.
pub struct Cached<T> {
    pub file: &'static str,
    pub magic: &'static [u8; 8],
    pub make: fn() -> T,
    pub body: fn(&T) -> Vec<u8>,
    pub read: fn(&[u8]) -> Option<T>,
}

impl<T> Cached<T> {
    /// The table from `dir`'s copy if it is whole and valid; else made and
    /// written there (best effort: a directory that cannot be written only
    /// costs the next process the generation).
    pub fn load_or_make_in(&self, dir: &Path) -> T {
        let path = dir.join(self.file);
        if let Some(t) = std::fs::read(&path).ok().and_then(|b| self.from_bytes(&b)) {
            return t;
        }
        let t = (self.make)();
        let _ = std::fs::create_dir_all(dir).and_then(|_| write_atomic(&path, &self.to_bytes(&t)));
        t
    }

    /// [`Cached::load_or_make_in`] the [`cache_dir`], or made when there
    /// is none.
    pub fn load_or_make(&self) -> T {
        match cache_dir() {
            Some(dir) => self.load_or_make_in(&dir),
            None => (self.make)(),
        }
    }

    /// The file's bytes: the magic, the body, then an FNV-1a hash of both.
    pub fn to_bytes(&self, t: &T) -> Vec<u8> {
        let mut out = self.magic.to_vec();
        out.extend_from_slice(&(self.body)(t));
        let h = fnv1a(&out);
        out.extend_from_slice(&h.to_le_bytes());
        out
    }

    /// The table from [`Cached::to_bytes`]'s bytes; `None` for anything
    /// else (another version, a cut or damaged file).
    pub fn from_bytes(&self, b: &[u8]) -> Option<T> {
        if b.len() < self.magic.len() + 8 || &b[..self.magic.len()] != self.magic {
            return None;
        }
        let (sealed, hash) = b.split_at(b.len() - 8);
        if fnv1a(sealed).to_le_bytes() != hash {
            return None;
        }
        (self.read)(&sealed[self.magic.len()..])
    }
}

/// Little-endian f32s.
pub fn f32_bytes(xs: impl IntoIterator<Item = f32>) -> Vec<u8> {
    xs.into_iter().flat_map(f32::to_le_bytes).collect()
}

/// The f32s of [`f32_bytes`] (a trailing part of 1-3 bytes is ignored).
pub fn bytes_f32(b: &[u8]) -> impl Iterator<Item = f32> + '_ {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_replace_the_file_and_leave_no_temporary_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data.bin");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
        // A rename over a directory fails: the temporary file goes too.
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("x"), b"x").unwrap();
        assert!(write_atomic(&sub, b"never").is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}
