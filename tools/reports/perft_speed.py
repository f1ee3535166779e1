#!/usr/bin/env python3
"""Perft speed of the engine against a reference engine (Debian's stockfish).

Each measurement starts the engine, does the `uci` / `isready` handshake,
sends `position ...` and then times `go perft D` from sending it until the
"Nodes searched" line (wall clock). The node count must equal the known value,
or the tool stops with exit status 1. Measurements are repeated and the
engines interleaved (engine, reference, engine, reference, ...) so that noise
hits both; the table gives medians and the engine/reference speed ratio.

    python3 tools/reports/perft_speed.py --repeats 3
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))  # the shared modules
from uci_engine import EngineError, UciEngine  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ENGINE = ROOT / "target" / "release" / "minnow"

# (name, argument of the `position` command, depth, known node count)
POSITIONS = [
    ("startpos", "startpos", 6, 119_060_324),
    ("kiwipete", "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193_690_690),
]


class WrongNodeCount(Exception):
    """An engine's perft total differs from the known value."""


def find_executable(name: str) -> str | None:
    """Resolve a command name on PATH, then in /usr/games (Debian's games are there); paths pass through."""
    if "/" in name:
        return name
    return shutil.which(name) or shutil.which(name, path="/usr/games")


def time_perft(engine_path: str, position: str, depth: int, expected: int, timeout: float) -> float:
    """Seconds one `go perft` takes in a fresh engine process; checks the node count."""
    with UciEngine(engine_path, timeout) as engine:
        engine.handshake()
        engine.send(f"position {position}")
        start = time.perf_counter()
        engine.send(f"go perft {depth}")
        _, nodes = engine.read_perft()
        elapsed = time.perf_counter() - start
    if nodes != expected:
        raise WrongNodeCount(f"{engine_path}: 'position {position}' perft {depth} gave {nodes} nodes, expected {expected}")
    return elapsed


def labels(engine: str, reference: str) -> tuple[str, str]:
    """Short table labels for the two engines, distinct even if both are the same program."""
    a, b = Path(engine).name, Path(reference).name
    return (f"{a} (engine)", f"{b} (reference)") if a == b else (a, b)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=str(DEFAULT_ENGINE), help="engine to measure (default: %(default)s)")
    parser.add_argument("--reference", default="stockfish", help="reference engine, path or name looked up on PATH then /usr/games (default: %(default)s)")
    parser.add_argument("--repeats", type=int, default=3, help="measurements per engine and position (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds allowed per perft (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    reference = find_executable(args.reference)
    if reference is None:
        parser.error(f"reference engine {args.reference!r} not found (apt-get install stockfish)")

    engines = dict(zip(labels(args.engine, reference), (args.engine, reference), strict=True))
    times: dict[tuple[str, str], list[float]] = {}
    try:
        for rep in range(1, args.repeats + 1):
            for name, position, depth, expected in POSITIONS:
                for label, path in engines.items():
                    seconds = time_perft(path, position, depth, expected, args.timeout)
                    times.setdefault((name, label), []).append(seconds)
                    mnps = expected / seconds / 1e6
                    print(f"run {rep}/{args.repeats}  {name:<9} {label:<24} {seconds:8.3f} s  {mnps:8.1f} Mnps", flush=True)
    except (EngineError, WrongNodeCount) as exc:
        print(f"ERROR: {exc}", file=sys.stderr)
        return 1

    engine_label, reference_label = engines
    print(f"\n{'position':<10} {'engine':<24} {'median s':>9} {'median Mnps':>12}")
    for name, _, _, expected in POSITIONS:
        for label in engines:
            median = statistics.median(times[name, label])
            print(f"{name:<10} {label:<24} {median:9.3f} {expected / median / 1e6:12.1f}")
    print(f"\nspeed ratio {engine_label} / {reference_label} (above 1: {engine_label} is faster)")
    for name, *_ in POSITIONS:
        ratio = statistics.median(times[name, reference_label]) / statistics.median(times[name, engine_label])
        print(f"  {name:<10} {ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
