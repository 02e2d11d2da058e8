"""Signals of the ratings app (sent INSIDE the transaction that writes the change)."""

from __future__ import annotations

from django.dispatch import Signal

#: Sent with ``game_set=`` and ``changes=`` (the saved ``RatingChange`` rows, one per player)
#: when a finished set moved its players' ratings.
ratings_changed = Signal()
