#!/bin/sh
# gen14.nnue, shipped 4b9308e (2026-11-29). Parent: none (random weights), in two stages, as
# gen13, with 72 mirrored pairs (`--pairs`: 144 neurons computed, 72 stored) instead of 80
# free neurons, and twice the epochs, since a paired net takes no mirrored copies.
#
# Data: run t15, 1,000 chunks (each worker's 0-499), 200,053,771 positions of gen12's
# 300-node self-play labelled by Stockfish 15.1's `eval` (data/sf-label/stockfish), 174.5 M
# after duplicates (datagen of 9461e09 and later commits, all gen12 and `Bench: 510107`,
# so the same games; the last 220 chunks with a0feaa5's binary copied to data/t15/bin).
# Training (trainer of 80e6181, 2 threads): stage 1 `q72` from random weights, 8 epochs,
# lr 0.002 on a cosine to 1%, decay 0.02, 1,148 s (best epoch 7, 0.002968); stage 2 `q72s2` = gen14, q72 restarted at
# lr 0.0001 for 2 epochs, decay 0.1, 399 s. Held-out loss 0.002931, rank 0.6816.
# gen14.check.txt: that held-out part's.
# Against gen13: +58.5 +- 25.8 over 330 games at 2+0.05, seed 1040 (SPRT [0, 10] H1);
# +72.2 +- 24.8 over 400 at 20,000 nodes, seed 1010.
set -eu
cd "$(dirname "$0")/../.."
# build.rs must see gen12 (nets/SHIPPED at 9461e09..a0feaa5) for the same games
MINNOW_NET=nets/gen12.nnue cargo build --release -p minnow-dev --target-dir target/gen12
# the teacher: tools/datagen/build_sf_label.sh <git dir of fetch github:official-stockfish/Stockfish>
# resumable; run until each worker has chunk 499 (about 12,500 positions/s on 2 cores)
MINNOW_BIN=target/gen12/release TEACHER=data/sf-label/stockfish \
    tools/datagen/teacher_data.sh data/t15 2 300 200000 16200 1700000 eval
cat $({ for c in $(seq 0 499); do echo data/t15/eval/0-$c.bin; echo data/t15/eval/1-$c.bin; done; } \
    | LC_ALL=C sort) > data/t15/all1000.bin
cargo build --release -p minnow-dev
T="target/release/train --data data/t15/all1000.bin --score-mult 0.9 --scale 180 --threads 2"
$T --seed 1 --lr 0.002 --epochs 8 --decay 0.02 --hidden 72 --pairs --out data/t15/q72
$T --seed 2 --init data/t15/q72.nnue --lr 0.0001 --epochs 2 --decay 0.1 --out data/t15/q72s2
cp data/t15/q72s2.nnue nets/gen14.nnue && cp data/t15/q72s2.check.txt nets/gen14.check.txt
