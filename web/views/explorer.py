"""The game database by position: a board to click through an opening, the moves played from
the position with their results, and the games that reached it (the explorer's reads, as
``GET /api/games/explorer`` makes them).

The page's address says it all (``?game=Pente&moves=K10,L11&player=ann&rated=true``), so a
position can be bookmarked and shared. Every legal point of the board is a link to the position
one move further; the moves already seen in stored games carry their number of games. A move
the engine refuses in the address (an edited link) is shown above the board, with the start.

A position may also be given by its stones, as the API takes it (``position=K10,L9/K11``, with
``captures=2,0`` and ``to_move``): the page shows its figures and games on the board those
stones make, whose points link nowhere (no moves lead there). What the API refuses in them (a
capture count no game has, a point off the board) is shown above the board, with the start.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import urlencode

from explorer import selectors
from explorer.query import (
    Stones,
    move_names,
    position_after,
    probe_of,
    probe_of_stones,
    stones_given,
    variant_named,
)
from games.engine import GAMES, GoPhase, Position, point_name
from games.engine.notation import board_rows
from games.engine.variants import Variant
from games.records.pictures import COLOUR_NAMES, GO_COLOUR_NAMES, board_svg
from pente_site.errors import DomainError
from web.views.database import RATED, game_rows

#: Games listed under the position, latest first (``before`` pages on).
PAGE_SIZE = 20
_RATED = {"true": True, "false": False}


def _address(game: str, moves: list[str], filters: dict[str, str]) -> str:
    query = {"game": game, **({"moves": ",".join(moves)} if moves else {}), **filters}
    return "?" + urlencode(query)


#: The address's parameters of a position given by its stones.
STONES_PARAMETERS = ("position", "captures", "to_move")


def _stones(request: HttpRequest, *, variant: Variant, moved: bool) -> tuple[Stones | None, str]:
    """The position the address gives by its stones (None: none given, or refused) and what
    is wrong with it ("" when nothing is)."""
    given = _stones_address(request)
    if "position" not in given:
        return None, ("captures and to_move go with position." if given else "")
    if moved:
        return None, "Give either moves or position, not both."
    to_move = given.get("to_move", "1")
    if not to_move.isdigit():
        return None, "to_move is the colour to play: 1, 2, ..."
    try:
        stones = stones_given(
            variant=variant,
            position=given["position"],
            captures=given.get("captures", ""),
            to_move=int(to_move),
        )
    except DomainError as err:
        return None, err.detail
    return stones, ""


def _stones_address(request: HttpRequest) -> dict[str, str]:
    """The address's parameters of the position given by its stones."""
    return {
        name: request.GET.get(name, "").strip()
        for name in STONES_PARAMETERS
        if request.GET.get(name, "").strip()
    }


def _stones_board(*, variant: Variant, given: Stones) -> str:
    """The picture of a position given by its stones (no links: no moves lead there)."""
    board = [0] * (variant.size * variant.size)
    for point, colour in given.stones.items():
        board[point] = colour
    captures = [*given.captures, 0, 0][: max(2, len(given.captures))]
    return board_svg(
        board_rows(board, variant.size),
        captures=captures,
        go=variant.black_first,
    )


def _position(variant, moves: list[str]):
    """The position after ``moves`` and the moves it took; the start when one is refused
    (with the refusal)."""
    try:
        return position_after(variant=variant, moves=",".join(moves)), moves, None
    except DomainError as err:
        return position_after(variant=variant, moves=""), [], err.detail


def _moves_board(
    *,
    game: str,
    moves: list[str],
    filters: dict[str, str],
    position: Position,
    stats: selectors.PositionStats,
) -> dict[str, Any]:
    """The board of the position after ``moves`` (every legal point a link one move further,
    with the games of the moves seen), the other moves to go on with (decisions, Go's pass),
    and whether Go's marking stopped the games."""
    go = position.marks_dead
    size = position.size
    seen = {m.point: m for m in stats.moves if m.point is not None and m.point >= 0}
    links = {
        p: (
            _address(game, [*moves, point_name(p, size)], filters),
            str(seen[p].games) if p in seen else "",
        )
        for p in position.legal_points()
    }
    board = board_svg(
        position.rows(),
        last_point=position.last_point,
        captures=list(position.captures),
        go=go,
        links=links,
    )
    words = (*position.decisions_available(), *(("pass",) if position.can_pass() else ()))
    return {
        "board": board,
        "others": [{"name": w, "url": _address(game, [*moves, w], filters)} for w in words],
        # After two passes a Go game marks its dead stones, which the explorer does not follow.
        "marking": position.phase is GoPhase.MARKING,
    }


def explorer_page(request: HttpRequest) -> HttpResponse:
    game = request.GET.get("game", "").strip() or "Pente"
    filters = {
        name: request.GET.get(name, "").strip()
        for name in ("player", "rated")
        if request.GET.get(name, "").strip()
    }
    problems: list[str] = []
    try:
        variant = variant_named(game)
        moves = move_names(request.GET.get("moves", ""))
    except DomainError as err:
        problems.append(err.detail)
        variant, moves = variant_named("Pente"), []
    game = variant.name
    given, wrong = _stones(request, variant=variant, moved=bool(moves))
    if wrong:
        problems.append(wrong)
    position = None
    if given is None:
        position, moves, refused = _position(variant, moves)
        if refused:
            problems.append(refused)
        probe = probe_of(position, variant=variant)
        here = _address(game, moves, filters)
    else:
        probe = probe_of_stones(given, variant=variant)
        here = _address(game, [], filters) + "&" + urlencode(_stones_address(request))
    if filters.get("rated") not in (None, *_RATED):
        problems.append("rated is true or false.")
        filters.pop("rated")
    rows = selectors.position_rows(
        probe=probe,
        filters=selectors.ExplorerFilters(
            players=(filters["player"],) if "player" in filters else (),
            rated=_RATED.get(filters.get("rated", "")),
        ),
    )
    stats = selectors.position_stats(probe=probe, rows=rows)
    before = request.GET.get("before", "")
    found = selectors.games_at(
        probe=probe,
        rows=rows,
        before=int(before) if before.isdigit() else None,
        limit=PAGE_SIZE + 1,
    )
    older = None
    if len(found) > PAGE_SIZE:
        found = found[:PAGE_SIZE]
        older = here + f"&before={found[-1].game.pk}"
    if position is not None:
        shown = _moves_board(
            game=game, moves=moves, filters=filters, position=position, stats=stats
        )
    else:
        board = _stones_board(variant=variant, given=given)
        shown = {"board": board, "others": [], "marking": False}
    colours = GO_COLOUR_NAMES if variant.black_first else COLOUR_NAMES
    context: dict[str, Any] = {
        "game": game,
        "games": list(GAMES),
        "filters": filters,
        "rated_choices": RATED,
        "problems": problems,
        "board": shown["board"].split("?>", 1)[-1],  # inline: without the XML declaration
        "path": [
            {"name": name, "url": _address(game, moves[: i + 1], filters)}
            for i, name in enumerate(moves)
        ],
        "start_url": _address(game, [], filters),
        "back_url": _address(game, moves[:-1], filters) if moves else None,
        "others": shown["others"],
        "stones": given,
        "marking": shown["marking"],
        "colour_names": [colours[1], colours[2]],
        "stats": stats,
        # From a position given by its stones no moves lead on: the moves seen link nowhere.
        "moves_seen": [
            {"stat": m, "url": _address(game, [*moves, m.name], filters) if given is None else ""}
            for m in stats.moves
        ],
        "rows": game_rows([item.game for item in found]),
        "older_url": older,
    }
    return render(request, "web/explorer.html", context, status=400 if problems else 200)
