#!/bin/sh
# The compliance checker's figures: checks passed, failed and skipped, and
# the wall time of one run, for our engine and the foreign engines in both
# dialects (docs/compliance.md, docs/results/compliance-*.md).
#
#   cargo build --release && cargo build --release -p testkit --bins
#   sh tools/compliance-figures.sh [target/release]
bin=${1:-target/release}
here=$(cd "$(dirname "$0")" && pwd)
run() {
    dialect=$1; shift
    start=$(date +%s.%N)
    summary=$("$bin/grasshopper" compliance $dialect --timeout 20000 -- "$@" 2>/dev/null | tail -1)
    end=$(date +%s.%N)
    seconds=$(awk "BEGIN { printf \"%.1f\", $end - $start }")
    printf '%s | %s | %s | %s s\n' "$*" "${dialect:-ugi}" "$summary" "$seconds"
}
run "" "$bin/grasshopper"
run "" "$bin/ugi-random"
run --ubgi "$bin/grasshopper"
run --ubgi "$bin/grasshopper" --player random
run --ubgi "$here/gnubg-ubgi"
run --ubgi "$bin/ubgi-random"
