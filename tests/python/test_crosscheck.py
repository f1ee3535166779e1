"""Perft cross-check of the engine against python-chess, plus self-tests of the tool.

The engine is $MINNOW_ENGINE or target/release/minnow (nothing is built here;
run `cargo build --release` first). Tests that need it are skipped when it is
missing. The sample-feature test and the tool self-tests (against a fake
python-chess engine) always run.

Run with the venv made by tools/venv.sh:
    .venv/bin/python -m pytest tests/python
"""

import collections
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
for folder in ("tools/lib", "tools/suites"):
    sys.path.insert(0, str(ROOT / folder))

from crosscheck import generate_positions, run  # noqa: E402
from uci_engine import EngineError  # noqa: E402

# (seed, positions, depth) of the engine runs; the features test pins the
# depth-3 sample, so changing the seed needs checking its feature counts.
DEPTH3_RUN = (2, 300, 3)
DEPTH4_RUN = (3, 30, 4)

# Minimum number of positions with each feature in the depth-3 sample.
MIN_FEATURES = {
    "ep_capture": 20,
    "castling": 20,
    "promotion": 20,
    "check": 20,
    "checkmate": 3,
    "ep_square_only": 3,
}

JOBS = os.cpu_count() or 1
FAKE_ENGINE = Path(__file__).resolve().parent / "fake_uci_engine.py"


@pytest.fixture(scope="module")
def engine() -> str:
    """Path of the engine under test; skips when it is not built."""
    path = Path(os.environ.get("MINNOW_ENGINE") or ROOT / "target" / "release" / "minnow")
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.skip(f"no engine at {path}: run `cargo build --release` or set MINNOW_ENGINE")
    return str(path)


@pytest.mark.parametrize("seed, count, depth", [DEPTH3_RUN, DEPTH4_RUN], ids=["depth3", "depth4"])
def test_engine_matches_python_chess(engine: str, seed: int, count: int, depth: int) -> None:
    """Every sampled position has the same perft divide as python-chess."""
    report = run(engine, generate_positions(count, seed), depth, jobs=JOBS)
    assert report.mismatch is None, report.mismatch.describe()
    assert report.positions == count


def test_sample_has_enough_special_positions() -> None:
    """The biased sampling still yields plenty of each tricky feature."""
    seed, count, _ = DEPTH3_RUN
    counts = collections.Counter(f for s in generate_positions(count, seed) for f in s.features)
    too_few = {f: counts[f] for f, least in MIN_FEATURES.items() if counts[f] < least}
    assert not too_few, f"too few sampled positions with {too_few} (minimums {MIN_FEATURES})"


def fake_engine(tmp_path: Path, mode: str) -> str:
    """An executable that runs the fake engine in `mode`."""
    script = tmp_path / f"fake-{mode}"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE_ENGINE}" {mode}\n')
    script.chmod(0o755)
    return str(script)


def test_tool_passes_correct_engine(tmp_path: Path) -> None:
    """A correct engine passes and the nodes are counted."""
    report = run(fake_engine(tmp_path, "ok"), generate_positions(20, 7), 2, jobs=JOBS)
    assert report.mismatch is None and report.positions == 20 and report.nodes > 0


def test_tool_reports_miscount(tmp_path: Path) -> None:
    """A wrong count for one root move is reported with that move."""
    samples = [s for s in generate_positions(20, 7) if s.features.isdisjoint({"checkmate", "stalemate"})]
    report = run(fake_engine(tmp_path, "miscount"), samples, 2, jobs=JOBS)
    assert report.mismatch is not None and report.positions == 0
    first_move = next(iter(report.mismatch.reference))
    assert first_move in report.mismatch.describe()


def test_tool_reports_missing_move(tmp_path: Path) -> None:
    """An engine without en passant fails on a position where it is legal."""
    samples = [s for s in generate_positions(100, 7) if "ep_capture" in s.features][:3]
    report = run(fake_engine(tmp_path, "no-ep"), samples, 1, jobs=JOBS)
    assert report.mismatch is not None
    assert "legal moves missing from the engine" in report.mismatch.describe()


def test_tool_reports_dead_engine(tmp_path: Path) -> None:
    """An engine that exits is reported with its exit status and stderr."""
    with pytest.raises(EngineError, match=r"(?s)exit status 3.*dying on purpose"):
        run(fake_engine(tmp_path, "die"), generate_positions(3, 7), 2, jobs=1)


def test_tool_times_out_on_hung_engine(tmp_path: Path) -> None:
    """An engine that never answers is given up on after the timeout."""
    with pytest.raises(EngineError, match="timed out"):
        run(fake_engine(tmp_path, "hang"), generate_positions(3, 7), 2, jobs=1, timeout=1)
