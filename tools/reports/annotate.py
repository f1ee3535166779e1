#!/usr/bin/env python3
"""Scores for the moves of games that were saved without them (the harness's games:
`tools/arena.py` cannot see either engine's thoughts), so that `loss_analysis.py` can read
where and how a game was lost.

    .venv/bin/python tools/reports/annotate.py data/kf/main_harness.pgn --out data/kf/main_harness_scored.pgn \
        --engine 'minnow=cmd=target/release/minnow name=minnow option.Hash=1' \
        --engine 'submission kf.tar.gz=cmd=/tmp/kagglefish/main.out name=kagglefish option.Hash=1' \
        --nodes 320000 --lost-by minnow
    .venv/bin/python tools/reports/loss_analysis.py data/kf/main_harness_scored.pgn --engine minnow

Each `--engine HEADER=SPEC` names the player as the PGN's White/Black header has it and the
UCI engine (a spec as tools/lib/engines.py reads it; Hash 1 unless it sets one, if it has the option) that stands
in for it. Each game is replayed from its first position: before every move the mover's
engine searches the position with `go nodes N` (`--nodes`), given the game's moves so far
as a game would give them, its table kept from move to move within the game and cleared
(`ucinewgame`) between games; the move's comment becomes that search's score from the
mover's side, "+0.35/12 0.512s" as tools/match.py writes it. The move actually played is
kept whatever the engine would have played: the scores say what each side's search thought
of the position it had to move in, at N nodes rather than at the harness's clock (a fixed
budget, so a rerun gives the same tree). `--lost-by NAME` annotates only the games NAME lost
(the rest are copied unscored), which is all that loss_analysis.py reads. The headers and
the termination comment are kept.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import chess
import chess.engine
import chess.pgn

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tools" / "lib"))
from engines import SpecError, open_engine, parse_engine_spec, quiet_engine_logs  # noqa: E402
from loss_analysis import lost_by  # noqa: E402
from match import format_comment  # noqa: E402


def engine_arg(text: str) -> tuple[str, str]:
    header, sep, spec = text.partition("=")
    if not sep or not header or not spec:
        raise argparse.ArgumentTypeError(f"expected HEADER=SPEC, got {text!r}")
    return header, spec


def annotate(game: chess.pgn.Game, engines: dict[str, chess.engine.SimpleEngine], nodes: int) -> int:
    """Writes the mover's score into each move's comment; returns the moves scored."""
    players = {chess.WHITE: game.headers.get("White"), chess.BLACK: game.headers.get("Black")}
    # A fresh table for each game, as in a match: python-chess sends `ucinewgame` when the
    # `game` key changes, and only `position ... moves` within one.
    scored = 0
    key = object()
    for node in game.mainline():
        board = node.parent.board()
        engine = engines[players[board.turn]]
        start = time.perf_counter()
        info = engine.analyse(board, chess.engine.Limit(nodes=nodes), game=key)
        comment = format_comment(info, time.perf_counter() - start, board.turn)
        # The last move's comment also holds the game's end (a termination note): kept.
        node.comment = f"{comment}; {node.comment}" if node.comment else comment
        scored += 1
    return scored


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--engine", type=engine_arg, action="append", required=True, metavar="HEADER=SPEC")
    ap.add_argument("--nodes", type=int, default=320000)
    ap.add_argument("--lost-by", metavar="NAME", help="annotate only the games NAME lost")
    args = ap.parse_args(argv)
    quiet_engine_logs()
    try:
        specs = {header: parse_engine_spec(spec) for header, spec in args.engine}
    except SpecError as e:
        print(f"annotate: {e}", file=sys.stderr)
        return 2
    games = []
    try:
        with open(args.pgn, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                games.append(game)
    except (OSError, UnicodeDecodeError) as e:
        print(f"annotate: cannot read {args.pgn}: {e}", file=sys.stderr)
        return 2
    wanted = [g for g in games if args.lost_by is None or lost_by(g, args.lost_by)]
    missing = {g.headers.get(side) for g in wanted for side in ("White", "Black")} - specs.keys()
    if missing:
        print(f"annotate: no --engine for {', '.join(sorted(map(str, missing)))}", file=sys.stderr)
        return 2
    engines = {}
    try:
        for header, spec in specs.items():
            # Hash 1 MiB by the spec's `memory` (engine_settings: an `option.Hash` wins, and an
            # engine without the option is left alone).
            if spec.memory is None:
                spec.memory = 1
            engines[header] = open_engine(spec)
        scored = 0
        for i, game in enumerate(wanted, 1):
            scored += annotate(game, engines, args.nodes)
            print(f"annotate: game {i}/{len(wanted)} (round {game.headers.get('Round', '?')}), {scored} moves",
                  flush=True)
    except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
        print(f"annotate: an engine failed: {e}", file=sys.stderr)
        return 1
    finally:
        for engine in engines.values():
            try:
                engine.quit()
            except Exception:  # a dead engine: nothing to close
                pass
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        for game in games:
            print(game, file=f, end="\n\n")
    print(f"ANNOTATE games={len(games)} scored={len(wanted)} moves={scored} nodes={args.nodes} out={args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
