"""Timeouts, a killed engine, an engine that never answers: every call
ends, with EngineTimeout or EngineTerminated, never a hang."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from conftest import SILENT_AFTER_HANDSHAKE, fake
from grasshopper import STARTPOS, EngineError, EngineTerminated, EngineTimeout, Limit
from grasshopper.engine import AsyncBackgammonEngine, AsyncEngine, BackgammonEngine, Engine

# A search that runs for minutes: depth 1000 from the 14-checker start.
LONG = Limit(depth=1000)


def test_a_timeout_stops_the_search_and_keeps_the_engine(binary: str) -> None:
    with Engine.popen(binary) as engine:
        started = time.monotonic()
        with pytest.raises(EngineTimeout) as timeout:
            engine.play(STARTPOS, LONG, timeout=0.3)
        assert time.monotonic() - started < 5
        assert "stopped" in str(timeout.value) and timeout.value.code == "timeout"
        assert isinstance(timeout.value, TimeoutError)
        # The stopped search's bestmove was read; the next answer is fresh.
        assert engine.play(STARTPOS, Limit(depth=2)).move in engine.legal_moves(STARTPOS)


def test_an_engine_that_ignores_stop_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("grasshopper.engine.RECOVERY_TIMEOUT", 0.3)
    with Engine.popen(fake(SILENT_AFTER_HANDSHAKE)) as engine:
        with pytest.raises(EngineTimeout, match="killed"):
            engine.play(STARTPOS, Limit(depth=1), timeout=0.3)
        with pytest.raises(EngineTerminated):
            engine.legal_moves(STARTPOS)


def test_killing_the_engine_mid_search_raises_terminated(binary: str) -> None:
    with Engine.popen(binary) as engine:
        threading.Timer(0.3, os.kill, (engine.pid, signal.SIGKILL)).start()
        started = time.monotonic()
        with pytest.raises(EngineTerminated, match="exited"):
            engine.play(STARTPOS, LONG, timeout=60)
        assert time.monotonic() - started < 10
        with pytest.raises(EngineTerminated):
            engine.play(STARTPOS, Limit(depth=1))


def test_a_killed_backgammon_engine_raises_terminated(binary: str) -> None:
    with BackgammonEngine.popen(binary, stderr=subprocess.DEVNULL) as engine:
        os.kill(engine.pid, signal.SIGKILL)
        with pytest.raises(EngineTerminated):
            engine.play("4HPwATDgc/ABMA", (3, 1))


def test_a_program_that_exits_at_once_fails_the_handshake() -> None:
    with pytest.raises(EngineTerminated):
        Engine.popen(fake("pass"))


def test_a_program_that_never_answers_times_out_its_handshake(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("grasshopper.engine.RECOVERY_TIMEOUT", 0.3)
    started = time.monotonic()
    with pytest.raises(EngineTimeout):
        Engine.popen(fake("import time; time.sleep(60)"), timeout=0.5)
    assert time.monotonic() - started < 10


def test_calls_after_quit_raise_terminated(binary: str) -> None:
    engine = Engine.popen(binary)
    engine.quit()
    assert engine._process.returncode == 0
    with pytest.raises(EngineTerminated):
        engine.fen(STARTPOS)


def test_kill_from_another_thread_ends_a_waiting_call(binary: str) -> None:
    with Engine.popen(binary) as engine:
        threading.Timer(0.3, engine.kill).start()
        with pytest.raises(EngineTerminated):
            engine.play(STARTPOS, LONG, timeout=60)


def _dead(pid: int) -> bool:
    """The process is gone, or a zombie waiting for its parent."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


# Answers the handshake with an option (UGI) and a key (UBGI) no parser
# accepts, writes its pid, then waits.
BAD_HANDSHAKE = r"""
import os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
sys.stdin.readline()
print("option name x type nonsense", flush=True)
print("key nonsense", flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize(
    "client",
    [Engine, BackgammonEngine, AsyncEngine, AsyncBackgammonEngine],
    ids=lambda c: c.__name__,
)
def test_every_client_kills_a_program_whose_handshake_fails(client: type, tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    command = fake(BAD_HANDSHAKE) + [str(pid_file)]
    with pytest.raises(EngineError):
        if client in (AsyncEngine, AsyncBackgammonEngine):
            asyncio.run(client.popen(command, timeout=5))
        else:
            client.popen(command, timeout=5)
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while not _dead(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _dead(pid), f"the fake engine {pid} outlived its failed handshake"
