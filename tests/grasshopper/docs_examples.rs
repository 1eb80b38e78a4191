//! The README's and the docs' examples, kept true by running them: every
//! ```` ```session ```` block of README.md and docs/ is played against the
//! real binary as a transcript (testkit's format), every ```` ```console
//! tested ```` block's `$ grasshopper ...` commands are run and their output
//! compared with what the block shows, and the pages' file references,
//! links and `--help` are checked. Only cheap examples are marked `tested`.

use std::path::{Path, PathBuf};
use std::process::Command;
use testkit::transcript::{play, session_blocks};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, fixtures/README.md and every Markdown page under docs/, as
/// (path relative to the root, text).
fn pages() -> Vec<(String, String)> {
    let mut paths = vec![root().join("README.md"), root().join("fixtures/README.md")];
    collect_markdown(&root().join("docs"), &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
            let rel = p
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (rel, text)
        })
        .collect()
}

fn collect_markdown(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_markdown(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// One command of a ```` ```console tested ```` block and the output shown
/// under it.
#[derive(Debug)]
struct Example {
    page: String,
    command: String,
    expected: Vec<String>,
}

fn console_examples(page: &str, text: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if !inside {
            inside = line.trim() == "```console tested";
        } else if line.trim() == "```" {
            inside = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            examples.push(Example {
                page: page.to_string(),
                command: command.to_string(),
                expected: Vec::new(),
            });
        } else {
            let last = examples
                .last_mut()
                .unwrap_or_else(|| panic!("{page}: a tested console block starts with `$ `"));
            last.expected.push(line.to_string());
        }
    }
    examples
}

/// The binary's arguments in a shown command line: `grasshopper ARGS` or
/// `cargo run --release -- ARGS`, words split at blanks, '...' quoting.
fn arguments(command: &str) -> Vec<String> {
    let rest = command
        .strip_prefix("grasshopper ")
        .or_else(|| command.strip_prefix("cargo run --release -- "))
        .unwrap_or_else(|| panic!("{command:?}: a tested example runs grasshopper"));
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in rest.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    assert!(!quoted, "{command:?}: an unclosed quote");
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Whether `got` is what `shown` shows, where a shown line `...` stands for
/// any number of lines (none included).
fn shows(shown: &[String], got: &[&str]) -> bool {
    match shown.split_first() {
        None => got.is_empty(),
        Some((first, rest)) if first == "..." => (0..=got.len()).any(|k| shows(rest, &got[k..])),
        Some((first, rest)) => got
            .split_first()
            .is_some_and(|(g, more)| g == first && shows(rest, more)),
    }
}

fn run(example: &Example) -> String {
    let out = Command::new(crate::BIN)
        .args(arguments(&example.command))
        .output()
        .unwrap_or_else(|e| panic!("{} runs: {e}", crate::BIN));
    assert!(
        out.status.success(),
        "{}: `{}` failed ({}): {}",
        example.page,
        example.command,
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn console_examples_print_what_the_pages_show() {
    let examples: Vec<Example> = pages()
        .iter()
        .flat_map(|(page, text)| console_examples(page, text))
        .collect();
    let in_readme = examples.iter().filter(|e| e.page == "README.md").count();
    assert!(
        in_readme >= 2 && examples.len() >= 4,
        "expected the README's perft and backgammon examples among tested ones: {examples:?}"
    );
    for example in &examples {
        let got = run(example);
        let got: Vec<&str> = got.lines().collect();
        assert!(
            shows(&example.expected, &got),
            "{}: `{}` printed\n{}\nbut the page shows\n{}",
            example.page,
            example.command,
            got.join("\n"),
            example.expected.join("\n")
        );
    }
}

#[test]
fn the_dots_of_a_shown_output_stand_for_any_lines() {
    let shown: Vec<String> = ["a", "...", "c"].map(String::from).to_vec();
    assert!(shows(&shown, &["a", "c"]));
    assert!(shows(&shown, &["a", "b", "b", "c"]));
    assert!(!shows(&shown, &["a", "b"]));
    assert!(!shows(&shown, &["x", "c"]));
    assert_eq!(
        arguments("grasshopper backgammon show --position 'XGID=a b'"),
        ["backgammon", "show", "--position", "XGID=a b"]
    );
}

#[test]
fn readme_and_docs_sessions_are_real_sessions() {
    let mut in_readme = 0;
    for (page, text) in pages() {
        for (i, block) in session_blocks(&text).iter().enumerate() {
            play(crate::BIN, &format!("{page} session {}", i + 1), block);
            in_readme += usize::from(page == "README.md");
        }
    }
    assert!(
        in_readme >= 2,
        "README.md shows a first session of each protocol"
    );
}

#[test]
fn help_names_both_games() {
    let out = Command::new(crate::BIN).arg("--help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let first = help.lines().next().unwrap_or_default();
    assert!(
        first.contains("Grasshopper") && first.contains("classic backgammon"),
        "--help begins {first:?}"
    );
}

/// A page without its fenced blocks (whose fences would upset the pairing
/// of backquotes).
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Every relative link of the pages leads to a file or directory of the
/// repository.
#[test]
fn links_lead_to_files() {
    let mut broken = Vec::new();
    for (page, text) in pages() {
        let dir = root().join(&page).parent().unwrap().to_path_buf();
        for target in text.split("](").skip(1).filter_map(|s| s.split(')').next()) {
            let path = target.split('#').next().unwrap();
            if !path.is_empty() && !path.contains("://") && !dir.join(path).exists() {
                broken.push(format!("{page}: {target}"));
            }
        }
    }
    assert!(broken.is_empty(), "links that lead nowhere: {broken:#?}");
}

/// Every repository path the pages name in backquotes (`crates/...`,
/// `src/...`, ...) exists: a file moved is a page to update.
#[test]
fn named_paths_exist() {
    const TOP: [&str; 6] = ["crates/", "src/", "tests/", "tools/", "fixtures/", "docs/"];
    let mut missing = Vec::new();
    for (page, text) in pages() {
        for span in prose(&text).split('`').skip(1).step_by(2) {
            let named = TOP.iter().any(|t| span.starts_with(t));
            let pattern = span.contains(['*', '{', '<', ' ']);
            if named && !pattern && !root().join(span).exists() {
                missing.push(format!("{page}: {span}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "named paths that do not exist: {missing:#?}"
    );
}

/// The pages name no directory of one development machine, and show the
/// Slurm scripts by their path rather than as copies that could drift.
#[test]
fn no_machine_paths_and_no_copied_scripts() {
    for (page, text) in pages() {
        for dir in ["/work/", "/home/", "/tmp/", "/root/"] {
            assert!(!text.contains(dir), "{page} names {dir}");
        }
        assert!(
            !text.contains("#SBATCH"),
            "{page}: link to tools/slurm/ instead of copying a script"
        );
    }
    for script in ["match.sbatch", "retro-level.sbatch", "rollout-data.sbatch"] {
        let link = format!("../tools/slurm/{script}");
        assert!(
            pages().iter().any(|(_, text)| text.contains(&link)),
            "no page links to tools/slurm/{script}"
        );
    }
}
