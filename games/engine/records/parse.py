"""Reading records: Pente.org's header lines and move text (see ``model.Record``)."""

from __future__ import annotations

import re

from ..errors import BadRecord
from .model import ENDINGS, PASS, Record

_HEADER_RE = re.compile(r'^\[\s*([^"\[\]]*?)\s*"(.*)"\s*\]$')
_NUMBER_RE = re.compile(r"^(\d+)\.+(.*)$")
_STONE_RE = re.compile(r"^(?:[A-Za-z]\d{1,2}|\d{1,3})$")
_RESULT_PART = r"(?:\d+|1/2)"
_RESULT_RE = re.compile(rf"^(?:{_RESULT_PART}(?:-{_RESULT_PART})+|\*|\?)$")


def parse_records(text: str) -> list[Record]:
    """Read every record in ``text``. Raises ``BadRecord(code, detail, line)`` on malformed text.

    Codes: ``bad_header``, ``duplicate_header``, ``bad_token``, ``moves_after_result``,
    ``moves_after_end``. ``PASS`` (any case, written ``PASS``) is a move of Go records only (their
    ``Game`` header names Go); in the other games' records it is a ``bad_token``.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    records: list[Record] = []
    builder: _Builder | None = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            if builder is not None and builder.headers:
                builder.closed = True
            continue
        if line.startswith("%") or line.startswith(";"):
            continue
        if line.startswith("["):
            if builder is not None and (builder.in_moves or builder.closed):
                records.append(builder.build())
                builder = None
            if builder is None:
                builder = _Builder(lineno)
            builder.add_header(line, lineno)
        else:
            if builder is None:
                builder = _Builder(lineno)
            builder.add_move_line(line, lineno)
    if builder is not None:
        records.append(builder.build())
    return records


def parse_record(text: str) -> Record:
    """Read exactly one record."""
    records = parse_records(text)
    if len(records) != 1:
        raise BadRecord("not_one_record", f"Expected one record, found {len(records)}.", None)
    return records[0]


class _Builder:
    def __init__(self, line: int) -> None:
        self.line = line
        self.headers: list[tuple[str, str]] = []
        self.names: set[str] = set()
        self.moves: list[str] = []
        self.result: str | None = None
        self.in_moves = False
        self.closed = False
        self.passes = False  # whether PASS is a move: the headers name a game of Go

    def add_header(self, line: str, lineno: int) -> None:
        match = _HEADER_RE.match(line)
        if match is None or not match.group(1):
            raise BadRecord(
                "bad_header", f'Malformed header {line[:60]!r}; expected [Name "value"].', lineno
            )
        name, value = match.group(1), match.group(2)
        if name in self.names:
            raise BadRecord("duplicate_header", f"Header {name!r} appears twice.", lineno)
        self.names.add(name)
        self.headers.append((name, value.strip()))

    def add_move_line(self, line: str, lineno: int) -> None:
        if not self.in_moves:
            self.passes = Record(headers=tuple(self.headers)).go_size is not None
        self.in_moves = True
        for token in _tokens(line, lineno):
            self._add_token(token, lineno)

    def _add_token(self, token: str, lineno: int) -> None:
        number = _NUMBER_RE.match(token)
        if number is not None:
            token = number.group(2)
            if not token:
                return
        if self.result is not None:
            raise BadRecord(
                "moves_after_result",
                f"{token!r} follows the result {self.result!r}; a record ends with its result.",
                lineno,
            )
        if _RESULT_RE.match(token):
            self.result = token
            return
        ending = _ending(token)
        if self.moves and self.moves[-1] in ENDINGS:
            raise BadRecord(
                "moves_after_end", f"{token!r} follows {self.moves[-1]}; the game was over.", lineno
            )
        if ending is not None:
            self.moves.append(ending)
        elif _STONE_RE.match(token):
            self.moves.append(token)
        elif self.passes and token.upper() == PASS:
            self.moves.append(PASS)
        else:
            move = "e.g. K10, or PASS" if self.passes else "e.g. K10"
            raise BadRecord(
                "bad_token",
                f"{token!r} is not a move ({move}), a move number (e.g. 12.), "
                "Resign, Forfeit or a result (1-0, 0-1, 1/2-1/2, *).",
                lineno,
            )

    def build(self) -> Record:
        return Record(
            headers=tuple(self.headers),
            moves=tuple(self.moves),
            result=self.result,
            line=self.line,
        )


def _ending(token: str) -> str | None:
    for ending in ENDINGS:
        if token.lower() == ending.lower():
            return ending
    return None


def _tokens(line: str, lineno: int) -> list[str]:
    """Split a move-text line into tokens, dropping ``{comments}`` (each one a separator)."""
    if "{" not in line:
        return line.replace(",", " ").split()
    out: list[str] = []
    depth_start = None
    buf = []
    for i, ch in enumerate(line):
        if depth_start is not None:
            if ch == "}":
                depth_start = None
                buf.append(" ")  # a comment separates what stands on either side of it
            continue
        if ch == "{":
            depth_start = i
            continue
        buf.append(ch)
    if depth_start is not None:
        raise BadRecord("bad_token", "A comment opened with { is not closed on its line.", lineno)
    out.extend("".join(buf).replace(",", " ").split())
    return out
