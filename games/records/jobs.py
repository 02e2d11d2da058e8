"""Record imports as jobs: the web request stores the text, a Celery task imports it in batches
that resume after a lost worker, and a beat sweeper hands on stalled jobs. The claim and the
batches: docs/records.md, "Importing archives".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import DateTimeField, F, Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.guests import refuse_guest
from accounts.models import User
from games.records.imports import (
    NUL_DETAIL,
    Batch,
    is_sgf,
    parsed_records,
    records_count,
    records_import,
    sgf_as_records,
    split_records,
)
from games.records.models import ImportJob
from games.records.selectors import ACTIVE_IMPORT_STATUSES, import_jobs_active_count
from pente_site.errors import Conflict, Invalid, TooLarge
from pente_site.jobs import enqueue

#: The Celery task that runs one job (defined in ``games.records.tasks``).
IMPORT_TASK = "games.records.import_job_run"
#: How many refusals a job keeps (``refused_count`` counts them all).
REFUSALS_KEPT = 1000

RUNNING = ImportJob.Status.RUNNING


class _ClaimLost(Exception):
    """The job is no longer this run's: another run claimed it, or it was failed."""


def import_job_create(*, owner: User, text: str) -> ImportJob:
    """Store ``text`` as ``owner``'s import job and enqueue its task on commit. Refuses an empty
    text or one without records or with a NUL (400 ``bad_record``), a text over
    ``IMPORT_MAX_BYTES`` (413 ``too_large``) or ``IMPORT_MAX_RECORDS`` (413
    ``too_many_records``), and a user with ``IMPORT_MAX_ACTIVE_JOBS`` imports queued or running
    (409 ``import_busy``), and a guest (403 ``guest_not_allowed``). Nothing here parses a
    record."""
    refuse_guest(owner, what="import records")
    if not text.strip():
        raise Invalid("bad_record", "The text is empty: send one or more Pente.org records.")
    if "\x00" in text:
        raise Invalid("bad_record", NUL_DETAIL)  # PostgreSQL text cannot hold NUL
    size = len(text.encode("utf-8"))
    if size > settings.IMPORT_MAX_BYTES:
        raise TooLarge(
            "too_large",
            f"The text has {size} bytes; one import takes at most {settings.IMPORT_MAX_BYTES}: "
            "import it in parts.",
        )
    if is_sgf(text):  # one game of Go: read now (milliseconds), stored as its record
        text = sgf_as_records(text)
    total = records_count(text=text)
    if total == 0:
        raise Invalid("bad_record", "No game record found in the text.")
    if total > settings.IMPORT_MAX_RECORDS:
        raise TooLarge(
            "too_many_records",
            f"The text holds {total} records; one import takes at most "
            f"{settings.IMPORT_MAX_RECORDS}: import it in parts.",
        )
    with transaction.atomic():
        # One import at a time per user decides whether there is room for it.
        User.objects.select_for_update().filter(pk=owner.pk).values_list("pk").first()
        active = import_jobs_active_count(owner=owner)
        if active >= settings.IMPORT_MAX_ACTIVE_JOBS:
            raise Conflict(
                "import_busy",
                f"You have {active} imports queued or running, the most at once: wait until "
                "one is over.",
            )
        job = ImportJob.objects.create(owner=owner, text=text, size_bytes=size, records_total=total)
        job_id = job.pk
        transaction.on_commit(lambda: enqueue(IMPORT_TASK, args=(job_id, 0)))
    return job


def import_job_run(*, job_id: int, attempt: int, now: datetime | None = None) -> str:
    """The task's work: claim job ``job_id`` if it is still at ``attempt`` (queued, or running
    but stale), then import its records from where the last run stopped. Safe to run any number
    of times. Returns "done", "failed" (no records, or too many), "skipped" (not claimable: over,
    or another run has it) or "lost" (another run took it over meanwhile)."""
    now = now or timezone.now()
    claimable = Q(status=ImportJob.Status.QUEUED) | Q(
        status=RUNNING, updated_at__lt=now - settings.IMPORT_STALE_AFTER
    )
    claimed = ImportJob.objects.filter(claimable, pk=job_id, attempt=attempt).update(
        status=RUNNING,
        attempt=attempt + 1,
        started_at=Coalesce(F("started_at"), Value(now, output_field=DateTimeField())),
        updated_at=now,
    )
    if not claimed:
        return "skipped"
    claim = attempt + 1
    job = ImportJob.objects.only("text", "records_processed").get(pk=job_id)
    texts = list(split_records(job.text.splitlines()))
    if not texts or len(texts) > settings.IMPORT_MAX_RECORDS:
        detail = (
            f"The text holds {len(texts)} records; one import takes at most "
            f"{settings.IMPORT_MAX_RECORDS}."
            if texts
            else "No game record found in the text."
        )
        code = "too_many_records" if texts else "bad_record"
        ended = _end(job_id, claim, ImportJob.Status.FAILED, error=(code, detail))
        return "failed" if ended else "lost"
    progress = _Progress(job_id=job_id, claim=claim, processed=job.records_processed)
    try:
        records_import(
            records=parsed_records(texts[job.records_processed :]),
            batch_size=settings.IMPORT_BATCH_SIZE,
            on_batch=progress.commit,
        )
    except _ClaimLost:
        return "lost"
    return "done" if _end(job_id, claim, ImportJob.Status.DONE) else "lost"


@dataclass(slots=True)
class _Progress:
    """Writes each batch into the job, in the batch's transaction, while the claim holds."""

    job_id: int
    claim: int
    processed: int

    def commit(self, batch: Batch) -> None:
        job = (
            ImportJob.objects.select_for_update()
            .filter(
                pk=self.job_id, status=RUNNING, attempt=self.claim, records_processed=self.processed
            )
            .only("refusals", "game_ids", "records_processed", "imported_count", "refused_count")
            .first()
        )
        if job is None:
            raise _ClaimLost  # rolls the batch back
        room = max(0, REFUSALS_KEPT - len(job.refusals))
        job.refusals = job.refusals + [r.as_dict() for r in batch.refusals[:room]]
        job.game_ids = job.game_ids + batch.game_ids
        job.records_processed += batch.records
        job.imported_count += len(batch.game_ids)
        job.refused_count += len(batch.refusals)
        job.save(
            update_fields=[
                "refusals",
                "game_ids",
                "records_processed",
                "imported_count",
                "refused_count",
                "updated_at",
            ]
        )
        self.processed = job.records_processed


def _end(
    job_id: int,
    claim: int,
    status: str,
    *,
    error: tuple[str, str] | None = None,
    before: datetime | None = None,
) -> bool:
    """End the job running under ``claim`` (not moved since ``before`` when given) as
    ``status``, with ``error`` (code, detail) for a failure; its text is dropped."""
    now = timezone.now()
    code, detail = error or ("", "")
    rows = ImportJob.objects.filter(pk=job_id, status=RUNNING, attempt=claim)
    if before is not None:
        rows = rows.filter(updated_at__lt=before)
    ended = rows.update(
        status=status,
        error_code=code,
        error_detail=detail,
        text="",
        finished_at=now,
        updated_at=now,
    )
    return ended == 1


@dataclass(frozen=True, slots=True)
class SweepReport:
    requeued: int = 0
    failed: int = 0


def import_jobs_sweep(*, now: datetime | None = None) -> SweepReport:
    """Enqueue the task again for every job queued, or running without progress, for
    ``IMPORT_STALE_SECONDS`` (its worker died or its message was lost); fail a running one whose
    workers were lost ``IMPORT_MAX_ATTEMPTS`` times (``interrupted``: the batches committed stay
    imported). Duplicate messages are harmless: a run claims a job only at the attempt it saw."""
    now = now or timezone.now()
    before = now - settings.IMPORT_STALE_AFTER
    stale = ImportJob.objects.filter(status__in=ACTIVE_IMPORT_STATUSES, updated_at__lt=before)
    requeued = failed = 0
    for job_id, status, attempt in stale.values_list("pk", "status", "attempt").order_by("pk"):
        if status == RUNNING and attempt >= settings.IMPORT_MAX_ATTEMPTS:
            detail = (
                f"The import stopped {attempt} times without finishing (its worker was lost); "
                "the records counted as processed stay imported."
            )
            failed += _end(
                job_id,
                attempt,
                ImportJob.Status.FAILED,
                error=("interrupted", detail),
                before=before,
            )
        else:
            enqueue(IMPORT_TASK, args=(job_id, attempt))
            requeued += 1
    return SweepReport(requeued=requeued, failed=failed)
