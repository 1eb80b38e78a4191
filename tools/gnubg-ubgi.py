# GNU Backgammon as a UBGI engine. Runs inside GNU Backgammon's Python
# (`gnubg -t -q -p tools/gnubg-ubgi.py`); start it with the wrapper
# `tools/gnubg-ubgi`, which hands this script the real stdout as file
# descriptor 3 (GNU Backgammon prints its own console output on stdout
# whatever its settings, so the protocol goes to fd 3, and stdout to
# /dev/null).
#
# Speaks the UBGI dialect of grasshopper's backgammon daemon (protocol.md):
#   ubgi                        -> id lines, key lines, ubgiok
#   isready                     -> readyok
#   newgame                     forgets the position and dice
#   position gnubgid P[:M]      GNU Backgammon Position ID and Match ID
#   dice D1 D2                  the roll to play
#   go [chequer|cube|turn|take] (and v0.1's go role chequer|cube|turn)
#       -> bestmove <steps>|pass, bestcube double|nodouble,
#          bestturn cube=double move=none | cube=nodouble move=<steps>,
#          besttake take|drop
#   set KEY VALUE, setoption name KEY value VALUE, get KEY, keys
#   stop, quit
# Keys: engine.ply (1..3; UBGI counts the root, so 1 = GNU Backgammon's
# 0-ply), engine.noise (evaluation noise, 0 = deterministic), game.jacoby
# (for a Position ID given without a Match ID).
#
# Anything it cannot use gets one `error <code> <message>` line and the
# session goes on; every answer comes at once (evaluations of at most
# 2-ply take milliseconds), so it never hangs. A script run by `gnubg -p`
# has no __file__: nothing here needs its own path.

import base64
import os
import sys

import gnubg

MAX_LINE = 65536
PLY_MAX = 3

# GNU Backgammon's "World Class" is its 2-ply (engine.ply 3 here) with
# pruning and the "Normal" move filter: at each level the best move and up
# to 8 more within 0.16 of it go on. Those are also its defaults under
# `gnubg -t`, but a user's settings file can change the defaults, so every
# evaluation names them (checked: the same moves as the defaults on 150
# positions at 0-, 1- and 2-ply). findbestmove copies the filter it is given
# into gnubg's own hint filter, so it is passed on every call.
PRUNE = 1
NORMAL_FILTER = [
    {"ply": 1, "level": 0, "acceptmoves": 0, "extramoves": 8, "threshold": 0.16},
    {"ply": 2, "level": 0, "acceptmoves": 0, "extramoves": 8, "threshold": 0.16},
    {"ply": 2, "level": 1, "acceptmoves": -1, "extramoves": 0, "threshold": 0.0},
]

OUT = os.fdopen(3, "w", buffering=1)


def say(line):
    OUT.write(line + "\n")
    OUT.flush()


class Error(Exception):
    def __init__(self, code, message):
        Exception.__init__(self, message)
        self.code = code
        self.message = message


def clean(text):
    return "".join(c if " " <= c <= "~" else "?" for c in text)[:200]


KEYS = [
    # name, type text, default, minor, description
    ("engine.ply", "int 1..%d" % PLY_MAX, "1", False,
     "root-inclusive checker-play and cube depth (1 = gnubg 0-ply)"),
    ("engine.noise", "string", "0", False,
     "evaluation noise (gnubg's noise; 0 = deterministic)"),
    ("game.jacoby", "bool", "true", False,
     "Jacoby rule for money positions given without a Match ID"),
]


class Session:
    def __init__(self):
        self.values = dict((k[0], k[2]) for k in KEYS)
        self.board = None
        self.state = None
        self.dice = None
        gnubg.command("set beavers 0")

    # -- keys --------------------------------------------------------------

    def key_lines(self):
        lines = []
        for name, kind, default, minor, doc in KEYS:
            typ = kind if kind != "string" else "string *"
            lines.append("key %s %s %s%s %s" % (
                name, typ, self.values[name], " !" if minor else "", doc))
        return lines

    def set_key(self, name, value):
        if name == "engine.ply":
            try:
                n = int(value)
            except ValueError:
                raise Error("bad_value", "engine.ply %s: expected 1..%d" % (clean(value), PLY_MAX))
            if not 1 <= n <= PLY_MAX:
                raise Error("bad_value", "engine.ply %d: expected 1..%d" % (n, PLY_MAX))
            self.values[name] = str(n)
        elif name == "engine.noise":
            try:
                x = float(value)
            except ValueError:
                x = -1.0
            if not 0.0 <= x <= 1.0:
                raise Error("bad_value", "engine.noise %s: expected 0 to 1" % clean(value))
            self.values[name] = value
        elif name == "game.jacoby":
            if value not in ("true", "false"):
                raise Error("bad_value", "game.jacoby %s: expected true or false" % clean(value))
            self.values[name] = value
        else:
            raise Error("unsupported", "key %s" % clean(name))

    # -- position ----------------------------------------------------------

    def set_position(self, words):
        if len(words) < 1:
            raise Error("bad_command", "position: expected gnubgid <PositionID[:MatchID]>")
        if words[0] == "xgid":
            raise Error("unsupported", "position xgid: this adapter reads gnubgid only")
        if words[0] != "gnubgid" or len(words) != 2:
            raise Error("bad_command", "position: expected gnubgid <PositionID[:MatchID]>")
        text = words[1]
        pid, _, mid = text.partition(":")
        if len(pid) != 14:
            raise Error("bad_value", "position: bad Position ID %s" % clean(pid))
        try:
            board = gnubg.positionfromid(pid)
        except Exception:
            raise Error("bad_value", "position: bad Position ID %s" % clean(pid))
        for side in board:
            if sum(side) > 15:
                raise Error("bad_value", "position: more than 15 checkers in %s" % clean(pid))
        if mid:
            state = decode_match_id(mid)
        else:
            state = {
                "cube": 1, "owner": -1, "move": 0, "crawford": 0, "turn": 0,
                "doubled": 0, "dice": None, "length": 0, "score": (0, 0),
                "jacoby": self.values["game.jacoby"] == "true",
            }
        self.board = board
        self.state = state
        self.dice = state["dice"]

    # -- decisions ---------------------------------------------------------

    def context(self):
        if self.board is None:
            raise Error("bad_state", "missing position")
        if sum(self.board[0]) == 0 or sum(self.board[1]) == 0:
            raise Error("bad_state", "the game is over")
        s = self.state
        gnubg.command("set jacoby %s" % ("on" if s["jacoby"] else "off"))
        ci = gnubg.cubeinfo(s["cube"], s["owner"], s["move"], s["length"],
                            s["score"], s["crawford"], 0)
        noise = float(self.values["engine.noise"])
        ec = {"cubeful": 1, "plies": int(self.values["engine.ply"]) - 1, "prune": PRUNE,
              "deterministic": 0 if noise > 0 else 1, "noise": noise}
        return ci, ec

    def chequer(self):
        ci, ec = self.context()
        if self.dice is None:
            raise Error("bad_state", "missing dice")
        steps = gnubg.findbestmove(self.board, ci, ec, self.dice, NORMAL_FILTER)
        return steps_text(steps)

    def may_double(self):
        s = self.state
        owner_ok = s["owner"] == -1 or s["owner"] == s["move"]
        return owner_ok and not s["crawford"] and s["cube"] < 32768 and not s["doubled"]

    def doubles(self):
        ci, ec = self.context()
        if not self.may_double():
            return False
        cube = gnubg.cfevaluate(self.board, ci, ec)
        nodouble, take, drop = cube[1], cube[2], cube[3]
        return min(take, drop) > nodouble

    def takes(self):
        # The board and cube are the doubler's (the player on roll).
        ci, ec = self.context()
        cube = gnubg.cfevaluate(self.board, ci, ec)
        take, drop = cube[2], cube[3]
        return take <= drop

    def go(self, words):
        if words[:1] == ["role"]:
            words = words[1:]
        what = words[0] if words else "chequer"
        if len(words) > 1 or what not in ("chequer", "cube", "turn", "take"):
            raise Error("bad_command", "go: expected chequer, cube, turn or take")
        if what == "chequer":
            return "bestmove " + self.chequer()
        if what == "cube":
            return "bestcube " + ("double" if self.doubles() else "nodouble")
        if what == "take":
            return "besttake " + ("take" if self.takes() else "drop")
        if self.doubles():
            return "bestturn cube=double move=none"
        return "bestturn cube=nodouble move=" + self.chequer()

    # -- the loop ----------------------------------------------------------

    def handle(self, line):
        words = line.split()
        if not words:
            return True
        cmd, args = words[0], words[1:]
        if cmd == "ubgi":
            say("id name GNU Backgammon %s (UBGI adapter)" % gnubg_version())
            say("id author the GNU Backgammon developers; adapter by the grasshopper developers")
            say("proto 0.2")
            for l in self.key_lines():
                say(l)
            say("ubgiok")
        elif cmd == "isready":
            say("readyok")
        elif cmd == "newgame":
            self.board = self.state = self.dice = None
        elif cmd == "position":
            self.set_position(args)
        elif cmd == "dice":
            if len(args) != 2 or not all(a in "123456" and len(a) == 1 for a in args):
                raise Error("bad_value", "dice: expected two numbers 1-6")
            self.dice = (int(args[0]), int(args[1]))
        elif cmd == "go":
            say(self.go(args))
        elif cmd == "set":
            if len(args) != 2:
                raise Error("bad_command", "set: expected set <key> <value>")
            self.set_key(args[0], args[1])
        elif cmd == "setoption":
            if len(args) < 4 or args[0] != "name" or "value" not in args:
                raise Error("bad_command", "setoption: expected setoption name <key> value <value>")
            at = args.index("value")
            self.set_key(" ".join(args[1:at]), " ".join(args[at + 1:]))
        elif cmd == "get":
            if len(args) != 1 or args[0] not in self.values:
                raise Error("unsupported", "key %s" % clean(" ".join(args)))
            say("value %s %s" % (args[0], self.values[args[0]]))
        elif cmd == "keys":
            for l in self.key_lines():
                say(l)
        elif cmd == "stop":
            pass
        elif cmd == "quit":
            return False
        else:
            raise Error("bad_command", "%s is not a command; expected one of ubgi, isready, "
                        "newgame, position, dice, go, set, setoption, get, keys, stop, quit"
                        % clean(cmd))
        return True


def gnubg_version():
    return "1.07"


def decode_match_id(text):
    if len(text) != 12:
        raise Error("bad_value", "position: bad Match ID %s" % clean(text))
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except Exception:
        raise Error("bad_value", "position: bad Match ID %s" % clean(text))
    bits = int.from_bytes(raw, "little")

    def take(width):
        nonlocal bits
        v = bits & ((1 << width) - 1)
        bits >>= width
        return v

    cube_log2 = take(4)
    owner = take(2)
    move = take(1)
    crawford = take(1)
    game_state = take(3)
    turn = take(1)
    doubled = take(1)
    take(2)  # resignation
    d0, d1 = take(3), take(3)
    length = take(15)
    s0, s1 = take(15), take(15)
    no_jacoby = take(1)
    # As GNU Backgammon and the rules core read it: no such owner or game
    # state, no bits past the last field, no Crawford game in money play.
    if owner == 2 or game_state > 4 or bits != 0 or (length == 0 and crawford):
        raise Error("bad_value", "position: bad Match ID %s" % clean(text))
    dice = None
    if d0 or d1:
        if not (1 <= d0 <= 6 and 1 <= d1 <= 6):
            raise Error("bad_value", "position: bad dice in Match ID %s" % clean(text))
        dice = (d0, d1)
    return {
        "cube": 1 << cube_log2, "owner": -1 if owner == 3 else owner,
        "move": move, "crawford": crawford, "turn": turn, "doubled": doubled,
        "dice": dice, "length": length, "score": (s0, s1),
        "jacoby": length == 0 and not no_jacoby,
    }


def point(n):
    return "bar" if n == 25 else "off" if n == 0 else str(n)


def steps_text(steps):
    """findbestmove's (from, to, ...) 1-based, 25 the bar, 0 off; () when no move."""
    pairs = [(steps[i], steps[i + 1]) for i in range(0, len(steps) - 1, 2)
             if not (steps[i] == 0 and steps[i + 1] == 0)]
    if not pairs:
        return "pass"
    return " ".join("%s/%s" % (point(a), point(b)) for a, b in pairs)


def main():
    session = Session()
    stdin = sys.stdin.buffer
    while True:
        raw = stdin.readline(MAX_LINE + 1)
        if not raw:
            break
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            # Skip the rest of an overlong line.
            while raw and not raw.endswith(b"\n"):
                raw = stdin.readline(MAX_LINE)
            say("error bad_command line longer than %d bytes" % MAX_LINE)
            continue
        line = raw.decode("utf-8", "replace").strip()
        try:
            if not session.handle(line):
                break
        except Error as e:
            say("error %s %s" % (e.code, clean(e.message)))
        except Exception as e:  # never let one line end the session
            say("error bad_value %s" % clean("%s: %s" % (type(e).__name__, e)))


try:
    main()
finally:
    OUT.flush()
    os._exit(0)
