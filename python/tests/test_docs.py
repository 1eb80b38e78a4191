"""docs/python.md's examples, run as written against the real binary.

Each ```python block runs as its own program with ``GRASSHOPPER`` naming
the binary; the ```text output block after it is what it must print, line
by line: ``*`` stands for any text and a line ``<* ...`` for any number of
lines of that shape.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import List, Optional, Tuple

import pytest

from conftest import ROOT, binary_path

PAGE = ROOT / "docs" / "python.md"


def examples() -> List[Tuple[str, Optional[List[str]]]]:
    """(code, expected output lines or None) for each python block."""
    blocks = re.findall(r"^```(\w+)[^\n]*\n(.*?)^```", PAGE.read_text(), re.M | re.S)
    found = []
    for i, (kind, text) in enumerate(blocks):
        if kind == "python":
            after = blocks[i + 1] if i + 1 < len(blocks) else None
            shown = after[1].splitlines() if after and after[0] == "text" else None
            found.append((text, shown))
    return found


def matches(shown: List[str], got: List[str]) -> bool:
    def line(pattern: str) -> "re.Pattern[str]":
        return re.compile(".*".join(map(re.escape, pattern.split("*"))) + r"\Z")

    if not shown:
        return not got
    head = shown[0]
    if head.startswith("<* "):
        rest, pattern = shown[1:], line(head[3:])
        taken = 0
        while True:
            if matches(rest, got[taken:]):
                return True
            if taken == len(got) or not pattern.match(got[taken]):
                return False
            taken += 1
    return bool(got) and bool(line(head).match(got[0])) and matches(shown[1:], got[1:])


def test_the_page_has_the_examples_the_issue_asks_for() -> None:
    text = PAGE.read_text()
    for title in ("## Analyse a game", "## A small gauntlet", "## Label positions for training"):
        assert title in text
    assert all(shown is not None for _, shown in examples())


@pytest.mark.parametrize("index", range(len(examples())))
def test_example_runs_as_written(index: int, tmp_path: Path) -> None:
    code, shown = examples()[index]
    # The package as installed (`pip install ./python`), as a reader has it.
    env = dict(os.environ, GRASSHOPPER=binary_path())
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    got = run.stdout.splitlines()
    assert shown is not None and matches(shown, got), f"printed:\n{run.stdout}"
