#!/usr/bin/env python3
"""Size, linking, start-up time and memory of the minnow binary (figures: docs/design.md).

    python3 tools/measure.py                  # the shipped build, target/kaggle/release/minnow (built)
    python3 tools/measure.py --engine A --engine B   # measure given binaries side by side

For each binary it reports the stripped size, its `xz -9e` size, whether `ldd` calls it
static, the median time from process start to `readyok` (start-up includes filling the
slider tables and Zobrist keys), and the peak RSS of the process
(from wait4) while it answers `isready` and while it runs `go perft 6` from the start
position. Peak RSS is the kernel's VmHWM of the engine process, read from /proc just
before it quits: unlike wait4's ru_maxrss it does not include the pages of the forked
parent before exec. Standard library only.
"""

from __future__ import annotations

import argparse
import lzma
import statistics
import subprocess
import sys
import time
from pathlib import Path

from build_at import cargo_command

ROOT = Path(__file__).resolve().parent.parent


def build() -> Path:
    """Builds the shipped binary as `make submission` does and returns its path."""
    # The competition build, the network alone (`make submission`): build_at.py's command.
    command = cargo_command(str(ROOT / "target" / "kaggle"), None, False, split=True)
    subprocess.run([*command, "--quiet"], cwd=ROOT, check=True)
    return ROOT / "target" / "kaggle" / "release" / "minnow"


def xz_size(path: Path) -> int:
    """Size after `xz -9e` (the same as Python's lzma preset 9 | PRESET_EXTREME)."""
    data = path.read_bytes()
    return len(lzma.compress(data, format=lzma.FORMAT_XZ, preset=9 | lzma.PRESET_EXTREME))


def is_static(path: Path) -> bool:
    """True if ldd says 'not a dynamic executable'."""
    out = subprocess.run(["ldd", str(path)], capture_output=True, text=True)
    return "not a dynamic executable" in (out.stdout + out.stderr)


def run_commands(path: Path, commands: str, wait_for: str) -> tuple[float, int]:
    """Sends `commands`, waits for a line starting with `wait_for`, then quits.

    Returns (seconds from spawn to that line, peak RSS in KiB so far)."""
    start = time.perf_counter()
    proc = subprocess.Popen([str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin and proc.stdout
    proc.stdin.write(commands)
    proc.stdin.flush()
    for line in proc.stdout:
        if line.startswith(wait_for):
            break
    elapsed = time.perf_counter() - start
    peak_kib = peak_rss_kib(proc.pid)
    proc.stdin.write("quit\n")
    proc.stdin.close()
    if proc.wait() != 0:
        raise SystemExit(f"{path} exited with {proc.returncode}")
    return elapsed, peak_kib


def peak_rss_kib(pid: int) -> int:
    """VmHWM (peak resident set size) of a live process, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise SystemExit(f"no VmHWM for process {pid}")


def measure(path: Path, runs: int) -> dict[str, float]:
    """All figures of one binary."""
    startups, idle_rss = [], []
    for _ in range(runs):
        t, rss = run_commands(path, "isready\n", "readyok")
        startups.append(t)
        idle_rss.append(rss)
    perft_time, perft_rss = run_commands(path, "position startpos\ngo perft 6\n", "Nodes searched")
    return {
        "size": path.stat().st_size,
        "xz": xz_size(path),
        "static": is_static(path),
        "startup_ms": statistics.median(startups) * 1000,
        "idle_rss_kib": int(statistics.median(idle_rss)),
        "perft6_s": perft_time,
        "perft6_rss_kib": perft_rss,
    }


# The widest variant name the table prints; a longer path is cut from the left.
NAME_WIDTH = 48


def variant_name(path: Path, width: int = NAME_WIDTH) -> str:
    """How the table names a binary: its path relative to the repository (as given when it
    is outside), and when that is longer than `width`, an ellipsis and the path's tail, cut
    at a `/` so that the tail's directories are whole (`…/fresh/target/release/minnow`)."""
    try:
        text = str(path.resolve().relative_to(ROOT))
    except ValueError:
        text = str(path)
    if len(text) <= width:
        return text
    tail = text[len(text) - width + 1 :]
    slash = tail.find("/")
    return "…" + (tail[slash:] if slash >= 0 else tail)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--engine", type=Path, action="append", help="binary to measure, repeatable (default: build the shipped target/kaggle/release/minnow)"
    )
    parser.add_argument("--runs", type=int, default=30, help="start-up runs (median)")
    args = parser.parse_args()

    engines = args.engine or [build()]
    variants = [(variant_name(path), path) for path in engines]
    width = max(len("variant"), *(len(name) for name, _ in variants))

    print(f"{'variant':{width}} {'bytes':>8} {'xz -9e':>8} {'static':>6} {'start-up':>9} {'idle RSS':>9} {'perft 6':>8} {'perft RSS':>10}")
    for name, path in variants:
        m = measure(path, args.runs)
        print(
            f"{name:{width}} {m['size']:>8} {m['xz']:>8} {'yes' if m['static'] else 'NO':>6} "
            f"{m['startup_ms']:>7.2f}ms {m['idle_rss_kib']:>6} KiB {m['perft6_s']:>7.2f}s {m['perft6_rss_kib']:>6} KiB"
        )
        if not m["static"]:
            print(f"error: {path} is dynamically linked", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
