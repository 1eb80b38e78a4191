# Run by `backgammon bench --gnubg` inside GNU Backgammon (gnubg -t -q -p):
# times its 0-ply evaluation of the Position IDs in the file named by BG_IDS
# and prints `gnubg-timing <n> <cpu-s> <cpu-s>` (the evaluations, then the
# cost of as many Python calls to positionid), then gnubg's own `calibrate`
# (static evaluations a second timed inside gnubg, free of the calls' cost).
import gnubg, os, time
gnubg.command("set threads 1")
ids = [l.strip() for l in open(os.environ["BG_IDS"]) if l.strip()]
boards = [gnubg.positionfromid(i) for i in ids]
ec = gnubg.evalcontext(0, 0, 0, 0, 0.0)
ci = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)
t = time.process_time()
for b in boards:
    gnubg.evaluate(b, ci, ec)
t1 = time.process_time() - t
t = time.process_time()
for b in boards:
    gnubg.positionid(b)
t2 = time.process_time() - t
print("gnubg-timing %d %.6f %.6f" % (len(boards), t1, t2))
gnubg.command("calibrate 300")
