"""What the games and challenges publish on the live streams (receivers of their signals).

Game channel ``game:<id>`` (players and spectators):

- ``move``: after stones, passes, decisions or a marking; ``undo``: a move taken back;
  ``request``: an undo or cancel request asked, withdrawn or declined. Data: ``moves`` (the new
  moves, as ``GET games/{id}/`` lists them; none for ``undo`` and ``request``) and ``state`` (the
  game as ``GET games/{id}/`` shows it to a spectator, without its moves: board, captures, to
  move, both clocks with ``server_time``, requests), so a client redraws from the event alone.
- ``end``: the game is over: ``status``, ``end_reason``, ``winner_seats``, ``ply``.

User channel ``user:<id>`` (one player): ``challenge_received`` (a direct challenge to you),
``challenge_accepted``, ``challenge_joined``, ``challenge_declined``, ``challenge_cancelled``,
``challenge_expired`` (challenges you made or were invited to), ``game_started``,
``your_turn`` (a game waits on you) and ``game_over``. The server's computer opponents get none.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.challenges.signals import challenge_changed
from games.models import Challenge, Game, Seat, User
from games.play.positions import move_json, played_of
from games.play.selectors import game_state_and_moves_json, seats_with_users
from games.play.signals import game_changed, game_finished, turn_started
from live.bus import publish, publish_many


def game_channel(game_id: int) -> str:
    return f"game:{game_id}"


def user_channel(user_id: int) -> str:
    return f"user:{user_id}"


def _humans(users: list[User | None]) -> list[User]:
    return [u for u in users if u is not None and u.bot_level is None]


def on_game_changed(sender, game: Game, kind: str, since_ply: int, **kwargs) -> None:
    """A move, an undo or a request: the new state is built once the transaction commits."""
    transaction.on_commit(lambda: _publish_state(game, kind, since_ply), robust=True)


def _publish_state(game: Game, kind: str, since_ply: int) -> None:
    state, _moves_json = game_state_and_moves_json(game=game, viewer=None)
    moves = []
    if kind == "move":
        # A turn adds at most two moves (Connect6), all in the kept tail: no need to read back
        # the whole game's moves. Messages as the spectators' state shows them.
        shown = game.status != Game.Status.IN_PROGRESS
        tail = played_of(game).tail
        moves = [json.loads(move_json(r, show_message=shown)) for r in tail if r.ply > since_ply]
    state["server_time"] = timezone.now()
    publish(channel=game_channel(game.pk), kind=kind, data={"moves": moves, "state": state})


def on_game_finished(sender, game: Game, seats: list[Seat] | None = None, **kwargs) -> None:
    data = {
        "game": game.pk,
        "status": game.status,
        "end_reason": game.end_reason,
        "winner_seats": list(game.winner_seats),
        "ply": game.ply,
    }
    events = [(game_channel(game.pk), "end", data)]
    for user in _humans([s.user for s in (seats if seats is not None else seats_with_users(game))]):
        events.append((user_channel(user.pk), "game_over", data))
    publish_many(events)


def on_turn_started(sender, game: Game, seat: int, **kwargs) -> None:
    for row in seats_with_users(game):
        if row.seat == seat and row.user is not None and row.user.bot_level is None:
            data = {"game": game.pk, "ply": game.ply, "seat": seat, "variant": game.variant}
            publish(channel=user_channel(row.user_id), kind="your_turn", data=data)


def challenge_brief(challenge: Challenge) -> dict[str, Any]:
    return {
        "id": challenge.pk,
        "kind": challenge.kind,
        "status": challenge.status,
        "created_by": challenge.created_by.username,
        "invitee": challenge.invitee.username if challenge.invitee_id else None,
        "variant": challenge.variant,
        "seats": challenge.seats,
        "rated": challenge.rated,
        "time_control": challenge.time_control,
        "game": challenge.game_id,
        "game_set": challenge.game_set_id,
    }


def on_challenge_changed(sender, challenge: Challenge, kind: str, **kwargs) -> None:
    data = challenge_brief(challenge)
    if kind == "created":
        if challenge.invitee_id is not None:
            publish(
                channel=user_channel(challenge.invitee_id), kind="challenge_received", data=data
            )
        return
    people = [challenge.created_by, challenge.invitee]
    if challenge.seats > 2:
        people += [entry.user for entry in challenge.entries.select_related("user")]
    if kind == "accepted" and challenge.game_id is not None:
        people += [s.user for s in seats_with_users(challenge.game)]
    for user in {u.pk: u for u in _humans(people)}.values():
        publish(channel=user_channel(user.pk), kind=f"challenge_{kind}", data=data)
        if kind == "accepted" and challenge.game_id is not None:
            started = {"game": challenge.game_id, "variant": challenge.variant}
            publish(channel=user_channel(user.pk), kind="game_started", data=started)


def connect() -> None:
    game_changed.connect(on_game_changed, dispatch_uid="live.game_changed")
    game_finished.connect(on_game_finished, dispatch_uid="live.game_finished")
    turn_started.connect(on_turn_started, dispatch_uid="live.turn_started")
    challenge_changed.connect(on_challenge_changed, dispatch_uid="live.challenge_changed")
