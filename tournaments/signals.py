"""Signals of the tournaments app (sent INSIDE the transaction that makes the change)."""

from __future__ import annotations

from django.dispatch import Signal

#: Sent with ``match=`` (saved, its tournament loaded) when a match is made: a round paired, a
#: bracket match ready, a bye given.
match_created = Signal()

#: Sent with ``match=`` when a match gets its result.
match_decided = Signal()

#: Sent with ``tournament=`` when a tournament is over (standings and winner saved).
tournament_finished = Signal()

#: Sent with ``tournament=`` when its organiser cancels it (``tournament_cancel``).
tournament_cancelled = Signal()

#: Sent with ``tournament=`` (its ``pairing_decision_round`` set) when a Swiss round cannot be
#: paired without relaxing the colour criteria and waits for the organiser's choice.
pairing_blocked = Signal()
