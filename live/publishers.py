"""What the games, challenges, ratings and tournaments publish on the live streams: the
receivers of their signals, each building its events (channels ``game:<id>``,
``game:<id>:delayed``, ``user:<id>``, ``room:<name>``) to send when the transaction commits.
The events and their data are listed in the API guide (docs/api.md, "Event streams")."""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone

from accounts.models import User
from games.bots.analysis_selectors import analysis_event
from games.bots.models import Analysis
from games.bots.signals import analysis_changed
from games.challenges.models import Challenge
from games.challenges.signals import challenge_changed
from games.clocks.timecontrol import Kind
from games.play.models import Game, GameSet, Seat
from games.play.positions import Snapshot, move_json
from games.play.selectors import (
    game_state_and_moves_json,
    game_state_head_json,
    seats_with_users,
)
from games.play.signals import (
    game_changed,
    game_finished,
    game_started,
    set_next_game,
    set_next_game_started,
    turn_started,
)
from live.bus import Encoded, publish, publish_built, publish_many
from live.channels import delayed_channel, game_channel, room_channel, user_channel
from live.models import MAIN_ROOM
from live.selectors import game_origin, tournament_game_brief, tournament_room_name
from ratings.models import RatingChange
from ratings.signals import ratings_changed
from tournaments.models import Match, Tournament
from tournaments.selectors import match_data, pairing_decision
from tournaments.signals import (
    match_created,
    match_decided,
    pairing_blocked,
    tournament_cancelled,
    tournament_finished,
)

MAIN = room_channel(MAIN_ROOM)


def _humans(users: list[User | None]) -> list[User]:
    return [u for u in users if u is not None and u.bot_level is None]


def on_game_changed(
    sender, game: Game, kind: str, since_ply: int, shown: Snapshot | None = None, **kwargs
) -> None:
    """A move, an undo or a request (sent once it is committed): the new state is built from
    ``shown``, the game as the action left it (the answer to the request shares the state), and
    sent with the other events of the action."""
    snapshot = shown if shown is not None else Snapshot(game)
    publish_built(lambda: _state_events(snapshot, kind, since_ply))


def _state_events(shown: Snapshot, kind: str, since_ply: int) -> list[tuple[str, str, Any]]:
    game = shown.game
    head = game_state_head_json(snapshot=shown)
    moves = []
    if kind == "move":
        # A turn adds at most two moves (Connect6), all in the kept tail: no need to read back
        # the whole game's moves. Messages as the spectators' state shows them.
        messages = game.status != Game.Status.IN_PROGRESS
        tail = shown.current().tail
        moves = [move_json(r, show_message=messages) for r in tail if r.ply > since_ply]
    # The state as the API writes it (the answer to the move shares it), and the server's time.
    server_time = json.dumps(timezone.now(), cls=DjangoJSONEncoder)
    data = Encoded(
        f'{{"moves":[{",".join(moves)}],"state":{head.decode()},"server_time":{server_time}}}}}'
    )
    events = [(game_channel(game.pk), kind, data)]
    if game.spectator_delay and game.status == Game.Status.IN_PROGRESS and kind != "request":
        events += _delayed_events(game, kind, since_ply)
    return events


def _delayed_events(game: Game, kind: str, since_ply: int) -> list[tuple[str, str, dict]]:
    """What the spectators of a game with a spectator delay see: the moves that are now
    ``spectator_delay`` plies old, with the state as of them."""
    shown = max(0, game.ply - game.spectator_delay)
    before = max(0, since_ply - game.spectator_delay)
    if kind == "move" and shown == before:
        return []  # nothing new is old enough yet
    state, moves_json = game_state_and_moves_json(game=game, viewer=None, shown_ply=shown)
    # The moves just old enough are the last of those shown (plies before+1 .. shown).
    moves = json.loads(moves_json)[before:shown] if kind == "move" else []
    state["server_time"] = timezone.now()
    return [(delayed_channel(game.pk), kind, {"moves": moves, "state": state})]


def _in_real_time(game: Game) -> bool:
    """A game the main room shows: played in real time (not turn-based), not imported."""
    return game.time_control != Kind.TURN and not game.imported


def on_game_started(sender, game: Game, seats: list[Seat], **kwargs) -> None:
    """Built once the transaction commits, when the challenge names its game."""
    publish_built(lambda: _started_events(game, seats))


def _started_events(game: Game, seats: list[Seat]) -> list[tuple[str, str, dict[str, Any]]]:
    data = {
        "game": game.pk,
        "variant": game.variant,
        "rated": game.rated,
        "time_control": game.time_control,
        "players": [s.user.username if s.user else s.name for s in seats],
        **game_origin(game=game),
    }
    # The players hear which tournament game it is and by when to play it (``site.js``
    # announces it on every page they have open).
    mine = {**data, "tournament_game": tournament_game_brief(game=game)}
    events = [(user_channel(u.pk), "game_started", mine) for u in _humans([s.user for s in seats])]
    if _in_real_time(game):
        events.append((MAIN, "game_started", data))
    return events


def on_game_finished(sender, game: Game, seats: list[Seat] | None = None, **kwargs) -> None:
    data = {
        "game": game.pk,
        "status": game.status,
        "end_reason": game.end_reason,
        "winner_seats": list(game.winner_seats),
        "ply": game.ply,
        "absent_seats": list(game.absent_seats or []),
    }
    events = [(game_channel(game.pk), "end", data)]
    if game.spectator_delay:  # the spectators see the rest of the game, then its end
        state, moves_json = game_state_and_moves_json(game=game, viewer=None, shown_ply=None)
        hidden = json.loads(moves_json)[max(0, game.ply - game.spectator_delay) :]
        state["server_time"] = timezone.now()
        reveal = {"moves": hidden, "state": state}
        events += [
            (delayed_channel(game.pk), "move", reveal),
            (delayed_channel(game.pk), "end", data),
        ]
    if _in_real_time(game):
        events.append((MAIN, "game_ended", data))
    for user in _humans([s.user for s in (seats if seats is not None else seats_with_users(game))]):
        events.append((user_channel(user.pk), "game_over", data))
    publish_many(events)


def _set_next_game_data(game_set: GameSet, game_id: int) -> dict[str, Any]:
    return {
        "set": game_set.pk,
        "game": game_id,
        "next_game_at": game_set.next_game_at,
        "ready": [game_set.player1_ready, game_set.player2_ready],
    }


def on_set_next_game(sender, game_set: GameSet, game_id: int, **kwargs) -> None:
    """A live set's countdown to its next game started, or a player said they are ready: the
    game just over's channel and both players hear when it starts."""
    data = _set_next_game_data(game_set, game_id)
    channels = [game_channel(game_id)]
    channels += [user_channel(u.pk) for u in _humans([game_set.player1, game_set.player2])]
    publish_many([(channel, "set_next_game", data) for channel in channels])


def on_set_next_game_started(sender, game_set: GameSet, game: Game, previous_id: int, **kwargs):
    """A live set's next game started: the page of the game before it hears it on that game's
    channel (the players hear ``game_started`` on theirs, as for every game)."""
    data = {
        "game": game.pk,
        "set": game_set.pk,
        "set_index": game.set_index,
        "previous": previous_id,
        "variant": game.variant,
        "rated": game.rated,
        "time_control": game.time_control,
    }
    publish(channel=game_channel(previous_id), kind="game_started", data=data)


def on_analysis_changed(
    sender, analysis: Analysis, new_plies: list[dict[str, Any]], **kwargs
) -> None:
    """The analysis' new status, progress and plies, on the game's channel (and its spectators'
    when they saw it late: their pages still follow that one)."""
    game = analysis.game
    data = analysis_event(analysis=analysis, new_plies=new_plies)
    channels = [game_channel(game.pk)]
    if game.spectator_delay:
        channels.append(delayed_channel(game.pk))
    publish_many([(channel, "analysis", data) for channel in channels])


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
    if challenge.invitee_id is None:  # an open challenge: the main room sees it come and go
        room_kind = {
            "created": "challenge_open",
            "joined": "challenge_updated",
            "left": "challenge_updated",
        }
        publish(channel=MAIN, kind=room_kind.get(kind, "challenge_gone"), data=data)
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
    events = [
        (user_channel(user.pk), f"challenge_{kind}", data)
        for user in {u.pk: u for u in _humans(people)}.values()
    ]
    publish_many(events)


def _match_brief(match: Match) -> dict[str, Any]:
    t = match.tournament
    names = dict(
        User.objects.filter(pk__in=[match.player1_id, match.player2_id]).values_list(
            "pk", "username"
        )
    )
    return {"tournament": t.pk, "name": t.name, "match": match_data(match, names)}


def on_match_created(sender, match: Match, **kwargs) -> None:
    data = _match_brief(match)
    room = room_channel(tournament_room_name(match.tournament_id))
    events = [(room, "match_started", data)]
    for user_id in (match.player1_id, match.player2_id):
        if user_id is not None:
            events.append((user_channel(user_id), "tournament_match", data))
    publish_many(events)


def on_match_decided(sender, match: Match, **kwargs) -> None:
    room = room_channel(tournament_room_name(match.tournament_id))
    publish(channel=room, kind="match_finished", data=_match_brief(match))


def on_tournament_finished(sender, tournament: Tournament, **kwargs) -> None:
    data = {
        "tournament": tournament.pk,
        "name": tournament.name,
        "winner": tournament.winner_id,
        "standings": tournament.standings[:10],
    }
    publish(
        channel=room_channel(tournament_room_name(tournament.pk)),
        kind="tournament_finished",
        data=data,
    )


def on_tournament_cancelled(sender, tournament: Tournament, **kwargs) -> None:
    """The tournament's room and its players hear that it is off."""
    data = {"tournament": tournament.pk, "name": tournament.name, "status": tournament.status}
    players = tournament.entries.filter(user__bot_level__isnull=True).values_list(
        "user_id", flat=True
    )
    events = [(room_channel(tournament_room_name(tournament.pk)), "tournament_cancelled", data)]
    events += [(user_channel(user_id), "tournament_cancelled", data) for user_id in players]
    publish_many(events)


def on_pairing_blocked(sender, tournament: Tournament, **kwargs) -> None:
    """A round waits for the organiser: the tournament's room and the organiser hear it."""
    data = {"tournament": tournament.pk, "name": tournament.name, **pairing_decision(tournament)}
    publish_many(
        [
            (room_channel(tournament_room_name(tournament.pk)), "pairing_decision_needed", data),
            (user_channel(tournament.organiser_id), "pairing_decision_needed", data),
        ]
    )


def on_ratings_changed(sender, changes: list[RatingChange], **kwargs) -> None:
    events = []
    for change in changes:
        data = {
            "variant": change.rating.variant,
            "category": change.rating.category,
            "game_set": change.game_set_id,
            "result": change.result,
            "before": round(change.rating_before, 2),
            "after": round(change.rating_after, 2),
            "opponent": change.opponent_id,
        }
        events.append((user_channel(change.user_id), "rating_changed", data))
    publish_many(events)


def connect() -> None:
    game_changed.connect(on_game_changed, dispatch_uid="live.game_changed")
    game_finished.connect(on_game_finished, dispatch_uid="live.game_finished")
    turn_started.connect(on_turn_started, dispatch_uid="live.turn_started")
    analysis_changed.connect(on_analysis_changed, dispatch_uid="live.analysis_changed")
    challenge_changed.connect(on_challenge_changed, dispatch_uid="live.challenge_changed")
    game_started.connect(on_game_started, dispatch_uid="live.game_started")
    set_next_game.connect(on_set_next_game, dispatch_uid="live.set_next_game")
    set_next_game_started.connect(on_set_next_game_started, dispatch_uid="live.set_next_started")
    match_created.connect(on_match_created, dispatch_uid="live.match_created")
    match_decided.connect(on_match_decided, dispatch_uid="live.match_decided")
    tournament_finished.connect(on_tournament_finished, dispatch_uid="live.tournament_finished")
    tournament_cancelled.connect(on_tournament_cancelled, dispatch_uid="live.tournament_cancelled")
    pairing_blocked.connect(on_pairing_blocked, dispatch_uid="live.pairing_blocked")
    ratings_changed.connect(on_ratings_changed, dispatch_uid="live.ratings_changed")
