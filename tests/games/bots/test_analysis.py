"""The computer's analysis of a finished game: ``POST /api/games/{id}/analysis`` answers 202 at
once, a task on the ``bots`` queue (eager here) evaluates every ply in batches, and
``GET /api/games/{id}/analysis`` shows the evaluation after each ply, the engine's best move
instead, the judgements and each player's summary. Runs resume after a crash without searching
a committed batch again; the sweeper hands stale analyses on."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.test import TestCase
from django.utils import timezone

from games.bots import analysis, go_search, search
from games.bots.analysis import Evaluation, judgement
from games.bots.models import Analysis
from games.bots.tasks import analyses_sweep, analysis_run
from games.play.actions import game_resign, move_play
from tests.clients import client_for
from tests.factories import UserFactory, make_game

pytestmark = pytest.mark.django_db

#: Seat 1 (K10, the centre stone) builds K10 L10 M10 N10 against seat 2's J10; at ply 8 seat 2
#: plays A5 instead of blocking the four at O10, and seat 1 makes five at ply 9.
MISSED_BLOCK = ["J10", "L10", "A1", "M10", "A3", "N10", "A5", "O10"]
BLUNDER_PLY = 8


@pytest.fixture(autouse=True)
def _fast_analysis(settings):
    settings.ANALYSIS_SECONDS_PER_MOVE = 0.02
    settings.ANALYSIS_BATCH_SIZE = 3
    settings.ANALYSIS_MAX_ACTIVE = 2


@pytest.fixture(autouse=True)
def _searches_by_nodes(monkeypatch):
    """The analysis' searches spend their seconds a ply as nodes (``max_nodes``, at the search's
    nominal ``_NODE_S`` a node): what they find does not depend on the machine's load."""

    def pente(position, *, level, budget_s, rng, **options):
        nodes = round(budget_s / search._NODE_S)
        return search.choose_move(position, level=level, max_nodes=nodes, rng=rng, **options)

    def go(position, *, level, budget_s, rng):
        nodes = round(budget_s / go_search._NODE_S)
        return go_search.go_action(position, level=level, max_nodes=nodes, rng=rng)

    monkeypatch.setattr(analysis, "choose_move", pente)
    monkeypatch.setattr(analysis, "go_action", go)


def played(points: list[str], *, players=None, variant: str = "Pente"):
    """A game between two players with ``points`` played from its first free ply on, seats
    alternating."""
    players = players or [UserFactory(), UserFactory()]
    game = make_game(players=players, variant=variant)
    for i, point in enumerate(points):
        ply = game.ply + i
        move_play(game_id=game.pk, user=players[ply % 2], ply=ply, points=[point])
    game.refresh_from_db()
    return game


def finished_game(**kwargs):
    game = played(MISSED_BLOCK, **kwargs)
    assert (game.status, game.ply) == ("finished", 9)
    return game


def post(user, game_id: int):
    return client_for(user).post(f"/api/games/{game_id}/analysis")


def queued(user, game) -> Analysis:
    """An analysis as the request leaves it (its task not run: no on-commit callback runs)."""
    response = post(user, game.pk)
    assert response.status_code == 202, response.json()
    return Analysis.objects.get(pk=response.json()["id"])


def analysed(user, game) -> dict:
    """POST, let the task enqueued on commit run to the end (eagerly), GET the analysis."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = post(user, game.pk)
    assert response.status_code == 202, response.json()
    body = client_for().get(response["Location"])
    assert body.status_code == 200, body.json()
    return body.json()


# --- the request ---------------------------------------------------------------------------


def test_a_post_answers_202_with_the_pending_analysis_and_its_location_and_runs_after_commit(
    django_capture_on_commit_callbacks,
):
    user, game = UserFactory(), finished_game()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = post(user, game.pk)
    assert response.status_code == 202
    body = response.json()
    assert response["Location"].endswith(f"/api/games/{game.pk}/analysis")
    assert (body["game"], body["status"], body["plies"]) == (game.pk, "pending", [])
    assert body["progress"] == {"processed": 0, "total": 9}
    assert body["started_at"] is None and body["error"] is None
    assert len(callbacks) == 2  # the task is enqueued, and the event sent, on commit
    for callback in callbacks:
        callback()
    assert client_for().get(response["Location"]).json()["status"] == "done"


def test_the_analysis_marks_the_missed_block_of_a_four_a_blunder_with_the_block_as_best(settings):
    # nodes enough for the level's threat search (it failed now and then with 0.02 s a ply on
    # a loaded machine, when searches were timed by the clock)
    settings.ANALYSIS_SECONDS_PER_MOVE = 0.15
    body = analysed(UserFactory(), finished_game())
    assert body["status"] == "done" and body["progress"] == {"processed": 9, "total": 9}
    plies = body["plies"]
    assert [p["ply"] for p in plies] == list(range(1, 10))
    assert [p["move"] for p in plies] == ["K10", *MISSED_BLOCK]
    assert [p["seat"] for p in plies] == [1, 2, 1, 2, 1, 2, 1, 2, 1]
    missed = plies[BLUNDER_PLY - 1]
    assert missed["move"] == "A5"
    assert missed["judgement"] == "blunder"
    assert missed["best_move"] == "O10"  # the block
    assert missed["evaluation"] == {"cp": 1000, "mate": "win"}  # seat 1 wins at once
    assert missed["best_evaluation"]["mate"] is None  # blocked, nothing is decided
    five = plies[-1]
    assert (five["move"], five["best_move"], five["judgement"]) == ("O10", "O10", None)
    assert five["evaluation"] == {"cp": 1000, "mate": "win"}
    centre = plies[0]  # the automatic first stone: nothing to judge
    assert (centre["best_move"], centre["best_evaluation"], centre["judgement"]) == (
        None,
        None,
        None,
    )
    assert all(-1000 <= p["evaluation"]["cp"] <= 1000 for p in plies)
    summary = {s["seat"]: s for s in body["summary"]}
    assert summary[2]["blunders"] >= 1 and summary[1]["blunders"] == 0
    assert summary[1]["name"] == game_names(body)[0]
    assert body["finished_at"] is not None and body["started_at"] is not None


def game_names(body: dict) -> list[str]:
    return [s["name"] for s in body["summary"]]


def test_asking_again_returns_the_same_analysis_202_while_pending_and_200_when_done(
    django_capture_on_commit_callbacks,
):
    user, game = UserFactory(), finished_game()
    first = queued(user, game)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        again = post(UserFactory(), game.pk)  # anyone asking gets the same one
    assert again.status_code == 202 and again.json()["id"] == first.pk
    assert callbacks == []  # nothing enqueued twice
    analysis_run.apply(args=(first.pk, 0))
    done = post(user, game.pk)
    assert done.status_code == 200 and done.json()["status"] == "done"
    assert done["Location"].endswith(f"/api/games/{game.pk}/analysis")
    assert Analysis.objects.filter(game=game).count() == 1


def test_the_database_refuses_a_second_analysis_of_a_game():
    user, game = UserFactory(), finished_game()
    Analysis.objects.create(game=game, requested_by=user)
    with pytest.raises(IntegrityError), transaction.atomic():
        Analysis.objects.create(game=game, requested_by=user)


def test_a_failed_analysis_asked_for_again_starts_again_after_its_plies():
    user, game = UserFactory(), finished_game()
    job = queued(user, game)
    Analysis.objects.filter(pk=job.pk).update(
        status="failed", error_code="interrupted", finished_at=timezone.now()
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = post(user, game.pk)
    assert response.status_code == 202 and response.json()["id"] == job.pk
    body = client_for().get(response["Location"]).json()
    assert (body["status"], body["error"]) == ("done", None)


# --- refusals ------------------------------------------------------------------------------


def test_a_game_in_progress_is_409_game_not_finished():
    game = played(["J10", "L10"])
    response = post(UserFactory(), game.pk)
    assert response.status_code == 409 and response.json()["code"] == "game_not_finished"
    assert not Analysis.objects.exists()


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_unknown_game_is_404_not_found(method):
    response = getattr(client_for(UserFactory()), method)("/api/games/999999/analysis")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_game_never_analysed_is_404_no_analysis():
    response = client_for().get(f"/api/games/{finished_game().pk}/analysis/")
    assert response.status_code == 404 and response.json()["code"] == "no_analysis"


def test_asking_needs_a_login_but_reading_does_not():
    game = finished_game()
    assert client_for().post(f"/api/games/{game.pk}/analysis").status_code in (401, 403)
    assert not Analysis.objects.exists()
    analysed(UserFactory(), game)
    assert client_for().get(f"/api/games/{game.pk}/analysis").status_code == 200


def test_more_active_analyses_than_the_limit_is_409_analysis_busy(settings):
    settings.ANALYSIS_MAX_ACTIVE = 1
    user = UserFactory()
    first, second = finished_game(), finished_game()
    job = queued(user, first)
    busy = post(user, second.pk)
    assert busy.status_code == 409 and busy.json()["code"] == "analysis_busy"
    assert post(UserFactory(), second.pk).status_code == 202  # others may ask
    third = finished_game()
    assert post(user, third.pk).status_code == 409
    analysis_run.apply(args=(job.pk, 0))  # a place came free
    assert post(user, third.pk).status_code == 202


def test_a_go_game_is_analysed_by_the_go_search_ply_by_ply():
    alice, bob = UserFactory(), UserFactory()
    game = played(["E5", "C3", "G7", "PASS"], players=[alice, bob], variant="Go (9x9)")
    game_resign(game_id=game.pk, user=bob)
    body = analysed(alice, game)
    assert body["status"] == "done" and body["progress"] == {"processed": 4, "total": 4}
    plies = body["plies"]
    assert [p["move"] for p in plies] == ["E5", "C3", "G7", "PASS"]
    assert [p["seat"] for p in plies] == [1, 2, 1, 2]
    assert all(p["evaluation"]["mate"] is None for p in plies)  # playouts prove nothing
    assert all(p["best_move"] for p in plies)  # no automatic stone in Go


def test_a_game_of_more_than_two_sides_is_400_analysis_unavailable():
    players = [UserFactory(), UserFactory(), UserFactory()]
    game = make_game(players=players)
    game_resign(game_id=game.pk, user=players[1])  # one resignation ends it
    game.refresh_from_db()
    assert game.status == "finished"
    response = post(players[0], game.pk)
    assert response.status_code == 400 and response.json()["code"] == "analysis_unavailable"
    assert not Analysis.objects.exists()


# --- batches, claims, resuming and the sweeper ---------------------------------------------


class CountingSearch:
    """``analysis.pente_search`` counting each position it searches (by its actions), raising
    once when it reaches the position with ``crash_at`` actions."""

    def __init__(self, crash_at: int | None = None) -> None:
        self.searched: Counter[tuple] = Counter()
        self.crash_at = crash_at
        self.real = analysis.pente_search

    def __call__(self, position, **kwargs):
        if self.crash_at is not None and len(position.actions) == self.crash_at:
            self.crash_at = None
            raise RuntimeError("worker killed")
        self.searched[tuple(position.actions)] += 1
        return self.real(position, **kwargs)


def test_a_run_resumes_after_a_crash_without_searching_a_committed_batch_again(monkeypatch):
    game = finished_game()
    job = queued(UserFactory(), game)
    # In the second batch (positions 4 to 6). A forced reply is followed up to two plies deeper
    # (``look``'s refine), so the first batch (positions 0 to 3) may search positions of up to
    # 5 actions, depending on how far a loaded machine's search gets: 6 is the second's only.
    search = CountingSearch(crash_at=6)
    monkeypatch.setattr(analysis, "pente_search", search)
    with pytest.raises(RuntimeError):
        analysis_run.apply(args=(job.pk, 0))
    job.refresh_from_db()
    assert (job.status, job.attempt, job.plies_processed, len(job.plies)) == ("running", 2, 3, 3)
    first_batch = dict(search.searched)

    Analysis.objects.filter(pk=job.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    assert analyses_sweep.apply().get() == {"requeued": 1, "failed": 0}  # runs it again
    job.refresh_from_db()
    assert (job.status, job.plies_processed, job.interruptions) == ("done", 9, 1)
    assert [p["ply"] for p in job.plies] == list(range(1, 10))
    # The positions of the committed batch (after plies 1 to 3) were searched once, ever.
    prefixes = [k for k in first_batch if len(k) <= 3]
    assert prefixes and all(search.searched[k] == 1 for k in prefixes)
    assert job.plies[BLUNDER_PLY - 1]["judgement"] == "blunder"


def test_running_the_task_twice_analyses_once():
    job = queued(UserFactory(), finished_game())
    assert analysis_run.apply(args=(job.pk, 0)).get() == "batch"  # the rest ran in its tasks
    job.refresh_from_db()
    assert job.status == "done"
    attempt = job.attempt
    assert analysis_run.apply(args=(job.pk, 0)).get() == "skipped"  # a duplicate message
    assert analysis_run.apply(args=(job.pk, attempt)).get() == "skipped"  # over stays over
    assert Analysis.objects.get(pk=job.pk).attempt == attempt


def test_a_run_that_lost_its_claim_commits_nothing(monkeypatch):
    job = queued(UserFactory(), finished_game())
    real = analysis.pente_search

    def taken_over(position, **kwargs):  # meanwhile the sweeper gave it to another worker
        Analysis.objects.filter(pk=job.pk).update(attempt=5)
        return real(position, **kwargs)

    monkeypatch.setattr(analysis, "pente_search", taken_over)
    assert analysis.analysis_run(analysis_id=job.pk, attempt=0) == "lost"
    job.refresh_from_db()
    assert (job.plies_processed, job.plies) == (0, [])


def test_a_running_analysis_is_not_claimed_again_while_it_moves_on():
    job = queued(UserFactory(), finished_game())
    Analysis.objects.filter(pk=job.pk).update(status="running", attempt=1)
    assert analysis.analysis_run(analysis_id=job.pk, attempt=1) == "skipped"
    later = timezone.now() + timedelta(hours=1)
    assert analysis.analysis_run(analysis_id=job.pk, attempt=1, now=later) == "batch"
    assert Analysis.objects.get(pk=job.pk).status == "done"


def test_the_sweeper_requeues_a_stale_pending_analysis_and_leaves_a_fresh_one():
    user = UserFactory()
    lost = queued(user, finished_game())  # its message was lost
    fresh = queued(UserFactory(), finished_game())
    Analysis.objects.filter(pk=lost.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    report = analysis.analyses_sweep()
    assert (report.requeued, report.failed) == (1, 0)
    assert Analysis.objects.get(pk=lost.pk).status == "done"
    assert Analysis.objects.get(pk=fresh.pk).status == "pending"  # its own message will come


def test_the_sweeper_fails_an_analysis_whose_workers_were_lost_too_often(settings):
    settings.ANALYSIS_MAX_ATTEMPTS = 3
    game = finished_game()
    job = queued(UserFactory(), game)
    Analysis.objects.filter(pk=job.pk).update(
        status="running", attempt=4, interruptions=2, updated_at=timezone.now() - timedelta(hours=1)
    )
    assert analysis.analyses_sweep() == analysis.SweepReport(requeued=0, failed=1)
    body = client_for().get(f"/api/games/{game.pk}/analysis").json()
    assert body["status"] == "failed" and body["finished_at"] is not None
    assert body["error"]["code"] == "interrupted" and "3 times" in body["error"]["detail"]


def test_the_task_runs_on_the_bots_queue_and_its_sweeper_is_scheduled(settings):
    assert analysis_run.name == analysis.ANALYSIS_TASK == "games.bots.analysis_run"
    assert settings.CELERY_TASK_ROUTES[analysis_run.name] == {"queue": "bots"}
    entry = settings.CELERY_BEAT_SCHEDULE["bots-analyses-sweep"]
    assert entry["task"] == analyses_sweep.name == analysis.ANALYSIS_SWEEP_TASK
    assert entry["schedule"] == settings.ANALYSIS_SWEEP_INTERVAL.total_seconds()


# --- judgements ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after", "sign", "expected"),
    [
        (Evaluation(0), Evaluation(0), 1, None),
        (Evaluation(0), Evaluation(-150), 1, None),  # the tempo's swing is no mistake
        (Evaluation(0), Evaluation(-170), 1, "inaccuracy"),
        (Evaluation(0), Evaluation(-340), 1, "mistake"),
        (Evaluation(0), Evaluation(-520), 1, "blunder"),
        (Evaluation(0), Evaluation(520), -1, "blunder"),  # the second player's loss
        (Evaluation(200), Evaluation(300), 1, None),  # better than the engine's best
        (Evaluation(0), Evaluation(-1000, "loss"), 1, "blunder"),
        (Evaluation(-1000, "loss"), Evaluation(-1000, "loss"), 1, None),  # lost already
        (Evaluation(1000, "win"), Evaluation(900), 1, None),  # a forced win, still winning
        (Evaluation(1000, "win"), Evaluation(0), 1, "blunder"),  # a won game thrown away
    ],
)
def test_judgements_follow_the_winning_chances_lost(before, after, sign, expected):
    assert judgement(before=before, after=after, sign=sign) == expected


def test_engine_scores_become_clamped_evaluations_and_decided_ones_a_mate_flag():
    assert Evaluation.of(135) == Evaluation(135)
    assert Evaluation.of(30_000) == Evaluation(1000)  # practically lost, not proven
    assert Evaluation.of(500_000) == Evaluation(1000, "win")  # a VCF found
    assert Evaluation.of(-999_990) == Evaluation(-1000, "loss")


# --- the schema ----------------------------------------------------------------------------


def _nullable_as_json_schema(node):
    """OpenAPI 3.0's ``nullable`` as JSON Schema's null type, recursively."""
    if isinstance(node, list):
        return [_nullable_as_json_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    node = {k: _nullable_as_json_schema(v) for k, v in node.items()}
    if node.pop("nullable", False):
        return {"anyOf": [node, {"type": "null"}]}
    return node


def _validate(schema: dict, component: str, body: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    document = _nullable_as_json_schema(
        {"$ref": f"#/components/schemas/{component}", "components": schema["components"]}
    )
    jsonschema.validate(body, document)


def test_the_answers_are_the_ones_the_schema_describes():
    schema = client_for().get("/api/schema/", {"format": "json"}).json()
    operations = schema["paths"]["/api/games/{id}/analysis/"]
    assert {"200", "202", "400", "404", "409"} <= set(operations["post"]["responses"])
    assert "Location" in operations["post"]["responses"]["202"]["headers"]
    assert {"200", "404"} <= set(operations["get"]["responses"])
    user, game = UserFactory(), finished_game()
    pending = post(user, game.pk).json()
    _validate(schema, "Analysis", pending)
    analysis_run.apply(args=(pending["id"], 0))
    done = client_for().get(f"/api/games/{game.pk}/analysis").json()
    assert done["status"] == "done"
    _validate(schema, "Analysis", done)  # with every ply
    _validate(schema, "Error", client_for().get("/api/games/999999/analysis").json())
