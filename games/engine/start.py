"""A new or replayed position of any game the server hosts (a ``Position``): the Pente
family's ``Game`` or ``GoGame``, chosen by the variant's family."""

from __future__ import annotations

from collections.abc import Iterable

from .errors import BadOptions
from .game import Game
from .go import KOMI, GoGame
from .position import Position
from .variants import Variant, get_variant


def new_game(
    variant: str | Variant,
    *,
    seats: int = 2,
    partners: bool = False,
    tournament_rule: bool | None = None,
    rated: bool = False,
    adjacent_only: bool = False,
    komi: float | None = None,
) -> Position:
    """The starting position of ``variant`` with these options (``BadOptions`` when the game
    does not have them: Go is two players, without partners, tournament rule or adjacent-only;
    ``komi``, white's, is Go's alone: ``KOMI`` when None)."""
    v = get_variant(variant)
    if v.family == "go":
        if seats != 2 or partners:
            raise BadOptions(f"{v.name} is a game for two players.")
        if tournament_rule or adjacent_only:
            raise BadOptions(f"{v.name} has no tournament rule and no adjacent-only option.")
        return GoGame(v.size, komi=KOMI if komi is None else komi)
    if komi is not None:
        raise BadOptions(f"{v.name} has no komi.")
    return Game(
        v,
        seats=seats,
        partners=partners,
        tournament_rule=tournament_rule,
        rated=rated,
        adjacent_only=adjacent_only,
    )


def replay_game(variant: str | Variant, actions: Iterable[int | str], **options) -> Position:
    """``new_game(variant, **options)`` with ``actions`` replayed (as each game's ``replay``)."""
    v = get_variant(variant)
    if v.family == "go":
        start = new_game(v, **options)  # the same refusals
        return GoGame.replay(actions, size=v.size, komi=start.komi)
    return Game.replay(v, actions, **options)
