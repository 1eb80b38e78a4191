# Run by `backgammon rollout-check` inside GNU Backgammon on a terminal
# (gnubg prints a rollout's results only when its output is a terminal):
# rolls out each Position ID (player on roll, money, cube centred, before
# the roll) of the file named by BG_IDS, cubeless, BG_TRIALS trials, chequer
# play at BG_PLIES (gnubg's counting), seed BG_SEED, quasi-random dice,
# variance reduction when BG_VR is 1, one thread. gnubg prints each
# rollout's table on standard output; the CPU seconds of each rollout go to
# the file named by BG_OUT, one a line.
import gnubg, os, time
plies = os.environ["BG_PLIES"]
for cmd in ["set threads 1",
            "set rollout trials " + os.environ["BG_TRIALS"],
            "set rollout cubeful off",
            "set rollout quasirandom on",
            "set rollout varredn " + ("on" if os.environ["BG_VR"] == "1" else "off"),
            "set rollout seed " + os.environ["BG_SEED"],
            "set rollout chequerplay plies " + plies,
            "set rollout player 0 chequerplay plies " + plies,
            "set rollout player 1 chequerplay plies " + plies,
            "new game",
            "set matchid cAkAAAAAAAAA"]:
    gnubg.command(cmd)
out = open(os.environ["BG_OUT"], "w")
for line in open(os.environ["BG_IDS"]):
    gnubg.command("set board " + line.strip())
    t = time.process_time()
    gnubg.command("rollout")
    out.write("%.3f\n" % (time.process_time() - t))
    out.flush()
out.close()
