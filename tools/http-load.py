#!/usr/bin/env python3
"""Load on `grasshopper serve` while a normal client measures its latency.

Phases, each for --seconds: nothing else (baseline); --slow slowloris
connections (a request head sent a byte a second, reopened whenever the
server closes one) and --idle connections that send nothing; --concurrent
connections each sending whole GET /api/info requests back to back; both
together. Meanwhile a probe, in its own process (so the load generator's
interpreter lock does not delay it), times a normal GET /api/info every
--interval seconds from connect to the last byte. Prints p50/p99/max, the
probe's failures, the load's own counts and, for a server started here, its
threads and resident memory at the end of each phase.

  python3 tools/http-load.py --serve target/release/grasshopper
  python3 tools/http-load.py --url http://127.0.0.1:8080/

Python 3 standard library only.
"""

import argparse
import asyncio
import multiprocessing as mp
import os
import resource
import socket
import subprocess
import sys
import time
from urllib.parse import urlparse


def raise_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def request_bytes(host, port):
    return (
        f"GET /api/info HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n"
    ).encode()


async def slow_client(host, port, stop, counts):
    """Sends a request head a byte a second; reopens when the server closes."""
    head = request_bytes(host, port)[:-2] + b"X-Slow: " + b"a" * 10_000
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            counts["slow_refused"] += 1
            await asyncio.sleep(0.5)
            continue
        counts["slow_opened"] += 1
        try:
            for i in range(len(head)):
                if stop.is_set():
                    break
                writer.write(head[i : i + 1])
                await writer.drain()
                try:
                    # The server closing (408) ends the wait early.
                    # Any answer (a 408 or 503) or the close ends it.
                    await asyncio.wait_for(reader.read(4096), 1.0)
                    counts["slow_closed_by_server"] += 1
                    break
                except asyncio.TimeoutError:
                    pass
        except OSError:
            counts["slow_closed_by_server"] += 1
        finally:
            writer.close()


async def idle_client(host, port, stop, counts):
    """Opens a connection and sends nothing; reopens when the server closes."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            await asyncio.sleep(0.5)
            continue
        counts["idle_opened"] += 1
        try:
            while not stop.is_set():
                try:
                    await asyncio.wait_for(reader.read(4096), 1.0)
                    break
                except asyncio.TimeoutError:
                    pass
        except OSError:
            pass
        finally:
            writer.close()


async def busy_client(host, port, stop, counts):
    """Whole requests back to back, one per connection."""
    req = request_bytes(host, port)
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(req)
            await writer.drain()
            answer = await asyncio.wait_for(reader.read(), 30)
            writer.close()
            status = answer[9:12]
            counts["busy_" + (status.decode() if status else "none")] += 1
        except (OSError, asyncio.TimeoutError):
            counts["busy_error"] += 1
            await asyncio.sleep(0.1)


def load(host, port, slow, idle, concurrent, stop, out):
    raise_fd_limit()

    async def main():
        done = asyncio.Event()
        counts = {
            k: 0
            for k in (
                "slow_opened",
                "slow_refused",
                "slow_closed_by_server",
                "idle_opened",
                "busy_error",
            )
        }
        counts = CountDict(counts)
        tasks = [asyncio.create_task(slow_client(host, port, done, counts)) for _ in range(slow)]
        tasks += [asyncio.create_task(idle_client(host, port, done, counts)) for _ in range(idle)]
        tasks += [
            asyncio.create_task(busy_client(host, port, done, counts)) for _ in range(concurrent)
        ]
        while not stop.is_set():
            await asyncio.sleep(0.1)
        done.set()
        if tasks:
            await asyncio.wait(tasks, timeout=5)
        out.put(dict(counts))

    asyncio.run(main())


class CountDict(dict):
    def __missing__(self, key):
        return 0


def probe(host, port, seconds, interval, out):
    """Times normal requests; puts (latencies in ms, failures)."""
    req = request_bytes(host, port)
    latencies, failures = [], {}
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        start = time.monotonic()
        try:
            with socket.create_connection((host, port), timeout=15) as s:
                s.sendall(req)
                chunks = []
                while True:
                    b = s.recv(65536)
                    if not b:
                        break
                    chunks.append(b)
            answer = b"".join(chunks)
            status = answer[9:12].decode() or "none"
            if status == "200":
                latencies.append((time.monotonic() - start) * 1000)
            else:
                failures[status] = failures.get(status, 0) + 1
        except OSError as e:
            failures[type(e).__name__] = failures.get(type(e).__name__, 0) + 1
        time.sleep(max(0.0, interval - (time.monotonic() - start)))
    out.put((latencies, failures))


def percentile(sorted_values, p):
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, int(round(p / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


def server_figures(pid):
    if pid is None:
        return ""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        fds = len(os.listdir(f"/proc/{pid}/fd"))
        return (
            f"server threads {fields['Threads'].strip()}, "
            f"RSS {fields['VmRSS'].strip()}, fds {fds}"
        )
    except OSError:
        return "server gone"


def phase(name, host, port, slow, idle, concurrent, args, pid):
    stop = mp.Event()
    load_out, probe_out = mp.Queue(), mp.Queue()
    loader = mp.Process(target=load, args=(host, port, slow, idle, concurrent, stop, load_out))
    loader.start()
    time.sleep(args.warmup if (slow or idle or concurrent) else 0)
    prober = mp.Process(target=probe, args=(host, port, args.seconds, args.interval, probe_out))
    prober.start()
    latencies, failures = probe_out.get()
    prober.join()
    figures = server_figures(pid)
    stop.set()
    counts = load_out.get()
    loader.join()
    lat = sorted(latencies)
    print(
        f"{name:<34} n={len(lat):4d}  p50 {percentile(lat, 50):7.1f} ms  "
        f"p99 {percentile(lat, 99):7.1f} ms  max {lat[-1] if lat else float('nan'):7.1f} ms  "
        f"failed {sum(failures.values())} {failures if failures else ''}"
    )
    shown = {k: v for k, v in counts.items() if v}
    print(f"{'':<34} load: {shown}")
    if figures:
        print(f"{'':<34} {figures}")
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", help="a running server, e.g. http://127.0.0.1:8080/")
    ap.add_argument("--serve", metavar="BIN", help="start `BIN serve --port 0` and load it")
    ap.add_argument("--slow", type=int, default=200)
    ap.add_argument("--idle", type=int, default=0)
    ap.add_argument("--concurrent", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=15.0, help="probe time per phase")
    ap.add_argument("--warmup", type=float, default=3.0, help="load before the probe starts")
    ap.add_argument("--interval", type=float, default=0.05, help="between probe requests")
    args = ap.parse_args()
    raise_fd_limit()
    child = None
    if args.serve:
        child = subprocess.Popen(
            [args.serve, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True
        )
        line = child.stdout.readline()
        args.url = line.split()[-1]
    if not args.url:
        ap.error("give --url or --serve")
    u = urlparse(args.url)
    host, port = u.hostname, u.port or 80
    pid = child.pid if child else None
    print(
        f"server {args.url} ({args.serve or 'already running'}); probe GET /api/info every "
        f"{args.interval * 1000:.0f} ms for {args.seconds:.0f} s per phase after {args.warmup:.0f} s of load"
    )
    try:
        phase("no load", host, port, 0, 0, 0, args, pid)
        phase(f"{args.slow} slow + {args.idle} idle", host, port, args.slow, args.idle, 0, args, pid)
        phase(f"{args.concurrent} concurrent", host, port, 0, 0, args.concurrent, args, pid)
        phase(
            f"{args.slow} slow + {args.idle} idle + {args.concurrent} conc.",
            host,
            port,
            args.slow,
            args.idle,
            args.concurrent,
            args,
            pid,
        )
    finally:
        if child:
            child.kill()
            child.wait()


if __name__ == "__main__":
    main()
