#!/usr/bin/env python3
"""Builds submission/submission.tar.gz: the release engine compressed with LZMA next to main.py.

    python3 tools/package.py [--exe target/release/minnow] [--out submission/submission.tar.gz]

The engine is compressed as a raw LZMA2 stream behind the x86 branch filter (BCJ), with the
literal-context settings that suit machine code (lc=0 lp=0 pb=0): measured on this binary
that is about 700 bytes smaller than `xz -9e`. main.py unpacks it with Python's `lzma` and the
same filter chain (`FILTERS` below and in main.py must agree; a test checks it). The tar has
fixed metadata, so the same inputs give the same archive, and is gzipped with zopfli when the
`zopfli` module is installed (else gzip -9). Prints every part's size and exits with status 1
if the archive is over the 65,536-byte limit. main.py is shipped without its comments and
docstrings (`--no-strip` keeps them).
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
FILTERS = [
    {"id": lzma.FILTER_X86},
    {"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "lc": 0, "lp": 0, "pb": 0, "dict_size": 1 << 18},
]


def compress_engine(data: bytes) -> bytes:
    """The engine as main.py expects it: raw LZMA2 behind the x86 filter."""
    return lzma.compress(data, format=lzma.FORMAT_RAW, filters=FILTERS)


def strip_python(source: str) -> str:
    """main.py without comments and docstrings (an ast round trip: the same code, about
    1.4 KB less after gzip). The readable file stays in the repository."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return "# minnow: the Kaggle harness adapter, stripped from submission/main.py\n" + ast.unparse(tree) + "\n"


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe", default=os.path.join(ROOT, "target/release/minnow"))
    ap.add_argument("--main", default=os.path.join(ROOT, "submission/main.py"))
    ap.add_argument("--out", default=os.path.join(ROOT, "submission/submission.tar.gz"))
    ap.add_argument("--no-strip", action="store_true", help="ship main.py with its comments")
    args = ap.parse_args()

    with open(args.exe, "rb") as f:
        exe = f.read()
    with open(args.main, "rb") as f:
        main_py = f.read()
    if not args.no_strip:
        main_py = strip_python(main_py.decode()).encode()
    engine_xz = compress_engine(exe)
    assert lzma.decompress(engine_xz, format=lzma.FORMAT_RAW, filters=FILTERS) == exe
    tar = tar_bytes({"main.py": main_py, "minnow.xz": engine_xz})
    archive, method = gzip_bytes(tar)
    with open(args.out, "wb") as f:
        f.write(archive)

    print(f"engine binary        {len(exe):8,d} bytes  ({os.path.relpath(args.exe, ROOT)})")
    print(f"engine compressed    {len(engine_xz):8,d} bytes  (raw LZMA2 + x86 BCJ, lc0 lp0 pb0)")
    print(f"main.py              {len(main_py):8,d} bytes  ({'as written' if args.no_strip else 'comments and docstrings stripped'})")
    print(f"tar                  {len(tar):8,d} bytes")
    print(f"submission.tar.gz    {len(archive):8,d} bytes  ({method}; limit {LIMIT:,d}, "
          f"{LIMIT - len(archive):+,d} to spare)")
    print(f"SUBMISSION bytes={len(archive)} engine_xz={len(engine_xz)} main_py={len(main_py)} limit={LIMIT}")
    if len(archive) > LIMIT:
        print(f"error: {args.out} is {len(archive)} bytes, over the {LIMIT}-byte limit", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
