"""Signals of the challenges (sent INSIDE the transaction that changes the challenge; receivers
that talk to the outside world wrap that in ``transaction.on_commit``)."""

from __future__ import annotations

from django.dispatch import Signal

#: Sent with ``challenge=`` (saved) and ``kind=`` (``"created"``, ``"accepted"``, ``"joined"``,
#: ``"left"``, ``"declined"``, ``"cancelled"``, ``"expired"``) when a challenge is made, changes
#: status or someone takes or gives back a seat: the players' live streams publish it
#: (``live.publishers``).
challenge_changed = Signal()
