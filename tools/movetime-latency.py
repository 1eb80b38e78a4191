#!/usr/bin/env python3
"""How long `go movetime T` takes as a client sees it: from writing the `go`
line to reading `bestmove`. Plays the engine against itself from the start
position (a fresh game whenever one ends) and prints, per T, the median and
maximum reply time over the moves.

    python3 tools/movetime-latency.py [--engine target/release/grasshopper]
        [--moves 40] [--times 10,20,100,1000] [--threads 1]
"""
import argparse, statistics, time
from enginetalk import Engine

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/grasshopper")
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--times", default="10,20,100,1000")
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    e = Engine([a.engine])
    send = e.send
    def until(prefix):
        return e.until(prefix).split()
    send("ugi"); until("ugiok")
    send(f"setoption name Threads value {a.threads}")
    for t in [int(x) for x in a.times.split(",")]:
        moves, took = [], []
        n = a.moves if t < 1000 else max(5, a.moves // 4)
        for _ in range(n):
            send("position startpos moves " + " ".join(moves))
            send("isready"); until("readyok")
            t0 = time.perf_counter()
            send(f"go movetime {t}")
            best = until("bestmove")
            took.append((time.perf_counter() - t0) * 1000)
            if best[1] == "(none)":
                moves = []
            else:
                moves.append(best[1])
            send("query gameover")
            if until("response")[1] == "true":
                moves = []
        print(f"threads {a.threads:3d} movetime {t:5d}: {len(took)} moves, median {statistics.median(took):7.2f} ms, "
              f"max {max(took):7.2f} ms")
    e.quit()

main()
