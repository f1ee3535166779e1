"""The engine's "(+N Elo)" tags quote the time-control figure of their step, as the step
table of docs/search.md and the results ledger have it.

The rule (the module comment of engine/src/search.rs): a code comment says why, with at most
a short tag of the form

    (+N Elo)                      the step alone
    (bundle, +N Elo)              measured only together with the other bundle rows
    (with X, +N Elo)              measured as a pair
    (step 12, with X, +N Elo)     outside search.rs: the step is named first

N is the Elo of a self-play match at a time control (2+0.05, or the Kaggle clock 10+0.1),
rounded; a fixed-node screen is never quoted. In search.rs a tag belongs to the nearest
"Step X." comment before it; elsewhere it names its step. The tag must equal the figure of
a row of that step in the table under "## The steps", and that row's ledger id must be a
time-control match whose Elo rounds to the tag. Every "Step X." of search.rs has a row, and
every row's step is in the code. Any other "N Elo" in a comment fails: a figure goes in a tag
or in the docs.

The ledger is docs/results.csv; LEDGER_PATH names another file (a merged copy to try).

    .venv/bin/python -m pytest tests/python/test_elo_tags.py
"""

import math
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import ledger  # noqa: E402

SOURCES = sorted((ROOT / "engine/src").glob("*.rs"))
SEARCH = ROOT / "engine/src/search.rs"
PAGE = ROOT / "docs/search.md"
LEDGER = Path(os.environ.get("LEDGER_PATH", ROOT / "docs/results.csv"))

SIGNED = r"[+−-]\d+"
TAG = re.compile(rf"\((?:(?P<qual>[^()]*?), )?(?P<elo>{SIGNED}) Elo\)")
ANY_ELO = re.compile(rf"(?:{SIGNED}|\d+)(?:\.\d+)? Elo\b")
STEP = re.compile(r"\bStep (\d+[a-z]?)\.")
NAMED_STEP = re.compile(r"step (\d+[a-z]?)\b")
FIGURE = re.compile(r"[+−-]\d+(?:\.\d+)?")
COMMENT = re.compile(r"//[/!]?\s?(.*)$")


def number(text: str) -> float:
    return float(text.replace("−", "-"))


def rounded(x: float) -> int:
    """x to the nearest integer, halves away from zero (+13.5 is +14)."""
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def is_time_control(conditions: str) -> bool:
    return "+" in conditions or "kaggle clock" in conditions.lower()


def comment_blocks(path: Path) -> list:
    """The file's comments as (first line, text): consecutive comment lines joined by spaces."""
    blocks, current, start = [], [], 0
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = COMMENT.search(line)
        if m and line[: m.start()].count('"') % 2 == 0:
            if not current:
                start = n
            current.append(m.group(1).strip())
            if line[: m.start()].strip():  # a comment after code stands alone
                blocks.append((start, " ".join(current)))
                current = []
        elif current:
            blocks.append((start, " ".join(current)))
            current = []
    if current:
        blocks.append((start, " ".join(current)))
    return blocks


def tags() -> list:
    """Every Elo tag of the engine as (file:line, step or None, qualifier, N)."""
    out = []
    for path in SOURCES:
        step = None
        for line, text in comment_blocks(path):
            events = [(m.start(), "step", m) for m in STEP.finditer(text)]
            events += [(m.start(), "tag", m) for m in TAG.finditer(text)]
            for _, kind, m in sorted(events, key=lambda e: e[0]):
                if kind == "step":
                    step = m.group(1) if path == SEARCH else step
                    continue
                qual = m.group("qual") or ""
                if path == SEARCH:
                    which = step
                else:
                    named = NAMED_STEP.match(qual)
                    which = named.group(1) if named else None
                out.append((f"{path.name}:{line}", which, qual, int(number(m.group("elo")))))
    return out


def loose_figures() -> list:
    """Each "N Elo" of a comment that is not a tag's figure."""
    out = []
    for path in SOURCES:
        for line, text in comment_blocks(path):
            in_tags = {m.end("elo") for m in TAG.finditer(text)}
            for m in ANY_ELO.finditer(text):
                if m.end() - len(" Elo") not in in_tags:
                    out.append(f"{path.name}:{line}: {m.group(0)!r}")
    return out


def code_steps() -> list:
    return [m.group(1) for _, text in comment_blocks(SEARCH) for m in STEP.finditer(text)]


def step_table() -> list:
    """The rows under "## The steps" as dicts by column header."""
    lines = PAGE.read_text(encoding="utf-8").split("\n## The steps\n", 1)[1].split("\n## ", 1)[0].splitlines()
    table = [line for line in lines if line.startswith("|")]
    header = [c.strip() for c in table[0].strip("|").split("|")]
    rows = []
    for line in table[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert len(cells) == len(header), f"docs/search.md: a step row of {len(cells)} cells: {line}"
        r = dict(zip(header, cells, strict=True))
        m = re.match(r"(\d+[a-z]?)\b", r["step"])
        assert m, f"docs/search.md: a step row without a step number: {line}"
        r["number"] = m.group(1)
        figure = FIGURE.search(r["at time control"])
        r["figure"] = number(figure.group(0)) if figure else None
        r["ids"] = [i.strip() for i in r["ledger id"].split(";") if i.strip()]
        rows.append(r)
    return rows


def read_ledger() -> dict:
    return {r["id"]: r for r in ledger.read(LEDGER)}


def test_the_patterns_find_what_they_should():
    text = "x (bundle, +58 Elo) y (+14 Elo) z (step 12, with A, +25 Elo) (−3 Elo) (+73 Elo at fixed nodes)"
    assert [(m.group("qual"), m.group("elo")) for m in TAG.finditer(text)] == [
        ("bundle", "+58"), (None, "+14"), ("step 12, with A", "+25"), (None, "−3")]
    assert len(ANY_ELO.findall(text)) == 5 and ANY_ELO.findall("100 measured +26 Elo") == ["+26 Elo"]
    assert rounded(13.5) == 14 and rounded(-0.3) == 0 and rounded(25.0) == 25 and rounded(-2.5) == -3
    found = tags()
    assert len(found) >= 8, f"the tag pattern finds only {found}: the test would be vacuous"
    assert any(f.startswith("search.rs") for f, *_ in found) and any(f.startswith("params.rs") for f, *_ in found)
    assert len(code_steps()) >= 18 and code_steps()[0] == "0"
    assert len(step_table()) >= len(set(code_steps()))


def test_every_figure_in_a_comment_is_a_tag():
    assert not loose_figures(), f"Elo figures outside the tag form (say them in a tag or in docs/search.md): {loose_figures()}"


def test_every_tag_names_a_step():
    nameless = [f for f, step, *_ in tags() if step is None]
    assert not nameless, f"tags with no step (outside search.rs, write '(step X, +N Elo)'): {nameless}"


def test_every_step_has_a_row_and_every_row_a_step():
    steps, rows = code_steps(), step_table()
    assert len(steps) == len(set(steps)), f"a step number used twice in search.rs: {steps}"
    missing = sorted(set(steps) - {r["number"] for r in rows})
    assert not missing, f"steps of search.rs without a row in docs/search.md's step table: {missing}"
    stale = sorted({r["number"] for r in rows} - set(steps))
    assert not stale, f"rows of docs/search.md's step table for steps the code does not have: {stale}"


def test_every_row_with_a_figure_is_a_time_control_match_of_the_ledger():
    led, rows = read_ledger(), step_table()
    for r in rows:
        where = f"docs/search.md step row {r['step']!r}"
        if r["figure"] is None:
            assert not r["ids"], f"{where}: a ledger id without a figure"
            continue
        assert r["ids"], f"{where}: a figure without a ledger id"
        for i in r["ids"]:
            assert i in led, f"{where}: {i} is not in {LEDGER}"
            assert is_time_control(led[i]["conditions"]), f"{where}: {i} is at {led[i]['conditions']!r}, not a clock"
            assert led[i]["games"] and led[i]["elo"], f"{where}: {i} is not a match"
        first = led[r["ids"][0]]
        assert abs(number(first["elo"]) - r["figure"]) < 0.05, f"{where}: {r['figure']} but {first['id']} says {first['elo']}"
        assert first["commit"][:7] in r["commit"], f"{where}: the commit column does not name {first['commit']}"


def test_every_tag_equals_its_steps_time_control_figure():
    led, rows = read_ledger(), step_table()
    for where, step, qual, n in tags():
        candidates = [r for r in rows if r["number"] == step and r["figure"] is not None]
        assert candidates, f"{where}: a (+{n} Elo) tag, but step {step} has no measured row in docs/search.md"
        match = [r for r in candidates if rounded(r["figure"]) == n]
        assert match, f"{where}: tag {n:+d} Elo, step {step}'s rows say {[r['figure'] for r in candidates]}"
        r = match[0]
        bundle = qual.split(", ")[-1] == "bundle"
        assert bundle == r["at time control"].startswith("bundle"), f"{where}: 'bundle' in the tag and the row differ"
        entry = led[r["ids"][0]]
        assert rounded(number(entry["elo"])) == n, f"{where}: tag {n:+d}, ledger {entry['id']} has {entry['elo']}"
        assert is_time_control(entry["conditions"]), f"{where}: {entry['id']} is not at a time control"
