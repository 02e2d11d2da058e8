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

    A record is a block of header lines followed by move text::

        [Game "Pente"]
        [Site "Pente.org"]
        [Event "Turn-based Game"]
        [Round "-"]
        [Section "-"]
        [Date "01/19/2014"]
        [Time "21:22:25"]
        [TimeControl "5"]
        [Rated "Y"]
        [Player 1 Name "alice"]
        [Player 2 Name "bob"]
        [Player 1 Rating "1650"]
        [Player 2 Rating "1600"]
        [Player 1 Type "Human"]
        [Player 2 Type "Human"]
        [Result "1-0"]

        1. K10 M9 2. N10 M7 3. M8 O7 4. L10 J10 5. M10 O10 6. L9 N7 7. L7 P7 8. Q7 L11
        9. L8 L6 10. K8 J9 11. J11 H12 12. J8 N8 13. H8 1-0

    Several records may follow one another in one file. The conventions, as Pente.org writes them:

    * Header lines are ``[Name "value"]``; names may contain spaces (``Player 1 Name``). The value
      runs from the first to the last double quote, so it needs no escaping. Pente.org writes ``-``
      for an unknown event/round/section/time control and ``?`` for an unknown name, rating or
      result. ``Date`` is ``MM/DD/YYYY`` (``YYYY.MM.DD`` is read too), ``Time`` is ``HH:MM:SS``;
      ``TimeControl`` is ``initial`` or ``initial+increment`` (minutes, seconds) for live games and
      the days per move for turn-based ones; ``Rated`` is ``Y`` or ``N``.
    * ``Game`` is the game's name exactly as Pente.org writes it ("Pente", "Keryo-Pente", "D-Pente",
      "Connect6", ...). Pente.org's ``Speed `` / ``Turn-based `` prefixes ("Speed Pente") are read
      as the plain game.
    * Move text: a move number ``N.`` before every other stone, the stones as point names (``K10``;
      the integer form ``180`` is read too), then a result token (``1-0``, ``0-1``, ``1/2-1/2``,
      ``*`` for a game in progress, ``?`` unknown). Lines are wrapped before 80 characters. Every
      stone placed is written, including the automatic centre stone (the first move of the text)
      and stones later captured. In Connect6 every stone is its own token (a turn's two stones are
      two tokens). Move numbers are decoration: the reader ignores them.
    * ``Resign`` / ``Forfeit`` may end the move text. **Decision:** such a token stands in the slot
      of the side to move at that point: that side resigned (or forfeited), and the game is over
      with the other side the winner. A resignation made out of turn cannot be written this way;
      ``record_from_game`` then writes no token: the ``Result`` header says who won (and this
      server's exports ``[End Reason "resign"]`` how), which ``record_outcome`` keeps. With more
      than two sides a Resign token is refused (``BadRecord`` ``resign_multiplayer``).
    * "Player 1" in a record is the side that plays colour 1 (moves first): ``Player 1 Name`` plays
      the first colour's stones, ``Result "1-0"`` means that side won, and the replay summary's
      ``winner`` and ``captures`` are by colour.

    **Opening decisions** are not tokens of the move text (the stones' colours alternate 1, 2, 1,
    2, ... whatever is decided, so the text is the same); they go in headers:

    * D-Pente / DK-Pente: Pente.org's ``[Player's Swapped? "Yes"]`` (player 2 took player 1's seat
      after the four opening stones) or ``"No"`` (kept). We write ``"-"`` while the choice has not
      been made. Since the seats swapped, ``Player 1 Name`` names whoever ended up with colour 1.
    * Swap2-Pente / Swap2-Keryo (not Pente.org games): ``[Swap2 "swap"]``, ``"keep"``,
      ``"place_two"`` (colour choice still pending), ``"place_two colour1"`` or
      ``"place_two colour2"``: the engine's decision words in order.

    A decision is applied when the replay reaches it (also after the last stone, so a D-Pente record
    of exactly four stones with ``Yes`` replays the swap); a decision the stones never reach is
    ignored.

    **Extensions** for games Pente.org's records cannot describe, written only when they differ from
    the default: ``[Players "4"]`` (seats, default 2), ``[Partners "Y"]``, ``[Tournament Rule
    "Y"|"N"]`` (default: on when ``Rated "Y"`` for the games that have it, always for G-Pente),
    ``[Adjacent Only "Y"]``, and ``Player N Name/Rating/Type`` for seats 3..6. A record without a
    ``Rated`` header is read as unrated. With three or more sides the result is written ``0-1-0``
    (one number per colour; a draw ``1/2-1/2-1/2``). Where the moves do not show how a game ended,
    ``[End Reason "timeout"]`` says it (``resign``, ``timeout``, ``forfeit``, ``score``) and, for a
    win on a count they do not reach, Go's ``[Margin "5.5"]`` (see ``result``).

    **Go** records (``Game`` ``"Go"``, ``"Go (13x13)"`` or ``"Go (9x9)"``; see ``replay``) have the
    same headers and move text, plus:

    * ``PASS`` tokens (read in any case; a ``bad_token`` in the other games' records);
    * ``[Dead "C3 D4"]``: the stones agreed dead when the game ended with two passes (none without
      the header), by point, top row first, as ``record_from_game`` writes them;
    * ``[Rejected Dead "B5; -; C3 D4"]``: the stones proposed dead in each marking turned down (play
      went on), in order, ``;`` between markings and ``-`` for a marking of no stone (none proposed
      without the header); written when a marking was turned down;
    * ``[Komi "6.5"]``: white's komi, written only when it is not 7.5.

    A Go record that ends with two passes is counted; one that ends with ``Resign`` / ``Forfeit`` is
    resigned as above; any other is in progress.

    Replaying (``replay_record``, and ``game_from_record`` / ``replay_summary`` built on it) plays
    every stone through the engine with the game's rules; a rated record is played with the
    tournament rule. The replay's outcome is the moves' alone. **Decision** (``result``): the result
    an archive keeps of a record is the moves' when they end the game, and a ``Result`` header that
    contradicts them refuses the record (``result_contradicts_board``); when the moves end before
    the game does (a resignation, a loss on time: most of a club player's records), it is the
    ``Result`` header's, ended the way this server's ``[End Reason "..."]`` header says, else
    ``recorded`` (``record_outcome``).
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
