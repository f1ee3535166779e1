#!/usr/bin/env python3
"""The per-move yardstick: which of two searches chooses the better move, one position at a
time, judged by Stockfish (docs/search.md, "The per-move yardstick").

Games resolve a change of 5-20 Elo only after thousands of games. Here each engine plays one
move in each of a fixed set of positions of real games, from a cleared state (`ucinewgame`)
at a fixed node count; where the two moves differ, the judge (Stockfish 15.1, one thread, a
cleared table, a fixed node count: the same answer every time) scores each move as the only
root move (`go nodes J searchmoves M`). A position where both chose alike counts as 0. The
figure is the paired mean of A's score less B's, in centipawns a position, with its standard
error: a candidate is seen in minutes, and games then confirm it.

    .venv/bin/python tools/reports/move_quality.py compare \\
        --engine 'main=cmd=target/release/minnow option.Hash=1' \\
        --engine 'hybrid=cmd=/tmp/kf_hybrid/main.out option.Hash=1' --nodes 320000

Both the engines' moves and the judge's scores are kept in a cache under the data root
(`$MINNOW_DATA/move_quality`, default ~/.local/share/minnow/move_quality; `--cache`), keyed by
the engine program's digest, its options, the node count and the position: a second
candidate against the same baseline costs only its own moves and the judgements of the moves
not judged before. The judge defaults to the teacher that tools/datagen/stretch.sh builds
(`$MINNOW_DATA/sf-label/stockfish`: Stockfish of the `tools` branch with 15.1's net) at
1,500,000 nodes. Scores are clipped to +-1000 cp and a mate counts as 1000.

`sample` draws the position set from PGN files of real games (plies 12 and later, not in
check, two legal moves or more, each FEN once):

    .venv/bin/python tools/reports/move_quality.py sample data/scr/main320.pgn data/scr/avg320.pgn \\
        --count 2400 --seed 1 --out tests/data/move_quality.fen
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import sys
import threading
from pathlib import Path

import chess
import chess.engine
import chess.pgn

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "lib"))
from engines import EngineSpec, SpecError, open_engine, parse_engine_spec, quiet_engine_logs  # noqa: E402

DATA = Path(os.environ.get("MINNOW_DATA", Path.home() / ".local" / "share" / "minnow"))
DEFAULT_POSITIONS = ROOT / "tests" / "data" / "move_quality.fen"
CLIP = 1000
MIN_PLY = 12


def sample(pgns: list[Path], count: int, seed: int) -> list[str]:
    """`count` distinct FENs drawn at random (with `seed`) from the games' positions."""
    candidates: list[str] = []
    seen: set[str] = set()
    for path in pgns:
        with open(path, encoding="utf-8") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                board = game.board()
                for ply, move in enumerate(game.mainline_moves(), start=1):
                    board.push(move)
                    if ply < MIN_PLY or board.is_check() or board.is_game_over(claim_draw=True):
                        continue
                    if board.legal_moves.count() < 2:
                        continue
                    fen = board.fen()
                    key = " ".join(fen.split()[:4])
                    if key not in seen:
                        seen.add(key)
                        candidates.append(fen)
    if len(candidates) < count:
        raise SystemExit(f"move_quality: only {len(candidates)} distinct positions in the games, {count} asked")
    return random.Random(seed).sample(candidates, count)


def read_positions(path: Path, limit: int | None) -> list[str]:
    fens = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            board = chess.Board(line)
        except ValueError as error:
            raise SystemExit(f"move_quality: {path}:{number}: not a FEN ({error})") from None
        if board.is_game_over():
            raise SystemExit(f"move_quality: {path}:{number}: the game is over in this position")
        fens.append(board.fen())
    return fens[:limit] if limit else fens


def digest(program: str) -> str:
    h = hashlib.sha256()
    with open(program, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def engine_key(spec: EngineSpec, nodes: int) -> str:
    """The cache key of an engine's moves: what decides them (program, arguments, options, nodes)."""
    options = ",".join(f"{k}={v}" for k, v in sorted(spec.options.items()))
    return f"{digest(spec.argv[0])} {' '.join(spec.argv[1:])} [{options}] nodes={nodes}"


class Cache:
    """An append-only JSON-lines file of answers, read whole at start; safe across threads."""

    def __init__(self, path: Path):
        self.path = path
        self.lock = threading.Lock()
        self.answers: dict[str, object] = {}
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    record = json.loads(line)
                    self.answers[record["key"]] = record["value"]
                except (ValueError, KeyError, TypeError):
                    continue  # a line cut off by a killed run: asked again
        self.handle = open(path, "a", encoding="utf-8")

    def get(self, key: str):
        return self.answers.get(key)

    def put(self, key: str, value) -> None:
        with self.lock:
            self.answers[key] = value
            self.handle.write(json.dumps({"key": key, "value": value}) + "\n")
            self.handle.flush()


def judged_cp(score: chess.engine.PovScore, turn: chess.Color) -> int:
    pov = score.pov(turn)
    if pov.is_mate():
        return CLIP if pov.mate() > 0 else -CLIP
    return max(-CLIP, min(CLIP, pov.score()))


def run_shards(jobs: list, workers: int, work) -> None:
    """Runs `work(shard)` on `workers` threads, each given every workers-th job."""
    errors: list[BaseException] = []

    def run(shard):
        try:
            work(shard)
        except BaseException as error:  # reported after the others finish
            errors.append(error)

    threads = [threading.Thread(target=run, args=(jobs[i::workers],)) for i in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def engine_moves(spec: EngineSpec, nodes: int, fens: list[str], cache: Cache, workers: int) -> list[str]:
    key = engine_key(spec, nodes)
    todo = [fen for fen in fens if cache.get(f"{key} {fen}") is None]

    def work(shard: list[str]) -> None:
        if not shard:
            return
        engine = open_engine(spec)
        try:
            for fen in shard:
                board = chess.Board(fen)
                result = engine.play(board, chess.engine.Limit(nodes=nodes), game=object())
                if result.move is None or result.move not in board.legal_moves:
                    raise SystemExit(f"move_quality: {spec.name} gave no legal move in {fen}")
                cache.put(f"{key} {fen}", result.move.uci())
        finally:
            engine.quit()

    if todo:
        print(f"move_quality: {spec.name}: {len(todo)} of {len(fens)} moves to search at {nodes} nodes", flush=True)
    run_shards(todo, workers, work)
    return [cache.get(f"{key} {fen}") for fen in fens]


def judge_scores(spec: EngineSpec, nodes: int, pairs: list[tuple[str, str]], cache: Cache, workers: int) -> dict:
    key = engine_key(spec, nodes)
    todo = sorted({p for p in pairs if cache.get(f"{key} {p[0]} {p[1]}") is None})

    def work(shard: list[tuple[str, str]]) -> None:
        if not shard:
            return
        engine = open_engine(spec)
        try:
            for fen, move in shard:
                board = chess.Board(fen)
                info = engine.analyse(
                    board, chess.engine.Limit(nodes=nodes), root_moves=[chess.Move.from_uci(move)], game=object()
                )
                cache.put(f"{key} {fen} {move}", judged_cp(info["score"], board.turn))
        finally:
            engine.quit()

    if todo:
        print(f"move_quality: judge: {len(todo)} moves to judge at {nodes} nodes", flush=True)
    run_shards(todo, workers, work)
    return {p: cache.get(f"{key} {p[0]} {p[1]}") for p in pairs}


def paired(differences: list[int]) -> tuple[float, float]:
    n = len(differences)
    mean = sum(differences) / n
    var = sum((d - mean) ** 2 for d in differences) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def compare(args) -> dict:
    quiet_engine_logs()
    fens = read_positions(args.positions, args.limit)
    names = [name for name, _ in args.engine]
    specs = []
    for name, text in args.engine:
        try:
            spec = parse_engine_spec(text)
        except SpecError as error:
            raise SystemExit(f"move_quality: {name}: {error}") from None
        spec.name = name
        specs.append(spec)
    judge = parse_engine_spec(args.judge)
    judge.options.setdefault("Hash", "16")
    cache = Cache(args.cache / "answers.jsonl")
    moves = [engine_moves(s, s.nodes or args.nodes, fens, cache, args.concurrency) for s in specs]
    # Every engine's move where the engines disagree (the judge is asked each distinct one once).
    pairs = [(fen, m[i]) for i, fen in enumerate(fens) if len({m[i] for m in moves}) > 1 for m in moves]
    scores = judge_scores(judge, args.judge_nodes, pairs, cache, args.concurrency)
    base = moves[0]
    report = {"positions": len(fens), "nodes": args.nodes, "judge_nodes": args.judge_nodes, "rows": []}
    print(f"move_quality: {len(fens)} positions of {args.positions}, judge at {args.judge_nodes} nodes")
    for name, spec, m in zip(names[1:], specs[1:], moves[1:]):
        diffs = [
            scores[(fen, m[i])] - scores[(fen, base[i])] if m[i] != base[i] else 0 for i, fen in enumerate(fens)
        ]
        mean, se = paired(diffs)
        better = sum(d > 0 for d in diffs)
        worse = sum(d < 0 for d in diffs)
        differ = sum(m[i] != base[i] for i in range(len(fens)))
        row = {"engine": name, "base": names[0], "mean_cp": round(mean, 3), "se_cp": round(se, 3),
               "differ": differ, "better": better, "worse": worse}
        report["rows"].append(row)
        print(
            f"MOVE_QUALITY {name} - {names[0]}: {mean:+.2f} cp a position (se {se:.2f}), "
            f"{differ} of {len(fens)} moves differ, better {better}, worse {worse}"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return report


def engine_arg(text: str) -> tuple[str, str]:
    name, sep, spec = text.partition("=")
    if not sep or not name or not spec:
        raise argparse.ArgumentTypeError(f"expected NAME=SPEC, got {text!r}")
    return name, spec


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample", help="draw the position set from PGN files")
    s.add_argument("pgn", type=Path, nargs="+")
    s.add_argument("--count", type=int, default=2400)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("compare", help="each engine's move in each position, judged (the first engine is the base)")
    c.add_argument("--engine", type=engine_arg, action="append", required=True, help="NAME=SPEC, two or more")
    c.add_argument("--nodes", type=int, default=320000, help="each engine's nodes a move (a spec's nodes= overrides)")
    c.add_argument("--positions", type=Path, default=DEFAULT_POSITIONS)
    c.add_argument("--limit", type=int, help="only the first N positions")
    c.add_argument("--judge", default=f"cmd={DATA / 'sf-label' / 'stockfish'} name=judge")
    c.add_argument("--judge-nodes", type=int, default=1_500_000)
    c.add_argument("--cache", type=Path, default=DATA / "move_quality")
    c.add_argument("--concurrency", type=int, default=2)
    c.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args(argv)
    if args.command == "sample":
        fens = sample(args.pgn, args.count, args.seed)
        args.out.write_text("".join(f + "\n" for f in fens), encoding="utf-8")
        print(f"move_quality: {len(fens)} positions written to {args.out}")
        return 0
    if len(args.engine) < 2:
        parser.error("compare needs two engines or more")
    compare(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
