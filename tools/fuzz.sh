#!/usr/bin/env bash
# Runs every fuzz target (or the ones named) for SECONDS each, one after the
# other, and prints a table: target, seconds, executions, exec/s, crashes.
#
#   tools/fuzz.sh [SECONDS] [TARGET...]      (default 600 s, every target)
#   tools/fuzz.sh --list                     (the targets)
#
# Environment:
#   FUZZ_LOGS       where the logs go (default fuzz/logs): <target>.log per
#                   target (libFuzzer's output, ending with `#N DONE` and the
#                   final stats) and summary.tsv, one line per target.
#   FUZZ_SANITIZER  cargo fuzz's -s (default address; `none` runs faster).
#   FUZZ_NICE       niceness of the fuzzer (default 10: the machine is shared).
#
# Stable Rust is made to accept cargo-fuzz's nightly flags with
# RUSTC_BOOTSTRAP=1 (see docs/fuzzing.md). Each target starts from its seed
# corpus fuzz/corpus/<target>/ (read only) and grows a working corpus in
# fuzz/target/corpus/<target>/; crashes are written to fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

if [ "${1:-}" = "--list" ]; then
  sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.toml | grep -v '^grasshopper-fuzz$'
  exit 0
fi
seconds="${1:-600}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.toml | grep -v '^grasshopper-fuzz$')
fi
logs="${FUZZ_LOGS:-logs}"
mkdir -p "$logs"
logs="$(cd "$logs" && pwd)"
sanitizer="${FUZZ_SANITIZER:-address}"
niceness="${FUZZ_NICE:-10}"
export RUSTC_BOOTSTRAP=1

echo "== building the targets (-s $sanitizer, debug assertions on)"
nice -n "$niceness" cargo fuzz build -s "$sanitizer" -a

summary="$logs/summary.tsv"
[ -f "$summary" ] || printf 'target\tseconds\texecutions\texec_per_s\tcrashes\tcorpus\n' >"$summary"
for t in "${targets[@]}"; do
  work="target/corpus/$t"
  mkdir -p "$work" "artifacts/$t"
  before=$(find "artifacts/$t" -type f | wc -l)
  log="$logs/$t.log"
  echo "== $t: ${seconds} s, log $log"
  start=$(date +%s)
  # libFuzzer stops at the first crash; the exit code says so, the table too.
  nice -n "$niceness" cargo fuzz run -s "$sanitizer" -a "$t" "$work" "corpus/$t" -- \
    -max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
    -max_len=4096 >"$log" 2>&1 || echo "   (exit $?: see the log)"
  took=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  crashes=$(( $(find "artifacts/$t" -type f | wc -l) - before ))
  corpus=$(find "$work" -type f | wc -l)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$took" "${execs:-?}" "${rate:-?}" "$crashes" "$corpus" | tee -a "$summary"
done
echo "== summary ($summary)"
column -t -s $'\t' "$summary"
