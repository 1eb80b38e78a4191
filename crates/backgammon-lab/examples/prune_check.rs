//! How well a pruning net stands in for the full nets: on positions of a
//! class (contact unless a last argument says crashed) of a rollout-data
//! file (every 97th, up to 4,000, each with a roll in turn), how often
//! each kept count finds the full nets' 1-ply choice, and on the first N
//! of them how fast and how far from the full look its 3-ply labels are.
//!
//!     cargo run --release -p backgammon-lab --example prune_check -- \
//!         crates/backgammon-engine/data/prune.net gen12-contact-siblings.txt 100 1,2,3,4,6

use backgammon_engine::features::CONTACT_WIDTHS;
use backgammon_engine::net::Net;
use backgammon_engine::prune::Pruner;
use backgammon_engine::search::Searcher;
use backgammon_engine::{equity, Evaluator};
use backgammon_rules::{Board, Dice, MoveList};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (net, data, labels, keeps, class) = match &args[..] {
        [_, n, d, l, k] => (n, d, l, k, "contact"),
        [_, n, d, l, k, c] => (n, d, l, k, c.as_str()),
        _ => {
            eprintln!("usage: prune_check NET DATA LABELS KEEP[,KEEP...] [CLASS]");
            std::process::exit(2);
        }
    };
    let net = Net::from_bytes(&std::fs::read(net).expect("the net"), &CONTACT_WIDTHS)
        .expect("a contact net");
    let labels: usize = labels.parse().expect("LABELS: a count");
    let keeps: Vec<usize> = keeps
        .split(',')
        .map(|k| k.parse().expect("KEEP: a count"))
        .collect();
    let eval = Evaluator::shipped();
    let boards = positions(
        &std::fs::read_to_string(data).expect("the data file"),
        class,
    );
    let pruners: Vec<Pruner> = keeps
        .iter()
        .map(|&k| Pruner::new(net.clone(), k).expect("a pruner"))
        .collect();
    for p in &pruners {
        choices(&eval, &boards, p);
    }
    let look = &boards[..labels.min(boards.len())];
    let t = Instant::now();
    let full: Vec<f32> = look
        .iter()
        .map(|b| equity(&Searcher::new(&eval).look_ahead(b, 2, None)))
        .collect();
    let full_time = t.elapsed().as_secs_f64();
    println!(
        "3-ply labels of {} positions, every move judged: {full_time:.2} s",
        look.len()
    );
    for p in &pruners {
        let t = Instant::now();
        let pruned: Vec<f32> = look
            .iter()
            .map(|b| equity(&Searcher::new(&eval).look_ahead(b, 2, Some(p))))
            .collect();
        let time = t.elapsed().as_secs_f64();
        let diffs: Vec<f64> = full
            .iter()
            .zip(&pruned)
            .map(|(a, b)| (b - a) as f64)
            .collect();
        let n = diffs.len() as f64;
        let mean = diffs.iter().map(|d| d.abs()).sum::<f64>() / n;
        let max = diffs.iter().map(|d| d.abs()).fold(0.0, f64::max);
        let bias = diffs.iter().sum::<f64>() / n;
        println!(
            "keep {}: {time:.2} s ({:.2} times as fast); label difference: mean {mean:.5}, largest {max:.4}, bias {bias:+.5}",
            p.keep(),
            full_time / time
        );
    }
}

/// Every 97th position of `class` of a rollout-data file, up to 4,000.
fn positions(text: &str, class: &str) -> Vec<Board> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter(|l| l.split_whitespace().nth(2) == Some(class))
        .step_by(97)
        .filter_map(|l| Board::from_position_id(l.split_whitespace().nth(1)?).ok())
        .take(4000)
        .collect()
}

/// Prints how often `pruner` keeps the full nets' choice, and the equity
/// lost where it does not.
fn choices(eval: &Evaluator, boards: &[Board], pruner: &Pruner) {
    let rolls: Vec<Dice> = Dice::all().collect();
    let mut moves = MoveList::new();
    let (mut same, mut lists, mut loss) = (0, 0, 0.0f64);
    for (j, b) in boards.iter().enumerate() {
        b.legal_moves_into(rolls[j % rolls.len()], &mut moves);
        if moves.len() < 2 {
            continue;
        }
        let (i, p) = eval.best_move(&moves);
        let (q, pq) = eval.best_move_pruned(&moves, pruner);
        lists += 1;
        if i == q {
            same += 1;
        } else {
            loss += (equity(&p) - equity(&pq)) as f64;
        }
    }
    println!(
        "keep {}: {same} of {lists} move lists choose as the full nets; equity lost {:.5} a list",
        pruner.keep(),
        loss / lists as f64
    );
}
