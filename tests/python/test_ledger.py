"""The results ledger (docs/results.csv) and the tables made from it; the shape of docs/.

The README's figure table and strength.md's summary are written by tools/ledger.py from the
ledger: a hand edit of either, or a ledger row changed without `tools/ledger.py --write`,
fails here. Every row must be sound (W/D/L, score and Elo agree; a real commit; a net
named), and docs/ stays a set of pages a newcomer reads in an hour.

    .venv/bin/python -m pytest tests/python/test_ledger.py
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import ledger  # noqa: E402

ROWS = ledger.read()


def row(**overrides):
    """A sound match row, changed by overrides."""
    base = {c: "" for c in ledger.COLUMNS}
    base.update(id="x", date="2026-11-30", commit="f5e7f99", net="gen14", page="strength", what="match",
                opponent="KaggleFish", conditions="harness", games="40", wins="1", draws="19", losses="20",
                score="26.25", elo="-179.5", elo95="74.6", source="docs/strength.md")
    base.update(overrides)
    return base


def test_the_validator_catches_bad_rows():
    assert ledger.problems([row()]) == []
    assert ledger.problems([row(wins="2")])  # 2+19+20 is not 40
    assert ledger.problems([row(score="30")])  # W/D/L give 26.25
    assert ledger.problems([row(elo="-150")])  # 26.25% is -179.5
    assert ledger.problems([row(net="")])
    assert ledger.problems([row(commit="HEAD")])
    assert ledger.problems([row(page="blog")])
    assert ledger.problems([row(), row()])  # the same id twice
    assert ledger.problems([row(games="", wins="", draws="", losses="", score="", elo="", elo95="")])  # no value
    assert ledger.problems([row(games="", wins="", draws="", losses="", score="", elo="", elo95="", value="62,613 B")]) == []


def test_every_row_is_sound():
    assert len(ROWS) > 50
    assert ledger.problems(ROWS) == []


def test_every_commit_is_in_the_history():
    shallow = subprocess.run(["git", "rev-parse", "--is-shallow-repository"], cwd=ROOT, capture_output=True, text=True)
    assert shallow.returncode == 0 and shallow.stdout.strip() == "false", "the ledger's commits need the full history (git fetch --unshallow)"
    commits = sorted({r["commit"] for r in ROWS})
    batch = subprocess.run(["git", "cat-file", "--batch-check"], cwd=ROOT, input="".join(f"{c}^{{commit}}\n" for c in commits),
                           capture_output=True, text=True, check=True).stdout.splitlines()
    missing = [c for c, line in zip(commits, batch) if line.endswith("missing") or "ambiguous" in line]
    assert not missing, f"not commits of this repository: {missing}"


def test_the_generated_tables_match_the_ledger():
    for name, (path, maker) in ledger.BLOCKS.items():
        text = path.read_text(encoding="utf-8")
        assert ledger.render(text, name, maker(ROWS)) == text, f"{path.name}: run tools/ledger.py --write"


def test_a_changed_row_shows_as_drift():
    text = ledger.BLOCKS["readme"][0].read_text(encoding="utf-8")
    changed = [dict(r) for r in ROWS]
    shown = next(r for r in changed if r["readme"] and r["games"])
    shown["score"] = str(float(shown["score"]) + 1)
    assert ledger.render(text, "readme", ledger.readme_table(changed)) != text


def test_every_readme_figure_names_its_net_and_commit():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("<!-- ledger:readme begin", 1)[1].split("<!-- ledger:readme end", 1)[0]
    lines = [line for line in block.splitlines() if line.startswith("| ") and not line.startswith("| what") and not line.startswith("| ---")]
    assert len(lines) == sum(1 for r in ROWS if r["readme"]) >= 5
    for line in lines:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert len(cells) == 5 and cells[2] and re.fullmatch(r"[0-9a-f]{7}", cells[3]), line
    # The README's figures all come from the ledger: outside the block it quotes no Elo or score.
    outside = text.replace(block, "")
    assert not re.search(r"[+−-]\d+(\.\d)? ± \d", outside), "an Elo figure outside the ledger's table"


def test_docs_are_short_and_current():
    pages = sorted((ROOT / "docs").glob("*.md"))
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in pages}
    assert "strength.md" in sizes
    assert sum(sizes.values()) <= 1800, f"docs/*.md has {sum(sizes.values())} lines (at most 1,800): {sizes}"
    over = {k: v for k, v in sizes.items() if v > 400}
    assert not over, f"over 400 lines: {over}"
    clock = re.compile(r"\b([01]\d|2[0-3]):[0-5]\d\b")
    assert clock.search("from 09:21 to 11:05") and not clock.search("a 10+0.1 clock, 1:2 ratio")
    times = [f"{p.name}:{n}" for p in pages for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if clock.search(line)]
    assert not times, f"times of day in the docs (a run narrative): {times}"
