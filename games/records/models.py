"""Record imports run as jobs: the uploaded text, the import's progress and what it refused.

``POST /api/games/import`` stores the text in an ``ImportJob`` (so the web server and the
worker may be on different hosts) and a Celery task imports it in batches
(``games.records.jobs``). Each batch commits its games together with the job's counters, so the
counters always say exactly which records are in the database.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

from accounts.models import User
from games.choices import job_checks


class ImportJob(models.Model):
    """One upload of Pente.org records, imported in the background."""

    class Status(models.TextChoices):
        QUEUED = "queued"  # stored, waiting for a worker
        RUNNING = "running"  # a worker imports it (``attempt`` is that worker's claim)
        DONE = "done"  # every record imported or refused
        FAILED = "failed"  # stopped for good (``error_code``); the batches committed stay

    owner = models.ForeignKey(User, on_delete=models.CASCADE, related_name="import_jobs")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    #: The uploaded text; emptied when the job is over.
    text = models.TextField(blank=True, default="")
    size_bytes = models.PositiveIntegerField(default=0)
    records_total = models.PositiveIntegerField(default=0)
    #: Records imported or refused so far, in the order of the text: a run resumes after them.
    records_processed = models.PositiveIntegerField(default=0)
    imported_count = models.PositiveIntegerField(default=0)
    refused_count = models.PositiveIntegerField(default=0)
    #: The first refusals (``games.records.jobs.REFUSALS_KEPT``): record, line, code, detail.
    refusals = models.JSONField(default=list, blank=True)
    #: Ids of the games created, in the order of their records.
    game_ids = models.JSONField(default=list, blank=True)
    error_code = models.CharField(max_length=32, blank=True, default="")
    error_detail = models.CharField(max_length=300, blank=True, default="")
    #: How many times a worker claimed the job; the running worker's claim is this number.
    attempt = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: Moves on with every committed batch: a running job whose worker died stops moving.
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["owner", "status"], name="importjob_owner_status"),
            models.Index(fields=["status", "updated_at"], name="importjob_status_updated"),
        ]
        constraints = [
            *job_checks(
                "importjob",
                waiting=("queued", "running"),
                processed="records_processed",
                total="records_total",
            ),
            models.CheckConstraint(
                condition=Q(records_processed=F("imported_count") + F("refused_count")),
                name="importjob_processed_imported_or_refused",
            ),
        ]

    def __str__(self) -> str:
        return f"Import {self.pk} by {self.owner_id} ({self.status})"
