#!/bin/sh
# gen9.nnue, shipped 4af731f (2026-11-26), replaced by gen10. Parent: none (random weights).
#
# Data: 13,170,433 positions of gen8's 300-node self-play labelled by Stockfish 15.1's
# static `eval` (12,452,381 after duplicates), made in 300 s on a lent 16-core Xeon (657
# chunks, 43,900 positions/s; datagen and train of 13d7558 with gen8, `Bench: 599913`) by
# a script since deleted (`git show b0f582d:tools/gen9_device.sh`).
# Training: 64 neurons, 14 epochs (best 11), lr 0.002, decay 0.1, 174 s on the 16 cores.
# gen9.check.txt: that data's held-out 2%.
# Against gen8: +85.8 +- 30.1 over 318 games at 2+0.05, seed 929 (SPRT [0, 10] H1);
# +53.4 +- 27.9 over 400 at 20,000 nodes, seed 901.
#
# Below, the same steps at HEAD's tools (datagen plays with the net it embeds, so gen8 is
# built in). The data step runs until its time is up: 300 s with 16 workers made the 657
# chunks on 16 cores; on 2 cores give it about 40 minutes (SECONDS) for as many positions.
# Needs Stockfish 15.1 at /usr/games/stockfish (`apt-get install stockfish`).
set -eu
cd "$(dirname "$0")/../.."
DATA_SECONDS=${DATA_SECONDS:-300}
MINNOW_NET=nets/gen8.nnue cargo build --release -p minnow-dev --target-dir target/gen8
MINNOW_BIN=target/gen8/release tools/datagen/teacher_data.sh data/t9 16 300 20000 "$DATA_SECONDS" 900000 eval
(cd data/t9/eval && LC_ALL=C ls | grep '\.bin$' | LC_ALL=C sort | xargs cat) > data/t9/all.bin
target/gen8/release/train --data data/t9/all.bin --wdl 0 --mirror --dedup --score-mult 0.9 \
    --batch 16384 --seed 3 --epochs 14 --out data/t9/h64c --hidden 64 --buckets 8 \
    --lr 0.002 --decay 0.1
cp data/t9/h64c.nnue nets/gen9.nnue && cp data/t9/h64c.check.txt nets/gen9.check.txt
