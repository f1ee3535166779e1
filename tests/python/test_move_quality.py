"""Tests of the per-move yardstick (tools/reports/move_quality.py) with minnow as engine and
judge: the figures are the paired differences of the judge's scores, computed again here
from the cache; a second run asks no engine anything; a cut-off cache line is asked again.
The engine is target/release/minnow (the users' build: `go searchmoves` is its root filter).

    .venv/bin/python -m pytest tests/python/test_move_quality.py
"""

import json
import sys
from pathlib import Path

import chess
import chess.pgn
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "reports"))
import move_quality  # noqa: E402

ENGINE = ROOT / "target/release/minnow"
pytestmark = pytest.mark.skipif(not ENGINE.exists(), reason="make test builds target/release/minnow first")


def run(tmp_path: Path, capsys, *extra: str) -> tuple[dict, str]:
    out = tmp_path / "report.json"
    move_quality.main([
        "compare", "--engine", f"low=cmd={ENGINE} option.Hash=1 nodes=300",
        "--engine", f"high=cmd={ENGINE} option.Hash=1 nodes=6000", "--limit", "16",
        "--judge", f"cmd={ENGINE} option.Hash=1", "--judge-nodes", "20000", "--cache", str(tmp_path / "cache"),
        "--json", str(out), *extra,
    ])
    return json.loads(out.read_text()), capsys.readouterr().out


def test_sample_draws_distinct_positions_of_the_games(tmp_path: Path) -> None:
    game = chess.pgn.Game()
    node = game
    for uci in "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8 h2h3".split():
        node = node.add_variation(chess.Move.from_uci(uci))
    pgn = tmp_path / "g.pgn"
    pgn.write_text(str(game) + "\n")
    fens = move_quality.sample([pgn], 6, seed=3)
    assert len(set(fens)) == 6
    assert min(chess.Board(f).ply() for f in fens) >= move_quality.MIN_PLY
    with pytest.raises(SystemExit):
        move_quality.sample([pgn], 7, seed=3)  # only plies 12 to 17: six positions


def test_the_figure_is_the_paired_difference_and_the_cache_answers_again(tmp_path: Path, capsys) -> None:
    report, out = run(tmp_path, capsys)
    assert "16 of 16 moves to search" in out and "moves to judge" in out
    row = report["rows"][0]
    assert (row["engine"], row["base"], report["positions"]) == ("high", "low", 16)
    # The same figure from the cache's answers.
    answers = {}
    for line in (tmp_path / "cache" / "answers.jsonl").read_text().splitlines():
        record = json.loads(line)
        answers[record["key"]] = record["value"]
    fens = move_quality.read_positions(move_quality.DEFAULT_POSITIONS, 16)
    low = [answers[k] for f in fens for k in answers if k.endswith(" " + f) and "nodes=300 " in k]
    high = [answers[k] for f in fens for k in answers if k.endswith(" " + f) and "nodes=6000 " in k]
    assert len(low) == len(high) == 16
    judged = {k: v for k, v in answers.items() if isinstance(v, int)}
    diffs = []
    for f, a, b in zip(fens, low, high):
        if a == b:
            diffs.append(0)
            continue
        sa = next(v for k, v in judged.items() if k.endswith(f"{f} {a}"))
        sb = next(v for k, v in judged.items() if k.endswith(f"{f} {b}"))
        diffs.append(sb - sa)
    mean, se = move_quality.paired(diffs)
    assert row["mean_cp"] == pytest.approx(mean, abs=1e-3) and row["se_cp"] == pytest.approx(se, abs=1e-3)
    assert row["differ"] == sum(a != b for a, b in zip(low, high)) > 0
    assert row["better"] + row["worse"] <= row["differ"]
    # A second run asks no engine anything, and gives the same figures.
    again, out = run(tmp_path, capsys)
    assert "to search" not in out and "to judge" not in out
    assert again == report
    # A line cut off by a killed run is asked again, not misread.
    cache = tmp_path / "cache" / "answers.jsonl"
    lines = cache.read_text().splitlines()
    cache.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:20] + "\n")
    third, out = run(tmp_path, capsys)
    assert ("1 of 16 moves to search" in out) or ("1 moves to judge" in out)
    assert third == report


def test_bad_positions_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.fen"
    bad.write_text("not a fen\n")
    with pytest.raises(SystemExit, match="bad.fen:1: not a FEN"):
        move_quality.read_positions(bad, None)
