"""E-mail sent by a job, never by the web request that asks for it (an SMTP server may take
seconds, or be down for a while: the job tries again)."""

from __future__ import annotations

import smtplib

from celery import shared_task
from django.core.mail import send_mail
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
def email_send(*, subject: str, body: str, to: list[str]) -> None:
    """Send one plain-text message (from ``DEFAULT_FROM_EMAIL``)."""
    send_mail(subject, body, None, to)


def email_later(*, subject: str, body: str, to: list[str]) -> None:
    """Have a job send the message once the current transaction commits."""
    transaction.on_commit(lambda: email_send.delay(subject=subject, body=body, to=to), robust=True)
