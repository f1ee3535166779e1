#!/usr/bin/env python3
"""Makes the ranking set: quiet positions scored by a deep search, the yardstick that
`train --rank FILE` measures a net against (the Spearman correlation of the net's static
evaluation with the search's scores: does the net order positions as a deep search does?).

    .venv/bin/python tools/datagen/rank_set.py --engine data/sf-tools/stockfish --depth 12 \\
        --out tests/data/rank_set.txt

Positions: every STRIDE-th line of the shared popular-positions and endgame sets, from an
offset that the samples in tests/data do not use, kept only if quiet (not in check, the
search's best move neither a capture nor a promotion) and within --max-score; each line of
the output is `FEN | score` (centipawns from the side to move's view, as the engine prints
them: the scale does not matter to a rank correlation).
"""

import argparse
import sys
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data" / "positions"


def candidates(path: Path, stride: int, offset: int):
    """Every stride-th line of an EPD file from line offset (1-based), as boards."""
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if n % stride != offset % stride or not line.strip():
                continue
            fields = line.split()
            board = chess.Board(" ".join(fields[:4]) + " 0 1")
            if board.is_valid():
                yield board


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="UCI engine that scores the positions")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--popular", type=int, default=1000, help="positions from popularpos_lichess_v3.epd")
    ap.add_argument("--endgames", type=int, default=500, help="positions from endgames.epd")
    ap.add_argument("--max-score", type=int, default=1500)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    sources = [
        (SHARED / "popularpos_lichess_v3.epd", 100, 51, args.popular),
        (SHARED / "endgames.epd", 80, 41, args.endgames),
    ]
    lines = []
    with chess.engine.SimpleEngine.popen_uci(args.engine) as engine:
        engine.configure({"Threads": 1, "Hash": 16})
        for path, stride, offset, want in sources:
            if not path.is_file():
                print(f"rank_set: {path} not found", file=sys.stderr)
                return 1
            kept = 0
            for board in candidates(path, stride, offset):
                if kept == want:
                    break
                if board.is_check() or board.is_game_over():
                    continue
                # A new game each time (ucinewgame): every score from an empty hash.
                info = engine.analyse(board, chess.engine.Limit(depth=args.depth), game=object())
                pv, score = info.get("pv"), info["score"].relative
                if not pv or score.is_mate() or abs(score.score()) > args.max_score:
                    continue
                if board.is_capture(pv[0]) or pv[0].promotion:
                    continue
                lines.append(f"{board.epd()} 0 1 | {score.score()}")
                kept += 1
            print(f"rank_set: {kept} positions from {path.name}", file=sys.stderr)
    Path(args.out).write_text(
        f"# {len(lines)} quiet positions, side to move's score by {Path(args.engine).name} at depth "
        f"{args.depth} (tools/datagen/rank_set.py): FEN | score\n" + "\n".join(lines) + "\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
