"""The backgammon (UBGI) engine against the real binary."""

from __future__ import annotations

import pytest

from grasshopper import BACKGAMMON_START, BackgammonResult, EngineError
from grasshopper.engine import BackgammonEngine

# Each side has one checker left on its ace point; the player on roll has
# rolled 6-5 and bears it off.
LAST_CHECKERS = "XGID=-A----------------------a-:0:0:1:65:0:0:0:0:10"


def test_handshake_reads_keys(bg: BackgammonEngine) -> None:
    assert bg.id["name"].startswith("grasshopper ")
    ply = bg.options["engine.ply"]
    assert (ply.type, ply.spec, ply.default) == ("int", "1..4", "3")
    assert bg.options["engine.seed"].minor
    bg.ping()


def test_play_cube_and_take(bg: BackgammonEngine) -> None:
    assert bg.play(BACKGAMMON_START, (3, 1)) == "8/5 6/5"
    assert bg.cube(BACKGAMMON_START) is False
    assert bg.take(BACKGAMMON_START) is True


def test_xgid_positions_carry_their_dice(bg: BackgammonEngine) -> None:
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
    move = bg.play(xgid)
    # bestmove is in playing order, query moves in canonical order.
    assert bg.is_legal(xgid, move) and len(move.split()) == 2


def test_configure_and_get(bg: BackgammonEngine) -> None:
    bg.configure({"engine.ply": 1, "game.jacoby": False})
    assert bg.get("engine.ply") == "1"
    assert bg.get("game.jacoby") == "false"
    bg.configure({"engine.ply": 2, "game.jacoby": True})


def test_rules_queries(bg: BackgammonEngine) -> None:
    moves = bg.legal_moves(BACKGAMMON_START, (3, 1))
    assert len(moves) == 16 and "8/5 6/5" in moves
    assert bg.is_legal(BACKGAMMON_START, "24/20", (3, 1))
    assert not bg.is_legal(BACKGAMMON_START, "24/21 24/20", (3, 1))
    after = bg.play_move(BACKGAMMON_START, "8/5 6/5", (3, 1))
    assert after.startswith("sGfwATDgc/ABMA:")
    assert bg.result(after) is None
    assert bg.is_legal(after, bg.play(after, (6, 4)), (6, 4))


def test_result_of_a_finished_game(bg: BackgammonEngine) -> None:
    assert bg.legal_moves(LAST_CHECKERS) == ["1/off"]
    assert bg.result(LAST_CHECKERS) is None
    after = bg.play_move(LAST_CHECKERS, "1/off")
    assert bg.result(after) == BackgammonResult(winner=1, kind="single", points=1)


def test_errors_carry_the_engines_code_and_message(bg: BackgammonEngine) -> None:
    with pytest.raises(EngineError) as die:
        bg.play(BACKGAMMON_START, (7, 1))
    assert die.value.code == "bad_value"
    with pytest.raises(EngineError) as ply:
        bg.configure({"engine.ply": 5})
    assert ply.value.code == "bad_value"
    with pytest.raises(EngineError) as key:
        bg.configure({"engine.colour": "red"})
    assert key.value.code == "unsupported"
    with pytest.raises(EngineError) as dice:
        bg.play(BACKGAMMON_START)
    assert dice.value.code == "bad_state" and "dice" in dice.value.message
    with pytest.raises(EngineError) as illegal:
        bg.play_move(BACKGAMMON_START, "24/10", (3, 1))
    assert illegal.value.code == "bad_value"
    assert bg.play(BACKGAMMON_START, (3, 1)) == "8/5 6/5"


def test_a_line_break_cannot_smuggle_in_a_command(bg: BackgammonEngine) -> None:
    with pytest.raises(ValueError, match="line break"):
        bg.play(BACKGAMMON_START + "\nquit", (3, 1))
    with pytest.raises(ValueError, match="line break"):
        bg.is_legal(BACKGAMMON_START, "8/5\nquit", (3, 1))
    assert bg.play(BACKGAMMON_START, (3, 1)) == "8/5 6/5"
