#!/bin/sh
# gen6.nnue, shipped 6030d73 (2026-11-25), replaced by gen7. Parent: none (random weights).
#
# Data: five generations of minnow's own 5,000-node self-play, 14.9 M positions: the
# hand-crafted evaluation's games (gen1.bin), then gen1's, gen2's, gen3's and gen5's
# (gen5.bin: 3,000,118 positions, 49 min on 2 cores; datagen and train of 5187530 with
# gen5, `Bench: 646121`). None of gen1-gen5 is committed, so this file makes them too.
# Training: 48 neurons, 30 epochs, lr 0.003, weight decay 0.02, scale fitted to the
# results (130), 694 s. gen6.check.txt: the held-out 2% of each file.
# Against gen5: +29.6 +- 19.2 over 600 games at 2+0.05, seed 66 (SPRT [0, 10] open at the
# cap, LLR 2.58). About 4.5 hours on 2 cores in all; every datagen step resumes.
set -eu
cd "$(dirname "$0")/../.."
cargo build --release -p minnow-dev --no-default-features --target-dir target/hce
target/hce/release/datagen play --out data/gen1.bin --games 35291 --nodes 5000 --seed 1
cargo build --release -p minnow-dev
target/release/train --data data/gen1.bin --out data/gen1 --hidden 32 --buckets 8 \
    --epochs 30 --batch 2048 --lr 0.003 --wdl 0 --mirror --threads 2 --seed 1
MINNOW_NET=data/gen1.nnue cargo build --release -p minnow-dev --target-dir target/gen1
target/gen1/release/datagen play --out data/gen2.bin --positions 3000000 --nodes 5000 --seed 2
target/release/train --data data/gen1.bin --data data/gen2.bin --out data/gen2 --hidden 32 \
    --qa 64 --buckets 8 --epochs 30 --batch 2048 --lr 0.003 --wdl 0 --mirror --threads 2 --seed 1
MINNOW_NET=data/gen2.nnue cargo build --release -p minnow-dev --target-dir target/gen2
target/gen2/release/datagen play --out data/gen3.bin --positions 3000000 --nodes 5000 --seed 3
target/release/train --data data/gen1.bin --data data/gen2.bin --data data/gen3.bin \
    --out data/gen3 --hidden 32 --qa 64 --buckets 8 --epochs 30 --batch 2048 --lr 0.003 \
    --wdl 0 --mirror --threads 2 --seed 1
# gen4 (a candidate, never shipped) played with the search bundle of its day
MINNOW_NET=data/gen3.nnue cargo build --release -p minnow-dev --target-dir target/gen3
target/gen3/release/datagen play --out data/gen4.bin --positions 3000000 --nodes 5000 --seed 4
target/release/train --data data/gen1.bin --data data/gen2.bin --data data/gen3.bin \
    --data data/gen4.bin --out data/gen4 --hidden 32 --qa 64 --buckets 8 --epochs 30 \
    --batch 2048 --lr 0.003 --wdl 0 --mirror --threads 2 --seed 1
# gen5: no new data; 48 neurons and weight decay on the four files
target/release/train --data data/gen1.bin --data data/gen2.bin --data data/gen3.bin \
    --data data/gen4.bin --out data/g5/h48d020 --hidden 48 --qa 64 --buckets 8 --epochs 30 \
    --batch 2048 --lr 0.003 --wdl 0 --mirror --decay 0.02 --threads 2 --seed 1
MINNOW_NET=data/g5/h48d020.nnue cargo build --release -p minnow-dev --target-dir target/gen5
target/gen5/release/datagen play --out data/gen5.bin --positions 3000000 --nodes 5000 --seed 5
target/release/train --data data/gen1.bin --data data/gen2.bin --data data/gen3.bin \
    --data data/gen4.bin --data data/gen5.bin --out data/g6/h48d020 --hidden 48 --qa 64 \
    --buckets 8 --epochs 30 --batch 2048 --lr 0.003 --wdl 0 --mirror --decay 0.02 --threads 2 --seed 1
cp data/g6/h48d020.nnue nets/gen6.nnue && cp data/g6/h48d020.check.txt nets/gen6.check.txt
