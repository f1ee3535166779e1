#!/usr/bin/env python3
"""Build an unbalanced opening book: early positions where one side is clearly better.

    .venv/bin/python tools/suites/make_unbalanced.py --engine /usr/games/stockfish --threads 2 --seed 1 \\
        --out tests/data/unbalanced_openings.epd

Self-play from balanced openings ends mostly in draws, and a draw says little about which
build is better. The Stockfish project's tests play from "unbalanced human openings" (UHO)
instead: positions from real games where one side is ahead by about a pawn, each played
twice with colours swapped (as `match.py` plays every opening). The better build converts
more of the advantaged games and saves more of the others, so a game pair tells the builds
apart more often than from a level start. This script makes such a book from a position
set of its own choosing:

 1. Draw --sample positions from --source (in --seed order, wrapping round), play
    --random-plies random legal moves from each (the harness's openings are level; a
    random move or two is what unbalances them, as a human's inaccuracy does), and keep
    legal positions, side to move not in check, with at least --min-pieces pieces (kings
    included) and both queens, so that the book holds openings, not endgames; each
    position once.
 2. Score each with Stockfish (--engine, one thread, Hash 16, a new game for each position)
    at --nodes nodes; keep it when the side that is better by that score is better by
    --low to --high centipawns (Stockfish's own scale: 100 is about a 50% chance to win
    in its self-play) and the best move is not a capture or promotion (an advantage that
    is a piece hanging is not an opening).
 3. Stop at --count positions (in --seed order, so a larger --count extends the book).

Each output line is `<fen> c0 "<score> <best move>";`: the six-field FEN (the source's
move counters, or 0 and 1 where it has none, advanced by the random plies), the side to move's score in centipawns
(`+112` or `-97`), and Stockfish's best move in UCI. `tools/match.py --openings FILE`
plays it; pairs swap colours, so each build plays the better side once.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "tools" / "lib"))
from epd import EpdError, read_epd_file  # noqa: E402

DEFAULT_SOURCE = ROOT / "tests" / "data" / "kaggle_openings.epd"


def eligible(board: chess.Board, min_pieces: int) -> bool:
    """An opening-like position: legal, not in check, enough pieces, both queens."""
    return (
        board.is_valid()
        and not board.is_check()
        and chess.popcount(board.occupied) >= min_pieces
        and bool(board.pieces_mask(chess.QUEEN, chess.WHITE))
        and bool(board.pieces_mask(chess.QUEEN, chess.BLACK))
    )


def keep(score_cp: int | None, best: chess.Move | None, board: chess.Board, low: int, high: int) -> bool:
    """Whether a scored position goes into the book (see step 2 of the docstring)."""
    if score_cp is None or best is None:
        return False
    if not low <= abs(score_cp) <= high:
        return False
    return not board.is_capture(best) and best.promotion is None


class Scorer:
    """One Stockfish per worker thread, each asked with a fresh game per position."""

    def __init__(self, command: list[str], nodes: int):
        self.command = command
        self.nodes = nodes
        self.local = threading.local()
        self.engines: list[chess.engine.SimpleEngine] = []
        self.lock = threading.Lock()

    def score(self, board: chess.Board) -> tuple[int | None, chess.Move | None]:
        engine = getattr(self.local, "engine", None)
        if engine is None:
            engine = chess.engine.SimpleEngine.popen_uci(self.command)
            engine.configure({"Threads": 1, "Hash": 16})
            self.local.engine = engine
            with self.lock:
                self.engines.append(engine)
        info = engine.analyse(board, chess.engine.Limit(nodes=self.nodes), game=object())
        score = info.get("score")
        pv = info.get("pv") or []
        if score is None or score.is_mate():
            return None, pv[0] if pv else None
        return score.relative.score(), pv[0] if pv else None

    def close(self) -> None:
        for engine in self.engines:
            try:
                engine.quit()
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError):
                engine.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE, help="EPD/FEN positions (default: %(default)s)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--engine", default="stockfish", help="Stockfish command (default: %(default)s)")
    ap.add_argument("--nodes", type=int, default=100_000, help="nodes a position (default: %(default)s)")
    ap.add_argument("--low", type=int, default=90, help="least advantage kept, cp (default: %(default)s)")
    ap.add_argument("--high", type=int, default=130, help="largest advantage kept, cp (default: %(default)s)")
    ap.add_argument("--min-pieces", type=int, default=26, help="(default: %(default)s)")
    ap.add_argument("--sample", type=int, default=14_000, help="source lines drawn (default: %(default)s)")
    ap.add_argument("--count", type=int, default=1000, help="positions in the book (default: %(default)s)")
    ap.add_argument("--random-plies", type=int, default=2, help="random plies played from each source position before scoring (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, help="Stockfish processes at once (default: %(default)s)")
    args = ap.parse_args(argv)
    if not 0 <= args.low <= args.high:
        ap.error("need 0 <= --low <= --high")

    try:
        records = read_epd_file(args.source)
    except (OSError, EpdError) as exc:
        print(f"error: {args.source}: {exc}", file=sys.stderr)
        return 1
    order = list(range(len(records)))
    random.Random(args.seed).shuffle(order)
    candidates = []
    seen = set()
    for number in range(args.sample):
        index = order[number % len(order)]
        board = records[index].board.copy(stack=False)
        rng = random.Random(f"{args.seed}:{number}")
        for _ in range(args.random_plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        board.clear_stack()  # the position alone: the random moves are not the game's
        key = board.epd()
        if key in seen or not eligible(board, args.min_pieces):
            continue
        seen.add(key)
        candidates.append(board)
    print(f"{len(candidates)} of {args.sample} drawn positions are eligible", flush=True)

    scorer = Scorer(args.engine.split(), args.nodes)
    kept: list[str] = []
    white_better = 0
    scored = 0
    try:
        with ThreadPoolExecutor(max_workers=max(1, args.threads)) as pool:
            # In batches, in seed order, so that the book is the same for any --threads.
            batch = 64 * max(1, args.threads)
            for start in range(0, len(candidates), batch):
                chunk = candidates[start : start + batch]
                for board, (cp, best) in zip(chunk, pool.map(scorer.score, chunk), strict=True):
                    scored += 1
                    if len(kept) < args.count and keep(cp, best, board, args.low, args.high):
                        kept.append(f'{board.fen()} c0 "{cp:+d} {best.uci()}";')
                        white_better += (cp > 0) == (board.turn == chess.WHITE)
                print(f"scored {scored}, kept {len(kept)}", flush=True)
                if len(kept) >= args.count:
                    break
    except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as exc:
        print(f"error: {args.engine}: {exc}", file=sys.stderr)
        return 1
    finally:
        scorer.close()
    if len(kept) < args.count:
        print(f"only {len(kept)} of {args.count} found: draw more lines (--sample)", file=sys.stderr)
    args.out.write_text("".join(line + "\n" for line in kept))
    print(f"wrote {len(kept)} positions to {args.out} (white better in {white_better}) from {scored} scored")
    return 0 if kept else 1


if __name__ == "__main__":
    sys.exit(main())
