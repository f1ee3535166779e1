#!/usr/bin/env python3
"""Joins labellings of the same self-play chunks: keeps only the positions that every
labeller kept, so that nets trained on different labels see exactly the same positions.

    python3 tools/label_join.py DIR SUB:NAME [SUB:NAME ...]

DIR/SUB/W-C.bin are the chunks of one labeller (datagen records, 32 bytes,
devtools/src/format.rs); the first SUB must be the unlabelled self-play (`raw`), of
which every other labelling is a subsequence (`datagen label` drops some positions and
keeps the order). Chunks missing from any SUB are skipped. Writes DIR/NAME.bin for each
pair, the records in the same order, and prints the counts.
"""

import os
import sys

RECORD = 32


def key(record: bytes) -> bytes:
    """The record without its score (bytes 24..26): the position, result, side and ply."""
    return record[:24] + record[26:]


def records(path: str) -> list:
    data = open(path, "rb").read()
    if len(data) % RECORD:
        raise ValueError(f"{path}: {len(data)} bytes is not a whole number of {RECORD}-byte records")
    return [data[i:i + RECORD] for i in range(0, len(data), RECORD)]


def align(raw: list, labelled: list, path: str) -> dict:
    """Index in `raw` -> the labelled record of that position (`labelled` is a subsequence
    of `raw` up to the score)."""
    found, j = {}, 0
    for i, r in enumerate(raw):
        if j < len(labelled) and key(labelled[j]) == key(r):
            found[i] = labelled[j]
            j += 1
    if j != len(labelled):
        raise ValueError(f"{path}: record {j} is not a position of the raw chunk in order")
    return found


def join(directory: str, pairs: list) -> dict:
    """Writes DIR/NAME.bin for each (SUB, NAME); returns NAME -> records written."""
    subs = [sub for sub, _ in pairs]
    names = set.intersection(*(set(f for f in os.listdir(os.path.join(directory, s)) if f.endswith(".bin"))
                               for s in subs))
    outs = {name: bytearray() for _, name in pairs}
    for chunk in sorted(names, key=lambda n: tuple(int(x) for x in n[:-4].split("-"))):
        raw = records(os.path.join(directory, subs[0], chunk))
        maps = [dict(enumerate(raw))]
        for sub in subs[1:]:
            path = os.path.join(directory, sub, chunk)
            maps.append(align(raw, records(path), path))
        for i in range(len(raw)):
            if all(i in m for m in maps):
                for (_, name), m in zip(pairs, maps):
                    outs[name] += m[i]
    for name, data in outs.items():
        with open(os.path.join(directory, name + ".bin"), "wb") as f:
            f.write(data)
    return {name: len(data) // RECORD for name, data in outs.items()}


def main() -> int:
    if len(sys.argv) < 3 or any(":" not in a for a in sys.argv[2:]):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    pairs = [tuple(a.split(":", 1)) for a in sys.argv[2:]]
    try:
        counts = join(sys.argv[1], pairs)
    except (OSError, ValueError) as e:
        print(f"label_join: {e}", file=sys.stderr)
        return 1
    for name, n in counts.items():
        print(f"label_join: {name}.bin {n} positions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
