//! Forward solve of the start position: value and positions computed.
use grasshopper_rules::Position;
use grasshopper_solver::retro::forward::Forward;
fn main() {
    let n: u8 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    let t = std::time::Instant::now();
    let mut f = Forward::new(n);
    let v = f.value(&Position::start(n).unwrap());
    println!(
        "N={n} value {v} computed {} time {:.1}s cpu {:?}",
        f.computed,
        t.elapsed().as_secs_f64(),
        grasshopper_solver::cpu_seconds()
    );
}
