#!/usr/bin/env bash
# The label-type table of issue 29: the same positions, the same architecture, different
# labels, each net trained from random weights and matched at fixed nodes against the net
# trained on minnow's own labels (what gen1-gen8 used).
#
#   tools/label_table.sh OUT PLAY_SECONDS [GAMES] [NODES] [SEED] [NET ...]
#
# 1. OUT/raw: minnow's self-play at 5,000 nodes a move (the search score of each quiet
#    position is "today's label"), OUT/eval: the same positions with Stockfish 15.1's
#    static evaluation, both from tools/teacher_data.sh with two workers for PLAY_SECONDS.
# 2. OUT/nodes1000: the same positions labelled by Stockfish's `go nodes 1000`.
# 3. Only the positions every labeller kept (same game, same ply): OUT/<label>.bin.
# 4. Eight nets, 64 wide, 8 buckets, the same seed and schedule: minnow's labels; Stockfish's
#    eval and its 1,000-node search, each with result blend 0 and 0.25; Stockfish's
#    1,000-node scores also brought to minnow's scale (n1000_s: the multiplier at which
#    the scale fitted to the results is minnow's); and Stockfish's eval on the first half
#    of the positions only (what doubling the data is worth: the exchange rate between
#    positions and label quality).
# 5. Each net in an engine (MINNOW_NET), GAMES games at NODES nodes a move against the
#    minnow-label net (default 300 games, 10,000 nodes, openings of SEED 1301; the NETs
#    named, or all), then each net's games of every seed pooled (pentanomial).
# Every step skips what is already there, so the same command resumes. The time of each
# step is printed (the labellers' positions per second are in datagen's lines).
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
out=$1 play_seconds=$2 games=${3:-300} nodes=${4:-10000} seed=${5:-1301}
shift $(($# < 5 ? $# : 5))
nets=${*:-eval eval_wdl n1000 n1000_wdl n1000_s minnow_wdl eval_half}
py=${PYTHON:-.venv/bin/python}
teacher=${TEACHER:-/usr/games/stockfish}
mkdir -p "$out/nodes1000" "$out/nets" "$out/bin" "$out/match"
stamp() { echo "label_table: $(date +%T) $*"; }

stamp "0. the tools (datagen, train) of this tree"
cargo build --release --quiet -p minnow-dev

stamp "1. self-play and eval labels"
if [ ! -e "$out/.played" ]; then
    tools/teacher_data.sh "$out" 2 5000 10000 "$play_seconds" 1300000 eval
    touch "$out/.played"
fi

stamp "2. Stockfish go nodes 1000"
for raw in "$out"/raw/*.bin; do
    name=$(basename "$raw")
    [ -e "$out/eval/$name" ] || continue # a chunk the deadline cut before its eval labels
    [ -e "$out/nodes1000/$name" ] && continue
    target/release/datagen label --in "$raw" --out "$out/nodes1000/$name" --mode nodes:1000 \
        --teacher "$teacher" --threads 2 --hash 2
done

stamp "3. the positions all labellers kept"
if [ ! -e "$out/minnow.bin" ]; then
    "$py" tools/label_join.py "$out" raw:minnow eval:eval nodes1000:nodes1000
fi

stamp "4. training"
train() { # NAME DATA WDL SCORE_MULT [TRAIN OPTION ...]
    [ -e "$out/nets/$1.nnue" ] && return
    target/release/train --data "$out/$2.bin" --out "$out/nets/$1" --hidden 64 --buckets 8 \
        --epochs 20 --batch 4096 --lr 0.002 --decay 0.1 --wdl "$3" --score-mult "$4" --mirror \
        --dedup --threads 2 --seed 1 "${@:5}" > "$out/nets/$1.log"
    grep -E 'best|valid' "$out/nets/$1.log" | tail -2
}
train minnow minnow 0 1
train eval eval 0 0.9
train eval_wdl eval 0.25 0.9
train n1000 nodes1000 0 0.9
train n1000_wdl nodes1000 0.25 0.9
train minnow_wdl minnow 0.25 1
# The scale fitted to the results is printed by each run; 0.76 = 0.9 x 135 / 160.
train n1000_s nodes1000 0 0.76
train eval_half eval 0 0.9 --max-positions $(($(stat -c %s "$out/eval.bin") / 64))

stamp "5. engines and matches"
for net in minnow $nets; do
    if [ ! -e "$out/bin/$net" ]; then
        MINNOW_NET="$out/nets/$net.nnue" cargo build --release --quiet --target-dir target/label_table
        cp target/label_table/release/minnow "$out/bin/$net"
    fi
done
for net in $nets; do
    log="$out/match/$net-s$seed.log"
    [ -e "$log" ] && grep -q '^RESULT' "$log" && continue
    "$py" tools/match.py --engine1 "cmd=$out/bin/$net name=$net option.Hash=1" \
        --engine2 "cmd=$out/bin/minnow name=minnow option.Hash=1" --nodes "$nodes" \
        --games "$games" --concurrency 2 --seed "$seed" > "$log" 2>&1
    tail -1 "$log"
done
"$py" - "$out/match" <<'POOL'
import glob, os, re, sys
sys.path.insert(0, "tools")
from match import pentanomial_elo
pools = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*-s*.log"))):
    text = open(path).read()
    found = re.search(r"pentanomial \(pairs scoring [^)]*\): ([\d ]+)", text)
    if found and "RESULT" in text:
        net = os.path.basename(path).rsplit("-s", 1)[0]
        pool = pools.setdefault(net, [0] * 5)
        for i, count in enumerate(found.group(1).split()):
            pool[i] += int(count)
for net, pairs in sorted(pools.items()):
    e = pentanomial_elo(pairs)
    print(f"label_table: {net:12s} {2 * sum(pairs):5d} games, pentanomial {' '.join(map(str, pairs))}: "
          f"{e.elo:+.1f} +- {e.error:.1f} ({e.low:+.1f}..{e.high:+.1f})")
POOL
stamp done
