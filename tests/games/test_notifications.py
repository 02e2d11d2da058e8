"""E-mail notifications (games.notifications.services): the account's choices, one message for
the turns of several turn-based games, exactly once per turn whatever runs the job, a direct
challenge, a game over, and the link that turns one kind off.

Times are frozen by passing ``now``; the turns' job is called directly (in these tests the
transaction never commits, so the job the move enqueues on commit is not run by itself), and
``django_capture_on_commit_callbacks(execute=True)`` lets the job's message reach the e-mail job.
"""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail, signing
from django.db import connection
from rest_framework.test import APIClient

from accounts.links import unsubscribe_token
from accounts.mail import email_send
from accounts.models import User
from games.challenges.services import challenge_create
from games.clocks.timecontrol import TimeControl
from games.notifications import services as notifications
from games.notifications.models import TurnNotice
from games.notifications.services import turn_emails_send, turn_emails_sweep
from games.play.actions import game_resign, move_play
from games.play.models import Game
from pente_site.errors import Invalid
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db

SITE = "https://pente.example.org"
T0 = datetime(2025, 1, 2, 10, 30, tzinfo=UTC)  # a Thursday
WAIT = timedelta(seconds=120)
K9, L10 = 199, 181  # near the centre stone (K10), which seat 1 has at the start


@pytest.fixture(autouse=True)
def _site(settings):
    settings.PUBLIC_URL = SITE
    settings.TURN_EMAIL_WAIT_SECONDS = 120
    settings.TURN_EMAIL_STALE_SECONDS = 60


def person(**fields) -> User:
    """A person with a confirmed address (what a notification needs)."""
    return UserFactory(email_verified=True, **fields)


def turn_game(first: User, second: User, *, now: datetime = T0) -> Game:
    """A turn-based game (3 days a move) in which ``second`` is to move (seat 1 has the centre)."""
    return make_game(players=[first, second], time_control="turn", days_per_move=3, now=now)


def run_job(user: User, *, now: datetime, capture) -> int:
    with capture(execute=True):
        return turn_emails_send(user_id=user.pk, now=now)


def test_a_new_account_wants_turn_and_challenge_emails_and_not_game_overs():
    profile = _api(UserFactory()).get("/api/me").json()
    assert profile["email_on_turn"] is True
    assert profile["email_on_challenge"] is True
    assert profile["email_on_game_over"] is False


def test_patch_me_changes_the_email_choices_one_at_a_time():
    user = UserFactory()
    answer = _api(user).patch("/api/me", {"email_on_turn": False, "email_on_game_over": True})
    assert answer.status_code == 200
    body = answer.json()
    assert (body["email_on_turn"], body["email_on_challenge"], body["email_on_game_over"]) == (
        False,
        True,
        True,
    )
    user.refresh_from_db()
    assert not user.email_on_turn and user.email_on_challenge and user.email_on_game_over


def test_patch_me_refuses_an_email_choice_that_is_not_a_boolean():
    answer = _api(UserFactory()).patch("/api/me", {"email_on_turn": "sometimes"})
    assert answer.status_code == 400


def _api(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


# --- your turn ---------------------------------------------------------------------------------


def test_turns_in_several_games_within_the_wait_come_in_one_message(
    django_capture_on_commit_callbacks,
):
    alice = person(username="alice", time_zone="Europe/Paris")
    bob, carol, dave = (UserFactory(username=n) for n in ("bob", "carol", "dave"))
    for i, opponent in enumerate((bob, carol, dave)):
        turn_game(opponent, alice, now=T0 + timedelta(seconds=20 * i))
    assert run_job(alice, now=T0 + WAIT, capture=django_capture_on_commit_callbacks) == 3
    (message,) = mail.outbox
    assert message.to == [alice.email]
    assert message.subject == "Your move in 3 games on pente.example.org"
    for name in ("bob", "carol", "dave"):
        assert f"Pente against {name} (game " in message.body
    # The deadline (3 days a move, Saturday and Sunday not counted) in alice's time zone.
    assert "Move by Tuesday 7 January 2025, 11:30 (Europe/Paris)" in message.body
    game_links = re.findall(rf"{SITE}/games/\d+/", message.body)
    assert len(game_links) == 3
    # The turns told are told once: the two later games' own jobs find nothing left.
    assert (
        run_job(
            alice, now=T0 + WAIT + timedelta(seconds=40), capture=django_capture_on_commit_callbacks
        )
        == 0
    )
    assert len(mail.outbox) == 1


def test_the_job_waits_until_a_turn_has_waited_its_while(django_capture_on_commit_callbacks):
    alice = person()
    turn_game(UserFactory(), alice)
    assert (
        run_job(
            alice, now=T0 + WAIT - timedelta(seconds=1), capture=django_capture_on_commit_callbacks
        )
        == 0
    )
    assert mail.outbox == [] and TurnNotice.objects.filter(user=alice).count() == 1
    assert run_job(alice, now=T0 + WAIT, capture=django_capture_on_commit_callbacks) == 1


def test_one_game_is_named_in_the_subject(django_capture_on_commit_callbacks):
    alice = person()
    turn_game(UserFactory(username="bob"), alice)
    run_job(alice, now=T0 + WAIT, capture=django_capture_on_commit_callbacks)
    assert mail.outbox[0].subject == "Your move in Pente against bob on pente.example.org"


def test_the_turn_starting_enqueues_its_job_after_commit_due_after_the_wait(
    monkeypatch, django_capture_on_commit_callbacks
):
    sent: list[tuple] = []
    monkeypatch.setattr(
        notifications, "enqueue", lambda name, *, args, eta=None: sent.append((name, args, eta))
    )
    alice = person()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        turn_game(UserFactory(), alice)
    assert sent == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert (notifications.TURN_EMAILS_TASK, (alice.pk,), T0 + WAIT) in sent


def test_no_message_for_a_live_game(django_capture_on_commit_callbacks):
    alice = person()
    make_game(players=[UserFactory(), alice], time_control=TimeControl.live(10, 5), now=T0)
    assert not TurnNotice.objects.exists()
    assert run_job(alice, now=T0 + WAIT, capture=django_capture_on_commit_callbacks) == 0
    assert mail.outbox == []


@pytest.mark.parametrize(
    "player",
    [
        {"email_verified": False},  # an address not confirmed
        {"email": ""},  # no address
        {"email_on_turn": False},  # turned off
        {"bot_level": 5, "is_computer": True, "username": "computer5"},  # a computer
        {"is_active": False, "deleted_at": T0},  # a deleted account
    ],
    ids=["unconfirmed", "no_address", "turned_off", "computer", "deleted"],
)
def test_no_message_to_a_player_who_may_not_or_would_not_get_it(
    player, django_capture_on_commit_callbacks
):
    alice = UserFactory(**{"email_verified": True, **player})
    turn_game(UserFactory(), alice)
    assert not TurnNotice.objects.exists()
    assert run_job(alice, now=T0 + WAIT, capture=django_capture_on_commit_callbacks) == 0
    assert mail.outbox == []


def test_turning_turn_emails_off_before_the_job_runs_drops_the_turns_untold(
    django_capture_on_commit_callbacks,
):
    alice = person()
    turn_game(UserFactory(), alice)
    User.objects.filter(pk=alice.pk).update(email_on_turn=False)
    assert run_job(alice, now=T0 + WAIT, capture=django_capture_on_commit_callbacks) == 0
    assert mail.outbox == [] and not TurnNotice.objects.exists()


def _alice_moves(game: Game, alice: User, bob: User) -> None:
    move_play(game_id=game.pk, user=alice, ply=1, points=[K9], now=T0 + timedelta(seconds=30))


def _bob_resigns(game: Game, alice: User, bob: User) -> None:
    game_resign(game_id=game.pk, user=bob, now=T0 + timedelta(seconds=30))


@pytest.mark.parametrize("meanwhile", [_alice_moves, _bob_resigns], ids=["played", "game_over"])
def test_no_message_for_a_turn_that_ended_before_the_job_runs(
    meanwhile, django_capture_on_commit_callbacks
):
    alice, bob = person(), UserFactory()
    game = turn_game(bob, alice)
    meanwhile(game, alice, bob)
    assert run_job(alice, now=T0 + WAIT, capture=django_capture_on_commit_callbacks) == 0
    assert mail.outbox == [] and not TurnNotice.objects.exists()


def test_a_player_who_answers_within_the_wait_is_not_told_of_the_next_turn_yet(
    django_capture_on_commit_callbacks,
):
    alice, bob = person(), UserFactory()
    game = turn_game(bob, alice)
    move_play(game_id=game.pk, user=alice, ply=1, points=[K9], now=T0 + timedelta(seconds=30))
    move_play(game_id=game.pk, user=bob, ply=2, points=[L10], now=T0 + timedelta(seconds=60))
    # The first turn's job: that turn was played, and the new one has not waited yet.
    assert run_job(alice, now=T0 + WAIT, capture=django_capture_on_commit_callbacks) == 0
    # The new turn's own job tells it.
    later = T0 + timedelta(seconds=60) + WAIT
    assert run_job(alice, now=later, capture=django_capture_on_commit_callbacks) == 1
    assert len(mail.outbox) == 1


# --- exactly once ------------------------------------------------------------------------------


def test_a_turn_is_told_once_when_the_job_runs_twice_and_the_sweeper_after(
    django_capture_on_commit_callbacks,
):
    alice = person()
    turn_game(UserFactory(), alice)
    later = T0 + WAIT + timedelta(hours=1)
    assert run_job(alice, now=T0 + WAIT, capture=django_capture_on_commit_callbacks) == 1
    assert run_job(alice, now=T0 + WAIT, capture=django_capture_on_commit_callbacks) == 0
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_emails_sweep(now=later) == 0
    assert len(mail.outbox) == 1


def test_the_sweeper_tells_a_turn_whose_job_was_lost_once(django_capture_on_commit_callbacks):
    alice = person()
    turn_game(UserFactory(), alice)
    with django_capture_on_commit_callbacks(execute=True):
        # Not yet: the job may only be late.
        assert turn_emails_sweep(now=T0 + WAIT + timedelta(seconds=59)) == 0
        assert turn_emails_sweep(now=T0 + WAIT + timedelta(seconds=60)) == 1
        assert turn_emails_sweep(now=T0 + WAIT + timedelta(seconds=90)) == 0
    assert len(mail.outbox) == 1
    assert run_job(alice, now=T0 + WAIT, capture=django_capture_on_commit_callbacks) == 0
    assert len(mail.outbox) == 1


def test_the_sweeper_clears_turns_played_whose_job_was_lost(django_capture_on_commit_callbacks):
    alice, bob = person(), UserFactory()
    game = turn_game(bob, alice)
    move_play(game_id=game.pk, user=alice, ply=1, points=[K9], now=T0 + timedelta(seconds=30))
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_emails_sweep(now=T0 + timedelta(hours=1)) == 1
        assert turn_emails_sweep(now=T0 + timedelta(hours=2)) == 0
    assert mail.outbox == [] and not TurnNotice.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_jobs_at_once_tell_each_turn_once(monkeypatch):
    # Eager Celery would run each turn's job as its game commits: here the two jobs run it.
    monkeypatch.setattr(notifications, "enqueue", lambda *args, **kwargs: None)
    alice = person()
    for _ in range(3):
        turn_game(UserFactory(), alice)
    claim = notifications._claim
    both_read = threading.Barrier(2)
    local = threading.local()

    def claim_after_both_read(notice):
        if not getattr(local, "waited", False):
            local.waited = True
            both_read.wait(timeout=10)
        return claim(notice)

    monkeypatch.setattr(notifications, "_claim", claim_after_both_read)
    told: list[int] = []

    def job():
        try:
            told.append(turn_emails_send(user_id=alice.pk, now=T0 + WAIT))
        finally:
            connection.close()

    threads = [threading.Thread(target=job) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(told) == [0, 3]
    assert len(mail.outbox) == 1 and mail.outbox[0].subject.startswith("Your move in 3 games")


# --- the site's address ------------------------------------------------------------------------


def test_a_turn_without_public_url_nor_a_request_behind_it_is_dropped_untold(
    settings, django_capture_on_commit_callbacks
):
    settings.PUBLIC_URL = ""
    alice = person()
    turn_game(UserFactory(), alice)  # made by a service, as a job would: no request
    assert TurnNotice.objects.get(user=alice).site_url == ""
    assert run_job(alice, now=T0 + WAIT, capture=django_capture_on_commit_callbacks) == 0
    assert mail.outbox == [] and not TurnNotice.objects.exists()


def test_the_address_of_the_request_is_kept_for_the_job(
    settings, django_capture_on_commit_callbacks
):
    settings.PUBLIC_URL = ""
    settings.ALLOWED_HOSTS = ["testserver"]
    alice, bob = person(), UserFactory()
    game = turn_game(alice, bob, now=datetime.now(UTC))  # the request moves now: in time
    answer = _api(bob).post(f"/api/games/{game.pk}/moves", {"ply": 1, "point": "K9"})
    assert answer.status_code == 200
    notice = TurnNotice.objects.get(game=game)
    assert (notice.user_id, notice.site_url) == (alice.pk, "http://testserver")
    assert run_job(alice, now=notice.due_at, capture=django_capture_on_commit_callbacks) == 1
    assert f"http://testserver/games/{game.pk}/" in mail.outbox[0].body


# --- a direct challenge, a game over -----------------------------------------------------------


def test_a_direct_challenge_is_e_mailed_to_the_player_challenged(
    django_capture_on_commit_callbacks,
):
    bob = person(username="bob", time_zone="America/New_York")
    alice = UserFactory(username="alice")
    with django_capture_on_commit_callbacks(execute=True):
        challenge_create(
            creator=alice,
            variant="Keryo-Pente",
            invitee_username="bob",
            rated=True,
            time_control=TimeControl.turn(3),
            message="A game for the weekend?",
            now=T0,
        )
    (message,) = mail.outbox
    assert message.to == [bob.email]
    assert message.subject == "alice challenges you to Keryo-Pente on pente.example.org"
    assert "rated, turn-based, 3 days per move" in message.body
    assert 'alice says: "A game for the weekend?"' in message.body
    assert "by Thursday 9 January 2025, 05:30 (America/New_York)" in message.body  # 7 days
    assert f"{SITE}/\n" in message.body
    assert "List-Unsubscribe" in message.extra_headers


def test_no_challenge_email_to_a_player_who_turned_them_off_nor_for_an_open_one(
    django_capture_on_commit_callbacks,
):
    person(username="bob", email_on_challenge=False)
    alice = UserFactory()
    with django_capture_on_commit_callbacks(execute=True):
        challenge_create(creator=alice, variant="Pente", invitee_username="bob")
        challenge_create(creator=alice, variant="Pente")
    assert mail.outbox == []


def test_challenge_emails_are_limited_per_challenger_and_in_all_so_none_can_flood_a_player(
    settings, django_capture_on_commit_callbacks
):
    """Five challenges in five seconds from one player make one e-mail; other players' still
    come, up to the hour's limit; the challenges themselves are all made."""
    settings.CHALLENGE_EMAILS_PER_HOUR = 2
    person(username="bob")
    alice, carol, dave = UserFactory(), UserFactory(), UserFactory()
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(5):
            challenge_create(creator=alice, variant="Pente", invitee_username="bob")
        challenge_create(creator=carol, variant="Pente", invitee_username="bob")
        challenge_create(creator=dave, variant="Pente", invitee_username="bob")
    senders = [message.subject.split(" ")[0] for message in mail.outbox]
    assert senders == [alice.username, carol.username]


def test_the_end_of_a_turn_based_game_is_e_mailed_to_those_who_asked(
    django_capture_on_commit_callbacks,
):
    alice = person(username="alice", email_on_game_over=True)
    bob = person(username="bob")  # did not ask: off by default
    game = turn_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        game_resign(game_id=game.pk, user=bob, now=T0 + timedelta(hours=1))
    (message,) = mail.outbox
    assert message.to == [alice.email]
    assert message.subject == "Your Pente game against bob is over"
    assert "You won by resignation." in message.body
    assert f"{SITE}/games/{game.pk}/" in message.body


def test_the_loser_who_asked_is_told_who_won(django_capture_on_commit_callbacks):
    alice, bob = UserFactory(username="alice"), person(username="bob", email_on_game_over=True)
    game = turn_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        game_resign(game_id=game.pk, user=bob, now=T0 + timedelta(hours=1))
    assert "alice won by resignation." in mail.outbox[0].body


def test_no_game_over_email_for_a_live_game(django_capture_on_commit_callbacks):
    alice = person(email_on_game_over=True)
    bob = UserFactory()
    game = make_game(players=[alice, bob], time_control=TimeControl.live(10, 5), now=T0)
    with django_capture_on_commit_callbacks(execute=True):
        game_resign(game_id=game.pk, user=bob, now=T0 + timedelta(minutes=1))
    assert mail.outbox == []


# --- the link that turns one kind off ----------------------------------------------------------


def test_each_message_links_to_turning_its_kind_off_and_names_the_settings(
    django_capture_on_commit_callbacks,
):
    alice = person()
    turn_game(UserFactory(), alice)
    run_job(alice, now=T0 + WAIT, capture=django_capture_on_commit_callbacks)
    (message,) = mail.outbox
    link = f"{SITE}/unsubscribe/{unsubscribe_token(user=alice, kind='turn')}/"
    assert link in message.body
    assert f"{SITE}/settings/" in message.body
    assert message.extra_headers["List-Unsubscribe"] == f"<{link}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_the_unsubscribe_token_turns_off_its_own_kind_only():
    alice = person(email_on_game_over=True)
    user, kind = notifications.email_unsubscribe(
        token=unsubscribe_token(user=alice, kind="challenge")
    )
    assert (user.pk, kind) == (alice.pk, "challenge")
    alice.refresh_from_db()
    assert (alice.email_on_turn, alice.email_on_challenge, alice.email_on_game_over) == (
        True,
        False,
        True,
    )


def _forged(token: str, other: str) -> list[str]:
    value, signature = token.rsplit(":", 1)
    return [
        token[:-2],  # cut short
        f"{other.rsplit(':', 1)[0]}:{signature}",  # another account's, with this signature
        signing.Signer(salt="elsewhere").sign_object([1, "turn"]),  # signed otherwise
        f"{value}:forged",
    ]


def test_a_forged_unsubscribe_token_is_refused():
    alice, bob = person(), person()
    token = unsubscribe_token(user=alice, kind="turn")
    for forged in _forged(token, unsubscribe_token(user=bob, kind="turn")):
        with pytest.raises(Invalid) as refused:
            notifications.email_unsubscribe(token=forged)
        assert refused.value.code == "bad_unsubscribe_link"
    assert User.objects.filter(email_on_turn=False).count() == 0


# --- the e-mail job ----------------------------------------------------------------------------


def test_the_email_job_still_sends_a_message_queued_without_headers():
    email_send(subject="Hello", body="A message queued before headers existed.", to=["a@b.org"])
    (message,) = mail.outbox
    assert message.subject == "Hello" and message.extra_headers == {}
