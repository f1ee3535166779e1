#!/usr/bin/env python3
"""The results ledger, docs/results.csv: one row per measurement, and the tables made from it.

Every figure the README's table and strength.md's summary show is a row of the ledger;
this tool writes those two tables from it, between the markers

    <!-- ledger:NAME begin (made by tools/ledger.py from docs/results.csv; do not edit) -->
    <!-- ledger:NAME end -->

and `--check` says whether they have drifted (tests/python/test_ledger.py runs it).

Columns (docs/results.csv, UTF-8, a header row):

    id          unique slug, lower case, [a-z0-9._-]
    date        YYYY-MM-DD the measurement ended
    commit      the build measured: 7+ hex digits of a commit of this repository
    net         the network in that build (gen14, or hand-crafted)
    page        the docs page that explains it: strength, search, nets, speed, size, time, design
    what        what was measured, in a few words (for a match: what it tests)
    opponent    a match's opponent (empty for other measurements)
    conditions  harness | Kaggle clock 10+0.1 | 2+0.05 | 20,000 nodes | ... (the clock or limit)
    games       games played (matches)                      } W/D/L from the side measured
    wins, draws, losses                                      } (the commit's engine)
    score       that side's score in percent (matches)
    elo         Elo of that side, the point estimate (matches)
    elo95       its 95% interval: a half-width ("25.8"), or "lo..hi" ("-inf..-370.7")
    value       the figure of a measurement that is not a match ("62,613 B", "1.53x")
    note        SPRT outcome, landed or not, seeds; short
    readme      if set, the label of this row in the README's figure table
    source      where it came from: a command or a docs anchor (docs/strength.md#...)

    .venv/bin/python tools/ledger.py --write    # rewrite the generated tables
    .venv/bin/python tools/ledger.py --check    # exit 1 if they differ from the ledger
"""

import argparse
import csv
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools" / "lib"))
from elo import score_to_elo  # noqa: E402
LEDGER = ROOT / "docs/results.csv"
COLUMNS = ["id", "date", "commit", "net", "page", "what", "opponent", "conditions", "games", "wins",
           "draws", "losses", "score", "elo", "elo95", "value", "note", "readme", "source"]
PAGES = {"strength", "search", "nets", "speed", "size", "time", "design"}


def read(path: Path = LEDGER) -> list:
    """The ledger's rows as dicts, in file order."""
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != COLUMNS:
            raise ValueError(f"{path}: header must be {','.join(COLUMNS)}")
        return list(reader)


def expected_elo(score_pct: float) -> float:
    """Elo of a score in percent, by the function every match tool here reports with."""
    return score_to_elo(score_pct / 100)


def problems(rows: list) -> list:
    """Everything wrong with the rows, one line each (an empty list when they are sound)."""
    out, seen = [], set()
    for n, r in enumerate(rows, 2):
        where = f"line {n} ({r['id'] or '?'})"
        if not re.fullmatch(r"[a-z0-9][a-z0-9._-]*", r["id"]):
            out.append(f"{where}: bad id")
        if r["id"] in seen:
            out.append(f"{where}: id used twice")
        seen.add(r["id"])
        if not re.fullmatch(r"2026-\d\d-\d\d", r["date"]):
            out.append(f"{where}: date must be YYYY-MM-DD")
        if not re.fullmatch(r"[0-9a-f]{7,40}", r["commit"]):
            out.append(f"{where}: commit must be hex")
        if not r["net"]:
            out.append(f"{where}: the net is not named")
        if r["page"] not in PAGES:
            out.append(f"{where}: page must be one of {sorted(PAGES)}")
        if not r["what"] or not r["conditions"] and r["games"]:
            out.append(f"{where}: what and (for a match) conditions are required")
        if not r["source"]:
            out.append(f"{where}: no source")
        if r["games"]:
            if not r["games"].isdigit() or not r["score"]:
                out.append(f"{where}: a match needs integer games and a score")
                continue
            g, score = int(r["games"]), float(r["score"])
            wdl = [r[k] for k in ("wins", "draws", "losses")]
            if any(wdl):
                if not all(x.isdigit() for x in wdl):
                    out.append(f"{where}: wins, draws and losses must all be integers")
                    continue
                w, d, l = map(int, wdl)
                if w + d + l != g:
                    out.append(f"{where}: {w}+{d}+{l} is not {g} games")
                if abs(score - 100 * (w + d / 2) / g) > 0.051:
                    out.append(f"{where}: score {score} but W/D/L give {100 * (w + d / 2) / g:.2f}")
            if r["elo"]:
                elo, want = float(r["elo"]), expected_elo(score)
                if math.isfinite(want) and abs(elo - want) > 0.6:
                    out.append(f"{where}: Elo {elo} but a {score:g}% score is {want:+.1f}")
            if r["elo95"] and not re.fullmatch(r"\d+(\.\d+)?|[-+]?(inf|\d+(\.\d+)?)\.\.[-+]?(inf|\d+(\.\d+)?)", r["elo95"]):
                out.append(f"{where}: elo95 must be a half-width or lo..hi")
        elif any(r[k] for k in ("wins", "draws", "losses", "score", "elo")):
            out.append(f"{where}: W/D/L, score or Elo without games")
        elif not r["value"]:
            out.append(f"{where}: neither games nor a value")
    return out


def num(text: str) -> str:
    """'1000' -> '1,000'; anything else unchanged."""
    return f"{int(text):,}" if text.isdigit() else text


def elo_text(r: dict) -> str:
    """'+58.5 ± 25.8', '−511.5 (−inf..−370.7)' or '' with typographic minus signs."""
    if not r["elo"]:
        return ""
    e = float(r["elo"])
    text = f"{e:+.1f}"
    if r["elo95"]:
        text += f" ({r['elo95']})" if ".." in r["elo95"] else f" ± {r['elo95']}"
    return text.replace("-", "−")


def result_text(r: dict) -> str:
    """A match's result as the tables show it, or the row's value."""
    if not r["games"]:
        return r["value"]
    parts = [f"{float(r['score']):g}%"]
    if r["wins"]:
        parts.append(f"{r['wins']} / {r['draws']} / {r['losses']}")
    if r["elo"]:
        parts.append(elo_text(r))
    return ", ".join(parts)


def link(r: dict, text: str) -> str:
    """text linked to the row's source when that is a docs page (from the repository's root,
    where the README is)."""
    src = r["source"]
    return f"[{text}]({src})" if re.fullmatch(r"[\w./-]+\.md(#[\w-]+)?", src) else text


def readme_table(rows: list) -> str:
    """The README's figure table: the rows with a readme label, in ledger order."""
    lines = ["| what | figure | net | commit | date |", "| --- | --- | --- | --- | --- |"]
    for r in rows:
        if not r["readme"]:
            continue
        figure = result_text(r) if not r["games"] else f"{float(r['score']):g}% over {num(r['games'])} games" + (f" ({elo_text(r)} Elo)" if r["elo"] else "")
        if r["games"] and r["note"]:
            figure += f", {r['note']}"
        lines.append(f"| {r['readme']} | {link(r, figure)} | {r['net']} | {r['commit'][:7]} | {r['date']} |")
    return "\n".join(lines)


def strength_table(rows: list) -> str:
    """strength.md's summary: every match of the strength page, newest first."""
    matches = [r for r in rows if r["page"] == "strength" and r["games"]]
    matches.sort(key=lambda r: r["date"], reverse=True)  # stable: ledger order within a day
    lines = ["| opponent | conditions | games | result (W / D / L, Elo ± 95%) | note | date | commit (net) |",
             "| --- | --- | ---: | --- | --- | --- | --- |"]
    for r in matches:
        lines.append(f"| {r['opponent']} | {r['conditions']} | {num(r['games'])} | {result_text(r)} | {r['note']} "
                     f"| {r['date']} | {r['commit'][:7]} ({r['net']}) |")
    return "\n".join(lines)


BLOCKS = {  # name: (file, maker)
    "readme": (ROOT / "README.md", readme_table),
    "strength": (ROOT / "docs/strength.md", strength_table),
}
MARK = re.compile(r"(<!-- ledger:(\w+) begin[^>]*-->\n)((?:.*?\n)?)(<!-- ledger:\2 end -->)", re.S)


def render(text: str, name: str, table: str) -> str:
    """text with the block `name` replaced by table; ValueError when the markers are missing."""
    found = False

    def repl(m):
        nonlocal found
        if m.group(2) != name:
            return m.group(0)
        found = True
        return m.group(1) + table + "\n" + m.group(4)

    out = MARK.sub(repl, text)
    if not found:
        raise ValueError(f"no ledger:{name} block")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="rewrite the generated tables")
    mode.add_argument("--check", action="store_true", help="exit 1 if a table or a row is wrong")
    args = ap.parse_args()
    rows = read()
    bad = problems(rows)
    for line in bad:
        print(f"results.csv: {line}", file=sys.stderr)
    drift = []
    for name, (path, maker) in BLOCKS.items():
        text = path.read_text(encoding="utf-8")
        new = render(text, name, maker(rows))
        if new != text:
            if args.write:
                path.write_text(new, encoding="utf-8")
                print(f"wrote {path.relative_to(ROOT)}")
            else:
                drift.append(str(path.relative_to(ROOT)))
    for d in drift:
        print(f"{d}: its ledger table differs from docs/results.csv (run tools/ledger.py --write)", file=sys.stderr)
    return 1 if bad or drift else 0


if __name__ == "__main__":
    sys.exit(main())
