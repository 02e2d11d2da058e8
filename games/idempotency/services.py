"""Idempotency keys: the work of a request sent with a key is done once per user and key.

``answer_once`` claims the key by inserting its row in the transaction that does the work, and
records the answer in that row before the transaction commits. So the key and the work commit
together or not at all: a request that fails (a refusal, a crash) leaves no row, and the same
key may be sent again. A second request with a key still being worked on waits for the first
(the database's unique index holds its insert until the first transaction ends), then gets the
first answer; if the first failed, the second does the work itself. Only successful answers
(2xx) are kept. A key sent again with another request (another operation or body) is refused,
409 ``idempotency_key_reused``. A key counts for ``IDEMPOTENCY_KEY_TTL`` (24 hours unless set);
older rows are ignored, and deleted by ``idempotency_keys_sweep`` (beat)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games.idempotency.models import IdempotencyKey
from pente_site.errors import Conflict, Invalid

#: What a key may be: 1 to 255 printable ASCII characters (a UUID is the usual choice).
_KEY = re.compile(r"[\x20-\x7e]{1,255}")


@dataclass(frozen=True)
class Answer:
    """An answer to keep: its HTTP status and its body (JSON values)."""

    status_code: int
    body: Any


def check_key(key: str) -> str:
    """``key`` if it may be used as an idempotency key; else 400 ``bad_idempotency_key``."""
    if not _KEY.fullmatch(key) or not key.strip():
        raise Invalid(
            "bad_idempotency_key",
            "An Idempotency-Key is 1 to 255 printable ASCII characters (a UUID, for instance).",
        )
    return key


def request_fingerprint(*, operation: str, body: Any) -> str:
    """A digest of the operation (its method, view and path parameters) and the request's body,
    the same for the same JSON whatever its keys' order and spacing."""
    text = json.dumps([operation, body], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _claim(*, user: User, key: str, fingerprint: str, now: datetime) -> IdempotencyKey | None:
    """Insert the key's row (None: this request does the work), or return the answer already
    kept for it. An expired row is deleted and claimed again."""
    oldest = now - settings.IDEMPOTENCY_KEY_TTL
    for _attempt in range(3):
        try:
            with transaction.atomic():
                IdempotencyKey.objects.create(
                    user=user, key=key, fingerprint=fingerprint, created_at=now
                )
            return None
        except IntegrityError:
            found = IdempotencyKey.objects.select_for_update().filter(user=user, key=key).first()
        if found is None:
            continue  # deleted (expired) in between: claim it again
        if found.created_at > oldest:
            return found
        found.delete()
    raise Conflict(
        "idempotency_key_in_flight",
        "A request with this Idempotency-Key is being handled: send it again in a moment.",
    )


def answer_once(
    *,
    user: User,
    key: str,
    fingerprint: str,
    work: Callable[[], Answer],
    now: datetime | None = None,
) -> tuple[Answer, bool]:
    """The answer to a request of ``user`` sent with ``key``, and whether it is the first
    answer given again (True) rather than ``work()`` done now (False). See the module doc;
    409 ``idempotency_key_reused`` when the key's first request had another fingerprint."""
    check_key(key)
    now = now or timezone.now()
    with transaction.atomic():
        found = _claim(user=user, key=key, fingerprint=fingerprint, now=now)
        if found is not None:
            if found.fingerprint != fingerprint:
                raise Conflict(
                    "idempotency_key_reused",
                    "This Idempotency-Key was sent with another request: use a new key for a "
                    "new request.",
                )
            return Answer(found.status_code, found.body), True
        answer = work()
        kept = IdempotencyKey.objects.filter(user=user, key=key)
        if 200 <= answer.status_code < 300:
            kept.update(status_code=answer.status_code, body=answer.body)
        else:
            kept.delete()  # a refusal is not kept: the key may be sent again
        return answer, False


def idempotency_keys_sweep(*, now: datetime | None = None) -> int:
    """Delete the keys older than ``IDEMPOTENCY_KEY_TTL`` (beat); how many."""
    oldest = (now or timezone.now()) - settings.IDEMPOTENCY_KEY_TTL
    deleted, _ = IdempotencyKey.objects.filter(created_at__lte=oldest).delete()
    return deleted
