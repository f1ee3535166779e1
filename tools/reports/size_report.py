#!/usr/bin/env python3
"""Where the shipped binary's compressed bytes go, symbol by symbol.

    python3 tools/reports/size_report.py [--top 40] [--exe PATH] [--features nnue]

Builds the release binary unstripped (into target/size-report, same profile otherwise) unless
--exe is given, then for every function or data symbol of 64 bytes or more zeroes its bytes
and compresses the binary again with the packager's filters: the difference is what that
symbol costs in the archive (more telling than raw sizes, since tables of zeros or repeated
code compress away while dense code does not). Prints the symbols with the largest share,
then the shares summed by crate and module. Shares overlap a little (LZMA matches span
symbols), so their sum is close to, not equal to, the compressed size.
"""

from __future__ import annotations

import argparse
import collections
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))  # package.py: the packager's compressor

from package import compress_engine  # noqa: E402


def sections(exe: Path) -> list[tuple[str, int, int, int]]:
    """(name, address, file offset, size) of the sections with file contents."""
    out = subprocess.run(["readelf", "-SW", str(exe)], capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        parts = line.replace("[ ", "[").split()
        if len(parts) > 6 and parts[0].startswith("[") and parts[1] != ".bss":
            try:
                found.append((parts[1], int(parts[3], 16), int(parts[4], 16), int(parts[5], 16)))
            except ValueError:
                pass
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exe", help="an unstripped build (default: build one)")
    ap.add_argument("--features", default="", help="cargo features of the build")
    ap.add_argument("--top", type=int, default=40)
    args = ap.parse_args()
    if args.exe:
        exe = Path(args.exe)
    else:
        target = ROOT / "target/size-report"
        cmd = ["cargo", "build", "--release", "--target-dir", str(target), "--config", "profile.release.strip=false"]
        if args.features:
            cmd += ["--features", args.features]
        subprocess.run(cmd, cwd=ROOT, check=True)
        exe = target / "release/minnow"
    data = exe.read_bytes()
    secs = sections(exe)

    def offset(addr: int) -> int | None:
        for _, a, o, size in secs:
            if a and a <= addr < a + size:
                return o + addr - a
        return None

    nm = subprocess.run(["nm", "-S", "-C", str(exe)], capture_output=True, text=True, check=True).stdout
    symbols = []
    for line in nm.splitlines():
        parts = line.split(None, 3)
        if len(parts) == 4 and parts[2] in "tTrRdD":
            size = int(parts[1], 16)
            at = offset(int(parts[0], 16))
            if at is not None and size >= 64:
                symbols.append((parts[3], at, size))
    base = len(compress_engine(data))
    shares = []
    for name, at, size in symbols:
        zeroed = bytearray(data)
        zeroed[at : at + size] = bytes(size)
        shares.append((base - len(compress_engine(bytes(zeroed))), size, name))
    shares.sort(reverse=True)
    print(f"{exe}: {len(data):,} bytes, {base:,} compressed (unstripped; the shipped binary is stripped)")
    print(f"{'share':>7} {'raw':>7}  symbol")
    for share, size, name in shares[: args.top]:
        print(f"{share:7,d} {size:7,d}  {name[:100]}")
    modules: collections.Counter = collections.Counter()
    for share, _, name in shares:
        words = name.lstrip("<").split("::")
        modules["::".join(words[:2])] += share
    print("\nby module:")
    for module, share in modules.most_common(25):
        print(f"{share:7,d}  {module}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
