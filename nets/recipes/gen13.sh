#!/bin/sh
# gen13.nnue, shipped 2dd7c5c (2026-11-29). Parent: none (random weights), in two stages, as gen12,
# with 80 neurons instead of 64 (at QA 64 the width costs no speed: 0.979x gen12's nodes/s).
#
# Data: run t15, 780 chunks (each worker's 0-389), 156,041,776 positions of gen12's 300-node
# self-play labelled by Stockfish 15.1's `eval` (137.3 M after duplicates; the teacher
# data/sf-label/stockfish gives the same labels about six times as fast as Debian's), about
# 3.5 hours of the 2-core machine over three sessions (datagen of 9461e09 and later commits,
# all gen12 and `Bench: 510107`, so the same games).
# Training (trainer of b50ad5a, 2 threads): stage 1 `x80` from random weights, 6 epochs,
# lr 0.002 on a cosine to 1%, decay 0.02, 939 s (best epoch 5, 0.003515); stage 2 `x80s2` =
# gen13, x80 restarted at lr 0.0001 for 1 epoch, decay 0.1, 301 s. Held-out loss 0.003450,
# rank 0.6501. gen13.check.txt: that held-out part's.
# Against gen12: +42.4 +- 21.3 over 420 games at 2+0.05, seed 1030 (SPRT [0, 10] H1);
# +24.4 +- 25.8 over 400 at 20,000 nodes, seeds 1010 and 1011.
# The archive has room for it only without the opening book (book/SHIPPED names an empty one).
set -eu
cd "$(dirname "$0")/../.."
# build.rs must see gen12 (nets/SHIPPED at 9461e09..a0feaa5) for the same games
MINNOW_NET=nets/gen12.nnue cargo build --release -p minnow-dev --target-dir target/gen12
# the teacher: tools/datagen/build_sf_label.sh <git dir of fetch github:official-stockfish/Stockfish>
# resumable; run until each worker has chunk 389 (about 12,500 positions/s on 2 cores)
MINNOW_BIN=target/gen12/release TEACHER=data/sf-label/stockfish \
    tools/datagen/teacher_data.sh data/t15 2 300 200000 12600 1700000 eval
cat $({ for c in $(seq 0 389); do echo data/t15/eval/0-$c.bin; echo data/t15/eval/1-$c.bin; done; } \
    | LC_ALL=C sort) > data/t15/all780.bin
T="target/gen12/release/train --data data/t15/all780.bin --score-mult 0.9 --scale 180 --threads 2"
$T --seed 1 --lr 0.002 --epochs 6 --decay 0.02 --hidden 80 --out data/t15/x80
$T --seed 2 --init data/t15/x80.nnue --lr 0.0001 --epochs 1 --decay 0.1 --out data/t15/x80s2
cp data/t15/x80s2.nnue nets/gen13.nnue && cp data/t15/x80s2.check.txt nets/gen13.check.txt
