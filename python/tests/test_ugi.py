"""The Grasshopper (UGI) engine against the real binary."""

from __future__ import annotations

import pytest

import grasshopper
from grasshopper import STARTPOS, EngineError, Limit, Score
from grasshopper.engine import Engine

WHITE_WINS_IN_ONE = "....../....../....../W..... w 0 4 1-0 w1"


def test_handshake_reads_id_and_options(engine: Engine) -> None:
    assert engine.id["name"].startswith("grasshopper ")
    assert engine.options["multipv"].max == 96
    assert engine.options["Move Overhead"].name == "MoveOverhead"
    assert engine.options["Ponder"].default is False
    assert engine.options["TablePath"].default == ""
    engine.ping()


def test_startpos_follows_the_checkers_option(engine: Engine) -> None:
    assert engine.fen(STARTPOS) == grasshopper.startpos(4)
    engine.configure({"Checkers": 6})
    assert engine.fen(STARTPOS) == grasshopper.startpos(6)


def test_play_answers_a_legal_move_and_a_ponder_move_when_asked(engine: Engine) -> None:
    result = engine.play(STARTPOS, Limit(depth=3))
    assert result.move in engine.legal_moves(STARTPOS)
    assert result.ponder is None
    assert result.info["depth"] == 3
    pondering = engine.play(STARTPOS, Limit(depth=3), ponder=True)
    assert pondering.ponder is not None
    assert engine.is_legal(STARTPOS, pondering.ponder, moves=[pondering.move])


def test_play_on_a_finished_game_has_no_move(engine: Engine) -> None:
    assert engine.play(WHITE_WINS_IN_ONE, Limit(depth=2), moves=["19/off"]).move is None


def test_analyse_lists_multipv_lines_best_first(engine: Engine) -> None:
    lines = engine.analyse(STARTPOS, Limit(depth=4), multipv=3)
    assert [line["multipv"] for line in lines] == [1, 2, 3]
    assert len({line["pv"][0] for line in lines}) == 3
    assert all(line["depth"] == 4 for line in lines)
    scores = [line["score"].score() for line in lines]
    assert scores == sorted(scores, reverse=True)
    single = engine.analyse(STARTPOS, Limit(nodes=500))
    assert isinstance(single["score"], Score) and single["nodes"] > 0


def test_analyse_reports_a_proved_win(engine: Engine) -> None:
    info = engine.analyse(WHITE_WINS_IN_ONE, Limit(depth=3))
    assert info["score"] == Score(mate=1)
    assert info["score"].outcome() == "win"
    assert info["pv"] == ["19/off"]


def test_analyse_reports_a_proved_draw(engine: Engine) -> None:
    # Each of White's three moves leaves neither side a scoring chance.
    info = engine.analyse("....../....../...w../wb..b. w 0 0 1-1 w1", Limit(depth=6))
    assert info["score"] == Score(cp=0, proved_draw=True), info
    assert info["score"].outcome() == "draw"


def test_rules_queries(engine: Engine) -> None:
    assert engine.legal_moves(STARTPOS) == [f"bar/{p}" for p in range(1, 7)]
    assert engine.is_legal(STARTPOS, "bar/1")
    assert not engine.is_legal(STARTPOS, "bar/2", moves=["bar/1", "bar/2"])
    assert (
        engine.play_move(STARTPOS, "bar/2", moves=["bar/1"])
        == "wb..../....../....../...... w 3 3 0-0 -"
    )
    assert engine.result(STARTPOS) is None
    assert engine.result(WHITE_WINS_IN_ONE, moves=["19/off"]) == "p1win"
    assert engine.legal_moves(WHITE_WINS_IN_ONE, moves=["19/off"]) == []


def test_errors_carry_the_engines_code_and_message(engine: Engine) -> None:
    with pytest.raises(EngineError) as illegal:
        engine.play_move(STARTPOS, "bar/1", moves=["bar/1"])
    assert illegal.value.code == "illegal_move"
    assert "point 1 is occupied" in illegal.value.message
    with pytest.raises(EngineError) as bad:
        engine.result("....../ w")
    assert bad.value.code == "bad_position"
    with pytest.raises(EngineError) as option:
        engine.configure({"Checkers": 5})
    assert option.value.code == "bad_option" and '"5"' in option.value.message
    with pytest.raises(EngineError) as unknown:
        engine.configure({"Colour": 1})
    assert unknown.value.code == "bad_option"
    # The session goes on after each.
    assert engine.fen(STARTPOS) == grasshopper.startpos(4)


def test_a_failed_position_does_not_search_the_old_one(engine: Engine) -> None:
    with pytest.raises(EngineError) as error:
        engine.play(STARTPOS, Limit(depth=2), moves=["bar/7"])
    assert error.value.code == "illegal_move"


def test_managed_options_and_empty_limits_are_refused(engine: Engine) -> None:
    with pytest.raises(ValueError, match="analyse"):
        engine.configure({"MultiPV": 3})
    with pytest.raises(ValueError, match="Limit"):
        engine.play(STARTPOS, Limit())


def test_string_options_clear_with_none(engine: Engine) -> None:
    engine.configure({"TablePath": None})
    with pytest.raises(EngineError) as error:
        engine.configure({"TablePath": "no/such/tables"})
    assert error.value.code == "bad_option"


def test_uci_clocks_in_seconds(engine: Engine) -> None:
    result = engine.play(STARTPOS, Limit(p1time=0.5, p2time=0.5, p1inc=0.01, p2inc=0.01))
    assert result.move in engine.legal_moves(STARTPOS)
    assert Limit(movetime=0.25, depth=3).go() == "go movetime 250 depth 3"


def test_a_line_break_cannot_smuggle_in_a_command(engine: Engine) -> None:
    with pytest.raises(ValueError, match="line break"):
        engine.is_legal(STARTPOS, "bar/1\nquit")
    with pytest.raises(ValueError, match="line break"):
        engine.configure({"Hash": "16\nquit"})
    assert engine.legal_moves(STARTPOS, moves=["bar/1"])[0] == "bar/2"


def test_on_info_sees_every_info_line_as_it_comes(engine: Engine) -> None:
    seen: list = []
    last = engine.analyse(STARTPOS, Limit(depth=5), on_info=seen.append)
    assert [info["depth"] for info in seen] == [1, 2, 3, 4, 5]
    assert seen[-1] == last
    played: list = []
    result = engine.play(STARTPOS, Limit(depth=3), on_info=played.append)
    assert played[-1] == result.info and len(played) == 3
