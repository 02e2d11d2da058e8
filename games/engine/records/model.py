"""A game record as a value: ordered headers, move tokens, result; the header names."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..go import PASS as PASS  # Go's pass, a move token of Go records only

STANDARD_HEADERS: tuple[str, ...] = (
    "Game",
    "Site",
    "Event",
    "Round",
    "Section",
    "Date",
    "Time",
    "TimeControl",
    "Rated",
    "Player 1 Name",
    "Player 2 Name",
    "Player 1 Rating",
    "Player 2 Rating",
    "Player 1 Type",
    "Player 2 Type",
    "Result",
)
SWAPPED_HEADER = "Player's Swapped?"
SWAP2_HEADER = "Swap2"
SEATS_HEADER = "Players"
PARTNERS_HEADER = "Partners"
TOURNAMENT_RULE_HEADER = "Tournament Rule"
ADJACENT_HEADER = "Adjacent Only"
DEAD_HEADER = "Dead"  # Go: the stones agreed dead at the count ("C3 D4")
#: Go: the stones proposed dead in each marking turned down, in order ("B5; -; C3 D4")
REJECTED_HEADER = "Rejected Dead"
REJECTED_SEPARATOR = ";"
NONE_PROPOSED = "-"  # a marking of no stone, in ``REJECTED_HEADER``
KOMI_HEADER = "Komi"  # Go: white's komi, written only when it is not the engine's 7.5
#: How a game ended, where its moves do not show it (``result``): ``timeout``, ``resign``...
END_REASON_HEADER = "End Reason"
MARGIN_HEADER = "Margin"  # Go: the margin of a win on a count the moves do not reach

RESIGN = "Resign"
FORFEIT = "Forfeit"
ENDINGS = (RESIGN, FORFEIT)
IN_PROGRESS = "*"
UNKNOWN_RESULT = "?"

_GAME_PREFIXES = ("Speed ", "Turn-based ")
D_OPENING_GAMES = ("D-Pente", "DK-Pente")
SWAP2_GAMES = ("Swap2-Pente", "Swap2-Keryo")
# Go's names in records, by board size; any other name is a game of the Pente family.
GO_GAMES: dict[str, int] = {"Go": 19, "Go (13x13)": 13, "Go (9x9)": 9}
GO_NAMES: dict[int, str] = {size: name for name, size in GO_GAMES.items()}
_YES = ("Y", "YES", "TRUE", "1")
_NO = ("N", "NO", "FALSE", "0")


# --------------------------------------------------------------------------- value type


@dataclass(frozen=True)
class Record:
    """One game record: ordered headers, the move-text tokens, and the trailing result token.

    ``moves`` holds stones as written (``"K10"``, ``"180"``), ``"PASS"`` in Go, and at most one
    final ``"Resign"`` or ``"Forfeit"``; ``result`` is the result token that ends the move text,
    if any. ``line`` is where the record started in the text it was read from (not compared).
    """

    headers: tuple[tuple[str, str], ...] = ()
    moves: tuple[str, ...] = ()
    result: str | None = None
    line: int = field(default=1, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "headers", tuple((str(k), str(v)) for k, v in self.headers))
        object.__setattr__(self, "moves", tuple(self.moves))

    # -- headers
    def header(self, name: str, default: str | None = None) -> str | None:
        """The value of header ``name`` (exact name), or ``default``."""
        for key, value in self.headers:
            if key == name:
                return value
        return default

    @property
    def header_dict(self) -> dict[str, str]:
        return dict(self.headers)

    def with_header(self, name: str, value: str | None) -> Record:
        """A copy with ``name`` set (kept in place if present, else appended); None removes it."""
        out: list[tuple[str, str]] = []
        found = False
        for key, old in self.headers:
            if key == name:
                found = True
                if value is not None:
                    out.append((key, value))
            else:
                out.append((key, old))
        if not found and value is not None:
            out.append((name, value))
        return replace(self, headers=tuple(out))

    # -- derived facts
    @property
    def game_name(self) -> str | None:
        """The ``Game`` header without Pente.org's ``Speed ``/``Turn-based `` prefix."""
        name = self.header("Game") or self.header("GameType")
        if name is None:
            return None
        return strip_prefix(name.strip())

    @property
    def rated(self) -> bool:
        return _flag(self.header("Rated")) is True

    @property
    def seats(self) -> int:
        value = self.header(SEATS_HEADER)
        if value is None or not value.strip().isdigit():
            return 4 if self.partners else 2
        return int(value)

    @property
    def partners(self) -> bool:
        return _flag(self.header(PARTNERS_HEADER)) is True

    @property
    def tournament_rule(self) -> bool | None:
        """Explicit ``Tournament Rule`` header, or None (the engine's default for ``rated``)."""
        return _flag(self.header(TOURNAMENT_RULE_HEADER))

    @property
    def adjacent_only(self) -> bool:
        return _flag(self.header(ADJACENT_HEADER)) is True

    @property
    def go_size(self) -> int | None:
        """The board size of a Go record (``GO_GAMES``); None for the Pente family."""
        return GO_GAMES.get(self.game_name or "")

    @property
    def dead(self) -> tuple[str, ...]:
        """The points of the ``Dead`` header as written (Go: the stones agreed dead)."""
        return tuple((self.header(DEAD_HEADER) or "").replace(",", " ").split())

    @property
    def rejected(self) -> tuple[tuple[str, ...], ...]:
        """The points of the ``Rejected Dead`` header as written, one tuple per marking turned
        down, in order (``()``: a marking of no stone)."""
        value = self.header(REJECTED_HEADER)
        if value is None:
            return ()
        groups = (group.replace(",", " ").split() for group in value.split(REJECTED_SEPARATOR))
        return tuple(() if group == [NONE_PROPOSED] else tuple(group) for group in groups)

    @property
    def stones(self) -> tuple[str, ...]:
        """The move tokens: stones and Go's passes (``moves`` without a final Resign/Forfeit)."""
        return tuple(m for m in self.moves if m not in ENDINGS)

    @property
    def ending(self) -> str | None:
        """``"Resign"``, ``"Forfeit"`` or None."""
        if self.moves and self.moves[-1] in ENDINGS:
            return self.moves[-1]
        return None

    @property
    def decisions(self) -> tuple[str, ...]:
        """Opening decisions recorded in the headers, in the engine's words."""
        name = self.game_name
        if name in D_OPENING_GAMES:
            flag = _flag(self.header(SWAPPED_HEADER))
            if flag is None:
                return ()
            return ("swap",) if flag else ("keep",)
        if name in SWAP2_GAMES:
            value = self.header(SWAP2_HEADER)
            if not value or value.strip() in ("-", "?"):
                return ()
            return tuple(value.replace(",", " ").split())
        return ()


def _flag(value: str | None) -> bool | None:
    if value is None:
        return None
    v = value.strip().upper()
    if v in _YES:
        return True
    if v in _NO:
        return False
    return None


def strip_prefix(name: str) -> str:
    for prefix in _GAME_PREFIXES:
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name
