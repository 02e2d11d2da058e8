"""``GET /api/games/explorer``: a position's next moves and the games that reached it."""

from __future__ import annotations

from urllib.parse import urlencode

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from explorer import selectors
from explorer.query import Probe, from_moves, probe_of_stones, stones_given, variant_named
from explorer.serializers import ExplorerOut, ExplorerQueryIn
from games.engine.positionkey import unsigned64
from games.play.selectors import game_summary
from games.play.serializers import ErrorSerializer


def _probe(params: dict) -> Probe:
    variant = variant_named(params["game"])
    table = {"seats": params["seats"], "partners": params["partners"]}
    if "position" in params:
        given = stones_given(
            variant=variant,
            position=params["position"],
            captures=params.get("captures", ""),
            to_move=params.get("to_move", 1),
            **table,
        )
        return probe_of_stones(given, variant=variant, **table)
    return from_moves(variant=variant, moves=params.get("moves", ""), **table)


def _filters(params: dict) -> selectors.ExplorerFilters:
    players = tuple(params[name] for name in ("player", "opponent") if params.get(name))
    return selectors.ExplorerFilters(
        players=players,
        **{
            name: params.get(name)
            for name in (
                "rated",
                "category",
                "rating_min",
                "rating_max",
                "date_after",
                "date_before",
                "tournament",
                "event",
                "imported",
            )
        },
    )


class ExplorerView(APIView):
    """The game database by position: give a game and the moves from the start (or the stones,
    captures and colour to move); the answer counts every stored game (played here or
    imported) that reached that position in any of the board's 8 symmetries: the games, wins
    of each colour and draws, and for each next move seen, named on your board, its games,
    wins, draws, the average rating of the players who chose it and its latest game; then the
    games themselves, latest first (``game_list``, a page at a time: follow ``next``). The
    filters narrow every figure to the games they let through."""

    permission_classes = [AllowAny]
    query_parameters = tuple(ExplorerQueryIn().fields)

    @extend_schema(
        parameters=[ExplorerQueryIn],
        responses={200: ExplorerOut, 400: ErrorSerializer},
    )
    def get(self, request):
        query = ExplorerQueryIn(data=request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        probe = _probe(params)
        rows = selectors.position_rows(probe=probe, filters=_filters(params))
        stats = selectors.position_stats(probe=probe, rows=rows)
        size = params["page_size"]
        found = selectors.games_at(
            probe=probe, rows=rows, before=params.get("before"), limit=size + 1
        )
        more = len(found) > size
        found = found[:size]
        following = None
        if more:
            args = {k: v for k, v in request.query_params.items() if k != "before"}
            args["before"] = str(found[-1].game.pk)
            following = request.build_absolute_uri(request.path) + "?" + urlencode(args)
        body = {
            "game": probe.variant.name,
            "key": f"{unsigned64(probe.key):016x}",
            "symmetry": probe.symmetry,
            "games": stats.games,
            "wins": stats.wins,
            "draws": stats.draws,
            "moves": [
                {
                    "move": m.name,
                    "point": m.point,
                    "games": m.games,
                    "wins": m.wins,
                    "draws": m.draws,
                    "average_rating": m.average_rating,
                    "latest_game": m.latest_game,
                }
                for m in stats.moves
            ],
            "game_list": {
                "next": following,
                "results": [{**game_summary(item.game), "at_ply": item.ply} for item in found],
            },
        }
        return Response(ExplorerOut(body).data)
