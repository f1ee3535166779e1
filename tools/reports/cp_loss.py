#!/usr/bin/env python3
"""Centipawns lost a move, by the men on the board, for each side of a set of games: the
measure of Search V's item 4 (is minnow's endgame worse than its opponents'?).

A judge (Stockfish; by default the teacher `$MINNOW_DATA/sf-label/stockfish`) searches every
position of every game once to a fixed depth from a cleared state; a move's loss is the
mover's score before it less the mover's score after it (the next position's score negated),
never below 0, scores clipped to +-1000 cp and a mate counted as 1000. Checkmate and stalemate
after a move are scored by the rules. Each position is judged once (a cache on disk, keyed
by the FEN and the depth), so a second report over the same games is free.

    .venv/bin/python tools/reports/cp_loss.py games.pgn --engine minnow --depth 12 --jobs 2

prints, for the named engine and for everyone else in its games, the mean loss a move with
>= 24, 13-23 and <= 12 men (kings and pawns included), the moves counted, and the share of
moves that lost 50 cp or more.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import sys
import threading
from pathlib import Path

import chess
import chess.engine
import chess.pgn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from move_quality import CLIP, DATA, judged_cp  # noqa: E402  (one rule for a judged score)

BUCKETS = ((24, 32, ">= 24 men"), (13, 23, "13-23 men"), (0, 12, "<= 12 men"))


def bucket(men: int) -> str:
    """The label of the bucket `men` falls in."""
    return next(label for low, high, label in BUCKETS if low <= men <= high)


def by_rules(board: chess.Board) -> int | None:
    """The side to move's score when the rules decide it: mated -CLIP, stalemate 0."""
    if board.is_checkmate():
        return -CLIP
    if board.is_stalemate() or board.is_insufficient_material():
        return 0
    return None


def losses(game: chess.pgn.Game, judged: dict[str, int]) -> list[tuple[str, int, int]]:
    """(mover's name, men before the move, loss in cp) for each move of `game`, from the
    side-to-move scores in `judged` (by FEN)."""
    names = {chess.WHITE: game.headers.get("White", "?"), chess.BLACK: game.headers.get("Black", "?")}
    board = game.board()
    out = []
    for move in game.mainline_moves():
        before = judged[board.fen()]
        mover, men = board.turn, chess.popcount(board.occupied)
        board.push(move)
        after = -judged[board.fen()]
        out.append((names[mover], men, max(0, before - after)))
    return out


def positions(game: chess.pgn.Game) -> list[chess.Board]:
    """Every position of the game, the last included."""
    board = game.board()
    out = [board.copy()]
    for move in game.mainline_moves():
        board.push(move)
        out.append(board.copy())
    return out


class Judge:
    """Scores positions with `jobs` judge processes, each position once, cached on disk."""

    def __init__(self, program: str, depth: int, jobs: int, cache: Path):
        self.program, self.depth, self.jobs, self.cache = program, depth, jobs, cache
        self.known: dict[str, int] = {}
        if cache.exists():
            for line in cache.read_text().splitlines():
                try:
                    row = json.loads(line)
                except ValueError:
                    continue  # a line cut short when a run was killed
                if row.get("depth") == depth:
                    self.known[row["fen"]] = row["score"]
        self.lock = threading.Lock()
        self.local = threading.local()
        self.engines: list[chess.engine.SimpleEngine] = []

    def engine(self) -> chess.engine.SimpleEngine:
        if not hasattr(self.local, "engine"):
            engine = chess.engine.SimpleEngine.popen_uci(self.program)
            engine.configure({"Threads": 1, "Hash": 16})
            self.local.engine = engine
            with self.lock:
                self.engines.append(engine)
        return self.local.engine

    def score(self, board: chess.Board) -> int:
        ruled = by_rules(board)
        if ruled is not None:
            return ruled
        # A new `game` each time: python-chess sends ucinewgame, a cleared state per position.
        info = self.engine().analyse(board, chess.engine.Limit(depth=self.depth), game=object())
        return judged_cp(info["score"], board.turn)

    def judge(self, boards: list[chess.Board]) -> dict[str, int]:
        todo = {b.fen(): b for b in boards if b.fen() not in self.known}
        self.cache.parent.mkdir(parents=True, exist_ok=True)
        with open(self.cache, "a") as out, concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
            for done, (fen, score) in enumerate(zip(todo, pool.map(self.score, todo.values())), 1):
                self.known[fen] = score
                out.write(json.dumps({"fen": fen, "depth": self.depth, "score": score}) + "\n")
                if done % 500 == 0:
                    out.flush()
                    print(f"judged {done} of {len(todo)} new positions", file=sys.stderr, flush=True)
        return self.known

    def close(self) -> None:
        for engine in self.engines:
            engine.quit()


def report(rows: list[tuple[str, int, int]], engine: str) -> str:
    """The table: mean loss a move, moves, share >= 50 cp, per side and bucket."""
    lines = ["| side | " + " | ".join(label for _, _, label in BUCKETS) + " | all |",
             "| --- |" + " ---: |" * (len(BUCKETS) + 1)]
    for side, label in ((True, engine), (False, "opponents")):
        cells = []
        for wanted in [b[2] for b in BUCKETS] + [None]:
            mine = [loss for name, men, loss in rows
                    if (name == engine) == side and (wanted is None or bucket(men) == wanted)]
            if mine:
                big = sum(loss >= 50 for loss in mine)
                cells.append(f"{sum(mine) / len(mine):.1f} cp ({len(mine)}; {100 * big / len(mine):.1f}% >= 50)")
            else:
                cells.append("-")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", type=Path, nargs="+")
    ap.add_argument("--engine", required=True, help="the engine's name in the PGN headers")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--jobs", type=int, default=1, help="judge processes (one thread each)")
    ap.add_argument("--judge", default=str(DATA / "sf-label" / "stockfish"))
    ap.add_argument("--cache", type=Path, default=DATA / "cp_loss" / "judged.jsonl")
    args = ap.parse_args()
    games = []
    for path in args.pgn:
        with open(path) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                if args.engine in (game.headers.get("White"), game.headers.get("Black")):
                    games.append(game)
    if not games:
        print(f"cp_loss.py: no games of {args.engine}", file=sys.stderr)
        return 1
    judge = Judge(args.judge, args.depth, max(1, args.jobs), args.cache)
    try:
        judged = judge.judge([b for g in games for b in positions(g)])
    finally:
        judge.close()
    rows = [row for g in games for row in losses(g, judged)]
    print(f"{len(games)} games of {args.engine}; judge {args.judge} at depth {args.depth}")
    print(report(rows, args.engine))
    return 0


if __name__ == "__main__":
    sys.exit(main())
