"""``match``: one game between two engines, refereed by an engine's rules."""

from __future__ import annotations

import dataclasses
import random
import time
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Union, overload

from ._core import EngineError, EngineTerminated, EngineTimeout
from ._ubgi import Dice
from ._ugi import STARTPOS, Limit
from .engine import BackgammonEngine, Engine

BACKGAMMON_START = "4HPwATDgc/ABMA"
"""The backgammon opening position as a GNU Backgammon Position ID."""


@dataclass
class GameRecord:
    """One game: who played, from where, the moves, and how it ended.

    Grasshopper: ``result`` is ``"p1win"`` (White, the first engine),
    ``"p2win"`` or ``"draw"``. Backgammon: ``"p1win"`` when the first engine
    won, ``"p2win"`` when the second did; ``kind`` ``single``, ``gammon`` or
    ``backgammon``, and ``points`` as the referee counts them (a money game
    without a Match ID plays the Jacoby rule unless the key ``game.jacoby``
    is false: gammons count only once the cube is turned, so never here).
    ``termination`` is ``"normal"``, or how the loser failed: ``"illegal
    move"``, ``"time"`` (its clock ran out), ``"timeout"``, ``"terminated"`` (the engine exited) or
    ``"engine error"``; ``reason`` then says more. For backgammon ``moves``
    holds ``"<d1><d2>: <move>"`` per turn.
    """

    white: str
    black: str
    start: str
    moves: List[str] = field(default_factory=list)
    result: str = "draw"
    termination: str = "normal"
    reason: str = ""
    end: str = ""
    points: int = 0
    kind: str = ""

    def winner(self) -> Optional[str]:
        """``"white"``, ``"black"``, or None for a draw."""
        return {"p1win": "white", "p2win": "black"}.get(self.result)

    def __str__(self) -> str:
        how = "" if self.termination == "normal" else f" ({self.termination}: {self.reason})"
        return f"{self.white} - {self.black}: {self.result} after {len(self.moves)} moves{how}"


def _forfeit(record: GameRecord, loser: int, termination: str, reason: str) -> GameRecord:
    record.result = "p2win" if loser == 0 else "p1win"
    record.termination = termination
    record.reason = reason
    return record


def _failure(error: EngineError) -> str:
    if isinstance(error, EngineTimeout):
        return "timeout"
    if isinstance(error, EngineTerminated):
        return "terminated"
    return "engine error"


@overload
def match(
    white: Engine,
    black: Engine,
    limit: Limit,
    *,
    start: str = STARTPOS,
    moves: Sequence[str] = (),
    referee: Optional[Engine] = None,
    timeout: Optional[float] = None,
) -> GameRecord: ...


@overload
def match(
    white: BackgammonEngine,
    black: BackgammonEngine,
    limit: None = None,
    *,
    start: str = BACKGAMMON_START,
    seed: Optional[int] = None,
    referee: Optional[BackgammonEngine] = None,
    timeout: Optional[float] = None,
) -> GameRecord: ...


def match(
    white: Union[Engine, BackgammonEngine],
    black: Union[Engine, BackgammonEngine],
    limit: Optional[Limit] = None,
    *,
    start: Optional[str] = None,
    moves: Sequence[str] = (),
    seed: Optional[int] = None,
    referee: Union[Engine, BackgammonEngine, None] = None,
    timeout: Optional[float] = None,
) -> GameRecord:
    """Plays one game, ``white`` (player 1) moving first, and returns its
    record. ``referee`` (by default ``white``) applies the rules: it checks
    every move and says when the game is over. An engine that plays an
    illegal move, times out, exits or answers an error loses the game.

    Grasshopper engines play with ``limit`` from ``start`` (after
    ``moves``); a limit with clocks (``p1time``, ``p2time``, increments)
    runs them down, and an engine whose clock runs out loses on
    ``"time"``. Backgammon engines play a cubeless money game from
    ``start`` with dice from ``random.Random(seed)``, the opening roll not
    a double.
    """
    if isinstance(white, BackgammonEngine) and isinstance(black, BackgammonEngine):
        judge = referee if isinstance(referee, BackgammonEngine) else white
        return _backgammon(white, black, judge, start or BACKGAMMON_START, seed, timeout)
    if isinstance(white, Engine) and isinstance(black, Engine) and limit is not None:
        judge_ugi = referee if isinstance(referee, Engine) else white
        return _grasshopper(white, black, judge_ugi, limit, start or STARTPOS, moves, timeout)
    raise TypeError("match: two Engines and a Limit, or two BackgammonEngines")


def _name(engine: Union[Engine, BackgammonEngine]) -> str:
    return engine.id.get("name", "engine")


def _grasshopper(
    white: Engine,
    black: Engine,
    referee: Engine,
    limit: Limit,
    start: str,
    moves: Sequence[str],
    timeout: Optional[float],
) -> GameRecord:
    position = referee.fen(start, moves=moves)
    record = GameRecord(_name(white), _name(black), position)
    clocks = _Clocks(limit)
    while True:
        result = referee.result(position)
        if result is not None:
            record.result, record.end = result, position
            return record
        side = 0 if position.split(" ")[1] == "w" else 1
        try:
            started = time.monotonic()
            move = (white, black)[side].play(position, clocks.limit(), timeout=timeout).move
        except EngineError as error:
            return _forfeit(record, side, _failure(error), str(error))
        if not clocks.spend(side, time.monotonic() - started):
            return _forfeit(record, side, "time", f"flag fell at move {len(record.moves) + 1}")
        if move is None or not referee.is_legal(position, move):
            return _forfeit(record, side, "illegal move", f"{move} in {position}")
        position = referee.play_move(position, move)
        record.moves.append(move)


class _Clocks:
    """The players' clocks, when the limit gives them (``p1time``,
    ``p2time``): each move's time, as this process measures it, comes off
    the mover's clock, then the mover's increment goes on."""

    def __init__(self, limit: Limit) -> None:
        self._base = limit
        self._left = [limit.p1time, limit.p2time]
        self._inc = [limit.p1inc or 0.0, limit.p2inc or 0.0]

    def limit(self) -> Limit:
        return dataclasses.replace(self._base, p1time=self._left[0], p2time=self._left[1])

    def spend(self, side: int, seconds: float) -> bool:
        """False when the mover's flag fell."""
        left = self._left[side]
        if left is None:
            return True
        if left < seconds:
            return False
        self._left[side] = left - seconds + self._inc[side]
        return True


def _roll(rng: random.Random, opening: bool) -> Dice:
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if not opening or dice[0] != dice[1]:
            return dice


def _backgammon(
    first: BackgammonEngine,
    second: BackgammonEngine,
    referee: BackgammonEngine,
    start: str,
    seed: Optional[int],
    timeout: Optional[float],
) -> GameRecord:
    rng = random.Random(seed)
    record = GameRecord(_name(first), _name(second), start)
    for engine in {id(e): e for e in (first, second, referee)}.values():
        engine.new_game(timeout=timeout)
    position, side = start, 0
    while True:
        outcome = referee.result(position)
        if outcome is not None:
            # Cubeless and without resignations, a game ends on the move
            # of its winner: the last player to move.
            record.result = "p2win" if side == 0 else "p1win"
            record.points, record.kind, record.end = outcome.points, outcome.kind, position
            return record
        dice = _roll(rng, not record.moves)
        try:
            move = (first, second)[side].play(position, dice, timeout=timeout)
        except EngineError as error:
            return _forfeit(record, side, _failure(error), str(error))
        if not referee.is_legal(position, move, dice):
            return _forfeit(record, side, "illegal move", f"{move} with {dice} in {position}")
        position = referee.play_move(position, move, dice)
        record.moves.append(f"{dice[0]}{dice[1]}: {move}")
        side ^= 1
