"""The match helper: one game between two engines, refereed."""

from __future__ import annotations

from typing import Iterator

import pytest

import grasshopper
from conftest import ILLEGAL_MOVER, fake
from grasshopper import STARTPOS, Limit, match
from grasshopper.engine import BackgammonEngine, Engine


@pytest.fixture
def players(binary: str) -> Iterator[tuple]:
    with (
        Engine.popen([binary, "--player", "greedy"]) as greedy,
        Engine.popen([binary, "--player", "random", "--seed", "7"]) as rand,
    ):
        for e in (greedy, rand):
            e.configure({"Checkers": 4})
        yield greedy, rand


def test_a_game_is_recorded_and_replays_to_its_result(players: tuple) -> None:
    greedy, rand = players
    record = match(greedy, rand, Limit(depth=1))
    assert record.termination == "normal" and record.result in ("p1win", "p2win", "draw")
    assert record.start == grasshopper.startpos(4)
    # The referee's verdict, checked move by move by the other engine.
    assert rand.result(record.start, moves=record.moves) == record.result
    assert rand.fen(record.start, moves=record.moves) == record.end
    assert str(record).startswith("grasshopper ")


def test_an_illegal_move_loses(players: tuple) -> None:
    greedy, _ = players
    with Engine.popen(fake(ILLEGAL_MOVER)) as illegal:
        record = match(illegal, greedy, Limit(depth=1), referee=greedy)
        assert (record.result, record.termination) == ("p2win", "illegal move")
        assert record.winner() == "black" and "bar/9" in record.reason
        record = match(greedy, illegal, Limit(depth=1), start=STARTPOS, moves=["bar/1"])
        assert (record.result, record.termination) == ("p1win", "illegal move")
        assert record.moves == []


def test_a_backgammon_game_is_repeatable_by_its_seed(binary: str) -> None:
    with (
        BackgammonEngine.popen([binary, "--player", "pubeval"]) as pubeval,
        BackgammonEngine.popen([binary, "--player", "random", "--seed", "3"]) as rand,
    ):
        first = match(pubeval, rand, seed=11)
        second = match(pubeval, rand, seed=11)
    assert first.termination == "normal" and first.points >= 1
    assert first.kind in ("single", "gammon", "backgammon")
    assert first.result in ("p1win", "p2win")
    assert first.moves == second.moves and first.result == second.result
    assert first.moves[0][:2] not in ("11", "22", "33", "44", "55", "66")


def test_match_wants_two_engines_of_one_game(binary: str, players: tuple) -> None:
    greedy, _ = players
    with pytest.raises(TypeError):
        match(greedy, greedy)  # type: ignore[call-overload]


# Enters on point 6 (legal while it is empty) after 0.4 s of thought.
SLOW_MOVER = r"""
import sys, time
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "ugi":
        print("id name slow\nid author tests\nugiok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        time.sleep(0.4)
        print("bestmove bar/6", flush=True)
    elif word == "quit":
        break
"""


def test_clocks_run_down_and_a_flag_falls(players: tuple) -> None:
    greedy, rand = players
    record = match(greedy, rand, Limit(p1time=5, p2time=5, p1inc=0.05, p2inc=0.05))
    assert record.termination == "normal"
    with Engine.popen(fake(SLOW_MOVER)) as slow:
        # 0.4 s a move against a 0.5 s clock: the second move is too late.
        record = match(slow, greedy, Limit(p1time=0.5, p2time=0.5), referee=greedy)
    assert (record.result, record.termination) == ("p2win", "time")
    assert record.moves[0] == "bar/6" and "move 3" in record.reason
