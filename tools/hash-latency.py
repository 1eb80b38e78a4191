#!/usr/bin/env python3
"""What a large Hash costs a client: the time from `setoption name Hash value N`
to `readyok`, from `uginewgame` to `readyok` with that table, and from `quit`
sent while the table is being made to the engine's exit.

    python3 tools/hash-latency.py [--engine target/release/grasshopper] [--hash 4096]
"""
import argparse, subprocess, time

def start(engine):
    e = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1)
    return e

def send(e, l):
    e.stdin.write(l + "\n"); e.stdin.flush()

def until(e, prefix):
    while True:
        line = e.stdout.readline()
        assert line, "engine exited"
        if line.startswith(prefix):
            return line.strip()

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/grasshopper")
    ap.add_argument("--hash", type=int, default=4096)
    a = ap.parse_args()
    e = start(a.engine)
    send(e, "ugi"); until(e, "ugiok")
    t0 = time.perf_counter()
    send(e, f"setoption name Hash value {a.hash}"); send(e, "isready")
    first = until(e, "")
    took = (time.perf_counter() - t0) * 1000
    print(f"setoption Hash {a.hash} -> {first!r} after {took:.0f} ms")
    t0 = time.perf_counter()
    send(e, "uginewgame"); send(e, "isready"); until(e, "readyok")
    print(f"uginewgame with Hash {a.hash} -> readyok after {(time.perf_counter() - t0) * 1000:.0f} ms")
    send(e, "quit"); e.wait()
    e = start(a.engine)
    send(e, f"setoption name Hash value {a.hash}"); send(e, "isready")
    time.sleep(0.05)
    t0 = time.perf_counter()
    send(e, "quit"); e.wait()
    print(f"quit 50 ms into setoption Hash {a.hash}: exited after {(time.perf_counter() - t0) * 1000:.0f} ms")

main()
