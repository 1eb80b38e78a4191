"""The asyncio flavour: the same core, awaited."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from grasshopper import STARTPOS, EngineError, EngineTerminated, EngineTimeout, Limit
from grasshopper.engine import AsyncBackgammonEngine, AsyncEngine


def test_async_engine_plays_analyses_and_answers_queries(binary: str) -> None:
    async def main() -> None:
        async with await AsyncEngine.popen(binary) as engine:
            await engine.configure({"Checkers": 4})
            await engine.ping()
            result = await engine.play(STARTPOS, Limit(depth=3), ponder=True)
            assert result.move in await engine.legal_moves(STARTPOS)
            assert result.ponder is not None
            lines = await engine.analyse(STARTPOS, Limit(depth=3), multipv=2)
            assert [line["multipv"] for line in lines] == [1, 2]
            assert (
                await engine.play_move(STARTPOS, "bar/1")
                == "w...../....../....../...... b 3 4 0-0 -"
            )
            assert await engine.result(STARTPOS) is None
            with pytest.raises(EngineError) as error:
                await engine.is_legal(STARTPOS, "bar/1", moves=["bar/1", "bar/1"])
            assert error.value.code == "illegal_move"

    asyncio.run(main())


def test_async_backgammon_engine(binary: str) -> None:
    async def main() -> None:
        async with await AsyncBackgammonEngine.popen(binary) as engine:
            await engine.configure({"engine.ply": 1})
            assert await engine.get("engine.ply") == "1"
            assert await engine.play("4HPwATDgc/ABMA", (3, 1)) == "8/5 6/5"
            assert await engine.cube("4HPwATDgc/ABMA") is False
            assert await engine.take("4HPwATDgc/ABMA") is True
            with pytest.raises(EngineError) as error:
                await engine.play("4HPwATDgc/ABMA", (0, 1))
            assert error.value.code == "bad_value"

    asyncio.run(main())


def test_two_engines_search_at_once(binary: str) -> None:
    async def main() -> None:
        engines = await asyncio.gather(*(AsyncEngine.popen(binary) for _ in range(2)))
        try:
            results = await asyncio.gather(*(e.play(STARTPOS, Limit(depth=3)) for e in engines))
            assert all(r.move is not None for r in results)
        finally:
            await asyncio.gather(*(e.quit() for e in engines))

    asyncio.run(main())


def test_async_timeout_keeps_the_engine(binary: str) -> None:
    async def main() -> None:
        async with await AsyncEngine.popen(binary) as engine:
            with pytest.raises(EngineTimeout, match="stopped"):
                await engine.play(STARTPOS, Limit(depth=1000), timeout=0.3)
            assert (await engine.play(STARTPOS, Limit(depth=2))).move is not None

    asyncio.run(main())


def test_async_killed_engine_raises_terminated(binary: str) -> None:
    async def main() -> None:
        async with await AsyncEngine.popen(binary) as engine:
            loop = asyncio.get_running_loop()
            loop.call_later(0.3, os.kill, engine.pid, signal.SIGKILL)
            with pytest.raises(EngineTerminated):
                await engine.play(STARTPOS, Limit(depth=1000), timeout=60)
            with pytest.raises(EngineTerminated):
                await engine.fen(STARTPOS)

    asyncio.run(main())


def test_a_cancelled_call_leaves_the_engine_usable(binary: str) -> None:
    async def main() -> None:
        async with await AsyncEngine.popen(binary) as engine:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(engine.play(STARTPOS, Limit(depth=1000)), 0.3)
            # The abandoned search is stopped and its bestmove read first.
            result = await engine.play(STARTPOS, Limit(depth=2))
            assert result.info["depth"] == 2

    asyncio.run(main())
