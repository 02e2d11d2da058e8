"""Helpers for tournament tests: make tournaments, play their matches with chosen results."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.test import TestCase
from django.utils import timezone

from games.clocks.timecontrol import FIELDS as TIME_CONTROL_FIELDS
from games.engine import Outcome, Termination
from games.play.finish import game_finish
from games.play.models import Game, Seat
from tests.clients import client_for
from tests.factories import UserFactory
from tournaments import selectors, services
from tournaments.models import Entry, Match, Tournament
from tournaments.trf_import import tournament_import_trf


@contextmanager
def jobs_run() -> Iterator[None]:
    """The jobs the block enqueues once its transaction commits (the organiser's start, next
    round, pairing decision) run when it ends, as a worker runs them after the request: the
    tests' transaction never commits, and tasks run inline in tests."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        yield


def make_tournament(*, players: int, start: bool = True, **options) -> Tournament:
    organiser = UserFactory()
    options.setdefault("format", "swiss")
    options.setdefault("rated", False)
    options.setdefault("games_per_match", 1)
    options["time_control"] = services.tournament_time_control(
        **{name: options.pop(name) for name in TIME_CONTROL_FIELDS if name in options}
    )
    t = services.tournament_create(
        organiser=organiser,
        name=options.pop("name", "Test Open"),
        start_at=options.pop("start_at", timezone.now() + timedelta(hours=1)),
        **options,
    )
    for _ in range(players):
        services.tournament_join(tournament_id=t.pk, user=UserFactory())
    if start:
        services.tournament_start(tournament_id=t.pk, user=organiser)
    t.refresh_from_db()
    return t


def finish_match_games(match: Match, outcome: str) -> None:
    """Finish every game in progress of the match's latest set: ``outcome`` "player1",
    "player2" (the match's players) or "draw" (split a two-game set, or a drawn single game)."""
    ms = match.match_sets.order_by("-index").first()
    games = list(
        Game.objects.filter(game_set=ms.game_set, status="in_progress").order_by("set_index")
    )
    for i, game in enumerate(games):
        seats = {s.user_id: s.seat for s in Seat.objects.filter(game=game)}
        if outcome == "draw" and len(games) == 1 and ms.game_set.games_count == 1:
            game_finish(game=game, outcome=Outcome(Termination.DRAW, ()))
            continue
        if outcome == "draw":
            winner = match.player1_id if i == 0 else match.player2_id
        else:
            winner = match.player1_id if outcome == "player1" else match.player2_id
        game_finish(game=game, outcome=Outcome(Termination.RESIGN, (seats[winner],)))


def play_round(t: Tournament) -> None:
    """Finish the current round's games with white winning; the sweeper pairs the next."""
    for m in Match.objects.filter(tournament=t, status="in_progress"):
        finish_match_games(m, "player1")
    services.sweep()
    t.refresh_from_db()


def play_all(
    t: Tournament, *, rng: random.Random | None = None, draws: bool = True, pick=None
) -> int:
    """Play the tournament to its end with random results, calling the sweeper (what beat runs)
    between batches. Returns the number of batches."""
    rng = rng or random.Random(t.pk)
    batches = 0
    while True:
        t.refresh_from_db()
        if t.status != Tournament.Status.RUNNING:
            # Turn-based clocks (3 days a move) never run out while a test plays.
            timed_out = Game.objects.filter(
                game_set__tournament_match_set__match__tournament=t, end_reason="timeout"
            )
            assert not timed_out.exists(), "a tournament game timed out"
            return batches
        open_matches = list(Match.objects.filter(tournament=t, status="in_progress"))
        assert open_matches or batches < 500, "stuck"
        for m in open_matches:
            if pick:
                outcome = pick(m)
            else:
                outcome = rng.choice(
                    ["player1", "player2", "draw"] if draws else ["player1", "player2"]
                )
            finish_match_games(m, outcome)
        services.sweep()
        batches += 1
        assert batches < 500, "the tournament does not end"


def play_all_rounds(t: Tournament, *, upto: int) -> None:
    """Play rounds 1 to ``upto`` with random results (the next one is then paired)."""
    rng = random.Random(t.pk)
    while True:
        t.refresh_from_db()
        if t.current_round > upto or t.status != "running":
            return
        for m in Match.objects.filter(tournament=t, status="in_progress"):
            finish_match_games(m, rng.choice(["player1", "player2"]))
        services.sweep()


def imported_after_round_1(*, players: int, rounds: int):
    """An event played here for a round, imported from its TRF: the import, its organiser's
    API client and its API address."""
    original = make_tournament(players=players, rounds=rounds)
    play_all_rounds(original, upto=1)
    imported = tournament_import_trf(
        organiser=UserFactory(), text=selectors.trf_text(original, after_round=1)
    )
    return imported, client_for(imported.organiser), f"/api/tournaments/{imported.pk}"


def absent_from_match(match: Match, *absent: int) -> None:
    """Finish every game in progress of the match's latest set as the start window does when
    the players ``absent`` (user ids: one, or both) place no stone: each absent seat forfeits;
    when both are absent nobody wins (a double forfeit)."""
    ms = match.match_sets.order_by("-index").first()
    for game in Game.objects.filter(game_set=ms.game_set, status="in_progress"):
        seats = Seat.objects.filter(game=game)
        present = tuple(s.seat for s in seats if s.user_id not in absent)
        game_finish(game=game, outcome=Outcome(Termination.FORFEIT, present))


def nobody_comes(match: Match) -> None:
    """Neither player of the match turns up for any game of its latest set."""
    absent_from_match(match, match.player1_id, match.player2_id)


def create_body(**extra):
    """The body of a tournament created through the API (a Swiss of Pente tomorrow), with
    ``extra``."""
    return {
        "name": "Spring Swiss",
        "format": "swiss",
        "variant": "Pente",
        "rated": False,
        "time_control": "turn",
        "days_per_move": 3,
        "start_at": (timezone.now() + timedelta(days=1)).isoformat(),
        **extra,
    }


def pairing_by_rank(t, number: int) -> list[list[int]]:
    """Round ``number``'s games as ``[white, black]`` by starting rank and the PAB as
    ``[player, 0]``, sorted (absences and other byes left out)."""
    rank = dict(Entry.objects.filter(tournament=t).values_list("user_id", "seed"))
    rows = Match.objects.filter(tournament=t, round__number=number).values_list(
        "player1_id", "player2_id", "result"
    )
    return sorted(
        [rank[white], rank[black] if black else 0]
        for white, black, result in rows
        if black is not None or result == Match.Result.BYE
    )
