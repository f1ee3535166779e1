#!/usr/bin/env python3
"""KaggleFish's search with a minnow net: a measuring build that asks whether the gap to
KaggleFish is the search or the evaluation (docs/search.md, "Search or evaluation").

It unpacks KaggleFish's source (the git directory that `fetch
github:codedeliveryservice/KaggleFish` prints) into OUT, writes the minnow net decoded into
`src/minnow_net.h`, appends to `src/evaluate.c` a from-scratch evaluation of that net written
here (the biases plus each piece's feature rows from both views, SCReLU, the output bucket by
the number of pieces, centipawns times 208 / 100, KaggleFish's pawn), makes `evaluate()`
return it in place of KaggleFish's own net, and builds OUT/main.out. Its UCI `eval` prints
`evalpair kf <KaggleFish's own net, cp> mn <the minnow net, cp>` for the position set.

The result is a throwaway local build, as the instrumented KaggleFish of the tree statistics
was: none of KaggleFish's code enters this repository, and the build is never shipped. The two
nets' scales agree (on tests/data/game_positions.fen KaggleFish's centipawns regress on
minnow's with slope 0.97, correlation 0.94), so the minnow net's centipawns are used as they
are. `--check MINNOW` compares the hybrid's minnow evaluation with that engine's `eval` on
tests/data/game_positions.fen and fails on any difference (give the engine built with the
same net).

    python3 tools/kf_hybrid.py --git /work/.mirror/codedeliveryservice+KaggleFish/repo \
        --out /tmp/kf_hybrid --check target/release/minnow

`--transplant NAME` (repeatable) also writes one of minnow's search steps into KaggleFish's
search in place of its own: `lmr` (step 13), `node` (steps 8-10, no razoring or ProbCut),
`ext` (steps 1 and 12a), `prune` (step 12), `qs` (step 2's pruning), `tt` (step 16's rules),
`asp` (the aspiration windows), `corr` (step 16a's one correction table), `order` (step 11's
quiet order); `around` takes out seven pieces of KaggleFish's code around the steps that
minnow lacks (docs/search.md).
Each is minnow's rule written here in KaggleFish's terms, its margins scaled to KaggleFish's
units; the anchors it replaces between are located in KaggleFish's text, and a changed
KaggleFish stops the build with a message rather than building something else.
"""

from __future__ import annotations

import argparse
import struct
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INPUTS = 768

C_EVAL = r"""
/* minnow's net, from scratch (tools/kf_hybrid.py in minnow; a measuring build only) */
#include "minnow_net.h"
int minnow_cp(const Position *pos) {
    int acc[2][MN_H];
    for (int i = 0; i < MN_H; i++) acc[0][i] = acc[1][i] = mn_bias[i];
    Bitboard occ = pieces();
    int n = 0;
    while (occ) {
        Square sq = pop_lsb(&occ);
        int p = piece_on(sq);
        int kind = color_of(p) * 6 + type_of_p(p) - 1;
        int white_view = kind * 64 + sq, black_view = ((kind + 6) % 12) * 64 + (sq ^ 56);
        for (int i = 0; i < MN_H; i++) {
            acc[0][i] += mn_rows[white_view][i];
            acc[1][i] += mn_rows[black_view][i];
        }
        n++;
    }
    int bucket = ((n < 2 ? 2 : n) - 2) * MN_BUCKETS / 31;
    if (bucket > MN_BUCKETS - 1) bucket = MN_BUCKETS - 1;
    int us = stm();
    long long sum = mn_outb[bucket];
    for (int i = 0; i < MN_H; i++) {
        int x = acc[us][i] < 0 ? 0 : acc[us][i] > MN_QA ? MN_QA : acc[us][i];
        int y = acc[!us][i] < 0 ? 0 : acc[!us][i] > MN_QA ? MN_QA : acc[!us][i];
        sum += (long long)(x * x) * mn_outw[2 * bucket][i] + (long long)(y * y) * mn_outw[2 * bucket + 1][i];
    }
    long long cp = sum * 400 / (MN_QA * MN_QA * MN_QB);
    return (int)(cp > 20000 ? 20000 : cp < -20000 ? -20000 : cp);
}
"""

EVAL_HEAD = "NOINLINE Value evaluate(const Position *pos) {\n"
EVAL_HYBRID = (
    "int minnow_cp(const Position *pos);\nint kf_own_net = 0;\n" + EVAL_HEAD + "    if (!kf_own_net) {\n"
    "        Value m = (Value)(minnow_cp(pos) * PawnValueEg / 100);\n"
    "        return clamp(m, VALUE_TB_LOSS_IN_MAX_PLY + 1, VALUE_TB_WIN_IN_MAX_PLY - 1);\n    }\n"
)
UCI_EVAL = "evaluate(pos);\n        #endif"
UCI_PAIR = (
    "{ extern int minnow_cp(const Position*); extern int kf_own_net; kf_own_net = 1; reset_evaluator(pos);\n"
    "  printf(\"evalpair kf %d mn %d\\n\", evaluate(pos) * 100 / PawnValueEg, minnow_cp(pos));\n"
    "  kf_own_net = 0; fflush(stdout); }\n        #endif"
)


# Transplants: one of minnow's search steps written into the hybrid's search in place of
# KaggleFish's, to see what each costs there (docs/strength.md). Margins are minnow's
# centipawns times 2.08 (KaggleFish's pawn is 208) and SEE margins times 2.6 (its knight
# against minnow's 300). Each is a list of edits (file, after, start, end, code): in the
# file, from the first line holding `start` (searched from `after`) up to the first line after
# it holding `end`, or through `end` lines when it is a number, the lines become `code`.
LMR = r"""        if (depth >= 3 && moveCount > 1 + PvNode && !captureOrPromotion && !givesCheck) {
            /* minnow's late-move reduction (step 13): its table and terms */
            Depth r = (Depth)(0.75 + log((double)depth) * log((double)(moveCount - 1)) / 2.25);
            r -= PvNode;
            r += !improving;
            r -= (move == ss->killers[0] || move == ss->killers[1]);
            ss->statScore = (*cmh)[0][piece_to_history_conv(movedPiece)][to_sq(move)] +
                            (*fmh)[1][piece_to_history_conv(movedPiece)][to_sq(move)] +
                            (*fmh2)[1][piece_to_history_conv(movedPiece)][to_sq(move)] +
                            (*pos->mainHistory)[!stm()][from_to(move)] - 4741;
            if (!inCheck) r -= ss->statScore / 15893;
            Depth d = clamp(newDepth - r, 1, newDepth);
            value = -search_NonPV(pos, ss + 1, -(alpha + 1), d, 1);
            if (value > alpha && d < newDepth)
                value = -search_NonPV(pos, ss + 1, -(alpha + 1), newDepth, !cutNode);
        }

"""
PRUNE = r"""        /* minnow's pruning of late moves (step 12) */
        if (!rootNode && bestValue > VALUE_TB_LOSS_IN_MAX_PLY) {
            bool prune;
            if (!captureOrPromotion) {
                int mlr = moveCount > 1 ? (int)(0.75 + log((double)depth) * log((double)(moveCount - 1)) / 2.25) : 0;
                int lmrDepth = max(newDepth - mlr, 0);
                bool late = depth <= 8 && moveCount - 1 >= (3 + depth * depth) / (improving ? 1 : 2);
                bool fut = !inCheck && lmrDepth <= 8 && ss->staticEval + (90 + 100 * lmrDepth) * 208 / 100 <= alpha;
                prune = late || fut || (lmrDepth <= 8 && !see_test(pos, move, -65 * lmrDepth * lmrDepth));
            } else
                prune = depth <= 8 && !see_test(pos, move, -234 * depth);
            if (prune && !givesCheck) continue;
            if (givesCheck && depth <= 8 && !see_test(pos, move, -260 * depth)) continue;
        }

"""
NODE = r"""    /* minnow's steps 8-10: reverse futility, null move, internal iterative reduction
       (no razoring, no ProbCut) */
    if (!PvNode && !excludedMove) {
        if (depth <= 8 && eval - 156 * (depth - improving) >= beta && eval < VALUE_KNOWN_WIN)
            return eval;
        if (depth >= 3 && eval >= beta && (ss - 1)->currentMove != MOVE_NULL && non_pawn_material_c(stm())
            && beta > VALUE_TB_LOSS_IN_MAX_PLY) {
            Depth R = 3 + depth / 4 + min((eval - beta) / 416, 1);
            ss->currentMove = MOVE_NULL;
            ss->history = &(*pos->counterMoveHistory)[0][0];
            do_null_move(pos);
            ss->endMoves = (ss - 1)->endMoves;
            Value nullValue = -search_NonPV(pos, ss + 1, -beta, depth - 1 - R, !cutNode);
            undo_null_move(pos);
            if (nullValue >= beta) return nullValue >= VALUE_TB_WIN_IN_MAX_PLY ? beta : nullValue;
        }
    }
    if (depth >= 4 && !ttMove && !excludedMove) depth--;
"""
EXT_CHECK = "    /* minnow's check extension (step 1) */\n    if (checkers() && ss->ply < MAX_PLY / 2) depth++;\n"
SINGULAR = r"""        /* minnow's singular extension (step 12a) */
        if (depth >= 8 && move == ttMove && !rootNode && !excludedMove && abs(ttValue) < VALUE_KNOWN_WIN
            && (tte_bound(tte) & BOUND_LOWER) && tte_depth(tte) >= depth - 3) {
            Value singularBeta = ttValue - ((formerPv + 4) * depth) / 2; /* KaggleFish's margin: minnow's 1 cp a ply outside former PVs */
            Move cm = ss->countermove;
            Move k1 = ss->mpKillers[0], k2 = ss->mpKillers[1];
            ss->excludedMove = move;
            value = search_NonPV(pos, ss, singularBeta - 1, newDepth / 2, cutNode);
            ss->excludedMove = 0;
            if (value < singularBeta) {
                extension = 1;
                singularQuietLMR = !ttCapture;
                if (!PvNode && value < singularBeta - 42) extension = 2;
            } else if (singularBeta >= beta)
                return singularBeta;
            else if (ttValue >= beta)
                extension = -1;
            mp_init(pos, ttMove, depth, ss->ply);
            ss->stage++;
            ss->countermove = cm;
            ss->mpKillers[0] = k1;
            ss->mpKillers[1] = k2;
        }

"""
QS_PRUNE = r"""        /* minnow's quiescence pruning (step 2): delta pruning by the victim + 200 cp, and
           no capture that loses material */
        if (!InCheck && piece_on(to_sq(move)) && type_of_m(move) != PROMOTION &&
            ss->staticEval + corrhist_adjustment(pos) + PieceValue[EG][piece_on(to_sq(move))] + 416 <= alpha)
            continue;
        if (!InCheck && !see_test(pos, move, 0)) continue;

"""
ASPIRATION = r"""            /* minnow's aspiration windows (search.rs): +-20 cp around the last iteration's
               score from depth 5, the failing side widened and delta doubled, the whole
               window past 800 cp; no shallower re-search after a fail high */
            if (pos->rootDepth >= 5) {
                delta = 42;
                alpha = max(rm->move[pvIdx].previousScore - delta, -VALUE_INFINITE);
                beta = min(rm->move[pvIdx].previousScore + delta, VALUE_INFINITE);
            }
            pos->failedHighCnt = 0;
            while (true) {
                bestValue = search_PV(pos, ss, alpha, beta, pos->rootDepth);
                stable_sort(&rm->move[pvIdx], pvLast - pvIdx);
                if (Threads.stop) break;
                if (bestValue <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = max(bestValue - delta, -VALUE_INFINITE);
                    Threads.stopOnPonderhit = false;
                } else if (bestValue >= beta)
                    beta = min(bestValue + delta, VALUE_INFINITE);
                else
                    break;
                delta *= 2;
                if (delta > 1664) {
                    alpha = -VALUE_INFINITE;
                    beta = VALUE_INFINITE;
                }
            }

"""
QS = "Value qsearch_node"
TRANSPLANTS = {
    "lmr": [("search.c", "", "// Step 16. Late moves reduction", "// Step 17. Full depth search", LMR)],
    "prune": [("search.c", "", "// Step 13. Pruning at shallow depth", "// Step 14. Extensions", PRUNE)],
    "node": [("search.c", "", "// Razoring", "moves_loop:", NODE)],
    "asp": [("search.c", "", "// Reset aspiration window starting size", "// Sort the PV lines searched so far", ASPIRATION)],
    "ext": [
        ("search.c", "", "const Depth maxNextDepth", 0, EXT_CHECK),
        ("search.c", "", "// Singular extension search.", "// Add extension to new depth", SINGULAR),
    ],
    "qs": [
        # the stand pat is the corrected evaluation, not sharpened by the TT's score
        ("search.c", QS, "// Can ttValue be used as a better position evaluation?", "} else {", ""),
        ("search.c", QS, "// Futility pruning and moveCount pruning", "// Speculative prefetch", QS_PRUNE),
        # no quiet check pruned by its continuation history
        ("search.c", QS, "if (!captureOrPromotion && bestValue > VALUE_TB_LOSS", "// Make and search the move", ""),
        # a fail high returns its score as it is
        ("search.c", QS, "bestValue = (3 * bestValue + beta) / 4;", 1, ""),
    ],
    # step 16 (engine/src/tt.rs): a store for the same position always replaces its entry, and a
    # probe that finds an entry leaves its age as it is (only a store makes it this search's)
    "tt": [
        ("tt.h", "", "// Don't overwrite more valuable entries", 2, "    /* minnow's rule: always */ {\n"),
        ("tt.c", "", "// Refresh", 1, ""),
    ],
    # step 16a: the pawn structure's table alone, none of KaggleFish's minor, major, non-pawn and
    # counter-move tables
    "corr": [
        ("movepick.c", "", "+ (*pos->minorCorrectionHistory)", "return v / 1024;",
         "    ; /* minnow's correction history: the pawn table alone */\n"),
    ],
    # step 11's quiet order: the butterfly history and the continuation histories one and two
    # plies back, each once (KaggleFish: the one-ply table twice, and four and six plies back)
    "order": [
        ("movepick.c", "static void score_quiets", "m->value = (*history)[c][move] + 2 * (*cmh)", 4,
         "        m->value = (*history)[c][move] + (*cmh)[0][piece_to_history_conv(piece_on(from))][to] +\n"
         "                   (*fmh)[1][piece_to_history_conv(piece_on(from))][to]; /* minnow's */\n"),
    ],
    # not a step but seven pieces of the code around them that minnow lacks, taken out: a PV
    # node's later moves 2 plies shallower once alpha rose; the opponent's last quiet scored by
    # the evaluation's change; the range reduction; the penalties to the parent's early quiet
    # at a TT cutoff and at a refutation; the fail-low bonus to it; a null move's child
    # evaluated, not given the parent's evaluation negated (docs/search.md)
    "around": [
        ("search.c", "", "if (depth > 2 && value < VALUE_KNOWN_WIN && value > -VALUE_KNOWN_WIN) depth -= 2;", 1, ""),
        ("search.c", "", "int bonus = clamp(-depth * 4 * ((ss - 1)->staticEval", 2, ""),
        ("search.c", "", "if (ss->staticEval - value < 30 && depth > 7)", 2, ""),
        ("search.c", "", "if ((ss - 1)->moveCount <= 2 && !captured_piece())", 2, ""),
        ("search.c", "", "if (!rootNode // (ss-1)->checkersBB is not set", 4, ""),
        ("search.c", "// Bonus for prior countermove that caused the fail low", "else if (   !rootNode", 1,
         "    else if (0 /* minnow: no fail-low bonus */\n"),
        ("search.c", "", "rawEval = ss->staticEval = eval = -(ss - 1)->staticEval + 2 * Tempo;", 1,
         "            rawEval = ss->staticEval = eval = evaluate(pos);\n"),
        ("search.c", QS, "(ss - 1)->currentMove != MOVE_NULL ? evaluate(pos) : -(ss - 1)->staticEval", 1,
         "                evaluate(pos);\n"),
    ],
}

# minnow's reductions with one of KaggleFish's terms given back, to find which of its terms
# carries what minnow's reductions cost at 320,000 nodes (docs/strength.md): here its two
# plies at cut nodes. The same edit as `lmr`, with that line added.
LMR_CUT = LMR.replace("            r -= PvNode;\n", "            r -= PvNode;\n            r += 2 * cutNode; /* KaggleFish's */\n")
assert LMR_CUT != LMR
TRANSPLANTS["lmr_cut"] = [(file, after, start, end, LMR_CUT) for file, after, start, end, _ in TRANSPLANTS["lmr"]]


def transplant(src: Path, name: str) -> None:
    """The engine in `src` with minnow's `name` step in place of KaggleFish's."""
    for file, after, start, end, code in TRANSPLANTS[name]:
        path = src / file
        text = path.read_text()
        i = text.find(start, text.find(after) if after else 0)
        if i < 0 or (after and after not in text):
            raise SystemExit(f"transplant {name}: {file} has no '{start}' (KaggleFish changed?)")
        i = text.rfind("\n", 0, i) + 1
        if isinstance(end, int):
            j = i
            for _ in range(end):
                j = text.index("\n", j) + 1
        else:
            j = text.find(end, text.index("\n", i) + 1)
            if j < 0:
                raise SystemExit(f"transplant {name}: {file} has no '{end}' after '{start}' (KaggleFish changed?)")
            j = text.rfind("\n", 0, j) + 1
        path.write_text(text[:i] + code + text[j:])


def net_header(net: bytes) -> str:
    """The net decoded into C arrays: feature rows with the mirrored twins, biases, output
    weights per bucket and side, output biases (the format of engine/src/nnue.rs)."""
    if net[:4] != b"MNN3":
        raise SystemExit("not an MNN3 net")
    stored, qa, qb, buckets, flags, dense = net[4] | net[5] << 8, net[6], net[7], net[8], net[9], net[10]
    if flags & 1 or dense:
        raise SystemExit("kf_hybrid reads nets without king mirroring or a dense layer")
    pairs = bool(flags & 2)
    hidden = 2 * stored if pairs else stored
    w1, b1 = 12, 12 + INPUTS * stored
    w2 = b1 + 2 * stored
    b2 = w2 + buckets * 2 * stored
    if b2 + 4 * buckets != len(net):
        raise SystemExit("the net's length does not match its header")
    rows = [[0] * hidden for _ in range(INPUTS)]
    for i in range(stored):
        w = 0
        for f in range(INPUTS):
            w = (w + struct.unpack_from("b", net, w1 + i * INPUTS + f)[0] + 128) % 256 - 128
            rows[f][i] = w
    if pairs:
        for f in range(INPUTS):
            rows[f][stored:] = rows[f ^ 7][:stored]
    bias = [struct.unpack_from("<h", net, b1 + 2 * (i % stored))[0] for i in range(hidden)]
    outw = [[struct.unpack_from("b", net, w2 + k * stored + i % stored)[0] for i in range(hidden)] for k in range(2 * buckets)]
    outb = [struct.unpack_from("<i", net, b2 + 4 * k)[0] for k in range(buckets)]

    def table(rs: list[list[int]]) -> str:
        return ",".join("{" + ",".join(map(str, r)) + "}" for r in rs)

    return (
        f"#define MN_H {hidden}\n#define MN_QA {qa}\n#define MN_QB {qb}\n#define MN_BUCKETS {buckets}\n"
        f"static const short mn_rows[{INPUTS}][MN_H] = {{{table(rows)}}};\n"
        f"static const short mn_bias[MN_H] = {{{','.join(map(str, bias))}}};\n"
        f"static const short mn_outw[2 * MN_BUCKETS][MN_H] = {{{table(outw)}}};\n"
        f"static const int mn_outb[MN_BUCKETS] = {{{','.join(map(str, outb))}}};\n"
    )


def patch(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    if text.count(old) != 1:
        raise SystemExit(f"{path.name}: the text to patch is not there once (KaggleFish changed?)")
    path.write_text(text.replace(old, new))


def eval_output(engine: Path, fens: list[str]) -> list[list[str]]:
    """The words of each line `engine` prints for `eval` of each of `fens`."""
    commands = "uci\n" + "".join(f"position fen {f}\neval\n" for f in fens) + "quit\n"
    out = subprocess.run([str(engine)], input=commands, capture_output=True, text=True, timeout=60).stdout
    return [line.split() for line in out.splitlines()]


def eval_pairs(engine: Path, fens: list[str]) -> list[tuple[int, int]]:
    return [(int(p[2]), int(p[4])) for p in eval_output(engine, fens) if p[:1] == ["evalpair"]]


def minnow_evals(engine: Path, fens: list[str]) -> list[int]:
    return [int(p[1]) for p in eval_output(engine, fens) if p[:1] == ["Eval:"]]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--git", required=True, help="KaggleFish's git directory (from fetch)")
    ap.add_argument("--net", default=None, help="minnow net file (default: the one nets/SHIPPED names)")
    ap.add_argument("--out", default="/tmp/kf_hybrid", help="build folder; OUT/main.out is the engine")
    ap.add_argument("--check", default=None, help="a minnow engine with the same net: its eval must match")
    ap.add_argument("--transplant", action="append", default=[], choices=sorted(TRANSPLANTS),
                    help=f"minnow's step in place of KaggleFish's (repeatable): {', '.join(TRANSPLANTS)}")
    args = ap.parse_args()

    net_path = Path(args.net) if args.net else ROOT / (ROOT / "nets/SHIPPED").read_text().strip()
    out = Path(args.out)
    subprocess.run(["rm", "-rf", str(out)], check=True)
    out.mkdir(parents=True)
    archive = subprocess.run(["git", "--git-dir", args.git, "archive", "HEAD"], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    src = out / "src"
    (src / "minnow_net.h").write_text(net_header(net_path.read_bytes()))
    evaluate = src / "evaluate.c"
    patch(evaluate, EVAL_HEAD, EVAL_HYBRID)
    evaluate.write_text(evaluate.read_text() + C_EVAL)
    for name in args.transplant:
        transplant(src, name)
    if any("log(" in code for name in args.transplant for *_, code in TRANSPLANTS[name]):
        search = src / "search.c"
        search.write_text("#include <math.h>\n" + search.read_text())
    uci = src / "uci.c"
    patch(uci, UCI_EVAL, UCI_PAIR)
    make = ["make", "-C", str(src), "build", "ARCH=x86-64-bmi2", "COMP=gcc", "-j2", "EXTRALDFLAGS=-lm"]
    build = subprocess.run(make, capture_output=True, text=True)
    (out / "build.log").write_text(build.stdout + build.stderr)
    if build.returncode != 0:
        print((build.stdout + build.stderr)[-3000:], file=sys.stderr)
        return 1
    engine = out / "main.out"
    (src / "main.out").rename(engine)
    print(f"hybrid engine: {engine} (net {net_path.name}; transplants: {', '.join(args.transplant) or 'none'})")

    fens = [" ".join(line.split()[:6]) for line in (ROOT / "tests/data/game_positions.fen").read_text().splitlines() if line.strip()]
    pairs = eval_pairs(engine, fens)
    if len(pairs) != len(fens):
        print(f"the hybrid answered {len(pairs)} of {len(fens)} evals", file=sys.stderr)
        return 1
    if args.check:
        want = minnow_evals(Path(args.check), fens)
        bad = [i for i, (p, w) in enumerate(zip(pairs, want)) if p[1] != w]
        if len(want) != len(fens) or bad:
            print(f"the hybrid's minnow evaluation differs from {args.check} at positions {bad[:10]}", file=sys.stderr)
            return 1
        print(f"minnow evaluation identical to {args.check} on {len(fens)} positions")
    kf = [p[0] for p in pairs]
    mn = [p[1] for p in pairs]
    n = len(kf)
    mk, mm = sum(kf) / n, sum(mn) / n
    cov = sum((a - mk) * (b - mm) for a, b in zip(kf, mn)) / n
    var_m = sum((b - mm) ** 2 for b in mn) / n
    var_k = sum((a - mk) ** 2 for a in kf) / n
    print(f"KaggleFish's net on minnow's, {n} positions: slope {cov / var_m:.2f}, correlation {cov / (var_k * var_m) ** 0.5:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
