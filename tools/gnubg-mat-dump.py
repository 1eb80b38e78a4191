# Imports GNU Backgammon match files and prints what GNU Backgammon made of
# them, one JSON object a line: per game {"file", "game", "info"} and per
# action {"file", "game", "action", "player", "dice", "board", "move"}
# (player X is the file's first column; board is the Position ID before
# the action, seen from the player who acts; move the steps as
# [from, to] with the bar 25 and off 0). Runs inside GNU Backgammon's Python:
#
#   MAT_FILES="a.mat b.mat" gnubg -t -q -p tools/gnubg-mat-dump.py 3>&1 >/dev/null
#
# The lines go to file descriptor 3 (GNU Backgammon prints its own
# output on stdout). A file that does not import prints {"file", "error"}.
# With REEXPORT_SUFFIX=.x set, each imported match is also exported again
# with `export match mat` to the file's name plus that suffix (a file
# GNU Backgammon writes itself, to compare with the one it read).

import json
import os

import gnubg

out = os.fdopen(3, "w")


def emit(obj):
    out.write(json.dumps(obj, sort_keys=True) + "\n")


try:
    for setting in ("new", "save"):
        gnubg.command("set confirm %s off" % setting)
    suffix = os.environ.get("REEXPORT_SUFFIX")
    for path in os.environ.get("MAT_FILES", "").split():
        try:
            gnubg.command("import mat %s" % path)
            m = gnubg.match(0, 1, 0, 0)
        except Exception as e:
            emit({"file": path, "error": "%s: %s" % (type(e).__name__, e)})
            continue
        if not m:
            emit({"file": path, "error": "nothing imported"})
            continue
        emit({"file": path, "match": m["match-info"].get("match-length")})
        if suffix:
            gnubg.command("export match mat %s%s" % (path, suffix))
        for n, g in enumerate(m["games"]):
            emit({"file": path, "game": n + 1, "info": g["info"]})
            for r in g["game"]:
                emit({
                    "file": path,
                    "game": n + 1,
                    "action": r.get("action"),
                    "player": r.get("player"),
                    "dice": list(r["dice"]) if "dice" in r else None,
                    "board": r.get("board"),
                    "move": [list(s) for s in r["move"]] if "move" in r else None,
                })
finally:
    out.flush()
    os._exit(0)
