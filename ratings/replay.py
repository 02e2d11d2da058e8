"""Replaying every rated set to check (and fix) the stored ratings: ``manage.py
recompute_ratings``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import F, OuterRef, Prefetch, Subquery

from accounts.models import User
from games.play.models import Game, GameSet
from ratings.elo import Record, rating_category, record_set
from ratings.models import Rating, RatingBucket, RatingChange
from ratings.services import (
    BUCKET_FIELDS,
    GAME_FIELDS_FOR_PLAYED,
    OUTCOME_OF_RESULT,
    STAT_FIELDS,
    change_row,
    rating_buckets_count,
    rating_buckets_rebuild,
    set_is_rateable,
    store_record,
)

RatingKey = tuple[int, str, str]  # (user id, variant, category)


@dataclass(frozen=True, slots=True)
class Difference:
    """One stored value that the replay computes differently (None: no such row)."""

    where: str
    what: str
    stored: object
    replayed: object

    def __str__(self) -> str:
        return f"{self.where} {self.what}: stored {self.stored!r}, replayed {self.replayed!r}"


@dataclass
class Replay:
    """The ratings every stored set result leads to, and how they differ from the stored ones."""

    records: dict[RatingKey, Record] = field(default_factory=dict)
    last_played: dict[RatingKey, datetime] = field(default_factory=dict)
    # (set id, user id) -> (the rating it belongs to, the change as replayed, without ``rating``).
    changes: dict[tuple[int, int], tuple[RatingKey, RatingChange]] = field(default_factory=dict)
    sets: int = 0
    differences: list[Difference] = field(default_factory=list)


def _replay_order(candidates: list[GameSet]) -> list[GameSet]:
    """Sets in (finished_at, id) order, except that sets already applied keep the order in
    which they were applied (it differs only when two finishing transactions raced)."""
    ordered = sorted(candidates, key=lambda s: (s.finished_at or s.created_at, s.pk))
    first_change: dict[int, int] = {}
    for set_id, change_id in RatingChange.objects.order_by("id").values_list("game_set_id", "id"):
        first_change.setdefault(set_id, change_id)
    applied = iter(
        sorted((s for s in ordered if s.pk in first_change), key=lambda s: first_change[s.pk])
    )
    return [next(applied) if s.pk in first_change else s for s in ordered]


def ratings_replay(*, tolerance: float = 1e-6) -> Replay:
    """Replay every rateable set in memory and compare with the stored rows."""
    replay = Replay()
    candidates = (
        GameSet.objects.filter(rated=True, status=GameSet.Status.FINISHED, result__isnull=False)
        .select_related("player1", "player2")
        .prefetch_related(Prefetch("games", queryset=Game.objects.only(*GAME_FIELDS_FOR_PLAYED)))
    )
    for game_set in _replay_order([s for s in candidates if set_is_rateable(s)]):
        variant, category = game_set.variant, rating_category(game_set.category)
        key1 = (game_set.player1_id, variant, category)
        key2 = (game_set.player2_id, variant, category)
        before1, before2 = replay.records.get(key1, Record()), replay.records.get(key2, Record())
        outcome1 = OUTCOME_OF_RESULT[game_set.result]
        after1, after2 = record_set(before1, before2, outcome1, games_count=game_set.games_count)
        when = game_set.finished_at or game_set.created_at
        for key, before, after, opp_key, opp_before, outcome in (
            (key1, before1, after1, key2, before2, outcome1),
            (key2, before2, after2, key1, before1, outcome1.opposite),
        ):
            replay.records[key] = after
            replay.last_played[key] = when
            replay.changes[(game_set.pk, key[0])] = (
                key,
                change_row(game_set, key[0], opp_key[0], outcome, before, after, opp_before, when),
            )
        replay.sets += 1
    replay.differences = list(_differences(replay, tolerance=tolerance))
    return replay


def _same(a: object, b: object, tolerance: float) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return abs(float(a) - float(b)) <= tolerance  # type: ignore[arg-type]
    return a == b


def _compare(where: str, stored, replayed, names: Iterable[str], tolerance: float):
    if stored is None or replayed is None:
        yield Difference(where, "row", stored and "present", replayed and "present")
        return
    for name in names:
        a, b = getattr(stored, name), getattr(replayed, name)
        if not _same(a, b, tolerance):
            yield Difference(where, name, a, b)


_CHANGE_FIELDS = (
    "opponent_id",
    "result",
    "games_count",
    "rating_before",
    "rating_after",
    "results_before",
    "opponent_rating_before",
    "opponent_results_before",
)


def _differences(replay: Replay, *, tolerance: float) -> Iterable[Difference]:
    stored_rows = {(r.user_id, r.variant, r.category): r for r in Rating.objects.all()}
    for key in sorted(set(stored_rows) | set(replay.records)):
        yield from _compare(
            f"rating of user {key[0]} in {key[1]}/{key[2]}",
            stored_rows.get(key),
            replay.records.get(key),
            STAT_FIELDS,
            tolerance,
        )
    for row_id, stored, actual in Rating.objects.exclude(username=F("user__username")).values_list(
        "id", "username", "user__username"
    ):
        yield Difference(f"rating row {row_id}", "username", stored, actual)
    for row_id, stored, actual in Rating.objects.exclude(listed=F("user__is_active")).values_list(
        "id", "listed", "user__is_active"
    ):
        yield Difference(f"rating row {row_id}", "listed", stored, actual)
    stored_buckets = Counter(
        {
            tuple(getattr(b, name) for name in BUCKET_FIELDS): b.players
            for b in RatingBucket.objects.exclude(players=0)
        }
    )
    wanted_buckets = rating_buckets_count()
    for key in sorted(set(stored_buckets) | set(wanted_buckets)):
        if stored_buckets[key] != wanted_buckets[key]:
            yield Difference(
                f"rank bucket {key}", "players", stored_buckets[key], wanted_buckets[key]
            )
    stored_changes = {(c.game_set_id, c.user_id): c for c in RatingChange.objects.all()}
    for key in sorted(set(stored_changes) | set(replay.changes)):
        replayed = replay.changes.get(key)
        yield from _compare(
            f"change of user {key[1]} in set {key[0]}",
            stored_changes.get(key),
            replayed and replayed[1],
            _CHANGE_FIELDS,
            tolerance,
        )


@transaction.atomic
def ratings_fix(*, replay: Replay) -> None:
    """Write the replayed ratings and history over the stored ones (history is rewritten in
    replay order)."""
    stored_rows = {
        (r.user_id, r.variant, r.category): r
        for r in Rating.objects.select_for_update().order_by("id")
    }
    RatingChange.objects.all().delete()
    for key, row in stored_rows.items():
        if key not in replay.records:
            row.delete()
    rows: dict[RatingKey, Rating] = {}
    for key, record in replay.records.items():
        row = stored_rows.get(key) or Rating(user_id=key[0], variant=key[1], category=key[2])
        store_record(row, record)
        row.last_played_at = replay.last_played[key]
        row.save()
        rows[key] = row
    changes = []
    for key, change in replay.changes.values():
        change.rating = rows[key]
        changes.append(change)
    RatingChange.objects.bulk_create(changes)
    Rating.objects.exclude(username=F("user__username")).update(
        username=Subquery(User.objects.filter(pk=OuterRef("user_id")).values("username")[:1])
    )
    Rating.objects.exclude(listed=F("user__is_active")).update(listed=~F("listed"))
    rating_buckets_rebuild()
