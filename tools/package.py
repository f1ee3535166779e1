#!/usr/bin/env python3
"""Builds submission/submission.tar.gz: the release engine compressed with LZMA next to main.py.
The engine is packed without its section header table and section names, which only tools
read (`drop_section_headers`).

    python3 tools/package.py [--exe target/kaggle/release/minnow] [--out submission/submission.tar.gz]

The engine is the competition build, which `make submission` makes: the network alone
(`--no-default-features --features nnue`, into target/kaggle/), without the `analysis`
feature that `cargo build --release` has for analysis users (MultiPV and the rest).

The engine is compressed as a raw LZMA2 stream behind the x86 branch filter (BCJ), with the
literal-context settings measured best on this binary (lc=3 lp=0 pb=0: 409 bytes smaller
than lc=0, which was best before the binary held the network and the book, and every other
lc/lp/pb combination is larger still). main.py unpacks it with Python's `lzma` and the
same filter chain (`FILTERS` below and in main.py must agree; a test checks it). The tar has
fixed metadata, so the same inputs give the same archive, and is gzipped with zopfli when the
`zopfli` module is installed (else gzip -9). Prints every part's size and exits with status 1
if the archive is over the 65,536-byte limit. main.py is shipped minified by
python-minifier (`--no-strip` ships it as written).

Where the bytes go: the embedded data blobs (the network, later the opening book) are
found verbatim in the binary (they are `include_bytes!` statics); the engine is compressed
once more with them zeroed, which gives the code's compressed size, and each blob's share
is what it adds back. main.py's share is what it adds to the archive; it moves by tens of
bytes with the engine's bytes (zopfli splits the blocks anew), so main.py's own budget is
set on `main_py_alone`, the minified main.py gzipped by itself, which only main.py moves.
Printed in bytes, and machine-readable on the last line: `SUBMISSION bytes=TOTAL code=..
data=.. main_py=.. main_py_alone=..`.
"""

import argparse
import ast
import gzip
import io
import lzma
import os
import sys
import tarfile

LIMIT = 65536
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def shipped(variable: str, listing: str) -> str:
    """The data file a build embeds, as its build.rs chooses it: the file that the
    environment `variable` names when set, else the one the one-line file `listing` names
    (both relative to the root)."""
    chosen = os.environ.get(variable)
    if chosen:
        return chosen
    with open(os.path.join(ROOT, listing)) as f:
        return f.read().strip()


def shipped_book() -> str:
    """The opening book the front end embeds (frontend/build.rs): `MINNOW_BOOK` or `book/SHIPPED`."""
    return shipped("MINNOW_BOOK", "book/SHIPPED")


def shipped_net() -> str:
    """The network the engine embeds (engine/build.rs): `MINNOW_NET` or `nets/SHIPPED`."""
    return shipped("MINNOW_NET", "nets/SHIPPED")


FILTERS = [
    {"id": lzma.FILTER_X86},
    {"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "lc": 3, "lp": 0, "pb": 0, "dict_size": 1 << 18},
]


def compress_engine(data: bytes) -> bytes:
    """The engine as main.py expects it: raw LZMA2 behind the x86 filter."""
    return lzma.compress(data, format=lzma.FORMAT_RAW, filters=FILTERS)


def drop_section_headers(exe: bytes) -> bytes:
    """The engine without its section header table and section names, as `sstrip` leaves a
    binary: the kernel loads an executable by its program headers alone, and the sections
    (for linkers, debuggers and `objdump`) come after every loaded byte, so the file is cut
    after the last segment's bytes and the ELF header's section fields zeroed (221 B less
    compressed, 2026-11-28). Anything but a 64-bit little-endian ELF is returned unchanged."""
    if len(exe) < 64 or exe[:6] != b"\x7fELF\x02\x01":
        return exe
    phoff = int.from_bytes(exe[0x20:0x28], "little")
    phentsize = int.from_bytes(exe[0x36:0x38], "little")
    phnum = int.from_bytes(exe[0x38:0x3A], "little")
    end = phoff + phentsize * phnum
    for i in range(phnum):
        at = phoff + i * phentsize
        offset = int.from_bytes(exe[at + 8:at + 16], "little")
        filesz = int.from_bytes(exe[at + 32:at + 40], "little")
        end = max(end, offset + filesz)
    out = bytearray(exe[:end])
    out[0x28:0x30] = bytes(8)  # e_shoff
    out[0x3A:0x40] = bytes(6)  # e_shentsize, e_shnum, e_shstrndx
    return bytes(out)


def strip_python(source: str) -> str:
    """main.py as shipped: minified by python-minifier (a maintained minifier from PyPI):
    no comments or docstrings, short local and global names (argument names too: main.py
    declares them positional-only), one-line blocks. `agent`, the callable the harness looks
    for, keeps its name. The readable file stays in the repository; the tests run the
    shipped form."""
    import python_minifier

    return python_minifier.minify(
        source,
        rename_globals=True,
        preserve_globals=["agent"],
        remove_literal_statements=True,
        hoist_literals=False,
        remove_asserts=True,
        remove_debug=True,
        convert_posargs_to_args=False,
    ) + "\n"


def tar_bytes(files: dict) -> bytes:
    """A tar of `files` (name -> bytes) with fixed owner, mode and time."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def gzip_bytes(data: bytes) -> tuple:
    """(gzipped data, method name): zopfli if installed and smaller, else gzip -9."""
    plain = gzip.compress(data, compresslevel=9, mtime=0)
    try:
        import zopfli.gzip

        z = zopfli.gzip.compress(data, numiterations=50)
        if len(z) < len(plain):
            return z, "zopfli"
    except ImportError:
        pass
    return plain, "gzip -9"


def blob_shares(exe: bytes, compressed_size: int, blobs: dict) -> tuple:
    """(code bytes, {blob name: bytes}) of the compressed engine: the code's size is the
    engine compressed with every blob zeroed; a blob's share, what restoring it adds."""
    spans = {}
    for name, data in blobs.items():
        at = exe.find(data) if data else -1
        if at >= 0:  # a blob the build does not use is not in the binary
            spans[name] = (at, at + len(data))

    def zeroed(keep=None):
        out = bytearray(exe)
        for name, (a, b) in spans.items():
            if name != keep:
                out[a:b] = bytes(b - a)
        return bytes(out)

    code = len(compress_engine(zeroed()))
    shares = {name: len(compress_engine(zeroed(keep=name))) - code for name in spans}
    return code, shares


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    # The competition build (`make submission`), without the `analysis` feature's bytes.
    ap.add_argument("--exe", default=os.path.join(ROOT, "target/kaggle/release/minnow"))
    ap.add_argument("--main", default=os.path.join(ROOT, "submission/main.py"))
    ap.add_argument("--out", default=os.path.join(ROOT, "submission/submission.tar.gz"))
    ap.add_argument("--no-strip", action="store_true", help="ship main.py as written, not minified")
    args = ap.parse_args()

    with open(args.exe, "rb") as f:
        exe = drop_section_headers(f.read())
    with open(args.main, "rb") as f:
        main_py = f.read()
    if not args.no_strip:
        main_py = strip_python(main_py.decode()).encode()
    engine_xz = compress_engine(exe)
    assert lzma.decompress(engine_xz, format=lzma.FORMAT_RAW, filters=FILTERS) == exe
    tar = tar_bytes({"main.py": main_py, "minnow.xz": engine_xz})
    archive, method = gzip_bytes(tar)
    without_main, _ = gzip_bytes(tar_bytes({"main.py": b"", "minnow.xz": engine_xz}))
    main_share = len(archive) - len(without_main)
    main_alone = len(gzip_bytes(main_py)[0])
    blobs = {}
    # Data blobs the engine may embed, by path: their compressed share is reported apart
    # when the build holds them (the network only with the `nnue` feature).
    for rel in (shipped_net(), shipped_book()):
        path = os.path.join(ROOT, rel)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                blobs[rel] = f.read()
    code, shares = blob_shares(exe, len(engine_xz), blobs)
    with open(args.out, "wb") as f:
        f.write(archive)

    print(f"engine binary        {len(exe):8,d} bytes  ({os.path.relpath(args.exe, ROOT)}, section headers dropped)")
    print(f"engine compressed    {len(engine_xz):8,d} bytes  (raw LZMA2 + x86 BCJ, lc3 lp0 pb0), of which")
    print(f"  code               {code:8,d} bytes  (everything but the data blobs)")
    for name, share in shares.items():
        print(f"  data {name:<13s} {share:8,d} bytes  ({len(blobs[name]):,d} raw)")
    print(f"main.py in archive   {main_share:8,d} bytes  (what it adds to submission.tar.gz)")
    print(f"main.py alone        {main_alone:8,d} bytes  (gzipped by itself: its own cost, which the test bounds)")
    print(f"main.py              {len(main_py):8,d} bytes  ({'as written' if args.no_strip else 'minified'})")
    print(f"tar                  {len(tar):8,d} bytes")
    print(f"submission.tar.gz    {len(archive):8,d} bytes  ({method}; limit {LIMIT:,d}, "
          f"{LIMIT - len(archive):+,d} to spare)")
    print(f"SUBMISSION bytes={len(archive)} code={code} data={sum(shares.values())} main_py={main_share} "
          f"main_py_alone={main_alone} engine_xz={len(engine_xz)} main_py_raw={len(main_py)} limit={LIMIT} spare={LIMIT - len(archive)}")
    if len(archive) > LIMIT:
        print(f"error: {args.out} is {len(archive)} bytes, over the {LIMIT}-byte limit", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
