"""Minimal UCI engine driver shared by the perft tools.

Runs an engine as a subprocess and talks to it line by line. A reader thread
feeds stdout into a queue so every wait has a timeout: a hung engine raises
EngineError instead of blocking forever, and so does an engine that exits.
The tail of the engine's stderr is kept to explain crashes.
"""

from __future__ import annotations

import collections
import queue
import re
import subprocess
import threading
import time
from collections.abc import Sequence

# One line of a perft divide: "<uci move>: <count>".
DIVIDE_LINE = re.compile(r"^([a-h][1-8][a-h][1-8][qrbn]?):\s*(\d+)$")
NODES_LINE = re.compile(r"^Nodes searched:\s*(\d+)$")


class EngineError(Exception):
    """The engine died, hung or broke the protocol."""


class UciEngine:
    """A running UCI engine process; use as a context manager."""

    def __init__(self, path: str, timeout: float = 60.0, args: Sequence[str] = ()):
        """Start the engine at `path` with `args`; `timeout` is the default wait in seconds."""
        self.path = path
        self.timeout = timeout
        try:
            self.proc = subprocess.Popen(
                [path, *args],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise EngineError(f"cannot start engine {path!r}: {exc}") from exc
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        threading.Thread(target=self._pump_stdout, daemon=True).start()
        threading.Thread(target=self._pump_stderr, daemon=True).start()

    def _pump_stdout(self) -> None:
        """Move stdout lines into the queue; None marks end of file."""
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)

    def _pump_stderr(self) -> None:
        """Keep the last lines of stderr for error reports."""
        for line in self.proc.stderr:
            self._stderr_tail.append(line.rstrip("\r\n"))

    def _died(self, waiting_for: str) -> EngineError:
        """Build the error for an engine that closed its output."""
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = "still running"
        msg = f"engine {self.path!r} closed its output while waiting for {waiting_for} (exit status {code})"
        if self._stderr_tail:
            msg += "\nlast stderr lines:\n  " + "\n  ".join(self._stderr_tail)
        return EngineError(msg)

    def send(self, command: str) -> None:
        """Send one command line."""
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died(f"the engine to accept {command!r}") from None

    def read_line(self, deadline: float, waiting_for: str) -> str:
        """Return the next output line, or raise EngineError at EOF or after `deadline` (perf_counter)."""
        remaining = deadline - time.perf_counter()
        try:
            line = self._lines.get(timeout=max(remaining, 0.0))
        except queue.Empty:
            raise EngineError(f"engine {self.path!r} timed out waiting for {waiting_for}") from None
        if line is None:
            self._lines.put(None)  # keep reporting EOF on later reads
            raise self._died(waiting_for)
        return line

    def wait_for(self, token: str, timeout: float | None = None) -> None:
        """Read lines until one equals `token` (e.g. 'uciok', 'readyok')."""
        deadline = time.perf_counter() + (self.timeout if timeout is None else timeout)
        while self.read_line(deadline, repr(token)).strip() != token:
            pass

    def handshake(self) -> None:
        """Do the 'uci' / 'isready' exchange."""
        self.send("uci")
        self.wait_for("uciok")
        self.send("isready")
        self.wait_for("readyok")

    def read_perft(self, timeout: float | None = None) -> tuple[dict[str, int], int]:
        """Read a 'go perft' answer: ({move: count}, total). Unknown lines are ignored."""
        deadline = time.perf_counter() + (self.timeout if timeout is None else timeout)
        divide: dict[str, int] = {}
        while True:
            line = self.read_line(deadline, "'Nodes searched'").strip()
            if m := NODES_LINE.match(line):
                return divide, int(m.group(1))
            if m := DIVIDE_LINE.match(line):
                if m.group(1) in divide:
                    raise EngineError(f"engine printed move {m.group(1)} twice in one perft divide")
                divide[m.group(1)] = int(m.group(2))

    def perft(self, fen: str, depth: int, timeout: float | None = None) -> tuple[dict[str, int], int]:
        """Run 'go perft depth' on `fen` and return ({move: count}, total)."""
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        return self.read_perft(timeout)

    def close(self) -> None:
        """Ask the engine to quit; kill it if it does not."""
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.stdin.close()
            except (BrokenPipeError, OSError, ValueError):
                pass
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self) -> UciEngine:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
