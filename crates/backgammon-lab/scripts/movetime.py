"""How long the engine takes to answer a checker play under engine.movetime.

Plays the first N positions of a benchmark shard through UBGI (position,
dice, go) at the given ply and movetime and prints the mean, median and
slowest answer, measured from sending `go` to reading `bestmove`.

    python3 crates/backgammon-lab/scripts/movetime.py target/release/grasshopper 4 150 \
        [fixtures/backgammon-benchmark/shard-000.txt] [60]
"""

import subprocess
import sys
import time


def main():
    binary, ply, movetime = sys.argv[1:4]
    shard = sys.argv[4] if len(sys.argv) > 4 else "fixtures/backgammon-benchmark/shard-000.txt"
    count = int(sys.argv[5]) if len(sys.argv) > 5 else 60
    with open(shard) as f:
        positions = [line.split()[:2] for line in f if not line.startswith("#")][:count]
    engine = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def until(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit(f"the engine closed its output waiting for {prefix!r}")
            if line.startswith(prefix):
                return line

    send("ubgi")
    until("ubgiok")
    send(f"set engine.ply {ply}")
    send(f"set engine.movetime {movetime}")
    send("isready")
    until("readyok")
    times = []
    for position_id, dice in positions:
        send(f"position gnubgid {position_id}")
        send(f"dice {dice[0]} {dice[1]}")
        start = time.perf_counter()
        send("go")
        until("bestmove")
        times.append((time.perf_counter() - start) * 1000)
    send("quit")
    engine.wait()
    times.sort()
    print(
        f"ply {ply} movetime {movetime}: {len(times)} decisions, mean {sum(times) / len(times):.0f} ms, "
        f"median {times[len(times) // 2]:.0f} ms, slowest {times[-1]:.0f} ms"
    )


if __name__ == "__main__":
    main()
