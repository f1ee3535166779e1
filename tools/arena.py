#!/usr/bin/env python3
"""Plays the packaged submission in the real Kaggle chess harness (kaggle-environments 1.16.11).

    .venv/bin/python tools/arena.py --opponent random --games 30
    .venv/bin/python tools/arena.py --opponent 'cmd="gnuchess --uci" option.Hash=4' --games 100
    .venv/bin/python tools/arena.py --opponent 'cmd=stockfish "option.Skill Level=0"' --latency 100

Each game unpacks submission/submission.tar.gz into a fresh folder, as Kaggle does, and runs
`env.run([main.py, opponent])` in the harness itself: the harness execs main.py inside the
first timed call, times every move and ends the game by its own rules. Opponents are the
harness's built-in agents (`random`, `king_shuffle`, `board_shuffle`), another submission
archive (`submission:PATH`: its own main.py and engine, pondering as ours does) or any UCI/XBoard engine
(spec as in match.py) wrapped as an agent on the same clock: its remaining overage plus the
free 0.1 s, as a clock with 0.1 s increment, and the game's moves so it sees repetitions.
Game 2k and 2k+1 use the same opening (seed), with colours swapped; seeds are spread over the
2000 openings. `--latency MS` adds a simulated network round trip to every one of our moves
(half before, half after the call), which the harness charges to our clock;
`--spikes P:MS` makes a move's round trip MS instead with probability P (hiccups, drawn from
a generator seeded by the game), and then each game with a hiccup gets a line with our own
move times (ms, latency excluded) from just before its first hiccup, so one sees how fast the
adapter's time use comes back to normal.

Prints a progress line per game, then W/D/L, Elo with its 95% interval, termination counts,
our per-move time (median, max, first move), the lowest remaining overage, the engine's peak
RSS (VmHWM of the engine process), the arena process's RSS growth, and the bank curve (the
median bank left after our k-th move; also written as an SVG plot and a CSV, `--curve`, see
bank.py; against another submission both sides' curves, the opponent's also as
PREFIX_opponent.csv); saves a PGN of every game and the harness's HTML replay of the first one. The last line is machine-readable:
`ARENA games=.. wins=.. draws=.. losses=.. elo=.. err=.. timeouts=.. errors=.. min_overage=.. peak_rss_kib=..
max_move_ms=..` (peak_rss_kib is the highest VmHWM sampled while each game ran, `unmeasured` when
no game gave a reading); `--json FILE` writes each game's figures for tools/soak.py.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import importlib
import io
import json
import os
import random
import shutil
import statistics
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "lib"))

import chess  # noqa: E402
import chess.engine  # noqa: E402
import chess.pgn  # noqa: E402
from Chessnut import Game  # noqa: E402  (the harness's own move validator)

import bank  # noqa: E402
from engines import open_engine, parse_engine_spec, quiet_engine_logs  # noqa: E402
from elo import fmt_elo, fmt_err, pentanomial_elo, trinomial_elo  # noqa: E402

BUILTIN = ("random", "king_shuffle", "board_shuffle")
DELAY = 0.1  # the harness's free time per move


def harness_env(seed: int):
    """A fresh chess environment of the real harness for opening `seed % 2000`."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        from kaggle_environments import make  # prints warnings about unrelated environments

        return make("chess", configuration={"seed": seed}, debug=False)


def harness_module():
    """The harness's chess module (its own rule functions, its opening list)."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return importlib.import_module("kaggle_environments.envs.chess.chess")


def unpack(archive: Path, into: Path) -> Path:
    """Unpacks the submission exactly as Kaggle does (tar.gz into the agent folder)."""
    into.mkdir(parents=True)
    with tarfile.open(archive, "r:gz") as tar:
        tar.extractall(into, filter="data")
    return into / "main.py"


def pondered_move(inner) -> str | None:
    """The move an adapter ponders on after its call returned, read from its module's state
    (measurement only): minnow's adapter keeps it as `pondering`, KaggleFish's agent as its
    engine's `ponder`. "?" when the adapter keeps neither."""
    for value in list(getattr(inner, "__globals__", {}).values()):
        for name in ("pondering", "ponder"):
            if not isinstance(value, type) and hasattr(value, name) and hasattr(value, "__dict__"):
                move = getattr(value, name)
                return move if isinstance(move, str) or move is None else "?"
    return "?"


def with_latency(main_py: Path, latency_ms: float, spike_p: float = 0.0, spike_ms: float = 0.0, seed: int = 0):
    """An agent as the harness would load it (exec of main.py in the first call), with a
    simulated round trip added to every call: `latency_ms`, or `spike_ms` with probability
    `spike_p`. The agent's `moves` lists (hiccup?, own time in s) for every call, and its
    `calls` (own time in s, the opponent's last move, the move, the move it then ponders on)."""
    from kaggle_environments.agent import get_last_callable

    inner = None
    source = main_py.read_text()
    rng = random.Random(seed)

    def agent(obs, config):
        nonlocal inner
        spike = rng.random() < spike_p
        ms = spike_ms if spike else latency_ms
        time.sleep(ms / 2000)
        start = time.perf_counter()
        if inner is None:
            inner = get_last_callable(source, path=str(main_py))
        # As the harness calls an agent: with as many of (obs, config) as it takes.
        move = inner(*(obs, config)[: inner.__code__.co_argcount]) if hasattr(inner, "__code__") else inner(obs, config)
        own = time.perf_counter() - start
        agent.moves.append((spike, own))
        agent.calls.append((round(own, 4), obs.lastMove or "", move, pondered_move(inner)))
        time.sleep(ms / 2000)
        return move

    agent.moves = []
    agent.calls = []
    return agent


def first_hiccup(moves) -> int | None:
    """The index of the first of our calls that had a hiccup, if any."""
    return next((i for i, (spike, _) in enumerate(moves) if spike), None)


def hiccup_line(moves) -> str:
    """Our move times (ms) from two moves before the first hiccup, the hiccups starred."""
    first = first_hiccup(moves)
    if first is None:
        return ""
    shown = moves[max(0, first - 2) : first + 12]
    return " ".join(f"{1000 * t:.0f}{'*' if spike else ''}" for spike, t in shown)


class Submission:
    """Another submission archive as the opponent: its main.py, unpacked per game like ours,
    plays through its own adapter and engine (pondering included), so two builds meet
    exactly as entries meet on Kaggle."""

    def __init__(self, archive: str):
        self.archive = Path(archive)
        if not self.archive.is_file():
            raise SystemExit(f"arena.py: no submission archive at {self.archive}")
        self.name = f"submission {self.archive.name}"
        self.failures: list[str] = []
        self.restarts = 0

    def new_game(self) -> None:
        pass

    def close(self) -> None:
        pass


class EngineAgent:
    """A UCI/XBoard engine as a harness agent on the harness's clock."""

    def __init__(self, spec: str):
        self.spec = parse_engine_spec(spec)
        self.name = self.spec.name
        self.engine = open_engine(self.spec)
        self.board: chess.Board | None = None
        self.restarts = 0
        self.failures: list[str] = []

    def new_game(self) -> None:
        """Fresh game state; an engine that died or hangs in the last game is restarted."""
        self.board = None
        try:
            if isinstance(self.engine.protocol, chess.engine.UciProtocol):
                self.engine.protocol._ucinewgame()
            self.engine.ping()
        except Exception:
            self.restarts += 1
            with contextlib.suppress(Exception):
                self.engine.close()
            self.engine = open_engine(self.spec)

    def __call__(self, obs, config):
        """The engine's move; a failure is logged to stderr and then loses the game for the
        engine (the harness marks it ERROR), as it would on Kaggle."""
        try:
            return self.move(obs)
        except Exception as exc:
            self.failures.append(f"{type(exc).__name__}: {exc}")
            raise

    def move(self, obs):
        fen = obs.board
        board = self.board
        if board is not None and obs.lastMove:
            try:
                board.push_uci(obs.lastMove)
            except ValueError:
                board = None
        if board is None or board.board_fen() != fen.split()[0]:
            board = chess.Board(fen)
        left = max(0.0, float(obs.remainingOverageTime))
        other = max(0.0, float(obs.opponentRemainingOverageTime))
        white = board.turn == chess.WHITE
        margin = 0.03
        limit = chess.engine.Limit(nodes=self.spec.nodes) if self.spec.nodes else chess.engine.Limit(
            white_clock=(left if white else other) + DELAY - margin,
            black_clock=(other if white else left) + DELAY - margin,
            white_inc=DELAY,
            black_inc=DELAY,
        )
        result = self.engine.play(board, limit)
        move = result.move.uci() if result.move else ""
        board.push(result.move)
        self.board = board
        return move

    def close(self) -> None:
        try:
            self.engine.quit()
        except Exception:
            pass
        self.engine.close()


def children(pid: int) -> list[int]:
    """Process ids of all descendants of `pid`."""
    out = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                for child in f.read().split():
                    out.append(int(child))
                    out += children(int(child))
    except OSError:
        pass
    return out


def process_state(pid: int) -> str:
    """The one-letter state of a process (R: running), or "" if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return ""


def status_kib(pid: int | str, field: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def engine_processes(folder: Path) -> list[int]:
    """Our engine processes: descendants running the binary unpacked in `folder`."""
    found = []
    for pid in children(os.getpid()):
        try:
            if os.readlink(f"/proc/{pid}/exe").startswith(str(folder)):
                found.append(pid)
        except OSError:
            pass
    return found


class RssSampler:
    """The engine's peak RSS (VmHWM), read every `every` s while a game runs: read once after
    the game it was 0 whenever the engine was already gone. `peak` is None without a reading."""

    def __init__(self, folder: Path, every: float = 0.25):
        self.folder, self.every = folder, every
        self.peak: int | None = None
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def sample(self) -> None:
        for pid in engine_processes(self.folder):
            kib = status_kib(pid, "VmHWM")
            if kib > 0:
                self.peak = max(self.peak or 0, kib)

    def run(self) -> None:
        while not self.done.wait(self.every):
            self.sample()

    def __enter__(self) -> "RssSampler":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.done.set()
        self.thread.join()
        self.sample()  # the last reading, before the engine is killed


def termination(steps, us: int) -> str:
    """Why the game ended, in the harness's own order of checks."""
    last = steps[-1]
    for i, s in enumerate(last):
        if s.status in ("TIMEOUT", "ERROR", "INVALID"):
            who = "ours" if i == us else "theirs"
            return f"{'timeout' if s.status == 'TIMEOUT' else 'error'} ({who})"
    if len(steps) >= 1000:
        return "ply limit"
    fen = last[0].observation.board
    board = chess.Board(fen)
    if int(fen.split()[4]) == 100:
        return "50-move"
    if harness_module().is_insufficient_material(Game(fen).board):
        return "insufficient"
    keys = collections.Counter(" ".join(s[0].observation.board.split()[:4]) for s in steps[1:])
    if keys[" ".join(fen.split()[:4])] >= 3:
        return "repetition"
    if board.is_stalemate():
        return "stalemate"
    if board.is_checkmate():
        return "mate"
    return "other"


def game_pgn(steps, names: tuple[str, str], seed: int, result: str, reason: str) -> str:
    start = steps[0][0].observation.board
    game = chess.pgn.Game()
    game.headers.update(
        Event="minnow arena (kaggle-environments 1.16.11)",
        White=names[0],
        Black=names[1],
        Result=result,
        FEN=start,
        SetUp="1",
        Termination=reason,
        Round=str(seed),
    )
    board = chess.Board(start)
    node = game
    for step in steps[1:]:
        mover = 0 if board.turn == chess.WHITE else 1
        action = step[mover].action
        try:
            move = chess.Move.from_uci(action or "")
            if move not in board.legal_moves:
                break
        except ValueError:
            break
        node = node.add_variation(move)
        board.push(move)
    return str(game) + "\n\n"


def play(args, index: int, opponent, work: Path) -> dict:
    pair = index // 2
    seed = (args.seed + pair * 997) % 2000  # 997 is prime: pairs walk over all 2000 openings
    us = index % 2  # 0: we play white
    folder = work / f"game{index}"
    main_py = unpack(Path(args.submission), folder)
    spike_p, spike_ms = args.spikes
    if args.latency or spike_p or args.ponder_log:
        ours = with_latency(main_py, args.latency, spike_p, spike_ms, seed=args.seed * 1000 + index)
    else:
        ours = str(main_py)
    theirs = opponent
    their_folder = work / f"opponent{index}"
    if isinstance(opponent, Submission):
        theirs = str(unpack(opponent.archive, their_folder))
        if args.ponder_log:
            theirs = with_latency(Path(theirs), 0.0)
    elif not isinstance(opponent, str):
        opponent.new_game()
    env = harness_env(seed)
    agents = [ours, theirs] if us == 0 else [theirs, ours]
    with RssSampler(folder) as sampler:
        steps = env.run(agents)
    peak = sampler.peak
    for pid in engine_processes(folder):
        with contextlib.suppress(OSError):
            os.kill(pid, 9)
            os.waitpid(pid, 0)  # the adapter's Popen would leave it a zombie
    # An opponent archive's processes end with its game too, wherever their binary lives:
    # KaggleFish's agent writes its engine to /tmp, a new one each game, and never stops it;
    # left running (some still pondering at full speed) they took a core from later games.
    strays = 0
    if isinstance(opponent, Submission):
        for pid in children(os.getpid()):
            with contextlib.suppress(OSError):
                strays += process_state(pid) == "R"
                os.kill(pid, 9)
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)
    # A timeout or an error loses (the harness sets that agent's reward to None).
    bad = ("TIMEOUT", "ERROR", "INVALID")
    if steps[-1][us].status in bad:
        points = 0.0
    elif steps[-1][1 - us].status in bad:
        points = 1.0
    else:
        points = float(steps[-1][us].reward or 0)
    ours_times = [log[us]["duration"] for log in env.logs if len(log) > us and "duration" in log[us]]
    # The overage we had left after each of our moves (the observation after the move).
    banks, their_banks = ([float(steps[i + 1][side].observation.remainingOverageTime)
                           for i in range(len(steps) - 1) if steps[i][side].status == "ACTIVE"]
                          for side in (us, 1 - us))
    reason = termination(steps, us)
    names = ("minnow", args.name) if us == 0 else (args.name, "minnow")
    white_points = points if us == 0 else 1 - points
    result = {1.0: "1-0", 0.0: "0-1"}.get(white_points, "1/2-1/2")
    record = {
        "index": index,
        "pair": pair,
        "seed": seed,
        "us": us,
        "points": points,
        "reason": reason,
        "plies": len(steps) - 1,
        "times": ours_times,
        "min_overage": min(banks) if banks else 10.0,
        "banks": banks,
        "their_banks": their_banks,
        "peak_kib": peak,
        "strays": strays,
        "pgn": game_pgn(steps, names, seed, result, reason),
        "hiccups": hiccup_line(ours.moves) if callable(ours) else "",
        "spike_count": sum(spike for spike, _ in ours.moves) if callable(ours) else 0,
        "after_spike": after_spike(ours.moves) if callable(ours) else ([], []),
        "recovery": recovery(ours.moves) if callable(ours) else None,
        "calls": [getattr(agent, "calls", None) for agent in (ours, theirs)],
    }
    if index == 0 and args.html:
        Path(args.html).write_text(env.render(mode="html"))
    shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(their_folder, ignore_errors=True)
    return record


def recovery(moves) -> tuple[float, float] | None:
    """Our move time (s) around a game's first hiccup, in the same phase of the game: the
    median of the 3 moves before it and of the 3rd to 5th moves after it (None without a
    hiccup with those moves around it). Their ratio says whether move time came back to
    normal after the hiccup; the bank the hiccup took accounts for a little of the drop."""
    first = first_hiccup(moves)
    if first is None or first < 3 or first + 6 > len(moves):
        return None
    return (statistics.median(t for _, t in moves[first - 3 : first]),
            statistics.median(t for _, t in moves[first + 3 : first + 6]))


def after_spike(moves) -> tuple[list[float], list[float]]:
    """Our own move times split into (the 3rd to 5th move after a hiccup, all others that are
    neither a hiccup nor within 5 moves after one)."""
    near, normal, since = [], [], None
    for spike, t in moves:
        since = 0 if spike else (None if since is None else since + 1)
        if since is not None and 3 <= since <= 5:
            near.append(t)
        elif since is None or since > 5:
            normal.append(t)
    return near, normal


def spikes_arg(text: str) -> tuple[float, float]:
    """`P:MS` as (probability, round trip in ms)."""
    try:
        p, ms = (float(x) for x in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError("expected P:MS, e.g. 0.03:500") from None
    if not 0 <= p <= 1 or ms < 0:
        raise argparse.ArgumentTypeError("P must be in [0, 1] and MS at least 0")
    return p, ms


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--opponent", default="random",
                    help="random | king_shuffle | board_shuffle | submission:ARCHIVE | engine spec")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0, help="first opening (seed) of the series")
    ap.add_argument("--latency", type=float, default=0.0, help="simulated round trip per move, ms")
    ap.add_argument("--spikes", type=spikes_arg, default=(0.0, 0.0), metavar="P:MS",
                    help="a hiccup: round trip of MS ms with probability P on each of our moves")
    ap.add_argument("--submission", default=str(ROOT / "submission/submission.tar.gz"))
    ap.add_argument("--pgn", default=str(ROOT / "target/arena/games.pgn"))
    ap.add_argument("--html", default=str(ROOT / "target/arena/replay.html"))
    ap.add_argument("--curve", default=str(ROOT / "target/arena/bank"), metavar="PREFIX",
                    help="write the bank curve (bank left against our move number) to PREFIX.csv and PREFIX.svg")
    ap.add_argument("--json", metavar="FILE", help="also write each game's figures (result, bank, RSS, slowest move) as JSON")
    ap.add_argument("--ponder-log", action="store_true",
                    help="record every call of both adapters (own time, the move each then ponders on) and both banks "
                         "in --json, for tools/reports/ponder_picture.py")
    args = ap.parse_args()
    quiet_engine_logs()
    for path in (args.pgn, args.html, args.curve):
        Path(path).parent.mkdir(parents=True, exist_ok=True)

    if args.opponent in BUILTIN:
        opponent, args.name = args.opponent, args.opponent
    elif args.opponent.startswith("submission:"):
        opponent = Submission(args.opponent.removeprefix("submission:"))
        args.name = opponent.name
    else:
        opponent = EngineAgent(args.opponent)
        args.name = opponent.name
    print(f"minnow ({args.submission}) vs {args.name}: {args.games} games in kaggle-environments "
          f"1.16.11, 10 s overage + 0.1 s a move" + (f", {args.latency:g} ms simulated latency" if args.latency else "")
          + (f", hiccups of {args.spikes[1]:g} ms with p={args.spikes[0]:g}" if args.spikes[0] else ""))

    harness_env(0)  # import the harness first: the RSS growth below is then the games'
    rss_before = status_kib("self", "VmRSS")
    records = []
    wins = draws = losses = 0
    pairs = {}
    penta = [0] * 5
    started = time.time()
    pgn = open(args.pgn, "w")
    with tempfile.TemporaryDirectory(prefix="arena-") as tmp:
        try:
            for i in range(args.games):
                r = play(args, i, opponent, Path(tmp))
                records.append(r)
                pgn.write(r["pgn"])
                pgn.flush()
                wins += r["points"] == 1.0
                draws += r["points"] == 0.5
                losses += r["points"] == 0.0
                if r["pair"] in pairs:
                    penta[round(2 * (pairs.pop(r["pair"]) + r["points"]))] += 1
                else:
                    pairs[r["pair"]] = r["points"]
                est = pentanomial_elo(penta) if sum(penta) >= 2 else trinomial_elo(wins, draws, losses)
                done = i + 1
                bar = "#" * (20 * done // args.games) + "." * (20 - 20 * done // args.games)
                colour = "white" if r["us"] == 0 else "black"
                print(f"[{bar}] {done}/{args.games} W/D/L {wins}/{draws}/{losses} elo {fmt_elo(est.elo)} ± "
                      f"{fmt_err(est.error)} | seed {r['seed']} as {colour}: {r['points']:g} ({r['reason']}, "
                      f"{r['plies']} plies, min overage {r['min_overage']:.2f} s)", flush=True)
                if r["hiccups"]:
                    back = (f"; 3 before {1000 * r['recovery'][0]:.0f} ms, 3rd-5th after "
                            f"{1000 * r['recovery'][1]:.0f} ms" if r["recovery"] else "")
                    print(f"    {r['spike_count']} hiccups; our move ms from before the first (* = hiccup): "
                          f"{r['hiccups']}{back}", flush=True)
        finally:
            pgn.close()
            if not isinstance(opponent, str):
                opponent.close()

    n = len(records)
    est = pentanomial_elo(penta) if sum(penta) >= 2 else trinomial_elo(wins, draws, losses)
    reasons = collections.Counter(r["reason"] for r in records)
    times = [t for r in records for t in r["times"]]
    firsts = [r["times"][0] for r in records if r["times"]]
    min_overage = min(r["min_overage"] for r in records)
    peaks = [r["peak_kib"] for r in records if r["peak_kib"] is not None]
    peak = max(peaks) if peaks else None
    timeouts = sum(v for k, v in reasons.items() if k == "timeout (ours)")
    errors = sum(v for k, v in reasons.items() if k == "error (ours)")
    rss_after = status_kib("self", "VmRSS")
    print()
    print("=" * 72)
    print(f"minnow vs {args.name}: {n} games, W/D/L {wins}/{draws}/{losses}, "
          f"score {100 * (wins + draws / 2) / n:.1f}%")
    print(f"Elo {fmt_elo(est.elo)} ± {fmt_err(est.error)} (95%, {est.model}, "
          f"[{fmt_elo(est.low)}, {fmt_elo(est.high)}])")
    print("terminations: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    print(f"our move time: median {1000 * statistics.median(times):.0f} ms, max {1000 * max(times):.0f} ms, "
          f"first move median {1000 * statistics.median(firsts):.0f} ms ({len(times)} moves)")
    near = [t for r in records for t in r["after_spike"][0]]
    normal = [t for r in records for t in r["after_spike"][1]]
    if near and normal:
        print(f"after a hiccup: our move time median {1000 * statistics.median(near):.0f} ms over the 3rd-5th "
              f"moves after one ({len(near)} moves) vs {1000 * statistics.median(normal):.0f} ms elsewhere "
              f"({len(normal)} moves); {sum(r['spike_count'] for r in records)} hiccups")
    around = [r["recovery"] for r in records if r["recovery"]]
    if around:
        ratios = [after / before for before, after in around if before > 0]
        print(f"around a game's first hiccup: median of the 3 moves before {1000 * statistics.median(b for b, _ in around):.0f}"
              f" ms, of the 3rd-5th after {1000 * statistics.median(a for _, a in around):.0f} ms; after/before per game:"
              f" median {statistics.median(ratios):.2f} ({len(ratios)} games)")
    print(f"lowest remaining overage: {min_overage:.3f} s; our timeouts {timeouts}, errors {errors}")
    rows = bank.curve([r["banks"] for r in records], min_games=min(bank.MIN_GAMES, n))
    bank.write_csv(rows, Path(args.curve + ".csv"))
    series = {f"minnow vs {args.name}": rows}
    if isinstance(opponent, Submission):  # a time-management match: both sides' curves
        theirs = bank.curve([r["their_banks"] for r in records], min_games=min(bank.MIN_GAMES, n))
        bank.write_csv(theirs, Path(args.curve + "_opponent.csv"))
        series[args.name] = theirs
        print(f"opponent's bank curve: {bank.summary(theirs)}; {args.curve}_opponent.csv")
    whose = "each side's" if len(series) > 1 else "our"
    Path(args.curve + ".svg").write_text(bank.svg(series, f"bank left after {whose} move, {n} games in the harness"))
    print(f"bank curve (median bank left after our move; games): {bank.summary(rows)}; "
          f"{args.curve}.svg, .csv")
    print(f"engine peak RSS (VmHWM): {rss_summary(peaks, n)}; arena process RSS {rss_before} -> {rss_after} KiB")
    if isinstance(opponent, Submission):
        print(f"opponent processes still running at a game's end, killed: {sum(r['strays'] for r in records)}")
    if not isinstance(opponent, str) and opponent.failures:
        print(f"{args.name} failures ({len(opponent.failures)}, {opponent.restarts} restarts): "
              + "; ".join(sorted(set(opponent.failures))))
    print(f"PGN: {args.pgn}   replay: {args.html}   ({time.time() - started:.0f} s)")
    print(f"ARENA games={n} wins={wins} draws={draws} losses={losses} elo={est.elo:.1f} err={est.error:.1f} "
          f"timeouts={timeouts} errors={errors} min_overage={min_overage:.3f} "
          f"peak_rss_kib={'unmeasured' if peak is None else peak} max_move_ms={1000 * max(times, default=0):.0f}")
    if args.json:
        keep = ("index", "seed", "us", "points", "reason", "plies", "min_overage", "peak_kib", "spike_count")
        games = [{**{k: r[k] for k in keep}, "max_move_ms": round(1000 * max(r["times"], default=0)),
                  **({"calls": r["calls"], "banks": r["banks"], "their_banks": r["their_banks"]}
                     if args.ponder_log else {})}
                 for r in records]
        Path(args.json).write_text(json.dumps({"opponent": args.name, "latency": args.latency,
                                               "spikes": list(args.spikes), "games": games}) + "\n")
    return 0


def rss_ends(peaks: list) -> tuple:
    """(n, median of the first n, median of the last n) of a run's per-game peak RSS, n a tenth
    of the games (at least one): whether it grew from game to game. `peaks` is not empty."""
    tenth = max(1, len(peaks) // 10)
    return tenth, statistics.median(peaks[:tenth]), statistics.median(peaks[-tenth:])


def rss_summary(peaks: list, games: int) -> str:
    """The engine's peak RSS over a run: the highest, and the medians of the first and the
    last tenth of the games (`rss_ends`)."""
    if not peaks:
        return "unmeasured"
    tenth, first, last = rss_ends(peaks)
    text = (f"{max(peaks)} KiB at most; median {first:.0f} KiB over the first "
            f"{tenth} games, {last:.0f} KiB over the last {tenth}")
    if len(peaks) < games:
        text += f"; unmeasured in {games - len(peaks)} games"
    return text


if __name__ == "__main__":
    sys.exit(main())
