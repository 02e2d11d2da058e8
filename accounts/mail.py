"""E-mail sent by a job, never by the web request that asks for it (an SMTP server may take
seconds, or be down for a while: the job tries again)."""

from __future__ import annotations

import smtplib

from celery import shared_task
from django.core.mail import EmailMessage
from django.db import transaction

# The task keeps the name it had when it lived in ``tasks`` (messages may wait in a queue).
EMAIL_TASK = "games.accounts.tasks.email_send"


@shared_task(
    name=EMAIL_TASK,
    ignore_result=True,
    autoretry_for=(OSError, smtplib.SMTPException),
    retry_backoff=30,
    max_retries=5,
)
def email_send(
    *, subject: str, body: str, to: list[str], headers: dict[str, str] | None = None
) -> None:
    """Send one plain-text message (from ``DEFAULT_FROM_EMAIL``), with extra ``headers``
    (``List-Unsubscribe``...). Messages queued before ``headers`` existed have none."""
    EmailMessage(subject, body, None, to, headers=headers or None).send()


def email_later(
    *, subject: str, body: str, to: list[str], headers: dict[str, str] | None = None
) -> None:
    """Have a job send the message once the current transaction commits."""
    extra = {"headers": headers} if headers else {}
    transaction.on_commit(
        lambda: email_send.delay(subject=subject, body=body, to=to, **extra), robust=True
    )
