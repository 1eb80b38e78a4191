#!/bin/sh
# Soak benchmark of the match runner's records file (not part of cargo test):
# kills `grasshopper match --resume` with SIGKILL at random instants, at least
# 200 times on one records file, and counts the finished games before and
# after each kill (lost, duplicated, changed must all be 0). See
# crates/match-grasshopper/examples/soak_kill.rs for what it measures and its
# options, which are passed through, e.g.
#     tools/soak-kill.sh --kills 300 --seed 7
set -eu
cd "$(dirname "$0")/.."
cargo build --profile test-opt -p grasshopper --bin grasshopper
cargo build --profile test-opt -p testkit --bin fake-engine
cargo build --profile test-opt -p match-grasshopper --example soak_kill
exec target/test-opt/examples/soak_kill "$@"
