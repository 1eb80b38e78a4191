//! `grasshopper --nets DIR`: the daemon plays the nets of a directory (one's
//! own training) instead of the shipped ones; a directory without nets is
//! refused at the start, naming the file.

use backgammon_engine::features::CONTACT_WIDTHS;
use backgammon_engine::net::Net;
use std::path::{Path, PathBuf};
use std::process::Command;
use testkit::transcript::Engine;

/// The lines the daemon started with `args` answers at 1-ply to
/// `commands`, up to the one starting with `end`.
fn at_one_ply(args: &[&str], commands: &[&str], end: &str) -> Vec<String> {
    let mut e = Engine::start(crate::BIN, args);
    e.send("ubgi");
    e.recv_until(|l| l == "ubgiok");
    e.send("set engine.ply 1");
    for c in commands {
        e.send(c);
    }
    e.recv_until(|l| l.starts_with(end))
}

/// The 1-ply equity line of the only move of a race position (6-5 to bear
/// two checkers off) as the daemon started with `args` reports it.
fn race_equity(args: &[&str]) -> String {
    let go = [
        "position gnubgid 326BAQC7AAAAAA",
        "dice 6 5",
        "go chequer candidates 2",
    ];
    at_one_ply(args, &go, "bestmove ")
        .into_iter()
        .find(|l| l.starts_with("info rank 1 "))
        .expect("a ranked candidate")
}

/// A nets directory holding copies of `files` from `from`.
fn nets_dir(name: &str, from: &Path, files: &[&str]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("backgammon_nets")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for f in files {
        std::fs::copy(from.join(f), dir.join(f)).unwrap();
    }
    dir
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn the_daemon_plays_the_nets_it_is_given() {
    let shipped = repo("crates/backgammon-engine/data");
    let gen0 = repo("crates/backgammon-lab/data/nets/gen0");
    let all = ["contact.net", "crashed.net", "race.net"];
    let same = nets_dir("same", &shipped, &all);
    let old = nets_dir("gen0", &gen0, &["contact.net", "race.net"]);
    let plain = race_equity(&[]);
    // The shipped nets from a directory: the same answer, bit for bit.
    assert_eq!(race_equity(&["--nets", same.to_str().unwrap()]), plain);
    // Generation 0's race net judges the race otherwise.
    let other = race_equity(&["--nets", old.to_str().unwrap()]);
    assert_ne!(other, plain);
    assert!(other.ends_with(" move 3/off 2/off"), "{other}");
}

/// The daemon started with `--nets dir`: refused with exit code 2; its
/// message.
fn refused(dir: &Path) -> String {
    let out = Command::new(crate::BIN)
        .args(["--nets", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_directory_without_nets_is_refused_naming_the_file() {
    let empty = nets_dir("empty", Path::new("."), &[]);
    let err = refused(&empty);
    assert!(
        err.contains("--nets ") && err.contains("contact.net"),
        "{err}"
    );
    // A file that is not a net: refused as such.
    let bad = nets_dir(
        "bad",
        &repo("crates/backgammon-lab/data/nets/gen0"),
        &["race.net"],
    );
    std::fs::write(bad.join("contact.net"), b"not a net at all, really").unwrap();
    let err = refused(&bad);
    assert!(err.contains(bad.to_str().unwrap()), "{err}");
}

/// The first line `grasshopper args` prints.
fn first_line(args: &[&str]) -> String {
    let out = Command::new(crate::BIN).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines().next().unwrap_or_default().to_string()
}

#[test]
fn a_subcommand_without_its_own_nets_plays_the_global_ones() {
    let gen4 = repo("crates/backgammon-lab/data/nets/gen4");
    let gen4 = gen4.to_str().unwrap();
    let b = format!("net:{gen4}");
    let duel = ["backgammon", "duel", "--a", "net", "--b", &b];
    let duel = [&duel[..], &["--pairs", "20", "--seed", "3"]].concat();
    // `net` is the process's nets: with `--nets gen4` the same player as
    // `net:gen4`, so every mirrored pair of games cancels out exactly.
    let global = [&["--nets", gen4][..], &duel].concat();
    assert!(first_line(&global).contains(": +0.0000 ± 0.0000 points per game"));
    // Without it, the shipped nets against generation 4's.
    assert!(!first_line(&duel).contains(": +0.0000 ± 0.0000 points"));
}

/// The inputs of the contact or crashed net in the file at `path`, as the
/// engine reads it.
fn net_inputs(path: &Path) -> usize {
    let bytes = std::fs::read(path).unwrap();
    Net::from_bytes(&bytes, &CONTACT_WIDTHS).unwrap().inputs()
}

#[test]
fn a_crashed_net_fitted_with_the_extra_inputs_reads_them_and_plays() {
    let dir = nets_dir("crashed-extra", Path::new("."), &[]);
    let (data, out) = (dir.join("data"), dir.join("nets"));
    let (data_s, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    let generate = ["backgammon", "rollout-data", "generate", "--positions", "6"];
    let generate = [&generate[..], &["--trials", "2", "--class", "crashed"]].concat();
    first_line(&[&generate[..], &["--seed", "5", "--out", data_s]].concat());
    let file = data.join("shard-1-of-1.txt");
    let fit = [
        "backgammon",
        "rollout-data",
        "fit",
        "--data",
        file.to_str().unwrap(),
    ];
    let fit = [
        &fit[..],
        &["--epochs", "1", "--holdout", "2", "--out", out_s],
    ]
    .concat();
    assert!(first_line(&[&fit[..], &["--crashed-extra"]].concat()).contains("fitted to 4 "));
    let shipped = repo("crates/backgammon-engine/data");
    assert_eq!(net_inputs(&shipped.join("crashed.net")), 212);
    assert_eq!(net_inputs(&out.join("crashed.net")), 222);
    assert_eq!(
        net_inputs(&out.join("contact.net")),
        net_inputs(&shipped.join("contact.net"))
    );
    // The daemon loads the wider crashed net and plays the first crashed
    // position of the run with it.
    let text = std::fs::read_to_string(&file).unwrap();
    let line = text.lines().find(|l| !l.starts_with('#')).unwrap();
    let fields: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(fields[2], "crashed", "{line}");
    let mut e = Engine::start(crate::BIN, &["--nets", out_s]);
    e.send("ubgi");
    e.recv_until(|l| l == "ubgiok");
    e.send("set engine.ply 1");
    e.send(&format!("position gnubgid {}", fields[1]));
    e.send("dice 6 5");
    e.send("go chequer");
    e.recv_until(|l| l.starts_with("bestmove "));
}

#[test]
fn siblings_labelled_by_the_search_fit_with_adam_into_nets_that_play() {
    let dir = nets_dir("siblings-adam", Path::new("."), &[]);
    let (data, out) = (dir.join("data"), dir.join("nets"));
    let (data_s, out_s) = (data.to_str().unwrap(), out.to_str().unwrap());
    let generate = [
        "backgammon",
        "rollout-data",
        "generate",
        "--positions",
        "12",
    ];
    let generate = [&generate[..], &["--look", "1", "--siblings", "3"]].concat();
    first_line(&[&generate[..], &["--seed", "5", "--out", data_s]].concat());
    let file = data.join("shard-1-of-1.txt");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("# grasshopper rollout-data "), "{text}");
    assert!(text.lines().next().unwrap().contains(" look 1 siblings 3 "));
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 12);
    let fit = ["backgammon", "rollout-data", "fit", "--data"];
    let fit = [&fit[..], &[file.to_str().unwrap(), "--epochs", "2"]].concat();
    let fit = [&fit[..], &["--alpha", "0.001", "--alpha-end", "0.0005"]].concat();
    let fit = [&fit[..], &["--holdout", "2", "--out", out_s]].concat();
    assert!(first_line(&[&fit[..], &["--adam", "4"]].concat()).contains("fitted to 10 "));
    // Adam moved the contact net (the labels are contact positions).
    let shipped = repo("crates/backgammon-engine/data");
    let read = |p: PathBuf| std::fs::read(p).unwrap();
    assert_ne!(
        read(out.join("contact.net")),
        read(shipped.join("contact.net"))
    );
    // The siblings hold a race position too: fitting the contact net
    // alone leaves the other nets as shipped.
    let class_of = |l: &str| l.split(' ').nth(2).map(str::to_string);
    assert!(text.lines().any(|l| class_of(l).as_deref() == Some("race")));
    let contact = text
        .lines()
        .filter(|l| class_of(l).as_deref() == Some("contact"))
        .count();
    let only = dir.join("only-contact");
    let only_s = only.to_str().unwrap();
    let fit_only = [&fit[..fit.len() - 1], &[only_s, "--adam", "4"]].concat();
    let fit_only = [&fit_only[..], &["--class", "contact"]].concat();
    // The last 2 contact positions are held out.
    let fitted = format!("fitted to {} ", contact - 2);
    assert!(first_line(&fit_only).contains(&fitted), "{fitted}");
    for net in ["race.net", "crashed.net"] {
        assert_eq!(read(only.join(net)), read(shipped.join(net)), "{net}");
    }
    assert_ne!(
        read(only.join("contact.net")),
        read(shipped.join("contact.net"))
    );
    // On threads: the same nets for two and three of them.
    let threaded = |t: &str| {
        let at = dir.join(format!("threads-{t}"));
        let at_s = at.to_str().unwrap();
        let args = [
            &fit[..fit.len() - 1],
            &[at_s, "--adam", "4", "--threads", t],
        ]
        .concat();
        assert!(first_line(&args).contains("fitted to 10 "));
        read(at.join("contact.net"))
    };
    assert_eq!(threaded("2"), threaded("3"));
    // Threads are for Adam's batches: without --adam they are refused.
    let args = [&fit[..], &["--threads", "2"]].concat();
    let refused = Command::new(crate::BIN).args(&args).output().unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--adam"));
    let mut e = Engine::start(crate::BIN, &["--nets", out_s]);
    e.send("ubgi");
    e.recv_until(|l| l == "ubgiok");
    e.send("set engine.ply 1");
    e.send("position gnubgid 4HPwATDgc/ABMA");
    e.send("dice 3 1");
    e.send("go chequer");
    e.recv_until(|l| l.starts_with("bestmove "));
}

#[test]
fn pruned_look_ahead_labels_name_their_pruning_and_need_a_look() {
    let dir = nets_dir("pruned", Path::new("."), &[]);
    let generate = |extra: &[&str], out: &str| {
        let out = dir.join(out);
        let args = ["backgammon", "rollout-data", "generate", "--positions", "4"];
        let args = [&args[..], &["--seed", "5", "--out", out.to_str().unwrap()]].concat();
        let done = Command::new(crate::BIN)
            .args([&args[..], extra].concat())
            .output()
            .unwrap();
        (done, out.join("shard-1-of-1.txt"))
    };
    let (done, file) = generate(&["--look", "1", "--prune", "3"], "shipped");
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let head = std::fs::read_to_string(&file).unwrap();
    assert!(
        head.lines()
            .next()
            .unwrap()
            .contains(" look 1 prune 3 fnv1a:"),
        "{head}"
    );
    // Another ranking net from a file: another digest in the header.
    let gen4 = repo("crates/backgammon-lab/data/nets/gen4/contact.net");
    let (done, other) = generate(
        &[
            "--look",
            "1",
            "--prune",
            "3",
            "--prune-net",
            gen4.to_str().unwrap(),
        ],
        "gen4",
    );
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let digest = |f: &Path| {
        let text = std::fs::read_to_string(f).unwrap();
        let head = text.lines().next().unwrap().to_string();
        head.split(" prune 3 ").nth(1).unwrap()[..23].to_string()
    };
    assert_ne!(digest(&file), digest(&other));
    // A rollout chooses its own moves: --prune without --look is refused,
    // as is a file that is not a net, named.
    let (done, _) = generate(&["--prune", "3"], "no-look");
    assert!(!done.status.success());
    assert!(String::from_utf8_lossy(&done.stderr).contains("--look"));
    let junk = dir.join("junk.net");
    std::fs::write(&junk, b"no net here").unwrap();
    let (done, _) = generate(
        &[
            "--look",
            "1",
            "--prune",
            "3",
            "--prune-net",
            junk.to_str().unwrap(),
        ],
        "junk",
    );
    assert!(!done.status.success());
    assert!(String::from_utf8_lossy(&done.stderr).contains("junk.net"));
}

#[test]
fn relevelled_siblings_keep_the_labels_differences_at_the_rollouts_mean() {
    let dir = nets_dir("relevel", Path::new("."), &[]);
    let run = ["--positions", "9", "--siblings", "3", "--seed", "5"];
    let generate = |extra: &[&str], out: &str| {
        let out = dir.join(out);
        let args = ["backgammon", "rollout-data", "generate"];
        let args = [&args[..], &run, &["--out", out.to_str().unwrap()], extra].concat();
        first_line(&args);
        out.join("shard-1-of-1.txt")
    };
    let labels = generate(&["--look", "1"], "labels");
    let rollouts = generate(&["--trials", "4", "--common-dice"], "rollouts");
    let out = dir.join("relevelled.txt");
    let relevel = |nets: &[&str], seed: &str| {
        let args = [nets, &["backgammon", "rollout-data", "relevel"]].concat();
        let files = [
            "--labels",
            labels.to_str().unwrap(),
            "--rollouts",
            rollouts.to_str().unwrap(),
        ];
        let args = [&args[..], &files, &["--siblings", "3", "--seed", seed]].concat();
        Command::new(crate::BIN)
            .args([&args[..], &["--out", out.to_str().unwrap()]].concat())
            .output()
            .unwrap()
    };
    let done = relevel(&[], "5");
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    assert!(String::from_utf8_lossy(&done.stdout).starts_with("9 positions relevelled"));
    let equities = |path: &Path| -> Vec<f64> {
        let text = std::fs::read_to_string(path).unwrap();
        let lines = text.lines().filter(|l| !l.starts_with('#'));
        lines
            .map(|l| l.split(' ').nth(8).unwrap().parse().unwrap())
            .collect()
    };
    let (l, r, v) = (equities(&labels), equities(&rollouts), equities(&out));
    assert_eq!(v.len(), 9);
    // Both runs' positions are the same; every sibling moved, and the
    // whole run's mean is the rollouts' (the clipping aside: a family's
    // chances rarely reach 0 or 1 in 4 trials' mean).
    let mean = |x: &[f64]| x.iter().sum::<f64>() / x.len() as f64;
    assert!((mean(&v) - mean(&r)).abs() < 0.02, "{v:?} {r:?}");
    assert!(v.iter().zip(&l).all(|(a, b)| a != b), "{v:?} {l:?}");
    // The positions of another seed's run are not these: refused, named.
    let done = relevel(&[], "6");
    assert!(!done.status.success());
    let err = String::from_utf8_lossy(&done.stderr);
    assert!(err.contains("another"), "{err}");
    // Labels of other nets: refused, naming them.
    let gen4 = repo("crates/backgammon-lab/data/nets/gen4");
    let done = relevel(&["--nets", gen4.to_str().unwrap()], "5");
    assert!(!done.status.success());
    let err = String::from_utf8_lossy(&done.stderr);
    assert!(err.contains("names other nets"), "{err}");
    // The output reads as data.
    let fit = ["backgammon", "rollout-data", "fit", "--epochs", "0"];
    let fitted = dir.join("fitted");
    let fit = [
        &fit[..],
        &["--data", out.to_str().unwrap(), "--holdout", "1"],
        &["--out", fitted.to_str().unwrap()],
    ]
    .concat();
    assert!(first_line(&fit).contains("fitted to 8 "));
}

/// The daemon's `info cube` line for the crashed position `WTeD…` at 1-ply
/// (the net's own chances, no look-ahead), started with `args`.
fn crashed_cube_line(args: &[&str]) -> String {
    let go = [CRASHED, "go cube candidates 1"];
    at_one_ply(args, &go, "bestcube ")
        .into_iter()
        .find(|l| l.starts_with("info cube "))
        .expect("an info cube line")
}

/// A crashed position where the checker player's crashed net and the
/// cube's are far apart: X nearly borne off, two checkers still to come
/// past O's anchor.
const CRASHED: &str = "position gnubgid WTeDDAgDABgAAA:cAkAAAAAAAAA";

#[test]
fn cube_decisions_take_the_crashed_cube_net_and_checker_play_does_not() {
    let shipped = repo("crates/backgammon-engine/data");
    let all = ["contact.net", "crashed.net", "race.net"];
    let plain = nets_dir("cube-plain", &shipped, &all);
    let with_cube = nets_dir(
        "cube-net",
        &shipped,
        &[&all[..], &["crashed-cube.net"]].concat(),
    );
    let default = crashed_cube_line(&[]);
    // The shipped cube net, from the program or from a directory: the same.
    assert_eq!(
        crashed_cube_line(&["--nets", with_cube.to_str().unwrap()]),
        default
    );
    // A directory without one decides the cube on its crashed net: otherwise
    // in this position, where the two nets' levels are far apart.
    let own = crashed_cube_line(&["--nets", plain.to_str().unwrap()]);
    assert_ne!(own, default);
    // Checker play ranks by crashed.net either way.
    let play = |args: &[&str]| {
        let go = [CRASHED, "dice 6 3", "go chequer candidates 3"];
        at_one_ply(args, &go, "bestmove ")
    };
    assert_eq!(play(&[]), play(&["--nets", plain.to_str().unwrap()]));
}
