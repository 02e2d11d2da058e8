"""The accounts' Celery task: the e-mail job (``mail``). (The guests' sweeper and the
resignation of a deleted account's games are the games' tasks: ``games.accounts.tasks``.)"""

from __future__ import annotations

from accounts.mail import email_send

__all__ = ["email_send"]
