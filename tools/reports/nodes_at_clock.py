#!/usr/bin/env python3
"""How many nodes a move the Kaggle clock gives a build: the time its moves took in a match
at that clock, times the build's nodes a second on positions of real games. The figure a
fixed-node tune or screen should run near to say something about the clock.

    .venv/bin/python tools/reports/nodes_at_clock.py --pgn data/accept/accept40_g14.pgn \
        --name gen14 --engine target/release/minnow

The move times are those of engine NAME (as White or Black) in a `match.py --kaggle-clock`
PGN, read from each move's comment (`{ +0.27/16 0.466s }`); their quartiles are printed
with the median depth of those comments. Each position of `--positions` is then searched
from a cleared state (`ucinewgame`, Hash 1) with `go movetime` at the median move time, and
the `nps` of its last `info` line is kept. The last line is
`NODES time_q1=.. time_median=.. time_q3=.. nps=.. q1=.. median=.. q3=..`: the median nodes a
second times each quartile of the move time. Run it with nothing else on the machine.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))  # the shared modules
from bank import our_moves  # noqa: E402
from uci_engine import UciEngine  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
# A move's comment as match.py writes it: score/depth, then the time it took.
COMMENT = re.compile(r"/(\d+)\s+([\d.]+)s\b")


def moves_of(text: str, name: str) -> list[tuple[int, float]]:
    """(depth, seconds) of every move of engine `name` in a PGN whose comments carry both."""
    return [
        (int(m.group(1)), float(m.group(2)))
        for _, comments in our_moves(text, name)
        for comment in comments
        if (m := COMMENT.search(comment))
    ]


def quartiles(values: list[float]) -> tuple[float, float, float]:
    """First quartile, median and third quartile."""
    q = statistics.quantiles(values, n=4)
    return q[0], statistics.median(values), q[2]


def nps_at(engine: UciEngine, fen: str, movetime_ms: int) -> int:
    """The nodes a second of the last `info` line of a `go movetime` search of `fen`."""
    engine.send("ucinewgame")
    engine.send(f"position fen {fen}")
    engine.send(f"go movetime {movetime_ms}")
    nps, deadline = 0, time.perf_counter() + 60
    while True:
        line = engine.read_line(deadline, "bestmove")
        if line.startswith("bestmove"):
            return nps
        if found := re.search(r"\bnps (\d+)", line):
            nps = int(found.group(1))


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pgn", required=True, help="a match.py --kaggle-clock PGN")
    ap.add_argument("--name", required=True, help="the engine's name in it")
    ap.add_argument("--engine", default=str(ROOT / "target/release/minnow"))
    ap.add_argument("--positions", default=str(ROOT / "tests/data/game_positions.fen"))
    args = ap.parse_args(argv)
    moves = moves_of(Path(args.pgn).read_text(), args.name)
    if len(moves) < 4:
        sys.exit(f"nodes_at_clock: {len(moves)} timed moves of '{args.name}' in {args.pgn}; need 4 or more")
    times = quartiles([t for _, t in moves])
    print(f"{len(moves)} moves of {args.name}: time {times[0]:.3f} / {times[1]:.3f} / {times[2]:.3f} s "
          f"(quartiles), depth median {statistics.median(d for d, _ in moves):g}")
    fens = [line.strip() for line in Path(args.positions).read_text().splitlines() if line.strip()]
    with UciEngine(args.engine) as engine:
        engine.handshake()
        engine.send("setoption name Hash value 1")
        rates = [nps_at(engine, fen, round(times[1] * 1000)) for fen in fens]
    nps = statistics.median(rates)
    nodes = [round(nps * t) for t in times]
    print("NODES", f"time_q1={times[0]:.3f} time_median={times[1]:.3f} time_q3={times[2]:.3f} nps={nps:.0f}",
          f"q1={nodes[0]} median={nodes[1]} q3={nodes[2]} positions={len(rates)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
