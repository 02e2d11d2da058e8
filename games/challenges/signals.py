"""Signals of the challenges (sent INSIDE the transaction that changes the challenge; receivers
that talk to the outside world wrap that in ``transaction.on_commit``)."""

from __future__ import annotations

from django.dispatch import Signal

#: Sent with ``challenge=`` (saved) and ``kind=`` (``"created"``, ``"accepted"``, ``"joined"``,
#: ``"left"``, ``"declined"``, ``"cancelled"``, ``"expired"``) when a challenge is made, changes
#: status or someone takes or gives back a seat: the players' live streams publish it
#: (``live.publishers``).
challenge_changed = Signal()

# Questions the challenges ask of the apps above them (``send`` returns each receiver's answer):
# the ratings and the ignore lists live there, and ``games`` may not import them.

#: Asked with ``user=``, ``variant=`` and ``category=``: a receiver answers ``(rating, rated
#: results)`` of the player in that game and category (``ratings``: ``(1600.0, 0)`` before the
#: first rated result). No answer means no rating (the start rating, no results).
rating_asked = Signal()

#: Asked with ``user_id=`` and ``other_id=``: a receiver answers whether the player ``user_id``
#: ignores ``other_id`` (``live``).
ignore_asked = Signal()

#: Asked with ``user=``: a receiver answers querysets of user ids, the players ``user`` ignores
#: and those who ignore ``user`` (``live``), for a query to leave their challenges out.
ignores_asked = Signal()
