#!/usr/bin/env python3
"""What the adapter (submission/main.py) costs in memory above the harness's own baseline,
counted as Kaggle counts it: new pages of the harness's process (where main.py is compiled and
runs) and of its children (the engine).

    .venv/bin/python tools/reports/adapter_memory.py [--games 3] [--submission ARCHIVE]

Each game runs in a fresh Python process that imports the harness and makes its chess
environment (the baseline), resets its peak RSS (`/proc/self/clear_refs`), then plays one game
in the real harness: the archive's main.py (unpacked as Kaggle does) against the harness's
random agent, or, for the control, the same game again: its moves replayed by two agents
that only return them, so that the harness stores the same steps. A thread samples the process's
RSS and the engine's every 5 ms. Per game: the process's peak growth above the baseline
(VmHWM, which includes compiling main.py), its growth at the game's end, its growth while
the engine was at its own peak, and the engine's peak. The adapter's cost is the median of
each over the games less the control's. The last line is
`ADAPTER peak_kib=.. end_kib=.. at_engine_peak_kib=.. engine_peak_kib=.. total_peak_kib=..`
(total: the process's growth plus the engine's RSS, at their sampled joint peak).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

# One game in this fresh process; prints its figures as JSON. argv: mode, main.py or "", seed.
# Standard library and the harness only: importing arena.py's /proc readers would bring
# python-chess into the process, which the harness on Kaggle does not have, and move the figures
# (measured: peak 824 and 404 KiB beside the engine instead of 1,000 and 352).
CHILD = r"""
import contextlib, gc, io, json, os, sys, threading
mode, main_py, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])

def status(pid, field):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0

def engines():
    found, todo = [], [os.getpid()]
    while todo:
        pid = todo.pop()
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as f:
                    kids = [int(c) for c in f.read().split()]
                found += kids
                todo += kids
        except OSError:
            pass
    return found

with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    from kaggle_environments import make
    env = make("chess", configuration={"seed": seed}, debug=False)
gc.collect()
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # reset VmHWM to the current RSS
base = status("self", "VmRSS")
best = {"total": 0, "engine": 0, "ours_at_engine_peak": 0}
done = threading.Event()

def sample():
    while not done.wait(0.005):
        ours = status("self", "VmRSS") - base
        engine = sum(status(pid, "VmRSS") for pid in engines())
        best["total"] = max(best["total"], ours + engine)
        if engine >= best["engine"]:
            best["engine"], best["ours_at_engine_peak"] = engine, ours

thread = threading.Thread(target=sample, daemon=True)
thread.start()
if mode == "ours":
    agents = [main_py, "random"]
else:  # the control: the same game's moves again, from two agents that replay them
    replay = iter(json.load(open(main_py)))
    agents = [lambda obs, config: next(replay)] * 2
steps = env.run(agents)
moves = [s[i].action for s in steps[1:] for i in (0, 1) if s[i].action]
engine_hwm = max((status(pid, "VmHWM") for pid in engines()), default=0)
done.set()
thread.join()
print(json.dumps({
    "plies": len(steps) - 1,
    "status": steps[-1][0].status,
    "peak": status("self", "VmHWM") - base,
    "end": status("self", "VmRSS") - base,
    "at_engine_peak": best["ours_at_engine_peak"],
    "engine_peak": max(engine_hwm, best["engine"]),
    "total_peak": best["total"],
    "moves": moves,
}))
for pid in engines():
    with contextlib.suppress(OSError):
        os.kill(pid, 9)
"""

FIELDS = ("peak", "end", "at_engine_peak", "engine_peak", "total_peak")


def one_game(mode: str, main_py: str, seed: int) -> dict:
    run = subprocess.run([sys.executable, "-c", CHILD, mode, main_py, str(seed)], capture_output=True,
                         text=True, timeout=600, cwd=ROOT)
    if run.returncode != 0 or not run.stdout.strip():
        raise SystemExit(f"adapter_memory.py: the {mode} game failed:\n{run.stdout}{run.stderr}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def medians(games: list) -> dict:
    return {k: statistics.median(g[k] for g in games) for k in FIELDS}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=3, help="games of each kind (default 3)")
    ap.add_argument("--submission", default=str(ROOT / "submission/submission.tar.gz"))
    args = ap.parse_args()
    ours, control = [], []
    with tempfile.TemporaryDirectory(prefix="adapter-memory-") as tmp:
        for i in range(max(1, args.games)):
            folder = Path(tmp) / f"game{i}"
            folder.mkdir()
            with tarfile.open(args.submission, "r:gz") as tar:
                tar.extractall(folder, filter="data")
            game = one_game("ours", str(folder / "main.py"), i)
            ours.append(game)
            moves = Path(tmp) / f"moves{i}.json"
            moves.write_text(json.dumps(game.pop("moves")))
            control.append(one_game("control", str(moves), i))
            same = control[-1].pop("moves") == json.loads(moves.read_text())
            print(f"game {i}: ours {game}, control {control[-1]}{'' if same else ' (NOT the same moves)'}", flush=True)
    a, c = medians(ours), medians(control)
    cost = {k: a[k] - (0 if k == "engine_peak" else c[k]) for k in FIELDS}
    print(f"the harness alone (the same games replayed), growth above its baseline, medians: peak {c['peak']:.0f} KiB, "
          f"at the end {c['end']:.0f} KiB")
    print(f"the adapter above that: peak {cost['peak']:.0f} KiB (compiling main.py included), at the game's end "
          f"{cost['end']:.0f} KiB, while the engine was at its peak {cost['at_engine_peak']:.0f} KiB; "
          f"engine peak {cost['engine_peak']:.0f} KiB; adapter and engine together at most "
          f"{cost['total_peak']:.0f} KiB ({len(ours)} games each)")
    print("ADAPTER " + " ".join(f"{k}_kib={cost[k]:.0f}" for k in FIELDS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
