//! Games kept on disk: one JSON file per game in the data directory,
//! written whole to a temporary file and renamed over the old one (a crash
//! leaves the old file or the new, never half of one). A game closed for
//! idleness, to make room, or by a restart of the server is read back the
//! next time its page (its link) asks for it.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The directory of saved games.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

/// A game id as the server makes them: 16 hex digits (so an id from a
/// request can never name another file).
pub fn valid_id(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

impl Store {
    /// The store in `dir`, created if need be, readable by its user only
    /// (a saved game holds the owner cookie it answers to).
    pub fn open(dir: &Path) -> std::io::Result<Store> {
        std::fs::create_dir_all(dir)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
        }
        Ok(Store {
            dir: dir.to_path_buf(),
        })
    }

    fn path(&self, id: &str) -> Option<PathBuf> {
        valid_id(id).then(|| self.dir.join(format!("{id}.json")))
    }

    /// Writes a game atomically: a temporary file, flushed, then renamed.
    pub fn save(&self, id: &str, value: &Value) -> std::io::Result<()> {
        let path = self
            .path(id)
            .ok_or_else(|| std::io::Error::other(format!("bad game id \"{id}\"")))?;
        let tmp = path.with_extension("json.tmp");
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(value.to_string().as_bytes())?;
        file.sync_all()?;
        std::fs::rename(&tmp, &path)
    }

    /// A saved game, if there is one under this id.
    pub fn load(&self, id: &str) -> Option<Value> {
        let text = std::fs::read_to_string(self.path(id)?).ok()?;
        serde_json::from_str(&text).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_saved_whole_and_read_back_and_ids_name_no_other_file() {
        let dir = std::env::temp_dir().join(format!("board-store-{}", std::process::id()));
        let store = Store::open(&dir).unwrap();
        let v = serde_json::json!({ "moves": ["bar/3"] });
        store.save("0123456789abcdef", &v).unwrap();
        assert_eq!(store.load("0123456789abcdef"), Some(v));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&dir).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700, "the owner cookies are the user's");
        }
        assert!(!dir.join("0123456789abcdef.json.tmp").exists());
        assert_eq!(store.load("../0123456789abc"), None);
        assert!(store.save("../x", &serde_json::json!({})).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
