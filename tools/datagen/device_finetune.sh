#!/usr/bin/env bash
# Teacher data and fine-tuning on a lent many-core machine, in one call (nets/README.md,
# gen11): DATA_S seconds of teacher data (tools/datagen/teacher_data.sh: one worker a core,
# 300-node self-play, Stockfish's static evaluation), then one trainer for each net named
# in INITS, all at once and sharing the cores, each trained further on that data for
# EPOCHS epochs at learning rate LR, stopped after TRAIN_S seconds if not done (a trainer
# keeps its best epoch's net on disk as it goes). Packs into $OUT: nets.tgz (nets, check
# files, logs) and the first MAX_BACK labelled positions as data.xz.N (one xz stream
# split into 16 MB pieces: `cat data.xz.* | xz -d > all.bin`).
#
#   DEV=data/dev OUT=data/g11out DATA_S=330 TRAIN_S=120 SEED=1600000 \
#     INITS="d1=data/g11/c1.nnue d2=nets/gen10.nnue" bash tools/datagen/device_finetune.sh
#
# DEV holds datagen, train (built here: cargo build --release -p minnow-dev, so the
# self-play is the shipped net's) and the teacher binary `stockfish` (Debian's 15.1:
# cp /usr/games/stockfish). SEED must differ by 100,000 or more from every earlier run's.
set -uo pipefail
dev=${DEV:-data/dev} out=${OUT:-data/devout} data_s=${DATA_S:-330} train_s=${TRAIN_S:-120}
seed=${SEED:?SEED: the self-play seed base, new for each run} lr=${LR:-0.0001} epochs=${EPOCHS:-2}
read -r -a inits <<<"${INITS:?INITS: name=net pairs, one trainer each}"
workers=${WORKERS:-$(nproc)}
threads=$(( workers / ${#inits[@]} ))
threads=$(( threads < 1 ? 1 : threads ))
work=${WORK:-/tmp/devrun}
mkdir -p "$out" "$work"
export MINNOW_BIN=$dev TEACHER=$dev/stockfish
echo "cores $workers; $(lscpu | grep -E 'Model name' | head -1 | tr -s ' '); start $(date +%T)"
bash tools/datagen/teacher_data.sh "$work" "$workers" 300 20000 "$data_s" "$seed" eval >"$work/datagen.log" 2>&1
tail -1 "$work/datagen.log"
# The chunks in one fixed order (C locale), so the same chunks always make the same file.
(cd "$work/eval" && LC_ALL=C ls | grep '\.bin$' | LC_ALL=C sort | xargs cat) >"$work/all.bin"
n=$(( $(stat -c %s "$work/all.bin") / 32 ))
echo "positions $n; training ${#inits[@]} nets, $threads threads each, $(date +%T)"
for spec in "${inits[@]}"; do
    name=${spec%%=*} net=${spec#*=}
    timeout "$train_s" "$dev/train" --data "$work/all.bin" --init "$net" --buckets 8 \
        --epochs "$epochs" --batch 16384 --lr "$lr" --wdl 0 --scale 180 --mirror --dedup \
        --score-mult 0.9 --decay 0.1 --threads "$threads" --seed 1 --out "$work/$name" \
        >"$work/train_$name.log" 2>&1 &
done
wait
tail -n 4 "$work"/train_*.log
echo "packing $(date +%T)"
tar czf "$out/nets.tgz" -C "$work" $(cd "$work" && ls ./*.nnue ./*.check.txt ./*.log 2>/dev/null)
head -c $(( ${MAX_BACK:-7000000} * 32 )) "$work/all.bin" | xz -T"$workers" -6 |
    split -b 16000000 -d -a1 - "$out/data.xz."
ls -l "$out"
echo "done $(date +%T)"
