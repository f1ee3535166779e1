#!/usr/bin/env python3
"""Random-position perft cross-check of a UCI engine against python-chess.

Plays random games from the start position and from a few tricky seed
positions, with move choice biased towards castling, en passant, promotions
(each promotion piece is its own move, so underpromotions come as often as
queening), checks (mating ones most) and double pushes that allow en passant.
Positions along the games are sampled, favouring those with such features;
checkmates and stalemates are always kept. For each sampled position the
engine is sent `position fen <fen>` and `go perft <depth>`, and its divide
(per root move counts) and total are compared with python-chess perft.

About 30% of positions that have an en passant square with no legal en
passant capture are sent with the square written anyway (as Chessnut, used by
the Kaggle harness, writes it after every double push); an engine must accept
that. Otherwise FENs name the square only when a capture is legal.

The first mismatch prints the FEN, the depth and the differing moves, and the
exit status is 1; so it is if the engine dies, hangs past --timeout or breaks
the protocol. Otherwise a summary gives the positions and nodes checked and
how many positions had each feature.

Run it with the venv made by tools/venv.sh:
    .venv/bin/python tools/suites/crosscheck.py --positions 500 --depth 3 --seed 1
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))  # the shared modules
from uci_engine import EngineError, UciEngine  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ENGINE = ROOT / "target" / "release" / "minnow"

# Games start from one of these, chosen uniformly.
START_FENS = [
    chess.STARTING_FEN,
    # Kiwipete.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    # Rook endgame with en passant and rook checks along the pawn's rank.
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    # Promotions, castling and pins, and its colour-mirrored twin.
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    # Promotion by capture, checks from a knight.
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPPPNnPP/RNBQK2R w KQ - 1 8",
    # Quiet middlegame, both sides castled.
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/3P1N1P/PPP1NPP1/R2Q1RK1 w - - 0 10",
    # Both sides about to promote, with capture-promotions.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    # Bare rooks and kings: all four castlings.
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    # En passant that would expose the king along the rank: illegal.
    "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
    # Pawns on their fifth ranks beside the opponent's unmoved pawns.
    "r3k2r/1ppppp1p/8/2P1P3/p5p1/8/PP1P1PPP/R3K2R w KQkq - 0 1",
    # The double-pushed pawn gives check; capturing it en passant is legal.
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
]

MAX_PLIES = 200
CHESSNUT_EP_SHARE = 0.3  # share of ep-square-without-capture FENs written with the square

# Chance that a visited position is sampled: the highest for any feature it has.
SAMPLE_CHANCE = {
    "ep_capture": 1.0,
    "castling": 0.5,
    "promotion": 0.5,
    "checkmate": 1.0,
    "stalemate": 1.0,
    "check": 0.2,
}
SAMPLE_PLAIN = 0.06
SAMPLE_DOUBLE_PUSH = 0.5  # just after a double push: the ep square may be written

# Summary labels of the position features, in print order.
FEATURES = {
    "ep_capture": "en passant capture available",
    "ep_square_only": "ep square written, no ep capture (Chessnut style)",
    "castling": "castling move legal",
    "castling_rights": "castling rights present",
    "promotion": "promotion available",
    "check": "side to move in check",
    "checkmate": "checkmate",
    "stalemate": "stalemate",
}


@dataclass(frozen=True)
class Sample:
    """A position to check and the features it has."""

    fen: str
    features: frozenset[str]


@dataclass
class Mismatch:
    """Difference between engine and python-chess perft for one position."""

    fen: str
    depth: int
    engine: dict[str, int]
    engine_total: int
    reference: dict[str, int]

    def describe(self) -> str:
        """Human-readable report of the difference."""
        ref_total = sum(self.reference.values())
        lines = [
            f"MISMATCH at depth {self.depth}",
            f"  fen: {self.fen}",
            f"  total: engine {self.engine_total}, python-chess {ref_total}",
        ]
        differing = sorted(m for m in self.engine.keys() & self.reference.keys() if self.engine[m] != self.reference[m])
        missing = sorted(self.reference.keys() - self.engine.keys())
        extra = sorted(self.engine.keys() - self.reference.keys())
        if differing:
            lines.append("  move     engine  python-chess")
            lines += [f"  {m:<6} {self.engine[m]:>8} {self.reference[m]:>13}" for m in differing]
        if missing:
            lines.append("  legal moves missing from the engine: " + " ".join(missing))
        if extra:
            lines.append("  moves the engine gave that are not legal: " + " ".join(extra))
        if self.depth > 1 and differing:
            lines.append(f"  dig in with: position fen {self.fen} moves {differing[0]} / go perft {self.depth - 1}")
        return "\n".join(lines)


@dataclass
class Report:
    """Outcome of a cross-check run."""

    depth: int
    positions: int = 0
    nodes: int = 0
    features: collections.Counter = field(default_factory=collections.Counter)
    mismatch: Mismatch | None = None

    def summary(self) -> str:
        """Summary of what was checked."""
        lines = [
            f"positions checked: {self.positions} at depth {self.depth}",
            f"nodes compared:    {self.nodes}",
            "positions with each feature:",
        ]
        lines += [f"  {label:<52} {self.features[key]:>5}" for key, label in FEATURES.items()]
        return "\n".join(lines)


def position_features(board: chess.Board, legal: list[chess.Move]) -> set[str]:
    """Features of a position, given its legal moves (ep_square_only is decided by the caller)."""
    features = set()
    if any(board.is_en_passant(m) for m in legal):
        features.add("ep_capture")
    if any(board.is_castling(m) for m in legal):
        features.add("castling")
    if board.clean_castling_rights():
        features.add("castling_rights")
    if any(m.promotion for m in legal):
        features.add("promotion")
    if board.is_check():
        features.add("check")
        if not legal:
            features.add("checkmate")
    elif not legal:
        features.add("stalemate")
    return features


def move_weight(board: chess.Board, move: chess.Move) -> float:
    """Relative chance of playing `move` in a random game: special moves are favoured."""
    weight = 1.0
    piece = board.piece_type_at(move.from_square)
    if board.is_en_passant(move):
        weight += 40
    elif board.is_castling(move):
        weight += 8
    elif move.promotion:
        weight += 10
    elif piece == chess.PAWN:
        weight += 2
        if chess.square_rank(move.to_square) == (4 if board.turn == chess.WHITE else 3):
            weight += 4  # a pawn on its fifth rank can capture en passant later
        if abs(move.to_square - move.from_square) == 16:
            board.push(move)
            if board.has_legal_en_passant():
                weight += 100
            board.pop()
    elif piece in (chess.KING, chess.ROOK) and board.clean_castling_rights() & board.occupied_co[board.turn]:
        weight = 0.2  # keep castling rights alive longer
    elif chess.square_rank(move.from_square) == (0 if board.turn == chess.WHITE else 7):
        weight += 3  # clear the back rank so castling becomes legal
    if board.is_capture(move):
        weight += 1
    if board.gives_check(move):
        weight += 2
        board.push(move)
        if board.is_checkmate():
            weight += 50  # finish the game: mates are sampled always
        board.pop()
    return weight


def generate_positions(count: int, seed: int) -> list[Sample]:
    """Sample `count` distinct positions from biased random games; deterministic for a seed."""
    rng = random.Random(seed)
    samples: list[Sample] = []
    seen: set[str] = set()
    while len(samples) < count:
        board = chess.Board(rng.choice(START_FENS))
        for _ in range(MAX_PLIES):
            legal = list(board.legal_moves)
            features = position_features(board, legal)
            chance = max([SAMPLE_CHANCE.get(f, SAMPLE_PLAIN) for f in features], default=SAMPLE_PLAIN)
            if board.ep_square is not None:
                chance = max(chance, SAMPLE_DOUBLE_PUSH)
            key = board.fen()
            if key not in seen and rng.random() < chance:
                seen.add(key)
                fen = key
                if board.ep_square is not None and "ep_capture" not in features and rng.random() < CHESSNUT_EP_SHARE:
                    fen = board.fen(en_passant="fen")
                    features.add("ep_square_only")
                samples.append(Sample(fen, frozenset(features)))
                if len(samples) == count:
                    break
            if not legal or board.is_insufficient_material() or board.halfmove_clock >= 100:
                break
            board.push(rng.choices(legal, weights=[move_weight(board, m) for m in legal])[0])
    return samples


def perft(board: chess.Board, depth: int) -> int:
    """Leaf count of the legal move tree of `depth` >= 1 plies, bulk-counting the last ply."""
    if depth == 1:
        return sum(1 for _ in board.generate_legal_moves())
    nodes = 0
    for move in board.generate_legal_moves():
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes


def reference_divide(fen: str, depth: int) -> dict[str, int]:
    """Per-root-move perft counts from python-chess: {uci move: leaves}."""
    board = chess.Board(fen)
    divide = {}
    for move in list(board.legal_moves):
        board.push(move)
        divide[move.uci()] = 1 if depth == 1 else perft(board, depth - 1)
        board.pop()
    return divide


def _reference_job(job: tuple[str, int]) -> dict[str, int]:
    """reference_divide for a worker pool."""
    return reference_divide(*job)


def run(
    engine_path: str,
    samples: list[Sample],
    depth: int,
    jobs: int = 1,
    timeout: float = 60.0,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Check every sample against the engine; stop at the first mismatch.

    python-chess perfts are computed by `jobs` (>= 1) worker processes ahead
    of the engine. `progress(done, total)` is called after each position. Raises
    EngineError if the engine dies, hangs or breaks the protocol.
    """
    report = Report(depth)
    work = [(s.fen, depth) for s in samples]
    with UciEngine(engine_path, timeout) as engine:
        engine.handshake()
        # Not multiprocessing.Pool: leaving its imap early (a mismatch, a dead engine)
        # terminates workers that may be half-way through writing a result, and its result
        # thread then waited for ever (a hang seen in CI on a loaded machine). The executor
        # cancels the references not yet started and lets the running ones finish.
        pool = concurrent.futures.ProcessPoolExecutor(jobs)
        try:
            for sample, reference in zip(samples, pool.map(_reference_job, work), strict=True):
                try:
                    divide, total = engine.perft(sample.fen, depth, timeout)
                except EngineError as exc:
                    raise EngineError(f"{exc}\n  while checking: position fen {sample.fen} / go perft {depth}") from None
                if divide != reference or total != sum(reference.values()):
                    report.mismatch = Mismatch(sample.fen, depth, divide, total, reference)
                    return report
                report.positions += 1
                report.nodes += total
                report.features.update(sample.features)
                if progress:
                    progress(report.positions, len(samples))
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    return report


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=str(DEFAULT_ENGINE), help="UCI engine binary (default: %(default)s)")
    parser.add_argument("--positions", type=int, default=500, help="positions to check (default: %(default)s)")
    parser.add_argument("--depth", type=int, default=3, help="perft depth, at least 1 (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random, printed)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="python-chess worker processes (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds allowed per position (default: %(default)s)")
    parser.add_argument("--quiet", action="store_true", help="print only problems and the summary")
    args = parser.parse_args(argv)
    if args.depth < 1:
        parser.error("--depth must be at least 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)

    started = time.perf_counter()
    samples = generate_positions(args.positions, seed)
    if not args.quiet:
        print(f"engine {args.engine}, seed {seed}, {len(samples)} positions, depth {args.depth}", flush=True)

    def progress(done: int, total: int) -> None:
        if done % 50 == 0 or done == total:
            print(f"  {done}/{total} positions ok ({time.perf_counter() - started:.1f} s)", flush=True)

    try:
        report = run(args.engine, samples, args.depth, args.jobs, args.timeout, None if args.quiet else progress)
    except EngineError as exc:
        print(f"ENGINE ERROR: {exc}", file=sys.stderr)
        return 1
    if report.mismatch:
        print(report.mismatch.describe())
        print(f"(seed {seed}; {report.positions} positions matched before this one)")
        return 1
    print(report.summary())
    print(f"seed {seed}, all positions match, {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
