# Run by `backgammon cube-errors` inside GNU Backgammon (gnubg -t -q -p): per
# line "<PositionID> <cube> <owner>" of the file named by BG_IDS (player on
# roll before rolling; owner c = centred, m = the player on roll) it writes to
# the file named by BG_OUT the position's class (gnubg's classifypos), its
# 0-ply cubeless chances (win, win gammon, win backgammon, lose gammon, lose
# backgammon) and the cubeful no double / double take / double pass equities
# (money, per cube 1, for the player on roll) at 0-ply and at BG_PLIES plies.
# BG_JACOBY (on/off) sets the Jacoby rule.
import gnubg, os
gnubg.command("set jacoby " + os.environ.get("BG_JACOBY", "on"))
plies = int(os.environ["BG_PLIES"])
zero = gnubg.evalcontext(1, 0, 0, 1, 0.0)
judge = gnubg.evalcontext(1, plies, 0, 1, 0.0)
out = open(os.environ["BG_OUT"], "w")
for line in open(os.environ["BG_IDS"]):
    pid, cube, owner = line.split()
    b = gnubg.positionfromid(pid)
    ci = gnubg.cubeinfo(int(cube), -1 if owner == "c" else 0, 0, 0, (0, 0), 0, 0)
    p = gnubg.evaluate(b, ci, zero)[:5]
    vals = [gnubg.classifypos(b, 0)]
    vals += ["%.6f" % x for x in p]
    for ctx in (zero, judge):
        vals += ["%.6f" % x for x in gnubg.cfevaluate(b, ci, ctx)[1:4]]
    out.write(" ".join(str(v) for v in vals) + "\n")
out.close()
