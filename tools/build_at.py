#!/usr/bin/env python3
"""Builds the engine of any commit, and optionally its submission archive, in a throwaway
git worktree, so that the builds the docs name ("the gen7 build", "the archive of a10788e",
"the variant with TIME_MOVES_LEFT 28") can be made again from a clone.

    python3 tools/build_at.py REV [--out DIR] [--net PATH] [--set NAME=VALUE ...]
                              [--features F] [--no-default-features] [--package]

Writes DIR/minnow (default `target/at/<REV>`) and, with `--package`, DIR/submission.tar.gz,
made by that commit's own `tools/package.py` and `submission/main.py` (run with this
interpreter: use the venv's, `.venv/bin/python`, which has zopfli and the minifier).

- `--net PATH` embeds another network (`MINNOW_NET`); a relative path is taken inside the
  commit's tree, so `--net nets/gen5.nnue` finds a net that a later commit deleted.
- `--set NAME=VALUE` changes one constant of the commit's `engine/src/params.rs` (before
  the workspace split, `src/params.rs`) before building (a tunable's default, e.g. `TIME_PONDER_CREDIT_PERCENT=100`): the variant
  archives of docs/time.md. The name must match exactly one definition.
- `--features` and `--no-default-features` go to cargo as they are (`--features tune`: the
  search's constants as UCI options; `--no-default-features`: the hand-crafted evaluation).
  A commit whose default build has the `analysis` feature (the users' build) is built as
  `make submission` builds the shipped engine, `--no-default-features --features nnue`.

The worktree is removed afterwards (also on failure); the build compiles from scratch in a
temporary target directory, about a minute on two cores. Prints `BUILD rev=.. out=..`.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PARAMS = "engine/src/params.rs"
OLD_PARAMS = "src/params.rs"  # before the workspace split


def set_constants(source: str, values: dict) -> str:
    """`source` (a params.rs) with each named constant's value replaced. A constant is a
    `NAME: type = value` definition (a tunable, or a `const`); each name must occur exactly
    once as such, and the value must be an integer literal."""
    for name, value in values.items():
        if not re.fullmatch(r"-?\d+", str(value)):
            raise ValueError(f"{name}: value {value!r} is not an integer")
        pattern = re.compile(rf"^(\s*(?:pub\s+)?(?:const\s+)?{re.escape(name)}\s*:\s*[\w\[\]; ]+?=\s*)(-?[\d_]+)\b", re.M)
        found = pattern.findall(source)
        if len(found) != 1:
            raise ValueError(f"{name}: {len(found)} definitions in {PARAMS}, need exactly one")
        source = pattern.sub(lambda m: m.group(1) + str(value), source)
    return source


def parse_sets(items: list) -> dict:
    """`["A=1", "B=-2"]` -> `{"A": "1", "B": "-2"}`."""
    values = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise ValueError(f"--set {item!r}: expected NAME=VALUE")
        values[name] = value
    return values


def cargo_command(target_dir: str, features: str | None, no_default: bool, split: bool = False) -> list:
    """The cargo invocation that builds the shipped binary. `split`: the commit's default
    build is the users' (with its `analysis` feature), so the shipped one is the network
    alone, `--no-default-features --features nnue` (and `features`), as `make submission`
    builds it; with `no_default` the hand-crafted evaluation, as before."""
    command = ["cargo", "build", "--release", "--bin", "minnow", "--target-dir", target_dir]
    if split and not no_default:
        no_default, features = True, ",".join(f for f in ("nnue", features) if f)
    if no_default:
        command.append("--no-default-features")
    if features:
        command += ["--features", features]
    return command


def git(*args: str, cwd: str = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rev", help="a commit, branch or tag")
    ap.add_argument("--out", help="output folder (default target/at/REV)")
    ap.add_argument("--net", help="MINNOW_NET for the build (relative: inside the commit's tree)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="change a constant of params.rs")
    ap.add_argument("--features", help="cargo --features")
    ap.add_argument("--no-default-features", action="store_true", help="the hand-crafted evaluation")
    ap.add_argument("--package", action="store_true", help="also make DIR/submission.tar.gz with the commit's packager")
    args = ap.parse_args(argv)

    values = parse_sets(args.set)
    commit = git("rev-parse", "--verify", f"{args.rev}^{{commit}}")
    out = os.path.abspath(args.out or os.path.join(ROOT, "target", "at", args.rev.replace("/", "_")))
    os.makedirs(out, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="minnow-at-")
    tree = os.path.join(scratch, "src")
    git("worktree", "add", "--detach", tree, commit)
    try:
        if values:
            path = os.path.join(tree, PARAMS)
            if not os.path.exists(path):
                path = os.path.join(tree, OLD_PARAMS)
            with open(path) as f:
                source = f.read()
            with open(path, "w") as f:
                f.write(set_constants(source, values))
        env = dict(os.environ)
        if args.net:
            env["MINNOW_NET"] = args.net if os.path.isabs(args.net) else os.path.join(tree, args.net)
        with open(os.path.join(tree, "Cargo.toml")) as f:
            split = re.search(r"^analysis\s*=", f.read(), re.M) is not None
        command = cargo_command(os.path.join(scratch, "target"), args.features, args.no_default_features, split)
        subprocess.run(command, cwd=tree, env=env, check=True)
        exe = os.path.join(out, "minnow")
        shutil.copy2(os.path.join(scratch, "target", "release", "minnow"), exe)
        if args.package:
            archive = os.path.join(out, "submission.tar.gz")
            packager = os.path.join(tree, "tools", "package.py")
            subprocess.run([sys.executable, packager, "--exe", exe, "--out", archive], cwd=tree, env=env, check=True)
    finally:
        git("worktree", "remove", "--force", tree)
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"BUILD rev={commit[:12]} out={os.path.relpath(out, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
