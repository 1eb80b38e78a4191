"""Engines as Python objects: UGI (:class:`Engine`) and UBGI
(:class:`BackgammonEngine`), each in a sync and an asyncio flavour.

Both flavours run the same protocol core (``_ugi``/``_ubgi``: generators
that say what to send and what to read); only the drivers below, which move
the lines through pipes, differ. Every call has a timeout: a call whose
answer does not come in time raises :class:`EngineTimeout` (the engine is
stopped and kept if it answers ``isready``, else killed), and an engine that
exits raises :class:`EngineTerminated` at once, never a hang.
"""

from __future__ import annotations

import asyncio
import os
import queue
import subprocess
import threading
import time
from typing import (
    IO,
    Any,
    Dict,
    List,
    Mapping,
    Optional,
    Sequence,
    TypeVar,
    Union,
    overload,
)

from ._core import (
    EngineError,
    EngineTerminated,
    EngineTimeout,
    Op,
    Send,
    ready,
    recover,
)
from ._ubgi import BackgammonResult, Dice, Key, KeyValue, UbgiCore
from ._ugi import (
    STARTPOS,
    ConfigValue,
    InfoCallback,
    InfoDict,
    Limit,
    Option,
    Options,
    PlayResult,
    Score,
    UgiCore,
)

Command = Union[str, "os.PathLike[str]", Sequence[str]]
"""A program to start: a path, or an argument list."""

Stderr = Union[None, int, IO[Any]]
"""Where the engine's standard error goes: None (this process's), a file,
or ``subprocess.DEVNULL``."""

DEFAULT_TIMEOUT = 30.0
"""Seconds any call may wait for its answer, beyond its search limit."""

RECOVERY_TIMEOUT = 5.0
"""Seconds a timed-out engine gets to answer ``stop`` and ``isready``."""

_T = TypeVar("_T")
_D = TypeVar("_D", bound="_SyncDriver")
_A = TypeVar("_A", bound="_AsyncDriver")


class _Expired(Exception):
    """A deadline passed while reading (internal)."""


def _argv(command: Command) -> List[str]:
    if isinstance(command, (str, os.PathLike)):
        return [os.fspath(command)]
    return [os.fspath(word) for word in command]


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "replace").rstrip("\r\n")


class _SyncDriver:
    """Runs core operations over a child process's pipes, blocking."""

    def __init__(self, argv: List[str], timeout: float, stderr: Stderr, **kw: Any):
        self.timeout = timeout
        self._process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, **kw
        )
        self._lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self._lock = threading.RLock()
        self._dead: Optional[str] = None
        self._stale = False
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self._process.stdout is not None
        for raw in self._process.stdout:
            self._lines.put(_decode(raw))
        self._lines.put(None)

    @property
    def pid(self) -> int:
        """The engine's process id."""
        return self._process.pid

    def _terminated(self, why: str) -> EngineTerminated:
        if self._dead is None:
            try:
                status = self._process.wait(1.0)
                self._dead = f"{why} (exit status {status})"
            except subprocess.TimeoutExpired:
                self._dead = why
        return EngineTerminated(self._dead)

    def _send(self, text: str) -> None:
        assert self._process.stdin is not None
        try:
            self._process.stdin.write((text + "\n").encode())
            self._process.stdin.flush()
        except (OSError, ValueError):
            raise self._terminated("the engine's input is closed") from None

    def _recv(self, deadline: float) -> str:
        remaining = deadline - time.monotonic()
        try:
            line = self._lines.get(timeout=max(0.0, remaining))
        except queue.Empty:
            raise _Expired from None
        if line is None:
            raise self._terminated("the engine has exited")
        return line

    def _drive(self, op: Op[_T], deadline: float) -> _T:
        reply: Optional[str] = None
        try:
            while True:
                request = op.send(reply)
                if isinstance(request, Send):
                    self._send(request.text)
                    reply = None
                else:
                    reply = self._recv(deadline)
        except StopIteration as done:
            value: _T = done.value
            return value
        finally:
            op.close()

    def _run(self, what: str, op: Op[_T], timeout: Optional[float], extra: float = 0.0) -> _T:
        seconds = (self.timeout if timeout is None else timeout) + extra
        with self._lock:
            if self._dead is not None:
                op.close()
                raise EngineTerminated(self._dead)
            if self._stale and not self._resync():
                op.close()
                raise EngineTerminated(self._dead or "the engine was killed")
            try:
                return self._drive(op, time.monotonic() + seconds)
            except _Expired:
                kept = "stopped" if self._resync() else "killed"
                raise EngineTimeout(
                    f"{what}: no answer within {seconds:.3g} s (the engine was {kept})"
                ) from None
            except EngineError as error:
                self._stale = error.code == "protocol"
                raise
            except BaseException:
                # Interrupted mid-call: answers may still be on their way.
                self._stale = True
                raise

    def _resync(self) -> bool:
        """Ends any search and reads up to ``readyok``; kills an engine that
        does not answer within RECOVERY_TIMEOUT. True when it answered."""
        self._stale = False
        try:
            self._drive(recover(), time.monotonic() + RECOVERY_TIMEOUT)
            return True
        except (_Expired, EngineTerminated):
            self.kill()
            return False

    def _handshake(self: _D, core: Any) -> _D:
        """Takes ``core`` as this engine's protocol state and runs its
        handshake; a failed handshake kills the process."""
        self._core = core
        try:
            self._run("handshake", core.handshake(), None)
        except BaseException:
            self.kill()
            raise
        return self

    def ping(self, *, timeout: Optional[float] = None) -> None:
        """``isready`` until ``readyok``: the engine is alive and idle."""
        self._run("ping", ready(), timeout)

    def kill(self) -> None:
        """Kills the engine process at once (also from another thread,
        while a call waits: that call raises EngineTerminated)."""
        self._end()
        self._dead = self._dead or "the engine was killed"

    def _end(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()

    def quit(self, timeout: float = RECOVERY_TIMEOUT) -> None:
        """Sends ``quit`` and waits for the process to exit (killing it
        after ``timeout`` seconds). Later calls raise EngineTerminated."""
        with self._lock:
            if self._dead is None:
                try:
                    self._send("quit")
                    self._process.wait(timeout)
                except (EngineTerminated, subprocess.TimeoutExpired):
                    pass
            self._end()
            self._dead = self._dead or "the engine was quit"
            for pipe in (self._process.stdin, self._process.stdout):
                if pipe is not None:
                    try:
                        pipe.close()
                    except OSError:
                        pass

    close = quit

    def __enter__(self: _T) -> _T:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()


class _AsyncDriver:
    """Runs core operations over a child process's pipes, with asyncio."""

    _process: asyncio.subprocess.Process

    async def _start(self, argv: List[str], timeout: float, stderr: Stderr, **kw: Any) -> None:
        self.timeout = timeout
        self._process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
            limit=1 << 20,
            **kw,
        )
        self._lock = asyncio.Lock()
        self._dead: Optional[str] = None
        self._stale = False

    @property
    def pid(self) -> int:
        """The engine's process id."""
        return self._process.pid

    async def _terminated(self, why: str) -> EngineTerminated:
        if self._dead is None:
            try:
                status = await asyncio.wait_for(self._process.wait(), 1.0)
                self._dead = f"{why} (exit status {status})"
            except asyncio.TimeoutError:
                self._dead = why
        return EngineTerminated(self._dead)

    async def _send(self, text: str) -> None:
        assert self._process.stdin is not None
        try:
            self._process.stdin.write((text + "\n").encode())
            await self._process.stdin.drain()
        except (OSError, ValueError, RuntimeError):
            raise await self._terminated("the engine's input is closed") from None

    async def _recv(self, deadline: float) -> str:
        assert self._process.stdout is not None
        remaining = max(0.0, deadline - time.monotonic())
        try:
            raw = await asyncio.wait_for(self._process.stdout.readline(), remaining)
        except asyncio.TimeoutError:
            raise _Expired from None
        except ValueError:
            raise EngineError("protocol", "a line longer than 1 MiB") from None
        if not raw:
            raise await self._terminated("the engine has exited")
        return _decode(raw)

    async def _drive(self, op: Op[_T], deadline: float) -> _T:
        reply: Optional[str] = None
        try:
            while True:
                request = op.send(reply)
                if isinstance(request, Send):
                    await self._send(request.text)
                    reply = None
                else:
                    reply = await self._recv(deadline)
        except StopIteration as done:
            value: _T = done.value
            return value
        finally:
            op.close()

    async def _run(self, what: str, op: Op[_T], timeout: Optional[float], extra: float = 0.0) -> _T:
        seconds = (self.timeout if timeout is None else timeout) + extra
        async with self._lock:
            if self._dead is not None:
                op.close()
                raise EngineTerminated(self._dead)
            if self._stale and not await self._resync():
                op.close()
                raise EngineTerminated(self._dead or "the engine was killed")
            try:
                return await self._drive(op, time.monotonic() + seconds)
            except _Expired:
                kept = "stopped" if await self._resync() else "killed"
                raise EngineTimeout(
                    f"{what}: no answer within {seconds:.3g} s (the engine was {kept})"
                ) from None
            except EngineError as error:
                self._stale = error.code == "protocol"
                raise
            except BaseException:
                # Cancelled mid-call: answers may still be on their way.
                self._stale = True
                raise

    async def _resync(self) -> bool:
        """See :meth:`_SyncDriver._resync`."""
        self._stale = False
        try:
            await self._drive(recover(), time.monotonic() + RECOVERY_TIMEOUT)
            return True
        except (_Expired, EngineTerminated):
            await self.kill()
            return False

    async def _handshake(self: _A, core: Any) -> _A:
        """See :meth:`_SyncDriver._handshake`."""
        self._core = core
        try:
            await self._run("handshake", core.handshake(), None)
        except BaseException:
            await self.kill()
            raise
        return self

    async def ping(self, *, timeout: Optional[float] = None) -> None:
        """``isready`` until ``readyok``: the engine is alive and idle."""
        await self._run("ping", ready(), timeout)

    async def kill(self) -> None:
        """Kills the engine process at once."""
        await self._end()
        self._dead = self._dead or "the engine was killed"

    async def _end(self) -> None:
        if self._process.returncode is None:
            self._process.kill()
        await self._process.wait()

    async def quit(self, timeout: float = RECOVERY_TIMEOUT) -> None:
        """Sends ``quit`` and waits for the process to exit (killing it
        after ``timeout`` seconds). Later calls raise EngineTerminated."""
        async with self._lock:
            if self._dead is None:
                try:
                    await self._send("quit")
                    await asyncio.wait_for(self._process.wait(), timeout)
                except (EngineTerminated, asyncio.TimeoutError):
                    pass
            await self._end()
            self._dead = self._dead or "the engine was quit"

    close = quit

    async def __aenter__(self: _T) -> _T:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.quit()


class _UgiState:
    _core: UgiCore

    @property
    def id(self) -> Dict[str, str]:
        """The ``id`` lines: ``{"name": ..., "author": ...}``."""
        return self._core.id

    @property
    def options(self) -> Options:
        """The declared options (names match without regard to case or spaces)."""
        return self._core.options


class Engine(_SyncDriver, _UgiState):
    """A Grasshopper engine speaking UGI (sync). Make one with :meth:`popen`.

    Positions are protocol position strings, or :data:`STARTPOS` for the
    start position of the engine's ``Checkers`` option; ``moves`` (a list in
    move notation) are played from it first.
    """

    @classmethod
    def popen(
        cls,
        command: Command,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        stderr: Stderr = None,
        **popen_args: Any,
    ) -> "Engine":
        """Starts ``command`` (a path or an argument list) and runs the
        handshake. ``timeout`` is the default of every call, in seconds;
        ``popen_args`` go to :class:`subprocess.Popen` (``env``, ``cwd``)."""
        return cls(_argv(command), timeout, stderr, **popen_args)._handshake(UgiCore())

    def configure(
        self, options: Mapping[str, ConfigValue], *, timeout: Optional[float] = None
    ) -> None:
        """Sets options (``{"Checkers": 4, "Hash": 64}``); ``None`` or ``""``
        clears a string option. MultiPV and Ponder are set per call."""
        self._run("configure", self._core.configure(options), timeout)

    def play(
        self,
        position: str,
        limit: Limit,
        *,
        moves: Sequence[str] = (),
        ponder: bool = False,
        on_info: Optional[InfoCallback] = None,
        timeout: Optional[float] = None,
    ) -> PlayResult:
        """The engine's move (``None`` when the game is over); with
        ``ponder=True`` also the reply it expects; ``on_info`` is called
        with every info line as it comes. The timeout is added to the
        limit's own time."""
        op = self._core.play(position, limit, moves, ponder, on_info)
        return self._run("play", op, timeout, limit.budget())

    @overload
    def analyse(
        self,
        position: str,
        limit: Limit,
        *,
        multipv: None = None,
        moves: Sequence[str] = (),
        on_info: Optional[InfoCallback] = None,
        timeout: Optional[float] = None,
    ) -> InfoDict: ...

    @overload
    def analyse(
        self,
        position: str,
        limit: Limit,
        *,
        multipv: int,
        moves: Sequence[str] = (),
        on_info: Optional[InfoCallback] = None,
        timeout: Optional[float] = None,
    ) -> List[InfoDict]: ...

    def analyse(
        self,
        position: str,
        limit: Limit,
        *,
        multipv: Optional[int] = None,
        moves: Sequence[str] = (),
        on_info: Optional[InfoCallback] = None,
        timeout: Optional[float] = None,
    ) -> Union[InfoDict, List[InfoDict]]:
        """The search's last info: one InfoDict, or with ``multipv=k`` a list
        of the k best lines, best first (fewer when fewer moves are legal).
        ``on_info`` is called with every info line as it comes."""
        op = self._core.analyse(position, limit, moves, multipv or 1, on_info)
        lines: List[InfoDict] = self._run("analyse", op, timeout, limit.budget())
        if multipv is None:
            return lines[0] if lines else InfoDict()
        return lines

    def legal_moves(
        self, position: str, *, moves: Sequence[str] = (), timeout: Optional[float] = None
    ) -> List[str]:
        """Every legal move (``[]`` when the game is over)."""
        return self._run("legal_moves", self._core.legal_moves(position, moves), timeout)

    def is_legal(
        self,
        position: str,
        move: str,
        *,
        moves: Sequence[str] = (),
        timeout: Optional[float] = None,
    ) -> bool:
        """Whether ``move`` is legal in the position."""
        return self._run("is_legal", self._core.is_legal(position, move, moves), timeout)

    def play_move(
        self,
        position: str,
        move: str,
        *,
        moves: Sequence[str] = (),
        timeout: Optional[float] = None,
    ) -> str:
        """The position string after ``move`` (EngineError ``illegal_move``
        when it is not legal)."""
        return self._run("play_move", self._core.play_move(position, move, moves), timeout)

    def fen(
        self, position: str, *, moves: Sequence[str] = (), timeout: Optional[float] = None
    ) -> str:
        """The position string (``STARTPOS`` spelt out, ``moves`` played)."""
        return self._run("fen", self._core.fen(position, moves), timeout)

    def result(
        self, position: str, *, moves: Sequence[str] = (), timeout: Optional[float] = None
    ) -> Optional[str]:
        """``"p1win"``, ``"p2win"``, ``"draw"``, or None while the game goes on."""
        return self._run("result", self._core.result(position, moves), timeout)

    def new_game(self, *, timeout: Optional[float] = None) -> None:
        """``uginewgame``: forget what earlier searches learnt."""
        self._run("new_game", self._core.new_game(), timeout)


class AsyncEngine(_AsyncDriver, _UgiState):
    """A Grasshopper engine speaking UGI, with asyncio: the methods of
    :class:`Engine`, awaited."""

    @classmethod
    async def popen(
        cls,
        command: Command,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        stderr: Stderr = None,
        **popen_args: Any,
    ) -> "AsyncEngine":
        """Starts ``command`` and runs the handshake (see :meth:`Engine.popen`)."""
        engine = cls()
        await engine._start(_argv(command), timeout, stderr, **popen_args)
        return await engine._handshake(UgiCore())

    async def configure(
        self, options: Mapping[str, ConfigValue], *, timeout: Optional[float] = None
    ) -> None:
        """See :meth:`Engine.configure`."""
        await self._run("configure", self._core.configure(options), timeout)

    async def play(
        self,
        position: str,
        limit: Limit,
        *,
        moves: Sequence[str] = (),
        ponder: bool = False,
        on_info: Optional[InfoCallback] = None,
        timeout: Optional[float] = None,
    ) -> PlayResult:
        """See :meth:`Engine.play`."""
        op = self._core.play(position, limit, moves, ponder, on_info)
        return await self._run("play", op, timeout, limit.budget())

    @overload
    async def analyse(
        self,
        position: str,
        limit: Limit,
        *,
        multipv: None = None,
        moves: Sequence[str] = (),
        on_info: Optional[InfoCallback] = None,
        timeout: Optional[float] = None,
    ) -> InfoDict: ...

    @overload
    async def analyse(
        self,
        position: str,
        limit: Limit,
        *,
        multipv: int,
        moves: Sequence[str] = (),
        on_info: Optional[InfoCallback] = None,
        timeout: Optional[float] = None,
    ) -> List[InfoDict]: ...

    async def analyse(
        self,
        position: str,
        limit: Limit,
        *,
        multipv: Optional[int] = None,
        moves: Sequence[str] = (),
        on_info: Optional[InfoCallback] = None,
        timeout: Optional[float] = None,
    ) -> Union[InfoDict, List[InfoDict]]:
        """See :meth:`Engine.analyse`."""
        op = self._core.analyse(position, limit, moves, multipv or 1, on_info)
        lines: List[InfoDict] = await self._run("analyse", op, timeout, limit.budget())
        if multipv is None:
            return lines[0] if lines else InfoDict()
        return lines

    async def legal_moves(
        self, position: str, *, moves: Sequence[str] = (), timeout: Optional[float] = None
    ) -> List[str]:
        """See :meth:`Engine.legal_moves`."""
        return await self._run("legal_moves", self._core.legal_moves(position, moves), timeout)

    async def is_legal(
        self,
        position: str,
        move: str,
        *,
        moves: Sequence[str] = (),
        timeout: Optional[float] = None,
    ) -> bool:
        """See :meth:`Engine.is_legal`."""
        return await self._run("is_legal", self._core.is_legal(position, move, moves), timeout)

    async def play_move(
        self,
        position: str,
        move: str,
        *,
        moves: Sequence[str] = (),
        timeout: Optional[float] = None,
    ) -> str:
        """See :meth:`Engine.play_move`."""
        return await self._run("play_move", self._core.play_move(position, move, moves), timeout)

    async def fen(
        self, position: str, *, moves: Sequence[str] = (), timeout: Optional[float] = None
    ) -> str:
        """See :meth:`Engine.fen`."""
        return await self._run("fen", self._core.fen(position, moves), timeout)

    async def result(
        self, position: str, *, moves: Sequence[str] = (), timeout: Optional[float] = None
    ) -> Optional[str]:
        """See :meth:`Engine.result`."""
        return await self._run("result", self._core.result(position, moves), timeout)

    async def new_game(self, *, timeout: Optional[float] = None) -> None:
        """See :meth:`Engine.new_game`."""
        await self._run("new_game", self._core.new_game(), timeout)


class _UbgiState:
    _core: UbgiCore

    @property
    def id(self) -> Dict[str, str]:
        """The ``id`` lines: ``{"name": ..., "author": ...}``."""
        return self._core.id

    @property
    def options(self) -> Dict[str, Key]:
        """The declared keys by name (``engine.ply``, ``game.jacoby``...)."""
        return self._core.keys


class BackgammonEngine(_SyncDriver, _UbgiState):
    """A backgammon engine speaking UBGI (sync). Make one with :meth:`popen`.

    Positions are GNU Backgammon Position IDs (``4HPwATDgc/ABMA``), with
    ``:<MatchID>`` for the cube, score and match context, or XGIDs. Moves are
    in GNU Backgammon's notation (``8/5 6/5``).
    """

    @classmethod
    def popen(
        cls,
        command: Command,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        stderr: Stderr = None,
        **popen_args: Any,
    ) -> "BackgammonEngine":
        """Starts ``command`` and runs the handshake (``ubgi``, then
        ``isready``, which may build the engine's tables)."""
        return cls(_argv(command), timeout, stderr, **popen_args)._handshake(UbgiCore())

    def configure(self, keys: Mapping[str, KeyValue], *, timeout: Optional[float] = None) -> None:
        """Sets keys: ``{"engine.ply": 2, "game.jacoby": False}``."""
        self._run("configure", self._core.configure(keys), timeout)

    def get(self, key: str, *, timeout: Optional[float] = None) -> str:
        """The current value of a key, as the engine writes it."""
        return self._run("get", self._core.get(key), timeout)

    def new_game(self, *, timeout: Optional[float] = None) -> None:
        """``newgame``."""
        self._run("new_game", self._core.new_game(), timeout)

    def play(
        self, position: str, dice: Optional[Dice] = None, *, timeout: Optional[float] = None
    ) -> str:
        """The checker play for ``dice`` (or the dice in the position), in
        GNU Backgammon's notation; ``"pass"`` when nothing is legal."""
        return self._run("play", self._core.play(position, dice), timeout)

    def cube(self, position: str, *, timeout: Optional[float] = None) -> bool:
        """True when the player on roll doubles (before the roll)."""
        return self._run("cube", self._core.cube(position), timeout)

    def take(self, position: str, *, timeout: Optional[float] = None) -> bool:
        """True when the opponent of the player on roll takes a double."""
        return self._run("take", self._core.take(position), timeout)

    def legal_moves(
        self, position: str, dice: Optional[Dice] = None, *, timeout: Optional[float] = None
    ) -> List[str]:
        """Every legal play for the dice, one per resulting position."""
        return self._run("legal_moves", self._core.legal_moves(position, dice), timeout)

    def is_legal(
        self,
        position: str,
        move: str,
        dice: Optional[Dice] = None,
        *,
        timeout: Optional[float] = None,
    ) -> bool:
        """Whether ``move`` (any notation GNU Backgammon reads) is legal."""
        return self._run("is_legal", self._core.is_legal(position, dice, move), timeout)

    def play_move(
        self,
        position: str,
        move: str,
        dice: Optional[Dice] = None,
        *,
        timeout: Optional[float] = None,
    ) -> str:
        """The ``PositionID:MatchID`` after the move, the opponent on roll."""
        return self._run("play_move", self._core.play_move(position, dice, move), timeout)

    def result(
        self, position: str, *, timeout: Optional[float] = None
    ) -> Optional[BackgammonResult]:
        """The finished game's winner, kind and points, or None."""
        return self._run("result", self._core.result(position), timeout)


class AsyncBackgammonEngine(_AsyncDriver, _UbgiState):
    """A backgammon engine speaking UBGI, with asyncio: the methods of
    :class:`BackgammonEngine`, awaited."""

    @classmethod
    async def popen(
        cls,
        command: Command,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        stderr: Stderr = None,
        **popen_args: Any,
    ) -> "AsyncBackgammonEngine":
        """See :meth:`BackgammonEngine.popen`."""
        engine = cls()
        await engine._start(_argv(command), timeout, stderr, **popen_args)
        return await engine._handshake(UbgiCore())

    async def configure(
        self, keys: Mapping[str, KeyValue], *, timeout: Optional[float] = None
    ) -> None:
        """See :meth:`BackgammonEngine.configure`."""
        await self._run("configure", self._core.configure(keys), timeout)

    async def get(self, key: str, *, timeout: Optional[float] = None) -> str:
        """See :meth:`BackgammonEngine.get`."""
        return await self._run("get", self._core.get(key), timeout)

    async def new_game(self, *, timeout: Optional[float] = None) -> None:
        """See :meth:`BackgammonEngine.new_game`."""
        await self._run("new_game", self._core.new_game(), timeout)

    async def play(
        self, position: str, dice: Optional[Dice] = None, *, timeout: Optional[float] = None
    ) -> str:
        """See :meth:`BackgammonEngine.play`."""
        return await self._run("play", self._core.play(position, dice), timeout)

    async def cube(self, position: str, *, timeout: Optional[float] = None) -> bool:
        """See :meth:`BackgammonEngine.cube`."""
        return await self._run("cube", self._core.cube(position), timeout)

    async def take(self, position: str, *, timeout: Optional[float] = None) -> bool:
        """See :meth:`BackgammonEngine.take`."""
        return await self._run("take", self._core.take(position), timeout)

    async def legal_moves(
        self, position: str, dice: Optional[Dice] = None, *, timeout: Optional[float] = None
    ) -> List[str]:
        """See :meth:`BackgammonEngine.legal_moves`."""
        return await self._run("legal_moves", self._core.legal_moves(position, dice), timeout)

    async def is_legal(
        self,
        position: str,
        move: str,
        dice: Optional[Dice] = None,
        *,
        timeout: Optional[float] = None,
    ) -> bool:
        """See :meth:`BackgammonEngine.is_legal`."""
        return await self._run("is_legal", self._core.is_legal(position, dice, move), timeout)

    async def play_move(
        self,
        position: str,
        move: str,
        dice: Optional[Dice] = None,
        *,
        timeout: Optional[float] = None,
    ) -> str:
        """See :meth:`BackgammonEngine.play_move`."""
        return await self._run("play_move", self._core.play_move(position, dice, move), timeout)

    async def result(
        self, position: str, *, timeout: Optional[float] = None
    ) -> Optional[BackgammonResult]:
        """See :meth:`BackgammonEngine.result`."""
        return await self._run("result", self._core.result(position), timeout)


__all__ = [
    "STARTPOS",
    "AsyncBackgammonEngine",
    "AsyncEngine",
    "BackgammonEngine",
    "BackgammonResult",
    "Engine",
    "EngineError",
    "EngineTerminated",
    "EngineTimeout",
    "InfoDict",
    "Key",
    "Limit",
    "Option",
    "Options",
    "PlayResult",
    "Score",
]
