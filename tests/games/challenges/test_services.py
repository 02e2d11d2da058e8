"""Challenge services below the API: the expiry sweeper, the ratings lookup,
and two accepters racing for one challenge (PostgreSQL)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.challenges import services
from games.challenges.models import Challenge
from games.challenges.selectors import restriction_failure
from games.challenges.tasks import challenges_expire
from games.clocks.timecontrol import TimeControl
from games.play.models import Game
from pente_site.errors import DomainError
from tests.factories import ChallengeFactory, UserFactory


@pytest.mark.django_db
def test_challenges_expire_task_marks_only_open_challenges_past_their_time():
    now = timezone.now()
    due = ChallengeFactory(expires_at=now - timedelta(seconds=1))
    later = ChallengeFactory(expires_at=now + timedelta(minutes=5))
    accepted = ChallengeFactory(expires_at=now - timedelta(days=1), status="accepted")
    assert challenges_expire.delay() is not None
    statuses = {c.pk: c.status for c in Challenge.objects.all()}
    assert statuses == {due.pk: "expired", later.pk: "open", accepted.pk: "accepted"}


@pytest.mark.django_db
def test_challenges_expire_due_counts_what_it_marked():
    now = timezone.now()
    ChallengeFactory.create_batch(2, expires_at=now - timedelta(minutes=1))
    assert services.challenges_expire_due(now=now) == 2
    assert services.challenges_expire_due(now=now) == 0


def test_beat_schedule_entry_names_the_registered_task():
    entry = settings.CELERY_BEAT_SCHEDULE["challenges-expire"]
    assert entry["task"] == challenges_expire.name


@pytest.mark.django_db
def test_rating_similar_without_any_rating_centres_on_1600():
    challenge = services.challenge_create(
        creator=UserFactory(), variant="Pente", restriction="rating_similar"
    )
    assert challenge.restriction_rating == 1600


@pytest.mark.django_db
def test_unrated_player_counts_as_a_beginner_with_the_real_ratings_lookup():
    challenge = services.challenge_create(
        creator=UserFactory(), variant="Pente", restriction="beginners"
    )
    assert restriction_failure(challenge=challenge, user=UserFactory()) is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    "options",
    [
        {"variant": "Gomoku", "seats": 3},
        {"variant": "Connect6", "partners": True},
        {"variant": "D-Pente", "tournament_rule": True},
    ],
)
def test_create_refuses_options_the_engine_does_not_offer(options):
    with pytest.raises(DomainError) as caught:
        services.challenge_create(creator=UserFactory(), **options)
    assert caught.value.code == "unsupported_options"
    assert not Challenge.objects.exists()


@pytest.mark.django_db
def test_accept_of_an_expired_challenge_given_now_is_refused():
    creator, acceptor = UserFactory(), UserFactory()
    made = timezone.now()
    challenge = services.challenge_create(
        creator=creator,
        variant="Pente",
        now=made,
        time_control=TimeControl.from_fields(time_control="live", initial_minutes=5),
    )
    with pytest.raises(DomainError) as caught:
        services.challenge_accept(
            challenge_id=challenge.pk, user=acceptor, now=made + timedelta(hours=1)
        )
    assert caught.value.code == "expired"
    challenge.refresh_from_db()
    assert challenge.status == "expired"


def _race(action, users, challenge_id):
    """Run ``action`` for every user at once in threads; returns outcomes (codes or 'ok')."""
    barrier = threading.Barrier(len(users))
    outcomes: list[str] = []
    lock = threading.Lock()

    def run(user):
        try:
            barrier.wait()
            action(challenge_id=challenge_id, user=user)
            outcome = "ok"
        except DomainError as exc:
            outcome = exc.code
        except Exception as exc:  # noqa: BLE001 - reported through the outcomes
            outcome = repr(exc)
        finally:
            connection.close()
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=run, args=(u,)) for u in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(outcomes)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_accepters_racing_only_one_wins():
    creator = UserFactory()
    challenge = services.challenge_create(creator=creator, variant="Pente")
    outcomes = _race(services.challenge_accept, [UserFactory(), UserFactory()], challenge.pk)
    assert outcomes == ["already_accepted", "ok"]
    assert Game.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_joiners_racing_for_the_last_seats_start_exactly_one_game():
    creator = UserFactory()
    challenge = services.challenge_create(creator=creator, variant="Pente", seats=3)
    outcomes = _race(services.challenge_join, [UserFactory() for _ in range(4)], challenge.pk)
    assert outcomes == ["already_accepted", "already_accepted", "ok", "ok"]
    assert Game.objects.count() == 1
    assert Game.objects.get().seat_rows.count() == 3


@pytest.mark.django_db
def test_deactivating_an_account_closes_its_challenges_and_leaves_the_others():
    from games.challenges.signals import challenge_changed
    from tests.factories import ChallengeEntryFactory

    banned, other = UserFactory(), UserFactory()
    own_open = ChallengeFactory(created_by=banned)
    own_direct = ChallengeFactory(created_by=banned, kind="direct", invitee=other)
    to_banned = ChallengeFactory(created_by=other, kind="direct", invitee=banned)
    joined = ChallengeFactory(created_by=other, seats=3)
    ChallengeEntryFactory(challenge=joined, user=other)
    ChallengeEntryFactory(challenge=joined, user=banned)
    untouched = ChallengeFactory(created_by=other)
    sent = []

    def receiver(sender, challenge, kind, **kwargs):
        sent.append((challenge.pk, kind))

    challenge_changed.connect(receiver)
    try:
        banned.is_active = False
        banned.save(update_fields=["is_active"])
    finally:
        challenge_changed.disconnect(receiver)
    statuses = dict(Challenge.objects.values_list("pk", "status"))
    assert statuses == {
        own_open.pk: "cancelled",
        own_direct.pk: "cancelled",
        to_banned.pk: "declined",
        joined.pk: "open",
        untouched.pk: "open",
    }
    assert sorted(sent) == sorted(
        [(own_open.pk, "cancelled"), (own_direct.pk, "cancelled"), (to_banned.pk, "declined")]
    )
    assert list(joined.entries.values_list("user", flat=True)) == [other.pk]
    with pytest.raises(DomainError) as err:
        services.challenge_accept(challenge_id=own_open.pk, user=other)
    assert err.value.code == "not_open"


@pytest.mark.django_db
def test_saving_an_active_account_or_other_fields_closes_nothing():
    user = UserFactory()
    challenge = ChallengeFactory(created_by=user)
    user.save()
    user.is_active = False
    user.save(update_fields=["email"])  # the flag is not among the fields saved
    assert Challenge.objects.get(pk=challenge.pk).status == "open"
