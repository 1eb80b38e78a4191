#!/usr/bin/env python3
"""How long the backgammon engine takes to answer through UBGI, as a client
sees it: for the first N positions of the benchmark's plan, `go cube` and
then `go chequer` with the position's roll, from writing the `go` line to
reading the answer. Prints mean, median, 99th percentile and maximum.

    python3 tools/backgammon-latency.py [--engine target/release/grasshopper]
        [--plan fixtures/backgammon-benchmark/plan.txt] [--positions 300] [--ply 3]
"""
import argparse, statistics, time
from enginetalk import Engine

def summary(name, ms):
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    print(f"{name}: n {len(ms)} mean {statistics.mean(ms):.1f} ms, median "
          f"{statistics.median(ms):.1f}, 99th pct {p99:.1f}, max {ms[-1]:.1f}")

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/grasshopper")
    ap.add_argument("--plan", default="fixtures/backgammon-benchmark/plan.txt")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--ply", type=int, default=3)
    a = ap.parse_args()
    e = Engine([a.engine])
    send, until = e.send, e.until
    def timed(line, prefix):
        t0 = time.perf_counter()
        send(line)
        until(prefix)
        return (time.perf_counter() - t0) * 1000
    send("ubgi"); until("ubgiok")
    send(f"set engine.ply {a.ply}")
    send("newgame")
    plan = [l for l in open(a.plan) if l.strip() and not l.startswith("#")]
    chequer, cube = [], []
    for line in plan[:a.positions]:
        pid, roll = line.split()[:2]
        send(f"position gnubgid {pid}")
        send("isready"); until("readyok")
        cube.append(timed("go cube", "bestcube"))
        send(f"dice {roll[0]} {roll[1]}")
        chequer.append(timed("go chequer", "bestmove"))
    e.quit()
    summary(f"{a.ply}-ply checker play", chequer)
    summary(f"{a.ply}-ply cube", cube)

if __name__ == "__main__":
    main()
