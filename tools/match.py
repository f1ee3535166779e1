#!/usr/bin/env python3
"""Engine-vs-engine match runner (UCI and XBoard engines, through python-chess).

Engine 1 is the engine under test: every result is from its point of view.

    .venv/bin/python tools/match.py \\
        --engine1 'cmd=target/release/minnow name=minnow option.Hash=1' \\
        --engine2 'cmd=fairymax proto=xboard memory=1' \\
        --tc 10+0.1 --games 200 --concurrency 1 --pgn /tmp/match.pgn \\
        --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05

Engine specs are described in tools/lib/engines.py (cmd=, name=, proto=uci|xboard,
option.NAME=VALUE, memory=MB, cores=N, dir=PATH, nodes=N: this engine's node limit in place
of --nodes, for an engine against itself with twice the nodes).

Openings come from an EPD/FEN file, shuffled with --seed and taken in order;
each opening is played twice with colours swapped (a game pair) unless
--no-repeat. The clocks are kept here: the wall time of each move is taken
from the mover's clock and the increment added; a clock below -margin loses on
time. With --kaggle-clock the increment is instead the harness's free allowance: only
the time beyond it is taken from the bank, and nothing is added. With --st every move gets a fixed time and a move slower than st plus a
tolerance (--margin, at least ST_TOLERANCE) loses on time. A crash, a hang
(no move HANG_GRACE seconds after the flag fell), an illegal move or a
protocol error loses the game, and the engine is restarted for the next one.

Games end by the rules (python-chess): checkmate, stalemate, insufficient
material, threefold repetition (the position has occurred three times) and the
50-move rule (100 half-moves without capture or pawn move); checkmate wins over
the others. A loss on time is a loss even if the opponent could not mate (as in the
Kaggle harness). With --adjudicate a game also ends when both engines agree on its
result (`Adjudication`: a win when each engine's last 3 scores put the same side 4 pawns
or more ahead, a draw from move 34 on when each engine's last 8 scores are within 0.10 of
zero; fishtest's rules with half its draw band): for fixed-node tunes and screens, where
the moves after that cost a sixth of the time and decide almost nothing (measured with
tools/reports/adjudication.py: 17% of the time, 5 results changed in 3,200 games). Off by
default.

A match that was stopped (a session ended, the machine restarted) goes on with the
same command plus --resume: the games already in its --pgn file are read back and
counted, checked against the schedule of the same --seed, and only the rest are
played; the totals are as if it had never stopped.

Elo comes with a 95% confidence interval from the pentanomial model over game
pairs (trinomial without pairs), and normalized Elo (fishtest's nElo: the score's
distance from 50% in standard deviations of one game's score, times 800 / ln 10),
which compares how well two sets of conditions (opening books, node counts) tell the
same two builds apart: an SPRT's length goes as 1 / nElo². The SPRT is the generalized SPRT on logistic
Elo used by fishtest and OpenBench: the log-likelihood ratio of the maximum
likelihood pentanomial (or trinomial) distributions whose expected score is
that of elo0 and elo1. The match stops when the LLR leaves its bounds. The last
line is machine-readable:

    RESULT games=N wins=W draws=D losses=L score=S elo=E err=X ...
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import math
import queue
import random
import re
import shlex
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.engine
import chess.pgn

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))
from elo import PENTANOMIAL_VALUES, TRINOMIAL_VALUES, EloEstimate, fmt_elo, fmt_err, gsprt_llr, pentanomial_elo, sprt_bounds, trinomial_elo
from engines import EngineSpec, SpecError, open_engine, parse_engine_spec, quiet_engine_logs
from epd import EpdError, read_epd_file

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OPENINGS = ROOT / "tests" / "data" / "kaggle_openings.epd"

HANG_GRACE = 1.0  # seconds past the flag (or the fixed move time) before an engine counts as hung
ST_TOLERANCE = 0.05  # seconds a move may overrun --st before it loses on time, at least
NODES_MOVE_TIMEOUT = 60.0  # seconds allowed per move when only a node limit is set
START_TIMEOUT = 20.0  # seconds for start-up, options and new-game synchronisation

# Termination labels, in report order. The first five are the rules of chess.
TERMINATIONS = [
    "checkmate",
    "stalemate",
    "repetition",
    "50-move",
    "insufficient material",
    "time forfeit",
    "illegal move",
    "engine crash",
    "protocol error",
    "resignation",
    "adjudication",
]
# Always listed in the summary; the others only when they happened.
ALWAYS_LISTED = TERMINATIONS[:8]
# Terminations where one engine failed: reported per loser.
FAILURES = ("time forfeit", "illegal move", "engine crash", "protocol error", "resignation")
# PGN's standard Termination header values.
PGN_TERMINATION = {
    "time forfeit": "time forfeit",
    "illegal move": "rules infraction",
    "engine crash": "abandoned",
    "protocol error": "abandoned",
    "adjudication": "adjudication",
}
# A mate score, in centipawns, for the adjudication's score lists.
MATE_CP = 100_000


def parse_settings(words: Sequence[str], keys: Sequence[str], convert: Callable[[str], float], what: str) -> dict:
    """KEY=VALUE words as {KEY: convert(VALUE)} for the keys allowed; ValueError naming `what`
    for any other word."""
    values = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or key not in keys:
            raise ValueError(f"bad {what} setting {word!r} (use {'= '.join(keys)}=)")
        try:
            values[key] = convert(value)
        except ValueError:
            raise ValueError(f"bad {what} setting {word!r}: not a number of that kind") from None
    return values


@dataclass(frozen=True)
class Adjudication:
    """When a game is decided before the rules end it (cutechess-cli's -resign and -draw, at
    fishtest's values but a draw band of 10 cp, not 20: at 20 twice as many results
    changed for 2% more time saved): both engines' scores must agree.

    A win for a side once each engine's last `resign_moves` scores put that side
    `resign_score` centipawns or more ahead; a draw once `draw_move` moves have been played
    from the opening position and each engine's last `draw_moves` scores are within
    `draw_score` of zero. A move without a score breaks either run.
    """

    resign_moves: int = 3
    resign_score: int = 400
    draw_move: int = 34
    draw_moves: int = 8
    draw_score: int = 10

    @classmethod
    def parse(cls, words: Sequence[str]) -> Adjudication:
        """From KEY=VALUE words (the field names; none: the defaults)."""
        values = parse_settings(words, tuple(cls.__dataclass_fields__), int, "adjudication")
        for key, value in values.items():
            if value < (0 if key in ("draw_move", "draw_score") else 1):
                raise ValueError(f"bad adjudication setting {key}={value}: too small")
        return cls(**values)

    def decide(self, scores: Sequence[int | None]) -> str | None:
        """The result after the plies whose scores are `scores` (centipawns from White's point
        of view, a mate as +-MATE_CP, None where the mover gave none), or None to play on."""
        plies = len(scores)
        last = scores[plies - 2 * self.resign_moves :] if plies >= 2 * self.resign_moves else []
        if last and all(x is not None and x >= self.resign_score for x in last):
            return "1-0"
        if last and all(x is not None and x <= -self.resign_score for x in last):
            return "0-1"
        if plies >= max(2 * self.draw_move, 2 * self.draw_moves):
            if all(x is not None and abs(x) <= self.draw_score for x in scores[plies - 2 * self.draw_moves :]):
                return "1/2-1/2"
        return None

    def describe(self) -> str:
        """Human-readable form."""
        return (f"adjudication: a win at {self.resign_score} cp for {self.resign_moves} moves of each engine, "
                f"a draw within {self.draw_score} cp for {self.draw_moves} moves of each from move {self.draw_move}")


@dataclass(frozen=True)
class SprtConfig:
    """SPRT hypotheses (logistic Elo) and error rates."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, words: Sequence[str]) -> SprtConfig:
        """From words like ['elo0=0', 'elo1=5', 'alpha=0.05', 'beta=0.05']."""
        config = cls(**parse_settings(words, ("elo0", "elo1", "alpha", "beta"), float, "--sprt"))
        if config.elo1 <= config.elo0:
            raise ValueError("--sprt needs elo1 > elo0")
        if not (0 < config.alpha < 1 and 0 < config.beta < 1):
            raise ValueError("--sprt alpha and beta must be between 0 and 1")
        return config

    def bounds(self) -> tuple[float, float]:
        """(lower, upper) LLR bounds."""
        return sprt_bounds(self.alpha, self.beta)


# --------------------------------------------------------------------------
# Openings and game schedule.


@dataclass(frozen=True)
class GameJob:
    """One game to play: which opening and which colour engine 1 has."""

    number: int  # 0-based game number
    pair: int  # 0-based pair (or opening slot) number
    opening_index: int  # index into the (unshuffled) openings list
    fen: str
    engine1_white: bool


def load_openings(path: str | Path) -> list[str]:
    """Opening positions (FENs) of an EPD/FEN file, in file order."""
    return [record.fen() for record in read_epd_file(path)]


def schedule_games(openings: Sequence[str], games: int, seed: int, repeat: bool = True) -> list[GameJob]:
    """The game list: openings shuffled by `seed` and used in order, wrapping around.

    With `repeat`, games 2k and 2k+1 share an opening, engine 1 white in the
    first and black in the second. Without it, each game has its own opening
    and engine 1's colour alternates.
    """
    if not openings:
        raise ValueError("no openings")
    order = list(range(len(openings)))
    random.Random(seed).shuffle(order)
    jobs = []
    for number in range(games):
        slot = number // 2 if repeat else number
        index = order[slot % len(order)]
        jobs.append(GameJob(number, slot, index, openings[index], number % 2 == 0))
    return jobs


# --------------------------------------------------------------------------
# Playing games.


@dataclass(frozen=True)
class TimeControl:
    """Either a clock (base + increment), a fixed time per move, or only a node limit."""

    base: float | None = None
    increment: float = 0.0
    move_time: float | None = None
    nodes: int | None = None
    margin: float = 0.0
    # The Kaggle harness's clock: the increment is a free allowance on each move, not
    # banked; only time beyond it is taken from the bank.
    kaggle: bool = False

    @classmethod
    def parse_tc(cls, text: str) -> tuple[float, float]:
        """'10+0.1' -> (10.0, 0.1); '60' -> (60.0, 0.0)."""
        match = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*(?:\+\s*(\d+(?:\.\d*)?))?\s*", text)
        if not match:
            raise ValueError(f"bad time control {text!r} (use BASE+INC in seconds, e.g. 10+0.1)")
        return float(match.group(1)), float(match.group(2) or 0.0)

    def pgn(self) -> str:
        """PGN TimeControl header value."""
        if self.base is not None:
            return f"{self.base:g}+{self.increment:g}" if self.increment else f"{self.base:g}"
        if self.move_time is not None:
            return f"1/{self.move_time:g}"  # one move per period of move_time seconds
        return "-"

    def describe(self) -> str:
        """Human-readable form."""
        parts = []
        if self.base is not None:
            parts.append(f"{self.base:g}+{self.increment:g} s" + (" (Kaggle clock: increment free, not banked)" if self.kaggle else ""))
        if self.move_time is not None:
            parts.append(f"{self.move_time:g} s/move")
        if self.nodes is not None:
            parts.append(f"{self.nodes} nodes/move")
        parts.append(f"margin {self.margin * 1000:g} ms")
        return ", ".join(parts)


@dataclass
class GameRecord:
    """A finished game."""

    job: GameJob
    result: str  # "1-0", "0-1", "1/2-1/2"
    termination: str  # one of TERMINATIONS
    detail: str
    loser: int | None  # 1 or 2 when an engine failed (FAILURES), else None
    moves: list[chess.Move] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    white: str = ""
    black: str = ""
    started: str = ""

    @property
    def engine1_points(self) -> float:
        """Engine 1's score in this game: 1, 0.5 or 0."""
        if self.result == "1/2-1/2":
            return 0.5
        white_won = self.result == "1-0"
        return 1.0 if white_won == self.job.engine1_white else 0.0

    @property
    def plies(self) -> int:
        return len(self.moves)


def rules_outcome(board: chess.Board) -> tuple[str, str] | None:
    """(result, termination) if the game is over by the rules, else None."""
    if board.is_checkmate():
        return ("0-1" if board.turn == chess.WHITE else "1-0"), "checkmate"
    if board.is_stalemate():
        return "1/2-1/2", "stalemate"
    if board.is_insufficient_material():
        return "1/2-1/2", "insufficient material"
    if board.is_repetition(3):
        return "1/2-1/2", "repetition"
    if board.halfmove_clock >= 100:
        return "1/2-1/2", "50-move"
    return None


class EngineFailure(Exception):
    """An engine lost the game by misbehaving; `termination` is one of FAILURES."""

    def __init__(self, termination: str, detail: str, restart: bool):
        super().__init__(detail)
        self.termination = termination
        self.detail = detail
        self.restart = restart


class FatalEngineStart(Exception):
    """An engine could not be started (or restarted)."""


class Player:
    """One engine process of one worker, restarted when it misbehaves."""

    def __init__(self, spec: EngineSpec, label: str):
        self.spec = spec
        self.label = label
        self.engine: chess.engine.SimpleEngine | None = None
        self.restarts = 0

    def start(self) -> None:
        """Start the engine; raises FatalEngineStart when it cannot be started or configured."""
        try:
            self.engine = open_engine(self.spec, timeout=START_TIMEOUT)
        except (chess.engine.EngineError, OSError, TimeoutError) as exc:
            raise FatalEngineStart(f"cannot start {self.label}: {shlex.join(self.spec.argv)}: {type(exc).__name__}: {exc}") from None

    def restart(self) -> None:
        self.close(kill=True)
        self.restarts += 1
        self.start()

    def _run(self, coroutine_factory: Callable[[], object], timeout: float | None) -> object:
        """Run a coroutine of the engine's protocol in its event loop thread, with a timeout."""
        engine = self.engine
        assert engine is not None
        coroutine = asyncio.wait_for(coroutine_factory(), timeout)
        return asyncio.run_coroutine_threadsafe(coroutine, engine.protocol.loop).result()

    def new_game(self, game_id: object) -> None:
        """UCI: send ucinewgame and wait for readyok now, so that it is not charged to the clock."""
        assert self.engine is not None
        protocol = self.engine.protocol
        if isinstance(protocol, chess.engine.UciProtocol):

            async def synchronise() -> None:
                protocol._ucinewgame()
                protocol.game = game_id
                await protocol.ping()

            self._guard(lambda: self._run(synchronise, START_TIMEOUT), "new game")

    def play(self, board: chess.Board, limit: chess.engine.Limit, game_id: object, timeout: float) -> chess.engine.PlayResult:
        """Ask for a move; engine trouble raises EngineFailure."""
        assert self.engine is not None
        protocol = self.engine.protocol
        info = chess.engine.INFO_BASIC | chess.engine.INFO_SCORE

        def request():
            return protocol.play(board, limit, game=game_id, info=info)

        return self._guard(lambda: self._run(request, timeout), "move")

    def _guard(self, action: Callable[[], object], what: str):
        try:
            return action()
        except TimeoutError:
            raise EngineFailure("time forfeit", f"{self.label} gave no {what} in time (hung; restarted)", True) from None
        except chess.engine.EngineTerminatedError as exc:
            raise EngineFailure("engine crash", f"{self.label} died ({exc})", True) from None
        except chess.engine.EngineError as exc:
            text = str(exc)
            if re.search(r"illegal|invalid|ambiguous", text, re.IGNORECASE):
                raise EngineFailure("illegal move", f"{self.label}: {text}", True) from None
            raise EngineFailure("protocol error", f"{self.label}: {text}", True) from None
        except RuntimeError as exc:  # event loop already closed: the engine is gone
            raise EngineFailure("engine crash", f"{self.label}: {exc}", True) from None

    def game_over(self, board: chess.Board, result: str, reason: str) -> None:
        """Tell an XBoard engine the result (UCI has no such command); errors are ignored.

        A ping follows, so that an engine's answer to `result` (Fairy-Max says
        "Error (unknown command): result") is read here and not taken for an
        error in the next game.
        """
        if self.engine is None or not isinstance(self.engine.protocol, chess.engine.XBoardProtocol):
            return
        winner = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(result)
        protocol = self.engine.protocol

        async def report() -> None:
            await protocol.send_game_result(board, winner, reason)
            with contextlib.suppress(chess.engine.EngineError):
                await protocol.ping()

        with contextlib.suppress(Exception):  # the game is over anyway; a broken engine shows up next game
            self._run(report, 5.0)

    def close(self, kill: bool = False) -> None:
        """Quit the engine (or kill it at once)."""
        engine, self.engine = self.engine, None
        if engine is None:
            return
        if not kill:
            with contextlib.suppress(Exception):  # closing below kills it anyway
                engine.quit()
        engine.close()


def format_comment(info: dict, elapsed: float, pov: chess.Color) -> str:
    """PGN move comment in the usual '+0.35/12 0.512s' form."""
    parts = []
    score = info.get("score")
    if score is not None:
        relative = score.pov(pov)
        if relative.is_mate():
            mate = relative.mate()
            parts.append(f"{'+' if mate > 0 else '-'}M{abs(mate)}")
        else:
            parts.append(f"{relative.score() / 100:+.2f}")
        if "depth" in info:
            parts[-1] += f"/{info['depth']}"
    parts.append(f"{elapsed:.3f}s")
    return " ".join(parts)


def node_limit(spec: EngineSpec, tc: TimeControl) -> int | None:
    """The nodes a move of the engine of spec: its own `nodes=` (an engine against itself
    with twice the nodes) in place of the match's `--nodes`."""
    return tc.nodes if spec.nodes is None else spec.nodes


def play_game(job: GameJob, players: tuple[Player, Player], tc: TimeControl, adjudication: Adjudication | None = None) -> GameRecord:
    """Play one game from job.fen; players[0] is engine 1. Restarts engines that failed."""
    board = chess.Board(job.fen)
    white, black = players if job.engine1_white else (players[1], players[0])
    record = GameRecord(job, "*", "", "", None, white=white.spec.name, black=black.spec.name)
    record.started = datetime.datetime.now().strftime("%Y.%m.%d %H:%M:%S")
    clocks = {chess.WHITE: tc.base or 0.0, chess.BLACK: tc.base or 0.0}
    game_id = object()
    scores: list[int | None] = []  # each move's score from White's point of view

    def fail(side: chess.Color, failure: EngineFailure) -> GameRecord:
        mover = white if side == chess.WHITE else black
        record.result = "0-1" if side == chess.WHITE else "1-0"
        record.termination = failure.termination
        record.detail = failure.detail
        record.loser = 1 if mover is players[0] else 2
        if failure.restart:
            mover.restart()
        return record

    for player, colour in ((white, chess.WHITE), (black, chess.BLACK)):
        try:
            player.new_game(game_id)
        except EngineFailure as failure:
            return finish(fail(colour, failure), board, players)

    while True:
        outcome = rules_outcome(board)
        if outcome:
            record.result, record.termination = outcome
            record.detail = outcome[1]
            return finish(record, board, players)
        verdict = adjudication.decide(scores) if adjudication else None
        if verdict:
            record.result, record.termination = verdict, "adjudication"
            record.detail = f"adjudicated {verdict} after {len(scores)} plies"
            return finish(record, board, players)
        side = board.turn
        mover = white if side == chess.WHITE else black
        nodes = node_limit(mover.spec, tc)
        if tc.base is not None:
            limit = chess.engine.Limit(
                white_clock=max(clocks[chess.WHITE], 0.001),
                black_clock=max(clocks[chess.BLACK], 0.001),
                white_inc=tc.increment,
                black_inc=tc.increment,
                nodes=nodes,
                clock_id=game_id,
            )
            timeout = max(clocks[side], 0.0) + tc.margin + HANG_GRACE + (tc.increment if tc.kaggle else 0.0)
        elif tc.move_time is not None:
            limit = chess.engine.Limit(time=tc.move_time, nodes=nodes, clock_id=game_id)
            timeout = tc.move_time + max(tc.margin, ST_TOLERANCE) + HANG_GRACE
        else:
            limit = chess.engine.Limit(nodes=nodes, clock_id=game_id)
            timeout = NODES_MOVE_TIMEOUT
        started = time.perf_counter()
        try:
            result = mover.play(board, limit, game_id, timeout)
        except EngineFailure as failure:
            return finish(fail(side, failure), board, players)
        elapsed = time.perf_counter() - started
        if result.resigned:
            return finish(fail(side, EngineFailure("resignation", f"{mover.label} resigned", False)), board, players)
        move = result.move
        if move is None or move not in board.legal_moves:
            text = "no move" if move is None else f"illegal move {move.uci()}"
            return finish(fail(side, EngineFailure("illegal move", f"{mover.label}: {text}", True)), board, players)
        if tc.base is not None:
            clocks[side] -= max(0.0, elapsed - tc.increment) if tc.kaggle else elapsed
            if clocks[side] < -tc.margin:
                detail = f"{mover.label} lost on time ({clocks[side]:+.3f} s after {elapsed:.3f} s on {board.san(move)})"
                return finish(fail(side, EngineFailure("time forfeit", detail, False)), board, players)
            if not tc.kaggle:
                clocks[side] += tc.increment
        elif tc.move_time is not None and elapsed > tc.move_time + max(tc.margin, ST_TOLERANCE):
            detail = f"{mover.label} took {elapsed:.3f} s for {board.san(move)} (limit {tc.move_time:g} s)"
            return finish(fail(side, EngineFailure("time forfeit", detail, False)), board, players)
        record.comments.append(format_comment(result.info, elapsed, side))
        score = result.info.get("score")
        scores.append(None if score is None else score.white().score(mate_score=MATE_CP))
        record.moves.append(move)
        board.push(move)


def finish(record: GameRecord, board: chess.Board, players: tuple[Player, Player]) -> GameRecord:
    """Tell XBoard engines the result and return the record."""
    for player in players:
        if player.engine is not None:
            player.game_over(board, record.result, record.termination)
    return record


def game_pgn(record: GameRecord, event: str, tc: TimeControl, round_label: str) -> str:
    """The game as PGN text."""
    game = chess.pgn.Game()
    game.setup(chess.Board(record.job.fen))
    game.headers["Event"] = event
    game.headers["Site"] = socket.gethostname()
    game.headers["Date"] = record.started.split(" ")[0]
    game.headers["Round"] = round_label
    game.headers["White"] = record.white
    game.headers["Black"] = record.black
    game.headers["Result"] = record.result
    game.headers["TimeControl"] = tc.pgn()
    if tc.nodes is not None:
        game.headers["Nodes"] = str(tc.nodes)
    game.headers["Termination"] = PGN_TERMINATION.get(record.termination, "normal")
    game.headers["EndReason"] = record.termination
    game.headers["Opening"] = f"#{record.job.opening_index + 1}"
    game.headers["PlyCount"] = str(record.plies)
    game.headers["GameStartTime"] = record.started
    node = game
    for move, comment in zip(record.moves, record.comments, strict=True):
        node = node.add_variation(move, comment=comment)
    node.comment = f"{node.comment}; {record.detail}" if node.comment else record.detail
    return str(game)


# --------------------------------------------------------------------------
# Match bookkeeping and output.


class Tally:
    """Results so far, from engine 1's point of view."""

    def __init__(self, paired: bool):
        self.paired = paired
        self.wins = self.draws = self.losses = 0
        self.pentanomial = [0, 0, 0, 0, 0]
        self.terminations: Counter[str] = Counter()
        self.failures_by: Counter[tuple[str, int]] = Counter()
        self.plies = 0
        self._open_pairs: dict[int, float] = {}

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def add(self, record: GameRecord) -> None:
        points = record.engine1_points
        if points == 1.0:
            self.wins += 1
        elif points == 0.0:
            self.losses += 1
        else:
            self.draws += 1
        self.terminations[record.termination] += 1
        if record.loser is not None:
            self.failures_by[(record.termination, record.loser)] += 1
        self.plies += record.plies
        if self.paired:
            pair = record.job.pair
            if pair in self._open_pairs:
                self.pentanomial[round(2 * (self._open_pairs.pop(pair) + points))] += 1
            else:
                self._open_pairs[pair] = points

    @property
    def unpaired(self) -> int:
        """Games whose partner is not finished (or was never played)."""
        return len(self._open_pairs)

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    def elo(self) -> EloEstimate:
        if self.paired:
            return pentanomial_elo(self.pentanomial)
        return trinomial_elo(self.wins, self.draws, self.losses)

    def llr(self, sprt: SprtConfig) -> float:
        if self.paired:
            return gsprt_llr(self.pentanomial, PENTANOMIAL_VALUES, sprt.elo0, sprt.elo1)
        return gsprt_llr((self.losses, self.draws, self.wins), TRINOMIAL_VALUES, sprt.elo0, sprt.elo1)


def sprt_state(llr: float, sprt: SprtConfig) -> str:
    low, high = sprt.bounds()
    if llr >= high:
        return "H1 accepted"
    if llr <= low:
        return "H0 accepted"
    return "continue"


def progress_line(tally: Tally, total: int, sprt: SprtConfig | None) -> str:
    estimate = tally.elo()
    line = (
        f"[{tally.games}/{total}] W/D/L {tally.wins}/{tally.draws}/{tally.losses}"
        f"  score {100 * tally.score:.1f}%  elo {fmt_elo(estimate.elo)} ± {fmt_err(estimate.error)}"
    )
    if sprt:
        low, high = sprt.bounds()
        line += f"  LLR {tally.llr(sprt):.2f} ({low:.2f}, {high:.2f})"
    return line


def summary(tally: Tally, names: tuple[str, str], tc: TimeControl, openings: str, seed: int, sprt: SprtConfig | None, elapsed: float, stopped: str) -> str:
    estimate = tally.elo()
    lines = ["", "=" * 72, f"{names[0]} (engine 1, under test) vs {names[1]}"]
    lines.append(f"time control: {tc.describe()}; openings: {openings} (seed {seed})")
    lines.append(
        f"games: {tally.games}   W/D/L: {tally.wins}/{tally.draws}/{tally.losses}   score: {tally.wins + tally.draws / 2:g}/{tally.games} = {tally.score:.4f}"
    )
    if estimate.model == "pentanomial":
        model = f"pentanomial model over {estimate.samples} game pairs"
        if tally.unpaired:
            model += f"; {tally.unpaired} game(s) without a finished partner left out"
    else:
        model = f"trinomial model over {estimate.samples} games"
    lines.append(f"elo: {fmt_elo(estimate.elo)} ± {fmt_err(estimate.error)}  (95% CI [{fmt_elo(estimate.low)}, {fmt_elo(estimate.high)}], {model})")
    if not math.isnan(estimate.normalized):
        lines.append(f"normalized elo: {fmt_elo(estimate.normalized)} ± {fmt_err(estimate.normalized_error)}")
    if tally.paired:
        lines.append("pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2 points): " + " ".join(map(str, tally.pentanomial)))
    draw_ratio = tally.draws / tally.games if tally.games else 0.0
    lines.append(f"draw ratio: {100 * draw_ratio:.1f}%")
    lines.append("terminations:")
    for label in TERMINATIONS:
        count = tally.terminations[label]
        if count == 0 and label not in ALWAYS_LISTED:
            continue
        text = f"  {label:<22} {count:>5}"
        if label in FAILURES and count:
            text += f"  ({names[0]} {tally.failures_by[(label, 1)]}, {names[1]} {tally.failures_by[(label, 2)]})"
        lines.append(text)
    average = tally.plies / tally.games if tally.games else 0.0
    lines.append(f"average game length: {average:.1f} plies ({average / 2:.1f} moves)")
    llr = None
    if sprt:
        llr = tally.llr(sprt)
        low, high = sprt.bounds()
        lines.append(
            f"SPRT (logistic elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} beta={sprt.beta:g}, "
            f"{'pentanomial' if tally.paired else 'trinomial'} GSPRT): LLR {llr:.3f} bounds ({low:.3f}, {high:.3f}): {sprt_state(llr, sprt)}"
        )
    lines.append(f"wall time: {elapsed:.1f} s{'; ' + stopped if stopped else ''}")
    lines.append("=" * 72)
    fields = [
        f"games={tally.games}",
        f"wins={tally.wins}",
        f"draws={tally.draws}",
        f"losses={tally.losses}",
        f"score={tally.score:.4f}",
        f"elo={fmt_elo(estimate.elo)}",
        f"err={fmt_err(estimate.error)}",
        f"elo_low={fmt_elo(estimate.low)}",
        f"elo_high={fmt_elo(estimate.high)}",
        f"draw_ratio={draw_ratio:.4f}",
        f"nelo={fmt_elo(estimate.normalized)}",
        f"model={estimate.model}",
    ]
    if sprt and llr is not None:
        fields += [f"llr={llr:.3f}", "sprt=" + {"H1 accepted": "H1", "H0 accepted": "H0"}.get(sprt_state(llr, sprt), "continue")]
    lines.append("RESULT " + " ".join(fields))
    return "\n".join(lines)


# --------------------------------------------------------------------------
# Resuming a match from its PGN.


class ResumeError(Exception):
    """The PGN file does not belong to this match (or its last game is cut off)."""


def round_label(job: GameJob, paired: bool) -> str:
    """The PGN Round of `job`: its pair, and with pairs which game of it ("3.1", "3.2")."""
    return f"{job.pair + 1}.{job.number % 2 + 1}" if paired else f"{job.pair + 1}"


def read_finished_games(path: str | Path, jobs: Sequence[GameJob], names: tuple[str, str], paired: bool) -> list[GameRecord]:
    """The games of `jobs` already in the PGN at `path` (written by this tool), as records.

    Each game is matched to its scheduled job by its Round header (`round_label`); its opening, colours
    and player names must be those the schedule gives (the same --seed, --openings,
    --games and engine names), else ResumeError. A missing file means no games.
    """
    if not Path(path).exists():
        return []
    by_round = {round_label(job, paired): job for job in jobs}
    records: dict[int, GameRecord] = {}
    with open(path, encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            headers = game.headers
            where = f"{path}: game with Round {headers.get('Round', '?')!r}"
            job = by_round.get(headers.get("Round", ""))
            if job is None:
                raise ResumeError(f"{where}: not a round of this match's schedule")
            if job.number in records:
                raise ResumeError(f"{where}: played twice")
            white, black = (names[0], names[1]) if job.engine1_white else (names[1], names[0])
            if chess.Board(headers.get("FEN", chess.STARTING_FEN)).fen() != chess.Board(job.fen).fen() or (headers.get("White"), headers.get("Black")) != (white, black):
                raise ResumeError(f"{where}: opening or players differ from the schedule (another --seed, --openings or engine name?)")
            result, termination = headers.get("Result"), headers.get("EndReason")
            moves = list(game.mainline_moves())
            if result not in ("1-0", "0-1", "1/2-1/2") or termination not in TERMINATIONS:
                raise ResumeError(f"{where}: no result")
            if game.errors or str(len(moves)) != headers.get("PlyCount"):
                raise ResumeError(f"{where}: the moves are cut off (remove the unfinished game from the file)")
            loser = None
            if termination in FAILURES:
                white_lost = result == "0-1"
                loser = 1 if white_lost == job.engine1_white else 2
            records[job.number] = GameRecord(job, result, termination, "", loser, moves, white=white, black=black)
    return [records[number] for number in sorted(records)]


# --------------------------------------------------------------------------
# Running the match.


@dataclass
class MatchConfig:
    specs: tuple[EngineSpec, EngineSpec]
    tc: TimeControl
    jobs: list[GameJob]
    concurrency: int = 1
    sprt: SprtConfig | None = None
    pgn_path: str | None = None
    event: str = "minnow match"
    # Games already played (read back from the PGN by --resume): counted first, not replayed.
    finished: list[GameRecord] = field(default_factory=list)
    adjudication: Adjudication | None = None


class FatalMatchError(Exception):
    """The match cannot go on (an engine cannot be started); `tally` has the games played."""

    def __init__(self, message: str, tally: Tally):
        super().__init__(message)
        self.tally = tally


def run_match(config: MatchConfig, report: Callable[[Tally, GameRecord], None] | None = None) -> tuple[Tally, str]:
    """Play the scheduled games; returns the tally and why it stopped early ('' if it did not)."""
    scheduled = sorted([record.job for record in config.finished] + list(config.jobs), key=lambda job: job.number)
    paired = any(a.pair == b.pair for a, b in zip(scheduled, scheduled[1:], strict=False))
    tally = Tally(paired)
    for record in config.finished:
        tally.add(record)
    pending: queue.Queue[GameJob] = queue.Queue()
    for job in config.jobs:
        pending.put(job)
    results: queue.Queue[tuple[str, object]] = queue.Queue()
    stop = threading.Event()
    labels = ("engine 1 (" + config.specs[0].name + ")", "engine 2 (" + config.specs[1].name + ")")

    def worker() -> None:
        players = (Player(config.specs[0], labels[0]), Player(config.specs[1], labels[1]))
        try:
            for player in players:
                player.start()
            while not stop.is_set():
                try:
                    job = pending.get_nowait()
                except queue.Empty:
                    break
                results.put(("game", play_game(job, players, config.tc, config.adjudication)))
        except FatalEngineStart as exc:
            results.put(("error", str(exc)))
        except Exception as exc:  # noqa: BLE001 - reported to the main thread, which ends the match
            results.put(("error", f"{type(exc).__name__}: {exc}"))
        finally:
            for player in players:
                player.close()
            results.put(("done", None))

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(min(config.concurrency, len(config.jobs)))]
    for thread in threads:
        thread.start()
    stopped = ""
    running = len(threads)
    with contextlib.ExitStack() as stack:
        pgn = stack.enter_context(open(config.pgn_path, "a", encoding="utf-8")) if config.pgn_path else None
        try:
            while running:
                kind, payload = results.get()
                if kind == "done":
                    running -= 1
                elif kind == "error":
                    stop.set()
                    raise FatalMatchError(str(payload), tally)
                else:
                    record = payload
                    assert isinstance(record, GameRecord)
                    tally.add(record)
                    if pgn:
                        pgn.write(game_pgn(record, config.event, config.tc, round_label(record.job, paired)) + "\n\n")
                        pgn.flush()
                    if report:
                        report(tally, record)
                    if config.sprt and not stop.is_set():
                        state = sprt_state(tally.llr(config.sprt), config.sprt)
                        if state != "continue":
                            stopped = f"SPRT stopped the match: {state} (games in progress were finished)"
                            stop.set()
        except KeyboardInterrupt:
            stop.set()
            stopped = "interrupted"
    return tally, stopped


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n", 2)[2]
    )
    parser.add_argument(
        "--engine1", nargs="+", required=True, metavar="SPEC", help="engine under test (spec: cmd=... [name=] [proto=] [option.X=Y] [memory=] [cores=])"
    )
    parser.add_argument("--engine2", nargs="+", required=True, metavar="SPEC", help="opponent")
    limits = parser.add_mutually_exclusive_group()
    limits.add_argument("--tc", help="clock: BASE+INC in seconds, e.g. 10+0.1")
    limits.add_argument("--st", type=float, help="fixed seconds per move")
    parser.add_argument("--nodes", type=int, help="node limit per move (alone, or with --tc/--st for UCI engines)")
    parser.add_argument("--kaggle-clock", action="store_true",
                        help="the Kaggle harness's clock: the --tc increment is free on each move and never banked "
                             "(engines are told it as winc/binc, as the adapter does)")
    parser.add_argument("--margin", type=float, default=0.0, help="ms a clock may go below zero before the flag falls (default: %(default)s)")
    parser.add_argument("--games", type=int, default=100, help="number of games (default: %(default)s)")
    parser.add_argument("--concurrency", type=int, default=1, help="games played at once, each with its own engine processes (default: %(default)s)")
    parser.add_argument("--openings", default=str(DEFAULT_OPENINGS), help="EPD/FEN file of opening positions (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the opening shuffle (default: random, printed)")
    parser.add_argument("--no-repeat", action="store_true", help="one game per opening (colours alternate) instead of game pairs")
    parser.add_argument("--pgn", help="append every game to this PGN file")
    parser.add_argument("--resume", action="store_true",
                        help="count the games already in the --pgn file (same --seed, --openings, --games and names) and play only the rest")
    parser.add_argument("--sprt", nargs="+", metavar="KEY=VALUE", help="SPRT: elo0=0 elo1=5 alpha=0.05 beta=0.05 (stops the match at a bound)")
    parser.add_argument("--event", default="minnow match", help="PGN Event header (default: %(default)s)")
    parser.add_argument("--adjudicate", nargs="*", metavar="KEY=VALUE",
                        help="end a game when both engines agree on its result (alone: fishtest's rules; or "
                             "resign_moves=3 resign_score=400 draw_move=34 draw_moves=8 draw_score=10)")
    args = parser.parse_args(argv)

    if args.tc is None and args.st is None and args.nodes is None:
        parser.error("give --tc, --st or --nodes")
    if args.games < 1 or args.concurrency < 1:
        parser.error("--games and --concurrency must be at least 1")
    try:
        specs = (parse_engine_spec(args.engine1), parse_engine_spec(args.engine2))
        sprt = SprtConfig.parse(args.sprt) if args.sprt else None
        base, increment = TimeControl.parse_tc(args.tc) if args.tc else (None, 0.0)
        adjudication = Adjudication.parse(args.adjudicate) if args.adjudicate is not None else None
    except (SpecError, ValueError) as exc:
        parser.error(str(exc))
    if args.st is not None and args.st <= 0:
        parser.error("--st must be positive")
    if args.nodes is not None and (args.tc or args.st) and any(spec.proto == "xboard" for spec in specs):
        parser.error("xboard engines cannot combine --nodes with --tc or --st")
    if specs[0].name == specs[1].name:
        specs[0].name += " (1)"
        specs[1].name += " (2)"
    if args.kaggle_clock and not args.tc:
        parser.error("--kaggle-clock needs --tc")
    tc = TimeControl(base, increment, args.st, args.nodes, args.margin / 1000.0, args.kaggle_clock)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    try:
        openings = load_openings(args.openings)
        jobs = schedule_games(openings, args.games, seed, repeat=not args.no_repeat)
    except (OSError, EpdError, ValueError) as exc:
        parser.error(f"openings: {exc}")
    finished: list[GameRecord] = []
    if args.resume:
        if not args.pgn or args.seed is None:
            parser.error("--resume needs --pgn and the --seed of the match it resumes")
        try:
            finished = read_finished_games(args.pgn, jobs, (specs[0].name, specs[1].name), paired=not args.no_repeat)
        except (OSError, ValueError, ResumeError) as exc:
            parser.error(f"--resume: {exc}")
        done = {record.job.number for record in finished}
        jobs = [job for job in jobs if job.number not in done]
    quiet_engine_logs()

    print(f"engine 1: {specs[0].name}: {specs[0].describe()}")
    print(f"engine 2: {specs[1].name}: {specs[1].describe()}")
    print(f"{args.games} games, {tc.describe()}, concurrency {args.concurrency}, openings {args.openings} ({len(openings)}), seed {seed}")
    if adjudication:
        print(adjudication.describe())
    if sprt:
        low, high = sprt.bounds()
        print(f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} beta={sprt.beta:g}: LLR bounds ({low:.3f}, {high:.3f})")
    if args.resume:
        print(f"resumed: {len(finished)} games read back from {args.pgn}, {len(jobs)} to play")
    sys.stdout.flush()

    interactive = sys.stdout.isatty()

    def report(tally: Tally, record: GameRecord) -> None:
        line = progress_line(tally, args.games, sprt)
        if interactive:
            print("\r" + line.ljust(100), end="", flush=True)
        else:
            print(f"{line}  | game {record.job.number + 1}: {record.white} - {record.black} {record.result} ({record.termination})", flush=True)
        if record.loser is not None and record.termination != "resignation":
            message = f"game {record.job.number + 1}: {record.detail}"
            print(("\n" if interactive else "") + message, flush=True)

    started = time.perf_counter()
    config = MatchConfig(specs, tc, jobs, args.concurrency, sprt, args.pgn, args.event, finished, adjudication)
    try:
        tally, stopped = run_match(config, report)
    except FatalMatchError as exc:
        if exc.tally.games:
            print(summary(exc.tally, (specs[0].name, specs[1].name), tc, args.openings, seed, sprt, time.perf_counter() - started, f"aborted: {exc}"))
        print(f"\nmatch aborted: {exc}", file=sys.stderr)
        return 2
    if interactive:
        print()
    print(summary(tally, (specs[0].name, specs[1].name), tc, args.openings, seed, sprt, time.perf_counter() - started, stopped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
