"""Tests of the match runner, the EPD tester and their helpers (tools/match.py, epd_test.py, epd.py, engines.py),
and of tools/reports/net_size.py, pool.py and tools/measure.py's variant names.

The statistics, EPD parsing, engine specs and game schedule are checked as
pure functions; the match and EPD loops against tests/python/fake_play_engine.py
(a python-chess engine that can crash, hang or play illegal moves on purpose);
one tiny real match with Debian's Stockfish runs when it is installed.

    .venv/bin/python -m pytest tests/python/test_tools.py
"""

import json
import math
import re
import shlex
import sys
from pathlib import Path

import chess
import pytest

ROOT = Path(__file__).resolve().parents[2]
for folder in ("tools", "tools/lib", "tools/reports", "tools/suites"):
    sys.path.insert(0, str(ROOT / folder))

import elo  # noqa: E402
import match  # noqa: E402
import measure  # noqa: E402
from engines import SpecError, _edit_mode_commands, parse_engine_spec, resolve_program  # noqa: E402
from epd import EpdError, parse_epd_line  # noqa: E402
from epd_test import SearchResult, judge, parse_info, run_suite  # noqa: E402

FAKE_ENGINE = Path(__file__).resolve().parent / "fake_play_engine.py"
STOCKFISH = resolve_program("stockfish")


def fake_spec(mode: str = "ok", at: int = 1, name: str = "") -> match.EngineSpec:
    words = [f"cmd={shlex.join([sys.executable, str(FAKE_ENGINE), mode, str(at)])}"]
    if name:
        words.append(f"name={name}")
    return parse_engine_spec(" ".join(shlex.quote(w) for w in words))


# --- Elo and confidence intervals -------------------------------------------------


def test_score_elo_conversions() -> None:
    assert elo.score_to_elo(0.5) == 0
    assert elo.score_to_elo(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert elo.score_to_elo(0.64) == pytest.approx(99.96, abs=0.01)
    assert elo.score_to_elo(1.0) == math.inf and elo.score_to_elo(0.0) == -math.inf
    assert elo.elo_to_score(elo.score_to_elo(0.3)) == pytest.approx(0.3)


def test_trinomial_elo_known_values() -> None:
    # 60 wins, 20 draws, 20 losses: score 0.7, per-game variance 0.16, standard error 0.04;
    # cutechess prints "147.2 +/- 66.0" for this result.
    estimate = elo.trinomial_elo(60, 20, 20)
    assert estimate.model == "trinomial" and estimate.samples == 100
    assert estimate.elo == pytest.approx(147.19, abs=0.01)
    assert estimate.low == pytest.approx(elo.score_to_elo(0.7 - 1.959964 * 0.04), abs=0.01)
    assert estimate.low == pytest.approx(86.23, abs=0.01)
    assert estimate.high == pytest.approx(218.25, abs=0.01)
    assert estimate.error == pytest.approx(66.01, abs=0.01)


def test_pentanomial_elo_known_values() -> None:
    # 50 pairs, symmetric: score 0.5, per-pair variance 3.75 / 50 = 0.075.
    estimate = elo.pentanomial_elo([5, 10, 20, 10, 5])
    margin = 1.959964 * math.sqrt(0.075 / 50)
    assert estimate.model == "pentanomial" and estimate.samples == 50
    assert estimate.elo == pytest.approx(0.0, abs=1e-9)
    assert estimate.high == pytest.approx(elo.score_to_elo(0.5 + margin), abs=1e-3)
    assert estimate.error == pytest.approx(53.16, abs=0.01)


def test_normalized_elo_known_values() -> None:
    # Pairs scoring 0.5, 1.5, 2, 2 points: mean 0.75, per-pair variance (0.25 + 0 + 0.0625 * 2) / 4
    # = 0.09375; one game's standard deviation sqrt(2 * 0.09375) = 0.4330; nElo = 0.25 / 0.4330
    # * 800 / ln 10 = 200.6, and its 95% half-width 1.96 * 347.4 / sqrt(8 games) = 240.8.
    estimate = elo.pentanomial_elo([0, 1, 0, 1, 2])
    assert estimate.normalized == pytest.approx(200.59, abs=0.01)
    assert estimate.normalized_error == pytest.approx(240.76, abs=0.01)
    # Games: 60 / 20 / 20, mean 0.7, variance 0.16 (sd 0.4): 0.2 / 0.4 * 347.4 = 173.7.
    assert elo.trinomial_elo(60, 20, 20).normalized == pytest.approx(173.72, abs=0.01)
    assert elo.pentanomial_elo([5, 10, 20, 10, 5]).normalized == pytest.approx(0.0, abs=1e-9)
    # No spread: nothing to normalize by.
    assert math.isnan(elo.pentanomial_elo([0, 0, 7, 0, 0]).normalized)
    assert elo.fmt_elo(math.nan) == "nan"


def test_elo_edge_cases() -> None:
    assert elo.trinomial_elo(0, 0, 0).error == math.inf
    assert elo.trinomial_elo(1, 0, 0).error == math.inf  # one game: no spread
    assert elo.trinomial_elo(0, 10, 0).error == 0.0  # all draws: no spread either
    assert elo.fmt_elo(-0.0) == "+0.0" and elo.fmt_elo(-math.inf) == "-inf"


# --- SPRT ---------------------------------------------------------------------------


def test_sprt_bounds() -> None:
    low, high = elo.sprt_bounds(0.05, 0.05)
    assert low == pytest.approx(math.log(0.05 / 0.95)) and high == pytest.approx(-low)
    assert high == pytest.approx(2.944, abs=1e-3)


def test_gsprt_without_draws_is_the_binomial_sprt() -> None:
    # With only wins and losses the maximum likelihood distribution with mean s is (1 - s, s),
    # so the LLR is W log(s1/s0) + L log((1 - s1)/(1 - s0)); by hand for W = 60, L = 40,
    # s0 = 0.5, s1 = 1/(1 + 10^(-5/400)) = 0.5071951: 60 * 0.0142876 + 40 * (-0.0144947) = 0.27747.
    s1 = elo.elo_to_score(5)
    assert s1 == pytest.approx(0.5071951, abs=1e-7)
    llr = elo.gsprt_llr([40, 0, 60], elo.TRINOMIAL_VALUES, 0, 5)
    assert llr == pytest.approx(60 * math.log(s1 / 0.5) + 40 * math.log((1 - s1) / 0.5), abs=1e-5)
    assert llr == pytest.approx(0.27747, abs=1e-4)
    assert elo.gsprt_llr([50, 0, 50], elo.TRINOMIAL_VALUES, 0, 5) == pytest.approx(50 * math.log(4 * s1 * (1 - s1)), abs=1e-5)


def test_gsprt_pentanomial_matches_normal_approximation() -> None:
    counts = [100, 300, 800, 400, 100]
    n = sum(counts)
    mean = sum(c * v for c, v in zip(counts, elo.PENTANOMIAL_VALUES, strict=True)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, elo.PENTANOMIAL_VALUES, strict=True)) / n
    s0, s1 = 0.5, elo.elo_to_score(5)
    approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    llr = elo.gsprt_llr(counts, elo.PENTANOMIAL_VALUES, 0, 5)
    assert llr == pytest.approx(approx, rel=0.02)
    assert llr == pytest.approx(2.4536, abs=1e-3)
    assert elo.gsprt_llr([0, 0, 0, 0, 0], elo.PENTANOMIAL_VALUES, 0, 5) == 0.0
    assert elo.gsprt_llr([25, 50, 150, 200, 75], elo.PENTANOMIAL_VALUES, 0, 5) > 2.95  # clear win: H1
    assert elo.gsprt_llr([75, 200, 150, 50, 25], elo.PENTANOMIAL_VALUES, 0, 5) < -2.95  # clear loss: H0
    # Empty end cells: the mean can be moved by mass there, so a lopsided result gives a modest LLR.
    assert 1.0 < elo.gsprt_llr([0, 0, 10, 80, 10], elo.PENTANOMIAL_VALUES, 0, 5) < 2.0


def test_sprt_config_parse() -> None:
    config = match.SprtConfig.parse(["elo0=-5", "elo1=0", "alpha=0.1", "beta=0.05"])
    assert (config.elo0, config.elo1, config.alpha, config.beta) == (-5, 0, 0.1, 0.05)
    with pytest.raises(ValueError):
        match.SprtConfig.parse(["elo0=5", "elo1=0"])
    with pytest.raises(ValueError, match="bad --sprt setting 'elo=5'"):
        match.SprtConfig.parse(["elo=5"])
    with pytest.raises(ValueError, match="not a number"):
        match.SprtConfig.parse(["elo0=five"])


# --- EPD parsing --------------------------------------------------------------------


def test_epd_bm_san_and_id() -> None:
    record = parse_epd_line('2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";', 1)
    assert record.bm == [chess.Move.from_uci("g3g6")]
    assert record.id == "WAC.001" and record.dm is None and record.am == []
    two = parse_epd_line('rb3qk1/pQ3ppp/4p3/3P4/8/1P3N2/1P3PPP/3R2K1 w - - bm Qxa8 d6 dxe6; id "WAC.031";')
    assert [m.uci() for m in two.bm] == ["b7a8", "d5d6", "d5e6"]


def test_epd_full_fen_with_dm_and_am() -> None:
    record = parse_epd_line('6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 3 40 bm Ra8#; dm 1; id "mate.001";')
    assert record.board.halfmove_clock == 3 and record.board.fullmove_number == 40
    assert record.bm == [chess.Move.from_uci("a1a8")] and record.dm == 1
    avoid = parse_epd_line("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - am Kf1 Kh1;")
    assert sorted(m.uci() for m in avoid.am) == ["g1f1", "g1h1"] and avoid.id == "line 0"


def test_epd_plain_fen_and_errors() -> None:
    record = parse_epd_line("rnbqk1nr/ppppppbp/6p1/8/3P4/4PN2/PPP2PPP/RN1QKB1R w KQkq - 1 5")
    assert record.ops == {} and record.board.fullmove_number == 5
    with pytest.raises(EpdError):
        parse_epd_line("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Qg6;")  # no queen: bad SAN
    with pytest.raises(EpdError):
        parse_epd_line("not a position")
    with pytest.raises(EpdError):
        parse_epd_line("6k1/8/8/8/8/8/8/R5K1 w - - dm 0;").dm  # noqa: B018 - the property raises


def test_data_files_parse() -> None:
    openings = match.load_openings(ROOT / "tests" / "data" / "kaggle_openings.epd")
    assert len(openings) == 2000 and all(" w " in fen for fen in openings)
    mates = ROOT / "tests" / "data" / "mates.epd"
    if mates.exists():
        from epd import read_epd_file

        records = read_epd_file(mates)
        assert all(r.dm in (1, 2, 3, 4) and r.bm for r in records)
        for record in records:
            if record.dm == 1:  # mate in 1 can be checked exactly
                for move in record.board.legal_moves:
                    board = record.board.copy()
                    board.push(move)
                    assert board.is_checkmate() == (move in record.bm), record.id


# --- epd_test judging ---------------------------------------------------------------


def test_parse_info() -> None:
    assert parse_info("info depth 12 seldepth 20 multipv 1 score mate 3 nodes 10 pv e2e4") == (("mate", 3), 12)
    assert parse_info("info depth 7 score cp -35 lowerbound nodes 5") == (("cp", -35), 7)
    assert parse_info("info depth 7 multipv 2 score cp 10") == (None, None)
    assert parse_info("info string score mate 1") == (None, None)


def test_judge_bm_am_dm() -> None:
    record = parse_epd_line('6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; dm 1; id "m1";')
    assert judge(record, SearchResult("a1a8", ("mate", 1), 5)).solved
    wrong_score = judge(record, SearchResult("a1a8", ("cp", 900), 5))
    assert not wrong_score.solved and "mate 1" in wrong_score.reason
    wrong_move = judge(record, SearchResult("a1a7", ("mate", 1), 5))
    assert not wrong_move.solved and "Ra8#" in wrong_move.reason and "FAIL m1: engine Ra7" in wrong_move.describe()
    assert not judge(record, SearchResult("a1h8", None, None)).solved  # illegal
    assert not judge(record, SearchResult(None, None, None, "engine error: died")).solved
    avoid = parse_epd_line("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - am Kf1;")
    assert judge(avoid, SearchResult("a1a8", None, None)).solved
    assert not judge(avoid, SearchResult("g1f1", None, None)).solved


def test_epd_suite_with_fake_engine() -> None:
    records = [
        parse_epd_line('6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; dm 1; id "a";'),
        parse_epd_line('r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 30 bm Ra1#; dm 1; id "b";'),
        parse_epd_line('6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - dm 2; id "c";'),  # the fake says mate 1
    ]
    verdicts = run_suite([sys.executable, str(FAKE_ENGINE)], records, 10, jobs=2)
    assert [v.solved for v in verdicts] == [True, True, False]
    crashing = run_suite([sys.executable, str(FAKE_ENGINE), "crash", "1"], records[:2], 10)
    assert not any(v.solved for v in crashing) and "engine error" in crashing[0].reason


# --- engine specs -------------------------------------------------------------------


def test_engine_spec_parsing() -> None:
    python = sys.executable
    spec = parse_engine_spec(f'cmd="{python} -u x.py" name=e1 proto=xboard memory=2 cores=1 "option.Skill Level=0" option.Hash=1')
    assert spec.argv == [python, "-u", "x.py"] and spec.name == "e1" and spec.proto == "xboard"
    assert spec.options == {"Skill Level": "0", "Hash": "1"} and spec.memory == 2 and spec.cores == 1
    split = parse_engine_spec([f"cmd={python} --uci", "option.Threads=1"])  # as the shell splits it
    assert split.argv == [python, "--uci"] and split.proto == "uci" and split.name == Path(python).name
    loose = parse_engine_spec(f"cmd={python} -l- -t 1000 proto=xboard")
    assert loose.argv == [python, "-l-", "-t", "1000"]
    for bad in ["name=x", f"cmd={python} proto=cecp", f"cmd={python} memory=0", "cmd=/no/such/engine", f"colour=w cmd={python}"]:
        with pytest.raises(SpecError):
            parse_engine_spec(bad)


def test_an_engines_own_nodes_replace_the_matchs() -> None:
    python = sys.executable
    spec = parse_engine_spec(f"cmd={python} name=double nodes=40000")
    assert spec.nodes == 40000 and "nodes=40000" in spec.describe()
    plain = parse_engine_spec(f"cmd={python} name=single")
    tc = match.TimeControl(nodes=20000)
    assert (match.node_limit(spec, tc), match.node_limit(plain, tc)) == (40000, 20000)
    for bad in ["0", "-5", "many"]:
        with pytest.raises(SpecError):
            parse_engine_spec(f"cmd={python} nodes={bad}")


def test_yardstick_reads_summaries_and_edits_specs() -> None:
    import yardstick

    line = "RESULT games=100 wins=10 draws=30 losses=60 score=0.2500 elo=-190.8 err=60.1 model=pentanomial"
    result = yardstick.summary(line, "RESULT", "a match", Path("log"))
    assert yardstick.score(result) == "10 / 30 / 60 | 25.0% | -191 ± 60"
    spec = yardstick.spec_with("cmd=/x/kf name=kagglefish option.Hash=1", name="kagglefish20000", nodes=20000)
    assert spec == "cmd=/x/kf option.Hash=1 name=kagglefish20000 nodes=20000"
    depth = "RESULT games=2 wins=1\nDEPTH nodes=5000 mean=8.19 min=5 max=12 ebf=2.83 positions=16\n"
    assert yardstick.summary(depth, "DEPTH", "a depth run", Path("log"))["ebf"] == "2.83"
    with pytest.raises(SystemExit):
        yardstick.summary("RESULT games=2 wins=1", "DEPTH", "a depth run", Path("log"))


def test_edit_mode_commands() -> None:
    white = _edit_mode_commands("6k1/8/8/8/8/8/8/R5K1 w - - 0 1")
    assert white[:2] == ["edit", "#"] and white[-1] == "." and "c" in white
    assert set(white) == {"edit", "#", "Ra1", "Kg1", "c", "Kg8", "."}
    assert white.index("Ra1") < white.index("c") < white.index("Kg8")
    black = _edit_mode_commands("6k1/8/8/8/8/8/8/R5K1 b - - 0 1")
    assert black[0] == "a2a3" and black[1:] == white


# --- schedule and rules -------------------------------------------------------------


def test_schedule_pairs_and_colours() -> None:
    openings = [f"opening {i}" for i in range(5)]
    jobs = match.schedule_games(openings, 12, seed=7)
    assert [j.engine1_white for j in jobs] == [True, False] * 6
    assert all(jobs[2 * k].fen == jobs[2 * k + 1].fen and jobs[2 * k].pair == jobs[2 * k + 1].pair == k for k in range(6))
    first_five = [jobs[2 * k].opening_index for k in range(5)]
    assert sorted(first_five) == list(range(5))  # every opening once before any repeats
    assert jobs[10].opening_index == first_five[0]  # then it wraps around
    assert [j.opening_index for j in match.schedule_games(openings, 12, seed=7)] == [j.opening_index for j in jobs]
    assert [j.opening_index for j in match.schedule_games(openings, 12, seed=8)] != [j.opening_index for j in jobs]
    single = match.schedule_games(openings, 4, seed=7, repeat=False)
    assert [j.engine1_white for j in single] == [True, False, True, False]
    assert len({j.opening_index for j in single}) == 4


def test_tally_pentanomial_and_points() -> None:
    jobs = match.schedule_games(["8/8/8/8/8/8/8/K6k w - - 0 1"], 4, seed=1)
    tally = match.Tally(paired=True)
    # Pair 1: engine 1 wins as white, draws as black -> 1.5 points; pair 2: loses both -> 0.
    for job, result in zip(jobs, ["1-0", "1/2-1/2", "0-1", "1-0"], strict=True):
        tally.add(match.GameRecord(job, result, "checkmate", "", None))
    assert (tally.wins, tally.draws, tally.losses) == (1, 1, 2)
    assert tally.pentanomial == [1, 0, 0, 1, 0] and tally.unpaired == 0


def test_rules_outcome() -> None:
    assert match.rules_outcome(chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")) is None
    assert match.rules_outcome(chess.Board("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1")) == ("1-0", "checkmate")
    assert match.rules_outcome(chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")) == ("1/2-1/2", "stalemate")
    assert match.rules_outcome(chess.Board("7k/8/6K1/8/8/8/8/6B1 b - - 0 1")) == ("1/2-1/2", "insufficient material")
    assert match.rules_outcome(chess.Board("7k/8/6K1/8/8/8/8/6R1 b - - 100 80")) == ("1/2-1/2", "50-move")
    board = chess.Board("7k/8/8/8/8/8/8/K5R1 b - - 0 1")
    for uci in ["h8h7", "g1g2", "h7h8", "g2g1"] * 2:
        board.push_uci(uci)
    assert match.rules_outcome(board) == ("1/2-1/2", "repetition")


# --- matches ------------------------------------------------------------------------


def run_fake_match(mode: str, at: int, games: int = 2, st: float = 0.05):
    jobs = match.schedule_games([chess.STARTING_FEN], games, seed=1)
    config = match.MatchConfig((fake_spec("ok", name="good"), fake_spec(mode, at, name="bad")), match.TimeControl(move_time=st), jobs)
    return match.run_match(config)


@pytest.mark.parametrize(
    "mode, termination",
    [("crash", "engine crash"), ("illegal", "illegal move"), ("none", "illegal move"), ("slow", "time forfeit"), ("hang", "time forfeit")],
)
def test_misbehaving_engine_loses_and_match_goes_on(mode: str, termination: str) -> None:
    tally, stopped = run_fake_match(mode, at=1)
    assert stopped == ""
    assert tally.games == 2 and tally.wins == 2, tally.terminations
    assert tally.terminations == {termination: 2}
    assert tally.failures_by[(termination, 2)] == 2


def test_fake_match_mates_and_pgn(tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    jobs = match.schedule_games(["6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"], 2, seed=1)
    config = match.MatchConfig((fake_spec(name="a"), fake_spec(name="b")), match.TimeControl(base=5, increment=0.1), jobs, pgn_path=str(pgn))
    tally, _ = match.run_match(config)
    # Engine 1 mates at once as white; as black it is mated by engine 2.
    assert (tally.wins, tally.losses) == (1, 1) and tally.pentanomial == [0, 0, 1, 0, 0]
    text = pgn.read_text()
    assert text.count("[Result ") == 2 and '[EndReason "checkmate"]' in text and '[TimeControl "5+0.1"]' in text
    assert '[FEN "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"]' in text and "Ra8#" in text


def test_resume_counts_the_games_in_the_pgn_and_plays_the_rest(tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    openings = ["6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"]  # white mates at once: two pairs of it
    specs = (fake_spec(name="a"), fake_spec(name="b"))
    tc = match.TimeControl(base=5, increment=0.1)
    jobs = match.schedule_games(openings, 4, seed=1)
    # The first run is stopped after its first pair: only games 1 and 2 reach the file.
    match.run_match(match.MatchConfig(specs, tc, jobs[:2], pgn_path=str(pgn)))
    finished = match.read_finished_games(pgn, jobs, ("a", "b"), paired=True)
    assert [record.job.number for record in finished] == [0, 1]
    assert [record.engine1_points for record in finished] == [1.0, 0.0]
    tally, _ = match.run_match(match.MatchConfig(specs, tc, jobs[2:], pgn_path=str(pgn), finished=finished))
    assert tally.games == 4 and (tally.wins, tally.losses) == (2, 2) and tally.pentanomial == [0, 0, 2, 0, 0]
    assert len(match.read_finished_games(pgn, jobs, ("a", "b"), paired=True)) == 4
    # Other openings, other names, a game twice or a cut-off game: refused.
    with pytest.raises(match.ResumeError, match="opening or players"):
        match.read_finished_games(pgn, match.schedule_games([chess.STARTING_FEN], 4, seed=1), ("a", "b"), paired=True)
    with pytest.raises(match.ResumeError, match="opening or players"):
        match.read_finished_games(pgn, jobs, ("a", "c"), paired=True)
    text = pgn.read_text().rstrip()
    pgn.write_text(text + "\n\n" + text[: text.index("[Event", 1)])  # game 1 again
    with pytest.raises(match.ResumeError, match="played twice"):
        match.read_finished_games(pgn, jobs, ("a", "b"), paired=True)
    pgn.write_text(text[: text.rindex("Ra8#")])  # the last game lost its only move
    with pytest.raises(match.ResumeError, match="cut off"):
        match.read_finished_games(pgn, jobs, ("a", "b"), paired=True)
    assert match.read_finished_games(tmp_path / "missing.pgn", jobs, ("a", "b"), paired=True) == []


def test_adjudication_needs_both_engines_to_agree() -> None:
    rules = match.Adjudication()  # 3 moves each at 400 cp; from move 34, 8 moves each within 10 cp
    assert rules.decide([]) is None
    assert rules.decide([500] * 6) == "1-0" and rules.decide([-400] * 6) == "0-1"
    assert rules.decide([500] * 5) is None  # engine 2 has said it only twice
    assert rules.decide([500, 500, 500, 399, 500, 500]) is None  # one score short of the bar
    assert rules.decide([0] * 10 + [500, -500] * 3) is None  # each engine thinks it is winning
    assert rules.decide([500, 500, None, 500, 500, 500]) is None  # a move without a score
    assert rules.decide([match.MATE_CP] * 6) == "1-0"
    assert rules.decide([0] * 67) is None  # a draw waits for move 34
    assert rules.decide([0] * 68) == "1/2-1/2"
    assert rules.decide([0] * 60 + [11] + [0] * 7) is None  # inside the last 16 plies, one outside the band
    assert rules.decide([300] * 60 + [-10, 10] * 8) == "1/2-1/2"
    short = match.Adjudication.parse(["draw_move=0", "draw_moves=1", "resign_score=100"])
    assert short == match.Adjudication(draw_move=0, draw_moves=1, resign_score=100)
    assert short.decide([0, 0]) == "1/2-1/2" and short.decide([100] * 6) == "1-0"
    for bad in (["draw_move"], ["colour=3"], ["resign_moves=0"], ["draw_score=x"], ["draw_score=-1"], ["draw_moves=1.5"]):
        with pytest.raises(ValueError, match="bad adjudication setting"):
            match.Adjudication.parse(bad)


def test_adjudicated_games_end_early_and_resume_from_the_pgn(tmp_path: Path) -> None:
    # The fake engines score every non-mating move 0: a draw band of 10 cp after one move
    # each from the start ends every game at its second ply.
    pgn = tmp_path / "games.pgn"
    jobs = match.schedule_games([chess.STARTING_FEN], 2, seed=1)
    rules = match.Adjudication(draw_move=0, draw_moves=1)
    config = match.MatchConfig((fake_spec(name="a"), fake_spec(name="b")), match.TimeControl(move_time=0.05), jobs,
                               pgn_path=str(pgn), adjudication=rules)
    tally, _ = match.run_match(config)
    assert tally.draws == 2 and tally.terminations == {"adjudication": 2}
    text = pgn.read_text()
    assert text.count('[Termination "adjudication"]') == 2 and text.count('[PlyCount "2"]') == 2
    assert [r.termination for r in match.read_finished_games(pgn, jobs, ("a", "b"), paired=True)] == ["adjudication"] * 2
    # Without it the same game goes on.
    config = match.MatchConfig((fake_spec(name="a"), fake_spec(name="b")), match.TimeControl(move_time=0.05), jobs[:1])
    tally, _ = match.run_match(config)
    assert "adjudication" not in tally.terminations


def test_adjudication_report_replays_the_rules_over_a_pgn(tmp_path: Path, capsys) -> None:
    import adjudication

    assert adjudication.move_score("+4.50/12 0.100s", True) == 450
    assert adjudication.move_score("+4.50/12 0.100s", False) == -450
    assert adjudication.move_score("-M3/20 0.010s", True) == -match.MATE_CP
    assert adjudication.move_score("0.101s", True) is None and adjudication.move_time("+0.10/3 0.250s") == 0.25
    moves = ["e2e4", "f7f6", "d2d4", "g7g5", "f1c4", "a7a6", "d1f3", "b7b6"]

    def game(scores: list[str], round_: str) -> str:
        game = chess.pgn.Game()
        game.headers["Result"], game.headers["Round"] = "1/2-1/2", round_
        node = game
        for uci, score in zip(moves, scores, strict=True):
            node = node.add_variation(chess.Move.from_uci(uci), comment=f"{score}/10 1.000s")
        return str(game) + "\n\n"

    # Each side's own view: White 4 pawns up throughout, Black agreeing from its 2nd move.
    scores = ["+4.00", "-0.50", "+4.20", "-4.10", "+4.30", "-4.50", "+4.40", "-4.60"]
    path = tmp_path / "g.pgn"
    path.write_text(game(scores, "1.1") + game(scores, "1.2"))
    summary = adjudication.summarize([path], match.Adjudication())
    assert (summary.games, summary.adjudicated, summary.plies, summary.plies_saved) == (2, 0, 16, 0)
    # Black agreeing from its 1st move: 1-0 after six plies, two plies (2 s) early, not the draw played.
    scores[1] = "-4.00"
    path.write_text(game(scores, "1.1"))
    summary = adjudication.summarize([path], match.Adjudication())
    assert (summary.adjudicated, summary.plies_saved, summary.seconds_saved) == (1, 2, 2.0)
    assert summary.differing == [("g.pgn", "1.1", "1/2-1/2", "1-0", 6)]
    assert adjudication.main([str(path), "--set", "resign_score=500"]) == 0
    assert "adjudicated 0" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        adjudication.main([str(path), "--set", "nonsense=1"])
    path.write_text(game(scores, "1.1").replace("b6", "b5 b4 b3 Kxa1"))  # moves that cannot be played
    assert adjudication.main([str(path)]) == 1 and "cannot be read" in capsys.readouterr().err


@pytest.mark.parametrize("kaggle", [False, True])
def test_kaggle_clock_charges_only_time_beyond_the_free_increment(kaggle: bool) -> None:
    # The slow engine answers 0.3 s after its whole clock (0.1 s): beyond a Fischer clock,
    # but inside the free second of a Kaggle clock, which it never touches the bank with.
    jobs = match.schedule_games(["6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"], 2, seed=1)
    tc = match.TimeControl(base=0.1, increment=1.0, kaggle=kaggle)
    config = match.MatchConfig((fake_spec(name="good"), fake_spec("slow", 1, name="bad")), tc, jobs)
    tally, _ = match.run_match(config)
    if kaggle:  # each side mates at once as white
        assert (tally.wins, tally.losses) == (1, 1) and tally.terminations == {"checkmate": 2}
    else:  # the slow side's mate comes after its flag fell
        assert (tally.wins, tally.losses) == (2, 0) and tally.terminations == {"checkmate": 1, "time forfeit": 1}


def printed_terminations(out: str) -> dict[str, int]:
    """The counts a match summary prints under `terminations:`, by label (those always
    listed included, at 0)."""
    lines = out.splitlines()
    counts = {}
    for line in lines[lines.index("terminations:") + 1 :]:
        found = re.fullmatch(r"  (\S.*?) +(\d+)(  \(.*\))?", line)
        if not found:
            break
        counts[found.group(1)] = int(found.group(2))
    return counts


@pytest.mark.parametrize("mode, failure", [("ok", None), ("crash", "engine crash"), ("slow", "time forfeit")])
def test_the_summary_counts_the_failures_it_prints(mode: str, failure: str | None, capsys) -> None:
    # Two games of a clean fake engine against itself, or against one that crashes or
    # flags on its first move: the summary's counts are 0 for a clean match and 2 for the
    # failure (both games lost by the bad engine), not merely present.
    # A second a move: the clean engine answers at once, with room for a loaded machine (at
    # 0.05 s a busy CI box once made it take 0.35 s), and "slow" still overruns it by 0.3 s.
    specs = [f"cmd={shlex.join([sys.executable, str(FAKE_ENGINE), m, '1'])} name={n}" for m, n in (("ok", "good"), (mode, "bad"))]
    status = match.main(["--engine1", specs[0], "--engine2", specs[1], "--st", "1", "--games", "2", "--seed", "1"])
    out = capsys.readouterr().out
    assert status == 0
    counts = printed_terminations(out)
    assert sum(counts.values()) == 2, out
    for label in ("time forfeit", "illegal move", "engine crash"):
        assert counts.get(label, 0) == (2 if label == failure else 0), out
    if failure:
        assert "(good 0, bad 2)" in next(line for line in out.splitlines() if line.startswith(f"  {failure}"))


@pytest.mark.skipif(STOCKFISH is None, reason="Debian's stockfish is not installed")
def test_tiny_stockfish_match(capsys) -> None:
    status = match.main(
        [
            "--engine1",
            f"cmd={STOCKFISH} option.Hash=1",
            "--engine2",
            f"cmd={STOCKFISH} option.Hash=1",
            "--tc",
            "10+0.1",
            "--nodes",
            "400",
            "--games",
            "2",
            "--seed",
            "3",
        ]
    )
    out = capsys.readouterr().out
    assert status == 0
    result = out.strip().splitlines()[-1]
    assert result.startswith("RESULT games=2 ")
    fields = dict(word.split("=", 1) for word in result.split()[1:])
    assert int(fields["wins"]) + int(fields["draws"]) + int(fields["losses"]) == 2
    assert fields["model"] == "pentanomial"
    # Printed at 0 even when nothing failed: the counts, not the labels, say that.
    counts = printed_terminations(out)
    assert counts["time forfeit"] == 0 and counts["engine crash"] == 0 and counts.get("illegal move", 0) == 0, out
    assert sum(counts.values()) == 2, out


# --- measure.py -----------------------------------------------------------------


def test_measure_names_a_variant_by_its_path_not_a_cut_one() -> None:
    # Inside the repository: relative to it, whole.
    assert measure.variant_name(ROOT / "target/release/minnow") == "target/release/minnow"
    # Outside and short: as given; outside and long: an ellipsis, then whole directories
    # (it printed "resh/target/release/minnow", cut 26 characters from the right).
    assert measure.variant_name(Path("/work/fresh/target/release/minnow")) == "/work/fresh/target/release/minnow"
    long = Path("/tmp/some/very/deeply/nested/checkout/of/a/branch/target/release/minnow")
    name = measure.variant_name(long, width=32)
    assert name == "…/a/branch/target/release/minnow" and len(name) <= 32
    assert str(long).endswith(name[1:])
    # A file name longer than the column: its tail.
    assert measure.variant_name(Path("/x/" + "m" * 40), width=10) == "…" + "m" * 9


# --- the bank curve (bank.py) ---------------------------------------------------


def test_bank_curve_medians_and_the_minimum_of_games(tmp_path):
    import bank

    # Six games: five reach move 3, only two reach move 4 (fewer than MIN_GAMES: cut off).
    games = [[10.0, 9.0, 8.0], [10.0, 9.5, 9.0], [9.0, 8.0, 7.0], [10.0, 10.0, 10.0],
             [8.0, 6.0, 4.0, 3.0], [10.0, 9.0, 8.5, 8.0]]
    rows = bank.curve(games)
    assert [r[0] for r in rows] == [1, 2, 3]
    assert [r[1] for r in rows] == [6, 6, 6]
    assert rows[1][2] == pytest.approx(9.0)  # median of 9, 9.5, 8, 10, 6, 9
    assert rows[2][3] <= rows[2][2] <= rows[2][4]
    path = tmp_path / "bank.csv"
    bank.write_csv(rows, path)
    assert bank.read_csv(path) == [(m, g, round(a, 3), round(b, 3), round(c, 3)) for m, g, a, b, c in rows]
    picture = bank.svg({"a": rows, "b": []}, "t")
    assert picture.startswith("<svg") and picture.count("<polyline") == 1
    assert "move 1: 10.00 s (6)" in bank.summary(rows)


def test_ponder_picture_pairs_each_move_with_the_opponents_time_and_hit(tmp_path):
    import ponder_picture

    # White (first) calls: (own s, opponent's last move, move, pondered after). White
    # ponders e7e5 after e2e4 and Black plays it (a hit, Black's 0.3 s received); then it
    # ponders b8c6 but Black plays g8f6 (a miss). Black ponders on nothing after its first move.
    white = [[0.5, "", "e2e4", "e7e5"], [0.2, "e7e5", "g1f3", "b8c6"], [0.4, "g8f6", "f1c4", None]]
    black = [[0.3, "e2e4", "e7e5", None], [0.25, "g1f3", "g8f6", "f1c4"], [0.1, "f1c4", "f8c5", None]]
    rows = ponder_picture.side_moves(white, black, True, [9.6, 9.5, 9.2])
    assert [r["hit"] for r in rows] == [None, True, False]
    assert [r["received"] for r in rows] == [None, 0.3, 0.25]
    assert ponder_picture.effective(rows[1]) == pytest.approx(0.5) and ponder_picture.effective(rows[2]) == 0.4
    theirs = ponder_picture.side_moves(black, white, False, [9.8, 9.6, 9.6])
    # Black's 2nd move: it pondered on nothing (0 received, a miss); its 3rd: f1c4 was pondered, a hit.
    assert [r["hit"] for r in theirs] == [None, False, True]
    assert [r["received"] for r in theirs] == [None, 0.0, 0.4]
    data = {"opponent": "submission kf.tar.gz", "games": [
        {"index": 0, "calls": [white, black], "banks": [9.6, 9.5, 9.2], "their_banks": [9.8, 9.6, 9.6]}]}
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    name, games = ponder_picture.load(path)
    assert name == "submission kf.tar.gz" and games[0][0] == rows and games[0][1] == theirs
    assert "| 1-20 | minnow | 400 ms |" in ponder_picture.table(("minnow", "kf"), games)
    data["games"][0]["calls"][1] = None
    path.write_text(json.dumps(data))
    with pytest.raises(SystemExit):
        ponder_picture.load(path)


def test_cp_loss_scores_each_move_from_the_positions_around_it():
    import io

    import chess.engine
    import chess.pgn
    import cp_loss

    game = chess.pgn.read_game(io.StringIO('[White "m"]\n[Black "o"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'))
    boards = cp_loss.positions(game)
    assert len(boards) == 8 and cp_loss.by_rules(boards[-1]) == -cp_loss.CLIP
    # Side-to-move scores: level until Nf6 (Black then faces mate: White to move +1000).
    judged = {b.fen(): 0 for b in boards}
    judged[boards[6].fen()] = cp_loss.CLIP
    judged[boards[7].fen()] = cp_loss.by_rules(boards[7])
    rows = cp_loss.losses(game, judged)
    assert [name for name, _, _ in rows] == ["m", "o"] * 3 + ["m"]
    assert [loss for _, _, loss in rows] == [0, 0, 0, 0, 0, 1000, 0]  # only Nf6 lost; mate kept +1000
    assert rows[0][1] == 32 and cp_loss.bucket(32) == ">= 24 men" and cp_loss.bucket(12) == "<= 12 men"
    table = cp_loss.report(rows, "m")
    assert "| m | 0.0 cp (4; 0.0% >= 50) |" in table and "| opponents | 333.3 cp (3; 33.3% >= 50) |" in table
    # A mate at any distance is judged as the clip itself (move_quality's rule, shared).
    mate_in_3 = chess.engine.PovScore(chess.engine.Mate(3), chess.WHITE)
    assert cp_loss.judged_cp(mate_in_3, chess.WHITE) == cp_loss.CLIP == -cp_loss.judged_cp(mate_in_3, chess.BLACK)


def test_arena_reads_the_pondered_move_of_either_adapter():
    import arena

    class Ours:
        def __init__(self, move):
            self.pondering = move

        def ponder(self):  # a method of that name must not be taken for the move
            pass

    class Theirs:
        def __init__(self, move):
            self.ponder = move

    def agent_with(state):
        scope = {"state": state, "os": sys}
        exec("def agent(obs):\n    return None", scope)
        return scope["agent"]

    assert arena.pondered_move(agent_with(Ours("e7e5"))) == "e7e5"
    assert arena.pondered_move(agent_with(Ours(None))) is None
    assert arena.pondered_move(agent_with(Theirs("g8f6"))) == "g8f6"
    assert arena.pondered_move(agent_with(object())) == "?"


def test_bank_curve_from_a_kaggle_clock_match_pgn():
    import bank

    # Game 1: "v" is White and moves first; game 2: "v" is White but Black is to move in
    # the FEN, so "v"'s moves are the 2nd and 4th. Only time beyond the free 0.1 s counts.
    pgn = """[Event "m"]
[White "v"]
[Black "b"]
[TimeControl "10+0.1"]

1. e4 { +0.10/12 0.600s } 1... e5 { -0.10/12 0.050s } 2. Nf3 { +0.20/9 0.080s; repetition } 1/2-1/2

[Event "m"]
[White "v"]
[Black "b"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"]
[TimeControl "10+0.1"]

1... Kd7 { -M3/5 1.000s } 2. e4 { +M2/5 0.350s } 2... Kc6 { 0.100s } 3. e5 { 2.100s } 1-0

[Event "m"]
[White "x"]
[Black "y"]
[TimeControl "10+0.1"]

1. e4 { 0.5s } 1-0
"""
    games = bank.banks_from_pgn(pgn, "v")
    assert games == [pytest.approx([9.5, 9.5]), pytest.approx([9.75, 7.75])]
    assert bank.banks_from_pgn(pgn, "b") == [pytest.approx([10.0]), pytest.approx([9.1, 9.1])]
    assert bank.banks_from_pgn(pgn, "nobody") == []


# --- nodes a move at the clock (nodes_at_clock.py) -------------------------------------

CLOCK_PGN = """[Event "m"]
[White "v"]
[Black "b"]
[TimeControl "10+0.1"]

1. e4 { +0.10/12 0.600s } 1... e5 { -0.10/11 0.050s } 2. Nf3 { +0.20/9 0.080s } 2... Nc6 { 0.5s } 1/2-1/2

[Event "m"]
[White "b"]
[Black "v"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"]
[TimeControl "10+0.1"]

1... Kd7 { -M3/5 1.000s } 2. e4 { +M2/5 0.350s } 2... Kc6 { +1.00/7 0.200s } 1-0
"""


def test_nodes_at_clock_reads_one_engines_depths_and_times():
    import nodes_at_clock

    assert nodes_at_clock.moves_of(CLOCK_PGN, "v") == [(12, 0.6), (9, 0.08), (5, 1.0), (7, 0.2)]
    # b's second move has a time but no depth: it is not counted.
    assert nodes_at_clock.moves_of(CLOCK_PGN, "b") == [(11, 0.05), (5, 0.35)]
    assert nodes_at_clock.moves_of(CLOCK_PGN, "nobody") == []
    q1, median, q3 = nodes_at_clock.quartiles([0.6, 0.08, 1.0, 0.2])
    assert q1 <= median <= q3 and median == pytest.approx(0.4)


@pytest.mark.skipif(STOCKFISH is None, reason="Debian's stockfish is not installed")
def test_nodes_at_clock_against_stockfish(tmp_path, capsys):
    import nodes_at_clock

    pgn, fens = tmp_path / "m.pgn", tmp_path / "p.fen"
    pgn.write_text(CLOCK_PGN)
    fens.write_text(chess.STARTING_FEN + "\n" + "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\n")
    assert nodes_at_clock.main(["--pgn", str(pgn), "--name", "v", "--engine", STOCKFISH,
                                "--positions", str(fens)]) == 0
    fields = dict(w.split("=") for w in capsys.readouterr().out.splitlines()[-1].split()[1:])
    assert fields["positions"] == "2" and int(fields["nps"]) > 0
    assert 0 < int(fields["q1"]) <= int(fields["median"]) <= int(fields["q3"])
    with pytest.raises(SystemExit):
        nodes_at_clock.main(["--pgn", str(pgn), "--name", "b", "--engine", STOCKFISH])


# --- SPSA (spsa.py) -------------------------------------------------------------------


def test_spsa_schedule_ends_at_c_end_and_r_end_and_moves_theta_towards_the_winner():
    import spsa

    p = spsa.Param("X", 100, 0, 200, c_end=10.0, r_end=0.002)
    c_k, r_k = p.step(500, 500)
    assert c_k == pytest.approx(10.0)
    assert r_k == pytest.approx(0.002)
    c_1, _ = p.step(1, 500)
    assert c_1 > c_k  # the perturbation shrinks over the run
    q = spsa.Param("Y", 5, 0, 10, c_end=1.0, r_end=0.002)
    theta = spsa.spsa_update([100.0, 5.0], [p, q], [1, -1], 1, 500, result=2)
    assert theta[0] > 100.0 and theta[1] < 5.0  # plus won: both move the way plus was
    theta = spsa.spsa_update([199.99, 0.0], [p, q], [1, -1], 1, 500, result=1000)
    assert theta == [200.0, 0.0]  # clamped to the ranges


def test_spsa_rejects_unknown_parameters():
    import spsa

    with pytest.raises(SystemExit, match="not a tunable"):
        spsa.parse_params("NOPE", {"RFP_MARGIN": (75, 30, 150)}, 0.002)
    [p] = spsa.parse_params("RFP_MARGIN", {"RFP_MARGIN": (75, 30, 150)}, 0.002)
    assert (p.default, p.low, p.high, p.c_end) == (75, 30, 150, 6.0)


# --- tools/reports/net_size.py ---------------------------------------------------------------


def test_net_size_decodes_the_shipped_net_and_reencodes_it_byte_for_byte() -> None:
    import net_size
    import package

    net = (ROOT / package.shipped_net()).read_bytes()
    hidden, qa, rows = net_size.first_layer(net)
    assert (hidden, qa, len(rows), len(rows[0])) == (net[4] | net[5] << 8, net[6], hidden, 768)
    # Pawns never stand on the first or last rank: the trainer zeroes those weights.
    assert all(row[sq] == 0 for row in rows for sq in list(range(8)) + list(range(56, 64)))
    assert net_size.encode(rows) == net[net_size.HEADER : net_size.HEADER + 768 * hidden]
    with pytest.raises(ValueError):
        net_size.first_layer(b"MNN2" + net[4:])
    with pytest.raises(ValueError):
        net_size.first_layer(net[:100])


def test_net_size_adaptive_estimate_follows_how_predictable_the_weights_are() -> None:
    import random

    import net_size

    rng = random.Random(7)
    flat = [[0] * 768 for _ in range(2)]
    smooth = [[(f % 64) // 8 for f in range(768)] for _ in range(2)]  # rank by rank: predictable
    noise = [[rng.randrange(-128, 128) for _ in range(768)] for _ in range(2)]
    bits = [net_size.adaptive_bits(rows) / (2 * 768) for rows in (flat, smooth, noise)]
    assert bits[0] < 0.2 and bits[0] < bits[1] < 1.5 and bits[2] > 8, bits


# --- tools/reports/inline_report.py -----------------------------------------------------------


def test_inline_report_attributes_instructions_to_inlined_functions() -> None:
    import inline_report

    listing = """
0000000000001000 <outer>:
    1000:	push   %rbp
    1001:	mov    %rsp,%rbp
    1004:	call   2000 <other>

0000000000002000 <other>:
    2000:	xor    %eax,%eax
    2002:	ret
"""
    funcs = inline_report.instructions(listing)
    assert funcs == {"outer": [(0x1000, 1), (0x1001, 3), (0x1004, 4)], "other": [(0x2000, 2), (0x2002, 4)]}
    # addr2line -a -f -i: per address, the inline chain innermost first, each with its place.
    answer = "\n".join(
        [
            "0x1000", "outer", "a.rs:1",
            "0x1001", "helper<u8>", "b.rs:2", "outer", "a.rs:2",
            "0x1004", "<x::Y<T> as z::Z>::next", "c.rs:3", "helper<u8>", "b.rs:4", "outer", "a.rs:3",
            "0x2000", "helper<u16>", "b.rs:2", "other", "d.rs:1",
            "0x2002", "other", "d.rs:2",
        ]
    )
    chains = inline_report.frames(answer)
    assert chains == [
        ["outer"],
        ["helper<u8>", "outer"],
        ["<x::Y<T> as z::Z>::next", "helper<u8>", "outer"],
        ["helper<u16>", "other"],
        ["other"],
    ]
    assert inline_report.short("<x::Y<T> as z::Z>::next") == "<x::Y as z::Z>::next"
    owners = ["outer", "outer", "outer", "other", "other"]
    sizes = [1, 3, 4, 2, 4]
    # helper is inlined into both: 7 bytes in outer, 2 in other, so 2 beyond the largest copy.
    assert inline_report.duplicates(owners, chains, sizes) == [(2, 9, 2, "helper")]
    assert inline_report.breakdown(chains[:3], sizes[:3]) == {"(itself)": 1, "helper": 7}


def test_arena_recovery_compares_the_moves_around_the_first_hiccup():
    import arena

    calm = [(False, 0.1)] * 10
    assert arena.recovery(calm) is None
    moves = [(False, 0.30), (False, 0.20), (False, 0.25), (True, 0.01),
             (False, 0.9), (False, 0.5), (False, 0.12), (False, 0.10), (False, 0.08), (True, 0.5)]
    assert arena.recovery(moves) == (0.25, 0.10)  # 3 before; 3rd-5th after, not the 1st or 2nd
    assert arena.recovery(moves[:8]) is None  # too few moves after it
    assert arena.recovery(moves[1:]) is None  # too few before it


# --- tools/build_at.py and tools/series.py ------------------------------------------


def test_build_at_sets_exactly_one_constant_of_params_rs():
    import build_at

    source = (ROOT / build_at.PARAMS).read_text()
    changed = build_at.set_constants(source, {"TIME_PONDER_CREDIT_PERCENT": "100", "TIME_MOVES_LEFT": "28"})
    assert "TIME_PONDER_CREDIT_PERCENT: u64 = 100, 0..=100;" in changed
    assert "TIME_MOVES_LEFT: u64 = 28, 15..=80;" in changed
    before, after = source.splitlines(), changed.splitlines()
    assert len(before) == len(after) and sum(a != b for a, b in zip(before, after, strict=True)) == 2
    assert "pub const CHECK_EVERY_NODES: u64 = 7;" in build_at.set_constants(source, {"CHECK_EVERY_NODES": "7"})
    with pytest.raises(ValueError):
        build_at.set_constants(source, {"NO_SUCH_CONSTANT": "1"})
    with pytest.raises(ValueError):
        build_at.set_constants(source, {"TIME_MOVES_LEFT": "many"})
    assert build_at.parse_sets(["A=1", "B=-2"]) == {"A": "1", "B": "-2"}
    with pytest.raises(ValueError):
        build_at.parse_sets(["A"])
    command = build_at.cargo_command("/t", "tune", True)
    assert command[:5] == ["cargo", "build", "--release", "--bin", "minnow"]
    assert command[-3:] == ["--no-default-features", "--features", "tune"]
    # A commit with the users' `analysis` build by default: the shipped build is the net alone.
    assert build_at.cargo_command("/t", None, False, True)[-3:] == ["--no-default-features", "--features", "nnue"]
    assert build_at.cargo_command("/t", "tune", False, True)[-2:] == ["--features", "nnue,tune"]
    assert build_at.cargo_command("/t", None, False)[-2:] == ["--target-dir", "/t"]


def test_the_arena_samples_rss_and_says_unmeasured_without_a_reading(tmp_path):
    """The engine's RSS is read while the game runs; with no engine process to read (it had
    exited by the single reading after the game, and `make main` printed peak_rss_kib=0) the
    figure is None and the summary says "unmeasured", never 0."""
    import arena

    with arena.RssSampler(tmp_path / "no-engine-here", every=0.01) as sampler:
        pass
    assert sampler.peak is None
    assert arena.rss_summary([], 4) == "unmeasured"
    text = arena.rss_summary([3400] * 10 + [3500] * 10, 21)
    assert "3500 KiB at most" in text and "3400 KiB over the first 2" in text and "3500 KiB over the last 2" in text
    assert "unmeasured in 1 games" in text


def test_soak_legs_chunks_and_totals(tmp_path, capsys):
    import soak

    leg = soak.parse_leg("games=5 opponent='cmd=x nodes=10' latency=60 spikes=0.03:500")
    assert leg == {"games": "5", "opponent": "cmd=x nodes=10", "latency": "60", "spikes": "0.03:500"}
    for bad in ("games=5", "opponent=random", "games=0 opponent=random", "games=5 opponent=random colour=white"):
        with pytest.raises(Exception):
            soak.parse_leg(bad)
    plan = soak.chunks([leg, soak.parse_leg("games=4 opponent=random seed=7")], 3)
    # Colour pairs kept whole where the leg allows: 4 + 1, then 4; each chunk's openings follow on.
    assert [(i, n) for i, _, n in plan] == [(0, 4), (0, 1), (1, 4)]
    assert plan[0][1][:6] == ["--opponent", "cmd=x nodes=10", "--games", "4", "--seed", "0"]
    assert plan[1][1][5] == str(2 * 997 % 2000) and plan[0][1][-4:] == ["--latency", "60", "--spikes", "0.03:500"]
    game = {"points": 1.0, "reason": "mate", "min_overage": 5.0, "max_move_ms": 300, "peak_kib": 3400, "spike_count": 0}
    games = [dict(game, reason="timeout (theirs)", points=1.0), dict(game, peak_kib=None, min_overage=2.5),
             dict(game, reason="error (ours)", points=0.0, max_move_ms=900)]
    total = soak.summarise(games)
    assert (total["timeouts"], total["their_timeouts"], total["errors"], total["unmeasured"]) == (0, 1, 1, 1)
    assert (total["min_overage"], total["max_move_ms"], total["peak_rss_kib"]) == (2.5, 900, 3400)
    # A chunk already played is read back, not played again: the whole soak from its JSON.
    for k in range(3):
        (tmp_path / f"chunk{k}.json").write_text(json.dumps({"games": [game] * plan[k][2]}))
    code = soak.main(["--log", str(tmp_path), "--chunk", "3", "--leg", "games=5 opponent=random",
                      "--leg", "games=4 opponent=random"])
    out = capsys.readouterr().out
    assert code == 0 and "SOAK games=9 timeouts=0 errors=0" in out, out


def test_series_runs_each_seed_and_sums_the_summaries(tmp_path, capsys):
    import series

    assert series.command_for(["tools/arena.py", "--seed", "{seed}", "--curve", "x{seed}"], 7)[1:] == [
        "tools/arena.py", "--seed", "7", "--curve", "x7"]
    assert series.command_for(["echo", "{seed}"], 3) == ["echo", "3"]
    # Each run prints an arena-style summary whose counts depend on its seed.
    script = (
        "import sys; s = int(sys.argv[1]); print('noise'); "
        "print(f'ARENA games=10 wins={s} draws=2 losses={8 - s} elo=0 err=0 timeouts={s % 2} errors=0 "
        "min_overage={s / 10} peak_rss_kib={2000 + s}')"
    )
    code = series.main(["--seeds", "1,2,3", "--jobs", "2", "--log", str(tmp_path), "--", sys.executable, "-c", script, "{seed}"])
    out = capsys.readouterr().out
    assert code == 0, out
    line = out.strip().splitlines()[-1]
    assert line.startswith("SERIES games=30 wins=6 draws=6 losses=18 ")
    assert "timeouts=2 errors=0 min_overage=0.1 peak_rss_kib=2003" in line
    assert (tmp_path / "2.txt").read_text().startswith("noise")
    total = series.totals([series.read_summary("RESULT games=4 wins=3 draws=0 losses=1 score=0.75")])
    assert total["elo"] == pytest.approx(elo.score_to_elo(0.75)) and "timeouts" not in total
    # A run that fails or prints no summary fails the series.
    assert series.main(["--seeds", "1", "--log", str(tmp_path), "--", sys.executable, "-c", "print('x')"]) == 1


def test_answer_time_percentiles_and_a_short_run(capsys):
    import answer_time

    assert answer_time.percentile(list(range(1, 101)), 0.99) == 99
    assert answer_time.percentile([5.0], 0.99) == 5.0 and answer_time.percentile([3, 1, 2], 0.5) == 2
    engine = ROOT / "target/release/minnow"
    if not engine.is_file():
        pytest.skip("build the engine first: cargo build --release")
    assert answer_time.main(["--engine", str(engine), "--positions", "4", "--runs", "1", "--wtime", "40", "--winc", "50"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    fields = dict(word.split("=") for word in line.split()[1:])
    assert line.startswith("ANSWER runs=1 ") and 0 < float(fields["max_ms"]) < 1000, line


def test_sprt_helper_specs_cache_and_verdict():
    import sprt

    spec = sprt.engine_spec(Path("/x/minnow"), "lmr", ["LMR_BASE=90", "LMR_DIVISOR=200"])
    assert spec == "cmd=/x/minnow name=lmr option.Hash=1 option.LMR_BASE=90 option.LMR_DIVISOR=200"
    with pytest.raises(ValueError):
        sprt.engine_spec(Path("/x/minnow"), "bad", ["LMR_BASE"])
    # One cache folder per commit, constants and features; the order of --set does not matter.
    a = sprt.build_dir("0123456789abcdef", ["A=1", "B=2"], "tune")
    assert a == sprt.build_dir("0123456789abcdef", ["B=2", "A=1"], "tune")
    assert a != sprt.build_dir("0123456789abcdef", ["A=1"], "tune")
    assert a != sprt.build_dir("0123456789abcdef", ["A=1", "B=2"], None)
    assert a.name.startswith("0123456789ab-")
    assert sprt.verdict("RESULT games=120 elo=+30.0 llr=2.990 sprt=H1") == "H1"
    assert sprt.verdict("RESULT games=90 llr=-2.950 sprt=H0") == "H0"
    assert sprt.verdict("RESULT games=800 llr=1.000 sprt=continue") == "none"
    assert sprt.verdict("") == "none"


def test_depth_at_nodes_reads_the_bench_positions_and_the_last_depth():
    import depth_at_nodes

    fens = depth_at_nodes.bench_positions()
    assert len(fens) == 16 and fens[0].startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")
    for fen in fens:
        chess.Board(fen)  # each one a legal FEN
    lines = ["info depth 1 seldepth 1 score cp 20", "info string x", "info depth 7 seldepth 12 nodes 90", "info nodes 5"]
    assert depth_at_nodes.last_depth(lines) == 7
    assert depth_at_nodes.last_depth(["info string no depth"]) == 0


def test_tree_stats_parses_and_sums_the_stats_lines_of_a_fake_engine(tmp_path, capsys):
    import json

    import tree_stats

    counters = " ".join(f"{key}={i}" for i, key in enumerate(tree_stats.COUNTERS))
    line = f"info string stats {counters} " + " ".join(f"{key}=1/2" for key in tree_stats.BUCKETS)
    stats = tree_stats.parse_stats(line)
    assert (stats["nodes"], stats["qnodes"], stats["pvs_researches"], stats["lmr_d12_m16"]) == (0, 1, 19, [1, 2])
    assert len(stats) == 20 + 24
    with pytest.raises(tree_stats.StatsError, match="no pvs_tries="):
        tree_stats.parse_stats(line.replace(" pvs_tries=18", ""))
    with pytest.raises(tree_stats.StatsError, match="not a number"):
        tree_stats.parse_stats(line.replace("lmr_d1_m2=1/2", "lmr_d1_m2=1"))

    fake = str(ROOT / "tests/python/fake_uci_engine.py")
    spec = shlex.quote(f"cmd={shlex.join([sys.executable, fake, 'stats'])}") + " name=fake"
    assert tree_stats.main(["--engine", spec, "--nodes", "1000,3000", "--out", str(tmp_path)]) == 0
    table = (tmp_path / "tree_stats.md").read_text()
    assert capsys.readouterr().out == table
    raw = json.loads((tmp_path / "tree_stats.json").read_text())
    assert raw["positions"] == tree_stats.bench_positions()
    pieces = [len(chess.Board(fen).piece_map()) for fen in raw["positions"]]
    run = raw["engines"]["fake"]["3000"]
    assert run["depths"] == [p % 7 + 2 for p in pieces]
    sums = run["stats"]
    assert (sums["nodes"], sums["qnodes"], sums["tt_hits"]) == (16 * 3000, 16 * 1500, sum(pieces))
    assert sums["ext_check"] == sum(p % 5 for p in pieces)
    assert (sums["lmr_d3_m4"], sums["lmr_d12_m16"], sums["lmr_d1_m2"]) == ([32, 48], [16, 32], [0, 0])
    lines = table.splitlines()

    def cells(line: str) -> list[str]:
        return [cell.strip() for cell in line.strip("|").split("|")]

    row = dict(zip(cells(lines[0]), cells(next(r for r in lines if r.startswith("| fake | 3,000 |")))))
    assert row["depth"] == f"{sum(p % 7 + 2 for p in pieces) / 16:.2f}"
    assert (row["qsearch %"], row["TT cut %"], row["1st-move cut %"], row["NMP ok %"]) == ("50.0", "0.1", "90.0", "50.0")
    assert (row["NMP /1k"], row["ProbCut /1k"], row["ProbCut ok %"], row["ext singular /1k"]) == ("1.33", "0.00", "–", "0.33")
    assert (row["LMR /1k"], row["LMR mean"], row["asp re %"], row["PVS re %"]) == ("1.00", "1.67", "50.0", "25.0")
    assert "fake at 3,000 nodes" in table and "| d3-4 | – (0) | 1.50 (32) | – (0) | – (0) |" in table
    assert "| d12+ | – (0) | – (0) | – (0) | 2.00 (16) |" in table

    # An engine without the stats line: an error that says so, and no table.
    plain = shlex.quote(f"cmd={shlex.join([sys.executable, fake, 'ok'])}")
    assert tree_stats.main(["--engine", plain, "--nodes", "100"]) == 2
    out, err = capsys.readouterr()
    assert "printed no 'info string stats' line" in err and out == ""


def test_spsa_checks_its_limits_before_starting_an_engine(capsys):
    import spsa

    for bad in (["--nodes", "0"], ["--kaggle-clock"], ["--tc", "fast"]):
        with pytest.raises(SystemExit):
            spsa.main(["--engine", "/nonexistent/minnow", "--params", "RFP_MARGIN", *bad])
        assert "error" in capsys.readouterr().err



# --- tools/reports/pool.py --------------------------------------------------------------------


def _pgn_game(white: str, black: str, result: str, round_: str) -> str:
    return f'[Round "{round_}"]\n[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n\n1. e4 e5 {result}\n\n'


def test_pool_pairs_games_as_match_and_arena_write_them_and_pools_runs() -> None:
    import pool

    # match.py: pair N is rounds "N.1" and "N.2", in any order in the file.
    run1 = (_pgn_game("new", "base", "1-0", "1.1") + _pgn_game("base", "new", "1/2-1/2", "2.1")
            + _pgn_game("base", "new", "1/2-1/2", "1.2") + _pgn_game("new", "base", "0-1", "2.2")
            + _pgn_game("new", "base", "1-0", "3.1"))  # its partner never played
    p1 = pool.read_pool(run1, {"new"})
    assert (p1.wins, p1.draws, p1.losses) == (2, 2, 1)
    assert p1.pentanomial == [0, 1, 0, 1, 0] and p1.unpaired == 1
    # arena.py: both games of a pair share the opening seed as their Round.
    run2 = (_pgn_game("new2", "sub", "1-0", "17") + _pgn_game("sub", "new2", "0-1", "17")
            + _pgn_game("new2", "sub", "0-1", "1014") + _pgn_game("sub", "new2", "1/2-1/2", "1014"))
    p2 = pool.read_pool(run2, {"new", "new2"})
    assert p2.pentanomial == [0, 1, 0, 0, 1] and (p2.wins, p2.draws, p2.losses) == (2, 1, 1)
    total = pool.Pool()
    total.add(p1)
    total.add(p2)
    assert total.pentanomial == [0, 2, 0, 1, 1] and total.games == 9
    assert total.elo() == elo.pentanomial_elo([0, 2, 0, 1, 1])
    assert set(total.opponents) == {"base", "sub"}
    # Without a single pair the games are counted one by one.
    lone = pool.read_pool(_pgn_game("new", "base", "1-0", "1.1"), {"new"})
    assert lone.elo() == elo.trinomial_elo(1, 0, 0)


def test_pool_refuses_games_it_cannot_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import pool

    with pytest.raises(pool.PoolError, match="not one of"):
        pool.read_pool(_pgn_game("a", "b", "1-0", "1.1"), {"new"})
    with pytest.raises(pool.PoolError, match="not one of"):
        pool.read_pool(_pgn_game("new", "new", "1-0", "1.1"), {"new"})
    with pytest.raises(pool.PoolError, match="no result"):
        pool.read_pool(_pgn_game("new", "b", "*", "1.1"), {"new"})
    good = tmp_path / "good.pgn"
    good.write_text(_pgn_game("new", "b", "1-0", "1.1") + _pgn_game("b", "new", "1-0", "1.2"))
    assert pool.main(["--engine", "new", str(good), str(good)]) == 0
    out = capsys.readouterr().out
    assert "pooled: 4 games, W/D/L 2 / 0 / 2, pentanomial 0 / 0 / 2 / 0 / 0" in out
    assert pool.main(["--engine", "new", str(tmp_path / "missing.pgn")]) == 2
    assert "missing.pgn" in capsys.readouterr().err


def test_speed_ratio_on_game_positions(tmp_path, capsys):
    import speed_ratio

    fens = (ROOT / "tests/data/game_positions.fen").read_text().split("\n")
    fens = [f for f in fens if f]
    assert len(fens) == 119
    for fen in fens:
        assert chess.Board(fen).is_valid(), fen
    engine = ROOT / "target/release/minnow"
    if not engine.is_file():
        pytest.skip("build the engine first: cargo build --release")
    few = tmp_path / "few.fen"
    few.write_text("\n".join(fens[:3]) + "\n")
    args = ["--old", str(engine), "--new", str(engine), "--positions", str(few), "--nodes", "3000", "--repeats", "2"]
    assert speed_ratio.main(args) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    fields = dict(word.split("=") for word in line.split()[1:])
    assert line.startswith("SPEED positions=3 nodes=3000 ") and fields["repeats"] == "2", line
    # The same binary on both sides: any positive ratio is right, since a loaded machine (a
    # match beside the tests) can slow one side's few milliseconds many times over.
    assert 0.0 < float(fields["ratio"]) < float("inf"), line
    (tmp_path / "empty.fen").write_text("\n")
    assert speed_ratio.main(["--old", str(engine), "--positions", str(tmp_path / "empty.fen")]) == 1


# --- The unbalanced opening book (suites/make_unbalanced.py) ---------------------------


def test_unbalanced_book_keeps_opening_positions_a_pawn_up_without_a_hanging_piece():
    import make_unbalanced

    start = chess.Board()
    assert make_unbalanced.eligible(start, 26)
    assert not make_unbalanced.eligible(start, 33)  # 32 pieces
    no_queen = chess.Board("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert not make_unbalanced.eligible(no_queen, 26)
    in_check = chess.Board("rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2")
    assert not make_unbalanced.eligible(in_check, 26)
    e4 = chess.Move.from_uci("e2e4")
    assert make_unbalanced.keep(110, e4, start, 90, 130)
    assert make_unbalanced.keep(-90, e4, start, 90, 130)  # the side not to move is better
    assert not make_unbalanced.keep(50, e4, start, 90, 130)
    assert not make_unbalanced.keep(131, e4, start, 90, 130)
    assert not make_unbalanced.keep(None, e4, start, 90, 130)  # a mate score
    capture = chess.Board("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    assert not make_unbalanced.keep(110, chess.Move.from_uci("e4d5"), capture, 90, 130)


@pytest.mark.skipif(STOCKFISH is None, reason="Debian's stockfish is not installed")
def test_unbalanced_book_against_stockfish(tmp_path, capsys):
    import make_unbalanced

    source, out = tmp_path / "src.epd", tmp_path / "book.epd"
    source.write_text("\n".join(match.load_openings(ROOT / "tests/data/kaggle_openings.epd")[:40]) + "\n")
    args = ["--engine", STOCKFISH, "--source", str(source), "--nodes", "2000", "--sample", "60",
            "--low", "60", "--high", "200", "--count", "3", "--seed", "5", "--out", str(out)]
    assert make_unbalanced.main(args) == 0
    lines = out.read_text().splitlines()
    assert 1 <= len(lines) <= 3
    for line in lines:
        record = parse_epd_line(line)
        score, best = str(record.ops["c0"]).split()
        assert 60 <= abs(int(score)) <= 200
        assert chess.Move.from_uci(best) in record.board.legal_moves
        assert not record.board.is_check() and not record.board.is_capture(chess.Move.from_uci(best))
    # The same seed draws the same positions (Stockfish at fixed nodes on one thread scores
    # them the same), so a second run writes the same book.
    again = tmp_path / "again.epd"
    assert make_unbalanced.main(args[:-1] + [str(again)]) == 0
    assert again.read_text() == out.read_text()
    assert match.load_openings(out)  # match.py plays it


def test_sprt_passes_its_book_and_clock_to_match(tmp_path):
    import argparse

    import sprt

    args = argparse.Namespace(option=["THREAT=1"], base_option=[], games=400, concurrency=2, seed=7, elo="0,10",
                              nodes=40000, tc=None, kaggle_clock=False, openings=None, adjudicate=False)
    command = sprt.match_command(args, Path("t/minnow"), Path("b/minnow"), "thr", tmp_path / "thr.pgn")
    assert command[command.index("--nodes") + 1] == "40000" and "--openings" not in command
    assert "--adjudicate" not in command
    args.adjudicate = True
    assert "--adjudicate" in sprt.match_command(args, Path("t/minnow"), Path("b/minnow"), "thr", tmp_path / "thr.pgn")
    assert "option.THREAT=1" in command[command.index("--engine1") + 1]
    assert command[command.index("--sprt") + 1 : command.index("--sprt") + 3] == ["elo0=0", "elo1=10"]
    args.nodes, args.tc, args.kaggle_clock = None, "10+0.1", True
    args.openings = ROOT / "tests/data/unbalanced_openings.epd"
    command = sprt.match_command(args, Path("t/minnow"), Path("b/minnow"), "thr", tmp_path / "thr.pgn")
    assert command[command.index("--tc") + 1] == "10+0.1" and "--kaggle-clock" in command
    assert command[command.index("--openings") + 1] == str(args.openings)
    with pytest.raises(SystemExit):  # a bad --elo is refused before anything is built
        sprt.main(["--nodes", "100", "--elo", "ten"])


def test_unbalanced_book_reports_a_missing_engine(tmp_path, capsys):
    import make_unbalanced

    source = tmp_path / "src.epd"
    source.write_text(chess.STARTING_FEN + "\n")
    code = make_unbalanced.main(["--engine", str(tmp_path / "no-such-engine"), "--source", str(source),
                                 "--sample", "2", "--out", str(tmp_path / "b.epd")])
    assert code == 1 and "error:" in capsys.readouterr().err
    assert make_unbalanced.main(["--source", str(tmp_path / "missing.epd"), "--out", str(tmp_path / "b.epd")]) == 1


# --- Where the losses fell (reports/loss_analysis.py) ---------------------------------


def test_loss_analysis_finds_the_fall_its_phase_and_kind(tmp_path, capsys):
    import loss_analysis

    # The mover's score, as adjudication.py reads it (White moved, so White's view is the mover's).
    assert loss_analysis.move_score("+0.35/12 0.512s", True) == 35 and loss_analysis.move_score("-M3/20 0.1s", True) == -match.MATE_CP
    assert loss_analysis.move_score("0.100s", True) is None
    # minnow (White) thinks it is fine for four moves after the opponent saw it losing: a judgement.
    moves = ["g1f3", "g8f6", "b1c3", "b8c6", "a1b1", "a8b8", "b1a1", "b8a8", "a1b1", "a8b8", "b1a1", "b8a8", "a1b1", "a8b8"]
    ours = ["+0.20", "+0.10", "+0.10", "+0.05", "+0.00", "-0.50", "-2.00"]
    theirs = ["-0.10", "+0.50", "+1.50", "+2.00", "+2.00", "+3.00", "+4.00"]
    text, board = "", chess.Board()
    for i, uci in enumerate(moves):
        comment = (ours if i % 2 == 0 else theirs)[i // 2] + "/10 0.100s"
        text += (f"{i // 2 + 1}. " if i % 2 == 0 else "") + board.san(chess.Move.from_uci(uci)) + f" {{ {comment} }} "
        board.push_uci(uci)
    pgn = tmp_path / "g.pgn"
    pgn.write_text('[White "minnow"]\n[Black "other"]\n[Result "0-1"]\n[Round "1"]\n\n' + text + "0-1\n\n"
                   '[White "other"]\n[Black "minnow"]\n[Result "1-0"]\n[Round "2"]\n\n1. e4 { +0.3/1 0.1s } 1-0 { time forfeit }\n')
    assert loss_analysis.main([str(pgn), "--engine", "minnow", "--list"]) == 0
    out = capsys.readouterr().out
    assert "1 lost games of 2" in out  # the loss on time is left out
    assert "game 1: ply 5 opening judgement lag 4" in out, out  # our 3rd move; our score agreed 4 moves on
    assert loss_analysis.main([str(pgn), "--engine", "minnow", "--lag", "5"]) == 0
    assert "LOSSES games=1 tactic=1 judgement=0" in capsys.readouterr().out
    assert loss_analysis.main([str(pgn), "--engine", "nobody"]) == 1


# --- Scores for unscored games (reports/annotate.py) ------------------------------------


def test_annotate_scores_the_lost_games_for_loss_analysis(tmp_path, capsys):
    import annotate
    import loss_analysis

    # "us" (White) loses a knight and pawns to "them" and resigns; a second game, a draw,
    # is copied as it was. Fake engines score 100 cp a man of difference, mover's view.
    moves = ["g1f3", "e7e5", "f3g5", "d8g5", "a2a3", "g5g2", "a3a4", "g2h2", "a4a5", "h2h1", "a5a6", "b8a6"]
    board, text = chess.Board(), ""
    for i, uci in enumerate(moves):
        text += (f"{i // 2 + 1}. " if i % 2 == 0 else "") + board.san(chess.Move.from_uci(uci)) + " "
        board.push_uci(uci)
    pgn = tmp_path / "g.pgn"
    pgn.write_text('[White "us"]\n[Black "them"]\n[Result "0-1"]\n[Round "1"]\n\n' + text + "{ resigned } 0-1\n\n"
                   '[White "them"]\n[Black "us"]\n[Result "1/2-1/2"]\n[Round "2"]\n\n1. e4 e5 1/2-1/2\n')
    fake = str(ROOT / "tests/python/fake_uci_engine.py")
    spec = shlex.join([sys.executable, fake, "score"])
    out = tmp_path / "scored.pgn"
    args = [str(pgn), "--out", str(out), "--nodes", "500", "--lost-by", "us",
            "--engine", f"us=cmd={spec} name=a", "--engine", f"them=cmd={spec} name=b"]
    assert annotate.main(args) == 0
    assert "ANNOTATE games=2 scored=1 moves=12" in capsys.readouterr().out
    with open(out, encoding="utf-8") as f:
        first, second = chess.pgn.read_game(f), chess.pgn.read_game(f)
    comments = [n.comment for n in first.mainline()]
    # Before White's 3rd move (a2a3) White has 15 men to Black's 16: -1.00 for the mover.
    assert comments[4].startswith("-1.00/"), comments
    assert comments[5].startswith("+1.00/") and comments[-1].endswith("; resigned"), comments
    assert [n.comment for n in second.mainline()] == ["", ""] and second.headers["Round"] == "2"
    assert loss_analysis.main([str(out), "--engine", "us", "--list"]) == 0
    assert "game 1: ply 5 opening tactic lag 0" in capsys.readouterr().out  # 3. a3, the first move seen lost
    # A player without an engine is refused before anything runs; so is a missing PGN; an
    # engine that dies is reported, not a traceback.
    assert annotate.main(args[:-2]) == 2
    assert "no --engine for them" in capsys.readouterr().err
    assert annotate.main([str(tmp_path / "none.pgn")] + args[1:]) == 2
    assert "cannot read" in capsys.readouterr().err
    dying = shlex.join([sys.executable, fake, "die"])
    assert annotate.main(args[:-1] + [f"them=cmd={dying} name=b"]) == 1
    assert "an engine failed" in capsys.readouterr().err


def test_the_data_manifest_keeps_whole_known_chunks_and_deletes_the_rest(tmp_path, capsys):
    """tools/datagen/manifest.py: a sitting's check of a data run before it resumes."""
    sys.path.insert(0, str(ROOT / "tools" / "datagen"))
    import manifest

    run = tmp_path / "t16"
    (run / "eval").mkdir(parents=True)
    (run / "raw").mkdir()
    good, cut, damaged, foreign = (run / "eval" / n for n in ("0-0.bin", "1-0.bin", "0-1.bin", "1-1.bin"))
    for path, size in ((good, 64), (cut, 40), (damaged, 96), (foreign, 32)):
        path.write_bytes(bytes(range(size)))
        (run / "raw" / path.name).write_bytes(b"played")
    book = run / "manifest.tsv"
    assert manifest.main(["add", str(good), str(book), "--commit", "abc", "--seed", "100"]) == 0
    assert manifest.main(["add", str(damaged), str(book), "--commit", "abc", "--seed", "100"]) == 0
    assert manifest.main(["add", str(foreign), str(book), "--commit", "def", "--seed", "100"]) == 0
    assert book.read_text().splitlines()[0].split("\t")[:4] == ["0-0.bin", "100", "abc", "2"]
    damaged.write_bytes(bytes(96))  # same size, other bytes
    new = run / "eval" / "0-2.bin"  # labelled, but cut off before its manifest line
    new.write_bytes(bytes(32 * 3))
    found = manifest.check(run / "eval", book, "abc", 100)
    assert found == {"chunks": 2, "positions": 5, "deleted": 3, "added": 1}, found
    assert sorted(p.name for p in (run / "eval").iterdir()) == ["0-0.bin", "0-2.bin"]
    assert sorted(p.name for p in (run / "raw").iterdir()) == ["0-0.bin"]
    lines = book.read_text().splitlines()
    assert [line.split("\t")[:4] for line in lines] == [["0-0.bin", "100", "abc", "2"], ["0-2.bin", "102", "abc", "3"]]


def test_paired_compares_two_runs_opening_by_opening(tmp_path):
    import paired

    def pgn(rounds_results):
        return "".join(f'[Round "{r}"]\n[White "{w}"]\n[Black "{b}"]\n[Result "{res}"]\n\n{res}\n\n'
                       for r, w, b, res in rounds_results)

    # A: +1 point on opening 1 (won both where B drew both), the same points on 2 and 3 (other
    # games' results); opening 4 only A played.
    a = tmp_path / "a.pgn"
    a.write_text(pgn([("1.1", "cand", "kf", "1-0"), ("1.2", "kf", "cand", "0-1"), ("2.1", "cand", "kf", "1/2-1/2"),
                      ("2.2", "kf", "cand", "1-0"), ("3.1", "cand", "kf", "0-1"), ("3.2", "kf", "cand", "1/2-1/2"),
                      ("4.1", "cand", "kf", "1-0")]))
    b = tmp_path / "b.pgn"
    b.write_text(pgn([("1.1", "main", "kf", "1/2-1/2"), ("1.2", "kf", "main", "1/2-1/2"), ("2.1", "main", "kf", "0-1"),
                      ("2.2", "kf", "main", "1/2-1/2"), ("3.1", "main", "kf", "1/2-1/2"), ("3.2", "kf", "main", "1-0")]))
    r = paired.compare(paired.by_opening([a], {"cand"}), paired.by_opening([b], {"main"}))
    assert (r["openings"], r["games"], r["left_out"], r["same"]) == (3, 6, 1, 2)
    assert r["a"] == pytest.approx(50.0) and r["b"] == pytest.approx(100 * 2 / 6)
    # Differences by opening +1, 0, 0 points over two games: mean 1/6 a game; the openings'
    # standard deviation sqrt(1/3), so the mean's se 1/3 an opening, 1/6 a game.
    assert r["diff"] == pytest.approx(100 / 6) and r["se"] == pytest.approx(100 / 6)
    assert r["elo"] > 0 and r["err"] > 0
    with pytest.raises(paired.PairError):
        paired.by_opening([a], {"main"})
    assert paired.main(["--engine", "cand", "--engine", "main", "--a", str(a), "--b", str(b)]) == 0
    # With a FEN header the start position is the key, whatever the Round (other seeds' files).
    fen = tmp_path / "fen.pgn"
    fen.write_text('[Round "7.1"]\n[White "cand"]\n[Black "kf"]\n[Result "1-0"]\n[FEN "8/8/8/8/8/8/8/K1k5 w - - 0 1"]\n\n1-0\n\n')
    assert dict(paired.by_opening([fen], {"cand"})) == {"8/8/8/8/8/8/8/K1k5 w - - 0 1": [1.0]}
