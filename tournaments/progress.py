"""How a running tournament moves on: matches and their sets, results, the next round or
bracket matches, and the finish. Every step is idempotent (see ``tournaments.services``)."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games.clocks.timecontrol import TimeControl
from games.engine import Termination
from games.play.create import set_create
from games.play.models import Game, GameSet
from ratings.services import crown_award
from tournaments.models import (
    Entry,
    Match,
    MatchSet,
    PlannedBye,
    Round,
    Tournament,
    bye_points2,
)
from tournaments.pairing import PairingError
from tournaments.pairing.berger import round_robin_schedule
from tournaments.pairing.dutch import (
    PairingTooHard,
    PlayedPair,
    RoundRecord,
    idle_tpns_of,
    pair_round,
    players_from_history,
)
from tournaments.pairing.elimination import BYE, bracket_stages
from tournaments.selectors import bracket_state, compute_standings
from tournaments.signals import (
    match_created,
    match_decided,
    pairing_blocked,
    tournament_finished,
)

log = logging.getLogger(__name__)


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
        decide_match(match, Match.Result.BYE, now, forfeit=False, announce=False)
    elif t.imported:
        pass  # played elsewhere: the organiser enters the result (``match_result_enter``)
    elif player1_id in withdrawn or player2_id in withdrawn:
        if player1_id in withdrawn and player2_id in withdrawn:  # a bracket's: one goes on
            result = Match.Result.PLAYER1
        else:
            result = Match.Result.PLAYER2 if player1_id in withdrawn else Match.Result.PLAYER1
        decide_match(match, result, now, forfeit=True, announce=False)
    else:
        _new_set(t, match, index=1, now=now)
    match_created.send(sender=Match, match=match)
    return match


def _new_set(t: Tournament, match: Match, *, index: int, now: datetime) -> MatchSet:
    # Another set after a tie swaps who starts.
    p1, p2 = (match.player1, match.player2) if index % 2 else (match.player2, match.player1)
    game_set = set_create(
        player1=p1,
        player2=p2,
        variant=t.variant,
        rated=t.rated,
        games_count=t.games_per_match,
        time_control=TimeControl.of(t),
        vacation_allowed=t.vacation_allowed,
        spectator_delay=t.spectator_delay,
        # A player who does not come within the start window loses the game; nobody coming
        # is a double forfeit (``match_set_finished``), never an aborted match.
        on_absence=Game.OnAbsence.FORFEIT,
        now=now,
    )
    return MatchSet.objects.create(match=match, game_set=game_set, index=index)


def decide_match(
    match: Match, result: str, now: datetime, *, forfeit: bool, announce: bool = True
) -> None:
    """Record a match's result (``match_decided`` is sent unless the match is being made:
    ``match_created`` then tells it all)."""
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
    if announce:
        match_decided.send(sender=Match, match=match)


def match_set_finished(*, game_set_id: int, now: datetime | None = None) -> int | None:
    """Record the result of a match whose set is over. Returns the tournament id (None when the
    set is not a tournament's). A drawn elimination match gets another set."""
    now = now or timezone.now()
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
        games = list(
            Game.objects.filter(game_set=game_set).only("status", "end_reason", "winner_seats")
        )
        forfeit = any(g.end_reason == Termination.FORFEIT for g in games)
        if game_set.status == GameSet.Status.CANCELLED:
            result = Match.Result.DRAW
        elif games and all(_both_absent(g) for g in games):
            # Neither player turned up: no tie-break set, which neither would play either.
            decide_match(match, Match.Result.DOUBLE_FORFEIT, now, forfeit=True)
            return t.pk
        elif game_set.result == GameSet.Result.DRAW:
            result = Match.Result.DRAW
        else:
            winner = game_set.winner_id
            result = Match.Result.PLAYER1 if winner == match.player1_id else Match.Result.PLAYER2
        if result == Match.Result.DRAW and t.is_elimination:
            if t.status == Tournament.Status.RUNNING:  # a cancelled one starts no more games
                _new_set(t, match, index=ms.index + 1, now=now)
            return t.pk
        decide_match(match, result, now, forfeit=forfeit)
        return t.pk


def _both_absent(game: Game) -> bool:
    """A game every seat forfeited by its absence: over by forfeit with no winner."""
    return (
        game.status == Game.Status.FINISHED
        and game.end_reason == Termination.FORFEIT
        and not game.winner_seats
    )


# --- advancing --------------------------------------------------------------------------


def tournament_advance(*, tournament_id: int, now: datetime | None = None) -> str:
    """Move the tournament on if it can: pair the next round, create ready bracket matches, or
    finish. Safe to call any number of times, concurrently."""
    now = now or timezone.now()
    with transaction.atomic():
        t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if t is None:
            return "idle"
        if t.pairing_requested_at is not None:  # the organiser's request is being served
            t.pairing_requested_at = None
            t.save(update_fields=["pairing_requested_at"])
        if t.status != Tournament.Status.RUNNING:
            return "idle"
        if t.is_elimination:
            return _advance_bracket(t, now)
        return _advance_rounds(t, now)


def withdrawn_ids(t: Tournament) -> set[int]:
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
    relaxed = False
    planned = dict(
        PlannedBye.objects.filter(tournament=t, round_number=number).values_list(
            "user_id", "result"
        )
    )
    if t.format == Tournament.Format.SWISS:
        try:
            paired = _swiss_pairing(t, number, left_out=set(planned))
        except PairingTooHard:
            log.error("tournament %s: round %s ran past the pairing guard", t.pk, number)
            return _await_decision(t, number, problem=PAIRING_TOO_HARD)
        if paired is None:
            _finish(t, now)
            return "finished"
        pairing, relaxed = paired
        if relaxed and t.relax_round != number:
            return _await_decision(t, number, problem=COLOUR_CRITERIA_UNMET)
    else:
        pairing = _round_robin_pairing(t, number)
    claimed = Tournament.objects.filter(
        pk=t.pk, status=Tournament.Status.RUNNING, current_round=current
    ).update(current_round=number)
    if not claimed:
        return "raced"
    try:
        with transaction.atomic():
            round_row = Round.objects.create(tournament=t, number=number, relaxed=relaxed)
    except IntegrityError:
        return "raced"
    t.current_round = number
    if t.pairing_decision_round is not None:
        t.pairing_decision_round, t.pairing_problem = None, ""
        t.save(update_fields=["pairing_decision_round", "pairing_problem"])
    withdrawn = withdrawn_ids(t)
    # Two players who have both withdrawn (a round robin's fixed table) are two absences, no
    # match: neither scores, neither has played it.
    pairing = [(p1, p2) for p1, p2 in pairing if not (p1 in withdrawn and p2 in withdrawn)]
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
    for board, (user_id, result) in enumerate(sorted(planned.items()), start=len(pairing) + 1):
        unplayed_round_create(round_row, board=board, user_id=user_id, result=result, now=now)
    return f"paired round {number}"


def unplayed_round_create(
    round_row: Round, *, board: int, user_id: int, result: str, now: datetime
) -> Match:
    """A round the player is not paired in (a late entry's earlier rounds, a planned bye): a
    finished match with no opponent and the bye ``result``."""
    return Match.objects.create(
        tournament_id=round_row.tournament_id,
        round=round_row,
        key=f"R{round_row.number}-{board}",
        board=board,
        player1_id=user_id,
        status=Match.Status.FINISHED,
        result=result,
        finished_at=now,
    )


#: Why a Swiss round waits for the organiser (``Tournament.pairing_problem``).
COLOUR_CRITERIA_UNMET = "colour_criteria_unmet"
PAIRING_TOO_HARD = "pairing_too_hard"


def swiss_history(t: Tournament, *, upto: int | None = None) -> list[RoundRecord]:
    """The rounds played so far, as the pairing engine's records (user ids as players)."""
    matches = Match.objects.filter(tournament=t, round__isnull=False)
    if upto is not None:
        matches = matches.filter(round__number__lte=upto)
    swiss = t.format == Tournament.Format.SWISS
    by_round: dict[int, list[Match]] = {}
    for m in matches.select_related("round").order_by("round__number", "board"):
        by_round.setdefault(m.round.number, []).append(m)
    records = []
    for number in sorted(by_round):
        pairs, byes, pab = [], [], None
        for m in by_round[number]:
            if m.player2_id is None:
                byes.append((m.player1_id, bye_points2(m.result, swiss=swiss)))
                if swiss and m.result == Match.Result.BYE:
                    pab = m.player1_id
                continue
            if m.result == Match.Result.DOUBLE_FORFEIT:
                # Two absences, as a report's double forfeit reads: no points, no game (the
                # two may still meet).
                byes += [(m.player1_id, 0), (m.player2_id, 0)]
                continue
            pts = {Match.Result.PLAYER1: 2, Match.Result.DRAW: 1, Match.Result.PLAYER2: 0}.get(
                m.result, 0
            )
            pairs.append(PlayedPair(m.player1_id, m.player2_id, pts, played=not m.forfeit))
        records.append(RoundRecord(tuple(pairs), tuple(byes), pab))
    return records


def _await_decision(t: Tournament, number: int, *, problem: str) -> str:
    """Leave round ``number`` unpaired for the organiser (``services.tournament_pairing_decide``):
    no pairing meets the colour criteria (only the organiser may relax them), or the exact
    search ran past its guard."""
    if (t.pairing_decision_round, t.pairing_problem) != (number, problem):
        t.pairing_decision_round, t.pairing_problem = number, problem
        t.save(update_fields=["pairing_decision_round", "pairing_problem"])
        pairing_blocked.send(sender=Tournament, tournament=t)
    return "awaiting the organiser"


def _swiss_pairing(
    t: Tournament, number: int, *, left_out: set[int]
) -> tuple[list[tuple[int, int | None]], bool] | None:
    """Round ``number``'s pairs (a bye as ``(player, None)``) and whether the colour criteria
    had to be relaxed to make them; None when it cannot be paired at all. The players
    ``left_out`` (planned byes) are not paired."""
    everyone = list(Entry.objects.filter(tournament=t).values_list("user_id", "seed", "status"))
    entries = [
        (user_id, seed)
        for user_id, seed, status in everyone
        if status == Entry.Status.ACTIVE and user_id not in left_out
    ]
    if len(entries) < 2:
        return None
    history = swiss_history(t)
    players = players_from_history(entries, history)
    pairing_now = {user_id for user_id, _seed in entries}
    idle = idle_tpns_of([(user_id, seed) for user_id, seed, _ in everyone], pairing_now, history)
    try:
        result = pair_round(
            players,
            round_number=number,
            total_rounds=t.rounds or number,
            initial_colour=t.initial_colour or "white",
            idle_tpns=idle,
        )
    except PairingTooHard:
        raise
    except PairingError:
        log.warning("tournament %s: round %s cannot be paired; finishing", t.pk, number)
        return None
    pairing: list[tuple[int, int | None]] = list(result.pairs)
    if result.bye is not None:
        pairing.append((result.bye, None))
    return pairing, result.relaxed


def _round_robin_pairing(t: Tournament, number: int) -> list[tuple[int, int | None]]:
    seeds = dict(
        Entry.objects.filter(tournament=t, seed__isnull=False).values_list("seed", "user_id")
    )
    schedule = round_robin_schedule(len(seeds), cycles=t.cycles)
    return [(seeds[w], seeds[b] if b is not None else None) for w, b in schedule[number - 1]]


def _advance_bracket(t: Tournament, now: datetime) -> str:
    withdrawn = withdrawn_ids(t)
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
    if state.finished and state.champion is not None:
        # BYE: nobody turned up for the final (a double forfeit): no champion.
        _finish(t, now, champion_id=None if state.champion == BYE else state.champion)
        return "finished"
    return f"created {created}"


def _finish(t: Tournament, now: datetime, *, champion_id: int | None = None) -> None:
    """Finish ``t``: a bracket names its ``champion_id`` (None: nobody won its final), rounds
    crown the top of their standings."""
    t.status = Tournament.Status.FINISHED
    t.finished_at = now
    rows = compute_standings(t)
    t.standings = rows
    if not t.is_elimination and rows:
        champion_id = rows[0]["user_id"]
    t.winner_id = champion_id
    t.save(update_fields=["status", "finished_at", "standings", "winner", "current_round"])
    if champion_id is not None and not t.imported:  # crowns are for events played here
        _award_crown(t, champion_id, now)
    tournament_finished.send(sender=Tournament, tournament=t)


def _award_crown(t: Tournament, user_id: int, now: datetime) -> None:
    crown_award(
        user=User.objects.get(pk=user_id),
        tournament_name=t.name,
        tournament_id=t.pk,
        variant=t.variant,
        won_at=now,
    )
