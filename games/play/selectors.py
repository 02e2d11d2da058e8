"""Reads of games: the full game state a client renders, game lists, sets."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from django.db.models import Prefetch, Q, QuerySet, prefetch_related_objects
from django.utils import timezone

from accounts.models import User
from games.choices import MAX_SEATS
from games.clocks.selectors import clock_view
from games.clocks.timecontrol import Kind
from games.engine import GoGame, GoPhase, GoScore, IllegalMove, Position, point_name, point_names
from games.play.models import Game, GameSet, Seat
from games.play.positions import (
    Played,
    Snapshot,
    api_json_bytes,
    cached_played,
    cancel_forbidden_reason,
    played_of,
    played_upto,
    team_of,
)
from pente_site.errors import Conflict, Invalid, NotFound


def _user_brief(user: User | None) -> dict[str, Any] | None:
    if user is None:
        return None
    return {"id": user.pk, "username": user.username}


def _seats_with_users() -> Prefetch:
    """A game's seats with their users, in seat order."""
    return Prefetch("seat_rows", queryset=Seat.objects.select_related("user").order_by("seat"))


def games_queryset() -> QuerySet[Game]:
    """Games with their seats and users prefetched (for lists)."""
    return Game.objects.prefetch_related(_seats_with_users())


def game_get(*, game_id: int | str) -> Game:
    try:
        return games_queryset().get(pk=int(game_id))
    except (Game.DoesNotExist, ValueError, TypeError):
        raise NotFound("not_found", f"There is no game {game_id}.") from None


def game_to_show(*, game_id: int | str) -> Snapshot:
    """A game to show (``game_state_head_and_moves_json``): its row, then its seats, moves and
    position from the cache when it holds them for the row as it stands (one query in all),
    else its seats read as ``game_get`` reads them (the moves when the state is built)."""
    try:
        game = Game.objects.filter(pk=int(game_id)).first()
    except (ValueError, TypeError, OverflowError):
        game = None
    if game is None:
        raise NotFound("not_found", f"There is no game {game_id}.")
    played = cached_played(game)
    if played is None:
        prefetch_related_objects([game], _seats_with_users())
    return Snapshot(game, played)


def set_get(*, set_id: int | str) -> GameSet:
    try:
        return GameSet.objects.select_related("player1", "player2", "winner").get(pk=int(set_id))
    except (GameSet.DoesNotExist, ValueError, TypeError):
        raise NotFound("not_found", f"There is no set {set_id}.") from None


def seats_with_users(game: Game) -> list[Seat]:
    loaded = game.loaded_seats()
    if loaded is not None:
        return list(loaded)
    return list(Seat.objects.filter(game=game).select_related("user").order_by("seat"))


def is_participant(game: Game, viewer: User | None) -> bool:
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return False
    return any(s.user_id == viewer.pk for s in seats_with_users(game))


def _game_fields(game: Game) -> dict[str, Any]:
    """The fields of a game row that lists and the full state both show."""
    return {
        "id": game.pk,
        "variant": game.variant,
        "status": game.status,
        "end_reason": game.end_reason,
        "winner_seats": list(game.winner_seats),
        "ply": game.ply,
        "rated": game.rated,
        "imported": game.imported,
        "set_id": game.game_set_id,
        "set_index": game.set_index,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
    }


def game_summary(game: Game, viewer: User | None = None) -> dict[str, Any]:
    """A game as shown in lists (no board, no moves), to ``viewer`` (None: anyone): a game
    with a spectator delay shows the ply a spectator sees (``spectator_ply``)."""
    seats = seats_with_users(game)
    fields = _game_fields(game)
    shown = spectator_ply(game, viewer)
    if shown is not None:
        fields["ply"] = shown
    return {
        **fields,
        "category": game.category,
        "players": [{"seat": s.seat, "name": s.name, "user": _user_brief(s.user)} for s in seats],
    }


def game_state(
    *,
    game: Game,
    viewer: User | None,
    now: datetime | None = None,
    snapshot: Snapshot | None = None,
) -> dict[str, Any]:
    """Everything a client needs to draw and play the game (``moves`` last). ``snapshot``: what
    the request already holds of ``game`` (its moves and position), when it holds it."""
    state, played, show_messages = _state_and_moves(
        snapshot=snapshot or Snapshot(game),
        viewer=viewer,
        now=now,
        shown_ply=spectator_ply(game, viewer),
    )
    return {**state, "moves": played.moves(show_messages=show_messages)}


def game_state_and_moves_json(
    *,
    game: Game,
    viewer: User | None,
    now: datetime | None = None,
    shown_ply: int | None | bool = False,
) -> tuple[dict[str, Any], str]:
    """``game_state`` without its moves, and the moves as a JSON array: the view splices the
    array in whole from the cache (no object built or encoded per move: the work does not grow
    with the game's length). ``shown_ply``: the game as of that ply (None: as it stands; left
    out: as ``viewer`` may see it, see ``spectator_ply``)."""
    if shown_ply is False:
        shown_ply = spectator_ply(game, viewer)
    state, played, show_messages = _state_and_moves(
        snapshot=Snapshot(game), viewer=viewer, now=now, shown_ply=shown_ply
    )
    return state, played.moves_json(show_messages=show_messages)


def game_state_head_and_moves_json(
    *, snapshot: Snapshot, viewer: User | None, shown_ply: int | None | bool = False
) -> tuple[bytes, str]:
    """``game_state_and_moves_json`` of the game ``snapshot`` holds, with the state already
    written as the API writes it (JSON, without its closing brace, so that ``"moves"`` or more
    can follow). What ``snapshot`` holds is used, and what is built is kept in it."""
    game = snapshot.game
    if shown_ply is False:
        shown_ply = spectator_ply(game, viewer)
    if shown_ply is not None:
        state, played, show_messages = _state_and_moves(
            snapshot=snapshot, viewer=viewer, now=None, shown_ply=shown_ply
        )
        return api_json_bytes(state)[:-1], played.moves_json(show_messages=show_messages)
    head = game_state_head_json(snapshot=snapshot)
    _state, played, show_messages = _state_and_moves(snapshot=snapshot, viewer=viewer, now=None)
    return head, played.moves_json(show_messages=show_messages)


def game_state_head_json(*, snapshot: Snapshot) -> bytes:
    """The game state as it stands (all its moves shown) but its moves, written as the API
    writes it, without its closing brace: written once per request and kept in ``snapshot``, so
    that the game's live event and the answer share it (the moves differ by viewer only in their
    messages)."""
    _state_and_moves(snapshot=snapshot, viewer=None, now=None)
    key, state, _played = snapshot.memo["state"]
    kept = snapshot.memo.get("head")
    if kept is None or kept[0] != key:
        kept = snapshot.memo["head"] = (key, api_json_bytes(state)[:-1])
    return kept[1]


def spectator_ply(game: Game, viewer: User | None) -> int | None:
    """The ply up to which ``viewer`` sees a game in progress with a spectator delay (its last
    ``spectator_delay`` plies are hidden from everyone not seated in it), or None: all of it."""
    if not game.spectator_delay or game.status != Game.Status.IN_PROGRESS:
        return None
    if is_participant(game, viewer):
        return None
    return max(0, game.ply - game.spectator_delay)


def _state_and_moves(
    *,
    snapshot: Snapshot,
    viewer: User | None,
    now: datetime | None,
    shown_ply: int | None = None,
) -> tuple[dict[str, Any], Played, bool]:
    """The game state but its moves; the moves and position (``Snapshot.current``: those the
    request holds, else the cache's, else one SELECT and a replay; up to ``shown_ply`` only when
    given); whether ``viewer`` sees the messages. The state as it stands is built once per
    snapshot and row version (kept in ``snapshot.memo``)."""
    game = snapshot.game
    memo_key = (game.ply, game.updated_at, game.status)
    if shown_ply is None and now is None:
        memo = snapshot.memo.get("state")
        if memo is not None and memo[0] == memo_key:
            # The same state again in this request (the event, then the answer): it depends on
            # the viewer only through the messages shown.
            _key, state, played = memo
            show_messages = game.status != Game.Status.IN_PROGRESS or is_participant(game, viewer)
            return dict(state), played, show_messages
    played = snapshot.current() if shown_ply is None else played_upto(game, shown_ply)
    state, show_messages = _build_state(game=game, played=played, viewer=viewer, now=now)
    if shown_ply is not None:
        state["ply"] = shown_ply
    elif now is None:
        snapshot.memo["state"] = (memo_key, state, played)
        state = dict(state)
    return state, played, show_messages


def _build_state(
    *, game: Game, played: Played, viewer: User | None, now: datetime | None
) -> tuple[dict[str, Any], bool]:
    """The state of ``game`` but its moves, from ``played``; whether ``viewer`` sees the
    messages."""
    now = now or timezone.now()
    position = played.position
    seats = seats_with_users(game)
    by_seat = {s.seat: s for s in seats}
    size = position.size
    in_progress = game.status == Game.Status.IN_PROGRESS
    show_messages = not in_progress or is_participant(game, viewer)
    entries = _stone_entries(size)
    stones = [entries[c][p] for p, c in enumerate(position.board) if c]
    captures = list(position.captures)
    to_move_seat = position.to_move_seat if in_progress else None
    to_move = None
    if to_move_seat is not None:
        seat_row = by_seat.get(to_move_seat)
        to_move = {
            "seat": to_move_seat,
            "colour": position.to_move_colour,
            "user": _user_brief(seat_row.user if seat_row else None),
            "name": seat_row.name if seat_row else "",
            "stones": position.stones_this_turn(),
        }
    go = _go_state(position) if position.marks_dead else None
    pending = position.decision_due if in_progress else None
    players = []
    for seat in range(1, game.seats + 1):
        row = by_seat.get(seat)
        colour = position.seat_colour(seat)
        players.append(
            {
                "seat": seat,
                "colour": colour,
                "team": list(team_of(game, seat)),
                "name": row.name if row else "",
                "user": _user_brief(row.user if row else None),
                "captures": captures[colour - 1] if 0 < colour <= len(captures) else 0,
            }
        )
    winners = [p for p in players if p["seat"] in game.winner_seats]
    cancel_reason = cancel_forbidden_reason(game)
    clock = clock_view(game=game, now=now, to_move_seat=to_move_seat)
    state = {
        **_game_fields(game),
        "winners": winners,
        "seats": game.seats,
        "partners": game.partners,
        "tournament_rule": game.tournament_rule,
        "adjacent_only": game.adjacent_only,
        "headers": game.headers,
        "players": players,
        "board": {
            "size": size,
            "rows": position.rows(),
            "stones": stones,
            "last_point": position.last_point,
            "last_name": point_name(position.last_point, size)
            if position.last_point is not None
            else None,
        },
        "captures": captures,
        "to_move": to_move,
        "pending_decision": pending,
        "decisions_available": list(position.decision_choices()) if pending else [],
        "clock": {
            **clock,
            "clocks_ms": list(game.clocks_ms or []),
            "remaining_ms": [int(ms) for ms in clock["clocks_ms"]],
            "as_of": _iso_ms(now),
        },
        "on_absence": game.on_absence,
        "absent_seats": list(game.absent_seats or []),
        "go": go,
        "undo_requested_by": game.undo_requested_by,
        "takeback_seat": _takeback_seat(game, position),
        "cancel_requested_by": game.cancel_requested_by,
        "cancellable": cancel_reason is None,
        "updated_at": game.updated_at,
        "spectator_delay": game.spectator_delay,
        "set": game_set_of(game=game),
    }
    return state, show_messages


def _iso_ms(moment: datetime) -> str:
    """A time in ISO 8601 to the millisecond, UTC as ``Z`` (the clock's ``as_of``: a page
    counts the time since it to the millisecond)."""
    text = moment.astimezone(UTC).isoformat(timespec="milliseconds")
    return text.removesuffix("+00:00") + "Z"


def _takeback_seat(game: Game, position: Position) -> int | None:
    """The seat that may ask to take its last move back now (``game_undo_request``'s rule: the
    player who just moved, never into the opening), or None."""
    if game.status != Game.Status.IN_PROGRESS:
        return None
    span = position.takeback()
    return None if span is None else span.seat


@lru_cache(maxsize=8)
def _stone_entries(size: int) -> tuple[tuple[dict[str, Any], ...], ...]:
    """The board's ``stones`` entries of a board of ``size``, by colour and point, built once:
    a state lists them without building a dict per stone (up to 361 on a board). Shared by
    every state: never changed."""
    names = point_names(size)
    return tuple(
        tuple({"point": p, "name": name, "colour": colour} for p, name in enumerate(names))
        for colour in range(MAX_SEATS + 1)
    )


def _go_state(position: GoGame) -> dict[str, Any]:
    """Go's part of the state: the phase, the marking to answer, the dead stones and the area
    count (final once counted; as the board stands before)."""
    names = point_names(position.size)
    proposal = position.proposed_dead
    score = position.score()
    return {
        "phase": str(position.phase),
        "komi": position.komi,
        "marking_seat": position.marking_seat,
        "proposed_dead": None if proposal is None else [names[p] for p in sorted(proposal)],
        "dead": [names[p] for p in sorted(score.dead)] if position.outcome is not None else [],
        "disputed": [names[p] for p in sorted(position.disputed)],
        "score": _go_score(position, score),
    }


def _go_score(position: GoGame, score: GoScore) -> dict[str, Any]:
    """An area count as the state's ``go.score`` shows it: each side's points, territory and
    the stones it takes off as dead, by colour."""
    names = point_names(position.size)
    dead = _dead_colours(position, score.dead)
    return {
        "black": score.black,
        "white": score.white,
        "black_territory": [names[p] for p in sorted(score.black_territory)],
        "white_territory": [names[p] for p in sorted(score.white_territory)],
        "black_dead": [names[p] for p in sorted(dead) if dead[p] == 1],
        "white_dead": [names[p] for p in sorted(dead) if dead[p] == 2],
    }


def go_count_preview(
    *, game_id: int | str, viewer: User | None, dead: Sequence[str], groups: Sequence[str] = ()
) -> dict[str, Any]:
    """Go's count of game ``game_id``, in its marking phase, as it would be with the stones
    ``dead`` (their names) taken off, and the whole groups of the stones ``groups``
    (``GoGame.group_of``): the shape of the state's ``go.score``, read only (nothing
    is proposed or stored), for the players and the spectators alike, on the board ``viewer``
    sees (``spectator_ply``: a spectator delay shows an earlier ply). Refuses 404
    ``not_found``; 409 ``not_marking`` (not Go, not in progress, or not in the marking phase as
    ``viewer`` sees it); 400 ``bad_coordinate`` or ``off_board`` (not a point of the board)
    and ``bad_dead`` (a point with no stone)."""
    game = game_get(game_id=game_id)
    shown = spectator_ply(game, viewer)
    played = played_of(game) if shown is None else played_upto(game, shown)
    position = played.position
    if not position.marks_dead:
        raise Conflict("not_marking", f"Game {game.pk} is {game.variant}: only Go is counted.")
    if game.status != Game.Status.IN_PROGRESS:
        raise Conflict(
            "not_marking",
            f"Game {game.pk} is over ({game.status}): its count is the state's go.score.",
        )
    if position.phase is not GoPhase.MARKING:
        raise Conflict(
            "not_marking",
            f"Game {game.pk} is being played: the dead stones are marked, and their count "
            "previewed, only after two passes in a row.",
        )
    try:
        whole: list[int] = []
        for name in groups:
            group = position.group_of(name)
            if not group:
                point = position.point_name(position.parse_point(name))
                raise IllegalMove("bad_dead", f"{point} holds no stone: no group to count dead")
            whole.extend(group)
        score = position.score([*dead, *whole])
    except IllegalMove as exc:
        raise Invalid(exc.code, exc.detail) from None
    return _go_score(position, score)


def _dead_colours(position: GoGame, dead: frozenset[int]) -> dict[int, int]:
    """The colour of each stone the count takes off as ``dead``: while marking they are on the
    board; once counted they have left it, and are read from the position before the
    acceptance."""
    if not dead:
        return {}
    board = position.board
    if position.outcome is not None:
        before = position.copy()
        before.pop()  # the acceptance: the dead stones are back on the board
        board = before.board
    return {p: board[p] for p in dead}


def _set_score(game_set: GameSet, games: Sequence[Game]) -> list[int]:
    """The games each player of the set won so far, [player 1's, player 2's]: seat 1 is player
    1's in the odd games and player 2's in the even ones (``set_create``'s order)."""
    score = [0, 0]
    for g in games:
        for seat in set(g.winner_seats):
            if seat in (1, 2):
                player = (seat - 1) if g.set_index % 2 else (2 - seat)
                score[player] += 1
    return score


#: The columns of a set that ``_set_progress`` reads.
SET_PROGRESS_FIELDS = (
    "games_count",
    "status",
    "result",
    "player1",
    "player2",
    "next_game_at",
    "player1_ready",
    "player2_ready",
)


def _set_progress(game_set: GameSet, games: Sequence[Game]) -> dict[str, Any]:
    """What a set's game and the set's page show of where the set stands."""
    return {
        "games_count": game_set.games_count,
        "status": game_set.status,
        "result": game_set.result,
        "player1": _user_brief(game_set.player1),
        "player2": _user_brief(game_set.player2),
        "score": _set_score(game_set, games),
        "next_game_at": game_set.next_game_at,
        "ready": [game_set.player1_ready, game_set.player2_ready],
    }


def game_set_of(*, game: Game) -> dict[str, Any] | None:
    """The set of a game as its state shows it (None: not in a set): the set's id, this game's
    place in it, the score so far, the set's other game (None until it exists) and, while the
    countdown to the next game runs, when it starts and who is ready."""
    if game.game_set_id is None:
        return None
    # One query (a move's budget): the set's games, each with the set and its players joined.
    games = list(
        Game.objects.filter(game_set_id=game.game_set_id)
        .select_related("game_set__player1", "game_set__player2")
        .only(
            "id",
            "set_index",
            "winner_seats",
            "game_set",
            *(f"game_set__{f}" for f in SET_PROGRESS_FIELDS),
            *(f"game_set__{p}__{f}" for p in ("player1", "player2") for f in ("id", "username")),
        )
        .order_by("set_index")
    )
    game_set = games[0].game_set
    other = next((g.pk for g in games if g.pk != game.pk), None)
    return {
        "id": game_set.pk,
        "index": game.set_index,
        "other_game": other,
        **_set_progress(game_set, games),
    }


def set_detail(*, game_set: GameSet) -> dict[str, Any]:
    games = list(games_queryset().filter(game_set=game_set).order_by("set_index"))
    return {
        **_set_progress(game_set, games),
        "id": game_set.pk,
        "variant": game_set.variant,
        "rated": game_set.rated,
        "category": game_set.category,
        "winner": _user_brief(game_set.winner),
        "created_at": game_set.created_at,
        "finished_at": game_set.finished_at,
        "games": [game_summary(g) for g in games],
    }


def games_in_progress(*, limit: int, user: User | None = None) -> list[Game]:
    """Games being played, the most recently moved first (not imported ones); with ``user``,
    only theirs."""
    games = games_queryset().filter(status=Game.Status.IN_PROGRESS, imported=False)
    if user is not None:
        games = games.filter(seat_rows__user=user)
    return list(games.order_by("-updated_at", "-id")[:limit])


def my_games_by_urgency(*, user: User, limit: int, now: datetime | None = None) -> list[dict]:
    """``user``'s games in progress (not imported), each as ``game_summary`` shows it plus whose
    turn it is (``to_move``: seat and name, None in a game waiting for no one), ``my_turn``, and
    the time the player to move has left (``time_left_ms``: their clock in a live game, the time
    to the deadline in a turn-based one, None untimed), sorted by urgency: the games where it is
    ``user``'s turn first, then the least time left first (untimed last), then the most recently
    moved."""
    now = now or timezone.now()
    games = games_queryset().filter(
        status=Game.Status.IN_PROGRESS, imported=False, seat_rows__user=user
    )
    rows = []
    for game in games.order_by("-updated_at", "-id")[:limit]:
        summary = game_summary(game, user)
        seat = played_of(game).position.to_move_seat
        clock = clock_view(game=game, now=now, to_move_seat=seat)
        by_seat = {p["seat"]: p for p in summary["players"]}
        mover = by_seat.get(seat)
        left: int | None = None
        if game.time_control == Kind.LIVE and seat and 0 < seat <= len(clock["clocks_ms"]):
            left = int(clock["clocks_ms"][seat - 1])
        elif game.time_control == Kind.TURN and game.deadline is not None:
            left = max(0, int((game.deadline - now).total_seconds() * 1000))
        rows.append(
            {
                **summary,
                "to_move": None if mover is None else {"seat": seat, "name": mover["name"]},
                "my_turn": mover is not None and (mover["user"] or {}).get("id") == user.pk,
                "time_control": game.time_control,
                "time_left_ms": left,
                # Not while the timer rule waits for the first stones (``clock_view``).
                "clock_running": left is not None
                and game.time_control == Kind.LIVE
                and bool(clock["running"]),
                "deadline": game.deadline,
            }
        )
    rows.sort(
        key=lambda r: (
            not r["my_turn"],
            r["time_left_ms"] is None,
            r["time_left_ms"] or 0,
        )
    )
    return rows


def seats_named(name: str) -> Q:
    """The seats of the users called ``name`` (any case), and of imported records under that
    recorded name (any case). The users are looked up first, so that each half is an index
    scan (``Seat.user``; the recorded names' UPPER index) rather than a join over every seat."""
    users = list(User.objects.filter(username__iexact=name).values_list("pk", flat=True))
    return Q(user_id__in=users) | Q(user__isnull=True, name__iexact=name)


def games_played_by(*, user: User, limit: int) -> list[Game]:
    """The games ``user`` sat in (not imported records), the newest first."""
    games = games_queryset().filter(seat_rows__user=user, imported=False)
    return list(games.order_by("-id")[:limit])
