"""Signals of the computer's analyses (sent INSIDE the transaction that changes the analysis;
receivers that talk to the outside world wrap that in ``transaction.on_commit``)."""

from __future__ import annotations

from django.dispatch import Signal

#: Sent with ``analysis=`` (saved, its ``game`` loaded) and ``new_plies=`` (the plies this change
#: analysed, in order; none but for a batch) when an analysis is asked for (or asked for again
#: after it failed: ``pending``), when a batch of plies is committed (``pending`` with the
#: progress, or ``done`` with the last batch) and when it fails (``failed``). Not when a worker
#: claims it, so that a batch is one signal. The game's live stream publishes it
#: (``live.publishers``).
analysis_changed = Signal()
