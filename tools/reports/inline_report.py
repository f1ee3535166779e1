#!/usr/bin/env python3
"""Which inlined functions the engine's code is made of, and which are inlined more than once.

    python3 tools/reports/inline_report.py [--exe PATH] [--function NAME ...] [--top 30]

Builds the release binary with debug info (into target/inline-report, same profile
otherwise: the code is the shipped code) unless --exe is given, disassembles it with
`objdump` and asks `addr2line -a -f -i` which chain of inlined functions each instruction
comes from. Prints, for each function inlined into two or more others, the bytes its copies
take beyond the largest one (what keeping it out of line could save, before compression),
its total and the number of copies; with --function NAME, the bytes of that function by the
callee inlined directly into it. This is how the size cuts of November 2026 were found (docs/size.md) (`Searcher::new`
building the histories on the stack, castling's four inlined attack tests, `str::parse` per
integer type); `tools/reports/size_report.py` then says what each costs compressed, and
`make submission` what a change saved.
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADER = re.compile(r"^([0-9a-f]+) <(.*)>:$")
INSTRUCTION = re.compile(r"^\s*([0-9a-f]+):")


def instructions(disassembly: str) -> dict[str, list[tuple[int, int]]]:
    """(address, size) of each instruction, by function, from `objdump -d` output. A
    function's last instruction is given 4 bytes (its true size is not in the listing)."""
    addresses: dict[str, list[int]] = {}
    current = None
    for line in disassembly.splitlines():
        header = HEADER.match(line)
        if header:
            current = header.group(2)
            addresses[current] = []
            continue
        found = INSTRUCTION.match(line)
        if found and current is not None:
            addresses[current].append(int(found.group(1), 16))
    return {
        name: [(a, b - a) for a, b in zip(addrs, addrs[1:] + [addrs[-1] + 4])]
        for name, addrs in addresses.items()
        if addrs
    }


def frames(addr2line_output: str) -> list[list[str]]:
    """The inline chain of each address from `addr2line -a -f -i` output: function names,
    innermost first, the containing function last."""
    chains: list[list[str]] = []
    lines: list[str] = []
    for line in addr2line_output.splitlines():
        if line.startswith("0x"):
            if chains or lines:
                chains.append(lines[0::2])
            lines = []
        else:
            lines.append(line)
    if lines:
        chains.append(lines[0::2])
    return chains


def short(name: str) -> str:
    """A function name without generic arguments (`<T as Trait>::` prefixes stay)."""
    while True:
        shorter = re.sub(r"(?<=\w)<[^<>]*>", "", name)
        if shorter == name:
            return name
        name = shorter


def duplicates(owners: list[str], chains: list[list[str]], sizes: list[int]) -> list[tuple[int, int, int, str]]:
    """(bytes beyond the largest copy, total bytes, copies, callee) for each function inlined
    into two or more functions, largest first."""
    by_callee: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for owner, chain, size in zip(owners, chains, sizes):
        for callee in {short(name) for name in chain[:-1] if name}:
            by_callee[callee][owner] += size
    rows = []
    for callee, parents in by_callee.items():
        if len(parents) >= 2:
            total = sum(parents.values())
            rows.append((total - max(parents.values()), total, len(parents), callee))
    return sorted(rows, reverse=True)


def breakdown(chains: list[list[str]], sizes: list[int]) -> collections.Counter:
    """Bytes of one function by the callee inlined directly into it ('(itself)' for its own)."""
    parts: collections.Counter = collections.Counter()
    for chain, size in zip(chains, sizes):
        parts[short(chain[-2]) if len(chain) >= 2 else "(itself)"] += size
    return parts


def build() -> Path:
    target = ROOT / "target" / "inline-report"
    subprocess.run(
        [
            "cargo", "build", "--release", "--target-dir", str(target),
            "--config", 'profile.release.debug="limited"', "--config", "profile.release.strip=false",
        ],
        cwd=ROOT,
        check=True,
    )
    return target / "release" / "minnow"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe", type=Path, help="an unstripped build with debug info (default: build one)")
    ap.add_argument("--function", action="append", default=[], help="break this function down by callee (full name, or its last path segments)")
    ap.add_argument("--top", type=int, default=30)
    args = ap.parse_args()
    exe = args.exe or build()
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-C", str(exe)], capture_output=True, text=True, check=True).stdout
    per_function = instructions(listing)
    owners, addresses, sizes = [], [], []
    for name, items in per_function.items():
        for address, size in items:
            owners.append(name)
            addresses.append(hex(address))
            sizes.append(size)
    out = subprocess.run(["addr2line", "-a", "-f", "-i", "-C", "-e", str(exe), *addresses], capture_output=True, text=True, check=True).stdout
    chains = frames(out)
    if len(chains) != len(addresses):
        sys.exit(f"addr2line answered for {len(chains)} of {len(addresses)} addresses")
    if not any(len(c) > 1 or c[0] != "??" for c in chains):
        sys.exit(f"{exe}: no debug info (build with debug = \"limited\" and strip = false)")
    print(f"{exe}: {sum(sizes):,} bytes of code in {len(per_function):,} functions")
    print("  extra   total  copies  inlined function")
    for extra, total, copies, callee in duplicates(owners, chains, sizes)[: args.top]:
        print(f"{extra:7,d} {total:7,d} {copies:7d}  {callee}")
    for wanted in args.function:
        picked = [i for i, owner in enumerate(owners) if wanted in (owner, short(owner)) or short(owner).endswith("::" + wanted)]
        if not picked:
            print(f"\n{wanted}: no such function")
            continue
        parts = breakdown([chains[i] for i in picked], [sizes[i] for i in picked])
        print(f"\n{wanted}: {sum(parts.values()):,} bytes")
        for callee, size in parts.most_common(args.top):
            print(f"{size:7,d}  {callee}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
