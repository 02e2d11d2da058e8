"""The tournament pages: the list, the form that creates one, and a tournament's page
(entries, join / withdraw / start, standings, rounds, the bracket picture).

Reads are the API's selectors (``tournaments.selectors``: ``tournaments_queryset``,
``tournament_get``, ``entries``, ``standings``, ``rounds``, ``bracket``); the form creates the
tournament through ``tournaments.services`` and shows a refusal's sentence on the form; the
page's buttons post to the API (``data-api="tournaments/<id>/join"``, ``withdraw``, ``start``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from games.clocks.timecontrol import TimeControl
from games.engine import GAMES
from pente_site.errors import DomainError, NotFound
from tournaments import selectors, services
from tournaments.models import Tournament
from web.charts import bracket_picture
from web.links import route_prefix, viewer_zone

PAGE_SIZE = 50
#: What ``django.urls.reverse`` leaves unquoted in a path argument.
URL_SAFE = "!$&'()*+,;=~:@"

STATUS_TABS = (
    ("", "All"),
    (Tournament.Status.REGISTRATION, "Open for registration"),
    (Tournament.Status.RUNNING, "Running"),
    (Tournament.Status.FINISHED, "Finished"),
    (Tournament.Status.CANCELLED, "Cancelled"),
)

FORMATS = [
    (Tournament.Format.SWISS, "Swiss"),
    (Tournament.Format.ROUND_ROBIN, "Round robin"),
    (Tournament.Format.SINGLE_ELIMINATION, "Single elimination"),
    (Tournament.Format.DOUBLE_ELIMINATION, "Double elimination"),
]

BRACKET_NAMES = {"W": "Winners' round", "L": "Losers' round", "GF": "Grand final"}


# --- the list -----------------------------------------------------------------------------


def tournament_list_page(request: HttpRequest) -> HttpResponse:
    """Tournaments, latest start first, 50 a page; ``?status=`` keeps one status (as the API's
    ``GET /api/tournaments/?status=``)."""
    status = request.GET.get("status", "")
    if status not in Tournament.Status.values:
        status = ""
    found = selectors.tournaments_queryset()
    if status:
        found = found.filter(status=status)
    page = Paginator(found, PAGE_SIZE).get_page(request.GET.get("page"))
    zone = viewer_zone(request.user)
    context = {
        "page": page,
        "status": status,
        "tabs": STATUS_TABS,
        "pager_query": f"status={status}&" if status else "",
        "zone": str(zone),
    }
    with timezone.override(zone):  # times in the viewer's time zone (UTC for strangers)
        return render(request, "web/tournaments.html", context)


# --- a new tournament ---------------------------------------------------------------------

_LOCAL = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
_LOCAL_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"]


class TournamentForm(forms.Form):
    """The shape of a new tournament; ``tournaments.services`` judges the values."""

    name = forms.CharField(max_length=200)
    variant = forms.ChoiceField(label="Game", choices=[(name, name) for name in GAMES])
    format = forms.ChoiceField(choices=FORMATS)
    rated = forms.BooleanField(required=False, initial=True)
    time_control = forms.ChoiceField(
        choices=[("turn", "Turn-based (days per move)"), ("live", "Live (minutes + increment)")]
    )
    days_per_move = forms.IntegerField(min_value=1, max_value=30, required=False, initial=3)
    initial_minutes = forms.IntegerField(min_value=0, max_value=999, required=False)
    increment_seconds = forms.IntegerField(min_value=0, max_value=59, required=False)
    games_per_match = forms.TypedChoiceField(
        choices=[("", "The game's usual"), ("1", "One game"), ("2", "Two games, colours swapped")],
        coerce=int,
        empty_value=None,
        required=False,
    )
    start_at = forms.DateTimeField(label="Starts at", widget=_LOCAL, input_formats=_LOCAL_FORMATS)

    def clean_start_at(self):
        start_at = self.cleaned_data["start_at"]
        if start_at <= timezone.now():
            raise forms.ValidationError("The start must be in the future.")
        return start_at

    registration_closes_at = forms.DateTimeField(
        label="Registration closes at (empty: at the start)",
        widget=_LOCAL,
        input_formats=_LOCAL_FORMATS,
        required=False,
    )
    rounds = forms.IntegerField(
        label="Rounds (Swiss; empty: from the number of players)",
        min_value=1,
        max_value=50,
        required=False,
    )
    cycles = forms.TypedChoiceField(
        label="Cycles (round robin)",
        choices=[("1", "Single (everyone meets once)"), ("2", "Double (twice, colours swapped)")],
        coerce=int,
        initial="1",
    )
    max_players = forms.IntegerField(min_value=2, required=False)
    rating_above = forms.IntegerField(required=False)
    rating_below = forms.IntegerField(required=False)
    min_rated_results = forms.IntegerField(min_value=0, required=False, initial=0)
    vacation_allowed = forms.BooleanField(required=False, initial=True)
    spectator_delay = forms.IntegerField(min_value=0, max_value=20, required=False, initial=0)
    late_entries = forms.BooleanField(required=False, initial=False)
    late_entry_points = forms.TypedChoiceField(
        label="Points of each round a late entry missed",
        choices=[("0", "0"), ("0.5", "½"), ("1", "1")],
        coerce=float,
        initial="0",
        required=False,
        empty_value=0.0,
    )


def _create(*, organiser: Any, data: dict[str, Any]) -> Tournament:
    """Create the tournament the form describes, through the services."""
    fields = dict(data)
    kind = fields.pop("time_control")
    minutes = fields.pop("initial_minutes")
    increment = fields.pop("increment_seconds")
    days = fields.pop("days_per_move")
    if kind == "live":
        time_control = services.tournament_time_control(
            time_control=kind, initial_minutes=minutes, increment_seconds=increment
        )
    else:
        time_control = services.tournament_time_control(time_control=kind, days_per_move=days)
    fields["min_rated_results"] = fields["min_rated_results"] or 0
    fields["spectator_delay"] = fields["spectator_delay"] or 0
    # The fields of another format than the one chosen (hidden on the page) are not its.
    if fields["format"] != Tournament.Format.SWISS:
        fields.update(rounds=None, late_entries=False, late_entry_points=0)
    if fields["format"] != Tournament.Format.ROUND_ROBIN:
        fields["cycles"] = 1
    return services.tournament_create(organiser=organiser, time_control=time_control, **fields)


@login_required
def tournament_new_page(request: HttpRequest) -> HttpResponse:
    zone = viewer_zone(request.user)
    with timezone.override(zone):
        form = TournamentForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                t = _create(organiser=request.user, data=form.cleaned_data)
            except DomainError as err:
                form.add_error(None, err.detail)
            else:
                return redirect("web:tournament", pk=t.pk)
        return render(request, "web/tournament_new.html", {"form": form, "zone": str(zone)})


# --- a tournament -------------------------------------------------------------------------


def _round_title(item: dict[str, Any], *, final_rounds: int) -> str:
    bracket = item["bracket"]
    if bracket is None:
        return f"Round {item['number']}"
    if bracket == "GF":
        return "Grand final" if item["number"] == 1 else "Grand final (reset)"
    if bracket == "W" and final_rounds == 1:
        return f"Round {item['number']}"
    return f"{BRACKET_NAMES[bracket]} {item['number']}"


def _match_result(match: dict[str, Any]) -> str:
    result = match["result"]
    if result is None:
        return "playing"
    if result in _UNPLAYED:
        return _UNPLAYED[result]
    if result == "double_forfeit":
        return "0–0 (neither came)"
    text = {"player1": "1–0", "player2": "0–1", "draw": "½–½"}.get(result, result)
    return f"{text} (forfeit)" if match["forfeit"] else text


#: How a round without an opponent reads (the PAB, a late entry's or a report's byes).
_UNPLAYED = {
    "bye": "bye",
    "full_point_bye": "bye (1)",
    "half_point_bye": "bye (½)",
    "zero_point_bye": "absent",
}


def _rounds(t: Tournament, *, links: _Links, number: int | None = None) -> list[dict[str, Any]]:
    items = selectors.rounds(t, numbers=None if number is None else [number])
    brackets = {item["bracket"] for item in items}
    single = 1 if brackets == {"W"} else 0
    out = []
    for item in items:
        matches = []
        for m in item["matches"]:
            games = [links.game(g) for s in m["sets"] for g in s["games"]]
            matches.append(
                {
                    **m,
                    "result_text": _match_result(m),
                    "game_urls": games,
                    "player1_url": links.user(m["player1"]),
                    "player2_url": links.user(m["player2"]),
                }
            )
        out.append({**item, "title": _round_title(item, final_rounds=single), "matches": matches})
    return out


_SCORE = {"player1": (1.0, 0.0), "player2": (0.0, 1.0), "draw": (0.5, 0.5)}


def _score_text(score: float) -> str:
    return {1.0: "1", 0.5: "½", 0.0: "0"}[score]


def _cross_table(
    *, standings: list[dict[str, Any]], rounds: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """A round robin's cross table: a row per player (in standings order) with their score
    against each of the others, in the same order (empty while not played)."""
    order = [row["user_id"] for row in standings]
    cells: dict[tuple[int, int], list[str]] = {}
    for item in rounds:
        for m in item["matches"]:
            if m["player1"] is None or m["player2"] is None or m["result"] not in _SCORE:
                continue
            a, b = m["player1"]["id"], m["player2"]["id"]
            sa, sb = _SCORE[m["result"]]
            cells.setdefault((a, b), []).append(_score_text(sa))
            cells.setdefault((b, a), []).append(_score_text(sb))
    return [
        {
            "player": row,
            "cells": [
                None
                if other == row["user_id"]
                else " ".join(cells.get((row["user_id"], other), []))
                for other in order
            ],
        }
        for row in standings
    ]


class _Links:
    """The addresses of players' and games' pages: the page links many of them, and one
    ``reverse`` per link would cost more than the rest of its line."""

    def __init__(self) -> None:
        self.players_at = route_prefix("web:player")
        self.games_at = route_prefix("web:game")

    def name(self, name: str) -> str:
        return f"{self.players_at}{quote(name, safe=URL_SAFE)}/"

    def user(self, player: dict[str, Any] | None) -> str | None:
        return None if not player else self.name(player["username"])

    def game(self, game_id: int) -> str:
        return f"{self.games_at}{game_id}/"


class _NoLinks(_Links):
    def name(self, name: str) -> None:  # type: ignore[override]
        return None


def _byes(t: Tournament, *, viewer, joined: bool) -> dict[str, Any] | None:
    """A Swiss's byes asked for ahead of time: the list, and for an entrant the rounds to come
    they may sit out or take back (None outside a Swiss played here)."""
    if not t.takes_requested_byes:
        return None
    planned = selectors.planned_byes(t)
    mine = {b["round"] for b in planned if viewer.is_authenticated and b["user"]["id"] == viewer.pk}
    open_now = joined and t.status in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING)
    to_come = range(t.current_round + 1, (t.rounds or 0) + 1) if open_now else range(0)
    shown = {
        "planned": [b for b in planned if b["round"] > t.current_round],
        "ask": [n for n in to_come if n not in mine],
        "mine": sorted(n for n in mine if n > t.current_round) if open_now else [],
    }
    return shown if any(shown.values()) else None


#: The tie-breaks the standings show, in the order they decide, by format: (key of a row's
#: ``tiebreaks``, column heading, what it counts).
TIEBREAK_COLUMNS = {
    Tournament.Format.SWISS: [
        ("buchholz_cut1", "Bh-1", "Buchholz cut 1: the opponents' points without the lowest"),
        ("buchholz", "Bh", "Buchholz: the opponents' points"),
        (
            "sonneborn_berger",
            "SB",
            "Sonneborn-Berger: the points of the opponents beaten, and "
            "half those of the opponents drawn",
        ),
    ],
    Tournament.Format.ROUND_ROBIN: [
        (
            "sonneborn_berger",
            "SB",
            "Sonneborn-Berger: the points of the opponents beaten, and "
            "half those of the opponents drawn",
        ),
        (
            "head_to_head",
            "H2H",
            "Head to head: the points scored against the players tied on "
            "points and Sonneborn-Berger",
        ),
    ],
}


def _with_tiebreaks(t: Tournament, standings: list[dict]) -> tuple[list[dict], list, bool]:
    """The standings rows with the values of their format's tie-break columns (``tb``), those
    columns, and whether the winner shares first place on every tie-break (then the higher seed
    won: the page says so)."""
    columns = TIEBREAK_COLUMNS.get(t.format, [])
    rows = [
        {**row, "tb": [row["tiebreaks"].get(key, 0) for key, _label, _title in columns]}
        for row in standings
    ]
    tied_first = sum(1 for row in rows if row["rank"] == 1) > 1
    return rows, columns, t.status == Tournament.Status.FINISHED and tied_first and bool(columns)


#: Lines of the standings and of the players shown before "show all" (an imported Swiss may
#: have a thousand players: the whole page would be over a megabyte).
PAGE_PLAYERS = 100


def _shown_round(request: HttpRequest, t: Tournament) -> int | None:
    """The round a Swiss page shows (``?round=N``; by default the latest), or None: every
    round (other formats, whose rounds are few and whose cross table or bracket needs them)."""
    if t.format != Tournament.Format.SWISS or not t.current_round:
        return None
    asked = request.GET.get("round", "")
    if asked.isdigit() and 1 <= int(asked) <= t.current_round:
        return int(asked)
    return t.current_round


def tournament_page(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        t = selectors.tournament_get(tournament_id=pk)
    except NotFound:
        raise Http404("There is no such tournament.") from None
    viewer = request.user
    # An imported event's players are a report's names, not accounts with pages.
    links = _NoLinks() if t.imported else _Links()
    entries = [{**e, "url": links.user(e["user"])} for e in selectors.entries(t)]
    standings, tiebreak_columns, won_by_seed = _with_tiebreaks(
        t, [{**row, "url": links.name(row["username"])} for row in selectors.standings(t)]
    )
    shown_round = _shown_round(request, t)
    rounds = _rounds(t, links=links, number=shown_round)
    everyone = request.GET.get("players") == "all"
    mine = next(
        (e for e in entries if viewer.is_authenticated and e["user"]["id"] == viewer.pk), None
    )
    joined = mine is not None and mine["status"] == "active"
    signed_in = viewer.is_authenticated
    is_organiser = signed_in and (viewer.is_staff or viewer.pk == t.organiser_id)
    open_now = services.registration_open(t, timezone.now())
    winner = next((e for e in entries if e["user"]["id"] == t.winner_id), None)
    context = {
        "t": t,
        "winner": winner and {"name": winner["user"]["username"], "url": winner["url"]},
        "time_control": str(TimeControl.of(t)),
        "entries": entries if everyone else entries[:PAGE_PLAYERS],
        "standings": standings if everyone else standings[:PAGE_PLAYERS],
        "tiebreak_columns": tiebreak_columns,
        "won_by_seed": won_by_seed,
        "players_cut": not everyone and max(len(entries), len(standings)) > PAGE_PLAYERS,
        "page_players": PAGE_PLAYERS,
        "rounds": rounds,
        "shown_round": shown_round,
        "round_numbers": range(1, t.current_round + 1) if shown_round else (),
        "bracket": bracket_picture(selectors.bracket(t), player_url=links.name)
        if t.is_elimination
        else "",
        "cross_table": _cross_table(standings=standings, rounds=rounds)
        if t.format == Tournament.Format.ROUND_ROBIN and standings
        else None,
        "joined": joined,
        "can_join": signed_in and open_now and not joined,
        "can_withdraw": joined
        and t.status in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING),
        "byes": _byes(t, viewer=viewer, joined=joined),
        "can_start": is_organiser
        and t.status == Tournament.Status.REGISTRATION
        and not t.pairing_pending,
        "can_cancel": is_organiser
        and t.status in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING),
        "final": t.status == Tournament.Status.FINISHED,
        "zone": str(viewer_zone(request.user)),
    }
    with timezone.override(viewer_zone(request.user)):  # the viewer's time zone, said on the page
        return render(request, "web/tournament.html", context)
