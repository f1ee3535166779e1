#!/bin/sh
# Stockfish 15.1 self-play as training data: its tools branch's generate_training_data
# from the harness's openings, then `datagen import` (quiet positions only) into minnow's
# records. A chunk already imported is skipped, so the same command resumes a run.
#
#   tools/datagen/sf_selfplay.sh OUT DEPTH MINUTES SEED [THREADS]
#
# writes OUT (minnow records) via OUT.sf.bin (Stockfish's, deleted once imported); chunks
# of one run differ by SEED. Needs data/sf-tools/stockfish: after
# `fetch github:official-stockfish/Stockfish`,
#   bash ../shared/opponents/build_sf_tools.sh <its git dir> data/sf-tools
# and target/release/datagen (cargo build --release -p minnow-dev).
set -eu
[ $# -ge 4 ] || { sed -n '2,12p' "$0"; exit 2; }
out=$1 depth=$2 minutes=$3 seed=$4 threads=${5:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
sf=$root/data/sf-tools/stockfish
[ -x "$sf" ] || { echo "sf_selfplay: $sf missing (see the header of $0)" >&2; exit 1; }
[ -x "$root/target/release/datagen" ] || { echo "sf_selfplay: build target/release/datagen first" >&2; exit 1; }
if [ -s "$out" ]; then
    echo "sf_selfplay: $out exists, skipped"
    exit 0
fi
mkdir -p "$(dirname "$out")"
raw=$(cd "$(dirname "$out")" && pwd)/$(basename "$out").sf
book=$root/tests/data/kaggle_openings.epd
# Settings of every run (depth and seed apart): random plies for variety, every thread
# playing its own games, shallow-depth pruning off so depth N is a full N-ply search.
printf 'setoption name Threads value %s\nsetoption name Hash value 64\nsetoption name PruneAtShallowDepth value false\nisready\ngenerate_training_data depth %s count 1000000000 max_time_minutes %s output_file_name %s data_format bin seed %s book %s random_move_count 4 random_move_max_ply 20\nquit\n' \
    "$threads" "$depth" "$minutes" "$raw" "$seed" "$book" | "$sf" > "$raw.log" 2>&1
"$root/target/release/datagen" import --out "$out.tmp" "$raw.bin"
mv "$out.tmp" "$out"
rm -f "$raw.bin"
echo "sf_selfplay: wrote $out"
