#!/bin/sh
# gen8.nnue, shipped a10788e (2026-11-25), replaced by gen9. Parent: gen7.
#
# Data: 2,400,023 positions of gen7's 5,000-node self-play (28,190 games, 2,434 s on 2
# cores; datagen of 10b2294 with gen7, `Bench: 550225`) plus data/gen6.bin (gen7.sh).
# Training: gen7 further, 4 epochs at lr 1e-5 on both files, 372 s on one thread (trainer
# of 10b2294). gen8.check.txt: the held-out 2% of both files.
# Against gen7: +19.1 +- 13.3 over 966 games at 2+0.05, seed 107 (600 games, resumed from
# the PGN to 966; SPRT [0, 10] H1).
set -eu
cd "$(dirname "$0")/../.."
[ -s data/gen6.bin ] || { echo "gen8.sh: data/gen6.bin missing: run nets/recipes/gen7.sh first" >&2; exit 1; }
MINNOW_NET=nets/gen7.nnue cargo build --release -p minnow-dev --target-dir target/gen7
target/gen7/release/datagen play --out data/gen7.bin --positions 2400000 --nodes 5000 --seed 7
target/gen7/release/train --data data/gen6.bin --data data/gen7.bin --out data/g8/f_both_1e-5 \
    --init nets/gen7.nnue --epochs 4 --batch 2048 --lr 1e-5 --wdl 0 --scale 130 --mirror \
    --decay 0 --threads 1 --seed 1
cp data/g8/f_both_1e-5.nnue nets/gen8.nnue && cp data/g8/f_both_1e-5.check.txt nets/gen8.check.txt
