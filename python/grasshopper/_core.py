"""The protocol core, without I/O: each operation is a generator.

An operation yields ``Send(text)`` to write lines and ``RECV`` to read one
line (the driver sends the line back in); its return value is the answer.
The sync and the asyncio drivers in :mod:`grasshopper.engine` run the same
operations, so both flavours speak the protocol in exactly one way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generator, List, Optional, TypeVar, Union


class EngineError(Exception):
    """The engine answered a command with an ``error <code> <message>`` line.

    ``code`` is the protocol's error code (UGI: ``unknown_command``,
    ``syntax``, ``bad_position``, ``illegal_move``, ``bad_option``,
    ``busy``; UBGI: ``bad_command``, ``bad_value``, ``bad_state``,
    ``unsupported``); the client also raises it with code ``protocol`` when
    the engine answers something the protocol does not allow.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class EngineTerminated(EngineError):
    """The engine process has exited (or was killed); it answers no more."""

    def __init__(self, message: str) -> None:
        super().__init__("terminated", message)


class EngineTimeout(EngineError, TimeoutError):
    """An answer did not come within the call's timeout.

    The client then sends ``stop`` and ``isready``; if the engine answers
    them it stays usable, otherwise it is killed (and later calls raise
    :class:`EngineTerminated`).
    """

    def __init__(self, message: str) -> None:
        super().__init__("timeout", message)


@dataclass(frozen=True)
class Send:
    """A request to the driver: write these lines (no trailing newline)."""

    text: str


class _Recv:
    def __repr__(self) -> str:
        return "RECV"


RECV = _Recv()
"""A request to the driver: read one line and send it back in."""

Request = Union[Send, _Recv]
T = TypeVar("T")
Op = Generator[Request, Optional[str], T]
"""An operation answering a T."""


def line(*parts: object) -> str:
    """One command line from its parts; a part holding a line break (which
    would smuggle a second command in) is refused with ValueError."""
    text = " ".join(str(part) for part in parts)
    if "\n" in text or "\r" in text:
        raise ValueError(f"{text!r}: a line break inside one command")
    return text


def parse_error(line: str) -> Optional[EngineError]:
    """The EngineError of an ``error <code> <message>`` line, else None."""
    words = line.split(" ", 2)
    if len(words) < 2 or words[0] != "error":
        return None
    return EngineError(words[1], words[2] if len(words) > 2 else "")


def ready() -> Op[None]:
    """``isready`` and every line up to ``readyok``; raises the first
    ``error`` line seen on the way (the answer to a command sent before)."""
    yield Send("isready")
    first: Optional[EngineError] = None
    while True:
        line = yield RECV
        assert line is not None
        if line == "readyok":
            break
        error = parse_error(line)
        if error is not None and first is None:
            first = error
    if first is not None:
        raise first


def answer(prefixes: tuple[str, ...]) -> Op[List[str]]:
    """Reads up to the first line whose first word is one of ``prefixes``
    and returns its words; an ``error`` line in its place is raised."""
    while True:
        line = yield RECV
        assert line is not None
        words = line.split(" ")
        if words[0] in prefixes:
            return words
        error = parse_error(line)
        if error is not None:
            raise error


def ask(command: str, prefix: str) -> Op[List[str]]:
    """Sends one command and returns the words of its answer line."""
    yield Send(command)
    return (yield from answer((prefix,)))


def recover() -> Op[None]:
    """After a timeout: end any search and wait until the engine is idle."""
    yield Send("stop\nisready")
    while (yield RECV) != "readyok":
        pass


def protocol_error(what: str, line: str) -> EngineError:
    return EngineError("protocol", f"{what}, got {line!r}")
