# Run by `backgammon rollout-check` inside GNU Backgammon (gnubg -t -q -p):
# for each Position ID (player on roll) in the file named by BG_IDS it
# writes gnubg's class of the position (its ClassifyPosition number: 8 race,
# 9 crashed, 10 contact, lower for bear-offs and finished games), one a
# line, to the file named by BG_OUT.
import gnubg, os
out = open(os.environ["BG_OUT"], "w")
for line in open(os.environ["BG_IDS"]):
    out.write("%d\n" % gnubg.classifypos(gnubg.positionfromid(line.strip())))
out.close()
