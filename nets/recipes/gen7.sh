#!/bin/sh
# gen7.nnue, shipped fb6a864 (2026-11-25), replaced by gen8. Parent: gen6.
#
# Data: 2,400,040 positions of gen6's 5,000-node self-play (39.5 min on 2 cores; datagen
# and train of c4aaa6e with gen6, `Bench: 606669`). Training: gen6 further, 3 epochs at a
# hundredth of gen6's learning rate (`--scale 130` is gen6's fitted scale), 11 s.
# gen7.check.txt: the last 2% of data/gen6.bin, which is also half of gen8's data.
# Against gen6: +57.7 +- 24.8 over 298 games at 2+0.05, seed 67 (SPRT [0, 10] H1).
set -eu
cd "$(dirname "$0")/../.."
MINNOW_NET=nets/gen6.nnue cargo build --release -p minnow-dev --target-dir target/gen6
target/gen6/release/datagen play --out data/gen6.bin --positions 2400000 --nodes 5000 --seed 6
target/gen6/release/train --data data/gen6.bin --out data/g7/f_3e-5_3_0 --init nets/gen6.nnue \
    --epochs 3 --batch 2048 --lr 3e-5 --wdl 0 --scale 130 --mirror --decay 0 --threads 2 --seed 1
cp data/g7/f_3e-5_3_0.nnue nets/gen7.nnue && cp data/g7/f_3e-5_3_0.check.txt nets/gen7.check.txt
