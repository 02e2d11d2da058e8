"""The signals of play, for the apps that must hear of a game and cannot be called from here.

``game_changed`` and ``turn_started`` are sent after the commit, by ``games.play.events.publish``;
the others inside the writing transaction, where a receiver defers what leaves the process to
the commit.
"""

from __future__ import annotations

from django.dispatch import Signal

#: Sent with ``game=`` (a locked, saved ``games.play.models.Game``) when a game ends for any reason;
#: a sender that has read the game's seats with their users passes them as ``seats=``.
game_finished = Signal()

#: Sent with ``game_set=`` (a saved ``games.play.models.GameSet``) when a set gets its result.
set_finished = Signal()

#: Sent once with ``game_sets=`` (a list of saved ``GameSet`` rows) after ``set_finished`` was sent
#: for each of them, so that a receiver with one question about all of them asks it once (the
#: timeout sweeper finishes thousands of sets in one transaction).
sets_finished = Signal()

#: Sent with ``game=`` (saved, in progress) and ``seats=`` (its seats, users loaded) when a game
#: is created (a challenge accepted, a set's next game, a tournament's match).
game_started = Signal()

#: Sent with ``game=`` (saved, in progress) and ``seat=`` (the seat to act now) inside the
#: transaction of the action that leaves that seat to act, before ``turn_started``: a receiver
#: writes what must be kept with the action (the computer opponents' turn row, from which a
#: lost move task is sent again). Nothing may leave the process here.
turn_due = Signal()

#: Sent with ``game=`` (saved, in progress) and ``seat=`` (the seat to act now), after the commit,
#: when a game is created or an action leaves a seat to act (``games.play.events.TurnStarted``):
#: the computer opponents move on it, the player hears it is their turn.
turn_started = Signal()

#: Sent with ``game=`` (saved), ``kind=``, ``since_ply=`` (the ply before) and ``shown=`` (the
#: ``games.play.positions.Snapshot`` the action left, shared with its answer), after the commit,
#: when an action changed a game in progress: ``"move"`` (stones, passes, decisions, a
#: marking), ``"undo"`` (a move taken back) or ``"request"`` (an undo or cancel request asked,
#: withdrawn or declined). The end of a game is ``game_finished``. The live streams publish both
#: (``live.publishers``). Sent by ``games.play.events.publish`` (``Changed``).
game_changed = Signal()

#: Sent with ``game_set=`` (a saved ``GameSet``) and ``game_id=`` (its game just over) when a
#: live set's countdown to its next game starts (``game_set.next_game_at``) or a player says
#: they are ready for it (``player1_ready``, ``player2_ready``): ``games.play.sets``.
set_next_game = Signal()

#: Sent with ``game_set=``, ``game=`` (the set's next game, just created) and ``previous_id=``
#: (the game before it) when a live set's next game starts (its own ``game_started`` is sent too).
set_next_game_started = Signal()
