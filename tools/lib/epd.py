"""Reading EPD and FEN lines: the position plus its EPD operations.

A line is either a plain FEN (six fields), an EPD record (four FEN fields and
then operations such as `bm Qg6; id "WAC.001";`) or a full FEN followed by
operations (`<fen> bm Qh7#; dm 1; id "mate.001";`, the form tests/data/mates.epd
uses). The move operations `bm`, `am` and `pv` are given in SAN and come back as
python-chess moves; `dm` comes back as an int. Empty lines and lines starting
with '#' are skipped by `read_epd_file`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import chess

# Four FEN fields, optionally the two move counters, then the operations.
EPD_LINE = re.compile(r"^\s*(\S+)\s+([wb])\s+(\S+)\s+(\S+)(?:\s+(\d+)\s+(\d+)(?=\s|$))?(.*)$")


class EpdError(ValueError):
    """A line that is not a valid FEN or EPD record."""


@dataclass
class EpdRecord:
    """One position of an EPD file and its operations."""

    board: chess.Board
    ops: dict[str, object] = field(default_factory=dict)
    line_no: int = 0

    @property
    def id(self) -> str:
        """The `id` operation, or "line N" when there is none."""
        value = self.ops.get("id")
        return str(value) if value is not None else f"line {self.line_no}"

    @property
    def bm(self) -> list[chess.Move]:
        """Best moves (`bm`), empty if none are given."""
        return list(self.ops.get("bm") or [])

    @property
    def am(self) -> list[chess.Move]:
        """Moves to avoid (`am`), empty if none are given."""
        return list(self.ops.get("am") or [])

    @property
    def dm(self) -> int | None:
        """Direct mate in N moves (`dm`), or None."""
        value = self.ops.get("dm")
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise EpdError(f"{self.id}: dm must be a positive integer, got {value!r}")
        return value

    def fen(self) -> str:
        """The position as a full FEN."""
        return self.board.fen()


def parse_epd_line(line: str, line_no: int = 0) -> EpdRecord:
    """Parse one FEN or EPD line; raises EpdError with the reason when it is invalid."""
    match = EPD_LINE.match(line)
    if not match:
        raise EpdError(f"line {line_no}: not a FEN or EPD record: {line.strip()!r}")
    placement, turn, castling, ep, halfmove, fullmove, rest = match.groups()
    epd = f"{placement} {turn} {castling} {ep} {rest.strip()}".strip()
    try:
        board, ops = chess.Board.from_epd(epd)
    except ValueError as exc:
        raise EpdError(f"line {line_no}: {exc}: {line.strip()!r}") from None
    if halfmove is not None:
        board.halfmove_clock = int(halfmove)
        board.fullmove_number = max(1, int(fullmove))
    status = board.status()
    if status != chess.STATUS_VALID:
        raise EpdError(f"line {line_no}: illegal position ({status!r}): {line.strip()!r}")
    return EpdRecord(board, dict(ops), line_no)


def read_epd_file(path: str | Path) -> list[EpdRecord]:
    """All records of an EPD/FEN file, skipping blank lines and '#' comments."""
    records = []
    with open(path, encoding="utf-8") as handle:
        for line_no, line in enumerate(handle, 1):
            if line.strip() and not line.lstrip().startswith("#"):
                records.append(parse_epd_line(line, line_no))
    return records


def format_san_list(board: chess.Board, moves: list[chess.Move]) -> str:
    """Moves in SAN, space separated, in the order given."""
    return " ".join(board.san(m) for m in moves)
