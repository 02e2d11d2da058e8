"""Signals of the clocks: the one question the start window asks of an app above ``games``
(``send`` returns each receiver's answer)."""

from __future__ import annotations

from django.dispatch import Signal

#: Asked with ``game_id=``: a receiver answers a queryset of the ids of the players who have the
#: game open now (``live``: a stream of it, the page), for a subquery. No answer: nobody is
#: counted as there but the server's computers.
presence_asked = Signal()
