#!/usr/bin/env bash
# Builds a labelling teacher: Stockfish 15.1 (tag sf_15.1, GPL-3, a teacher only: it never goes
# into minnow's archive, engine or tests) whose UCI `eval` prints only the line `datagen label
# --mode eval` reads, "Final evaluation ... (white side)", the same number Debian's 15.1 prints.
# Debian's `eval` first prints the classical terms and NNUE's table of piece values, which
# evaluate the net about 40 times a position: two thirds of a data run's labelling time.
# The patch removes that table and nothing on the path to the final number (the thread's
# optimism and best value are still reset before `evaluate`, as in 15.1's trace).
#
#   tools/datagen/build_sf_label.sh GIT_DIR [OUT (default data/sf-label)]
#
# GIT_DIR: the search tool's `fetch github:official-stockfish/Stockfish`. The net is taken out
# of Debian's binary (`apt-get install stockfish`) and checked by its hash. The script ends by
# labelling the positions of tests/data/kaggle_openings.epd with both binaries and comparing.
set -euo pipefail
GIT=${1:?usage: build_sf_label.sh GIT_DIR [OUT]}
OUT=${2:-data/sf-label}
case $OUT in /*) ABS=$OUT ;; *) ABS=$PWD/$OUT ;; esac  # OUT may be relative or absolute
NET=nn-ad9b42354671.nnue
SF=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$SF" ] || { echo "Debian's stockfish is missing: apt-get install stockfish"; exit 1; }
rm -rf "$OUT"; mkdir -p "$OUT/build"
git --git-dir="$GIT" archive sf_15.1 | tar -x -C "$OUT/build"
printf 'export_net %s\nquit\n' "$ABS/$NET" | "$SF" >/dev/null
[ "nn-$(sha256sum "$OUT/$NET" | cut -c1-12).nnue" = "$NET" ] || { echo "exported net is not $NET"; exit 1; }
cp "$OUT/$NET" "$OUT/build/src/$NET"
python3 - "$OUT/build/src/evaluate.cpp" <<'EOF'
import sys
path = sys.argv[1]
lines = open(path).read().split('\n')
start = next(i for i, l in enumerate(lines) if 'v = Evaluation<TRACE>(pos).value();' in l)
end = next(i for i, l in enumerate(lines) if i > start and l.strip() == 'v = evaluate(pos);')
# Keep the sign in front of the number, as the full trace prints it.
lines[start:end] = ['  ss << std::showpos;']
open(path, 'w').write('\n'.join(lines))
EOF
make -C "$OUT/build/src" build ARCH=x86-64-avx2 COMP=gcc -j"$(nproc)" >"$OUT/build.log" 2>&1 \
  || { tail -20 "$OUT/build.log"; exit 1; }
cp "$OUT/build/src/stockfish" "$OUT/stockfish"
# Both teachers on the same positions: every answer line must be the same.
compare() {
  { echo uci; echo isready
    while read -r fen; do printf 'position fen %s\neval\n' "$fen"; done <tests/data/kaggle_openings.epd
    echo quit; } | (cd "$(dirname "$1")" && "$1") | grep '^Final evaluation' | awk '{print $3}'
}
ours=$(compare "$ABS/stockfish")
[ "$ours" = "$(compare "$SF")" ] || { echo "the labelling build and Debian's 15.1 disagree"; exit 1; }
echo "labelling teacher: $OUT/stockfish ($(wc -l <<<"$ours") openings labelled alike)"
