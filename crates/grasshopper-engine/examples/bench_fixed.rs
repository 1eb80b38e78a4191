//! The bench's fixed searches alone (`grasshopper bench` without its
//! one-second search): a workload that does the same work at every run, for
//! instruction counts (`valgrind --tool=callgrind`) and CPU time
//! (`perf stat -e task-clock`), which a loaded machine blurs less than wall
//! time. Prints `<N> nodes <M> nps`; the optional argument is the depth.

fn main() {
    let depth = std::env::args()
        .nth(1)
        .map_or(grasshopper_engine::bench::DEFAULT_DEPTH, |d| {
            d.parse().expect("a depth")
        });
    let (nodes, nps) =
        grasshopper_engine::bench::run(&mut std::io::sink(), depth).expect("a sink takes all");
    println!("{nodes} nodes {nps} nps");
}
