"""Fixtures: the real binary (``GRASSHOPPER``, else the repository's
``target/test-opt/grasshopper``) and engines started from it."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterator, List

import pytest

from grasshopper.engine import BackgammonEngine, Engine

ROOT = Path(__file__).resolve().parents[2]


def binary_path() -> str:
    path = os.environ.get("GRASSHOPPER") or str(ROOT / "target" / "test-opt" / "grasshopper")
    if not os.access(path, os.X_OK):
        pytest.fail(
            f"no engine binary at {path}: "
            "build it (cargo build --profile test-opt) or set GRASSHOPPER"
        )
    return path


@pytest.fixture(scope="session")
def binary() -> str:
    return binary_path()


@pytest.fixture
def engine(binary: str) -> Iterator[Engine]:
    with Engine.popen(binary, timeout=10) as e:
        e.configure({"Checkers": 4})
        yield e


@pytest.fixture(scope="module")
def bg(binary: str) -> Iterator[BackgammonEngine]:
    with BackgammonEngine.popen(binary, timeout=20) as e:
        yield e


def fake(script: str) -> List[str]:
    """A fake engine: a Python program given as text."""
    return [sys.executable, "-c", script]


# Answers the UGI handshake and isready, then reads and ignores everything.
SILENT_AFTER_HANDSHAKE = r"""
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "ugi":
        print("id name silent\nid author tests\nugiok", flush=True)
    elif word == "isready" and not getattr(sys, "searching", False):
        print("readyok", flush=True)
    elif word == "go":
        sys.searching = True
    elif word == "quit":
        break
"""

# Plays "bar/9" (never legal: entries go to points 1..6) to every go.
ILLEGAL_MOVER = r"""
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "ugi":
        print("id name illegal\nid author tests\nugiok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        print("bestmove bar/9", flush=True)
    elif word == "quit":
        break
"""
