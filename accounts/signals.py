"""Signals of the accounts (the app below every other: it calls none of them, so the apps that
keep something of an account hear of its changes here)."""

from __future__ import annotations

from django.dispatch import Signal

#: Sent with ``user=`` (the account, renamed and saved) INSIDE the transaction that deletes an
#: account (``services.account_delete``): the games copy its new name onto their seats and queue
#: the resignation of its games in progress (``games.accounts.services``).
account_deleted = Signal()
