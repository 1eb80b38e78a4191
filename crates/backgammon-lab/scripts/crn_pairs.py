"""How much of two sibling rollout runs' pair differences is dice noise.

Given two `rollout-data generate --siblings` files of the same positions,
one on each sibling's own dice and one with --common-dice, compares the
differences between consecutive labels: the mean square of the two runs'
difference of differences against one run's pair variance (from the
standard errors). R = 2: the common dice share nothing; R = 1: their
differences carry no noise.

    python3 crates/backgammon-lab/scripts/crn_pairs.py PLAIN.txt COMMON.txt
"""
import sys
def load(p):
    r=[]
    for l in open(p):
        if l.startswith('#'): continue
        w=l.split(); r.append((w[1], float(w[8]), float(w[9])))
    return r
a=load(sys.argv[1]); b=load(sys.argv[2]); n=min(len(a),len(b))
assert all(a[i][0]==b[i][0] for i in range(n))
num=den=0.0; k=0
for i in range(n-1):
    dp=a[i+1][1]-a[i][1]; dc=b[i+1][1]-b[i][1]
    num+=(dp-dc)**2; den+=a[i+1][2]**2+a[i][2]**2+b[i+1][2]**2+b[i][2]**2; k+=1
# den/2 estimates var(d_plain) = var(d_common without correlation)
print(f"{k} consecutive pairs: mean (d_plain-d_common)^2 = {num/k:.6f}; mean se^2 sum (one run) = {den/2/k:.6f}; ratio R = {num/(den/2):.2f} (2: no gain, 1: differences exact)")
