# Run by `backgammon errors` inside GNU Backgammon (gnubg -t -q -p): per line
# of Position IDs in the file named by BG_IDS (the positions after each legal
# move, opponent on roll) it writes to the file named by BG_OUT the mover's
# cubeless equity of each at 0-ply and at BG_PLIES plies, "v0 vN" pairs
# separated by commas.
import gnubg, os
ci = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)
ctx = [gnubg.evalcontext(0, 0, 0, 1, 0.0), gnubg.evalcontext(0, int(os.environ["BG_PLIES"]), 0, 1, 0.0)]
out = open(os.environ["BG_OUT"], "w")
for line in open(os.environ["BG_IDS"]):
    vals = []
    for pid in line.split():
        b = gnubg.positionfromid(pid)
        vals.append(" ".join("%.6f" % -gnubg.evaluate(b, ci, c)[5] for c in ctx))
    out.write(",".join(vals) + "\n")
out.close()
