#!/usr/bin/env bash
# Teacher-labelled training data in chunks, one worker per core: each worker plays a chunk
# of self-play (`datagen play`, one thread, NODES a move, its own seed), has the teacher
# relabel it (`datagen label`, one teacher process), and goes on to its next chunk until
# SECONDS have passed. Chunks already labelled are skipped, so the same command resumes
# an interrupted run (a half-played chunk resumes too: datagen's own progress file).
#
#   tools/datagen/teacher_data.sh OUT WORKERS NODES CHUNK SECONDS SEED [MODE]
#
# OUT/raw/W-C.bin   chunk C of worker W as played (minnow's NODES-node scores)
# OUT/MODE/W-C.bin  the same positions with the teacher's scores (MODE: eval, depth:N, nodes:N)
# Chunk C of worker W is played with seed SEED + 1000 * W + C, so runs never overlap when
# their SEEDs differ by 100,000 or more. Binaries: $MINNOW_BIN (default target/release);
# teacher: $TEACHER (default /usr/games/stockfish; tools/datagen/build_sf_label.sh builds one that
# gives the same `eval` labels about six times as fast). With $MANIFEST (and $ENGINE_COMMIT) each
# labelled chunk gets a manifest line (tools/datagen/manifest.py; tools/datagen/stretch.sh).
# Example (the gen9 data, nets/README.md):
#
#   tools/datagen/teacher_data.sh data/t9 16 300 20000 330 900000 eval
set -euo pipefail
if [ $# -lt 6 ]; then
    sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
out=$1 workers=$2 nodes=$3 chunk=$4 seconds=$5 seed=$6 mode=${7:-eval}
bin=${MINNOW_BIN:-target/release}
teacher=${TEACHER:-/usr/games/stockfish}
openings=${OPENINGS:-tests/data/kaggle_openings.epd}
deadline=$(($(date +%s) + seconds))
labelled="$out/${mode//:/}"
mkdir -p "$out/raw" "$labelled"

worker() {
    local w=$1 c=0
    while [ "$(date +%s)" -lt "$deadline" ]; do
        local name="$w-$c.bin"
        if [ ! -e "$labelled/$name" ]; then
            local play=("$bin/datagen" play --out "$out/raw/$name" --positions "$chunk" --nodes "$nodes"
                --threads 1 --seed $((seed + 1000 * w + c)) --openings "$openings" --hash 2)
            # A half-played chunk that cannot be resumed (its progress file cut short when the
            # machine went away) is played again from its first game, not mended.
            if ! "${play[@]}" >/dev/null; then
                echo "teacher_data: $out/raw/$name cannot be resumed: playing it again from the start"
                rm -f "$out/raw/$name" "$out/raw/$name.progress"
                "${play[@]}" >/dev/null
            fi
            "$bin/datagen" label --in "$out/raw/$name" --out "$labelled/$name" --mode "$mode" \
                --teacher "$teacher" --threads 1 --hash 2
            if [ -n "${MANIFEST:-}" ]; then  # tools/datagen/stretch.sh's record of whole chunks
                python3 tools/datagen/manifest.py add "$labelled/$name" "$MANIFEST" \
                    --commit "${ENGINE_COMMIT:?}" --seed "$seed"
            fi
        fi
        c=$((c + 1))
    done
}

for w in $(seq 0 $((workers - 1))); do
    worker "$w" &
done
wait
count=$(cat "$labelled"/*.bin | wc -c)
echo "teacher_data: $((count / 32)) positions in $(ls "$labelled" | grep -c '\.bin$') chunks in $labelled"
