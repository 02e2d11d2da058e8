"""The game database by position: a board to click through an opening, the moves played from
the position with their results, and the games that reached it (the explorer's reads, as
``GET /api/games/explorer`` makes them).

The page's address says it all (``?game=Pente&moves=K10,L11&player=ann&rated=true``), so a
position can be bookmarked and shared. Every legal point of the board is a link to the position
one move further; the moves already seen in stored games carry their number of games. A move
the engine refuses in the address (an edited link) is shown above the board, with the start.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import urlencode

from explorer import selectors
from explorer.query import move_names, position_after, probe_of, variant_named
from games.engine import GAMES, GoGame, GoPhase, point_name
from games.records.pictures import COLOUR_NAMES, GO_COLOUR_NAMES, board_svg
from pente_site.errors import DomainError
from web.views.database import RATED, game_rows

#: Games listed under the position, latest first (``before`` pages on).
PAGE_SIZE = 20
_RATED = {"true": True, "false": False}


def _address(game: str, moves: list[str], filters: dict[str, str]) -> str:
    query = {"game": game, **({"moves": ",".join(moves)} if moves else {}), **filters}
    return "?" + urlencode(query)


def _position(variant, moves: list[str]):
    """The position after ``moves`` and the moves it took; the start when one is refused
    (with the refusal)."""
    try:
        return position_after(variant=variant, moves=",".join(moves)), moves, None
    except DomainError as err:
        return position_after(variant=variant, moves=""), [], err.detail


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
    position, moves, refused = _position(variant, moves)
    if refused:
        problems.append(refused)
    if filters.get("rated") not in (None, *_RATED):
        problems.append("rated is true or false.")
        filters.pop("rated")
    probe = probe_of(position, variant=variant)
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
        older = _address(game, moves, filters) + f"&before={found[-1].game.pk}"
    go = isinstance(position, GoGame)
    playing_go = go and position.phase is GoPhase.PLAYING
    size = variant.size
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
    colours = GO_COLOUR_NAMES if go else COLOUR_NAMES
    context: dict[str, Any] = {
        "game": game,
        "games": list(GAMES),
        "filters": filters,
        "rated_choices": RATED,
        "problems": problems,
        "board": board.split("?>", 1)[-1],  # inline: without the XML declaration
        "path": [
            {"name": name, "url": _address(game, moves[: i + 1], filters)}
            for i, name in enumerate(moves)
        ],
        "start_url": _address(game, [], filters),
        "back_url": _address(game, moves[:-1], filters) if moves else None,
        "others": [
            {"name": word, "url": _address(game, [*moves, word], filters)}
            for word in (*position.decisions_available(), *(("pass",) if playing_go else ()))
        ],
        # After two passes a Go game marks its dead stones, which the explorer does not follow.
        "marking": go and position.phase is GoPhase.MARKING,
        "colour_names": [colours[1], colours[2]],
        "stats": stats,
        "moves_seen": [
            {"stat": m, "url": _address(game, [*moves, m.name], filters)} for m in stats.moves
        ],
        "rows": game_rows([item.game for item in found]),
        "older_url": older,
    }
    return render(request, "web/explorer.html", context, status=400 if problems else 200)
