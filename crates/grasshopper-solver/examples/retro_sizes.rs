//! Prints the largest units of a game's retrograde solve.
use grasshopper_solver::retro::{unit_size, units};
fn main() {
    let n: u8 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let mut by_level = std::collections::BTreeMap::new();
    for u in units(n) {
        let e = by_level.entry(u.level()).or_insert((0u64, 0u32));
        e.0 += unit_size(u);
        e.1 += 1;
    }
    let mut cum = 0;
    for (l, (s, k)) in &by_level {
        cum += s;
        println!("level {l:2}: {k:3} units {s:>14} positions, cumulative {cum:>14}");
    }
    let mut v: Vec<_> = units(n).into_iter().map(|u| (unit_size(u), u)).collect();
    let total: u64 = v.iter().map(|x| x.0).sum();
    v.sort_by_key(|x| std::cmp::Reverse(x.0));
    let mut acc = 0;
    for (s, u) in v.iter().take(25) {
        acc += s;
        println!(
            "{:>14} {:5.1}% cum {:5.1}% level {:2} {:?}",
            s,
            100.0 * *s as f64 / total as f64,
            100.0 * acc as f64 / total as f64,
            u.level(),
            u
        );
    }
}
