"""Writes of the ratings app: applying a finished set exactly once, crowns, and the replay that
checks (and can repair) every stored rating.
"""

from __future__ import annotations

import functools
import logging
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import F, OuterRef, Prefetch, Subquery
from django.utils import timezone

from games.models import Game, GameSet, User
from ratings.elo import ESTABLISHED_RESULTS, Outcome, Record, bucket_of, record_set
from ratings.models import RANK_BUCKET_WIDTH, Crown, Rating, RatingBucket, RatingChange

logger = logging.getLogger(__name__)

#: The set's category -> the rating it counts for. Pente.org keeps "one rating for normal or
#: untimed games, and one for speed games" (plus turn-based), so untimed counts as normal.
CATEGORY_OF_SET = {"speed": "speed", "normal": "normal", "untimed": "normal", "turn": "turn"}

_OUTCOME_OF_RESULT = {"player1": Outcome.WIN, "player2": Outcome.LOSS, "draw": Outcome.DRAW}
_RESULT_NAME = {Outcome.WIN: "win", Outcome.LOSS: "loss", Outcome.DRAW: "draw"}

_STAT_FIELDS = ("rating", "results", "wins", "losses", "draws", "streak", "best_streak")


def rating_category(category: str) -> str:
    """The rating category a set's ``category`` counts for (untimed -> normal)."""
    return CATEGORY_OF_SET[category]


def set_is_rateable(game_set: GameSet) -> bool:
    """A finished rated set with a result between two different humans, in which at least one
    game was actually played (see :func:`set_was_played`)."""
    return (
        game_set.rated
        and game_set.status == GameSet.Status.FINISHED
        and game_set.result in _OUTCOME_OF_RESULT
        and game_set.player1_id != game_set.player2_id
        and game_set.category in CATEGORY_OF_SET
        and not game_set.player1.is_computer
        and not game_set.player2.is_computer
        and set_was_played(game_set)
    )


_GAME_FIELDS_FOR_PLAYED = (
    "game_set_id",
    "end_reason",
    "ply",
    "variant",
    "seats",
    "partners",
    "tournament_rule",
    "rated",
    "adjacent_only",
)


@functools.cache
def _automatic_plies_of(variant: str, options: tuple[tuple[str, object], ...]) -> int:
    from games.engine import Game as EngineGame
    from games.engine import get_variant

    return len(EngineGame(get_variant(variant), **dict(options)).actions)


def _automatic_plies(game: Game) -> int:
    """The actions the engine makes by itself when the game is created (the centre stone)."""
    from games.services import engine_options

    return _automatic_plies_of(game.variant, tuple(sorted(engine_options(game).items())))


def game_was_forfeited_unplayed(game: Game) -> bool:
    """Ended by forfeit before either player placed a stone (beyond the automatic ones)."""
    return game.end_reason == Game.EndReason.FORFEIT and game.ply <= _automatic_plies(game)


def set_was_played(game_set: GameSet) -> bool:
    """False when every game of the set was forfeited without a stone played (a tournament
    withdrawal forfeits games nobody played): such a set changes no rating. A game forfeited
    after real play is a normal result; a set row without games counts as played. Uses the
    set's prefetched ``games`` when there are."""
    games = list(game_set.games.all())
    return not games or not all(game_was_forfeited_unplayed(g) for g in games)


def _record_of(row: Rating) -> Record:
    return Record(**{name: getattr(row, name) for name in _STAT_FIELDS})


def _store_record(row: Rating, record: Record) -> None:
    for name in _STAT_FIELDS:
        setattr(row, name, getattr(record, name))


def _ensure_rows(*, users: list[User], variant: str, category: str) -> set[int]:
    """Create missing rating rows, in user id order (concurrent creators wait in one order);
    returns the ids of the users whose row this call created.

    ``get_or_create`` runs the insert in a savepoint and re-reads the row when a concurrent
    transaction created it first.
    """
    created_for = set()
    for user in sorted(users, key=lambda u: u.pk):
        _, created = Rating.objects.get_or_create(
            user=user,
            variant=variant,
            category=category,
            defaults={"is_computer": user.is_computer},
        )
        if created:
            created_for.add(user.pk)
    return created_for


# --- rank buckets -------------------------------------------------------------------------

BucketKey = tuple[str, str, bool, bool, int]  # variant, category, established, computer, bucket
_BUCKET_FIELDS = ("variant", "category", "established", "is_computer", "bucket")


def bucket_key(row: Rating) -> BucketKey:
    return (
        row.variant,
        row.category,
        row.results >= ESTABLISHED_RESULTS,
        row.is_computer,
        bucket_of(row.rating, RANK_BUCKET_WIDTH),
    )


def _buckets_shift(*, removed: Iterable[BucketKey] = (), added: Iterable[BucketKey] = ()) -> None:
    """Move rows between rank buckets. Call after the rating rows are locked; bucket rows are
    then locked in key order, so concurrent callers cannot deadlock."""
    delta = Counter(added)
    delta.subtract(Counter(removed))
    for key in sorted(k for k, n in delta.items() if n):
        fields = dict(zip(_BUCKET_FIELDS, key, strict=True))
        bump = F("players") + delta[key]
        if RatingBucket.objects.filter(**fields).update(players=bump):
            continue
        try:
            with transaction.atomic():
                RatingBucket.objects.create(**fields, players=delta[key])
        except IntegrityError:  # created concurrently: now it exists
            RatingBucket.objects.filter(**fields).update(players=bump)


_BUCKET_ROW_FIELDS = ("variant", "category", "results", "is_computer", "rating")


def rating_buckets_count() -> Counter:
    """The rank buckets as the rating rows say they should be."""
    return Counter(bucket_key(row) for row in Rating.objects.only(*_BUCKET_ROW_FIELDS))


@transaction.atomic
def rating_buckets_rebuild() -> None:
    """Recount every rank bucket from the rating rows."""
    counts = rating_buckets_count()
    RatingBucket.objects.all().delete()
    RatingBucket.objects.bulk_create(
        RatingBucket(**dict(zip(_BUCKET_FIELDS, key, strict=True)), players=n)
        for key, n in counts.items()
    )


def rating_apply_set(*, game_set: GameSet) -> bool:
    """Apply a finished set's result to both players' ratings, once.

    Returns True when this call applied it; False when the set is not rateable (unrated,
    unfinished, against a computer) or was already applied. Safe to call twice, and
    concurrently with other sets of the same players: the rating rows are locked in id order
    and the (set, player) unique ``RatingChange`` is re-checked under the locks.
    """
    if not set_is_rateable(game_set):
        return False
    if RatingChange.objects.filter(game_set_id=game_set.pk).exists():
        return False
    variant = game_set.variant
    category = rating_category(game_set.category)
    player1, player2 = game_set.player1, game_set.player2
    when = game_set.finished_at or timezone.now()
    with transaction.atomic():
        created = _ensure_rows(users=[player1, player2], variant=variant, category=category)
        rows = {
            row.user_id: row
            for row in Rating.objects.select_for_update()
            .filter(user_id__in=[player1.pk, player2.pk], variant=variant, category=category)
            .order_by("id")
        }
        if RatingChange.objects.filter(game_set_id=game_set.pk).exists():
            _buckets_shift(added=[bucket_key(rows[user_id]) for user_id in created])
            return False
        row1, row2 = rows[player1.pk], rows[player2.pk]
        before1, before2 = _record_of(row1), _record_of(row2)
        outcome1 = _OUTCOME_OF_RESULT[game_set.result]
        after1, after2 = record_set(before1, before2, outcome1, games_count=game_set.games_count)
        removed = [bucket_key(row) for row in (row1, row2) if row.user_id not in created]
        changes = []
        for row, before, after, opp_before, opponent, outcome in (
            (row1, before1, after1, before2, player2, outcome1),
            (row2, before2, after2, before1, player1, outcome1.opposite),
        ):
            _store_record(row, after)
            row.last_played_at = when
            row.save()
            change = _change(
                game_set, row.user_id, opponent.pk, outcome, before, after, opp_before, when
            )
            change.rating = row
            changes.append(change)
        RatingChange.objects.bulk_create(changes)
        _buckets_shift(removed=removed, added=[bucket_key(row1), bucket_key(row2)])
    return True


def _change(
    game_set: GameSet,
    user_id: int,
    opponent_id: int,
    outcome: Outcome,
    before: Record,
    after: Record,
    opp_before: Record,
    when: datetime,
) -> RatingChange:
    """The (unsaved) change of one player's rating by a set, made at ``when``."""
    return RatingChange(
        game_set_id=game_set.pk,
        user_id=user_id,
        opponent_id=opponent_id,
        result=_RESULT_NAME[outcome],
        games_count=game_set.games_count,
        rating_before=before.rating,
        rating_after=after.rating,
        results_before=before.results,
        opponent_rating_before=opp_before.rating,
        opponent_results_before=opp_before.results,
        created_at=when,
    )


def on_set_finished(sender, game_set: GameSet, **kwargs) -> None:
    """``games.signals.set_finished`` receiver: runs inside the finishing transaction."""
    rating_apply_set(game_set=game_set)


def on_user_saved(sender, instance: User, created: bool, update_fields=None, **kwargs) -> None:
    """Keep ``Rating.username`` and ``Rating.is_computer`` (and the rank buckets) equal to the
    user's."""
    if created:
        return
    if update_fields is None or "username" in update_fields:
        Rating.objects.filter(user_id=instance.pk).exclude(username=instance.username).update(
            username=instance.username
        )
    if update_fields is not None and "is_computer" not in update_fields:
        return
    with transaction.atomic():
        rows = list(
            Rating.objects.select_for_update()
            .filter(user_id=instance.pk)
            .exclude(is_computer=instance.is_computer)
            .order_by("id")
        )
        if not rows:
            return
        removed = [bucket_key(row) for row in rows]
        Rating.objects.filter(pk__in=[row.pk for row in rows]).update(
            is_computer=instance.is_computer
        )
        for row in rows:
            row.is_computer = instance.is_computer
        _buckets_shift(removed=removed, added=[bucket_key(row) for row in rows])


def on_rating_deleted(sender, instance: Rating, **kwargs) -> None:
    _buckets_shift(removed=[bucket_key(instance)])


def crown_award(
    *, user: User, tournament_name: str, tournament_id: int, variant: str, won_at: datetime
) -> Crown:
    """Record a tournament win (idempotent per tournament and user)."""
    crown, _ = Crown.objects.get_or_create(
        user=user,
        tournament_id=tournament_id,
        defaults={"tournament_name": tournament_name, "variant": variant, "won_at": won_at},
    )
    return crown


# --- Replay -------------------------------------------------------------------------------

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
        .prefetch_related(Prefetch("games", queryset=Game.objects.only(*_GAME_FIELDS_FOR_PLAYED)))
    )
    for game_set in _replay_order([s for s in candidates if set_is_rateable(s)]):
        variant, category = game_set.variant, rating_category(game_set.category)
        key1 = (game_set.player1_id, variant, category)
        key2 = (game_set.player2_id, variant, category)
        before1, before2 = replay.records.get(key1, Record()), replay.records.get(key2, Record())
        outcome1 = _OUTCOME_OF_RESULT[game_set.result]
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
                _change(game_set, key[0], opp_key[0], outcome, before, after, opp_before, when),
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
            _STAT_FIELDS,
            tolerance,
        )
    for row_id, stored, actual in Rating.objects.exclude(username=F("user__username")).values_list(
        "id", "username", "user__username"
    ):
        yield Difference(f"rating row {row_id}", "username", stored, actual)
    stored_buckets = Counter(
        {
            tuple(getattr(b, name) for name in _BUCKET_FIELDS): b.players
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
        _store_record(row, record)
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
    rating_buckets_rebuild()
