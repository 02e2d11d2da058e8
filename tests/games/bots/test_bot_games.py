"""The computer opponents move by themselves: a task after each action that leaves them to act,
through the same services as a human; a lost task is sent again by the resend sweeper, and
copies of a task play once."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone
from rest_framework.test import APIClient

from games.bots import services
from games.bots.models import BotTurn
from games.bots.tasks import RESEND_TASK, bots_resend
from games.play.actions import game_resign
from games.play.models import Game, Move
from pente_site.celery import app
from tests.factories import UserFactory, computer, make_game

pytestmark = pytest.mark.django_db


def _human_move(client, game_id: int, rng: random.Random) -> dict:
    """A random legal move near the board's centre for the human, its replies run at once."""
    body = client.get(f"/api/games/{game_id}/").json()
    taken = {s["point"] for s in body["board"]["stones"]}
    size = body["board"]["size"]
    free = [p for p in range(size * size) if p not in taken]
    with TestCase.captureOnCommitCallbacks(execute=True):
        for point in rng.sample(free, len(free)):
            response = client.post(
                f"/api/games/{game_id}/moves", {"ply": body["ply"], "point": point}, format="json"
            )
            if response.status_code == 200:
                return response.json()
    raise AssertionError("no legal move")


def test_a_game_against_the_computer_is_played_to_its_end_over_http():
    human, bot = UserFactory(), computer(1)
    with TestCase.captureOnCommitCallbacks(execute=True):
        game = make_game(players=[human, bot], variant="Gomoku")  # the computer moves first
    client = APIClient()
    client.force_authenticate(human)
    rng = random.Random(7)
    for _ in range(150):
        state = client.get(f"/api/games/{game.pk}/").json()
        if state["status"] != "in_progress":
            break
        assert state["to_move"]["seat"] == 1, "the computer answered every move"
        _human_move(client, game.pk, rng)
    game.refresh_from_db()
    assert game.status == "finished"
    bot_moves = Move.objects.filter(game=game, seat=2).count()
    human_moves = Move.objects.filter(game=game, seat=1).count()
    assert bot_moves >= human_moves - 2  # the centre stone is seat 1's


def test_a_computer_holding_the_first_turn_moves_when_the_game_is_created():
    human, bot = UserFactory(), computer(2)
    with TestCase.captureOnCommitCallbacks(execute=True):
        game = make_game(players=[human, bot])  # seat 1's centre stone; seat 2 (the bot) moves
    game.refresh_from_db()
    assert game.ply == 2 and Move.objects.get(game=game, ply=2).seat == 2


def _late(seconds: float = 60):
    return timezone.now() + timedelta(seconds=seconds)


def test_a_lost_move_task_is_sent_again_once_its_move_is_late():
    human, bot = UserFactory(), computer(1)
    game = make_game(players=[human, bot])  # the task's on-commit callback never runs: lost
    assert services.bots_resend() == services.ResendReport()  # not due yet: nothing sent
    assert Game.objects.get(pk=game.pk).ply == 1
    assert services.bots_resend(now=_late()).resent == 1  # due: sent again (run at once here)
    assert Game.objects.get(pk=game.pk).ply == 2
    assert not BotTurn.objects.filter(game=game).exists()  # the turn is over: its row goes


def test_a_move_is_due_its_think_time_plus_the_grace_after_the_turn_starts(settings, monkeypatch):
    settings.BOT_RESEND_SECONDS = 3
    sent = []
    monkeypatch.setattr(services, "enqueue", lambda name, args: sent.append(args))
    human, bot = UserFactory(), computer(1)
    start = timezone.now()
    game = make_game(players=[human, bot])
    think = services.BUDGETS[1] * settings.BOT_THINK_SCALE
    due = start + timedelta(seconds=think + 3)
    assert services.bots_resend(now=due - timedelta(milliseconds=100)).resent == 0
    assert services.bots_resend(now=due + timedelta(milliseconds=100)).resent == 1
    assert sent == [(game.pk, 1)]


def test_a_turn_no_worker_takes_is_sent_again_after_waits_that_double():
    human, bot = UserFactory(), computer(1)
    game = make_game(players=[human, bot])
    turn = BotTurn.objects.get(game=game)
    sent = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(services, "enqueue", lambda name, args: sent.append(args))
        now = turn.resend_at
        assert services.bots_resend(now=now).resent == 1
        assert services.bots_resend(now=now).resent == 0  # a second sweep at once sends nothing
        for wait in (3, 6, 12, 24, 48, 60, 60):
            assert services.bots_resend(now=now + timedelta(seconds=wait - 0.01)).resent == 0
            now += timedelta(seconds=wait)
            assert services.bots_resend(now=now).resent == 1
    assert len(sent) == 8 and BotTurn.objects.get(game=game).sends == 9


def test_the_resend_sweeper_costs_one_query_when_no_move_is_late(django_assert_num_queries):
    make_game(players=[UserFactory(), computer(1)])  # its move is not late yet
    with django_assert_num_queries(1):
        assert services.bots_resend() == services.ResendReport()


def test_the_turn_of_a_game_that_ended_is_dropped_not_sent_again(monkeypatch):
    human, bot = UserFactory(), computer(1)
    game = make_game(players=[human, bot])
    game_resign(game_id=game.pk, user=human)
    monkeypatch.setattr(services, "enqueue", lambda name, args: pytest.fail("sent again"))
    assert services.bots_resend(now=_late()) == services.ResendReport(dropped=1)
    assert not BotTurn.objects.filter(game=game).exists()


def _thinking(monkeypatch, during) -> None:
    """Make the computer's think run ``during()`` before it answers."""
    real = services.choose_move

    def think(position, **kwargs):
        during()
        return real(position, **kwargs)

    monkeypatch.setattr(services, "choose_move", think)


def test_a_second_copy_of_the_task_does_nothing_while_the_first_thinks(monkeypatch):
    human, bot = UserFactory(), computer(1)
    game = make_game(players=[human, bot])
    answers = []
    _thinking(monkeypatch, lambda: answers.append(services.bot_play(game_id=game.pk, ply=1)))
    assert services.bot_play(game_id=game.pk, ply=1) == "played"
    assert answers == ["claimed"]
    assert list(Move.objects.filter(game=game, seat=2).values_list("ply", flat=True)) == [2]


def test_a_resend_while_the_first_task_still_thinks_plays_once(monkeypatch):
    """The first worker is slow, not dead: the sweeper frees the turn and sends it again, the
    copy plays, and the first task's move is refused by the move's own ply check."""
    human, bot = UserFactory(), computer(1)
    game = make_game(players=[human, bot])
    reports, swept = [], []

    def sweep_once() -> None:  # in the first think only (the copy thinks through it too)
        if not swept:
            swept.append(True)
            reports.append(services.bots_resend(now=_late()))

    _thinking(monkeypatch, sweep_once)
    # the copy sent by the sweeper runs at once (eager), inside the first task's think; the
    # first task's move then finds the ply taken ("stale"), or, the same stone, a repeat
    assert services.bot_play(game_id=game.pk, ply=1) in ("stale", "played")
    assert reports[0].resent == 1
    game.refresh_from_db()
    assert game.ply == 2 and Move.objects.filter(game=game, seat=2).count() == 1


def test_a_turn_whose_worker_died_mid_think_is_sent_again_and_played(monkeypatch):
    human, bot = UserFactory(), computer(1)
    game = make_game(players=[human, bot])

    def killed(position, **kwargs):
        raise SystemExit("the worker is killed")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(services, "choose_move", killed)
        with pytest.raises(SystemExit):
            services.bot_play(game_id=game.pk, ply=1)
    turn = BotTurn.objects.get(game=game)
    assert turn.claimed_at is not None and Game.objects.get(pk=game.pk).ply == 1
    assert services.bot_play(game_id=game.pk, ply=1) == "claimed"  # a copy: still held
    assert services.bots_resend(now=turn.resend_at - timedelta(seconds=0.01)).resent == 0
    assert services.bots_resend(now=turn.resend_at).resent == 1  # freed, sent, played
    assert Game.objects.get(pk=game.pk).ply == 2


def test_beat_runs_the_resend_sweeper_every_second_off_the_bots_queue(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["bots-resend-due"]
    assert entry["task"] == bots_resend.name == RESEND_TASK and RESEND_TASK in app.tasks
    assert entry["schedule"] == 1.0 and entry["options"]["expires"] == 1.0
    assert RESEND_TASK not in settings.CELERY_TASK_ROUTES  # never queued behind a think
    tasks = [e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()]
    assert [t for t in tasks if t.startswith("games.bots.") and "analys" not in t] == [RESEND_TASK]


def test_a_stale_move_task_does_nothing():
    human, bot = UserFactory(), computer(1)
    game = make_game(players=[human, bot])
    assert services.bot_play(game_id=game.pk, ply=0) == "stale"
    assert services.bot_play(game_id=game.pk, ply=1) == "played"
    assert services.bot_play(game_id=game.pk, ply=1) == "stale"
    assert services.bot_play(game_id=game.pk, ply=2) == "not_bot"  # the human's turn


def test_the_computer_plays_go_and_answers_the_marking():
    human, bot = UserFactory(), computer(4)
    game = make_game(players=[human, bot], variant="Go (9x9)")
    client = APIClient()
    client.force_authenticate(human)
    url = f"/api/games/{game.pk}"
    for _ in range(200):
        state = client.get(f"{url}/").json()
        if state["status"] != "in_progress":
            break
        assert state["to_move"]["seat"] == 1
        with TestCase.captureOnCommitCallbacks(execute=True):
            if state["go"]["phase"] == "marking":
                client.post(f"{url}/dead", {"ply": state["ply"], "points": []}, format="json")
            else:
                client.post(f"{url}/moves", {"ply": state["ply"], "point": "PASS"}, format="json")
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.winner_seats) == ("finished", "score", [2])


def test_think_time_stays_within_a_twentieth_of_a_live_clock():
    bot = computer(8)
    game = make_game(players=[UserFactory(), bot])
    assert services.bot_budget(game=game, seat=2, level=8) == 5.0
    game.time_control, game.clocks_ms = "live", [60_000, 20_000]
    assert services.bot_budget(game=game, seat=2, level=8) == 1.0
