#!/usr/bin/env bash
# The training data of a stretch of work, kept outside the work tree (which is laid anew each
# sitting) under one data root, and resumed by this one command at the start of every sitting:
#
#   nohup tools/datagen/stretch.sh >> "${MINNOW_DATA:-$HOME/.local/share/minnow}/stretch.log" 2>&1 &
#
# $MINNOW_DATA (default ~/.local/share/minnow) holds:
#   bin/COMMIT/datagen     the self-play engine, built once from commit COMMIT (ENGINE names it)
#   sf-label/stockfish     the teacher (tools/datagen/build_sf_label.sh), built once
#   RUN/ENGINE             the commit whose datagen plays RUN's games: every sitting uses it
#   RUN/raw, RUN/eval      teacher_data.sh's chunks (played; labelled), each written whole
#   RUN/manifest.tsv       one line a labelled chunk: name, seed, engine commit, positions, sha256
# It checks what is there first: a labelled chunk whose digest or count disagrees with its
# manifest line is deleted (the same command plays it again: lost data is regenerated, never
# mended by hand); a whole chunk without a line (cut off between its write and its line) gets
# one. Then it plays on at `nice 19`, so that matches keep the cores they need and the data
# takes what is left, until killed (a sitting's end stops it; the next sitting's run resumes).
#
# Settings (environment): RUN (t16), WORKERS (2), NODES (300), CHUNK (200000 positions),
# SEED (2000000: teacher_data.sh's chunk seeds, 100,000 and more away from earlier runs'),
# ENGINE_COMMIT (the commit to build datagen from when RUN has none yet: HEAD), SF_GIT (the
# search tool's `fetch github:official-stockfish/Stockfish`, for building the teacher).
set -euo pipefail
# `nice` alone does not yield: with the kernel's autogroups (sched_autogroup_enabled, on here)
# sessions share the CPU equally whatever their processes' nice, so the run took a whole core
# from a training run beside it. So it runs in a session of its own, and that session is niced
# (before the `cd`, since "$0" may be relative to the caller's directory).
if [ -z "${STRETCH_SESSION:-}" ]; then
    STRETCH_SESSION=1 exec setsid -w "$0" "$@"
fi
echo 19 >/proc/self/autogroup 2>/dev/null || true
cd "$(dirname "$0")/../.."
data=${MINNOW_DATA:-$HOME/.local/share/minnow}
run=${RUN:-t16}
out="$data/$run"
mkdir -p "$out/eval" "$out/raw" "$data/bin"
say() { echo "stretch: $(date -u +%FT%TZ) $*"; }

# The engine: one commit for the whole run, so a resumed run plays the same kind of games.
[ -s "$out/ENGINE" ] || git rev-parse --short=12 "${ENGINE_COMMIT:-HEAD}" >"$out/ENGINE"
commit=$(cat "$out/ENGINE")
bin="$data/bin/$commit"
if [ ! -x "$bin/datagen" ]; then
    say "building datagen at $commit into $bin"
    tree=$(mktemp -d)
    git worktree add --detach "$tree/src" "$commit" >/dev/null
    (cd "$tree/src" && nice -n 19 cargo build --release -p minnow-dev --bin datagen --target-dir "$tree/target" -q)
    mkdir -p "$bin" && cp "$tree/target/release/datagen" "$bin/datagen.tmp" && mv "$bin/datagen.tmp" "$bin/datagen"
    git worktree remove --force "$tree/src"
    rm -rf "$tree"
fi

# The teacher: Stockfish 15.1's `eval`, built once.
teacher="$data/sf-label/stockfish"
if [ ! -x "$teacher" ]; then
    git_dir=${SF_GIT:-/work/.mirror/official-stockfish+Stockfish/repo}
    [ -d "$git_dir" ] || { say "no teacher and no Stockfish source at $git_dir: fetch it, set SF_GIT"; exit 1; }
    say "building the teacher into $data/sf-label"
    nice -n 19 tools/datagen/build_sf_label.sh "$git_dir" "$data/sf-label"
fi

# What is there: every labelled chunk against its manifest line.
manifest="$out/manifest.tsv"
touch "$manifest"
python3 tools/datagen/manifest.py check "$out/eval" "$manifest" --commit "$commit" --seed "${SEED:-2000000}"

say "playing $run with $bin/datagen (engine $commit), teacher $teacher"
MINNOW_BIN="$bin" TEACHER="$teacher" MANIFEST="$manifest" ENGINE_COMMIT="$commit" \
    nice -n 19 tools/datagen/teacher_data.sh "$out" "${WORKERS:-2}" "${NODES:-300}" "${CHUNK:-200000}" \
    $((365 * 86400)) "${SEED:-2000000}" eval
