"""Answers kept for ``Idempotency-Key`` headers (``games.idempotency``)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from accounts.models import User


class IdempotencyKey(models.Model):
    """The first answer given to a user's request sent with an ``Idempotency-Key`` header, so
    that the same request sent again with the same key gets it again instead of doing the work
    twice. ``fingerprint`` identifies the request (the operation and its body): a key sent again
    with another request is refused. The row is written in the transaction that does the work,
    so it exists only once the work is done (a request that fails leaves no row and its key can
    be sent again). Rows older than ``IDEMPOTENCY_KEY_TTL`` no longer count and are deleted by
    a sweeper."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="idempotency_keys")
    key = models.CharField(max_length=255)
    #: A SHA-256 (hex) of the operation and the request's body.
    fingerprint = models.CharField(max_length=64)
    #: The answer's HTTP status; None only inside the transaction doing the work.
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    body = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_once_per_user"),
            models.CheckConstraint(condition=Q(key__gt=""), name="idempotency_key_not_empty"),
        ]
        indexes = [models.Index(fields=["created_at"], name="idempotency_key_created")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.key}"
