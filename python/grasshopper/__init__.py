"""Drive the grasshopper engine from Python: UGI for Grasshopper, UBGI for
backgammon, sync and asyncio (see :mod:`grasshopper.engine`), and
:func:`match` for one game between two engines."""

from __future__ import annotations

from ._core import EngineError, EngineTerminated, EngineTimeout
from ._match import BACKGAMMON_START, GameRecord, match
from ._ubgi import BackgammonResult
from ._ugi import STARTPOS, Limit, Score, startpos
from . import engine

__version__ = "0.1.0"

__all__ = [
    "BACKGAMMON_START",
    "STARTPOS",
    "BackgammonResult",
    "EngineError",
    "EngineTerminated",
    "EngineTimeout",
    "GameRecord",
    "Limit",
    "Score",
    "engine",
    "match",
    "startpos",
]
