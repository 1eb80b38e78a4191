"""UGI (Grasshopper): the vocabulary types and the operations of the core."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import (
    Callable,
    Dict,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Set,
    Tuple,
    TypedDict,
    Union,
)

from ._core import (
    RECV,
    Op,
    line,
    Send,
    answer,
    ask,
    parse_error,
    protocol_error,
    ready,
)

STARTPOS = "startpos"
"""The start position for the engine's ``Checkers`` option (14 by default)."""

ConfigValue = Union[str, int, bool, None]


def startpos(checkers: int = 14) -> str:
    """The start position string with ``checkers`` checkers per player."""
    if checkers not in range(2, 15, 2):
        raise ValueError(f"checkers {checkers!r}: expected an even number from 2 to 14")
    return f"....../....../....../...... w {checkers} {checkers} 0-0 -"


@dataclass(frozen=True)
class Score:
    """A search's score, from the point of view of the side to move.

    ``cp``: hundredths of a scored wall (centipawn-like); ``mate``: a proved
    win in that many of the mover's own moves (negative: a proved loss);
    ``proved_draw``: the engine proved the position a draw (``cp`` is 0).
    """

    cp: Optional[int] = None
    mate: Optional[int] = None
    proved_draw: bool = False

    def is_mate(self) -> bool:
        """True for a proved win or loss."""
        return self.mate is not None

    def outcome(self) -> Optional[str]:
        """``"win"``, ``"loss"`` or ``"draw"`` when proved, else None."""
        if self.mate is not None:
            return "win" if self.mate > 0 else "loss"
        return "draw" if self.proved_draw else None

    def score(self, *, mate_score: int = 100_000) -> int:
        """One number: ``cp``, or ``±(mate_score - distance)`` for a mate."""
        if self.mate is not None:
            distance = abs(self.mate)
            return mate_score - distance if self.mate > 0 else -(mate_score - distance)
        return self.cp if self.cp is not None else 0

    def __str__(self) -> str:
        if self.mate is not None:
            return f"mate {self.mate}"
        return "draw" if self.proved_draw else f"cp {self.cp}"


class InfoDict(TypedDict, total=False):
    """One ``info`` line as a mapping (all keys optional, as in python-chess).

    ``time`` is in seconds; ``pv`` is a list of moves; ``string`` is an
    ``info string`` text.
    """

    depth: int
    seldepth: int
    multipv: int
    score: Score
    nodes: int
    nps: int
    hashfull: int
    time: float
    pv: List[str]
    string: str


_INT_FIELDS = ("depth", "seldepth", "multipv", "nodes", "nps", "hashfull")


def parse_info(line: str) -> InfoDict:
    """An ``info ...`` line as an InfoDict.

    Read leniently, as python-chess reads UCI: the fields up to the first
    one it does not know (UCI's ``currmove``, a ``lowerbound``) or cannot
    read are kept, the rest dropped, so an engine's extra fields never end
    a search early.
    """
    words = line.split(" ")
    info: InfoDict = {}
    i = 1
    try:
        while i < len(words):
            key = words[i]
            if key == "string":
                info["string"] = " ".join(words[i + 1 :])
                break
            if key == "pv":
                info["pv"] = words[i + 1 :]
                break
            if key == "score":
                kind, value = words[i + 1], int(words[i + 2])
                if kind == "cp":
                    info["score"] = Score(cp=value)
                elif kind == "mate":
                    info["score"] = Score(mate=value)
                else:
                    raise ValueError(kind)
                i += 3
                continue
            if key == "time":
                info["time"] = int(words[i + 1]) / 1000
            elif key in _INT_FIELDS:
                info[key] = int(words[i + 1])  # type: ignore[literal-required]
            else:
                raise ValueError(key)
            i += 2
    except (ValueError, IndexError):
        pass
    return info


@dataclass(frozen=True)
class Option:
    """An option the engine declared in its ``option name ...`` lines."""

    name: str
    type: str
    default: Union[int, bool, str]
    min: Optional[int] = None
    max: Optional[int] = None


def parse_option(line: str) -> Option:
    """An ``option name <name> type <type> default ...`` line."""
    words = line.split(" ")
    try:
        at_type = words.index("type")
        name = " ".join(words[2:at_type])
        kind = words[at_type + 1]
        rest = words[at_type + 2 :]
        if kind == "spin":
            values = dict(zip(rest[::2], (int(w) for w in rest[1::2])))
            return Option(name, kind, values["default"], values["min"], values["max"])
        if kind == "check":
            return Option(name, kind, rest[1] == "true")
        if kind == "string":
            text = " ".join(rest[1:])
            return Option(name, kind, "" if text == "<empty>" else text)
    except (ValueError, IndexError, KeyError):
        pass
    raise protocol_error("an option line the protocol allows", line)


def _option_key(name: str) -> str:
    return name.replace(" ", "").lower()


class Options(Mapping[str, Option]):
    """The declared options by name; names match without regard to case or
    spaces, as the engine compares them (``"move overhead"`` works)."""

    def __init__(self, options: Sequence[Option] = ()) -> None:
        self._by_key: Dict[str, Option] = {_option_key(o.name): o for o in options}

    def __getitem__(self, name: str) -> Option:
        return self._by_key[_option_key(name)]

    def __iter__(self) -> Iterator[str]:
        return (o.name for o in self._by_key.values())

    def __len__(self) -> int:
        return len(self._by_key)

    def __repr__(self) -> str:
        return f"Options({list(self._by_key.values())!r})"


@dataclass(frozen=True)
class Limit:
    """How long a search may run; times are in seconds (as python-chess's).

    At least one field must be set: a search without a limit would run
    until stopped. ``p1time``/``p2time`` are White's and Black's clocks,
    ``p1inc``/``p2inc`` their increments.
    """

    movetime: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    p1time: Optional[float] = None
    p2time: Optional[float] = None
    p1inc: Optional[float] = None
    p2inc: Optional[float] = None
    movestogo: Optional[int] = None

    def go(self) -> str:
        """The ``go`` command for this limit."""
        words = ["go"]
        for name in ("movetime", "p1time", "p2time", "p1inc", "p2inc"):
            seconds = getattr(self, name)
            if seconds is not None:
                words += [name, str(max(0, round(seconds * 1000)))]
        for name in ("depth", "nodes", "movestogo"):
            value = getattr(self, name)
            if value is not None:
                words += [name, str(value)]
        if len(words) == 1:
            raise ValueError("Limit(): set movetime, depth, nodes or a clock")
        return " ".join(words)

    def budget(self) -> float:
        """Seconds the search may take by its own limits (0 for none)."""
        clocks = [t for t in (self.movetime, self.p1time, self.p2time) if t is not None]
        return max(clocks, default=0.0)


@dataclass
class PlayResult:
    """What ``play`` returns: the move (None for a finished game), the
    expected reply when ``ponder=True`` was asked, and the last info."""

    move: Optional[str]
    ponder: Optional[str] = None
    info: InfoDict = field(default_factory=lambda: InfoDict())


def position_command(position: str, moves: Sequence[str] = ()) -> str:
    """``position startpos|fen <position> [moves ...]``."""
    if position.strip() == STARTPOS:
        words = ["position", "startpos"]
    else:
        words = ["position", "fen", position.strip()]
    if moves:
        words += ["moves", *moves]
    return line(*words)


def config_value(value: ConfigValue) -> str:
    if value is None or value == "":
        return "<empty>"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


InfoCallback = Callable[[InfoDict], None]
"""Called with each ``info`` line of a search as it comes."""


class SearchLines:
    """What one search reported: the last info of each of its lines
    (``multipv`` 1, 2, ...), with proved draws marked."""

    def __init__(self, on_info: Optional[InfoCallback]) -> None:
        self.lines: Dict[int, InfoDict] = {}
        self.last: InfoDict = {}
        self._proved_draw: Set[int] = set()
        self._on_info = on_info

    def add(self, info: InfoDict) -> None:
        if info.get("string", "").endswith("is a proved draw"):
            # Said once per search, after the line it is about; a proved
            # value stays so at greater depths.
            self._proved_draw.add(self.last.get("multipv", 1))
            if self.last.get("score") == Score(cp=0):
                self.last["score"] = Score(cp=0, proved_draw=True)
        elif "score" in info or "pv" in info:
            k = info.get("multipv", 1)
            if k in self._proved_draw and info.get("score") == Score(cp=0):
                info["score"] = Score(cp=0, proved_draw=True)
            self.lines[k] = info
            self.last = info
        if self._on_info is not None:
            self._on_info(info)

    def best_first(self) -> List[InfoDict]:
        return [self.lines[k] for k in sorted(self.lines)]


_MANAGED = {"multipv": "analyse(multipv=...)", "ponder": "play(ponder=True)"}


class UgiCore:
    """The state of one UGI session and its operations."""

    def __init__(self) -> None:
        self.id: Dict[str, str] = {}
        self.options = Options()
        self._sent: Dict[str, str] = {}

    def handshake(self) -> Op[None]:
        yield Send("ugi")
        options = []
        while True:
            words = yield from answer(("id", "option", "ugiok"))
            if words[0] == "ugiok":
                break
            line = " ".join(words)
            if words[0] == "id" and len(words) > 2:
                self.id[words[1]] = " ".join(words[2:])
            elif words[0] == "option":
                options.append(parse_option(line))
        self.options = Options(options)
        yield from ready()

    def _setoption(self, name: str, value: str) -> Op[None]:
        """Sets an option unless it already holds this value."""
        key = _option_key(name)
        if self._sent.get(key) == value:
            return
        yield Send(line("setoption name", name, "value", value))
        yield from ready()
        self._sent[key] = value

    def configure(self, options: Mapping[str, ConfigValue]) -> Op[None]:
        for name, value in options.items():
            if _option_key(name) in _MANAGED:
                raise ValueError(f"{name} is set by {_MANAGED[_option_key(name)]}")
            yield from self._setoption(name, config_value(value))

    def _position(self, position: str, moves: Sequence[str]) -> Op[None]:
        yield Send(position_command(position, moves))
        yield from ready()

    def _search(
        self,
        position: str,
        moves: Sequence[str],
        limit: Limit,
        multipv: int,
        ponder: bool,
        on_info: Optional[InfoCallback],
    ) -> Op[Tuple[List[str], SearchLines]]:
        """Runs one search; returns the bestmove line's words and its info."""
        go = limit.go()
        yield from self._setoption("MultiPV", str(multipv))
        yield from self._setoption("Ponder", config_value(ponder))
        yield from self._position(position, moves)
        yield Send(go)
        search = SearchLines(on_info)
        while True:
            text = yield RECV
            assert text is not None
            if text.startswith("bestmove"):
                return text.split(" "), search
            if text.startswith("info "):
                search.add(parse_info(text))
                continue
            error = parse_error(text)
            if error is not None:
                raise error

    def play(
        self,
        position: str,
        limit: Limit,
        moves: Sequence[str],
        ponder: bool,
        on_info: Optional[InfoCallback] = None,
    ) -> Op[PlayResult]:
        words, search = yield from self._search(position, moves, limit, 1, ponder, on_info)
        if len(words) not in (2, 4):
            raise protocol_error("bestmove <move> [ponder <move>]", " ".join(words))
        move = None if words[1] == "(none)" else words[1]
        reply = words[3] if len(words) == 4 and words[2] == "ponder" else None
        return PlayResult(move, reply, search.last)

    def analyse(
        self,
        position: str,
        limit: Limit,
        moves: Sequence[str],
        multipv: int,
        on_info: Optional[InfoCallback] = None,
    ) -> Op[List[InfoDict]]:
        if multipv < 1:
            raise ValueError(f"multipv {multipv}: expected at least 1")
        _, search = yield from self._search(position, moves, limit, multipv, False, on_info)
        return search.best_first()

    def query(self, position: str, moves: Sequence[str], question: str) -> Op[List[str]]:
        yield from self._position(position, moves)
        return (yield from ask(line("query", question), "response"))[1:]

    def legal_moves(self, position: str, moves: Sequence[str]) -> Op[List[str]]:
        return (yield from self.query(position, moves, "moves"))

    def is_legal(self, position: str, move: str, moves: Sequence[str]) -> Op[bool]:
        words = yield from self.query(position, moves, f"legal {move}")
        return words[:1] == ["true"]

    def play_move(self, position: str, move: str, moves: Sequence[str]) -> Op[str]:
        words = yield from self.query(position, [*moves, move], "fen")
        return " ".join(words)

    def fen(self, position: str, moves: Sequence[str]) -> Op[str]:
        return " ".join((yield from self.query(position, moves, "fen")))

    def result(self, position: str, moves: Sequence[str]) -> Op[Optional[str]]:
        words = yield from self.query(position, moves, "result")
        if words[:1] not in (["p1win"], ["p2win"], ["draw"], ["none"]):
            raise protocol_error("response p1win|p2win|draw|none", " ".join(words))
        return None if words[0] == "none" else words[0]

    def new_game(self) -> Op[None]:
        yield Send("uginewgame")
        yield from ready()
