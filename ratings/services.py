"""Writes of the ratings app: applying a finished set exactly once, crowns, and the replay that
checks (and can repair) every stored rating.
"""

from __future__ import annotations

import functools
import logging
from collections import Counter
from collections.abc import Iterable
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import User
from games.engine import get_variant, new_game
from games.play.models import Game, GameSet
from games.play.positions import ENGINE_OPTION_FIELDS, engine_options
from games.play.selectors import seats_with_users
from ratings.elo import (
    CATEGORY_OF_SET,
    ESTABLISHED_RESULTS,
    Outcome,
    Record,
    bucket_of,
    rating_category,
    record_set,
)
from ratings.models import (
    RANK_BUCKET_WIDTH,
    ComputerRating,
    ComputerRatingChange,
    Crown,
    Rating,
    RatingBucket,
    RatingChange,
)
from ratings.selectors import rating_or_start
from ratings.signals import ratings_changed

logger = logging.getLogger(__name__)

#: The set's category -> the rating it counts for. Pente.org keeps "one rating for normal or
#: untimed games, and one for speed games" (plus turn-based), so untimed counts as normal.

OUTCOME_OF_RESULT = {"player1": Outcome.WIN, "player2": Outcome.LOSS, "draw": Outcome.DRAW}
_RESULT_NAME = {Outcome.WIN: "win", Outcome.LOSS: "loss", Outcome.DRAW: "draw"}

STAT_FIELDS = ("rating", "results", "wins", "losses", "draws", "streak", "best_streak")


def set_is_rateable(game_set: GameSet) -> bool:
    """A finished rated set with a result between two different humans, in which at least one
    game was actually played (see :func:`set_was_played`)."""
    return (
        game_set.rated
        and game_set.status == GameSet.Status.FINISHED
        and game_set.result in OUTCOME_OF_RESULT
        and game_set.player1_id != game_set.player2_id
        and game_set.category in CATEGORY_OF_SET
        and not game_set.player1.is_computer
        and not game_set.player2.is_computer
        and set_was_played(game_set)
    )


GAME_FIELDS_FOR_PLAYED = ("game_set_id", "end_reason", "ply", *ENGINE_OPTION_FIELDS)


@functools.cache
def _automatic_plies_of(variant: str, options: tuple[tuple[str, object], ...]) -> int:
    return len(new_game(get_variant(variant), **dict(options)).actions)


def _automatic_plies(game: Game) -> int:
    """The actions the engine makes by itself when the game is created (the centre stone)."""
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
    return Record(**{name: getattr(row, name) for name in STAT_FIELDS})


def store_record(row: Rating, record: Record) -> None:
    for name in STAT_FIELDS:
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
            defaults={"is_computer": user.is_computer, "listed": user.is_active},
        )
        if created:
            created_for.add(user.pk)
    return created_for


# --- rank buckets -------------------------------------------------------------------------

BucketKey = tuple[str, str, bool, bool, int]  # variant, category, established, computer, bucket
BUCKET_FIELDS = ("variant", "category", "established", "is_computer", "bucket")


def bucket_key(row: Rating) -> BucketKey | None:
    """The rank bucket that counts ``row``; None for a row that is not listed (its account is
    deactivated), which no bucket counts."""
    if not row.listed:
        return None
    return (
        row.variant,
        row.category,
        row.results >= ESTABLISHED_RESULTS,
        row.is_computer,
        bucket_of(row.rating, RANK_BUCKET_WIDTH),
    )


def _buckets_shift(
    *, removed: Iterable[BucketKey | None] = (), added: Iterable[BucketKey | None] = ()
) -> None:
    """Move rows between rank buckets (None: a row no bucket counts). Call after the rating rows
    are locked; bucket rows are then locked in key order, so concurrent callers cannot
    deadlock."""
    delta = Counter(key for key in added if key is not None)
    delta.subtract(Counter(key for key in removed if key is not None))
    for key in sorted(k for k, n in delta.items() if n):
        fields = dict(zip(BUCKET_FIELDS, key, strict=True))
        bump = F("players") + delta[key]
        if RatingBucket.objects.filter(**fields).update(players=bump):
            continue
        try:
            with transaction.atomic():
                RatingBucket.objects.create(**fields, players=delta[key])
        except IntegrityError:  # created concurrently: now it exists
            RatingBucket.objects.filter(**fields).update(players=bump)


_BUCKET_ROW_FIELDS = ("variant", "category", "results", "is_computer", "listed", "rating")


def rating_buckets_count() -> Counter:
    """The rank buckets as the rating rows say they should be."""
    return Counter(
        bucket_key(row) for row in Rating.objects.filter(listed=True).only(*_BUCKET_ROW_FIELDS)
    )


@transaction.atomic
def rating_buckets_rebuild() -> None:
    """Recount every rank bucket from the rating rows."""
    counts = rating_buckets_count()
    RatingBucket.objects.all().delete()
    RatingBucket.objects.bulk_create(
        RatingBucket(**dict(zip(BUCKET_FIELDS, key, strict=True)), players=n)
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
        outcome1 = OUTCOME_OF_RESULT[game_set.result]
        after1, after2 = record_set(before1, before2, outcome1, games_count=game_set.games_count)
        removed = [bucket_key(row) for row in (row1, row2) if row.user_id not in created]
        changes = []
        for row, before, after, opp_before, opponent, outcome in (
            (row1, before1, after1, before2, player2, outcome1),
            (row2, before2, after2, before1, player1, outcome1.opposite),
        ):
            store_record(row, after)
            row.last_played_at = when
            row.save()
            change = change_row(
                game_set, row.user_id, opponent.pk, outcome, before, after, opp_before, when
            )
            change.rating = row
            changes.append(change)
        RatingChange.objects.bulk_create(changes)
        _buckets_shift(removed=removed, added=[bucket_key(row1), bucket_key(row2)])
        ratings_changed.send(sender=RatingChange, game_set=game_set, changes=changes)
    return True


def change_row(
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
    """``games.play.signals.set_finished`` receiver: runs inside the finishing transaction."""
    rating_apply_set(game_set=game_set)


# --- the computers' own ratings -------------------------------------------------------------

#: A finished game's ``winner_seats`` -> seat 1's result (anything else is a draw).
_SEAT1_OUTCOME = {(1,): Outcome.WIN, (2,): Outcome.LOSS}


def computer_game_is_rateable(game: Game) -> bool:
    """A finished two-player game against one of the server's computers, outside any set
    (those are unrated for the humans), in which a stone was played."""
    return (
        game.against_computer
        and game.status == Game.Status.FINISHED
        and game.seats == 2
        and game.game_set_id is None
        and not game_was_forfeited_unplayed(game)
    )


def computer_rating_apply(*, game: Game) -> int:
    """Move the rating of each computer opponent of a finished game (one game, Elo against
    the opponent's rating before it: a human's ``Rating``, which does not change, or the other
    computer's). Returns how many ratings moved: 0 when the game does not count or was already
    applied (the (game, computer) unique change makes it exactly once)."""
    if not computer_game_is_rateable(game):
        return 0
    players = {row.seat: row.user for row in seats_with_users(game) if row.user is not None}
    if set(players) != {1, 2} or players[1].pk == players[2].pk:
        return 0
    computers = [seat for seat, user in players.items() if user.bot_level is not None]
    if not computers or ComputerRatingChange.objects.filter(game_id=game.pk).exists():
        return 0
    variant, category = game.variant, rating_category(game.category)
    outcome1 = _SEAT1_OUTCOME.get(tuple(game.winner_seats), Outcome.DRAW)
    when = game.finished_at or timezone.now()
    with transaction.atomic():
        for seat in computers:
            ComputerRating.objects.get_or_create(
                user=players[seat], variant=variant, category=category
            )
        rows = {
            row.user_id: row
            for row in ComputerRating.objects.select_for_update()
            .filter(user__in=[players[s] for s in computers], variant=variant, category=category)
            .order_by("id")
        }
        if ComputerRatingChange.objects.filter(game_id=game.pk).exists():
            return 0
        before = {}
        for seat, user in players.items():
            row = rows.get(user.pk)
            if row is not None:
                before[seat] = Record(
                    rating=row.rating,
                    results=row.results,
                    wins=row.wins,
                    losses=row.losses,
                    draws=row.draws,
                )
            else:
                rating, results = rating_or_start(user=user, variant=variant, category=category)
                before[seat] = Record(rating=rating, results=results)
        after = dict(
            zip((1, 2), record_set(before[1], before[2], outcome1, games_count=1), strict=True)
        )
        for seat in computers:
            row, new, outcome = rows[players[seat].pk], after[seat], outcome1
            if seat == 2:
                outcome = outcome1.opposite
            other = 3 - seat
            for name in ("rating", "results", "wins", "losses", "draws"):
                setattr(row, name, getattr(new, name))
            row.last_played_at = when
            row.save()
            ComputerRatingChange.objects.create(
                game_id=game.pk,
                user=players[seat],
                rating=row,
                opponent=players[other],
                result=_RESULT_NAME[outcome],
                rating_before=before[seat].rating,
                rating_after=new.rating,
                results_before=before[seat].results,
                opponent_rating_before=before[other].rating,
                opponent_results_before=before[other].results,
                created_at=when,
            )
    return len(computers)


def on_game_finished(sender, game: Game, **kwargs) -> None:
    """``games.play.signals.game_finished`` receiver (inside the finishing transaction): a
    game against the computer moves the computer's rating."""
    if game.against_computer:
        computer_rating_apply(game=game)


# The user's fields that rating rows copy, and the copies' names.
_USER_COPIES = {"is_computer": "is_computer", "is_active": "listed"}


def on_user_saved(sender, instance: User, created: bool, update_fields=None, **kwargs) -> None:
    """Keep ``Rating.username``, ``Rating.is_computer`` and ``Rating.listed`` (and the rank
    buckets) equal to the user's name, computer flag and active flag."""
    if created:
        return
    if update_fields is None or "username" in update_fields:
        Rating.objects.filter(user_id=instance.pk).exclude(username=instance.username).update(
            username=instance.username
        )
    wanted = {
        copy: getattr(instance, field)
        for field, copy in _USER_COPIES.items()
        if update_fields is None or field in update_fields
    }
    if not wanted:
        return
    differs = Q()
    for copy, value in wanted.items():
        differs |= ~Q(**{copy: value})
    with transaction.atomic():
        rows = list(
            Rating.objects.select_for_update().filter(differs, user_id=instance.pk).order_by("id")
        )
        if not rows:
            return
        removed = [bucket_key(row) for row in rows]
        Rating.objects.filter(pk__in=[row.pk for row in rows]).update(**wanted)
        for row in rows:
            for copy, value in wanted.items():
                setattr(row, copy, value)
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
