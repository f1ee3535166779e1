#!/usr/bin/env python3
"""The depth a build reaches in a fixed number of nodes on the `bench` positions: a
number to watch when the search's selectivity changes (the pruning screens of docs/search.md), not a target.

    .venv/bin/python tools/reports/depth_at_nodes.py --engine target/release/minnow --nodes 20000
    .venv/bin/python tools/reports/depth_at_nodes.py --engine target/tune/release/minnow --option PRUNE_AT_LMR_DEPTH=0

Each of the 16 positions of `frontend/src/bench.rs` is searched from a cleared state
(`ucinewgame`, Hash 1) with `go nodes N`; the depth is that of the last `info depth` line
before `bestmove` (the last iteration started, as the engine reports it). Prints a row a
position, then `DEPTH nodes=N mean=.. min=.. max=.. ebf=.. positions=16`, where `ebf` is
the effective branching factor: the b with b^(mean depth) = N.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))  # the shared modules
from uci_engine import UciEngine  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def bench_positions(source: Path = ROOT / "frontend" / "src" / "bench.rs") -> list[str]:
    """The FENs of `BENCH_POSITIONS`, read from the engine's own source."""
    text = source.read_text()
    block = text[text.index("BENCH_POSITIONS"):]
    block = block[: block.index("];")]
    return re.findall(r'"([^"]+)"', block)


def last_depth(lines: list[str]) -> int:
    """The depth of the last `info depth D` line (0 without one)."""
    depth = 0
    for line in lines:
        found = re.match(r"info .*?\bdepth (\d+)", line)
        if found:
            depth = int(found.group(1))
    return depth


def search_lines(engine: UciEngine, fen: str, nodes: int, timeout: float = 120) -> list[str]:
    """`go nodes N` on `fen` from a cleared state (`ucinewgame`, then `isready`, since some
    engines drop what comes while they work): the lines before `bestmove`."""
    engine.send("ucinewgame")
    engine.send("isready")
    engine.wait_for("readyok")
    engine.send(f"position fen {fen}")
    engine.send(f"go nodes {nodes}")
    lines, deadline = [], time.perf_counter() + timeout
    while True:
        line = engine.read_line(deadline, "bestmove").strip()
        if line.startswith("bestmove"):
            return lines
        lines.append(line)


def search_depth(engine: UciEngine, fen: str, nodes: int) -> int:
    return last_depth(search_lines(engine, fen, nodes))


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=str(ROOT / "target/release/minnow"))
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a UCI option")
    args = ap.parse_args(argv)
    depths = []
    with UciEngine(args.engine) as engine:
        engine.handshake()
        engine.send("setoption name Hash value 1")
        for item in args.option:
            name, _, value = item.partition("=")
            engine.send(f"setoption name {name} value {value}")
        for fen in bench_positions():
            depths.append(search_depth(engine, fen, args.nodes))
            print(f"{depths[-1]:3}  {fen}")
    # Effective branching factor: the b with b^depth = nodes, over the positions' mean depth.
    ebf = args.nodes ** (1 / statistics.mean(depths)) if min(depths) > 0 else float("nan")
    summary = {"nodes": args.nodes, "mean": f"{statistics.mean(depths):.2f}", "min": min(depths), "max": max(depths),
               "ebf": f"{ebf:.2f}", "positions": len(depths)}
    print("DEPTH", *(f"{name}={value}" for name, value in summary.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
