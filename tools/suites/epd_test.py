#!/usr/bin/env python3
"""Run a UCI engine over an EPD test suite (bm / am / dm operations) and count solved positions.

    .venv/bin/python tools/suites/epd_test.py --engine /usr/games/stockfish --movetime 200 tests/data/wac.epd
    .venv/bin/python tools/suites/epd_test.py --movetime 500 --jobs 2 tests/data/mates.epd

For each position the engine gets `ucinewgame`, `position fen <fen>`,
`isready` and `go movetime MS`. A position is solved when every operation it
has holds:
  bm  the engine's bestmove is one of the listed moves (SAN in the EPD);
  am  the bestmove is none of the listed moves;
  dm N  the score of the engine's last info line that has a score (before
      bestmove) is exactly `score mate N`.
Positions with none of these are skipped. Each failure is printed with the
position's id, the engine's move and what was wanted; the last line is
`solved X/Y`. A hung or dead engine fails the position and is restarted.
Exit status: 0, or 1 with --require-all when some position was not solved,
2 on bad arguments or an engine that cannot be started.
"""

from __future__ import annotations

import argparse
import queue
import shlex
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))  # the shared modules
from engines import resolve_program  # noqa: E402
from epd import EpdError, EpdRecord, format_san_list, read_epd_file  # noqa: E402
from uci_engine import EngineError, UciEngine  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ENGINE = ROOT / "target" / "release" / "minnow"


@dataclass
class SearchResult:
    """What the engine answered for one position."""

    bestmove: str | None  # UCI text of the bestmove, None if the engine failed
    score: tuple[str, int] | None  # ("cp", n) or ("mate", n) from the last info line with a score
    depth: int | None
    error: str = ""


@dataclass
class Verdict:
    """Judgement of one position."""

    record: EpdRecord
    result: SearchResult
    solved: bool
    reason: str  # why it failed ("" when solved)

    def describe(self) -> str:
        """One line for a failed position."""
        board = self.record.board
        move = self.result.bestmove
        if move is None:
            played = "no move"
        else:
            try:
                played = f"{board.san(chess.Move.from_uci(move))} ({move})"
            except ValueError:
                played = move
        score = " ".join(map(str, self.result.score)) if self.result.score else "none"
        return f"FAIL {self.record.id}: engine {played}, score {score}, depth {self.result.depth}: {self.reason}"


def parse_info(line: str) -> tuple[tuple[str, int] | None, int | None]:
    """(score, depth) of a UCI info line; either is None when missing. Only the first multipv line counts."""
    words = line.split()
    score = depth = None
    multipv = 1
    i = 1
    while i < len(words):
        word = words[i]
        if word == "string":
            break  # the rest is free text
        if word == "depth" and i + 1 < len(words):
            depth = int(words[i + 1])
            i += 2
        elif word == "multipv" and i + 1 < len(words):
            multipv = int(words[i + 1])
            i += 2
        elif word == "score" and i + 2 < len(words) and words[i + 1] in ("cp", "mate"):
            score = (words[i + 1], int(words[i + 2]))
            i += 3
        else:
            i += 1
    if multipv != 1:
        return None, None
    return score, depth


#: With --nodes: the node budget per position instead of a move time.
NODES = 0


def search(engine: UciEngine, board: chess.Board, movetime_ms: int, timeout: float) -> SearchResult:
    """Run one `go movetime` on a fresh game; raises EngineError on trouble."""
    engine.send("ucinewgame")
    engine.send(f"position fen {board.fen()}")
    engine.send("isready")
    engine.wait_for("readyok", timeout)
    if NODES:
        # A fixed node budget: deterministic, for comparing two builds of an engine.
        engine.send(f"go nodes {NODES}")
        deadline = time.perf_counter() + 60 + timeout
    else:
        engine.send(f"go movetime {movetime_ms}")
        deadline = time.perf_counter() + movetime_ms / 1000 + timeout
    score = depth = None
    while True:
        line = engine.read_line(deadline, "bestmove").strip()
        if line.startswith("info "):
            line_score, line_depth = parse_info(line)
            if line_score is not None:
                score = line_score
                depth = line_depth if line_depth is not None else depth
        elif line.startswith("bestmove"):
            words = line.split()
            move = words[1] if len(words) > 1 and words[1] not in ("(none)", "0000") else None
            return SearchResult(move, score, depth)


def judge(record: EpdRecord, result: SearchResult) -> Verdict:
    """Check the engine's answer against the record's bm, am and dm operations."""
    board = record.board
    if result.error:
        return Verdict(record, result, False, result.error)
    try:
        move = chess.Move.from_uci(result.bestmove) if result.bestmove else None
    except ValueError:
        move = None
    if move is None or move not in board.legal_moves:
        return Verdict(record, result, False, "no legal bestmove")
    reasons = []
    if record.bm and move not in record.bm:
        reasons.append(f"wanted bm {format_san_list(board, record.bm)}")
    if record.am and move in record.am:
        reasons.append(f"played an am move ({format_san_list(board, record.am)})")
    dm = record.dm
    if dm is not None and result.score != ("mate", dm):
        reasons.append(f"wanted score mate {dm}")
    return Verdict(record, result, not reasons, "; ".join(reasons))


def has_test(record: EpdRecord) -> bool:
    """Whether the record has an operation this tool checks."""
    return bool(record.bm or record.am or record.dm is not None)


class EngineRunner:
    """One engine process with its options, restarted after a failure."""

    def __init__(self, argv: list[str], options: list[tuple[str, str]], timeout: float):
        self.argv = argv
        self.options = options
        self.timeout = timeout
        self.engine: UciEngine | None = None

    def start(self) -> None:
        self.engine = UciEngine(self.argv[0], self.timeout, self.argv[1:])
        self.engine.send("uci")
        self.engine.wait_for("uciok")
        for name, value in self.options:
            self.engine.send(f"setoption name {name} value {value}")
        self.engine.send("isready")
        self.engine.wait_for("readyok")

    def run(self, board: chess.Board, movetime_ms: int) -> SearchResult:
        if self.engine is None:
            self.start()
        assert self.engine is not None
        try:
            return search(self.engine, board, movetime_ms, self.timeout)
        except EngineError as exc:
            self.close()
            return SearchResult(None, None, None, f"engine error: {exc}")

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None


def run_suite(
    argv: list[str],
    records: list[EpdRecord],
    movetime_ms: int,
    jobs: int = 1,
    options: list[tuple[str, str]] | None = None,
    timeout: float = 10.0,
    on_verdict=None,
) -> list[Verdict]:
    """Search every record with `jobs` engine processes; returns verdicts in record order.

    Raises EngineError when an engine cannot be started at all.
    """
    work: queue.Queue[int] = queue.Queue()
    for index in range(len(records)):
        work.put(index)
    verdicts: list[Verdict | None] = [None] * len(records)
    errors: list[str] = []
    lock = threading.Lock()

    def worker() -> None:
        runner = EngineRunner(argv, options or [], timeout)
        try:
            runner.start()
            while not errors:
                try:
                    index = work.get_nowait()
                except queue.Empty:
                    return
                if runner.engine is None:
                    runner.start()  # restart after a failure; an error here ends the run
                verdict = judge(records[index], runner.run(records[index].board, movetime_ms))
                with lock:
                    verdicts[index] = verdict
                    if on_verdict:
                        on_verdict(verdict)
        except EngineError as exc:
            errors.append(str(exc))
        finally:
            runner.close()

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(max(1, min(jobs, len(records))))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise EngineError(errors[0])
    return [v for v in verdicts if v is not None]


def parse_option(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected Name=Value, got {text!r}")
    return name.strip(), value.strip()


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n", 2)[2]
    )
    parser.add_argument("epd", help="EPD file with bm/am/dm operations")
    parser.add_argument(
        "--engine", default=str(DEFAULT_ENGINE), help="engine command, shell-quoted; names are looked up on PATH and in /usr/games (default: %(default)s)"
    )
    parser.add_argument("--movetime", type=int, default=1000, help="milliseconds per position (default: %(default)s)")
    parser.add_argument("--nodes", type=int, default=0, help="search a fixed number of nodes instead (deterministic)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N positions")
    parser.add_argument("--jobs", type=int, default=1, help="engine processes run in parallel (default: %(default)s)")
    parser.add_argument("--option", type=parse_option, action="append", default=[], metavar="NAME=VALUE", help="UCI option to set (repeatable)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds past the move time before the engine counts as hung (default: %(default)s)")
    parser.add_argument("--require-all", action="store_true", help="exit with status 1 unless every position is solved")
    args = parser.parse_args(argv)
    global NODES
    NODES = args.nodes
    if args.movetime < 1 or args.jobs < 1 or (args.limit is not None and args.limit < 1):
        parser.error("--movetime, --jobs and --limit must be at least 1")
    command = shlex.split(args.engine)
    program = resolve_program(command[0]) if command else None
    if program is None:
        parser.error(f"engine {args.engine!r} not found (looked on PATH and in /usr/games)")
    command[0] = program
    try:
        records = [r for r in read_epd_file(args.epd) if has_test(r)]
    except (OSError, EpdError) as exc:
        parser.error(str(exc))
    if args.limit is not None:
        records = records[: args.limit]

    print(f"engine {shlex.join(command)}, {len(records)} positions of {args.epd}, movetime {args.movetime} ms, jobs {args.jobs}", flush=True)
    started = time.perf_counter()

    def report(verdict: Verdict) -> None:
        if not verdict.solved:
            print(verdict.describe(), flush=True)

    try:
        verdicts = run_suite(command, records, args.movetime, args.jobs, args.option, args.timeout, report)
    except EngineError as exc:
        print(f"ENGINE ERROR: {exc}", file=sys.stderr)
        return 2
    solved = sum(v.solved for v in verdicts)
    print(f"time {time.perf_counter() - started:.1f} s")
    print(f"solved {solved}/{len(verdicts)}")
    return 1 if args.require_all and solved != len(verdicts) else 0


if __name__ == "__main__":
    sys.exit(main())
