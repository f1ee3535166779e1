"""Engine specs and starting engines with python-chess, for UCI and XBoard engines.

An engine spec is a list of `key=value` settings, written as one shell-quoted
string or as separate words:

    cmd=target/release/minnow name=minnow proto=uci option.Hash=1
    cmd="gnuchess --uci" option.OwnBook=false
    cmd=fairymax proto=xboard memory=1
    'cmd=/usr/games/stockfish' 'option.Skill Level=0'

Keys: `cmd` (the command, itself shell-quoted; required), `name` (label in
results and PGN; default the program's file name), `proto` (`uci`, the default,
or `xboard`), `option.NAME=VALUE` (any engine option, set with configure()),
`memory=MB` (XBoard `memory` command; for UCI engines the `Hash` option unless
option.Hash is given), `cores=N` (XBoard `cores`; for UCI engines `Threads`;
default 1 whenever the engine has such a setting), `dir=PATH` (working
directory) and `nodes=N` (this engine's node limit a move in tools/match.py, in
place of the match's `--nodes`: an engine against itself with twice the nodes).
A word without a known key is appended to the command, so `cmd=gnuchess --uci`
also works when the spec was split on spaces. Programs are looked up on PATH and
then in /usr/games, where Debian installs its engines.

XBoard engines that do not declare `setboard` (Fairy-Max: `feature setboard=0`)
get their positions through the protocol's `edit` mode instead: the board is
cleared and the pieces placed one by one. Edit mode cannot say that castling
rights were lost while king and rook stand on their start squares, nor give an
en passant square or the move counters; for ordinary openings this rarely
matters.
"""

from __future__ import annotations

import logging
import re
import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.engine

PROTOCOLS = ("uci", "xboard")
SETTING_KEYS = ("cmd", "name", "proto", "memory", "cores", "dir", "nodes")


class SpecError(ValueError):
    """An engine spec that cannot be understood."""


@dataclass
class EngineSpec:
    """How to start and configure one engine."""

    argv: list[str]
    name: str
    proto: str = "uci"
    options: dict[str, str] = field(default_factory=dict)
    memory: int | None = None
    cores: int = 1
    workdir: str | None = None
    nodes: int | None = None  # this engine's node limit a move, in place of the match's --nodes

    def describe(self) -> str:
        """One line saying how the engine is run."""
        parts = [shlex.join(self.argv), f"proto={self.proto}"]
        parts += [f"{k}={v}" for k, v in self.options.items()]
        if self.memory is not None:
            parts.append(f"memory={self.memory}")
        parts.append(f"cores={self.cores}")
        if self.nodes is not None:
            parts.append(f"nodes={self.nodes}")
        return " ".join(parts)


def resolve_program(name: str) -> str | None:
    """A command name found on PATH or in /usr/games; a name with a '/' must be an existing file."""
    if "/" in name:
        return name if Path(name).is_file() else None
    return shutil.which(name) or shutil.which(name, path="/usr/games")


def _positive_int(key: str, value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise SpecError(f"{key} must be an integer, got {value!r}") from None
    if number < 1:
        raise SpecError(f"{key} must be at least 1, got {number}")
    return number


def parse_engine_spec(spec: str | Sequence[str]) -> EngineSpec:
    """Parse an engine spec (one string, or a list of already split words)."""
    if isinstance(spec, str):
        words = shlex.split(spec)
    elif len(spec) == 1:
        words = shlex.split(spec[0])  # one quoted argument holding the whole spec
    else:
        words = list(spec)  # already split by the shell: keep each word whole
    argv: list[str] = []
    settings: dict[str, str] = {}
    options: dict[str, str] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if sep and key.startswith("option.") and len(key) > len("option."):
            options[key[len("option.") :]] = value
        elif sep and key in SETTING_KEYS:
            if key in settings:
                raise SpecError(f"{key}= given twice in engine spec {spec!r}")
            settings[key] = value
            if key == "cmd":
                argv = shlex.split(value)
        elif "cmd" in settings:
            argv.append(word)  # an argument of the command, split off by the shell
        else:
            raise SpecError(f"unknown setting {word!r} in engine spec {spec!r} (keys: {', '.join(SETTING_KEYS)}, option.NAME)")
    if not argv:
        raise SpecError(f"engine spec {spec!r} has no cmd=")
    proto = settings.get("proto", "uci").lower()
    if proto not in PROTOCOLS:
        raise SpecError(f"proto must be one of {', '.join(PROTOCOLS)}, got {proto!r}")
    program = resolve_program(argv[0])
    if program is None:
        raise SpecError(f"engine program {argv[0]!r} not found (looked on PATH and in /usr/games)")
    argv[0] = program
    memory = _positive_int("memory", settings["memory"]) if "memory" in settings else None
    cores = _positive_int("cores", settings["cores"]) if "cores" in settings else 1
    name = settings.get("name") or Path(program).name
    nodes = _positive_int("nodes", settings["nodes"]) if "nodes" in settings else None
    return EngineSpec(argv, name, proto, options, memory, cores, settings.get("dir"), nodes)


def _edit_mode_commands(fen: str) -> list[str]:
    """XBoard commands that set up `fen` with `edit`, sent right after `new` and `force`."""
    board = chess.Board(fen)
    commands = []
    if board.turn == chess.BLACK:
        commands.append("a2a3")  # the protocol's way to get black to move before editing
    commands += ["edit", "#"]
    for color in (chess.WHITE, chess.BLACK):
        if color == chess.BLACK:
            commands.append("c")
        for square, piece in board.piece_map().items():
            if piece.color == color:
                commands.append(piece.symbol().upper() + chess.square_name(square))
    commands.append(".")
    return commands


class EditModeXBoardProtocol(chess.engine.XBoardProtocol):
    """XBoard protocol that sets positions with `edit` for engines that declare setboard=0.

    python-chess refuses such engines; this class lets them through by reading
    their `setboard=0` as supported and turning each `setboard` it would send
    into the edit-mode command sequence. Engines that support setboard are
    driven exactly as by the plain XBoardProtocol.
    """

    def __init__(self) -> None:
        super().__init__()
        self.uses_edit_mode = False

    def _line_received(self, line: str) -> None:
        if not self.initialized and line.startswith("feature") and re.search(r"(^|\s)setboard=0(\s|$)", line):
            self.uses_edit_mode = True
            line = re.sub(r"(^|\s)setboard=0(?=\s|$)", r"\1setboard=1", line)
        super()._line_received(line)

    def send_line(self, line: str) -> None:
        if self.uses_edit_mode and line.startswith("setboard "):
            for command in _edit_mode_commands(line[len("setboard ") :]):
                super().send_line(command)
        else:
            super().send_line(line)


def quiet_engine_logs(level: int = logging.ERROR) -> None:
    """Hide python-chess's warnings about unexpected engine output and stderr lines."""
    logging.getLogger("chess.engine").setLevel(level)


def open_engine(spec: EngineSpec, timeout: float = 10.0) -> chess.engine.SimpleEngine:
    """Start the engine, do the protocol handshake and apply the spec's settings.

    Raises chess.engine.EngineError (or OSError) when the engine cannot be
    started or rejects a setting; the process is closed in that case.
    """
    protocol = chess.engine.UciProtocol if spec.proto == "uci" else EditModeXBoardProtocol
    engine = chess.engine.SimpleEngine.popen(protocol, spec.argv, timeout=timeout, cwd=spec.workdir)
    try:
        engine.configure(engine_settings(spec, engine.options))
    except BaseException:
        engine.close()
        raise
    return engine


def engine_settings(spec: EngineSpec, available: chess.engine.Options | dict) -> dict[str, object]:
    """The configure() mapping for a spec, given the engine's declared options."""
    names = {name.lower(): name for name in available}
    settings: dict[str, object] = {}
    if spec.proto == "uci":
        if "threads" in names:
            settings[names["threads"]] = spec.cores
        if spec.memory is not None and "hash" in names:
            settings[names["hash"]] = spec.memory
    else:
        if spec.memory is not None:
            if "memory" not in names:
                raise chess.engine.EngineError(f"{spec.name} does not accept the xboard memory command (no feature memory=1)")
            settings["memory"] = spec.memory
        if "cores" in names:
            settings["cores"] = spec.cores
        elif spec.cores != 1:
            raise chess.engine.EngineError(f"{spec.name} does not accept the xboard cores command (no feature smp=1)")
    for name, value in spec.options.items():
        if name.lower() not in names:
            known = ", ".join(sorted(available)) or "none"
            raise chess.engine.EngineError(f"{spec.name} has no option {name!r} (options: {known})")
        settings[names[name.lower()]] = value
    return settings
