#!/usr/bin/env python3
"""Flood soak: the memory of `grasshopper match` and `grasshopper serve`
while an engine writes lines without pause (testkit's fake engine with
`--chatter info`), sampled from /proc/PID/status (VmRSS) every second.

(a) match: baseline = the highest RSS of the same match between two calm
    fake engines over --baseline seconds; then the match with one flooding
    engine for --seconds.
(b) serve: baseline = the server's RSS before any engine runs; then a game
    whose engine (flooding) has made its move, while the person "thinks"
    for --seconds (the page's one poll a second, no search running).

Prints, for each, the baseline, the highest sample and the difference
(MB = 10^6 bytes), and exits 1 if a difference is --limit MB or more.

Usage (from the repository root, after
`cargo build --profile test-opt -p grasshopper --bin grasshopper -p testkit --bin fake-engine`):

    tools/flood-soak.py [--bin target/test-opt/grasshopper]
                        [--fake target/test-opt/fake-engine]
                        [--seconds 60] [--baseline 10] [--limit 100]
                        [--only match|serve]

Not part of `cargo test`: it takes minutes and measures, it does not judge
behaviour.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

MB = 1_000_000


def rss(pid):
    """Resident set size of `pid` in bytes (None once it has gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def descendants(pid):
    """Every process below `pid` (engines, wrapper children), by /proc's ppid."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def cpu_seconds(pid):
    """User and system CPU time `pid` has used (0 once it has gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def end(proc):
    """Kills `proc` and everything it started (engines run in process groups
    of their own, so a kill of the runner alone would not reach them); the
    CPU seconds it and its engines had used (how hard they were working)."""
    below = descendants(proc.pid)
    engines = (cpu_seconds(proc.pid), sum(cpu_seconds(pid) for pid in below))
    for pid in [proc.pid] + below:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()
    return engines


def sample(pid, seconds, label, poll=None):
    """RSS every second for `seconds`; the samples (bytes)."""
    samples = []
    start = time.monotonic()
    for i in range(1, int(seconds) + 1):
        if poll:
            poll()
        time.sleep(max(0.0, start + i - time.monotonic()))
        r = rss(pid)
        if r is None:
            sys.exit(f"{label}: the process {pid} ended after {i} s")
        samples.append(r)
    return samples


def match_cmd(a, pgn, flood):
    # The calm engine thinks 50 ms a move: its turns are when nobody reads
    # the flooding engine.
    engine = ["--engine", f"cmd={a.fake}", "name=calm", "arg=--mode", "arg=random",
              "arg=--delay", "arg=50"]
    other = ["--engine", f"cmd={a.fake}", "name=flood" if flood else "name=calm2",
             "arg=--delay", "arg=5"]
    if flood:
        other += ["arg=--chatter", "arg=info"]
    return [a.bin, "match", *engine, *other, "--tc", "movetime=100",
            "--pairs", "100000", "--random-plies", "4", "-q",
            "--pgn", pgn, "--json", pgn + ".json"]


def soak_match(a, tmp):
    calm = subprocess.Popen(match_cmd(a, os.path.join(tmp, "calm.pgn"), False),
                            stdout=subprocess.DEVNULL)
    try:
        base = max(sample(calm.pid, a.baseline, "calm match"))
    finally:
        end(calm)
    flood = subprocess.Popen(match_cmd(a, os.path.join(tmp, "flood.pgn"), True),
                             stdout=subprocess.DEVNULL)
    try:
        samples = sample(flood.pid, a.seconds, "flooded match")
    finally:
        engines = end(flood)
    games = 0
    try:
        with open(os.path.join(tmp, "flood.pgn")) as f:
            games = sum(1 for line in f if line.startswith("[Result "))
    except OSError:
        pass
    return base, samples, (f"{games} games played by the flooded match, "
                           "CPU: runner {:.0f} s, engines {:.0f} s".format(*engines))


def http(url, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        text = r.read().decode()
    return json.loads(text) if text else None


def soak_serve(a):
    cmd = [a.bin, "serve", "--port", "0", "--engine", f"cmd={a.fake}", "name=flood",
           "arg=--chatter", "arg=info"]
    serve = subprocess.Popen(cmd, stdout=subprocess.PIPE)
    try:
        url = serve.stdout.readline().decode().split()[-1].rstrip("/")
        time.sleep(1)
        base = rss(serve.pid)
        game = http(f"{url}/api/games",
                    {"checkers": 4, "limit": {"kind": "depth", "value": 1}})["id"]
        http(f"{url}/api/games/{game}/move", {"move": "bar/1"})
        http(f"{url}/api/games/{game}/go", {})
        until = time.monotonic() + 30
        while True:
            state = http(f"{url}/api/games/{game}")
            if not state["engine"]["thinking"] and not state["engine"]["busy"]:
                break
            if time.monotonic() > until:
                sys.exit(f"serve: the engine never answered: {state}")
            time.sleep(0.05)
        moves = len(state["moves"])
        samples = sample(serve.pid, a.seconds, "serve",
                         poll=lambda: http(f"{url}/api/games/{game}"))
        running = http(f"{url}/api/info")["engines_running"]
    finally:
        engines = end(serve)
    return base, samples, (f"{moves} moves on the board, {running} engine running, "
                           "CPU: serve {:.0f} s, engine {:.0f} s".format(*engines))


def report(name, base, samples, note, limit):
    top = max(samples)
    diff = top - base
    print(f"{name}: baseline {base / MB:.1f} MB, max {top / MB:.1f} MB, "
          f"difference {diff / MB:+.1f} MB over {len(samples)} s ({note})")
    print(f"  samples (MB): {' '.join(f'{s / MB:.0f}' for s in samples)}")
    return diff < limit * MB


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default="target/test-opt/grasshopper")
    p.add_argument("--fake", default="target/test-opt/fake-engine")
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--baseline", type=float, default=10)
    p.add_argument("--limit", type=float, default=100, help="MB above the baseline")
    p.add_argument("--only", choices=["match", "serve"])
    a = p.parse_args()
    a.bin, a.fake = os.path.abspath(a.bin), os.path.abspath(a.fake)
    ok = True
    with tempfile.TemporaryDirectory(prefix="flood-soak-") as tmp:
        if a.only in (None, "match"):
            ok &= report("match", *soak_match(a, tmp), a.limit)
        if a.only in (None, "serve"):
            ok &= report("serve", *soak_serve(a), a.limit)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
