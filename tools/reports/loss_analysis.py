#!/usr/bin/env python3
"""Where and how an engine's lost games were lost, from the scores both engines left in a
`match.py` (or `arena.py`) PGN: the ply where its game started to fall, the phase, and
whether the fall was a tactic the opponent saw first or a judgement held for many moves.

    .venv/bin/python tools/reports/loss_analysis.py data/kf320/4698717.pgn --engine minnow-4698717

Each move's comment carries the mover's score ("+0.35/12 0.512s", "-M3/20 ..."), so every
position has the opponent's view and ours. For each game the engine lost (not on time or
by a crash: those say nothing of the search):
- the **fall**: the engine's first move after which the opponent's score, turned to our
  side, stays at or below -THRESHOLD cp (default 100) to the end of the game;
- the **phase** at the fall, by the men left on the board (both sides, kings and pawns
  included): opening 27-32, middlegame 15-26, endgame 14 or fewer;
- the **kind**: "tactic" when our own score falls to -THRESHOLD within LAG of our moves
  after the fall (default 3: we saw it soon after, a few plies deeper than we looked), else
  "judgement" (we went on thinking we were fine for longer: a blind spot that depth only
  exposes), and "unseen" when our score never fell that far before the game ended;
- the **lag**: how many of our moves after the fall our own score took to agree.
Scores are read as `reports/adjudication.py` reads them (a mate as +-MATE_CP). The table gives counts by phase and kind, the median fall
ply and lag, and the games' fall plies (`--list` prints each game).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

import chess.pgn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from adjudication import move_score  # noqa: E402

SKIP = ("time forfeit", "crash", "illegal", "no move in time", "gave no")


def phase(board: chess.Board) -> str:
    men = chess.popcount(board.occupied)
    return "opening" if men >= 27 else "middlegame" if men >= 15 else "endgame"


def lost_by(game: chess.pgn.Game, engine: str) -> bool:
    """True if the engine played the game and its result is a loss for it."""
    result = game.headers.get("Result")
    return (game.headers.get("White") == engine and result == "0-1") or (
        game.headers.get("Black") == engine and result == "1-0")


def analyse(game: chess.pgn.Game, engine: str, threshold: int, lag_limit: int) -> dict | None:
    """The fall of a game the engine lost, or None (a win, a draw, or a loss on time)."""
    if not lost_by(game, engine):
        return None
    ours = chess.WHITE if game.headers.get("White") == engine else chess.BLACK
    tail = " ".join(n.comment for n in game.mainline()).lower()
    if any(word in tail for word in SKIP) or any(w in game.headers.get("Termination", "").lower() for w in SKIP):
        return None
    # One row per ply: the mover, our-side score of that move's comment, the board before it.
    plies = []
    for node in game.mainline():
        board = node.parent.board()
        white_cp = move_score(node.comment, board.turn == chess.WHITE)
        ours_cp = None if white_cp is None else (white_cp if ours == chess.WHITE else -white_cp)
        plies.append((board.turn, ours_cp, board, board.ply()))
    theirs = [i for i, p in enumerate(plies) if p[0] != ours and p[1] is not None]
    if not theirs:
        return None
    # The opponent's last score above the line; the fall is our move just before the next of theirs.
    last_ok = max((i for i in theirs if plies[i][1] > -threshold), default=None)
    after = [i for i in theirs if last_ok is None or i > last_ok]
    if not after:
        return None
    first_bad = after[0]
    fall = max((i for i in range(first_bad) if plies[i][0] == ours), default=None)
    if fall is None:
        return None
    ours_after = [p[1] for p in plies[fall:] if p[0] == ours and p[1] is not None]
    lag = next((k for k, cp in enumerate(ours_after) if cp <= -threshold), None)
    kind = "unseen" if lag is None else "tactic" if lag <= lag_limit else "judgement"
    board = plies[fall][2]
    return {"round": game.headers.get("Round", "?"), "ply": plies[fall][3] + 1, "phase": phase(board), "kind": kind,
            "lag": lag, "fen": board.fen(), "ours": plies[fall][1], "theirs": plies[first_bad][1]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", type=Path, nargs="+")
    ap.add_argument("--engine", required=True, help="the engine's name in the PGN headers")
    ap.add_argument("--threshold", type=int, default=100, help="centipawns of a lost game (default 100)")
    ap.add_argument("--lag", type=int, default=3, help="our moves within which a fall counts as a tactic (default 3)")
    ap.add_argument("--list", action="store_true", help="print each lost game's fall")
    args = ap.parse_args(argv)
    falls, games = [], 0
    for path in args.pgn:
        with open(path, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                games += 1
                found = analyse(game, args.engine, args.threshold, args.lag)
                if found:
                    falls.append(found)
    if not falls:
        print(f"loss_analysis: no lost game of {args.engine} with scores in {games} games", file=sys.stderr)
        return 1
    if args.list:
        for f in falls:
            print(f"game {f['round']}: ply {f['ply']} {f['phase']} {f['kind']} lag {f['lag']} ours {f['ours']:+} "
                  f"theirs {f['theirs']:+}  {f['fen']}")
    kinds = ["tactic", "judgement", "unseen"]
    table = Counter((f["phase"], f["kind"]) for f in falls)
    print(f"{len(falls)} lost games of {games} ({args.engine}; fall at -{args.threshold} cp, tactic within {args.lag} moves)\n")
    print("| phase at the fall | " + " | ".join(kinds) + " | all | median fall ply |")
    print("| --- |" + " ---: |" * (len(kinds) + 2))
    for ph in ("opening", "middlegame", "endgame"):
        rows = [f for f in falls if f["phase"] == ph]
        median = statistics.median(f["ply"] for f in rows) if rows else "–"
        print(f"| {ph} | " + " | ".join(str(table[(ph, k)]) for k in kinds) + f" | {len(rows)} | {median} |")
    lags = [f["lag"] for f in falls if f["lag"] is not None]
    print(f"| all | " + " | ".join(str(sum(table[(p, k)] for p in ('opening', 'middlegame', 'endgame'))) for k in kinds)
          + f" | {len(falls)} | {statistics.median(f['ply'] for f in falls)} |")
    print(f"\nmedian lag (our moves until our score agreed): {statistics.median(lags) if lags else '–'}")
    print(f"LOSSES games={len(falls)} " + " ".join(f"{k}={sum(1 for f in falls if f['kind'] == k)}" for k in kinds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
