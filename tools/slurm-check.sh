#!/usr/bin/env bash
# tools/slurm-check.sh: runs the Slurm scripts of tools/slurm/ on a real
# single-node Slurm cluster on this machine and checks what the docs promise
# of them: match.sbatch (docs/match-runner.md, "Many machines: shards") and
# retro-level.sbatch (docs/solver.md, "On a cluster"). Exit 0 only when every
# check passes.
#
#   bash tools/slurm-check.sh
#
# Needs root and Debian's packages (it installs slurm-wlm and munge when
# missing). It starts its own munged, slurmctld and slurmd (ports 16817 and
# 16818, loopback address, config and state in /tmp/gh-slurm-check.XXXXXX),
# submits match.sbatch with the strings of SUBST below replaced (4 shards of
# a short fixed-depth match), cancels task 2 mid-shard and resubmits it,
# waits, merges, and compares with one unsharded run of the same text; then
# submits retro-level.sbatch (strings of RETRO_SUBST replaced) for levels 4
# and 6 of the 4-checker game, the second with --dependency=afterok on the
# first, and compares the tables with a one-machine solve of those levels;
# then submits rollout-data.sbatch (DATA_SUBST replaced: 3 shards of 9
# positions, 8 trials each) and its merge job after it, and compares the
# merged file with one unsharded generation byte for byte. On
# exit, success or failure, it stops what it started and removes what it
# wrote; at start it does the same for what a killed earlier run left behind.
# shellcheck disable=SC2016 # single quotes keep the scripts' $HOME and awk's $1
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRIPT=$ROOT/tools/slurm/match.sbatch
RETRO_SCRIPT=$ROOT/tools/slurm/retro-level.sbatch
DATA_SCRIPT=$ROOT/tools/slurm/rollout-data.sbatch
BIN=$ROOT/target/release/grasshopper
PREFIX=/tmp/gh-slurm-check
LOCK=$PREFIX.lock
SHARDS=4
PAIRS=32
# Every process this check starts carries MARK=<its work dir> in its
# environment (daemons, job steps, engines), so that it can find them again.
MARK=GH_SLURM_CHECK

# match.sbatch's text -> the text this check submits. Each left side must
# occur exactly once in the script: when the script changes, change this too.
SUBST=(
  '--array=1-16' "--array=1-$SHARDS"
  '--time=02:00:00' '--time=00:10:00'
  '$HOME/bin/grasshopper match' "$BIN match"
  '${SLURM_ARRAY_TASK_ID}/16' "\${SLURM_ARRAY_TASK_ID}/$SHARDS"
  'cmd=$HOME/bin/gh-new name=new' "cmd=$BIN name=engine"
  'cmd=$HOME/bin/gh-old name=old' "cmd=$BIN name=greedy arg=--player arg=greedy"
  '--tc 10+0.1' '--tc depth=10'
  '--openings $HOME/openings.txt' '--random-plies 4'
  '--pairs 4000' "--pairs $PAIRS"
)
KILLED=2 # the array task that is cancelled mid-shard and resubmitted
# retro-level.sbatch's text -> the text this check submits (the same rule):
# the 4-checker game's levels 4 and 6 in 3 tasks each, tables in the work dir.
RETRO_TASKS=3
RETRO_LEVELS=(4 6)
RETRO_SUBST=(
  '--array=1-13' "--array=1-$RETRO_TASKS"
  '--mem=20G' '--mem=1G'
  '--time=12:00:00' '--time=00:10:00'
  '$HOME/bin/grasshopper solve' "$BIN solve"
  '--checkers 6' '--checkers 4'
  '--retro $SHARED/n6' '--retro $SHARED/n4'
  '${SLURM_ARRAY_TASK_ID}/13' "\${SLURM_ARRAY_TASK_ID}/$RETRO_TASKS"
)
# rollout-data.sbatch's text -> the text this check submits (the same rule):
# 3 shards of a 9-position run at 8 trials a position, into the work dir.
DATA_SHARDS=3
DATA_ARGS=(--positions 9 --trials 8 --ply 1 --seed 2026)
DATA_SUBST=(
  '--array=1-16' "--array=1-$DATA_SHARDS"
  '--time=03:00:00' '--time=00:10:00'
  'GH=$HOME/bin/grasshopper' "GH=$BIN"
  'DATA=$HOME/rollout-data' 'DATA=$PWD/rd'
  'SHARDS=16' "SHARDS=$DATA_SHARDS"
  '--positions 20000 --trials 72 --ply 1 --seed 2026' "${DATA_ARGS[*]}"
)

passed=0 failed=0
ok() { echo "PASS: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
CHECKS=10 # the number of ok/bad verdicts of a complete run

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
T0=$(now)
STEP=() STEP_T=""
step() { # step NAME: starts timing a step (and ends the one before)
  end_step
  STEP_NAME=$1 STEP_T=$(now)
  echo "== $1"
}
end_step() {
  [ -n "$STEP_T" ] || return 0
  local s
  s=$(since "$STEP_T")
  STEP+=("$STEP_NAME ${s}s")
  echo "   ($STEP_NAME: ${s}s)"
  STEP_T=""
}

WORK="" MUNGED_PID="" CTLD_PID="" SLURMD_PID="" REF_PID="" JOB="" JOB2=""

# substitute TEXT FROM TO FROM TO ...: prints TEXT with each FROM replaced by
# its TO; fails (after naming it) when a FROM does not occur exactly once.
substitute() {
  local text=$1 from to rest n ok=0
  shift
  while [ $# -ge 2 ]; do
    from=$1 to=$2
    shift 2
    rest=${text//"$from"/}
    n=$(((${#text} - ${#rest}) / ${#from}))
    if [ "$n" -ne 1 ]; then
      echo "   the script holds \"$from\" $n times, not once" >&2
      ok=1
    fi
    text=${text/"$from"/"$to"}
  done
  printf '%s\n' "$text"
  return $ok
}

# The pids of processes whose environment has MARK=<a value matching the
# extended regex $1>, excluding this shell.
marked_pids() {
  local f p
  for f in /proc/[0-9]*/environ; do
    p=${f#/proc/}
    p=${p%/environ}
    [ "$p" = "$$" ] && continue
    grep -qzE "^$MARK=($1)\$" "$f" 2>/dev/null && echo "$p"
  done
}

# stop_pids GRACE PID...: sends TERM, waits up to GRACE seconds, then KILLs
# what is left (slurmstepd, for one, ignores TERM).
stop_pids() {
  local grace=$1 i p left
  shift
  [ $# -gt 0 ] || return 0
  kill -TERM "$@" 2>/dev/null
  for i in $(seq $((grace * 5))); do
    left=()
    for p in "$@"; do
      # A zombie (state Z) has ended; only its parent can reap it.
      if kill -0 "$p" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null; then
        left+=("$p")
      fi
    done
    [ ${#left[@]} -eq 0 ] && return 0
    sleep 0.2
  done
  echo "   still running after $grace s, killing: ${left[*]}"
  kill -KILL "${left[@]}" 2>/dev/null
  return 0
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM HUP
  end_step
  local t
  t=$(now)
  echo "== cleanup"
  if [ -n "$WORK" ]; then
    if [ "$failed" -gt 0 ] || [ "$rc" -ne 0 ]; then
      local f
      for f in "$WORK"/log/*.log "$WORK"/run/slurm-*.out "$WORK"/run/ref/reference.out; do
        [ -s "$f" ] && { echo "--- last lines of $f"; tail -n 15 "$f"; }
      done
    fi
    # The daemons, the unsharded run and whatever carries this run's mark
    # (job steps, runners, engines), then munged.
    # shellcheck disable=SC2046,SC2086
    {
      stop_pids 5 $REF_PID $SLURMD_PID $CTLD_PID $(marked_pids "$WORK")
      stop_pids 5 $(marked_pids "$WORK") $MUNGED_PID
    }
    wait 2>/dev/null
    cd / && rm -rf "$WORK"
    echo "   stopped the daemons and jobs, removed $WORK"
  fi
  rm -f "$LOCK"
  echo "   (cleanup: $(since "$t")s)"
  echo "steps: ${STEP[*]}, cleanup $(since "$t")s; total $(since "$T0")s"
  if [ "$rc" -eq 0 ] && { [ "$failed" -gt 0 ] || [ "$passed" -ne "$CHECKS" ]; }; then
    rc=1
  fi
  echo "slurm-check: $passed passed, $failed failed"
  exit "$rc"
}
trap cleanup EXIT
trap 'bad "interrupted (SIGINT)"; exit 130' INT
trap 'bad "terminated (SIGTERM or SIGHUP)"; exit 143' TERM HUP

die() { # a step that the rest depends on failed
  bad "$*"
  exit 1
}

# Waits until the command "$2..." succeeds, for at most $1 seconds.
wait_for() {
  local limit=$1 t
  shift
  t=$(now)
  until "$@"; do
    awk -v a="$t" -v b="$(now)" -v l="$limit" 'BEGIN { exit !(b - a > l) }' && return 1
    sleep 0.25
  done
}

# Game records -> one line per complete game (a record ending with its
# result): "pair.game|White|Black|Result|Termination|FEN|moves", the moves
# with their comments (score and depth) less the time each move took, on one
# line. With raw=1: "pair.game", a tab and the record's exact text, its
# newlines as \001.
GAMES_AWK='
function flush(  n, w, t) {
  if (round == "") return
  t = text
  gsub(/[ \t]+/, " ", t); sub(/^ /, "", t); sub(/ $/, "", t)
  gsub(/ [0-9]+ms[}]/, "}", t); gsub(/[{][0-9]+ms[}]/, "{}", t)
  n = split(t, w, " ")
  if (n > 0 && w[n] == result) {
    sub(/\001+$/, "", rec) # a kill may cut the blank line that ends a record
    if (raw) print round "\t" rec
    else print round "|" white "|" black "|" result "|" term "|" fen "|" t
  }
  round = ""; text = ""; rec = ""
}
/^\[Event / { flush() }
{ rec = rec $0 "\001" }
/^\[[A-Za-z]+ "/ {
  v = $0; sub(/^\[[A-Za-z]+ "/, "", v); sub(/"\]$/, "", v)
  if ($1 == "[Round") round = v; else if ($1 == "[White") white = v
  else if ($1 == "[Black") black = v; else if ($1 == "[Result") result = v
  else if ($1 == "[Termination") term = v; else if ($1 == "[FEN") fen = v
  next
}
{ text = text " " $0 }
END { flush() }'
games() { awk -v raw=0 "$GAMES_AWK" "$@"; }
games_sorted() { games "$@" | sort -t. -k1,1n -k2,2n; }
raw_games() { awk -v raw=1 "$GAMES_AWK" "$@"; }
# The pairs (numbers from 1) of which a records file holds both games.
complete_pairs() { games "$1" | cut -d'|' -f1 | cut -d. -f1 | sort -n | uniq -c | awk '$1 == 2 { print $2 }'; }
count() { grep -c . || true; }

echo "slurm-check: tools/slurm/*.sbatch on a one-node cluster on $(hostname -s)"
case $ROOT in *[[:space:]]*) die "the repository path \"$ROOT\" has white space: the job text cannot hold it" ;; esac
[ "$(id -u)" = 0 ] || die "needs root (it installs packages and runs slurmd)"

# ---------------------------------------------------------------------------
step "leftovers of earlier runs"
exec 9>"$LOCK"
flock -n 9 || die "another slurm check holds $LOCK"
old=$(marked_pids "$PREFIX\\.[A-Za-z0-9]+")
if [ -n "$old" ]; then
  echo "   stopping processes of a killed earlier run: ${old//$'\n'/ }"
  # shellcheck disable=SC2086
  stop_pids 2 $old
fi
for d in "$PREFIX".*; do
  [ -d "$d" ] && { echo "   removing $d"; rm -rf "$d"; }
done

# ---------------------------------------------------------------------------
step "install"
if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null &&
  command -v munged >/dev/null && command -v mungekey >/dev/null; then
  echo "   slurm-wlm and munge are installed"
else
  # Keep the packages' init scripts from starting daemons with their
  # default config (Docker-style images already have this policy file).
  policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    policy=/usr/sbin/policy-rc.d
  fi
  apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge >>"$PREFIX.apt.log" 2>&1; }
  # A fresh machine may have no package lists yet: update and try again.
  apt_install || { apt-get update -q >>"$PREFIX.apt.log" 2>&1 && apt_install; }
  rc=$?
  [ -n "$policy" ] && rm -f "$policy"
  if [ "$rc" -ne 0 ]; then
    tail -n 20 "$PREFIX.apt.log"
    rm -f "$PREFIX.apt.log"
    die "apt-get install slurm-wlm munge"
  fi
  rm -f "$PREFIX.apt.log"
  echo "   installed slurm-wlm and munge"
fi
slurmd -V

# ---------------------------------------------------------------------------
step "build"
(cd "$ROOT" && cargo build --release -q) || die "cargo build --release"
[ -x "$BIN" ] || die "no $BIN after cargo build --release"

WORK=$(mktemp -d "$PREFIX.XXXXXXXX")
chmod 755 "$WORK" # munged wants every directory above its socket searchable
mkdir -p "$WORK"/etc/munge "$WORK"/munge "$WORK"/state "$WORK"/spool "$WORK"/log "$WORK"/run/ref
chmod 700 "$WORK"/etc/munge
RUN=$WORK/run
echo "   binary $BIN, work dir $WORK"

# ---------------------------------------------------------------------------
step "job text"
block=$(cat "$SCRIPT") || die "cannot read $SCRIPT"
subst_ok=1
job=$(substitute "$block" "${SUBST[@]}") || subst_ok=0
printf '%s\n' "$job" >"$RUN/match.sbatch"
diff -u --label tools/slurm/match.sbatch --label "submitted match.sbatch" "$SCRIPT" "$RUN/match.sbatch" | sed 's/^/   /'
# The unsharded reference: the same text, without --shard, into its own file.
ref=${job/"--shard \${SLURM_ARRAY_TASK_ID}/$SHARDS "/}
ref=${ref/"--pgn shard-\${SLURM_ARRAY_TASK_ID}.pgn"/--pgn reference.pgn --json reference.json}
printf '%s\n' "$ref" >"$RUN/ref/reference.sh"
if [ "$subst_ok" = 1 ] && ! grep -q SLURM_ARRAY "$RUN/ref/reference.sh" &&
  grep -q "^#SBATCH --array=1-$SHARDS " "$RUN/match.sbatch"; then
  ok "job text: tools/slurm/match.sbatch, $((${#SUBST[@]} / 2)) strings replaced as listed (diff above); reference = the same text without --shard"
else
  die "job text: tools/slurm/match.sbatch and tools/slurm-check.sh's SUBST table disagree"
fi
retro_job=$(substitute "$(cat "$RETRO_SCRIPT")" "${RETRO_SUBST[@]}") ||
  die "job text: tools/slurm/retro-level.sbatch and tools/slurm-check.sh's RETRO_SUBST table disagree"
printf '%s\n' "$retro_job" >"$RUN/retro-level.sbatch"
diff -u --label tools/slurm/retro-level.sbatch --label "submitted retro-level.sbatch" "$RETRO_SCRIPT" "$RUN/retro-level.sbatch" | sed 's/^/   /'
data_job=$(substitute "$(cat "$DATA_SCRIPT")" "${DATA_SUBST[@]}") ||
  die "job text: tools/slurm/rollout-data.sbatch and tools/slurm-check.sh's DATA_SUBST table disagree"
printf '%s\n' "$data_job" >"$RUN/rollout-data.sbatch"
diff -u --label tools/slurm/rollout-data.sbatch --label "submitted rollout-data.sbatch" "$DATA_SCRIPT" "$RUN/rollout-data.sbatch" | sed 's/^/   /'

# The unsharded run plays alongside the array (it is the slow part); its
# wrapper is a new bash, so that it carries the mark too.
env "$MARK=$WORK" bash -c 'cd "$1" || exit 1
  s=$(date +%s%N)
  bash reference.sh >reference.out 2>&1
  echo $? >reference.rc
  echo $((($(date +%s%N) - s) / 100000000)) | sed "s/.$/.&/; s/^\./0./" >reference.time' _ "$RUN/ref" 9>&- &
REF_PID=$!

# ---------------------------------------------------------------------------
step "cluster"
H=$(hostname -s)
node=$(slurmd -C | head -n 1)
case $node in "NodeName=$H "*) ;; *) die "slurmd -C says \"$node\", expected NodeName=$H" ;; esac
mungekey -c -k "$WORK/etc/munge/munge.key" || die "mungekey"
env "$MARK=$WORK" munged -F --key-file="$WORK/etc/munge/munge.key" \
  --socket="$WORK/munge/munge.socket" --pid-file="$WORK/munge/munged.pid" \
  --seed-file="$WORK/etc/munge/munged.seed" >"$WORK/log/munged.log" 2>&1 9>&- &
MUNGED_PID=$!
wait_for 10 test -S "$WORK/munge/munge.socket" || die "munged did not create its socket"
munge -n -S "$WORK/munge/munge.socket" | unmunge -S "$WORK/munge/munge.socket" >/dev/null ||
  die "munge cannot encode and decode a credential"
: >"$WORK/etc/plugstack.conf"
cat >"$WORK/etc/slurm.conf" <<EOF
# Written by tools/slurm-check.sh for one run; removed at its end.
ClusterName=ghcheck
SlurmctldHost=$H(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$WORK/munge/munge.socket
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
PlugStackConfig=$WORK/etc/plugstack.conf
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
KillWait=5
MinJobAge=600
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$WORK/etc/slurm.conf
env "$MARK=$WORK" slurmctld -D -i >"$WORK/log/slurmctld.out" 2>&1 9>&- &
CTLD_PID=$!
env "$MARK=$WORK" slurmd -D >"$WORK/log/slurmd.out" 2>&1 9>&- &
SLURMD_PID=$!
node_idle() { [ "$(sinfo -h -n "$H" -o %T 2>/dev/null)" = idle ]; }
if wait_for 60 node_idle; then
  ok "cluster: munged, slurmctld and slurmd up, node $H idle ($node)"
else
  sinfo 2>&1 | sed 's/^/   /'
  die "cluster: node $H not idle within 60 s"
fi

# ---------------------------------------------------------------------------
step "array, cancel and resubmit"
cd "$RUN" || die "cd $RUN"
JOB=$(env "$MARK=$WORK" sbatch --parsable match.sbatch) || die "sbatch match.sbatch"
JOB=${JOB%%;*}
echo "   submitted array job $JOB (tasks 1-$SHARDS)"
shard_games=$((2 * PAIRS / SHARDS))
task_state() { squeue -h -t all -j "${JOB}_$1" -o %T 2>/dev/null | head -n 1; }
# Mid-shard: at least one complete pair recorded, and not the whole shard.
mid_shard() {
  local f=shard-$KILLED.pgn
  [ -f "$f" ] || return 1
  [ "$(complete_pairs "$f" | count)" -ge 1 ] && [ "$(games "$f" | count)" -lt "$shard_games" ]
}
task_ended() { case $(task_state $KILLED) in COMPLETED | FAILED | CANCELLED | TIMEOUT) return 0 ;; esac; return 1; }
wait_for 180 eval 'mid_shard || task_ended' || die "task ${JOB}_$KILLED had no complete pair recorded within 180 s (state: $(task_state $KILLED))"
mid_shard || die "task ${JOB}_$KILLED ended ($(task_state $KILLED)) before it could be cancelled mid-shard"
scancel "${JOB}_$KILLED" || die "scancel ${JOB}_$KILLED"
echo "   scancel ${JOB}_$KILLED with $(games "shard-$KILLED.pgn" | count) games recorded"
task_job=$(squeue -h -t all -j "${JOB}_$KILLED" -o %A | head -n 1)
[ -n "$task_job" ] || die "no job id for task ${JOB}_$KILLED"
task_gone() {
  [ "$(task_state $KILLED)" = CANCELLED ] || return 1
  # ... and none of its processes left (runner and engines).
  local f
  for f in /proc/[0-9]*/environ; do
    grep -qzx "SLURM_JOB_ID=$task_job" "$f" 2>/dev/null && return 1
  done
  return 0
}
wait_for 60 task_gone || die "task ${JOB}_$KILLED did not end after scancel (state $(task_state $KILLED))"
cp "shard-$KILLED.pgn" "$WORK/killed.pgn"
killed_games=$(games "$WORK/killed.pgn" | count)
kept_pairs=$(complete_pairs "$WORK/killed.pgn" | count)
if [ "$kept_pairs" -ge 1 ] && [ "$killed_games" -lt "$shard_games" ]; then
  ok "task ${JOB}_$KILLED cancelled mid-shard: $killed_games of its $shard_games games recorded, $kept_pairs complete pairs"
else
  bad "task ${JOB}_$KILLED was not cancelled mid-shard: $killed_games of $shard_games games recorded, $kept_pairs complete pairs"
fi
JOB2=$(env "$MARK=$WORK" sbatch --parsable --array=$KILLED match.sbatch) || die "sbatch --array=$KILLED match.sbatch"
JOB2=${JOB2%%;*}
echo "   resubmitted: sbatch --array=$KILLED match.sbatch -> job $JOB2"
array_done() { [ -z "$(squeue -h -j "$JOB,$JOB2" -o %i 2>/dev/null)" ]; }
wait_for 300 array_done || die "the array did not finish within 300 s: $(squeue -h -j "$JOB,$JOB2" -o '%i %T' | tr '\n' ' ')"
squeue -t all -j "$JOB,$JOB2" -o '%.8i %.10T %.20S %.20e %.8M' | sed 's/^/   /'
states=$(squeue -h -t all -j "$JOB,$JOB2" -o '%i %T' | sort | tr '\n' ' ')
want=$(
  for i in $(seq "$SHARDS"); do
    if [ "$i" = "$KILLED" ]; then echo "${JOB}_$i CANCELLED"; else echo "${JOB}_$i COMPLETED"; fi
  done
  echo "${JOB2}_$KILLED COMPLETED"
)
want=$(printf '%s\n' "$want" | sort | tr '\n' ' ')
if [ "$states" = "$want" ]; then
  ok "array done: $states"
else
  bad "array states: $states (expected $want)"
fi

# ---------------------------------------------------------------------------
step "merge and compare"
"$BIN" match merge shard-*.pgn --pgn all.pgn --json all.json >merge.out 2>&1
merge_rc=$?
sed 's/^/   /' merge.out
expect_rounds=$(for p in $(seq "$PAIRS"); do echo "$p.1"; echo "$p.2"; done)
rounds=$(games_sorted all.pgn | cut -d'|' -f1)
own=1
for i in $(seq "$SHARDS"); do
  # Shard i holds exactly the pairs p (from 1) with (p - 1) mod SHARDS = i - 1.
  want_i=$(printf '%s\n' "$expect_rounds" | awk -F. -v i="$i" -v n="$SHARDS" '($1 - 1) % n == i - 1')
  [ "$(games_sorted "shard-$i.pgn" | cut -d'|' -f1)" = "$want_i" ] || { own=0; echo "   shard-$i.pgn does not hold exactly its own pairs"; }
done
if [ "$merge_rc" -eq 0 ] && [ "$rounds" = "$expect_rounds" ] && [ "$own" = 1 ]; then
  ok "merge: all.pgn holds each of the $PAIRS pairs exactly once (games 1.1 to $PAIRS.2), each shard file exactly its own pairs"
else
  bad "merge (exit $merge_rc): $(echo "$rounds" | count) games, expected $((2 * PAIRS)) rounds 1.1 to $PAIRS.2 once each"
fi

# The lost-nothing check: the killed shard's complete pairs are in the
# final record byte for byte (with their per-move times, which a replay
# rewrites). Pairs finish out of order (two games at once), so the complete
# ones need not be the shard's first pairs nor head the file.
kept=$(complete_pairs "$WORK/killed.pgn")
kept=${kept//$'\n'/ }
kept_games() {
  raw_games "$1" | awk -F'\t' -v keep="$kept" '
    BEGIN { n = split(keep, k, " "); for (i = 1; i <= n; i++) want[k[i]] = 1 }
    { split($1, r, "."); if (r[1] in want) print }' | sort -t. -k1,1n -k2,2n
}
kept_games "$WORK/killed.pgn" >"$WORK/kept.raw"
kept_games "shard-$KILLED.pgn" >"$WORK/final-kept.raw"
final_games=$(games "shard-$KILLED.pgn" | count)
if [ "$kept_pairs" -ge 1 ] && cmp -s "$WORK/kept.raw" "$WORK/final-kept.raw" && [ "$final_games" -eq "$shard_games" ]; then
  ok "killed shard lost nothing: its $kept_pairs complete pairs (${kept// /,}) are in the resumed shard-$KILLED.pgn byte for byte; the resumed task played the other $((shard_games - 2 * kept_pairs)) games"
else
  bad "killed shard: complete pairs at the kill ($kept) are not kept unchanged in shard-$KILLED.pgn ($final_games games)"
fi

wait_for 300 test -s ref/reference.rc || die "the unsharded run did not finish within 300 s of the array"
wait "$REF_PID"
REF_PID=""
ref_rc=$(cat ref/reference.rc 2>/dev/null || echo "?")
echo "   unsharded run: exit $ref_rc in $(cat ref/reference.time 2>/dev/null)s (alongside the array)"
sed 's/^/   /' ref/reference.out
games_sorted all.pgn >"$WORK/merged.games"
games_sorted ref/reference.pgn >"$WORK/reference.games"
if [ "$ref_rc" = 0 ] && [ "$(count <"$WORK/reference.games")" -eq "$((2 * PAIRS))" ] &&
  cmp -s "$WORK/merged.games" "$WORK/reference.games" && cmp -s all.json ref/reference.json; then
  ok "same as unsharded: the merged $((2 * PAIRS)) games have the unsharded run's moves (with each move's score and depth), results and terminations, and all.json = its JSON summary"
else
  diff "$WORK/reference.games" "$WORK/merged.games" | cut -c1-160 | head -n 20 | sed 's/^/   /'
  diff ref/reference.json all.json | head -n 20 | sed 's/^/   /'
  bad "the merged shards differ from the unsharded run (exit $ref_rc)"
fi

# ---------------------------------------------------------------------------
step "retrograde levels, one array job per level"
# As docs/solver.md submits them: each level after the one below it, with
# --export=ALL,L=... so that the job sees SHARED (here the run directory).
mkdir -p "$RUN/n4"
prev="" retro_jobs=()
for L in "${RETRO_LEVELS[@]}"; do
  dep=()
  [ -n "$prev" ] && dep=(--dependency=afterok:"$prev")
  j=$(env "$MARK=$WORK" SHARED="$RUN" sbatch --parsable "${dep[@]}" --export=ALL,L="$L" retro-level.sbatch) ||
    die "sbatch ${dep[*]} --export=ALL,L=$L retro-level.sbatch"
  j=${j%%;*}
  echo "   level $L: job $j${prev:+ (after $prev)}"
  retro_jobs+=("$j")
  prev=$j
done
retro_list=$(IFS=,; echo "${retro_jobs[*]}")
retro_done() { [ -z "$(squeue -h -j "$retro_list" -o %i 2>/dev/null)" ]; }
wait_for 300 retro_done || die "the retrograde jobs did not finish within 300 s: $(squeue -h -j "$retro_list" -o '%i %T' | tr '\n' ' ')"
states=$(squeue -h -t all -j "$retro_list" -o '%i %T' | sort | tr '\n' ' ')
want=$(for j in "${retro_jobs[@]}"; do for i in $(seq "$RETRO_TASKS"); do echo "${j}_$i COMPLETED"; done; done | sort | tr '\n' ' ')
squeue -t all -j "$retro_list" -o '%.8i %.10T %.20S %.20e' | sed 's/^/   /'
# In order: no task of a level started before every task of the level
# below had ended (ISO times compare as strings).
in_order=1
for ((k = 1; k < ${#retro_jobs[@]}; k++)); do
  below_end=$(squeue -h -t all -j "${retro_jobs[k - 1]}" -o %e | sort | tail -n 1)
  above_start=$(squeue -h -t all -j "${retro_jobs[k]}" -o %S | sort | head -n 1)
  [[ "$above_start" < "$below_end" ]] && in_order=0
done
if [ "$states" = "$want" ] && [ "$in_order" = 1 ]; then
  ok "retrograde array jobs done, each level after the one below: $states"
else
  bad "retrograde job states: $states (expected $want), in order: $in_order"
fi
t=$(now)
"$BIN" solve --checkers 4 --retro "$WORK/n4-ref" --max-level "${RETRO_LEVELS[-1]}" --threads 2 >"$WORK/n4-ref.out" 2>&1 ||
  { sed 's/^/   /' "$WORK/n4-ref.out"; die "one-machine solve of levels <= ${RETRO_LEVELS[-1]}"; }
echo "   one-machine solve of levels <= ${RETRO_LEVELS[-1]}: $(since "$t")s"
files=$(cd "$RUN/n4" && ls)
ref_files=$(cd "$WORK/n4-ref" && ls)
same=1
for f in $ref_files; do cmp -s "$RUN/n4/$f" "$WORK/n4-ref/$f" || { same=0; echo "   $f differs or is missing"; }; done
if [ "$same" = 1 ] && [ "$files" = "$ref_files" ] && [ -n "$files" ] && ! printf '%s\n' "$files" | grep -qv '\.wdl$'; then
  ok "retrograde tables: the array jobs wrote the same $(printf '%s\n' "$files" | count) unit files, byte for byte, as one solve of levels <= ${RETRO_LEVELS[-1]} (no checkpoint left)"
else
  echo "   array: $(echo $files)"
  echo "   one machine: $(echo $ref_files)"
  bad "retrograde tables differ from the one-machine solve"
fi

# ---------------------------------------------------------------------------
step "rollout data: array, then the merge job"
# As docs/backgammon-training.md submits them: the shards, then the merge
# with --dependency=afterok on the array.
cd "$RUN" || die "cd $RUN"
dj=$(env "$MARK=$WORK" sbatch --parsable rollout-data.sbatch) || die "sbatch rollout-data.sbatch"
dj=${dj%%;*}
mj=$(env "$MARK=$WORK" sbatch --parsable --dependency=afterok:"$dj" --array=1 --export=ALL,STEP=merge rollout-data.sbatch) ||
  die "sbatch --dependency=afterok:$dj --export=ALL,STEP=merge rollout-data.sbatch"
mj=${mj%%;*}
echo "   shards: job $dj (tasks 1-$DATA_SHARDS); merge: job $mj (after $dj)"
data_done() { [ -z "$(squeue -h -j "$dj,$mj" -o %i 2>/dev/null)" ]; }
wait_for 300 data_done || die "the rollout-data jobs did not finish within 300 s: $(squeue -h -j "$dj,$mj" -o '%i %T' | tr '\n' ' ')"
states=$(squeue -h -t all -j "$dj,$mj" -o '%i %T' | sort | tr '\n' ' ')
want=$( (for i in $(seq "$DATA_SHARDS"); do echo "${dj}_$i COMPLETED"; done; echo "${mj}_1 COMPLETED") | sort | tr '\n' ' ')
"$BIN" backgammon rollout-data generate "${DATA_ARGS[@]}" --out "$WORK/rd-ref" >"$WORK/rd-ref.out" 2>&1 ||
  { tail -n 5 "$WORK/rd-ref.out" | sed 's/^/   /'; die "one unsharded rollout-data generate"; }
if [ "$states" = "$want" ] && [ -s rd/rollout-data.txt ] && cmp -s rd/rollout-data.txt "$WORK/rd-ref/shard-1-of-1.txt"; then
  ok "rollout data: $states; the merged $(($(count <rd/rollout-data.txt) - 1)) positions are an unsharded run's file byte for byte"
else
  diff "$WORK/rd-ref/shard-1-of-1.txt" rd/rollout-data.txt 2>&1 | head -n 10 | sed 's/^/   /'
  bad "rollout data: job states $states (expected $want), or the merged file differs from an unsharded run"
fi
end_step
