"""django-filter filter set of the game database (``/api/games/`` and ``/api/games/records``)."""

from __future__ import annotations

import django_filters
from django import forms
from django.db.models import Exists, IntegerField, OuterRef, Q, QuerySet
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast

from games.engine import UnknownGame, get_variant
from games.play.models import Game, Seat
from games.play.selectors import seats_named
from pente_site.errors import Invalid
from pente_site.lists import StrictFilterSet

MAX_WINNERS = 6
MAX_ID = 2**63 - 1  # the largest value of a BigAutoField (PostgreSQL bigint, SQLite INTEGER)

TRUE_WORDS = frozenset({"true", "1", "yes", "on"})
FALSE_WORDS = frozenset({"false", "0", "no", "off"})


#: Fields the game lists may be ordered by.
GAME_ORDERING = ["id", "created_at", "started_at", "finished_at", "ply", "variant"]


class StrictBooleanField(forms.Field):
    """true/false (also 1/0, yes/no, on/off, any case); anything else is a 400, not ignored."""

    def to_python(self, value):
        if value in (None, ""):
            return None
        if isinstance(value, bool):
            return value
        word = str(value).strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise forms.ValidationError("Must be true or false.", code="invalid")


class StrictBooleanFilter(django_filters.BooleanFilter):
    field_class = StrictBooleanField


class IdFilter(django_filters.NumberFilter):
    """A whole-number id in the range of the database's ids."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


def _with_winner_columns(queryset: QuerySet[Game]) -> QuerySet[Game]:
    names = {
        f"_w{i}": Cast(KeyTextTransform(str(i), "winner_seats"), IntegerField())
        for i in range(MAX_WINNERS)
    }
    if all(n in queryset.query.annotations for n in names):
        return queryset
    return queryset.annotate(**names)


def _winning_seat_of(name: str) -> Exists:
    wins = Q()
    for i in range(MAX_WINNERS):
        wins |= Q(seat=OuterRef(f"_w{i}"))
    return Exists(Seat.objects.filter(seats_named(name), wins, game=OuterRef("pk")))


def _seat_of(name: str) -> Exists:
    return Exists(Seat.objects.filter(seats_named(name), game=OuterRef("pk")))


class GameFilter(StrictFilterSet):
    """Filters of the game database.

    - ``player``: username (or recorded name of imported games) holding a seat
    - ``opponent``: another username holding a seat (with ``player``: games between the two)
    - ``variant``: engine name or slug (``Pente``, ``keryo-pente``)
    - ``rated``, ``imported``: true/false
    - ``status``: in_progress | finished | cancelled | archived (imported records)
    - ``end_reason``: five | captures | draw | resign | timeout | forfeit
    - ``result``: win | loss | draw, seen from ``player`` (needs ``player``)
    - ``winner``: username of a winner
    - ``date_after``, ``date_before``: YYYY-MM-DD, on the date the game started
    - ``set``: id of the set
    """

    player = django_filters.CharFilter(method="filter_player", label="player username")
    opponent = django_filters.CharFilter(method="filter_opponent", label="opponent username")
    variant = django_filters.CharFilter(method="filter_variant", label="game (name or slug)")
    rated = StrictBooleanFilter(label="rated games only (true) or unrated only (false)")
    imported = StrictBooleanFilter(
        label="imported records only (true) or games played here only (false)"
    )
    status = django_filters.ChoiceFilter(choices=Game.Status.choices)
    end_reason = django_filters.ChoiceFilter(choices=[c for c in Game.EndReason.choices if c[0]])
    result = django_filters.ChoiceFilter(
        method="filter_result",
        choices=[("win", "win"), ("loss", "loss"), ("draw", "draw")],
        label="result for player",
    )
    winner = django_filters.CharFilter(method="filter_winner", label="winner username")
    # Two filters rather than one DateFromToRangeFilter, so that a bad value is reported under
    # the parameter that was sent (``fields: {"date_after": ...}``), not under "date".
    date_after = django_filters.DateFilter(
        field_name="started_at", lookup_expr="date__gte", label="started on or after (YYYY-MM-DD)"
    )
    date_before = django_filters.DateFilter(
        field_name="started_at", lookup_expr="date__lte", label="started on or before (YYYY-MM-DD)"
    )
    set = IdFilter(field_name="game_set_id", label="the games of this rated set (its id)")

    class Meta:
        model = Game
        fields: list[str] = []

    def filter_player(self, queryset, name, value):
        return queryset.filter(_seat_of(value))

    def filter_opponent(self, queryset, name, value):
        return queryset.filter(_seat_of(value))

    def filter_variant(self, queryset, name, value):
        try:
            return queryset.filter(variant=get_variant(value).name)
        except UnknownGame:
            raise Invalid("unknown_game", f"There is no game called {value!r}.") from None

    def filter_winner(self, queryset, name, value):
        return _with_winner_columns(queryset).filter(_winning_seat_of(value))

    def filter_result(self, queryset, name, value):
        player = self.data.get("player")
        if not player:
            raise Invalid(
                "missing_parameter",
                "The result filter needs a player, e.g. ?player=alice&result=win.",
            )
        # Games with an outcome: finished ones and archived records that were finished (both
        # have an end reason; games in progress, cancelled games and unfinished records do not).
        decided = queryset.exclude(end_reason="")
        if value == "draw":
            return decided.filter(winner_seats=[])
        won = _winning_seat_of(player)
        if value == "win":
            return _with_winner_columns(queryset).filter(won)
        return _with_winner_columns(decided).exclude(winner_seats=[]).exclude(won)
