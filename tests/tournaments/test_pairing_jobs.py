"""The organiser's start, next round and pairing decision answer at once (202) and leave the
pairing to a job: the answer says ``pairing_pending``; the job pairs and clears it; the sweeper
makes any pairing whose job was lost; the page says it is pairing and reloads by itself."""

from __future__ import annotations

import pytest
from django.test import TestCase

from tests.tournaments.support import (
    client_for,
    imported_after_round_1,
    jobs_run,
    make_tournament,
)
from tournaments import services
from tournaments.models import Match, Round, Tournament

pytestmark = pytest.mark.django_db


def _start_without_its_job(t: Tournament):
    """``POST start`` whose job is enqueued but never runs (a worker lost it); the answer and
    the callbacks the commit would have run."""
    with TestCase.captureOnCommitCallbacks() as callbacks:
        response = client_for(t.organiser).post(f"/api/tournaments/{t.pk}/start/")
    return response, callbacks


def test_start_now_answers_before_the_pairing_and_its_job_pairs_the_first_round():
    t = make_tournament(players=4, start=False)
    response, callbacks = _start_without_its_job(t)
    assert response.status_code == 202, response.data
    assert response.data["status"] == "registration" and response.data["pairing_pending"]
    assert not Round.objects.filter(tournament=t).exists()  # nothing paired in the request
    for callback in callbacks:  # the worker picks the job up
        callback()
    shown = client_for().get(f"/api/tournaments/{t.pk}/").data
    assert shown["status"] == "running" and shown["current_round"] == 1
    assert shown["pairing_pending"] is False
    assert Match.objects.filter(tournament=t, round__number=1).count() == 2


def test_a_start_whose_job_was_lost_is_made_by_the_sweeper_before_the_start_time():
    t = make_tournament(players=4, start=False)  # starts in an hour
    _start_without_its_job(t)
    report = services.sweep()
    t.refresh_from_db()
    assert report["started"] == 1 and t.status == "running" and t.current_round == 1
    assert not t.pairing_pending


def test_a_second_start_while_the_first_is_pending_is_harmless():
    t = make_tournament(players=4, start=False)
    _start_without_its_job(t)
    with jobs_run():
        again = client_for(t.organiser).post(f"/api/tournaments/{t.pk}/start/")
    assert again.status_code == 202
    t.refresh_from_db()
    assert t.status == "running" and Round.objects.filter(tournament=t).count() == 1
    late = client_for(t.organiser).post(f"/api/tournaments/{t.pk}/start/")
    assert late.status_code == 409 and late.data["code"] == "already_started"


def test_a_pending_start_of_a_tournament_cancelled_meanwhile_is_not_made():
    t = make_tournament(players=4, start=False)
    _, callbacks = _start_without_its_job(t)
    assert client_for(t.organiser).post(f"/api/tournaments/{t.pk}/cancel/").status_code == 200
    for callback in callbacks:
        callback()
    services.sweep()
    shown = client_for().get(f"/api/tournaments/{t.pk}/").data
    assert shown["status"] == "cancelled" and shown["pairing_pending"] is False
    assert not Round.objects.filter(tournament=t).exists()


def _enter_every_result(imported: Tournament, api, base: str) -> None:
    for m in Match.objects.filter(tournament=imported, status="in_progress"):
        api.post(f"{base}/matches/{m.pk}/result/", {"result": "player1"}, "json")


def test_the_sweeper_leaves_an_imported_event_with_every_result_in_until_its_organiser_asks():
    imported, api, base = imported_after_round_1(players=6, rounds=3)
    _enter_every_result(imported, api, base)
    services.sweep()
    imported.refresh_from_db()
    assert imported.current_round == 1 and not imported.pairing_pending


def test_a_next_round_whose_job_was_lost_is_paired_by_the_sweeper():
    imported, api, base = imported_after_round_1(players=6, rounds=3)
    _enter_every_result(imported, api, base)
    with TestCase.captureOnCommitCallbacks():  # enqueued, never run
        response = api.post(f"{base}/next-round/")
    assert response.status_code == 202 and response.data["pairing_pending"]
    assert response.data["current_round"] == 1
    report = services.sweep()
    imported.refresh_from_db()
    assert report["advanced"] == 1 and imported.current_round == 2
    assert not imported.pairing_pending


def test_the_page_of_a_tournament_being_paired_says_so_and_reloads_itself(client):
    t = make_tournament(players=4, start=False)
    _start_without_its_job(t)
    client.force_login(t.organiser)
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="pairing-pending"' in html and 'http-equiv="refresh"' in html
    assert f'data-api="tournaments/{t.pk}/start"' not in html  # no second start button
    services.sweep()
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="pairing-pending"' not in html and 'http-equiv="refresh"' not in html
