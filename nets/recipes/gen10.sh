#!/bin/sh
# gen10.nnue, shipped 95b86c1 (2026-11-26), replaced by gen11. Parent: gen9.
#
# Data: the first 260 chunks of the run t10, 5,216,262 positions of gen9's 300-node
# self-play labelled by Stockfish 15.1's `eval` (4,805,554 new after duplicates), about 17
# minutes on the 2-core machine: each worker's chunks 0-62 by fe7e97e's datagen, 63 on by
# 0a25121's (both gen9, `Bench: 448184`). Training: gen9 further, 3 epochs at lr 0.0003,
# 84 s (trainer of 0a25121). gen10.check.txt: that data's held-out 2%.
# Against gen9: +40.1 +- 21.0 over 444 games at 2+0.05, seed 1020 (SPRT [0, 10] H1);
# +55.2 +- 26.8 over 400 at 20,000 nodes, seed 1010.
# The run t10 went on to 21,342,982 positions; the rest went to gen11 (gen11.sh).
# Needs Stockfish 15.1 at /usr/games/stockfish (`apt-get install stockfish`).
set -eu
cd "$(dirname "$0")/../.."
MINNOW_NET=nets/gen9.nnue cargo build --release -p minnow-dev --target-dir target/gen9
# resumable; run until each worker has chunk 130 (about 1,200 s on 2 cores)
MINNOW_BIN=target/gen9/release tools/datagen/teacher_data.sh data/t10 2 300 20000 1200 1400000 eval
mkdir -p data/g10
cat $({ for c in $(seq 0 128); do echo data/t10/eval/0-$c.bin; done
        for c in $(seq 0 130); do echo data/t10/eval/1-$c.bin; done; } | LC_ALL=C sort) > data/g10/pre.bin
target/gen9/release/train --data data/g10/pre.bin --out data/g10/pre_s180_0.0003 --init nets/gen9.nnue \
    --hidden 64 --buckets 8 --epochs 3 --batch 16384 --lr 0.0003 --wdl 0 --scale 180 --mirror \
    --dedup --score-mult 0.9 --decay 0.1 --threads 2 --seed 1
cp data/g10/pre_s180_0.0003.nnue nets/gen10.nnue && cp data/g10/pre_s180_0.0003.check.txt nets/gen10.check.txt
