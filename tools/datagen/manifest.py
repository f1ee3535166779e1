#!/usr/bin/env python3
"""The manifest of a data run's labelled chunks (tools/datagen/stretch.sh): one tab-separated
line a chunk, `name seed commit positions sha256`, so that a sitting can tell whole, known
chunks from damaged or foreign ones before it resumes the run.

    python3 tools/datagen/manifest.py add RUN/eval/W-C.bin RUN/manifest.tsv --commit C --seed S
    python3 tools/datagen/manifest.py check RUN/eval RUN/manifest.tsv --commit C --seed S

`add` appends the chunk's line (its seed is S + 1000 W + C, as teacher_data.sh plays it).
`check` reads every chunk of the folder against the manifest: one whose size or digest
disagrees with its line, or that was played by another engine commit, is deleted with its
played copy (RUN/raw/W-C.bin), so that the run plays it again; a whole chunk (a multiple of
the 32-byte record) without a line gets one; a line without its chunk is dropped. It prints
what it found and the run's total, `MANIFEST chunks=.. positions=.. deleted=.. added=..`.
Standard library only.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path

RECORD_BYTES = 32  # devtools/src/format.rs: one training record
NAME = re.compile(r"(\d+)-(\d+)\.bin")


def digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def chunk_seed(name: str, seed: int) -> int:
    """The seed teacher_data.sh plays chunk C of worker W with: SEED + 1000 W + C."""
    m = NAME.fullmatch(name)
    if not m:
        raise ValueError(f"{name}: not a chunk name W-C.bin")
    return seed + 1000 * int(m.group(1)) + int(m.group(2))


def line_for(path: Path, commit: str, seed: int) -> str:
    size = path.stat().st_size
    return f"{path.name}\t{chunk_seed(path.name, seed)}\t{commit}\t{size // RECORD_BYTES}\t{digest(path)}"


def read(manifest: Path) -> dict:
    """name -> (seed, commit, positions, sha256) of every well-formed line."""
    entries = {}
    if manifest.is_file():
        for line in manifest.read_text().splitlines():
            parts = line.split("\t")
            if len(parts) == 5 and parts[3].isdigit():
                entries[parts[0]] = (int(parts[1]), parts[2], int(parts[3]), parts[4])
    return entries


def check(folder: Path, manifest: Path, commit: str, seed: int) -> dict:
    entries = read(manifest)
    kept, deleted, added = [], 0, 0
    for path in sorted(folder.glob("*.bin"), key=lambda p: [int(x) for x in re.findall(r"\d+", p.name)]):
        if not NAME.fullmatch(path.name):
            continue
        size = path.stat().st_size
        entry = entries.get(path.name)
        whole = size > 0 and size % RECORD_BYTES == 0
        if entry is None and whole:
            kept.append(line_for(path, commit, seed))
            added += 1
            continue
        if entry is not None and whole and entry[1] == commit and entry[0] == chunk_seed(path.name, seed) \
                and entry[2] * RECORD_BYTES == size and entry[3] == digest(path):
            kept.append("\t".join([path.name, str(entry[0]), entry[1], str(entry[2]), entry[3]]))
            continue
        print(f"manifest: {path}: damaged or not this run's (size {size}, line {entry}): deleted, to be played again")
        path.unlink()
        (folder.parent / "raw" / path.name).unlink(missing_ok=True)
        deleted += 1
    tmp = manifest.with_suffix(".tmp")
    tmp.write_text("".join(line + "\n" for line in kept))
    tmp.replace(manifest)
    positions = sum(int(line.split("\t")[3]) for line in kept)
    return {"chunks": len(kept), "positions": positions, "deleted": deleted, "added": added}


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("action", choices=["add", "check"])
    ap.add_argument("path", help="add: the labelled chunk; check: the folder of labelled chunks")
    ap.add_argument("manifest")
    ap.add_argument("--commit", required=True, help="the engine commit that played the run")
    ap.add_argument("--seed", type=int, required=True, help="the run's SEED (teacher_data.sh)")
    args = ap.parse_args(argv)
    if args.action == "add":
        with open(args.manifest, "a") as f:
            f.write(line_for(Path(args.path), args.commit, args.seed) + "\n")
        return 0
    found = check(Path(args.path), Path(args.manifest), args.commit, args.seed)
    print("MANIFEST " + " ".join(f"{k}={v}" for k, v in found.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
