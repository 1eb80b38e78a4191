"""The text forms the client reads and writes, without an engine."""

from __future__ import annotations

import pytest

import grasshopper
from grasshopper import STARTPOS, EngineError, Limit, Score
from grasshopper._core import parse_error
from grasshopper._ubgi import BackgammonResult, parse_key, parse_result, position_command
from grasshopper._ugi import Option, Options, parse_info, parse_option
from grasshopper._ugi import position_command as ugi_position


def test_info_lines_of_the_protocol_grammar() -> None:
    info = parse_info(
        "info depth 7 seldepth 9 multipv 1 score cp -35 nodes 48211 nps 963000 "
        "hashfull 12 time 50 pv 3/9 bar/2"
    )
    assert info == {
        "depth": 7,
        "seldepth": 9,
        "multipv": 1,
        "score": Score(cp=-35),
        "nodes": 48211,
        "nps": 963000,
        "hashfull": 12,
        "time": 0.05,
        "pv": ["3/9", "bar/2"],
    }
    assert parse_info("info depth 3 score mate -2 pv 20/off")["score"] == Score(mate=-2)
    assert parse_info("info string game over: white has won")["string"] == (
        "game over: white has won"
    )


def test_info_fields_past_an_unknown_one_are_dropped() -> None:
    assert parse_info("info depth 7 currmove 3/9 nodes 5") == {"depth": 7}
    assert parse_info("info depth seven") == {}
    assert parse_info("info score cp 12 lowerbound") == {"score": Score(cp=12)}


def test_scores() -> None:
    assert Score(mate=3).score() > Score(mate=5).score() > Score(cp=900).score()
    assert Score(mate=-2).score() < Score(cp=-900).score()
    assert [Score(mate=1).outcome(), Score(mate=-1).outcome()] == ["win", "loss"]
    assert Score(cp=0, proved_draw=True).outcome() == "draw"
    assert Score(cp=0).outcome() is None
    assert [str(Score(cp=-35)), str(Score(mate=2)), str(Score(cp=0, proved_draw=True))] == [
        "cp -35",
        "mate 2",
        "draw",
    ]


def test_option_lines() -> None:
    assert parse_option("option name Hash type spin default 16 min 1 max 4096") == Option(
        "Hash", "spin", 16, 1, 4096
    )
    assert parse_option("option name Ponder type check default false").default is False
    assert parse_option("option name TablePath type string default <empty>").default == ""
    assert parse_option("option name Move Overhead type spin default 25 min 0 max 10000").name == (
        "Move Overhead"
    )
    with pytest.raises(EngineError) as error:
        parse_option("option name Style type combo default Solid var Solid")
    assert error.value.code == "protocol"
    options = Options([parse_option("option name MoveOverhead type spin default 25 min 0 max 9")])
    assert options["move overhead"].max == 9 and list(options) == ["MoveOverhead"]


def test_limits_and_positions_as_commands() -> None:
    assert Limit(depth=4).go() == "go depth 4"
    assert Limit(movetime=0.25, nodes=100).go() == "go movetime 250 nodes 100"
    assert Limit(p1time=60, p2time=59.5, p1inc=0.1, p2inc=0.1, movestogo=20).go() == (
        "go p1time 60000 p2time 59500 p1inc 100 p2inc 100 movestogo 20"
    )
    assert Limit(p1time=2, movetime=1).budget() == 2
    with pytest.raises(ValueError):
        Limit().go()
    assert ugi_position(STARTPOS, ["bar/1"]) == "position startpos moves bar/1"
    assert ugi_position(grasshopper.startpos(4)) == (
        "position fen ....../....../....../...... w 4 4 0-0 -"
    )
    with pytest.raises(ValueError):
        grasshopper.startpos(5)


def test_ubgi_lines() -> None:
    key = parse_key("key engine.seed int 0..4294967295 0 ! seed of the random player")
    assert (key.type, key.spec, key.default, key.minor) == ("int", "0..4294967295", "0", True)
    assert parse_key("key game.jacoby bool true Jacoby rule").spec is None
    assert parse_result(["p0", "gammon", "4"]) == BackgammonResult(0, "gammon", 4)
    assert parse_result(["none"]) is None
    with pytest.raises(EngineError):
        parse_result(["p0", "triple", "1"])
    assert position_command("4HPwATDgc/ABMA:QYkqASAAIAAA").startswith("position gnubgid ")
    assert position_command("-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10").startswith(
        "position xgid "
    )


def test_error_lines() -> None:
    error = parse_error('error bad_option setoption: no option named "Colour"')
    assert error is not None
    assert (error.code, error.message) == ("bad_option", 'setoption: no option named "Colour"')
    assert parse_error("response true") is None
