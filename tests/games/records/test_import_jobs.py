"""Record imports as jobs: ``POST /api/games/import`` stores the text and answers 202 at once, a
Celery task (eager here) imports it in batches, ``GET /api/games/imports/{id}`` shows the
progress, the counts, every refused record with its reason and the games created. Runs resume
after a crash without importing a record twice, and the sweeper hands stale jobs on. (With a
real worker, PostgreSQL and Redis: ``test_import_worker.py``.)"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from games.engine import BadRecord, parse_records
from games.play.models import Game, Seat
from games.records import imports, jobs
from games.records.imports import parsed_records, split_records
from games.records.models import ImportJob
from games.records.tasks import import_job_run, import_jobs_sweep
from tests.clients import client_for
from tests.factories import UserFactory
from tests.games.records.importing import IMPORT_TASK, import_job, record, records

pytestmark = pytest.mark.django_db


def post(client, text: str):
    return client.post("/api/games/import", text, content_type="text/plain")


def queued(user, text: str) -> ImportJob:
    """A job as the request leaves it (its task not run: nothing runs on-commit callbacks)."""
    response = post(client_for(user), text)
    assert response.status_code == 202, response.json()
    return ImportJob.objects.get(pk=response.json()["id"])


def job_body(user, job_id: int) -> dict:
    response = client_for(user).get(f"/api/games/imports/{job_id}")
    assert response.status_code == 200, response.json()
    return response.json()


def player_ones() -> list[str]:
    return sorted(Seat.objects.filter(seat=1).values_list("name", flat=True))


# --- the request ---------------------------------------------------------------------------


def test_an_import_answers_202_with_the_job_and_its_location_and_imports_after_commit(
    django_capture_on_commit_callbacks,
):
    user = UserFactory()
    client = client_for(user)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = post(client, records(3))
    assert response.status_code == 202
    body = response.json()
    assert response["Location"].endswith(f"/api/games/imports/{body['id']}")
    assert body["status"] == "queued"
    assert body["progress"] == {"processed": 0, "total": 3}
    assert (body["imported"], body["refused"], body["refusals"], body["games"]) == (0, 0, [], [])
    assert body["size_bytes"] == len(records(3).encode())
    assert body["started_at"] is None and body["finished_at"] is None and body["error"] is None
    assert Game.objects.count() == 0  # nothing imported by the request
    assert len(callbacks) == 1  # the task is enqueued when the job is committed
    callbacks[0]()
    assert client.get(response["Location"]).json()["status"] == "done"


def test_polling_shows_the_job_done_with_its_counts_and_games():
    user = UserFactory()
    job = import_job(client_for(user), records(3))
    assert job["status"] == "done"
    assert job["progress"] == {"processed": 3, "total": 3}
    assert (job["imported"], job["refused"], job["refusals_truncated"]) == (3, 0, False)
    games = Game.objects.in_bulk(job["games"])
    assert [games[pk].headers["Player 1 Name"] for pk in job["games"]] == ["p1", "p2", "p3"]
    assert all(g.status == "archived" and g.imported for g in games.values())
    assert job["started_at"] <= job["finished_at"]
    assert ImportJob.objects.get(pk=job["id"]).text == ""  # the upload is dropped once done


@pytest.mark.slow
def test_a_large_import_returns_at_once_and_completes_in_the_background(
    django_capture_on_commit_callbacks,
):
    text = records(8000)
    client = client_for(UserFactory())
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = post(client, text)
    # nothing imported in the request: the work waits for the job (speed is bench/'s to measure)
    assert response.status_code == 202
    assert response.json()["status"] == "queued" and Game.objects.count() == 0
    for callback in callbacks:  # what the worker does, here inline
        callback()
    job = client.get(response["Location"]).json()
    assert (job["status"], job["imported"], job["refused"]) == ("done", 8000, 0)
    assert job["progress"] == {"processed": 8000, "total": 8000}
    assert Game.objects.filter(imported=True).count() == 8000


def test_a_refused_record_is_listed_with_its_number_line_and_reason_and_the_others_imported():
    text = "\n".join(
        [
            record(1),
            record(2, moves="1. K10 L11 2. L11 *"),  # lines 7-12: L11 is taken
            '[Game "Pente"]\n[Player 1 Name "p3"]\n[Broken header\n\n1. K10 *\n',  # 13-18
            '[Game "Pente"]\n\n1. K10 L11 2. Z99 *\n',  # lines 19-22: no such point
            record(5),
        ]
    )
    job = import_job(client_for(UserFactory()), text)
    assert (job["status"], job["imported"], job["refused"]) == ("done", 2, 3)
    assert [(r["record"], r["line"], r["code"]) for r in job["refusals"]] == [
        (2, 7, "occupied"),  # a move the rules refuse: the line where the record starts
        (3, 15, "bad_header"),  # a line that cannot be read: that line
        (4, 19, "off_board"),
    ]
    assert "Move 3 (L11)" in job["refusals"][0]["detail"]
    assert player_ones() == ["p1", "p5"]


def test_a_record_of_an_unknown_game_is_refused_by_its_replay():
    job = import_job(client_for(UserFactory()), '[Game "Chess"]\n\n1. K10 *\n')
    assert [(r["record"], r["line"], r["code"]) for r in job["refusals"]] == [
        (1, 1, "unknown_game")
    ]


def test_a_job_keeps_the_first_refusals_and_counts_them_all(monkeypatch):
    monkeypatch.setattr(jobs, "REFUSALS_KEPT", 2)
    bad = '[Game "Pente"]\n\n1. K10 K10 *\n'
    job = import_job(client_for(UserFactory()), "\n".join([bad] * 4 + [record(1)]))
    assert (job["refused"], job["imported"], job["refusals_truncated"]) == (4, 1, True)
    assert [r["record"] for r in job["refusals"]] == [1, 2]


# --- the batch importer (the API's job and, later, a bulk command) ---------------------------


def test_each_batch_commits_with_what_on_batch_writes_or_not_at_all():
    text = records(5).replace("2. M12", "2. L11", 1)  # record 1 refused: L11 is taken
    batches = []

    def on_batch(batch):
        batches.append((batch.records, len(batch.game_ids), [r.record for r in batch.refusals]))
        if len(batches) == 2:
            raise RuntimeError("the caller's progress could not be written")

    with pytest.raises(RuntimeError):
        imports.records_import(
            records=parsed_records(split_records(text.splitlines())),
            batch_size=2,
            on_batch=on_batch,
        )
    assert batches == [(2, 1, [1]), (2, 2, [])]
    assert player_ones() == ["p2"]  # the second batch went back with its failed progress


def test_a_record_the_database_refuses_is_refused_alone_and_the_rest_of_its_batch_stored(
    monkeypatch,
):
    archived = imports._archived

    def seven_seats_for_p2(item):
        game = archived(item)
        if item.names[0] == "p2":
            game.seats = 7  # the database's CHECK refuses it
        return game

    monkeypatch.setattr(imports, "_archived", seven_seats_for_p2)
    report = imports.games_import(text=records(3), batch_size=10)
    assert [(r.record, r.line, r.code) for r in report.refusals] == [(2, 7, "not_stored")]
    assert len(report.game_ids) == 2 and report.records == 3
    assert player_ones() == ["p1", "p3"]
    assert Game.objects.count() == Seat.objects.filter(seat=2).count() == 2


# --- resuming, claims and the sweeper -------------------------------------------------------


@pytest.fixture
def during_the_second_batch(settings, monkeypatch):
    """Batches of 2 records; ``during_the_second_batch(action)`` has ``action`` run when the
    second batch's games are inserted, before its progress is written and committed."""
    settings.IMPORT_BATCH_SIZE = 2
    store = imports._store

    def run(action) -> None:
        batches = []

        def storing(replays):
            stored = store(replays)
            batches.append(len(replays))
            if len(batches) == 2:
                action()
            return stored

        monkeypatch.setattr(imports, "_store", storing)

    return run


def test_a_job_resumes_after_a_crash_midway_without_importing_a_record_twice(
    during_the_second_batch,
):
    job = queued(UserFactory(), records(5))

    def killed():
        raise RuntimeError("worker killed")

    during_the_second_batch(killed)
    with pytest.raises(RuntimeError):
        import_job_run.apply(args=(job.pk, 0))
    job.refresh_from_db()
    assert (job.status, job.attempt, job.records_processed, job.imported_count) == (
        "running",
        1,
        2,
        2,
    )
    assert player_ones() == ["p1", "p2"]  # the second batch was rolled back with its progress

    ImportJob.objects.filter(pk=job.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    assert import_jobs_sweep.apply().get() == {"requeued": 1, "failed": 0}  # runs it again
    body = job_body(job.owner, job.pk)
    assert (body["status"], body["imported"], body["progress"]["processed"]) == ("done", 5, 5)
    assert player_ones() == ["p1", "p2", "p3", "p4", "p5"]
    assert Game.objects.count() == 5
    assert ImportJob.objects.get(pk=job.pk).attempt == 2


def test_running_the_task_twice_imports_once():
    job = queued(UserFactory(), records(3))
    assert import_job_run.apply(args=(job.pk, 0)).get() == "done"
    assert import_job_run.apply(args=(job.pk, 0)).get() == "skipped"  # a duplicate message
    assert import_job_run.apply(args=(job.pk, 1)).get() == "skipped"  # a job over stays over
    assert Game.objects.count() == 3
    assert ImportJob.objects.get(pk=job.pk).imported_count == 3


def test_a_running_job_is_not_claimed_again_while_it_moves_on():
    job = queued(UserFactory(), records(1))
    ImportJob.objects.filter(pk=job.pk).update(status="running", attempt=1)
    assert jobs.import_job_run(job_id=job.pk, attempt=1) == "skipped"  # updated just now
    later = timezone.now() + timedelta(hours=1)
    assert jobs.import_job_run(job_id=job.pk, attempt=1, now=later) == "done"  # stale: taken over
    assert Game.objects.count() == 1


def test_a_run_that_lost_its_claim_stops_without_committing_its_batch(during_the_second_batch):
    job = queued(UserFactory(), records(5))
    # Meanwhile the sweeper gave the job to another worker.
    during_the_second_batch(lambda: ImportJob.objects.filter(pk=job.pk).update(attempt=2))
    assert jobs.import_job_run(job_id=job.pk, attempt=0) == "lost"
    job.refresh_from_db()
    assert (job.status, job.records_processed, job.imported_count) == ("running", 2, 2)
    assert Game.objects.count() == 2  # the second batch went back with the lost claim


def test_the_sweeper_requeues_jobs_left_queued_or_running_without_progress():
    user = UserFactory()
    waiting = queued(user, records(1))  # its message was lost
    stalled = queued(user, records(2, start=2))  # its worker died
    fresh = queued(UserFactory(), records(1, start=4))
    old = timezone.now() - timedelta(hours=1)
    ImportJob.objects.filter(pk=waiting.pk).update(updated_at=old)
    ImportJob.objects.filter(pk=stalled.pk).update(status="running", attempt=1, updated_at=old)
    report = jobs.import_jobs_sweep()
    assert (report.requeued, report.failed) == (2, 0)
    assert {j.pk: j.status for j in ImportJob.objects.all()} == {
        waiting.pk: "done",
        stalled.pk: "done",
        fresh.pk: "queued",  # not stale yet: its own message will come
    }
    assert Game.objects.count() == 3


def test_the_sweeper_fails_a_job_whose_workers_were_lost_too_often(settings):
    settings.IMPORT_MAX_ATTEMPTS = 3
    job = queued(UserFactory(), records(2))
    ImportJob.objects.filter(pk=job.pk).update(
        status="running", attempt=3, updated_at=timezone.now() - timedelta(hours=1)
    )
    assert jobs.import_jobs_sweep() == jobs.SweepReport(requeued=0, failed=1)
    body = job_body(job.owner, job.pk)
    assert body["status"] == "failed" and body["finished_at"] is not None
    assert body["error"]["code"] == "interrupted" and "3 times" in body["error"]["detail"]
    assert ImportJob.objects.get(pk=job.pk).text == ""


def test_a_job_whose_text_holds_no_record_fails_with_the_reason():
    job = ImportJob.objects.create(owner=UserFactory(), text="% nothing but a comment\n")
    assert jobs.import_job_run(job_id=job.pk, attempt=0) == "failed"
    body = job_body(job.owner, job.pk)
    assert body["status"] == "failed"
    assert body["error"] == {"code": "bad_record", "detail": "No game record found in the text."}


def test_the_import_task_and_its_sweeper_are_named_and_scheduled(settings):
    assert IMPORT_TASK == jobs.IMPORT_TASK == "games.records.import_job_run"
    entry = settings.CELERY_BEAT_SCHEDULE["records-import-jobs-sweep"]
    assert entry["task"] == import_jobs_sweep.name
    assert entry["schedule"] == settings.IMPORT_SWEEP_INTERVAL.total_seconds()


# --- limits ---------------------------------------------------------------------------------


def test_a_text_over_the_byte_limit_is_a_413_too_large(settings):
    settings.IMPORT_MAX_BYTES = 100
    response = post(client_for(UserFactory()), records(2))
    assert response.status_code == 413 and response.json()["code"] == "too_large"
    assert not ImportJob.objects.exists()


def test_a_text_with_too_many_records_is_a_413_too_many_records(settings):
    settings.IMPORT_MAX_RECORDS = 2
    client = client_for(UserFactory())
    response = post(client, records(3))
    assert response.status_code == 413 and response.json()["code"] == "too_many_records"
    assert "3 records" in response.json()["detail"]
    assert not ImportJob.objects.exists()
    assert post(client, records(2)).status_code == 202


def test_too_many_active_imports_of_one_user_is_a_409_import_busy(settings):
    settings.IMPORT_MAX_ACTIVE_JOBS = 2
    user = UserFactory()
    first, _ = queued(user, records(1)), queued(user, records(1))
    busy = post(client_for(user), records(1))
    assert busy.status_code == 409 and busy.json()["code"] == "import_busy"
    assert post(client_for(UserFactory()), records(1)).status_code == 202  # others may import
    jobs.import_job_run(job_id=first.pk, attempt=0)
    assert post(client_for(user), records(1)).status_code == 202  # a place came free


def test_a_nul_character_is_refused_by_the_request():
    response = post(client_for(UserFactory()), record(1).replace("p1", "p\x001"))
    assert response.status_code == 400 and response.json()["code"] == "bad_record"
    assert not ImportJob.objects.exists()


@pytest.mark.parametrize("text", [5, 1.5, True, ['[Game "Pente"]'], {"a": 1}, None])
def test_a_json_text_that_is_not_a_string_is_a_400_without_a_job(text):
    response = client_for(UserFactory()).post("/api/games/import", {"text": text}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert "text" in response.json()["fields"]
    assert not ImportJob.objects.exists()


def test_another_users_job_is_not_found():
    job = queued(UserFactory(), records(1))
    response = client_for(UserFactory()).get(f"/api/games/imports/{job.pk}")
    assert response.status_code == 404 and response.json()["code"] == "unknown_import"
    for missing in ("999999", "0", "9" * 30):
        assert client_for(UserFactory()).get(f"/api/games/imports/{missing}").status_code == 404


@pytest.mark.parametrize("url", ["/api/games/imports/", "/api/games/imports/1"])
def test_import_jobs_need_a_login(url):
    assert client_for().get(url).status_code in (401, 403)


# --- the list -------------------------------------------------------------------------------


def test_the_list_shows_ones_own_jobs_newest_first_paginated():
    user = UserFactory()
    older = import_job(client_for(user), records(1))
    newer = queued(user, records(2))
    queued(UserFactory(), records(1))  # someone else's
    client = client_for(user)
    body = client.get("/api/games/imports/").json()
    assert body["count"] == 2
    assert [j["id"] for j in body["results"]] == [newer.pk, older["id"]]
    page = client.get("/api/games/imports/", {"page_size": 1}).json()
    assert len(page["results"]) == 1 and page["next"]
    done = client.get("/api/games/imports/", {"status": "done"}).json()
    assert [j["id"] for j in done["results"]] == [older["id"]]


def test_the_list_refuses_unknown_parameters_and_statuses():
    client = client_for(UserFactory())
    unknown = client.get("/api/games/imports/", {"owner": "bob"})
    assert unknown.status_code == 400 and unknown.json()["code"] == "unknown_parameter"
    bad = client.get("/api/games/imports/", {"status": "paused"})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"


# --- the schema -----------------------------------------------------------------------------


def test_the_answers_are_the_ones_the_schema_describes():
    schema = client_for().get("/api/schema/", {"format": "json"}).json()
    post_op = schema["paths"]["/api/games/import/"]["post"]
    assert {"202", "400", "409", "413"} <= set(post_op["responses"])
    accepted = post_op["responses"]["202"]
    assert "Location" in accepted["headers"]
    assert accepted["content"]["application/json"]["schema"]["$ref"].endswith("/ImportJob")
    assert "404" in schema["paths"]["/api/games/imports/{id}/"]["get"]["responses"]
    listing = schema["paths"]["/api/games/imports/"]["get"]
    assert [p["name"] for p in listing["parameters"]] == ["page", "page_size", "status"]
    components = schema["components"]["schemas"]
    user = UserFactory()
    job = import_job(client_for(user), records(1) + '\n[Game "Pente"]\n\n1. K10 K10 *\n')
    assert set(job) == set(components["ImportJob"]["properties"])
    assert set(components["ImportJob"]["required"]) <= set(job)
    assert set(job["progress"]) == set(components["ImportProgress"]["properties"])
    assert set(job["refusals"][0]) == set(components["ImportRefusal"]["properties"])
    assert components["ImportJobStatusEnum"]["enum"] == list(ImportJob.Status.values)


# --- splitting ------------------------------------------------------------------------------

LINES = ['[Game "Pente"]', '[Player 1 Name "a"]', "1. K10 L11", "2. M12 *", "", "  ", "% note"]


@hypothesis_settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=30), st.booleans())
def test_splitting_finds_the_records_the_engine_reads_where_it_reads_them(lines, bom):
    text = ("\ufeff" if bom else "") + "\n".join(lines)
    try:
        expected = parse_records(text)
    except BadRecord:
        return  # the engine refuses the whole text; the split refuses that record alone
    split = list(parsed_records(split_records(text.splitlines())))
    assert [p.record for p in split] == expected
    assert [p.line for p in split] == [r.line for r in expected]
    assert [p.number for p in split] == list(range(1, len(expected) + 1))


def test_splitting_the_engines_sample_file_reads_every_record():
    with open("tests/games/engine/data/games.txt") as data:
        text = data.read()
    split = [p.record for p in parsed_records(split_records(text.splitlines()))]
    assert split == parse_records(text) and len(split) > 10


# --- the model ------------------------------------------------------------------------------


def test_the_status_constraint_allows_exactly_the_statuses():
    (check,) = [c for c in ImportJob._meta.constraints if c.name == "importjob_status_valid"]
    ((lookup, values),) = check.condition.children
    assert lookup == "status__in" and set(values) == set(ImportJob.Status.values)


@pytest.mark.parametrize(
    "change",
    [
        {"status": "paused"},
        {"records_processed": 2, "imported_count": 2},  # more than the text holds
        {"records_processed": 1},  # neither imported nor refused
        {"status": "done"},  # without its finishing time and its records
        {"status": "failed", "finished_at": timezone.now()},  # without a reason
    ],
)
def test_the_database_refuses_a_job_that_breaks_its_invariants(change):
    job = ImportJob.objects.create(owner=UserFactory(), text="x", records_total=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        ImportJob.objects.filter(pk=job.pk).update(**change)


def test_the_admin_lists_and_shows_import_jobs(client):
    job = import_job(client_for(UserFactory()), records(1))
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert client.get("/admin/games/importjob/").status_code == 200
    page = client.get(f"/admin/games/importjob/{job['id']}/change/")
    assert page.status_code == 200
