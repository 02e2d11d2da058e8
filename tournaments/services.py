"""Business logic of tournaments: create, join, withdraw, start, pair rounds, record match
results and finish.

Progress is driven by Celery (``tournaments.tasks``): a task at the start time starts the
tournament, ``games.signals.set_finished`` enqueues the recording of a match's result, and that
task advances the tournament (pairs the next round, creates the next bracket matches, or
finishes). A periodic sweeper repeats all of this as a backstop. Every step is idempotent:

- starting is a conditional UPDATE from ``registration`` to ``running``;
- pairing round ``n`` claims it with a conditional UPDATE of ``current_round`` from ``n - 1`` to
  ``n``, backed by the unique (tournament, number) of ``Round``;
- bracket matches are created under the unique (tournament, key) of ``Match``;
- a match result is written only while the match is in progress, under its row lock.

Refusals are ``ApiError``: 404 ``not_found``; 403 ``not_organiser``, ``not_eligible``;
409 ``registration_closed``, ``already_joined``, ``not_joined``, ``tournament_full``,
``already_started``, ``tournament_over``; 400 ``bad_options``, ``bad_time_control``.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games import services as game_services
from games.clocks import category_of_row
from games.models import Game, GameSet, Seat, User
from pente_site.api import ApiError
from ratings.elo import ESTABLISHED_RESULTS
from ratings.selectors import rating_or_start
from tournaments.models import Entry, Match, MatchSet, Round, Tournament
from tournaments.pairing import PairingError
from tournaments.pairing.berger import round_robin_schedule
from tournaments.pairing.double_elimination import double_elimination
from tournaments.pairing.dutch import (
    PlayedPair,
    RoundRecord,
    default_rounds,
    max_rounds,
    pair_round,
    players_from_history,
)
from tournaments.pairing.elimination import (
    BYE,
    bracket_stages,
    resolve,
    single_elimination,
)

log = logging.getLogger(__name__)

#: Days per move of a turn-based tournament that does not say.
DEFAULT_DAYS_PER_MOVE = 3


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


# --- create / join / withdraw ---------------------------------------------------------------


def tournament_create(
    *,
    organiser: User,
    name: str,
    start_at: datetime,
    format: str = Tournament.Format.SWISS,
    variant: str = "Pente",
    rated: bool = True,
    time_control: str = "turn",
    initial_minutes: int | None = None,
    increment_seconds: int | None = None,
    days_per_move: int | None = None,
    games_per_match: int | None = None,
    registration_opens_at: datetime | None = None,
    registration_closes_at: datetime | None = None,
    rating_above: int | None = None,
    rating_below: int | None = None,
    min_rated_results: int = 0,
    max_players: int | None = None,
    vacation_allowed: bool = True,
    rounds: int | None = None,
    cycles: int = 1,
) -> Tournament:
    from games.engine import UnknownGame, get_variant

    try:
        v = get_variant(variant)
    except UnknownGame:
        raise ApiError("bad_options", f"Unknown game {variant!r}.") from None
    if format not in Tournament.Format.values:
        raise ApiError("bad_options", f"Unknown format {format!r}.")
    initial_minutes, increment_seconds, days_per_move = _time_control_numbers(
        time_control=time_control,
        initial_minutes=initial_minutes,
        increment_seconds=increment_seconds,
        days_per_move=days_per_move,
    )
    if games_per_match is None:
        games_per_match = v.set_size
    if games_per_match not in (1, 2):
        raise ApiError("bad_options", "A match is one game or a set of two.")
    if games_per_match == 2 and v.set_size == 1:
        raise ApiError("bad_options", f"{v.name} matches are single games.")
    if cycles not in (1, 2):
        raise ApiError("bad_options", "A round robin has one or two cycles.")
    if rounds is not None and rounds < 1:
        raise ApiError("bad_options", "rounds must be at least 1.")
    if max_players is not None and max_players < 2:
        raise ApiError("bad_options", "max_players must be at least 2.")
    if registration_closes_at and registration_closes_at > start_at:
        raise ApiError("bad_options", "Registration must close by the start time.")
    if registration_opens_at and registration_opens_at >= (registration_closes_at or start_at):
        raise ApiError("bad_options", "Registration must open before it closes.")
    with transaction.atomic():
        t = Tournament.objects.create(
            name=name,
            organiser=organiser,
            variant=v.name,
            rated=rated,
            format=format,
            time_control=time_control,
            initial_minutes=initial_minutes,
            increment_seconds=increment_seconds,
            days_per_move=days_per_move,
            games_per_match=games_per_match,
            registration_opens_at=registration_opens_at,
            registration_closes_at=registration_closes_at,
            start_at=start_at,
            rating_above=rating_above,
            rating_below=rating_below,
            min_rated_results=min_rated_results,
            max_players=max_players,
            vacation_allowed=vacation_allowed,
            rounds=rounds,
            cycles=cycles,
            seed=random.SystemRandom().randrange(1, 2**62),
        )
        from tournaments import tasks

        transaction.on_commit(lambda: tasks.schedule_start(t.pk, t.start_at))
    return t


def _time_control_numbers(
    *,
    time_control: str,
    initial_minutes: int | None,
    increment_seconds: int | None,
    days_per_move: int | None,
) -> tuple[int, int, int]:
    """The (initial_minutes, increment_seconds, days_per_move) a tournament stores: only the
    numbers of its time control, the others 0. A tournament is live or turn-based (its games
    must not stall forever); turn-based defaults to 3 days per move. Giving a number the time
    control does not use is refused, as for challenges."""
    if time_control not in ("live", "turn"):
        raise ApiError(
            "bad_time_control",
            "A tournament's time control is live or turn-based "
            f'("live" or "turn"), not {time_control!r}.',
        )
    if time_control == "live":
        if days_per_move:
            raise ApiError("bad_time_control", "A live tournament has no days per move.")
        numbers = (initial_minutes or 0, increment_seconds or 0, 0)
    else:
        if initial_minutes or increment_seconds:
            raise ApiError(
                "bad_time_control", "A turn-based tournament has no initial time or increment."
            )
        numbers = (0, 0, DEFAULT_DAYS_PER_MOVE if days_per_move is None else days_per_move)
    game_services.require_valid_time_control(
        time_control=time_control,
        initial_minutes=numbers[0],
        increment_seconds=numbers[1],
        days_per_move=numbers[2],
    )
    return numbers


def _lock(tournament_id: int) -> Tournament:
    t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if t is None:
        raise ApiError("not_found", "No such tournament.", status_code=404)
    return t


def registration_open(t: Tournament, now: datetime) -> bool:
    if t.status != Tournament.Status.REGISTRATION:
        return False
    if t.registration_opens_at and now < t.registration_opens_at:
        return False
    return now < (t.registration_closes_at or t.start_at)


def tournament_join(*, tournament_id: int, user: User, now: datetime | None = None) -> Entry:
    now = _now(now)
    with transaction.atomic():
        t = _lock(tournament_id)
        if not registration_open(t, now):
            raise ApiError("registration_closed", "Registration is not open.", status_code=409)
        entry = Entry.objects.filter(tournament=t, user=user).first()
        if entry and entry.status == Entry.Status.ACTIVE:
            raise ApiError("already_joined", "You are already registered.", status_code=409)
        active = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count()
        if t.max_players is not None and active >= t.max_players:
            raise ApiError("tournament_full", "The tournament is full.", status_code=409)
        _check_eligible(t, user)
        if entry:
            entry.status = Entry.Status.ACTIVE
            entry.withdrawn_at = None
            entry.joined_at = now
            entry.save(update_fields=["status", "withdrawn_at", "joined_at"])
        else:
            entry = Entry.objects.create(tournament=t, user=user)
    return entry


def _check_eligible(t: Tournament, user: User) -> None:
    if t.rating_above is None and t.rating_below is None and not t.min_rated_results:
        return
    rating, results = rating_or_start(user=user, variant=t.variant, category=category_of_row(t))
    if t.rating_above is not None and rating <= t.rating_above:
        raise ApiError("not_eligible", f"Open to ratings above {t.rating_above}.", status_code=403)
    if t.rating_below is not None and rating >= t.rating_below:
        raise ApiError("not_eligible", f"Open to ratings below {t.rating_below}.", status_code=403)
    if results < t.min_rated_results:
        raise ApiError(
            "not_eligible",
            f"Open to players with at least {t.min_rated_results} rated results.",
            status_code=403,
        )


def tournament_withdraw(*, tournament_id: int, user: User, now: datetime | None = None) -> Entry:
    """Leave the tournament. Once it runs, the player's games in progress are forfeited and
    they are not paired again."""
    now = _now(now)
    with transaction.atomic():
        t = _lock(tournament_id)
        entry = Entry.objects.filter(tournament=t, user=user, status=Entry.Status.ACTIVE).first()
        if entry is None:
            raise ApiError("not_joined", "You are not registered.", status_code=409)
        if t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise ApiError("tournament_over", "The tournament is over.", status_code=409)
        entry.status = Entry.Status.WITHDRAWN
        entry.withdrawn_at = now
        entry.save(update_fields=["status", "withdrawn_at"])
        if t.status == Tournament.Status.RUNNING:
            _forfeit_games_of(t, user, now)
    return entry


def _forfeit_games_of(t: Tournament, user: User, now: datetime) -> None:
    set_ids = MatchSet.objects.filter(
        match__tournament=t, match__status=Match.Status.IN_PROGRESS
    ).filter(Q(match__player1=user) | Q(match__player2=user))
    game_ids = list(
        Game.objects.filter(
            game_set__in=set_ids.values("game_set"), status=Game.Status.IN_PROGRESS
        ).values_list("pk", flat=True)
    )
    for game_id in game_ids:
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.IN_PROGRESS:
            continue
        seats = list(Seat.objects.filter(game=game))
        winners = [s.seat for s in seats if s.user_id != user.pk]
        game_services.game_finish(game=game, end_reason="forfeit", winner_seats=winners, now=now)


# --- start ------------------------------------------------------------------------------


def tournament_start(
    *, tournament_id: int, user: User | None = None, now: datetime | None = None
) -> Tournament:
    """Close registration, seed the players and pair the first round. With ``user`` this is the
    organiser's "start now"; without it (the scheduled task) it only starts once due."""
    now = _now(now)
    with transaction.atomic():
        t = _lock(tournament_id)
        if user is not None and not (user.is_staff or user.pk == t.organiser_id):
            raise ApiError("not_organiser", "Only the organiser can start it.", status_code=403)
        if t.status != Tournament.Status.REGISTRATION:
            if user is not None:
                raise ApiError("already_started", "The tournament has started.", status_code=409)
            return t
        if user is None and now < t.start_at:
            return t
        claimed = Tournament.objects.filter(pk=t.pk, status=Tournament.Status.REGISTRATION).update(
            status=Tournament.Status.RUNNING, started_at=now
        )
        if not claimed:  # pragma: no cover - the row lock makes this unreachable
            return t
        t.refresh_from_db()
        entries = _seed(t)
        if len(entries) < 2:
            t.status = Tournament.Status.CANCELLED
            t.finished_at = now
            t.save(update_fields=["status", "finished_at"])
            return t
        if t.format == Tournament.Format.SWISS:
            n = len(entries)
            t.rounds = min(t.rounds or default_rounds(n), max_rounds(n))
        elif t.format == Tournament.Format.ROUND_ROBIN:
            t.rounds = len(round_robin_schedule(len(entries), cycles=t.cycles))
        t.save(update_fields=["rounds"])
    tournament_advance(tournament_id=t.pk, now=now)
    t.refresh_from_db()
    return t


def _seed(t: Tournament) -> list[Entry]:
    """Pairing numbers: established players (20+ rated results) first, then by rating; ties in a
    random order drawn from the tournament's stored seed (reproducible)."""
    entries = list(
        Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE)
        .select_related("user")
        .order_by("id")
    )
    rng = random.Random(t.seed)
    category = category_of_row(t)
    keyed = []
    for e in entries:
        e.rating, e.rated_results = rating_or_start(
            user=e.user, variant=t.variant, category=category
        )
        keyed.append(((e.rated_results < ESTABLISHED_RESULTS, -e.rating, rng.random()), e))
    keyed.sort(key=lambda pair: pair[0])
    ordered = [e for _, e in keyed]
    for i, e in enumerate(ordered, start=1):
        e.seed = i
    Entry.objects.bulk_update(ordered, ["seed", "rating", "rated_results"])
    return ordered


# --- matches ----------------------------------------------------------------------------


def _create_match(
    *,
    t: Tournament,
    key: str,
    player1_id: int,
    player2_id: int | None,
    withdrawn: set[int],
    now: datetime,
    round_row: Round | None = None,
    board: int = 1,
    bracket: str = "",
    bracket_round: int = 0,
) -> Match:
    match = Match.objects.create(
        tournament=t,
        round=round_row,
        key=key,
        board=board,
        bracket=bracket,
        bracket_round=bracket_round,
        player1_id=player1_id,
        player2_id=player2_id,
    )
    if player2_id is None:
        _decide(match, Match.Result.BYE, now, forfeit=False)
    elif player1_id in withdrawn or player2_id in withdrawn:
        if player1_id in withdrawn and player2_id in withdrawn:
            result = Match.Result.DRAW if not t.is_elimination else Match.Result.PLAYER1
        else:
            result = Match.Result.PLAYER2 if player1_id in withdrawn else Match.Result.PLAYER1
        _decide(match, result, now, forfeit=True)
    else:
        _new_set(t, match, index=1, now=now)
    return match


def _new_set(t: Tournament, match: Match, *, index: int, now: datetime) -> MatchSet:
    # Another set after a tie swaps who starts.
    p1, p2 = (match.player1, match.player2) if index % 2 else (match.player2, match.player1)
    game_set = game_services.set_create(
        player1=p1,
        player2=p2,
        variant=t.variant,
        rated=t.rated,
        games_count=t.games_per_match,
        time_control=t.time_control,
        initial_minutes=t.initial_minutes,
        increment_seconds=t.increment_seconds,
        days_per_move=t.days_per_move,
        vacation_allowed=t.vacation_allowed,
        now=now,
    )
    return MatchSet.objects.create(match=match, game_set=game_set, index=index)


def _decide(match: Match, result: str, now: datetime, *, forfeit: bool) -> None:
    match.result = result
    match.status = Match.Status.FINISHED
    match.finished_at = now
    match.forfeit = forfeit
    match.winner_id = {
        Match.Result.PLAYER1: match.player1_id,
        Match.Result.PLAYER2: match.player2_id,
        Match.Result.BYE: match.player1_id,
    }.get(result)
    match.save(update_fields=["result", "status", "finished_at", "forfeit", "winner"])


def match_set_finished(*, game_set_id: int, now: datetime | None = None) -> int | None:
    """Record the result of a match whose set is over. Returns the tournament id (None when the
    set is not a tournament's). A drawn elimination match gets another set."""
    now = _now(now)
    with transaction.atomic():
        ms = MatchSet.objects.filter(game_set_id=game_set_id).first()
        if ms is None:
            return None
        match = Match.objects.select_for_update().select_related("tournament").get(pk=ms.match_id)
        if match.status != Match.Status.IN_PROGRESS:
            return match.tournament_id
        latest = MatchSet.objects.filter(match=match).order_by("-index").first()
        if latest.pk != ms.pk:
            return match.tournament_id
        game_set = GameSet.objects.get(pk=game_set_id)
        if game_set.status == GameSet.Status.IN_PROGRESS:
            return match.tournament_id
        t = match.tournament
        forfeit = Game.objects.filter(game_set=game_set, end_reason="forfeit").exists()
        if game_set.status == GameSet.Status.CANCELLED or game_set.result == GameSet.Result.DRAW:
            result = Match.Result.DRAW
        else:
            winner = game_set.winner_id
            result = Match.Result.PLAYER1 if winner == match.player1_id else Match.Result.PLAYER2
        if result == Match.Result.DRAW and t.is_elimination:
            _new_set(t, match, index=ms.index + 1, now=now)
            return t.pk
        _decide(match, result, now, forfeit=forfeit)
        return t.pk


# --- advancing --------------------------------------------------------------------------


def tournament_advance(*, tournament_id: int, now: datetime | None = None) -> str:
    """Move the tournament on if it can: pair the next round, create ready bracket matches, or
    finish. Safe to call any number of times, concurrently."""
    now = _now(now)
    with transaction.atomic():
        t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if t is None or t.status != Tournament.Status.RUNNING:
            return "idle"
        if t.is_elimination:
            return _advance_bracket(t, now)
        return _advance_rounds(t, now)


def _withdrawn_ids(t: Tournament) -> set[int]:
    return set(
        Entry.objects.filter(tournament=t, status=Entry.Status.WITHDRAWN).values_list(
            "user_id", flat=True
        )
    )


def _advance_rounds(t: Tournament, now: datetime) -> str:
    current = t.current_round
    if current:
        if Match.objects.filter(
            tournament=t, round__number=current, status=Match.Status.IN_PROGRESS
        ).exists():
            return "waiting"
        Round.objects.filter(tournament=t, number=current, status=Round.Status.IN_PROGRESS).update(
            status=Round.Status.FINISHED, finished_at=now
        )
    if current >= (t.rounds or 0):
        _finish(t, now)
        return "finished"
    number = current + 1
    if t.format == Tournament.Format.SWISS:
        pairing = _swiss_pairing(t, number)
        if pairing is None:
            _finish(t, now)
            return "finished"
    else:
        pairing = _round_robin_pairing(t, number)
    claimed = Tournament.objects.filter(
        pk=t.pk, status=Tournament.Status.RUNNING, current_round=current
    ).update(current_round=number)
    if not claimed:
        return "raced"
    try:
        with transaction.atomic():
            round_row = Round.objects.create(tournament=t, number=number)
    except IntegrityError:
        return "raced"
    t.current_round = number
    withdrawn = _withdrawn_ids(t)
    for board, (p1, p2) in enumerate(pairing, start=1):
        _create_match(
            t=t,
            key=f"R{number}-{board}",
            player1_id=p1,
            player2_id=p2,
            withdrawn=withdrawn,
            now=now,
            round_row=round_row,
            board=board,
        )
    return f"paired round {number}"


def swiss_history(t: Tournament, *, upto: int | None = None) -> list[RoundRecord]:
    """The rounds played so far, as the pairing engine's records (user ids as players)."""
    matches = Match.objects.filter(tournament=t, round__isnull=False)
    if upto is not None:
        matches = matches.filter(round__number__lte=upto)
    by_round: dict[int, list[Match]] = {}
    for m in matches.select_related("round").order_by("round__number", "board"):
        by_round.setdefault(m.round.number, []).append(m)
    records = []
    for number in sorted(by_round):
        pairs, byes, pab = [], [], None
        for m in by_round[number]:
            if m.player2_id is None:
                points = 2 if t.format == Tournament.Format.SWISS else 0
                byes.append((m.player1_id, points))
                pab = m.player1_id if t.format == Tournament.Format.SWISS else None
                continue
            pts = {Match.Result.PLAYER1: 2, Match.Result.DRAW: 1, Match.Result.PLAYER2: 0}.get(
                m.result, 0
            )
            pairs.append(PlayedPair(m.player1_id, m.player2_id, pts, played=not m.forfeit))
        records.append(RoundRecord(tuple(pairs), tuple(byes), pab))
    return records


def _swiss_pairing(t: Tournament, number: int) -> list[tuple[int, int | None]] | None:
    entries = list(
        Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).values_list(
            "user_id", "seed"
        )
    )
    if len(entries) < 2:
        return None
    players = players_from_history(entries, swiss_history(t))
    try:
        result = pair_round(players, round_number=number, total_rounds=t.rounds or number)
    except PairingError:
        log.warning("tournament %s: round %s cannot be paired; finishing", t.pk, number)
        return None
    pairing: list[tuple[int, int | None]] = list(result.pairs)
    if result.bye is not None:
        pairing.append((result.bye, None))
    return pairing


def _round_robin_pairing(t: Tournament, number: int) -> list[tuple[int, int | None]]:
    seeds = dict(
        Entry.objects.filter(tournament=t, seed__isnull=False).values_list("seed", "user_id")
    )
    schedule = round_robin_schedule(len(seeds), cycles=t.cycles)
    return [(seeds[w], seeds[b] if b is not None else None) for w, b in schedule[number - 1]]


def bracket_matches(t: Tournament):
    n = Entry.objects.filter(tournament=t, seed__isnull=False).count()
    if t.format == Tournament.Format.DOUBLE_ELIMINATION:
        return double_elimination(n)
    return single_elimination(n)


def bracket_state(t: Tournament):
    seeds = dict(
        Entry.objects.filter(tournament=t, seed__isnull=False).values_list("seed", "user_id")
    )
    winners = dict(
        Match.objects.filter(tournament=t, status=Match.Status.FINISHED)
        .exclude(winner__isnull=True)
        .values_list("key", "winner_id")
    )
    return resolve(bracket_matches(t), seeds, winners)


def _advance_bracket(t: Tournament, now: datetime) -> str:
    withdrawn = _withdrawn_ids(t)
    created = 0
    while True:
        state = bracket_state(t)
        existing = set(Match.objects.filter(tournament=t).values_list("key", flat=True))
        ready = [ms for ms in state.ready() if ms.match.key not in existing]
        if not ready:
            break
        for ms in ready:
            _create_match(
                t=t,
                key=ms.match.key,
                player1_id=ms.a,
                player2_id=ms.b,
                withdrawn=withdrawn,
                now=now,
                board=ms.match.index,
                bracket=ms.match.bracket,
                bracket_round=ms.match.round,
            )
            created += 1
    # current_round: the latest stage (see ``bracket_stages``) with a match in play or played.
    stages = bracket_stages(ms.match for ms in state.matches)
    latest = max((stages[key] for key in existing if key in stages), default=0)
    if latest > t.current_round:
        t.current_round = latest
        t.save(update_fields=["current_round"])
    if state.finished and state.champion not in (None, BYE):
        _finish(t, now, champion_id=state.champion)
        return "finished"
    return f"created {created}"


def _finish(t: Tournament, now: datetime, *, champion_id: int | None = None) -> None:
    from tournaments import selectors

    t.status = Tournament.Status.FINISHED
    t.finished_at = now
    rows = selectors.compute_standings(t)
    t.standings = rows
    if champion_id is None and rows:
        champion_id = rows[0]["user_id"]
    t.winner_id = champion_id
    t.save(update_fields=["status", "finished_at", "standings", "winner", "current_round"])
    if champion_id is not None:
        _award_crown(t, champion_id, now)


def _award_crown(t: Tournament, user_id: int, now: datetime) -> None:
    from ratings.services import crown_award

    crown_award(
        user=User.objects.get(pk=user_id),
        tournament_name=t.name,
        tournament_id=t.pk,
        variant=t.variant,
        won_at=now,
    )


# --- checks for other apps --------------------------------------------------------------


def cancel_forbidden(game: Game) -> str | None:
    """``games.services.CANCEL_FORBIDDEN_CHECKS`` entry: tournament games cannot be cancelled."""
    if game.game_set_id and MatchSet.objects.filter(game_set_id=game.game_set_id).exists():
        return "Tournament games cannot be cancelled."
    return None


def sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Backstop for lost or late tasks: start due tournaments, record finished sets, advance
    every running tournament."""
    now = _now(now)
    report = {"started": 0, "results": 0, "advanced": 0}
    due = Tournament.objects.filter(status=Tournament.Status.REGISTRATION, start_at__lte=now)
    for tid in list(due.values_list("pk", flat=True)):
        tournament_start(tournament_id=tid, now=now)
        report["started"] += 1
    stale: Sequence[int] = list(
        MatchSet.objects.filter(
            match__status=Match.Status.IN_PROGRESS,
            match__tournament__status=Tournament.Status.RUNNING,
        )
        .exclude(game_set__status=GameSet.Status.IN_PROGRESS)
        .values_list("game_set_id", flat=True)
    )
    for game_set_id in stale:
        match_set_finished(game_set_id=game_set_id, now=now)
        report["results"] += 1
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    for tid in list(running.values_list("pk", flat=True)):
        outcome = tournament_advance(tournament_id=tid, now=now)
        if outcome not in ("waiting", "idle", "created 0"):
            report["advanced"] += 1
    return report
