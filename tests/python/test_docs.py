"""The front door and the notebook: README.md stays short, and what it names is there.

Every file path the README names (in backticks or as a link) must be a file or folder that
git tracks, so that a fresh clone has it; the few build outputs it mentions are listed
below. Every `make TARGET` it names must be a target of the Makefile. The relative links
of the docs (docs/*.md and the folder READMEs) must lead to tracked files.

    .venv/bin/python -m pytest tests/python/test_docs.py
"""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
# What the README's commands make (git-ignored, so never in a clone).
OUTPUTS = {".venv/", "submission/submission.tar.gz", "target/release/minnow"}
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
CODE = re.compile(r"`([^`\n]+)`")
FILE_NAME = re.compile(r"^[\w.-]+\.(rs|py|md|toml|sh|txt|nnue|bin|svg|epd|ld)$")


def tracked() -> set:
    """Every tracked file, relative to the root, plus every folder above one (with a '/')."""
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    files = set(out.split())
    folders = {str(Path(f).parent) + "/" for f in files}
    for folder in list(folders):
        parts = Path(folder).parts
        folders.update("/".join(parts[:i]) + "/" for i in range(1, len(parts)))
    return files | folders


def named_paths(text: str) -> set:
    """The repository paths a Markdown text names: link targets, and code spans that are a
    path (a `/` and no spaces or shell syntax) or a bare file name with a known extension."""
    names = {m for m in LINK.findall(text) if "://" not in m}
    for span in CODE.findall(text):
        for word in re.split(r",\s*", span):
            word = word.strip()
            if FILE_NAME.match(word) or re.fullmatch(r"\.?[\w.-]+(/[\w.-]+)*/?", word) and "/" in word:
                names.add(word)
    return names


def test_readme_is_a_front_door():
    text = README.read_text()
    lines = text.splitlines()
    assert len(lines) <= 100, f"README.md has {len(lines)} lines; the front door keeps to 100"
    first_block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in first_block.splitlines() if line.split("#")[0].strip()]
    assert commands == ["make main", "make test"]
    first_link = next(i for i, line in enumerate(lines) if LINK.search(line))
    assert first_link < 50, "more than one screen before the first link"


def test_every_path_the_readme_names_is_in_a_clone():
    text = README.read_text()
    have = tracked()
    basenames = {Path(p).name for p in have if not p.endswith("/")}
    names = named_paths(text)
    assert {"docs/strength.md", "engine/src/search.rs", "build_at.py", ".ci/run", "board/"} <= names  # the scan works
    assert named_paths("see `a/b.rs`, `c.py` and [x](d/e.md#f) but not `make x` or `cp|mate`") == {"a/b.rs", "c.py", "d/e.md"}
    missing = []
    for name in sorted(names):
        if name in OUTPUTS:
            continue
        if "/" in name:
            if name not in have and name.rstrip("/") + "/" not in have:
                missing.append(name)
        elif name not in basenames:
            missing.append(name)
    assert not missing, f"README.md names what a clone does not have: {missing}"


def test_every_make_target_the_readme_names_exists():
    makefile = (ROOT / "Makefile").read_text()
    targets = set(re.findall(r"^([\w-]+):", makefile, re.M))
    named = set(re.findall(r"\bmake ([a-z][\w-]*)\b(?!=)", README.read_text()))
    assert {"main", "test", "submission"} <= named
    assert named <= targets, f"not Makefile targets: {sorted(named - targets)}"


def test_the_docs_links_lead_to_tracked_files():
    have = tracked()
    pages = sorted((ROOT / "docs").glob("*.md")) + [ROOT / p for p in ("nets/README.md", "book/README.md", "tools/README.md", "submission/README.md")]
    broken = []
    for page in pages:
        for target in LINK.findall(page.read_text()):
            if "://" in target:
                continue
            path = (page.parent / target).resolve().relative_to(ROOT).as_posix()
            if path not in have and path + "/" not in have:
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, broken


# The records speak of commits and dates, not of a tracker the repository does not hold.
ISSUE = re.compile(r"\bissues?\s*#?\d+", re.I)


def test_the_records_name_no_tracker_issues():
    pages = [README, ROOT / "nets/README.md"] + sorted((ROOT / "docs").glob("*.md"))
    assert ISSUE.search("as issue 29 found") and ISSUE.search("Issues 29 and 30") and not ISSUE.search("an issue of size")
    found = [f"{page.relative_to(ROOT)}:{n}: {m.group(0)}" for page in pages
             for n, line in enumerate(page.read_text().splitlines(), 1) for m in ISSUE.finditer(line)]
    assert not found, found


# The records read on a screen: a line of prose is at most 200 characters, a table row (a
# line starting with "|") at most 400. Lines inside fenced code blocks are commands and may
# be longer. A page's length is a smell, not a target to meet by merging lines: split a
# merged row back into rows, and cut history (the ledger and git keep it).
RECORD_PAGES = ["README.md", "book/README.md", "nets/README.md", "submission/README.md", "tools/README.md"]
PROSE_MAX, ROW_MAX = 200, 400


def overlong_lines(text: str) -> list:
    """(line number, length, limit) of each line of a Markdown text over its limit, fenced
    code blocks (``` to ```) exempt."""
    out, fenced = [], False
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        limit = ROW_MAX if line.startswith("|") else PROSE_MAX
        if len(line) > limit:
            out.append((n, len(line), limit))
    return out


def test_the_records_have_no_overlong_lines():
    # The checker catches what it should, and only that.
    assert overlong_lines("a" * 200) == [] and overlong_lines("a" * 201) == [(1, 201, 200)]
    assert overlong_lines("ok\n" + "é" * 201) == [(2, 201, 200)]  # characters, not bytes
    assert overlong_lines("| " + "a" * 398) == [] and overlong_lines("| " + "a" * 399) == [(1, 401, 400)]
    assert overlong_lines(" | " + "a" * 300) == [(1, 303, 200)]  # a row starts the line
    fenced = "```sh\n" + "a" * 300 + "\n```\n" + "b" * 201
    assert overlong_lines(fenced) == [(4, 201, 200)]
    pages = sorted((ROOT / "docs").glob("*.md")) + [ROOT / p for p in RECORD_PAGES]
    assert len(pages) >= 12 and all(p.exists() for p in pages)
    found = [f"{page.relative_to(ROOT)}:{n}: {length} characters (at most {limit})"
             for page in pages for n, length, limit in overlong_lines(page.read_text(encoding="utf-8"))]
    assert not found, "lines too long to read (split a merged row, cut history):\n" + "\n".join(found)


def test_tools_readme_names_every_tool():
    have = tracked()
    tools = sorted(p[len("tools/"):] for p in have if p.startswith("tools/") and not p.endswith("/") and p != "tools/README.md")
    assert "arena.py" in tools and "lib/engines.py" in tools  # the listing works
    text = (ROOT / "tools/README.md").read_text()
    named = {m for m in CODE.findall(text)} | {Path(m).name for m in CODE.findall(text)}
    missing = [t for t in tools if t not in named and f"tools/{t}" not in named]
    assert not missing, f"tools/README.md does not name: {missing}"


def heading_anchors(text: str) -> set:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces
    to hyphens, a repeated heading numbered from -1."""
    seen, out = {}, set()
    for heading in re.findall(r"^#+\s+(.*?)\s*$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        out.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
        seen[slug] = seen.get(slug, 0) + 1
    return out


def test_the_links_anchors_name_headings():
    assert heading_anchors("# A b\n## Gen11 (b96539c, 2026-11-27)\n# A b\n") == {"a-b", "gen11-b96539c-2026-11-27", "a-b-1"}
    pages = [README] + sorted((ROOT / "docs").glob("*.md")) + [ROOT / p for p in ("nets/README.md", "book/README.md", "tools/README.md", "submission/README.md", "tests/data/README.md")]
    broken = []
    for page in pages:
        for target, anchor in re.findall(r"\]\(([^)#\s]*)#([^)\s]+)\)", page.read_text()):
            dest = (page.parent / target) if target else page
            if dest.suffix == ".md" and dest.exists() and anchor not in heading_anchors(dest.read_text()):
                broken.append(f"{page.relative_to(ROOT)}: {target}#{anchor}")
    assert not broken, broken


# Each committed net has its recipe: a script whose header says what the net is and where
# it came from, and whose body makes its data and trains it.
RECIPE_HEADER = re.compile(r"^# (gen\d+)\.nnue, shipped [0-9a-f]{7} \(\d{4}-\d\d-\d\d\)[^\n]*Parent: (gen\d+|none)", re.M)


def test_every_committed_net_has_a_recipe_that_parses_and_writes_it():
    nets = sorted(p.stem for p in (ROOT / "nets").glob("*.nnue"))
    assert "gen11" in nets
    problems = []
    for net in nets:
        recipe = ROOT / "nets/recipes" / f"{net}.sh"
        if not recipe.exists():
            problems.append(f"{net}: no nets/recipes/{net}.sh")
            continue
        text = recipe.read_text()
        header = RECIPE_HEADER.search(text)
        if not header or header.group(1) != net:
            problems.append(f"{recipe.name}: header must read '# {net}.nnue, shipped <commit> (<date>) ... Parent: ...'")
        elif header.group(2) != "none" and f"nets/{header.group(2)}.nnue" not in text and header.group(2) + ".sh" not in text:
            problems.append(f"{recipe.name}: the parent {header.group(2)} is never used")
        if f"nets/{net}.nnue" not in text.split("set -eu", 1)[-1]:
            problems.append(f"{recipe.name}: its commands never write nets/{net}.nnue")
        if subprocess.run(["sh", "-n", str(recipe)], capture_output=True).returncode != 0:
            problems.append(f"{recipe.name}: sh -n fails")
    assert not problems, problems
