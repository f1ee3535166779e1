#!/bin/sh
# gen12.nnue, shipped 3ebf8d0 (2026-11-27). Parent: none (random weights), in two stages.
#
# Data: run t13, 442 chunks (each worker's 0-220), 88,426,916 positions of gen11's 300-node
# self-play labelled by Stockfish 15.1's `eval` (77,471,366 after duplicates), about 140
# minutes of the 2-core machine over three sessions (datagen of a2a6e9c and later commits,
# all gen11 and `Bench: 436146`, so the same games).
# Training (a trainer built 2026-11-27 14:55, the same as HEAD's for these options; 2
# threads): stage 1 `sc88` from random weights, 6 epochs, lr 0.002 on a cosine to 1%,
# decay 0.02, 798 s; stage 2 `sc88s2` = gen12, sc88 restarted at lr 0.0001 for 2 epochs,
# decay 0.1, 286 s. Held-out loss 0.004011
# (gen11 0.004594 on the same 2%). gen12.check.txt: that held-out part's.
# Against gen11: +31.6 +- 18.3 over 596 games at 2+0.05, seed 1340 (SPRT [0, 10] H1);
# +34.9 +- 25.0 over 400 at 20,000 nodes, seed 1010.
# Needs Stockfish 15.1 at /usr/games/stockfish (`apt-get install stockfish`).
set -eu
cd "$(dirname "$0")/../.."
MINNOW_NET=nets/gen11.nnue cargo build --release -p minnow-dev --target-dir target/gen11
# resumable; run until each worker has chunk 220 (about 8,400 s on 2 cores)
MINNOW_BIN=target/gen11/release tools/datagen/teacher_data.sh data/t13 2 300 200000 8400 1500000 eval
cat $({ for c in $(seq 0 220); do echo data/t13/eval/0-$c.bin; echo data/t13/eval/1-$c.bin; done; } \
    | LC_ALL=C sort) > data/t13/all88.bin
T="target/gen11/release/train --data data/t13/all88.bin --score-mult 0.9 --scale 180 --threads 2"
$T --seed 1 --lr 0.002 --epochs 6 --decay 0.02 --out data/t13/sc88
$T --seed 2 --init data/t13/sc88.nnue --lr 0.0001 --epochs 2 --out data/t13/sc88s2
cp data/t13/sc88s2.nnue nets/gen12.nnue && cp data/t13/sc88s2.check.txt nets/gen12.check.txt
