#!/bin/sh
# gen11.nnue, shipped b96539c (2026-11-27), replaced by gen12. Parent: gen10.
#
# Data: 31.7 M more positions (28.6 M distinct) of 300-node self-play labelled by
# Stockfish 15.1's `eval`; about 46 M distinct positions seen in its line.
# Training, twice at lr 0.0001: `c1` = gen10 one epoch on the 16.1 M records of the run t10
# that gen10 had not seen (14.6 M distinct; gen9's self-play by 0a25121's build; 79 s on 2
# cores); then `d1` = gen11, `c1` two epochs on 15,541,785 positions of gen10's self-play
# made in 336 s on a lent 16-core Xeon by tools/datagen/device_finetune.sh (datagen and
# train of 24448e0 with gen10, `Bench: 428329`; 8 threads, 41 s); 7.5 M of them came back.
# gen11.check.txt: d1's, from the Xeon's held-out 2%.
# Against gen10: +5.2 +- 18.3 over 600 games at 2+0.05, seed 1212 (SPRT [-10, 0] LLR 1.16
# at the cap); +21.7 +- 25.6 over 400 at 20,000 nodes. Shipped for its 46 M positions
# and 148 fewer archive bytes, at no measurable Elo.
# Needs t10 as gen10.sh leaves it, run on until chunks 0-532 and 1-530 (21,342,982
# positions), Stockfish 15.1, and for the second step a lent many-core machine with
# datagen, train and Stockfish copied to data/dev (tools/datagen/device_finetune.sh).
set -eu
cd "$(dirname "$0")/../.."
MINNOW_NET=nets/gen9.nnue cargo build --release -p minnow-dev --target-dir target/gen9
MINNOW_BIN=target/gen9/release tools/datagen/teacher_data.sh data/t10 2 300 20000 5400 1400000 eval
mkdir -p data/g11
cat $({ for c in $(seq 129 532); do echo data/t10/eval/0-$c.bin; done
        for c in $(seq 131 530); do echo data/t10/eval/1-$c.bin; done; } | LC_ALL=C sort) > data/g11/unseen.bin
target/gen9/release/train --data data/g11/unseen.bin --init nets/gen10.nnue --hidden 64 --buckets 8 --epochs 1 \
    --batch 16384 --lr 0.0001 --wdl 0 --scale 180 --mirror --dedup --score-mult 0.9 --decay 0.1 \
    --threads 2 --seed 1 --out data/g11/c1
# on the lent machine
DEV=data/dev OUT=data/g11out DATA_S=330 TRAIN_S=110 SEED=1600000 MAX_BACK=7500000 \
    INITS="d1=data/g11/c1.nnue d2=nets/gen10.nnue" bash tools/datagen/device_finetune.sh
mkdir -p data/g11/dev && tar xzf data/g11out/nets.tgz -C data/g11/dev
cp data/g11/dev/d1.nnue nets/gen11.nnue && cp data/g11/dev/d1.check.txt nets/gen11.check.txt
