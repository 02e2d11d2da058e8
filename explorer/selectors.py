"""Reads of the explorer's index: the next moves seen from a position, with their statistics,
and the games that reached it (``GET /api/games/explorer``).

Every figure is counted from the position's own rows (``PositionRow``: one per game and
position, with the game's result, ratings and filters copied in), so that a position's
statistics take one indexed scan; the players, tournament and event filters narrow the rows
to the games they name with a semi-join."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Avg, Count, Max, Min, Q, QuerySet

from explorer.models import PositionRow
from explorer.query import Probe
from games.play.models import Game, Seat
from games.play.selectors import seats_named
from tournaments.models import MatchSet, Tournament


@dataclass(frozen=True, slots=True)
class ExplorerFilters:
    """Which games count (None / empty: any)."""

    players: tuple[str, ...] = ()
    rated: bool | None = None
    category: str | None = None
    rating_min: int | None = None
    rating_max: int | None = None
    date_after: date | None = None
    date_before: date | None = None
    tournament: int | None = None
    event: str | None = None
    imported: bool | None = None


@dataclass(frozen=True, slots=True)
class MoveStat:
    """One next move: its point on the caller's board, how many games played it, the wins of
    each colour (colour 1 first) and draws among them, the average rating of the players who
    chose it (None: none rated), and the latest game that played it. Go's pass has no point
    and the name ``pass``."""

    point: int | None
    name: str
    games: int
    wins: list[int]
    draws: int
    average_rating: float | None
    latest_game: int


@dataclass(frozen=True, slots=True)
class PositionStats:
    """Every game that reached the position (``games``, with wins per colour and draws), and
    the next moves played from it, most played first."""

    games: int
    wins: list[int]
    draws: int
    moves: list[MoveStat]


@dataclass(frozen=True, slots=True)
class GameAt:
    """A game that reached the position, after ``ply`` actions."""

    game: Game
    ply: int


def position_rows(*, probe: Probe, filters: ExplorerFilters) -> QuerySet[PositionRow]:
    """The index rows of the position ``probe`` names, of the games ``filters`` lets through."""
    rows = PositionRow.objects.filter(key=probe.key)
    f = filters
    if f.rated is not None:
        rows = rows.filter(rated=f.rated)
    if f.imported is not None:
        rows = rows.filter(imported=f.imported)
    if f.category:
        rows = rows.filter(category=f.category)
    if f.rating_min is not None:
        rows = rows.filter(rating_low__gte=f.rating_min)
    if f.rating_max is not None:
        rows = rows.filter(rating_high__lte=f.rating_max)
    if f.date_after is not None:
        rows = rows.filter(played_on__gte=f.date_after)
    if f.date_before is not None:
        rows = rows.filter(played_on__lte=f.date_before)
    for name in f.players:
        rows = rows.filter(game_id__in=Seat.objects.filter(seats_named(name)).values("game_id"))
    if f.tournament is not None:
        sets = MatchSet.objects.filter(match__tournament_id=f.tournament).values("game_set_id")
        rows = rows.filter(game__game_set_id__in=sets)
    if f.event:
        named = Tournament.objects.filter(name__iexact=f.event).values("pk")
        sets = MatchSet.objects.filter(match__tournament_id__in=named).values("game_set_id")
        rows = rows.filter(Q(game__headers__Event__iexact=f.event) | Q(game__game_set_id__in=sets))
    return rows


def _game_counts(colours: range, *, distinct: bool) -> dict[str, Count]:
    """Games (``n``), draws and wins of each colour (``w1``, ...) among index rows."""
    return {
        "n": Count("game", distinct=distinct),
        "draws": Count("game", filter=Q(winner=0), distinct=distinct),
        **{f"w{c}": Count("game", filter=Q(winner=c), distinct=distinct) for c in colours},
    }


def position_stats(*, probe: Probe, rows: QuerySet[PositionRow]) -> PositionStats:
    """The statistics of the position (``rows``: its ``position_rows``) and of each next move
    (mapped back to the caller's board), most played first (then by point). A game that
    reached the position twice (Go) counts once, and once under each move it went on with."""
    colours = range(1, probe.colours + 1)
    counts = _game_counts(colours, distinct=probe.recurs)
    grouped = (
        rows.values("next_point")
        .annotate(avg=Avg("rating"), latest=Max("game"), **counts)
        .order_by()
    )
    total = 0
    wins = [0] * probe.colours
    draws = 0
    moves: list[MoveStat] = []
    for group in grouped:
        row_wins = [group[f"w{c}"] for c in colours]
        total += group["n"]
        draws += group["draws"]
        wins = [a + b for a, b in zip(wins, row_wins, strict=True)]
        point = group["next_point"]
        if point is None:
            continue
        avg = group["avg"]
        mine = probe.caller_point(point)
        moves.append(
            MoveStat(
                point=mine,
                name=probe.point_name(point),
                games=group["n"],
                wins=row_wins,
                draws=group["draws"],
                average_rating=round(avg, 1) if avg is not None else None,
                latest_game=group["latest"],
            )
        )
    moves.sort(key=lambda m: (-m.games, -1 if m.point is None else m.point))
    if probe.recurs:  # the groups may share games: count them once
        overall = rows.aggregate(**counts)
        total, draws = overall["n"], overall["draws"]
        wins = [overall[f"w{c}"] for c in colours]
    return PositionStats(games=total, wins=wins, draws=draws, moves=moves)


def games_at(
    *, probe: Probe, rows: QuerySet[PositionRow], before: int | None, limit: int
) -> list[GameAt]:
    """The games that reached the position (``rows``: its ``position_rows``), latest first:
    ``limit`` of them, with ids below ``before`` (the last id of the previous page), their
    seats loaded. A game that reached it more than once (Go) is listed once, at the first
    time."""
    if before is not None:
        rows = rows.filter(game_id__lt=before)
    if probe.recurs:
        firsts = rows.values("game_id").annotate(first=Min("ply")).order_by("-game_id")
        found = list(firsts.values_list("game_id", "first")[:limit])
    else:
        found = list(rows.order_by("-game_id", "ply").values_list("game_id", "ply")[:limit])
    games = Game.objects.in_bulk([game_id for game_id, _ in found])
    seats = Seat.objects.filter(game_id__in=games).select_related("user").order_by("seat")
    by_game: dict[int, list[Seat]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    out = []
    for game_id, ply in found:
        game = games[game_id]
        game.keep_seats(by_game.get(game_id, []))
        out.append(GameAt(game=game, ply=ply))
    return out
