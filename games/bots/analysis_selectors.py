"""Reads of game analyses: a game's analysis as the API shows it (with each player's counts
of judgements), and how many analyses a user has pending or running."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from accounts.models import User
from games.bots.models import Analysis
from games.engine import GoPhase
from games.play.models import Game, Seat
from games.play.positions import team_of
from games.play.selectors import game_get, seats_with_users
from pente_site.errors import Conflict, DomainError, Forbidden, Invalid, NotFound

#: Analyses that still wait for, or hold, a worker.
ACTIVE_ANALYSIS_STATUSES = (Analysis.Status.PENDING, Analysis.Status.RUNNING)
#: The judgements, as each player's summary counts them.
JUDGEMENT_COUNTS = (
    ("inaccuracy", "inaccuracies"),
    ("mistake", "mistakes"),
    ("blunder", "blunders"),
)


def engine_refusal(game: Game) -> DomainError | None:
    """Why the computer can neither analyse ``game`` nor give hints in it, or None: it has an
    engine for every game of two sides (partners included; Go is always two)."""
    if game.seats > 2 and not game.partners:
        return Invalid(
            "analysis_unavailable",
            "The computer analyses and gives hints in games of two sides only (partners "
            f"included), not {game.seats}-player games.",
        )
    return None


#: The phases of a game of Go in which hints are given: while stones are played. None while
#: the dead stones are marked: a marking and its answer are the players' own count, not a move.
HINT_PHASES = (GoPhase.PLAYING.value,)


def hint_refusal(
    *, game: Game, seats: Sequence[Seat], mine: Sequence[int], phase: str | None = None
) -> DomainError | None:
    """Why the player on the seats ``mine`` of ``game`` (its ``seats``) may have no hints, or
    None: hints are for unrated games of two sides (``engine_refusal``) whose opponents are all
    computer opponents, and, in Go, in the ``HINT_PHASES`` only (``phase``: the position's;
    None asks about the game alone, as the game page does, which then follows the phase with
    ``HINT_PHASES``)."""
    if game.rated:
        return Forbidden("rated_game", "Hints are for unrated games against the computer.")
    unavailable = engine_refusal(game)
    if unavailable is not None:
        return unavailable
    team = team_of(game, mine[0])
    opponents = [s for s in seats if s.seat not in team]
    if not opponents or any(s.user is None or not s.user.bot_level for s in opponents):
        return Forbidden(
            "no_computer",
            "Hints are for games against the computer: every opponent must be a computer.",
        )
    if phase is not None and phase not in HINT_PHASES:
        return Conflict(
            "marking_in_progress",
            "No hints while the dead stones are marked: the marking and its answer are yours.",
        )
    return None


def analysis_of(*, game: Game) -> Analysis | None:
    """The analysis of ``game``, if anyone asked for it (its ``game`` is this instance)."""
    analysis = Analysis.objects.filter(game=game).first()
    if analysis is not None:
        analysis.game = game
    return analysis


def analysis_status(*, game: Game) -> str | None:
    """The status of the analysis of ``game`` (None: nobody asked for it), without reading the
    analysis itself."""
    return Analysis.objects.filter(game=game).values_list("status", flat=True).first()


def analysis_get(*, game_id: int | str) -> Analysis:
    """The analysis of game ``game_id``: 404 ``not_found`` (no such game) or ``no_analysis``."""
    game = game_get(game_id=game_id)
    analysis = analysis_of(game=game)
    if analysis is None:
        raise NotFound(
            "no_analysis",
            f"Game {game.pk} has not been analysed: POST to this address to ask for it.",
        )
    return analysis


def analyses_active_count(*, user: User) -> int:
    """How many analyses ``user`` asked for are pending or running."""
    return Analysis.objects.filter(requested_by=user, status__in=ACTIVE_ANALYSIS_STATUSES).count()


def analysis_summary(*, analysis: Analysis) -> list[dict[str, Any]]:
    """Per seat: its player's name and how many of its plies analysed so far were judged an
    inaccuracy, a mistake, a blunder."""
    counts = {
        seat.seat: {
            "seat": seat.seat,
            "name": seat.name,
            **dict.fromkeys((plural for _, plural in JUDGEMENT_COUNTS), 0),
        }
        for seat in seats_with_users(analysis.game)
    }
    plural = dict(JUDGEMENT_COUNTS)
    for ply in analysis.plies:
        word = ply.get("judgement")
        if word in plural and ply["seat"] in counts:
            counts[ply["seat"]][plural[word]] += 1
    return [counts[seat] for seat in sorted(counts)]


def _analysis_head(analysis: Analysis) -> dict[str, Any]:
    """What both the API and the live stream say of an analysis: its status, its progress,
    each player's counts of judgements and its error."""
    error = (
        {"code": analysis.error_code, "detail": analysis.error_detail}
        if analysis.error_code
        else None
    )
    return {
        "id": analysis.pk,
        "game": analysis.game_id,
        "status": analysis.status,
        "progress": {"processed": analysis.plies_processed, "total": analysis.plies_total},
        "summary": analysis_summary(analysis=analysis),
        "error": error,
    }


def analysis_view(*, analysis: Analysis) -> dict[str, Any]:
    """The analysis as the API shows it (``games.bots.serializers.AnalysisSerializer``)."""
    return {
        **_analysis_head(analysis),
        "level": analysis.level,
        "seconds_per_move": analysis.seconds_per_move,
        "plies": analysis.plies,
        "created_at": analysis.created_at,
        "started_at": analysis.started_at,
        "finished_at": analysis.finished_at,
    }


def analysis_event(*, analysis: Analysis, new_plies: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The game stream's ``analysis`` event (``live.publishers``): ``analysis_view``'s ``id``,
    ``game``, ``status``, ``progress``, ``summary`` and ``error``, and instead of every ply the
    plies this change analysed (``new_plies``: those after the first ``progress.processed``
    less their number), so that a page holding the plies before them appends these."""
    return {**_analysis_head(analysis), "new_plies": list(new_plies)}
