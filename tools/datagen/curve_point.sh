#!/bin/sh
# A point of issue "Evaluation V"'s curve: gen14's recipe (nets/recipes/gen14.sh) from random
# weights on the first CHUNKS labelled chunks of a stretch's run, in the order its manifest
# lists them (the order they were labelled in), so the same command makes the same net again.
#
#   tools/datagen/curve_point.sh CHUNKS NAME      # e.g. 1000 c200: 200 M positions of run t16
#
# Writes $MINNOW_DATA/RUN/train/NAME.bin (the chunks, concatenated), NAMEs1 (stage 1) and
# NAMEs2 (the net: .nnue, .ckpt, .check.txt). RUN: $RUN (t16); HIDDEN: the stored neurons, each
# with its mirrored twin ($HIDDEN, gen14's 72). Two threads; idle, 200 M positions at 72 take
# about 33 minutes. Run from anywhere; the trainer is built if missing.
set -eu
[ $# -eq 2 ] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
chunks=$1 name=$2
cd "$(dirname "$0")/../.."
run=${MINNOW_DATA:-$HOME/.local/share/minnow}/${RUN:-t16}
mkdir -p "$run/train"
head -n "$chunks" "$run/manifest.tsv" | cut -f1 | sed "s|^|$run/eval/|" > "$run/train/$name.list"
have=$(wc -l < "$run/train/$name.list")
[ "$have" -eq "$chunks" ] || { echo "curve_point: $run has $have labelled chunks, not $chunks"; exit 1; }
# shellcheck disable=SC2046 # one path a line, no spaces
cat $(cat "$run/train/$name.list") > "$run/train/$name.bin.tmp"
mv "$run/train/$name.bin.tmp" "$run/train/$name.bin"
[ -x target/release/train ] || cargo build --release -p minnow-dev --bin train
T="target/release/train --data $run/train/$name.bin --score-mult 0.9 --scale 180 --threads 2"
$T --seed 1 --lr 0.002 --epochs 8 --decay 0.02 --hidden "${HIDDEN:-72}" --pairs --out "$run/train/${name}s1"
$T --seed 2 --init "$run/train/${name}s1.nnue" --lr 0.0001 --epochs 2 --decay 0.1 --out "$run/train/${name}s2"
