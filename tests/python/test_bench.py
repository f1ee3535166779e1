"""The bench signature, as Stockfish's CI checks it: the release binary's `bench` node count
must equal the `Bench: N` of the newest commit whose message has one (`git log --grep`), so
that a change to the search that lands without a new `Bench:` line fails here.

It needs the repository's history: without git, outside a git checkout, or in a shallow
clone (where the commit with the line may be missing) it fails and says so, never passes
unchecked. Nothing is built here: `make test` builds target/release/minnow first.

    .venv/bin/python -m pytest tests/python/test_bench.py
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "target/release/minnow"
# A signature in a commit message: `Bench: 468470`, alone on its line or ending a sentence;
# the same pattern for `git log --grep` (extended) and for reading the message found.
GREP = "Bench: [0-9]+"
SIGNATURE = re.compile(r"Bench: ([0-9]+)")


def git(*args: str) -> str:
    """The output of `git args…` in the repository; fails the test with git's message."""
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail(f"git {' '.join(args)} failed ({done.stderr.strip()}): the bench signature needs the history")
    return done.stdout


def newest_signature() -> tuple[str, int]:
    """(commit, N) of the newest commit whose message has a `Bench: N`; its last one when
    the message has several."""
    if shutil.which("git") is None:
        pytest.fail("git is not installed: the bench signature is read from the commit messages")
    if git("rev-parse", "--is-shallow-repository").strip() != "false":
        pytest.fail("the clone is shallow, so the commit with the newest `Bench:` line may be missing: git fetch --unshallow")
    # NUL after each message: a message may hold any text but that.
    log = git("log", "-1", "-E", "--grep", GREP, "--format=%H%n%B%x00")
    if not log.strip():
        pytest.fail("no commit message has a `Bench: N` line")
    commit, message = log.split("\n", 1)
    values = SIGNATURE.findall(message)
    if not values:
        pytest.fail(f"git log --grep found {commit}, but its message has no `Bench: N`: {message!r}")
    return commit, int(values[-1])


def bench_nodes() -> int:
    """The node count of `minnow bench`, from its last line `<nodes> nodes <nps> nps`."""
    assert ENGINE.is_file(), "build the engine first: cargo build --release"
    done = subprocess.run([str(ENGINE), "bench"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done
    last = done.stdout.strip().splitlines()[-1]
    found = re.fullmatch(r"(\d+) nodes \d+ nps", last)
    assert found, f"bench's last line is not '<nodes> nodes <nps> nps': {last!r}"
    return int(found.group(1))


def test_signature_reads_the_newest_bench_line() -> None:
    commit, nodes = newest_signature()
    assert re.fullmatch(r"[0-9a-f]{40}", commit) and nodes > 0
    # The commit found has the line, and no newer commit has one.
    assert f"Bench: {nodes}" in git("log", "-1", "--format=%B", commit)
    newer = git("log", "--format=%B%x00", f"{commit}..HEAD").split("\0")
    assert not any(SIGNATURE.search(message) for message in newer), "a newer commit has a `Bench:` line"


def test_bench_matches_the_newest_signature() -> None:
    commit, expected = newest_signature()
    nodes = bench_nodes()
    assert nodes == expected, (
        f"`minnow bench` searched {nodes} nodes, but the newest `Bench:` line ({commit[:7]}) says {expected}: "
        f"a change to the search needs a commit message with `Bench: {nodes}`"
    )


def test_without_git_or_the_whole_history_it_fails_and_says_why(monkeypatch, tmp_path: Path) -> None:
    # A shallow clone (one commit, no work tree), a folder that is no checkout, no git.
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", "--no-checkout", ROOT.as_uri(), str(shallow)], check=True)
    for root, reason in [(shallow, "shallow"), (tmp_path / "none", "failed")]:
        root.mkdir(exist_ok=True)
        monkeypatch.setitem(globals(), "ROOT", root)
        with pytest.raises(pytest.fail.Exception, match=reason):
            newest_signature()
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(pytest.fail.Exception, match="git is not installed"):
        newest_signature()


# Where the records say what `bench` prints: "prints `N nodes M nps`" and its kin. Each such
# template (N, M or <...> for a number) must match the line the binary prints.
PRINTS = re.compile(r"bench\b[^.]{0,80}?prints[^`.]{0,30}`([^`]+)`")


def documented_bench_lines() -> list[tuple[str, str]]:
    pages = [ROOT / "README.md", ROOT / "nets/README.md", ROOT / "tools/README.md"] + sorted((ROOT / "docs").glob("*.md"))
    found = []
    for page in pages:
        text = " ".join(page.read_text(encoding="utf-8").split())  # a sentence may wrap
        found += [(page.relative_to(ROOT).as_posix(), m.group(1)) for m in PRINTS.finditer(text)
                  if re.search(r"\b[NM]\b|<[^>]+>", m.group(1))]  # a template, not a command named nearby
    return found


def template_regex(template: str) -> re.Pattern:
    """`N nodes M nps` -> a pattern: each N, M or <word> stands for a number."""
    parts = re.split(r"\b[NM]\b|<[^>]+>", template)
    return re.compile(r"\d+".join(re.escape(p) for p in parts))


def test_the_documented_bench_output_is_the_printed_one() -> None:
    assert template_regex("N nodes M nps").fullmatch("468470 nodes 3970084 nps")
    assert not template_regex("Bench: N").fullmatch("468470 nodes 3970084 nps")
    documented = documented_bench_lines()
    assert any(page == "README.md" for page, _ in documented), "the README no longer says what bench prints"
    assert ENGINE.is_file(), "build the engine first: cargo build --release"
    done = subprocess.run([str(ENGINE), "bench", "2"], capture_output=True, text=True, timeout=60)
    last = done.stdout.strip().splitlines()[-1]
    wrong = [(page, t) for page, t in documented if not template_regex(t).fullmatch(last)]
    assert not wrong, f"the docs say bench prints {wrong}, but it prints {last!r}"
