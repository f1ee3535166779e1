#!/usr/bin/env python3
"""Build tests/data/mates.epd: positions with a forced mate in exactly N (1 to 4), verified by Stockfish.

    .venv/bin/python tools/suites/make_mates.py --seed 1 --out tests/data/mates.epd

Steps:
 1. Screen every position of the sources (by default tests/data/wac.epd, and a
    --sample of lines from each ../shared/data/positions/*.epd file) with a
    depth --screen-depth search; keep those where the side to move mates.
 2. For each of those with a mate in at most --max-root-mate moves, follow the
    principal variation of a deeper search: the position after each move pair
    (attacker's move, defender's best reply) is a candidate with a mate one
    move shorter. So a mate in 6 gives candidates for mate in 4, 3, 2 and 1.
 3. Candidates are drawn per (N, side to move) bucket (half of each N black
    to move when there are enough), at most one per source position and N:
    sources used least so far first, for N = 1 fewest mating moves first,
    otherwise in --seed order. Each drawn candidate is verified twice, at
    --depths A and B, each time on fresh hash: the root score must be mate N
    both times, and the set of moves that mate in N must be the same both
    times. That set is found by repeated searches restricted (searchmoves) to
    the moves not yet found, until the best of the rest no longer mates in N.
    For N = 1 the set is the checkmating moves (python-chess), for N = 2 it is
    also checked by a python-chess brute-force search.
 4. Positions where the halfmove clock would reach 100 before the mate, or
    where the attacker has only material that the Kaggle harness counts as
    insufficient, are skipped (those mates would be draws there).

Each output line is `<fen> bm <SAN...>; dm N; id "mate.NNN";`, sorted by N and
then side to move. Progress and the provenance of every position go to stdout.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))  # the shared modules
from engines import resolve_program  # noqa: E402
from epd import EpdError, parse_epd_line, read_epd_file  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"
DEFAULT_SOURCES = [str(ROOT / "tests" / "data" / "wac.epd")]
DEFAULT_SAMPLED = sorted(str(p) for p in (SHARED / "positions").glob("*.epd"))
SEARCH_TIME_CAP = 30.0  # seconds, at most, for one verification search


@dataclass
class Candidate:
    """A position where the side to move should mate in `mate` moves."""

    board: chess.Board
    mate: int
    source: str  # id of the source position
    path: str  # moves from the source position, in SAN

    @property
    def key(self) -> str:
        return self.board.epd()


def kaggle_insufficient(board: chess.Board, color: chess.Color) -> bool:
    """The Kaggle harness's per-side insufficient material: no Q, R or P and fewer than 3 minors, not two minors with a bishop."""
    if board.pieces_mask(chess.QUEEN, color) | board.pieces_mask(chess.ROOK, color) | board.pieces_mask(chess.PAWN, color):
        return False
    knights = len(board.pieces(chess.KNIGHT, color))
    bishops = len(board.pieces(chess.BISHOP, color))
    if knights + bishops >= 3:
        return False
    return not (knights + bishops == 2 and bishops >= 1)


def usable(board: chess.Board, mate: int) -> bool:
    """Whether a mate in `mate` from here is a clean test (see step 4 above)."""
    if board.halfmove_clock + 2 * mate - 1 >= 100:
        return False
    return not kaggle_insufficient(board, board.turn)


def mate_score(info: dict) -> int | None:
    """Mate distance for the side to move (negative when it is mated), or None."""
    score = info.get("score")
    if score is None or not score.relative.is_mate():
        return None
    return score.relative.mate()


def mating_moves_exact(board: chess.Board, mate: int) -> list[chess.Move] | None:
    """All moves that mate in exactly `mate` (1 or 2) by brute force; None for longer mates."""
    if mate not in (1, 2):
        return None
    result = []
    for move in list(board.legal_moves):
        board.push(move)
        if mate == 1:
            if board.is_checkmate():
                result.append(move)
        elif not board.is_game_over() and all(_mates_in_one_after(board, reply) for reply in list(board.legal_moves)):
            result.append(move)
        board.pop()
    return result


def _mates_in_one_after(board: chess.Board, reply: chess.Move) -> bool:
    board.push(reply)
    try:
        for move in list(board.legal_moves):
            board.push(move)
            mated = board.is_checkmate()
            board.pop()
            if mated:
                return True
        return False
    finally:
        board.pop()


class Analyser:
    """Stockfish with the searches this tool needs."""

    def __init__(self, program: str, hash_mb: int, threads: int):
        self.engine = chess.engine.SimpleEngine.popen_uci(program)
        self.engine.configure({"Hash": hash_mb, "Threads": threads})

    def search(self, board: chess.Board, limit: chess.engine.Limit, fresh: bool = False, root_moves=None) -> dict:
        """One search; `fresh` starts a new game (ucinewgame clears Stockfish's hash)."""
        game = object() if fresh else getattr(self, "_game", None)
        self._game = game
        return self.engine.analyse(board, limit, game=game, root_moves=root_moves)

    def mating_moves(self, board: chess.Board, mate: int, depth: int) -> list[chess.Move] | None:
        """Moves that mate in exactly `mate`, or None if the root is not a mate in `mate` at this depth."""
        limit = chess.engine.Limit(depth=depth, time=SEARCH_TIME_CAP)
        info = self.search(board, limit, fresh=True)
        if mate_score(info) != mate:
            return None
        if mate == 1:
            return mating_moves_exact(board, 1)
        found: list[chess.Move] = []
        legal = list(board.legal_moves)
        while len(found) < len(legal):
            rest = [m for m in legal if m not in found]
            info = self.search(board, limit, root_moves=rest)
            distance = mate_score(info)
            if distance is not None and 0 < distance < mate:
                return None  # a shorter mate than the root search saw: not stable
            if distance != mate or not info.get("pv"):
                break
            found.append(info["pv"][0])
        return found

    def close(self) -> None:
        self.engine.quit()


def load_sources(paths: list[str], sampled: list[str], sample: int, rng: random.Random) -> list[tuple[str, chess.Board]]:
    """(id, board) for every position of `paths` and `sample` random lines of each `sampled` file."""
    positions = []
    for path in paths:
        for record in read_epd_file(path):
            positions.append((f"{Path(path).name}:{record.id}", record.board))
    for path in sampled:
        with open(path, encoding="utf-8") as handle:
            lines = [(n, line) for n, line in enumerate(handle, 1) if line.strip() and not line.startswith("#")]
        for line_no, line in rng.sample(lines, min(sample, len(lines))):
            try:
                positions.append((f"{Path(path).name}:line {line_no}", parse_epd_line(line, line_no).board))
            except EpdError:
                continue
    return positions


def candidates_from(analyser: Analyser, source: str, board: chess.Board, mate: int, pv_depth: int, max_mate: int) -> list[Candidate]:
    """The source (if its mate is short enough) and the positions along a deeper search's mating line."""
    found = []
    if mate <= max_mate:
        found.append(Candidate(board.copy(), mate, source, ""))
    info = analyser.search(board, chess.engine.Limit(depth=pv_depth, time=SEARCH_TIME_CAP), fresh=True)
    if mate_score(info) != mate:
        return found  # unstable: keep only the root, which is verified later anyway
    line = board.copy()
    path = []
    pv = info.get("pv", [])
    for ply, move in enumerate(pv[: 2 * (mate - 1)]):
        path.append(line.san(move))
        line.push(move)
        remaining = mate - (ply + 1) // 2
        if ply % 2 == 1 and remaining <= max_mate:
            found.append(Candidate(line.copy(), remaining, source, " ".join(path)))
    return found


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n", 2)[2]
    )
    parser.add_argument("--out", default=str(ROOT / "tests" / "data" / "mates.epd"), help="output EPD (default: %(default)s)")
    parser.add_argument("--engine", default="stockfish", help="Stockfish binary, looked up on PATH and in /usr/games (default: %(default)s)")
    parser.add_argument("--sources", nargs="*", default=DEFAULT_SOURCES, help="EPD files screened whole (default: %(default)s)")
    parser.add_argument("--sampled", nargs="*", default=DEFAULT_SAMPLED, help="EPD files screened by random sample (default: %(default)s)")
    parser.add_argument("--sample", type=int, default=500, help="lines drawn from each --sampled file (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="seed for sampling and selection (default: %(default)s)")
    parser.add_argument("--per-mate", type=int, default=10, help="positions per mate length (default: %(default)s)")
    parser.add_argument("--max-mate", type=int, default=4, help="longest mate written (default: %(default)s)")
    parser.add_argument("--max-root-mate", type=int, default=10, help="longest source mate whose line is followed (default: %(default)s)")
    parser.add_argument("--screen-depth", type=int, default=14, help="depth of the screening search (default: %(default)s)")
    parser.add_argument("--pv-depth", type=int, default=24, help="depth of the search whose mating line is followed (default: %(default)s)")
    parser.add_argument("--depths", type=int, nargs=2, default=[20, 26], metavar=("A", "B"), help="depths of the two verification runs (default: %(default)s)")
    parser.add_argument("--hash", type=int, default=64, help="Stockfish hash in MB (default: %(default)s)")
    parser.add_argument("--threads", type=int, default=1, help="Stockfish threads (default: %(default)s)")
    args = parser.parse_args(argv)
    program = resolve_program(args.engine)
    if program is None:
        parser.error(f"{args.engine!r} not found (apt-get install stockfish)")

    started = time.perf_counter()
    rng = random.Random(args.seed)
    positions = load_sources(args.sources, args.sampled, args.sample, rng)
    print(f"screening {len(positions)} positions at depth {args.screen_depth} with {program}", flush=True)
    analyser = Analyser(program, args.hash, args.threads)
    try:
        roots = []
        per_file: Counter[str] = Counter()
        for source, board in positions:
            if board.is_game_over():
                continue
            distance = mate_score(analyser.search(board, chess.engine.Limit(depth=args.screen_depth)))
            if distance is not None and 0 < distance <= args.max_root_mate:
                roots.append((source, board, distance))
                per_file[source.split(":")[0]] += 1
        print(f"  sources with a mate in 1..{args.max_root_mate}: {len(roots)} " + ", ".join(f"{k}: {v}" for k, v in sorted(per_file.items())), flush=True)

        pool: dict[str, Candidate] = {}
        for source, board, distance in roots:
            for candidate in candidates_from(analyser, source, board, distance, args.pv_depth, args.max_mate):
                if candidate.key not in pool and usable(candidate.board, candidate.mate):
                    pool[candidate.key] = candidate
        buckets: dict[tuple[int, bool], list[Candidate]] = defaultdict(list)
        for candidate in pool.values():
            buckets[(candidate.mate, candidate.board.turn)].append(candidate)
        print("  candidates (mate, side): " + ", ".join(f"{m}{'w' if t else 'b'}: {len(c)}" for (m, t), c in sorted(buckets.items())), flush=True)
        order = {key: rng.random() for key in pool}

        chosen: list[tuple[Candidate, list[chess.Move]]] = []
        source_use: Counter[str] = Counter()
        rejected = 0
        for mate in range(1, args.max_mate + 1):
            wanted = {chess.BLACK: args.per_mate // 2, chess.WHITE: args.per_mate - args.per_mate // 2}
            picked: list[tuple[Candidate, list[chess.Move]]] = []
            used_here: set[str] = set()

            def fill(side: chess.Color, count: int, mate: int = mate, picked: list = picked, used_here: set = used_here) -> None:
                nonlocal rejected
                while count > 0:
                    options = [c for c in buckets[(mate, side)] if c.source not in used_here and c.key not in {p[0].key for p in picked}]
                    if not options:
                        return
                    options.sort(key=lambda c: (source_use[c.source], len(mating_moves_exact(c.board, 1) or []) if mate == 1 else 0, order[c.key]))
                    candidate = options[0]
                    used_here.add(candidate.source)
                    verified = verify(analyser, candidate, args.depths)
                    if verified is None:
                        rejected += 1
                        continue
                    picked.append((candidate, verified))
                    source_use[candidate.source] += 1
                    count -= 1

            for side in (chess.BLACK, chess.WHITE):
                fill(side, wanted[side])
            short = args.per_mate - len(picked)
            if short > 0:  # one side ran out: take more of the other
                for side in (chess.WHITE, chess.BLACK):
                    before = len(picked)
                    fill(side, short)
                    short -= len(picked) - before
            picked.sort(key=lambda p: (p[0].board.turn == chess.WHITE, len(p[1]), order[p[0].key]))
            chosen += picked
            whites = sum(p[0].board.turn == chess.WHITE for p in picked)
            print(f"  mate in {mate}: {len(picked)} verified ({whites} white, {len(picked) - whites} black to move)", flush=True)
    finally:
        analyser.close()

    lines = []
    for number, (candidate, moves) in enumerate(chosen, 1):
        board = candidate.board
        sans = " ".join(sorted(board.san(m) for m in moves))
        lines.append(f'{board.fen()} bm {sans}; dm {candidate.mate}; id "mate.{number:03d}";')
        origin = candidate.source + (f" after {candidate.path}" if candidate.path else "")
        print(f"mate.{number:03d}  mate {candidate.mate}  {'white' if board.turn else 'black'}  bm {sans:<16} from {origin}")
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} positions to {args.out} ({rejected} candidates failed verification), {time.perf_counter() - started:.0f} s")
    return 0


def verify(analyser: Analyser, candidate: Candidate, depths: list[int]) -> list[chess.Move] | None:
    """The moves that mate in exactly candidate.mate, if two runs at `depths` agree; else None."""
    board = candidate.board
    results = []
    for depth in depths:
        moves = analyser.mating_moves(board, candidate.mate, depth)
        if not moves:
            return None
        results.append(set(moves))
    if results[0] != results[1]:
        return None
    exact = mating_moves_exact(board, candidate.mate)
    if exact is not None and set(exact) != results[0]:
        print(f"  {candidate.source}: Stockfish and brute force disagree on the mate in {candidate.mate}; skipped", flush=True)
        return None
    return sorted(results[0], key=lambda m: m.uci())


if __name__ == "__main__":
    sys.exit(main())
