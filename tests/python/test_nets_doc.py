"""nets/README.md says what the committed nets' headers hold, and the files agree.

Each committed net (nets/*.nnue, nets/candidates/*.nnue) is read as the engine reads it
(`engine/src/nnue.rs`: the 12-byte header, then the layout its sizes give), and
nets/README.md's files table (`| file | stored neurons | computed | QA | QB | buckets |
flags | dense | bytes |`), its sentence about the shipped net's flags ("gen14, the shipped
net, has flags 0x02 (mirrored pairs)") and its `xxd` example must say the same. A net
whose flags byte changes, or words that name other bits, fail here.

    .venv/bin/python -m pytest tests/python/test_nets_doc.py
"""

import re
import struct
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NETS = ROOT / "nets"
README = NETS / "README.md"
# The flags byte (header byte 9), bit by bit, in the words the README uses.
FLAG_WORDS = {1: "king mirroring", 2: "mirrored pairs"}
INPUTS = 768
HEADER_BYTES = 12


def read_header(data: bytes) -> dict:
    """The header of a net file, as engine/src/nnue.rs's `Layout::of` reads it."""
    stored = struct.unpack_from("<H", data, 4)[0]
    qa, qb, buckets, flags, dense, reserved = data[6:12]
    pairs = bool(flags & 2)
    return {
        "magic": data[:4], "stored": stored, "computed": 2 * stored if pairs else stored, "qa": qa,
        "qb": qb, "buckets": buckets, "flags": flags, "dense": dense, "reserved": reserved, "bytes": len(data),
    }


def layout_bytes(h: dict) -> int:
    """The file length the engine's layout gives for a header: first layer, biases, the
    dense layer if any, the output weights and biases."""
    s, d, b = h["stored"], h["dense"], h["buckets"]
    bucket_bytes = 2 * d if d else 2 * s
    return HEADER_BYTES + INPUTS * s + 2 * s + d * 2 * s + 4 * d + b * bucket_bytes + 4 * b


def flag_text(flags: int) -> str:
    """'0x02 (mirrored pairs)', '0x00 (none)': the byte and the words for its bits."""
    words = [FLAG_WORDS[bit] for bit in sorted(FLAG_WORDS) if flags & bit]
    unknown = flags & ~sum(FLAG_WORDS)
    if unknown:
        words.append(f"unknown bits 0x{unknown:02x}")
    return f"0x{flags:02x} ({', '.join(words) or 'none'})"


def committed_nets() -> dict:
    """Every committed net's header, by its path relative to nets/."""
    paths = sorted(NETS.glob("*.nnue")) + sorted((NETS / "candidates").glob("*.nnue"))
    return {p.relative_to(NETS).as_posix(): read_header(p.read_bytes()) for p in paths}


def files_table(text: str) -> list:
    """The rows of the README's table whose header starts '| file |' and has a flags
    column, each a dict by column name (the file cell as written)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[:1] == ["file"] and "flags" in cells:
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append(dict(zip(cells, (c.strip() for c in row.strip().strip("|").split("|")))))
            return rows
    return []


def number(cell: str) -> int:
    return int(cell.replace(",", ""))


def problems(text: str, nets: dict, shipped: str) -> list:
    """Everything in the README text that disagrees with the headers (an empty list when
    it all agrees). `shipped` is nets/SHIPPED's file, relative to nets/."""
    out = []
    rows = files_table(text)
    if not rows:
        return ["nets/README.md has no '| file | ... | flags | ...' table"]
    seen, marked = set(), []
    columns = {"stored neurons": "stored", "computed": "computed", "QA": "qa", "QB": "qb",
               "buckets": "buckets", "dense": "dense", "bytes": "bytes"}
    for row in rows:
        name = re.search(r"`([^`]+)`", row.get("file", ""))
        if not name or name.group(1) not in nets:
            out.append(f"table row {row.get('file')!r}: not a committed net")
            continue
        name = name.group(1)
        seen.add(name)
        if "(shipped)" in row["file"]:
            marked.append(name)
        h = nets[name]
        for column, key in columns.items():
            if column not in row or not re.fullmatch(r"[\d,]+", row[column]) or number(row[column]) != h[key]:
                out.append(f"{name}: table says {column} {row.get(column)!r}, the file {h[key]}")
        if row.get("flags") != flag_text(h["flags"]):
            out.append(f"{name}: table says flags {row.get('flags')!r}, the file {flag_text(h['flags'])!r}")
    for name in sorted(set(nets) - seen):
        out.append(f"{name}: committed, but not in the files table")
    if marked != [shipped]:
        out.append(f"the table marks {marked} as shipped; nets/SHIPPED names {shipped}")
    # Sentences such as "gen14, the shipped net, has flags 0x02 (mirrored pairs)".
    stated = re.findall(r"\b(gen\d+|[a-z]\w*\d\w*)\b[^.\n|]*?\bflags (0x[0-9a-fA-F]{2}) \(([^)]*)\)", text)
    for net, byte, words in stated:
        name = next((n for n in nets if Path(n).stem == net), None)
        if name is None:
            out.append(f"a sentence gives flags of {net}, which is not a committed net")
        elif f"{byte.lower()} ({words})" != flag_text(nets[name]["flags"]):
            out.append(f"a sentence says {net} has flags {byte} ({words}); the file {flag_text(nets[name]['flags'])}")
    if not any(Path(shipped).stem == net for net, _, _ in stated):
        out.append(f"no sentence states the shipped net's flags ('{Path(shipped).stem}, the shipped net, has flags 0x..')")
    if nets[shipped]["flags"] and re.search(r"no (shipped|committed) net sets", text):
        out.append("the README says no shipped net sets a flag; the shipped one does")
    # The xxd example: the bytes it shows are the file's.
    for name, shown in re.findall(r"`xxd -l 12 nets/(\S+?)` prints `([0-9a-f ]+)`", text):
        path = NETS / name
        want = " ".join(path.read_bytes()[i:i + 2].hex() for i in range(0, 12, 2)) if path.exists() else None
        if shown.strip() != want:
            out.append(f"xxd example for {name}: {shown!r}, the file's first 12 bytes {want!r}")
    return out


def shipped_net() -> str:
    return (ROOT / "nets/SHIPPED").read_text().strip().removeprefix("nets/")


def test_every_committed_net_parses_as_the_engine_reads_it():
    nets = committed_nets()
    assert "gen14.nnue" in nets and shipped_net() in nets
    bad = [f"{name}: {h}" for name, h in nets.items()
           if h["magic"] != b"MNN3" or h["reserved"] != 0 or h["flags"] > 2 or h["bytes"] != layout_bytes(h)]
    assert not bad, bad


def test_the_readme_states_the_committed_nets_headers_and_flags():
    found = problems(README.read_text(), committed_nets(), shipped_net())
    assert not found, found


def test_drift_between_the_words_and_the_bits_is_caught():
    text, nets, shipped = README.read_text(), committed_nets(), shipped_net()
    assert flag_text(0) == "0x00 (none)" and flag_text(2) == "0x02 (mirrored pairs)" and flag_text(3) == "0x03 (king mirroring, mirrored pairs)"
    # Words that drop the shipped net's bit.
    words = flag_text(nets[shipped]["flags"])
    assert words in text
    assert problems(text.replace(words, "0x00 (none)"), nets, shipped)
    # A file whose flags byte changed, the words as they are.
    changed = {name: dict(h) for name, h in nets.items()}
    changed[shipped]["flags"] ^= 1
    assert problems(text, changed, shipped)
    # The old claim that no shipped net sets a flag.
    assert problems(text + "\nno shipped net sets either bit.\n", nets, shipped) or not nets[shipped]["flags"]
