# Plays GNU Backgammon at 0-ply against an external player listening on
# 127.0.0.1:$PORT, $GAMES money games with the cube $CUBE (on/off); the
# external player is gnubg's player $SIDE (default 1, O; 0 is X, the seat
# gnubg's own bot has in a new installation); saves the match to $SGF, loads that file back and
# prints what GNU Backgammon reads in it, one JSON object a line: per game
# {"game", "info"} and per action {"game", "action", "player", "dice",
# "board", "move", "points"} (board: the Position ID before the action,
# seen from the player who acts; move: the steps as [from, to], bar 25,
# off 0). $SEED seeds the dice (default 1). Runs inside GNU Backgammon's Python:
#
#   PORT=7400 GAMES=10 CUBE=on SGF=m.sgf gnubg -t -q -p tools/gnubg-external-play.py 3>&1 >/dev/null
#
# The lines go to file descriptor 3 (GNU Backgammon prints its own output
# on stdout).

import json
import os

import gnubg

out = os.fdopen(3, "w")


def emit(obj):
    out.write(json.dumps(obj, sort_keys=True) + "\n")


try:
    games = int(os.environ.get("GAMES", "10"))
    sgf = os.environ["SGF"]
    for c in (
        "set confirm new off",
        "set confirm save off",
        "set automatic game off",
        "set rng mersenne",
        "set seed %d" % int(os.environ.get("SEED", "1")),
        "set jacoby on",
        # gnubg 1.07 stalls a game when its external player takes a beaver
        # (the turn does not pass back), and our rules have no beavers.
        "set beavers 0",
        "set cube use %s" % os.environ.get("CUBE", "on"),
    ):
        gnubg.command(c)
    ours = int(os.environ.get("SIDE", "1"))
    theirs = 1 - ours
    for c in (
        # Our name first: gnubg refuses a name the other player has.
        "set player %d name grasshopper" % ours,
        "set player %d name gnubg" % theirs,
        "set player %d gnubg" % theirs,
        "set player %d chequerplay evaluation plies 0" % theirs,
        "set player %d cubedecision evaluation plies 0" % theirs,
        "set player %d external 127.0.0.1:%s" % (ours, os.environ["PORT"]),
    ):
        gnubg.command(c)
    # `new session` starts the first game; each `new game` one more.
    gnubg.command("new session")
    for _ in range(games - 1):
        gnubg.command("new game")
    gnubg.command("save match %s" % sgf)
    gnubg.command("load match %s" % sgf)
    m = gnubg.match(0, 1, 0, 0)
    for n, g in enumerate(m["games"] if m else []):
        emit({"game": n + 1, "info": g["info"]})
        for r in g["game"]:
            emit({
                "game": n + 1,
                "action": r.get("action"),
                "player": r.get("player"),
                "dice": list(r["dice"]) if "dice" in r else None,
                "board": r.get("board"),
                "move": [list(s) for s in r["move"]] if "move" in r else None,
                "points": r.get("points"),
            })
finally:
    out.flush()
    os._exit(0)
