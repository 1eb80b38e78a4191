"""UBGI (backgammon): the vocabulary types and the operations of the core."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ._core import (
    Op,
    Send,
    answer,
    ask,
    line,
    protocol_error,
    ready,
)

Dice = Tuple[int, int]
KeyValue = Union[str, int, bool]


@dataclass(frozen=True)
class Key:
    """A key the engine declared in its ``key ...`` lines.

    ``spec`` is the range or choices (``1..4``, ``net|pubeval|random``) for
    ``int`` and ``enum`` keys; ``minor`` marks a key flagged ``!``.
    """

    name: str
    type: str
    default: str
    spec: Optional[str] = None
    minor: bool = False
    doc: str = ""


def parse_key(line: str) -> Key:
    """A ``key <name> <type> [<spec>] <default> [!] <doc>`` line."""
    words = line.split(" ")
    if len(words) < 4:
        raise protocol_error("key <name> <type> [<spec>] <default> ...", line)
    name, kind = words[1], words[2]
    spec = None
    rest = words[3:]
    if kind in ("int", "enum", "float") and len(rest) > 1:
        spec, rest = rest[0], rest[1:]
    default, rest = rest[0], rest[1:]
    minor = rest[:1] == ["!"]
    if minor:
        rest = rest[1:]
    return Key(name, kind, default, spec, minor, " ".join(rest))


@dataclass(frozen=True)
class BackgammonResult:
    """A finished game: ``winner`` as the Match ID numbers players (0 or 1),
    ``kind`` ``single``, ``gammon`` or ``backgammon``, and the points won
    (the cube and the Jacoby rule counted)."""

    winner: int
    kind: str
    points: int


def position_command(position: str) -> str:
    """``position gnubgid ...`` or, for an XGID, ``position xgid ...``."""
    position = position.strip()
    if position.startswith("XGID=") or position.count(":") >= 3:
        return line("position xgid", position)
    return line("position gnubgid", position)


def key_value(value: KeyValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class UbgiCore:
    """The state of one UBGI session and its operations."""

    def __init__(self) -> None:
        self.id: Dict[str, str] = {}
        self.proto: Optional[str] = None
        self.keys: Dict[str, Key] = {}

    def handshake(self) -> Op[None]:
        yield Send("ubgi")
        while True:
            words = yield from answer(("id", "proto", "key", "ubgiok"))
            if words[0] == "ubgiok":
                break
            if words[0] == "id" and len(words) > 2:
                self.id[words[1]] = " ".join(words[2:])
            elif words[0] == "proto" and len(words) > 1:
                self.proto = words[1]
            elif words[0] == "key":
                key = parse_key(" ".join(words))
                self.keys[key.name] = key
        yield from ready()

    def configure(self, keys: Mapping[str, KeyValue]) -> Op[None]:
        for name, value in keys.items():
            yield Send(line("set", name, key_value(value)))
            yield from ready()

    def get(self, name: str) -> Op[str]:
        words = yield from ask(line("get", name), "value")
        return " ".join(words[2:])

    def new_game(self) -> Op[None]:
        yield Send("newgame")
        yield from ready()

    def _setup(self, position: str, dice: Optional[Dice]) -> Op[None]:
        command = position_command(position)
        if dice is not None:
            command += "\n" + line("dice", *dice)
        yield Send(command)
        yield from ready()

    def play(self, position: str, dice: Optional[Dice]) -> Op[str]:
        yield from self._setup(position, dice)
        words = yield from ask("go chequer", "bestmove")
        return " ".join(words[1:])

    def cube(self, position: str) -> Op[bool]:
        yield from self._setup(position, None)
        words = yield from ask("go cube", "bestcube")
        if words[1:] not in (["double"], ["nodouble"]):
            raise protocol_error("bestcube double|nodouble", " ".join(words))
        return words[1] == "double"

    def take(self, position: str) -> Op[bool]:
        yield from self._setup(position, None)
        words = yield from ask("go take", "besttake")
        if words[1:] not in (["take"], ["drop"]):
            raise protocol_error("besttake take|drop", " ".join(words))
        return words[1] == "take"

    def legal_moves(self, position: str, dice: Optional[Dice]) -> Op[List[str]]:
        yield from self._setup(position, dice)
        words = yield from ask("query moves", "response")
        text = " ".join(words[1:])
        return text.split(" | ") if text else []

    def is_legal(self, position: str, dice: Optional[Dice], move: str) -> Op[bool]:
        yield from self._setup(position, dice)
        words = yield from ask(line("query legal", move), "response")
        return words[1:2] == ["true"]

    def play_move(self, position: str, dice: Optional[Dice], move: str) -> Op[str]:
        yield from self._setup(position, dice)
        yield Send(line("play", move))
        yield from ready()
        words = yield from ask("query position", "response")
        if words[1:2] != ["gnubgid"] or len(words) < 3:
            raise protocol_error("response gnubgid <id> xgid <id>", " ".join(words))
        return words[2]

    def result(self, position: str) -> Op[Optional[BackgammonResult]]:
        yield from self._setup(position, None)
        words = yield from ask("query result", "response")
        return parse_result(words[1:])


def parse_result(words: Sequence[str]) -> Optional[BackgammonResult]:
    """``none`` or ``p<n> single|gammon|backgammon <points>``."""
    if list(words) == ["none"]:
        return None
    try:
        player, kind, points = words
        if player[0] != "p" or kind not in ("single", "gammon", "backgammon"):
            raise ValueError(player)
        return BackgammonResult(int(player[1:]), kind, int(points))
    except (ValueError, IndexError):
        raise protocol_error("response none|p<n> <kind> <points>", " ".join(words)) from None
