"""The analysis habits, driven as a user drives them: through python-chess, or UCI lines a
GUI sends. The build users get (`cargo build --release`, the `analysis` feature) has them;
the competition build (`make submission` builds it into target/kaggle/) has none of them and
says so, and both search the same tree (`bench`).

Nothing is built here: `make test` builds both binaries first.
"""

import queue
import subprocess
import threading
import time
from pathlib import Path

import chess
import chess.engine
import pytest

ROOT = Path(__file__).resolve().parents[2]
ANALYSIS = ROOT / "target/release/minnow"
KAGGLE = ROOT / "target/kaggle/release/minnow"

# White mates in 2 and not in 1 (1. Rb7, then 2. Ra8#): two rooks against a bare king.
MATE_IN_2 = "6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1"
# Black is mated (back-rank); black is stalemated.
MATED = "R6k/6pp/8/8/8/8/8/6K1 b - - 0 1"
STALEMATED = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
# A quiet middlegame with many reasonable moves.
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8"


@pytest.fixture
def engine():
    assert ANALYSIS.is_file(), "build the engine first: cargo build --release"
    eng = chess.engine.SimpleEngine.popen_uci(str(ANALYSIS))
    yield eng
    eng.quit()


class Uci:
    """The engine over raw UCI lines, read by a thread so that a test can wait with a deadline."""

    def __init__(self, path: Path):
        self.proc = subprocess.Popen([str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, *lines: str):
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix: str, timeout: float) -> list:
        """Every line up to and including the first that starts with `prefix`; fails on timeout."""
        seen, deadline = [], time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {prefix!r} within {timeout} s; got {seen[-5:]}") from None
            assert line is not None, f"engine exited before {prefix!r}; got {seen[-5:]}"
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def quiet_for(self, seconds: float) -> list:
        """The lines that arrive in the next `seconds`."""
        seen, deadline = [], time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is not None:
                seen.append(line)
        return seen

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def without_clock(line: str) -> str:
    """An info line without its `nps` and `time` figures, which vary from run to run."""
    words = line.split()
    return " ".join(w for i, w in enumerate(words) if w not in ("nps", "time") and words[i - 1] not in ("nps", "time"))


def field(line: str, name: str) -> int:
    words = line.split()
    return int(words[words.index(name) + 1])


# ---------------------------------------------------------------------------------------
# MultiPV


def test_multipv_gives_distinct_lines_best_first(engine):
    board = chess.Board(MIDDLEGAME)
    infos = engine.analyse(board, chess.engine.Limit(depth=10), multipv=3)
    assert len(infos) == 3
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 3, firsts
    scores = [info["score"].relative.score(mate_score=100000) for info in infos]
    assert scores == sorted(scores, reverse=True), scores
    assert [info["multipv"] for info in infos] == [1, 2, 3]
    for info in infos:
        assert info["depth"] == 10
        b = board.copy()
        for move in info["pv"]:
            assert move in b.legal_moves, (info["pv"], move)
            b.push(move)


def test_multipv_above_the_legal_moves_shows_each_once(engine):
    board = chess.Board("7k/8/8/8/8/8/6PP/7K w - - 0 1")  # Kg1, g3, g4, h3, h4: 5 moves
    infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=50)
    assert sorted(info["pv"][0].uci() for info in infos) == sorted(m.uci() for m in board.legal_moves)


def test_multipv_1_is_the_plain_search():
    """Two fresh engines, one told MultiPV 1: the same lines, word for word but the time."""
    outputs = []
    for setup in ([], ["setoption name MultiPV value 1"]):
        uci = Uci(ANALYSIS)
        try:
            uci.send("uci", *setup, f"position fen {MIDDLEGAME}", "go depth 9")
            lines = uci.until("bestmove", 30)
        finally:
            uci.close()
        outputs.append([without_clock(line) for line in lines if line.startswith(("info depth", "bestmove"))])
    assert outputs[0] == outputs[1]


# ---------------------------------------------------------------------------------------
# searchmoves


def test_root_moves_are_honoured(engine):
    board = chess.Board()
    allowed = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h4")]
    info = engine.analyse(board, chess.engine.Limit(depth=8), root_moves=allowed)
    assert info["pv"][0] in allowed
    played = engine.play(board, chess.engine.Limit(depth=8), root_moves=allowed[1:])
    assert played.move == allowed[1]
    lines = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3, root_moves=allowed)
    assert sorted(line["pv"][0].uci() for line in lines) == ["a2a3", "h2h4"]


def test_searchmoves_reports_bad_moves_and_reads_on():
    uci = Uci(ANALYSIS)
    try:
        uci.send("uci", "position startpos", "go searchmoves e2e5 g1f3 zz9 depth 5")
        lines = uci.until("bestmove", 30)
        errors = [line for line in lines if line.startswith("info string error")]
        assert len(errors) == 2 and "e2e5" in errors[0] and "zz9" in errors[1], errors
        assert lines[-1].split()[1] == "g1f3"
        assert max(field(line, "depth") for line in lines if " pv " in line) == 5  # `depth 5` read after the moves
    finally:
        uci.close()


# ---------------------------------------------------------------------------------------
# go mate


def test_go_mate_answers_once_the_mate_is_proven(engine):
    board = chess.Board(MATE_IN_2)
    start = time.monotonic()
    info = engine.analyse(board, chess.engine.Limit(mate=3))
    assert time.monotonic() - start < 5
    assert info["score"].relative.mate() == 2, info


def test_go_mate_without_a_mate_searches_until_stop():
    uci = Uci(ANALYSIS)
    try:
        uci.send("uci", f"position fen {MIDDLEGAME}", "go mate 1")
        early = uci.quiet_for(1.0)
        assert not any(line.startswith("bestmove") for line in early), early[-3:]
        uci.send("stop")
        lines = uci.until("bestmove", 5)
        assert chess.Move.from_uci(lines[-1].split()[1]) in chess.Board(MIDDLEGAME).legal_moves
    finally:
        uci.close()


def test_go_mate_refuses_a_count_that_is_not_one_or_more():
    uci = Uci(ANALYSIS)
    try:
        uci.send("uci", "position startpos", "go mate 0 depth 3")
        lines = uci.until("bestmove", 10)
        assert any("ignored 'mate'" in line for line in lines), lines
    finally:
        uci.close()


# ---------------------------------------------------------------------------------------
# The mated or stalemated root, ponder timing, the last info


def test_a_mated_root_gives_a_score_and_no_move(engine):
    mated = engine.analyse(chess.Board(MATED), chess.engine.Limit(depth=5))
    assert mated["score"].relative == chess.engine.Mate(0), mated
    stalemated = engine.analyse(chess.Board(STALEMATED), chess.engine.Limit(depth=5))
    assert stalemated["score"].relative == chess.engine.Cp(0), stalemated
    assert engine.play(chess.Board(MATED), chess.engine.Limit(depth=5)).move is None


def test_info_time_after_ponderhit_counts_from_go_ponder():
    uci = Uci(ANALYSIS)
    try:
        uci.send("uci", "setoption name Ponder value true", "position startpos moves e2e4",
                 "go ponder wtime 2000 btime 2000 winc 0 binc 0")
        uci.quiet_for(0.6)
        uci.send("ponderhit")
        lines = uci.until("bestmove", 10)
        times = [field(line, "time") for line in lines if line.startswith("info depth")]
        assert times and max(times) >= 550, times
    finally:
        uci.close()


def test_go_nodes_ends_with_an_info_line_of_the_total(engine):
    """The search stops at the limit (a few nodes past it: a node already under way when the
    limit struck counts), so the last iteration's line reports fewer; a last line gives the
    total, the lines' own depths and scores."""
    for nodes in (5000, 23456):
        info = engine.analyse(chess.Board(MIDDLEGAME), chess.engine.Limit(nodes=nodes), game=object())
        assert nodes <= info["nodes"] <= nodes + 64, info
        assert info["depth"] >= 1 and "score" in info and info["pv"]


# ---------------------------------------------------------------------------------------
# The competition build: none of it, and the same search


def test_the_competition_build_has_none_of_it_and_says_so():
    assert KAGGLE.is_file(), "build it first: make submission (or cargo build --release --no-default-features --features nnue --target-dir target/kaggle)"
    uci = Uci(KAGGLE)
    try:
        uci.send("uci")
        assert not any("MultiPV" in line for line in uci.until("uciok", 10))
        uci.send("setoption name MultiPV value 3", "position startpos", "go searchmoves a2a3 depth 4")
        lines = uci.until("bestmove", 10)
        assert any("unknown option 'MultiPV'" in line for line in lines), lines
        assert any("ignored 'searchmoves'" in line for line in lines), lines
        assert not any(" multipv " in line for line in lines)
        uci.send(f"position fen {MATED}", "go depth 3")
        assert uci.until("bestmove", 10)[-1] == "bestmove 0000"
    finally:
        uci.close()


def test_both_builds_search_the_same_tree():
    benches = [subprocess.run([str(exe), "bench", "8"], capture_output=True, text=True, timeout=120) for exe in (ANALYSIS, KAGGLE)]
    nodes = [b.stdout.strip().splitlines()[-1].split()[0] for b in benches]
    assert nodes[0] == nodes[1], nodes
