# Runs inside GNU Backgammon (`gnubg -t -q -p gnubg_driver.py`) for the
# differential test. Jobs are read from $BG_JOBS, one a line; answers are
# written to $BG_ANSWERS (gnubg prints its console output on stdout, so the
# answers go to a file). A script run this way has no __file__.
#
#   M <PositionID> <d1> <d2>  ->  "M <PositionID> <n>" then n lines "<move>\t<PositionID after>"
#   S <jacoby> <cube> <owner> <move> <length> <s0> <s1> <crawford> <turn> <resigned> <doubled> <state> <d0> <d1>
#                             ->  "S <MatchID>" (gnubg.matchid of those cube and position infos)
#   C <command>;<command>;... ->  "C <PositionID:MatchID> <fields>" after running the commands
#   X <XGID>                  ->  "X <PositionID:MatchID>" after `set xgid`
# A job that raises answers "E <job> <error>".
import os
import gnubg

jobs = open(os.environ["BG_JOBS"]).read().splitlines()
out = open(os.environ["BG_ANSWERS"], "w")

gnubg.command("set display off")
gnubg.command("set evaluation chequerplay evaluation plies 0")
gnubg.command("set evaluation chequerplay evaluation prune off")


def after(board, move):
    """The Position ID after `move` (gnubg's own notation), from the mover's side."""
    opp, me = list(board[0]), list(board[1])
    for frm, to in gnubg.parsemove(move):
        me[frm - 1] -= 1
        if to > 0:
            if opp[24 - to] == 1:
                opp[24 - to] = 0
                opp[24] += 1
            me[to - 1] += 1
    return gnubg.positionid((tuple(opp), tuple(me)))


def fields():
    c = gnubg.cubeinfo()
    p = gnubg.posinfo()
    vals = [c["cube"], c["cubeowner"], c["move"], c["matchto"], c["score"][0], c["score"][1],
            c["crawford"], c["jacoby"], p["turn"], p["resigned"], p["doubled"], p["gamestate"],
            p["dice"][0], p["dice"][1]]
    return " ".join(str(v) for v in vals)


money_ready = False
for job in jobs:
    kind, _, rest = job.partition(" ")
    try:
        if kind == "M":
            if not money_ready:
                gnubg.command("new session")
                gnubg.command("set turn 1")
                money_ready = True
            pid, d1, d2 = rest.split()
            gnubg.command("set board " + pid)
            gnubg.command("set dice %s %s" % (d1, d2))
            board = gnubg.board()
            moves = [h["move"] for h in gnubg.hint(5000)["hint"]]
            out.write("M %s %d\n" % (gnubg.positionid(), len(moves)))
            for m in moves:
                out.write("%s\t%s\n" % (m, after(board, m)))
        elif kind == "S":
            v = [int(x) for x in rest.split()]
            gnubg.command("set jacoby " + ("on" if v[0] else "off"))
            ci = gnubg.cubeinfo(v[1], v[2], v[3], v[4], (v[5], v[6]), v[7], 0)
            pi = gnubg.posinfo(v[8], v[9], v[10], v[11], (v[12], v[13]))
            out.write("S %s\n" % gnubg.matchid(ci, pi))
            money_ready = False
        elif kind == "C":
            for c in rest.split(";"):
                gnubg.command(c)
            out.write("C %s %s\n" % (gnubg.gnubgid(), fields()))
            money_ready = False
        elif kind == "X":
            gnubg.command("set xgid " + rest)
            out.write("X %s\n" % gnubg.gnubgid())
            money_ready = False
        else:
            out.write("E %s unknown job\n" % job)
    except Exception as e:  # noqa: BLE001 - every failure is reported back
        out.write("E %s %r\n" % (job, e))
out.close()
