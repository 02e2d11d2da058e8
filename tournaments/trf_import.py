"""An event run elsewhere, brought in from its FIDE Tournament Report File (TRF).

``tournament_import_trf`` stores a checked report as an *imported*, unrated Swiss: its players
(placeholder accounts that cannot sign in, or accounts the importer names), its rounds, results,
forfeits and byes, and the blocks already filled for rounds to come (``PlannedBye``). A finished
event is stored finished; otherwise the organiser continues it here (``tournament_next_round``,
``match_result_enter``) and can export it again.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, time

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.engine import UnknownGame, get_variant
from pente_site.errors import Forbidden, Invalid
from tournaments.models import MAX_ROUNDS, Entry, Match, PlannedBye, Round, Tournament
from tournaments.pairing import trf
from tournaments.progress import tournament_advance
from tournaments.services import DEFAULT_TIME_CONTROL

#: The most players one import takes (a request stays well under a second).
MAX_IMPORT_PLAYERS = 1000

#: The match result of a reported bye, by its kind (``trf.UNPLAYED``).
RESULT_OF_KIND = {
    "pab": Match.Result.BYE,
    "full": Match.Result.FULL_POINT_BYE,
    "half": Match.Result.HALF_POINT_BYE,
    "zero": Match.Result.ZERO_POINT_BYE,
}
_PAIR_RESULTS = {2: Match.Result.PLAYER1, 1: Match.Result.DRAW, 0: Match.Result.PLAYER2}


def tournament_import_trf(
    *,
    organiser: User,
    text: str,
    variant: str = "Pente",
    accounts: dict[int, str] | None = None,
    now: datetime | None = None,
) -> Tournament:
    """An imported Swiss from the TRF ``text``, organised by ``organiser``. ``accounts`` links
    starting ranks to usernames of this server (the others get placeholder accounts): the
    organiser's own account, or any for a member of the staff (nobody may put another player's
    account in an event they did not play here). Refusals: 400 ``bad_trf`` (where and why),
    ``too_many_players``, ``unknown_game``, ``unknown_player``; 403 ``link_forbidden``."""
    now = now or timezone.now()
    try:
        doc = trf.load(text)
        event = trf.reported_rounds(doc)
    except trf.TrfError as exc:
        raise Invalid("bad_trf", str(exc)) from None
    try:
        game = get_variant(variant)
    except UnknownGame:
        raise Invalid("unknown_game", f"There is no game called {variant!r}.") from None
    if len(doc.players) < 2:
        raise Invalid("bad_trf", "A report needs at least 2 players (001 lines).")
    if len(doc.players) > MAX_IMPORT_PLAYERS:
        raise Invalid(
            "too_many_players",
            f"An import takes at most {MAX_IMPORT_PLAYERS} players; "
            f"this report has {len(doc.players)}.",
        )
    played = len(event.rounds)
    total = doc.rounds or played
    if total < played or not 1 <= total <= MAX_ROUNDS:
        raise Invalid(
            "bad_trf",
            f"The report holds {played} round(s) of {doc.rounds or 'an unstated number'} "
            f"(line 142 or XXR): the rounds are 1 to {MAX_ROUNDS}, and at least those played.",
        )
    linked = _linked_accounts(doc, accounts or {}, organiser)
    started = datetime.combine(doc.start, time(), tzinfo=UTC) if doc.start else now
    with transaction.atomic():
        t = Tournament.objects.create(
            name=(doc.name or "Imported tournament")[:200],
            organiser=organiser,
            variant=game.name,
            rated=False,
            format=Tournament.Format.SWISS,
            **DEFAULT_TIME_CONTROL.fields(),
            games_per_match=1,
            start_at=started,
            started_at=started,
            status=Tournament.Status.RUNNING,
            current_round=played,
            rounds=total,
            initial_colour="black" if trf.initial_colour_of(doc) == "b" else "white",
            imported=True,
            seed=random.SystemRandom().randrange(1, 2**62),
        )
        user_of = _entrants(t, doc, linked)
        _store_rounds(t, event, user_of, now)
    if played == total:
        tournament_advance(tournament_id=t.pk, now=now)  # a finished event: its standings
        t.refresh_from_db()
    return t


def _linked_accounts(
    doc: trf.TrfTournament, accounts: dict[int, str], organiser: User
) -> dict[int, User]:
    ranks = {p.start_rank for p in doc.players}
    linked: dict[int, User] = {}
    for rank, username in accounts.items():
        if rank not in ranks:
            raise Invalid("bad_trf", f"The report has no player with starting rank {rank}.")
        user = User.objects.filter(is_active=True, username__iexact=username).first()
        if user is None:
            raise Invalid("unknown_player", f"There is no player called {username!r}.")
        if user.pk != organiser.pk and not organiser.is_staff:
            raise Forbidden(
                "link_forbidden",
                f"Only your own account may be linked to a player of the report, not "
                f"{user.username!r} (the other players get accounts of their own).",
            )
        linked[rank] = user
    if len({u.pk for u in linked.values()}) != len(linked):
        raise Invalid("bad_trf", "One account is linked to two starting ranks.")
    return linked


def _entrants(t: Tournament, doc: trf.TrfTournament, linked: dict[int, User]) -> dict[int, int]:
    """The entries, with a placeholder account for each player not linked to one: the user id
    of each starting rank."""
    placeholders = {}
    for p in doc.players:
        if p.start_rank not in linked:
            user = User(username=f"trf-{t.pk}-{p.start_rank}", is_active=False)
            user.set_unusable_password()
            placeholders[p.start_rank] = user
    User.objects.bulk_create(placeholders.values())
    linked.update(placeholders)
    Entry.objects.bulk_create(
        Entry(
            tournament=t,
            user=linked[p.start_rank],
            name=p.name[:100],
            seed=p.start_rank,
            rating=p.rating or None,
        )
        for p in doc.players
    )
    return {rank: user.pk for rank, user in linked.items()}


def _store_rounds(
    t: Tournament, event: trf.ReportedEvent, user_of: dict[int, int], now: datetime
) -> None:
    rounds = Round.objects.bulk_create(
        Round(tournament=t, number=number, status=Round.Status.FINISHED, finished_at=now)
        for number in range(1, len(event.rounds) + 1)
    )
    matches = []
    for round_row, reported in zip(rounds, event.rounds, strict=True):
        pairs = sorted(reported.pairs, key=lambda p: min(p.white, p.black))
        for board, pair in enumerate(pairs, start=1):
            result = _PAIR_RESULTS[pair.white_points2]
            player1, player2 = user_of[pair.white], user_of[pair.black]
            winner = {Match.Result.PLAYER1: player1, Match.Result.PLAYER2: player2}.get(result)
            matches.append(
                _finished(
                    t,
                    round_row,
                    board,
                    player1,
                    player2,
                    result,
                    now,
                    winner=winner,
                    forfeit=pair.forfeit,
                )
            )
        # An absence (a zero-point bye) is stored as no match at all, as a withdrawal here is.
        byes = sorted((rank, kind) for rank, kind in reported.byes if kind != "zero")
        for board, (rank, kind) in enumerate(byes, start=len(pairs) + 1):
            result = RESULT_OF_KIND[kind]
            winner = user_of[rank] if result == Match.Result.BYE else None
            matches.append(
                _finished(t, round_row, board, user_of[rank], None, result, now, winner=winner)
            )
    Match.objects.bulk_create(matches, batch_size=1000)
    PlannedBye.objects.bulk_create(
        PlannedBye(
            tournament=t, user_id=user_of[rank], round_number=number, result=RESULT_OF_KIND[kind]
        )
        for number, rank, kind in event.planned
    )


def _finished(
    t: Tournament,
    round_row: Round,
    board: int,
    player1: int,
    player2: int | None,
    result: str,
    now: datetime,
    *,
    winner: int | None,
    forfeit: bool = False,
) -> Match:
    return Match(
        tournament=t,
        round=round_row,
        key=f"R{round_row.number}-{board}",
        board=board,
        player1_id=player1,
        player2_id=player2,
        status=Match.Status.FINISHED,
        result=result,
        winner_id=winner,
        forfeit=forfeit,
        finished_at=now,
    )
