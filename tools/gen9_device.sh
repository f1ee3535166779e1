#!/usr/bin/env bash
# The gen9 run as it was made on a lent 16-core machine (nets/README.md): teacher data for
# DATA_S seconds (tools/teacher_data.sh: 16 workers, 300-node self-play, Stockfish's
# static evaluation), then two trainers of 8 threads for TRAIN_S seconds: a 64-wide net
# from random weights, and gen8 trained further. Packs into $OUT: nets.tgz (nets, check
# files, logs) and the labelled data as data.xz.N (one xz stream split into 16 MB pieces:
# `cat data.xz.* | xz -d > all.bin`).
#
#   DEV=data/dev OUT=data/g9out DATA_S=330 TRAIN_S=170 bash tools/gen9_device.sh
#
# DEV holds datagen, train (built here: cargo build --release -p minnow-dev) and the
# teacher binary `stockfish` (Debian's 15.1: cp /usr/games/stockfish).
set -uo pipefail
dev=${DEV:-data/dev} out=${OUT:-data/g9out} data_s=${DATA_S:-330} train_s=${TRAIN_S:-170}
workers=${WORKERS:-$(nproc)}
threads=$(( workers / 2 ))
work=${WORK:-/tmp/t9}
mkdir -p "$out" "$work"
export MINNOW_BIN=$dev TEACHER=$dev/stockfish
nproc; lscpu | grep -E 'Model name' | head -1
bash tools/teacher_data.sh "$work" "$workers" 300 20000 "$data_s" 900000 eval >"$work/datagen.log" 2>&1
tail -1 "$work/datagen.log"
cat "$work"/eval/*.bin >"$work/all.bin"
n=$(( $(stat -c %s "$work/all.bin") / 32 ))
epochs=$(( train_s * ${SAMPLES_PER_S:-800000} / (2 * n + 1) ))
epochs=$(( epochs < 2 ? 2 : epochs > 12 ? 12 : epochs ))
echo "positions $n epochs $epochs $(date +%T)"
common="--data $work/all.bin --wdl 0 --mirror --dedup --score-mult 0.9 --batch 16384 --threads $threads --seed 1 --epochs $epochs"
timeout "$train_s" "$dev/train" $common --out "$work/h64" --hidden 64 --buckets 8 --lr 0.002 --decay 0.1 >"$work/train_h64.log" 2>&1 &
timeout "$train_s" "$dev/train" $common --out "$work/g8ft" --init nets/gen8.nnue --lr 0.0003 >"$work/train_g8ft.log" 2>&1 &
wait
tail -n 3 "$work"/train_*.log
echo "packing $(date +%T)"
tar czf "$out/nets.tgz" -C "$work" $(cd "$work" && ls h64.* g8ft.* *.log 2>/dev/null)
head -c $(( ${MAX_BACK:-12000000} * 32 )) "$work/all.bin" | xz -T"$workers" -6 | split -b 16000000 -d -a1 - "$out/data.xz."
ls -l "$out"; date +%T
