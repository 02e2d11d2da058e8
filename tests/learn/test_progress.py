"""Progress through the lessons: kept per account by ``lesson_answer``, once per step; a
visitor's kept in the session; the API's lessons and answers."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.services import account_delete
from learn import selectors, services
from learn.models import StepDone
from pente_site.errors import NotFound
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_right_answer_is_kept_for_the_account():
    user = UserFactory()
    answer = services.lesson_answer(user=user, lesson="pente", step=1, move="N10")
    assert answer.verdict.right
    assert answer.done == {1}
    assert answer.next_step == 2
    assert not answer.completed
    assert selectors.steps_done(user=user) == {"pente": {1}}


def test_a_wrong_answer_is_not_kept_and_says_why():
    user = UserFactory()
    answer = services.lesson_answer(user=user, lesson="pente", step=1, move="L11")
    assert not answer.verdict.right
    assert "Bracket the pair" in answer.verdict.feedback
    assert answer.done == frozenset()
    assert not StepDone.objects.exists()


def test_answering_a_step_again_keeps_one_row():
    user = UserFactory()
    for _ in range(2):
        services.lesson_answer(user=user, lesson="go-ko", step=1, move="E4")
    assert StepDone.objects.filter(user=user).count() == 1


def test_every_step_right_completes_the_lesson():
    user = UserFactory()
    last = None
    for move in ("E4", "D4", "D4"):
        step = 1 if last is None else last.step + 1
        last = services.lesson_answer(user=user, lesson="go-ko", step=step, move=move)
        assert last.verdict.right
    assert last.completed
    assert last.next_step is None


def test_progress_is_per_account():
    one, two = UserFactory(), UserFactory()
    services.lesson_answer(user=one, lesson="gomoku", step=1, move="H10")
    assert selectors.steps_done(user=two) == {}


def test_a_visitor_is_judged_and_nothing_is_stored():
    answer = services.lesson_answer(
        user=None, lesson="pente", step=2, move="K12", done_before=frozenset({1})
    )
    assert answer.verdict.right
    assert answer.done == {1, 2}
    assert not StepDone.objects.exists()


@pytest.mark.parametrize(
    ("lesson", "step", "code"), [("chess", 1, "lesson_not_found"), ("pente", 9, "step_not_found")]
)
def test_an_unknown_lesson_or_step_is_not_found(lesson, step, code):
    with pytest.raises(NotFound) as refused:
        services.lesson_answer(user=None, lesson=lesson, step=step, move="K10")
    assert refused.value.code == code


def test_the_api_lists_lessons_with_the_callers_progress():
    user = UserFactory()
    services.lesson_answer(user=user, lesson="pente", step=1, move="N10")
    client = APIClient()
    client.force_authenticate(user)
    body = client.get("/api/learn/lessons/").json()
    pente = next(row for row in body if row["slug"] == "pente")
    assert pente == {
        "slug": "pente",
        "title": pente["title"],
        "summary": pente["summary"],
        "game": "Pente",
        "game_slug": "pente",
        "steps": 4,
        "done": [1],
    }


def test_the_api_shows_a_lessons_steps_with_their_boards():
    body = APIClient().get("/api/learn/lessons/connect6/").json()
    first = body["step_list"][0]
    assert first["board"]["stones"] == 2
    assert first["board"]["rows"][9][9] == "1"  # the centre stone
    assert first["done"] is False
    swap = APIClient().get("/api/learn/lessons/swap2/").json()["step_list"][0]["board"]
    assert swap["decisions"] == ["swap", "keep", "place_two"]
    go = APIClient().get("/api/learn/lessons/go-end/").json()["step_list"][1]["board"]
    assert (go["go"], go["size"], go["action"], go["can_pass"]) == (True, 9, "mark", False)


def test_a_visitors_answers_are_kept_in_the_session():
    client = APIClient()
    url = "/api/learn/lessons/go-ko/steps/{}/answer/"
    assert client.post(url.format(1), {"move": "E4"}).json()["done"] == [1]
    second = client.post(url.format(2), {"move": "D4"}).json()
    assert second["right"] and second["refusal_code"] == "superko"
    assert second["done"] == [1, 2]
    listed = client.get("/api/learn/lessons/").json()
    assert next(r for r in listed if r["slug"] == "go-ko")["done"] == [1, 2]
    assert APIClient().get("/api/learn/lessons/go-ko/").json()["done"] == []  # another visitor
    assert not StepDone.objects.exists()


def test_the_api_answer_says_wrong_with_the_rules_refusal():
    client = APIClient()
    body = client.post("/api/learn/lessons/pente/steps/4/answer/", {"move": "L10"}).json()
    assert body["right"] is False
    assert body["refusal_code"] == "tournament_rule"
    assert "Tournament rule" in body["refusal"]
    assert body["rows"] == []


def test_the_api_refuses_a_bad_body_and_unknown_lessons():
    client = APIClient()
    bad = client.post("/api/learn/lessons/pente/steps/1/answer/", {"move": 7}, format="json")
    assert bad.status_code == 400
    missing = client.post("/api/learn/lessons/nope/steps/1/answer/", {"move": "K10"})
    assert (missing.status_code, missing.json()["code"]) == (404, "lesson_not_found")
    assert client.get("/api/learn/lessons/nope/").status_code == 404


def test_a_deleted_account_keeps_no_progress():
    user = UserFactory(password="secret-pass-123")
    services.lesson_answer(user=user, lesson="pente", step=1, move="N10")
    account_delete(user=user, password="secret-pass-123")
    assert not StepDone.objects.exists()
