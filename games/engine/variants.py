"""The games of the Pente family the engine plays, as immutable descriptions.

Names are written exactly as Pente.org writes them; slugs are the lower-case URL form.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UnknownGame

# Player 1's forbidden second stones in G-Pente (on top of the tournament rule):
# K6, K7, K13, K14, F10, G10, N10, O10 as integer points on 19x19.
_G_POINTS_19 = (
    9 + 19 * 13,  # K6
    9 + 19 * 12,  # K7
    9 + 19 * 6,  # K13
    9 + 19 * 5,  # K14
    5 + 19 * 9,  # F10
    6 + 19 * 9,  # G10
    12 + 19 * 9,  # N10
    13 + 19 * 9,  # O10
)


@dataclass(frozen=True, slots=True)
class Variant:
    """How one game of the family is played.

    - ``capture_lengths``: lengths of opponent runs a bracket captures (``()`` = no captures).
    - ``capture_target``: captured stones that win (``None`` when there are no captures).
    - ``line_length`` / ``exact_line``: stones in a row that win; ``exact_line`` means exactly
      that many (Gomoku), otherwise that many or more.
    - ``opening``: ``"centre"`` (server places player 1's first stone on the centre), ``"d"``
      (D opening), ``"swap2"`` or ``"connect6"`` (centre stone, then two stones a turn).
    - ``poof``: playing into a bracket poofs the mover's own run.
    - ``boat``: a five wins only if the opponent's reply cannot capture across it.
    - ``tournament_rule_when_rated``: the tournament rule is on by default in rated games and
      may be chosen for unrated ones.
    - ``tournament_rule_always``: the tournament rule always applies (G-Pente).
    - ``g_points``: player 1's forbidden second stones (19x19 integer points).
    - ``set_size``: games in a rated set (2, or 1 for Swap2 games and Go).
    - ``family``: ``"pente"`` (played by ``game.Game``) or ``"go"`` (``go.GoGame``).
    - ``size``: the board's side (19; Go also 13 and 9).
    """

    name: str
    slug: str
    capture_lengths: tuple[int, ...] = (2,)
    capture_target: int | None = 10
    line_length: int = 5
    exact_line: bool = False
    opening: str = "centre"
    poof: bool = False
    boat: bool = False
    tournament_rule_when_rated: bool = False
    tournament_rule_always: bool = False
    g_points: tuple[int, ...] = ()
    set_size: int = 2
    family: str = "pente"
    size: int = 19

    @property
    def captures(self) -> bool:
        return bool(self.capture_lengths)

    @property
    def tournament_rule_allowed(self) -> bool:
        """Whether the tournament rule can apply at all (chosen, by default or always)."""
        return self.tournament_rule_when_rated or self.tournament_rule_always

    @property
    def starts_with_centre(self) -> bool:
        """Whether the engine places player 1's first stone itself (the centre stone): every
        Pente-family game but those opening with D's or Swap2's protocol; not Go."""
        return self.family == "pente" and self.opening in ("centre", "connect6")

    # Hooks: what callers ask of a game, each answered here from its family, so that no caller
    # outside the engine asks which family it holds.

    @property
    def scored_by_area(self) -> bool:
        """Whether the game ends by two passes, marking the dead stones and an area count (Go):
        it has passes, a komi and a final score; captured stones decide nothing, so any number
        up to the board's points may be taken. Otherwise a line or captures win."""
        return self.family == "go"

    @property
    def table_options(self) -> bool:
        """Whether a game takes the table's options (3 to 6 seats, partners, the tournament
        rule, adjacent-only): the Pente family; Go is always two players without them."""
        return self.family == "pente"

    @property
    def positions_recur(self) -> bool:
        """Whether one game may reach the same stones more than once: in Go, passes and a
        rejected marking leave the stones as they were (in the Pente family every move adds a
        stone or a capture, so a game never comes back to a position)."""
        return self.family == "go"

    @property
    def black_first(self) -> bool:
        """Whether colour 1 (who moves first) is black, as in Go; in the Pente family colour 1
        is white and 2 black, as on Pente.org."""
        return self.family == "go"

    @property
    def writes_sgf(self) -> bool:
        """Whether the game's records are also written as SGF (Go's record format)."""
        return self.family == "go"

    def __str__(self) -> str:
        return self.name


_ALL = (
    Variant("Pente", "pente", tournament_rule_when_rated=True),
    Variant(
        "Keryo-Pente",
        "keryo-pente",
        capture_lengths=(2, 3),
        capture_target=15,
        tournament_rule_when_rated=True,
    ),
    Variant("Gomoku", "gomoku", capture_lengths=(), capture_target=None, exact_line=True),
    Variant(
        "G-Pente",
        "g-pente",
        tournament_rule_when_rated=True,
        tournament_rule_always=True,
        g_points=_G_POINTS_19,
    ),
    Variant("D-Pente", "d-pente", opening="d"),
    Variant("DK-Pente", "dk-pente", capture_lengths=(2, 3), capture_target=15, opening="d"),
    Variant("Poof-Pente", "poof-pente", poof=True, tournament_rule_when_rated=True),
    Variant("Boat-Pente", "boat-pente", boat=True, tournament_rule_when_rated=True),
    Variant(
        "O-Pente",
        "o-pente",
        capture_lengths=(2, 3),
        capture_target=15,
        poof=True,
        boat=True,
        tournament_rule_when_rated=True,
    ),
    Variant("Swap2-Pente", "swap2-pente", opening="swap2", set_size=1),
    Variant(
        "Swap2-Keryo",
        "swap2-keryo",
        capture_lengths=(2, 3),
        capture_target=15,
        opening="swap2",
        set_size=1,
    ),
    Variant(
        "Connect6",
        "connect6",
        capture_lengths=(),
        capture_target=None,
        line_length=6,
        opening="connect6",
    ),
)

#: Go on its three boards: no captures to win, no line, no opening; sets of one game.
_GO = tuple(
    Variant(
        name,
        slug,
        capture_lengths=(),
        capture_target=None,
        line_length=0,
        opening="",
        set_size=1,
        family="go",
        size=size,
    )
    for name, slug, size in (("Go", "go", 19), ("Go (13x13)", "go-13", 13), ("Go (9x9)", "go-9", 9))
)

#: The Pente family (every game ``game.Game`` plays).
VARIANTS: dict[str, Variant] = {v.name: v for v in _ALL}
#: Go's boards (``go.GoGame``).
GO_VARIANTS: dict[str, Variant] = {v.name: v for v in _GO}
#: Every game the server hosts, by name.
GAMES: dict[str, Variant] = {**VARIANTS, **GO_VARIANTS}
_BY_KEY: dict[str, Variant] = {}
for _v in (*_ALL, *_GO):
    _BY_KEY[_v.name.lower()] = _v
    _BY_KEY[_v.slug] = _v
del _v


def get_variant(name_or_slug: str | Variant) -> Variant:
    """Look a game up by its name ("Keryo-Pente") or slug ("keryo-pente"), case-insensitively."""
    if isinstance(name_or_slug, Variant):
        return name_or_slug
    if isinstance(name_or_slug, str):
        found = _BY_KEY.get(name_or_slug.strip().lower())
        if found is not None:
            return found
    known = ", ".join(GAMES)
    raise UnknownGame(f"Unknown game {name_or_slug!r}; the engine plays {known}")
