//! The smoke test of the fuzz targets: each target's check runs over its
//! committed seed corpus (`corpus/<target>/`), without libFuzzer, so CI
//! covers the targets without nightly flags:
//! `cargo test --manifest-path fuzz/Cargo.toml --no-default-features`.

use std::path::Path;

#[test]
fn every_target_passes_its_seed_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    for (name, check) in grasshopper_fuzz::TARGETS {
        let dir = root.join(name);
        let mut seeds = 0;
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir:?}: {e}")) {
            let path = entry.expect("a directory entry").path();
            let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            check(&data);
            seeds += 1;
        }
        assert!(seeds > 0, "{name} has no seeds");
    }
}
