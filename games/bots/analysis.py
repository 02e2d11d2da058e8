"""The computer's analysis of a finished game (a job in batches) and hints in unrated games
against the computer.

How a move is judged, the job's tasks and sweeper, and the refusals: docs/computer-opponents.md
("Computer analysis and hints", "How the analysis judges a move"). ``searcher_for`` is the one
place that chooses the engine's search for a game.
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import DateTimeField, F, Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from games.bots import analysis_selectors as selectors
from games.bots.go_search import go_action
from games.bots.models import Analysis
from games.bots.search import WIN, choose_move
from games.bots.signals import analysis_changed
from games.engine import EngineError, Position, get_variant, point_name
from games.engine.go import MARK, PASS
from games.play.access import require_in_progress, require_participant
from games.play.models import Game, Move
from games.play.positions import (
    MOVE_FIELDS,
    MoveRow,
    board_size,
    move_action,
    move_row,
    played_of,
    position_of,
    team_of,
)
from games.play.selectors import game_get, seats_with_users
from pente_site.errors import Conflict, Invalid
from pente_site.jobs import enqueue

log = logging.getLogger(__name__)

#: The Celery tasks (``games.bots.tasks``): one batch of an analysis (queue ``bots``), the sweeper.
ANALYSIS_TASK = "games.bots.analysis_run"
ANALYSIS_SWEEP_TASK = "games.bots.analyses_sweep"

#: Evaluations are clamped to this many "centipawns" (the engine's units) either way.
CP_CAP = 1000
#: A score at least this large is a forced win found by the search (a VCF is ``WIN // 2``, a
#: won line ``WIN`` less its distance).
DECIDED = WIN // 2
#: The slope from the engine's units to winning chances: a third of lichess's (module doc).
WIN_CHANCE_SLOPE = 0.00368208 / 3
#: (lost winning chances, judgement), the largest first (lichess's thresholds).
JUDGEMENTS = ((0.3, "blunder"), (0.2, "mistake"), (0.1, "inaccuracy"))
#: A hint never thinks longer than this, whatever ``HINT_SECONDS`` says (a request's budget).
HINT_MAX_SECONDS = 0.6
#: How long a hint stays cached for its position.
HINT_CACHE_SECONDS = 3600

PENDING = Analysis.Status.PENDING
RUNNING = Analysis.Status.RUNNING


# --- values ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A position's value for one side: ``cp`` clamped to +-``CP_CAP``; ``mate`` "win" or
    "loss" when a forced win was found (or the game is won)."""

    cp: int
    mate: str | None = None

    @classmethod
    def of(cls, value: int) -> Evaluation:
        """From an engine score (``WIN`` scale) for that side."""
        if value >= DECIDED:
            return cls(CP_CAP, "win")
        if value <= -DECIDED:
            return cls(-CP_CAP, "loss")
        return cls(max(-CP_CAP, min(CP_CAP, int(value))), None)

    @property
    def chances(self) -> float:
        """Winning chances in -1..1 (lichess's curve with ``WIN_CHANCE_SLOPE``). A decided
        position counts as its clamped ``cp``: a forced win the search sees at one position and
        not at the next is no blunder while the advantage stays as large."""
        return 2 / (1 + math.exp(-WIN_CHANCE_SLOPE * self.cp)) - 1

    def as_dict(self) -> dict[str, Any]:
        return {"cp": self.cp, "mate": self.mate}


def judgement(*, before: Evaluation, after: Evaluation, sign: int) -> str | None:
    """The judgement of a ply that took the first player's evaluation from ``before`` (the
    engine's best) to ``after``; ``sign`` is +1 when the first player's side made it, -1
    otherwise."""
    lost = sign * (before.chances - after.chances)
    for threshold, word in JUDGEMENTS:
        if lost >= threshold - 1e-9:
            return word
    return None


@dataclass(frozen=True, slots=True)
class Search:
    """What a searcher found for the side to move: its ``value`` (``WIN`` scale, for that
    side), the best ``actions`` (one or two stones, or a decision word), and whether the
    value is a placeholder for a forced reply (to be valued by the position after it)."""

    value: int
    actions: tuple[int | str, ...]
    forced: bool = False


class Searcher(Protocol):
    def __call__(
        self, position: Position, *, level: int, budget_s: float, rng: random.Random
    ) -> Search: ...


def pente_search(position: Position, *, level: int, budget_s: float, rng: random.Random) -> Search:
    """The Pente family: ``choose_move``. Its only safe stone (or a stone chosen on the first
    iteration, out of time) comes valued 0: marked ``forced``."""
    choice = choose_move(position, level=level, budget_s=budget_s, rng=rng)  # type: ignore[arg-type]
    if choice.decision is not None:
        return Search(choice.score, (choice.decision,))
    forced = choice.score == 0 and choice.depth <= 1
    return Search(choice.score, tuple(choice.points), forced)


def _winrate_value(winrate: float) -> int:
    """A Go winrate as a value on the engine's scale: the ``cp`` whose winning chances
    (``Evaluation.chances``) are ``2 * winrate - 1``, clamped to +-``CP_CAP`` (never decided:
    playouts prove nothing)."""
    w = min(0.999, max(0.001, float(winrate)))
    cp = round(math.log(w / (1 - w)) / WIN_CHANCE_SLOPE)
    return max(-CP_CAP, min(CP_CAP, cp))


def go_tree_search(
    position: Position, *, level: int, budget_s: float, rng: random.Random
) -> Search:
    """Go: ``go_search.go_action`` (Monte Carlo tree search), valued by its winrate. Its action
    in the form the engine's ``actions`` list them: a point, ``PASS``, ``MARK C3 D4``, or
    ``accept`` / ``reject``."""
    action = go_action(position, level=level, budget_s=budget_s, rng=rng)  # type: ignore[arg-type]
    value = _winrate_value(action.winrate)
    if action.kind == "play" and action.point is not None:
        return Search(value, (action.point,))
    if action.kind == "pass":
        return Search(value, (PASS,))
    if action.kind == "mark":
        names = " ".join(position.point_name(p) for p in sorted(action.dead))  # type: ignore[union-attr]
        return Search(value, (f"{MARK} {names}".strip(),))
    return Search(value, (action.kind,))


def searcher_for(game: Game) -> Searcher:
    """The one place that says which engine analyses a game (and gives hints in it): the
    Pente family's search for two sides (partners included), Go's tree search for a game
    scored by area (``Variant.scored_by_area``). Games of more than two sides: 400
    ``analysis_unavailable`` (``selectors.engine_refusal``). A new engine returns its
    ``Searcher`` here: a value on the ``WIN`` scale for the side to move."""
    refusal = selectors.engine_refusal(game)
    if refusal is not None:
        raise refusal
    return go_tree_search if get_variant(game.variant).scored_by_area else pente_search


def engine_analyses(game: Game) -> bool:
    """Whether the computer analyses ``game`` once it is over (``searcher_for`` has an engine
    for it), for the pages that offer the analysis."""
    return selectors.engine_refusal(game) is None


# --- one position ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Look:
    """A position searched: its value for the first player (``WIN`` scale) and the best
    actions of the side to move (none when the game is over)."""

    value: int
    best: tuple[int | str, ...]


def _final_value(position: Position, first: Sequence[int]) -> int:
    winner = position.winner_colour
    if winner is None:
        return 0
    return WIN if position.seat_colour(first[0]) == winner else -WIN


def _act(position: Position, actions: Sequence[int | str]) -> None:
    if isinstance(actions[0], str):  # a decision, Go's pass or marking
        position.act(actions[0])
    else:
        position.play_turn(list(actions))


def look(
    position: Position,
    *,
    first: Sequence[int],
    search: Searcher,
    level: int,
    budget_s: float,
    rng: random.Random,
    refine: int = 2,
    refine_budget_s: float | None = None,
) -> Look:
    """Search ``position`` (not changed) for the first player's side ``first`` (its seats).
    A forced reply is valued by the position after it (``refine`` times at most)."""
    if position.outcome is not None:
        return Look(_final_value(position, first), ())
    found = search(position, level=level, budget_s=budget_s, rng=rng)
    sign = 1 if position.to_move_seat in first else -1
    value = sign * found.value
    if refine > 0 and found.forced and found.actions:
        child = position.copy()
        _act(child, found.actions)
        budget = budget_s if refine_budget_s is None else refine_budget_s
        value = look(
            child,
            first=first,
            search=search,
            level=level,
            budget_s=budget,
            rng=rng,
            refine=refine - 1,
            refine_budget_s=refine_budget_s,
        ).value
    return Look(value, found.actions)


def action_text(actions: Sequence[int | str], size: int) -> str:
    """Actions in the game's notation: ``K10``, Connect6's ``K10 L11``, or a decision word."""
    return " ".join(a if isinstance(a, str) else point_name(a, size) for a in actions)


def _move_text(row: MoveRow) -> str:
    """A played move as the game's moves list shows it: the point's name, the decision, or
    Go's ``PASS`` and ``MARK C3 D4`` (the form the engine's best actions take)."""
    if row.name is not None:
        return row.name
    if row.kind == Move.Kind.PASS:
        return PASS
    if row.kind == Move.Kind.MARK:
        return f"{MARK} {row.choice}".strip()
    return row.choice


# --- the request ---------------------------------------------------------------------------


def _require_over(game: Game) -> None:
    """A finished game, or an imported record that reached its end."""
    over = game.status == Game.Status.FINISHED or (
        game.status == Game.Status.ARCHIVED and game.end_reason != ""
    )
    if not over:
        raise Conflict(
            "game_not_finished",
            f"Game {game.pk} is not finished ({game.status}): only finished games are analysed.",
        )


def analysis_request(*, game_id: int | str, user: User) -> tuple[Analysis, bool]:
    """The analysis of game ``game_id``, asked for by ``user``: the existing one (False), or a
    new one (or a failed one started again) enqueued on commit (True). Refuses 404
    ``not_found``, 400 ``analysis_unavailable``, 409 ``game_not_finished`` and 409
    ``analysis_busy``. Nothing here searches a position."""
    game = game_get(game_id=game_id)
    existing = selectors.analysis_of(game=game)
    if existing is not None and existing.status != Analysis.Status.FAILED:
        return existing, False
    searcher_for(game)
    _require_over(game)
    with transaction.atomic():
        # One request at a time per user decides whether there is room for it.
        User.objects.select_for_update().filter(pk=user.pk).values_list("pk").first()
        existing = Analysis.objects.select_for_update().filter(game=game).first()
        if existing is not None and existing.status != Analysis.Status.FAILED:
            return existing, False
        active = selectors.analyses_active_count(user=user)
        if active >= settings.ANALYSIS_MAX_ACTIVE:
            raise Conflict(
                "analysis_busy",
                f"You have {active} analyses pending or running, the most at once: wait until "
                "one is done.",
            )
        if existing is None:
            try:
                with transaction.atomic():
                    analysis = Analysis.objects.create(
                        game=game,
                        requested_by=user,
                        level=settings.ANALYSIS_LEVEL,
                        seconds_per_move=settings.ANALYSIS_SECONDS_PER_MOVE,
                        plies_total=game.ply,
                    )
            except IntegrityError:  # asked for at the same moment by someone else
                return Analysis.objects.get(game=game), False
        else:  # failed: started again, after the plies it committed
            analysis = existing
            analysis.status = PENDING
            analysis.requested_by = user
            analysis.error_code = analysis.error_detail = ""
            analysis.finished_at = None
            analysis.interruptions = 0
            analysis.save()
        analysis.game = game
        analysis_changed.send(sender=Analysis, analysis=analysis, new_plies=[])
        analysis_id, attempt = analysis.pk, analysis.attempt
        transaction.on_commit(lambda: enqueue(ANALYSIS_TASK, args=(analysis_id, attempt)))
    return analysis, True


# --- the task ------------------------------------------------------------------------------


class _ClaimLost(Exception):
    """The analysis is no longer this run's: another run claimed it, or it was failed."""


def analysis_run(*, analysis_id: int, attempt: int, now: datetime | None = None) -> str:
    """The task's work: claim analysis ``analysis_id`` if it is still at ``attempt`` (pending,
    or running but stale), analyse its next batch of plies and commit them, then enqueue the
    next batch. Safe to run any number of times. Returns "done", "batch" (a batch committed,
    the next enqueued), "failed", "skipped" (not claimable) or "lost" (taken over meanwhile)."""
    now = now or timezone.now()
    claimable = Q(status=PENDING) | Q(
        status=RUNNING, updated_at__lt=now - settings.ANALYSIS_STALE_AFTER
    )
    claimed = Analysis.objects.filter(claimable, pk=analysis_id, attempt=attempt).update(
        status=RUNNING,
        attempt=attempt + 1,
        started_at=Coalesce(F("started_at"), Value(now, output_field=DateTimeField())),
        updated_at=now,
    )
    if not claimed:
        return "skipped"
    claim = attempt + 1
    analysis = Analysis.objects.select_related("game").get(pk=analysis_id)
    game = analysis.game
    try:
        search = searcher_for(game)
        plies, positions = _batch(analysis, game, search)
    except Invalid as exc:
        return "failed" if _end(analysis_id, claim, error=(exc.code, exc.detail)) else "lost"
    except EngineError as exc:
        detail = f"The game's moves cannot be replayed: {exc}"[:300]
        return "failed" if _end(analysis_id, claim, error=("bad_game", detail)) else "lost"
    try:
        done = _commit(analysis, claim, plies, positions)
    except _ClaimLost:
        return "lost"
    if done:
        return "done"
    enqueue(ANALYSIS_TASK, args=(analysis_id, claim))
    return "batch"


def _game_rows(game: Game, total: int) -> list[MoveRow]:
    size = board_size(game)
    rows = [
        move_row(size, *row)
        for row in Move.objects.filter(game=game, ply__lte=total)
        .order_by("ply")
        .values_list(*MOVE_FIELDS)
    ]
    if len(rows) != total:
        raise Invalid("bad_game", f"The game has {len(rows)} moves, not {total}.")
    return rows


def _batch(
    analysis: Analysis, game: Game, search: Searcher
) -> tuple[list[dict[str, Any]], list[dict[str, Any] | None]]:
    """The next batch: the plies after ``plies_processed`` and the positions searched for them
    (only those not searched yet)."""
    total = analysis.plies_total
    start = analysis.plies_processed
    stop = min(total, start + settings.ANALYSIS_BATCH_SIZE)
    rows = _game_rows(game, total)
    first = team_of(game, 1)
    automatic = len(position_of(game, []).actions)  # the centre stone the engine places itself
    size = board_size(game)
    known: list[dict[str, Any] | None] = list(analysis.positions)
    new: list[dict[str, Any] | None] = []
    for k in range(len(known), stop + 1):
        if k < automatic:
            new.append(None)
            continue
        position = position_of(game, rows[:k])
        seen = look(
            position,
            first=first,
            search=search,
            level=analysis.level,
            budget_s=analysis.seconds_per_move,
            rng=random.Random(game.pk * 1_000 + k),
        )
        new.append(
            {
                "value": seen.value,
                "best": list(seen.best),
                "best_move": action_text(seen.best, size) if seen.best else None,
            }
        )
    searched = known + new
    plies = [
        _ply(rows[i - 1], before=searched[i - 1], after=searched[i], first=first)
        for i in range(start + 1, stop + 1)
    ]
    return plies, new


def _ply(
    row: MoveRow,
    *,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    first: Sequence[int],
) -> dict[str, Any]:
    """One ply's entry: the move, the evaluation after it, the engine's best move instead and
    its evaluation, the judgement."""
    assert after is not None  # only the position before the centre stone is not searched
    evaluation = Evaluation.of(after["value"])
    entry: dict[str, Any] = {
        "ply": row.ply,
        "seat": row.seat,
        "move": _move_text(row),
        "evaluation": evaluation.as_dict(),
        "best_move": None,
        "best_evaluation": None,
        "judgement": None,
    }
    if before is None or not before["best"]:  # automatic (the centre stone)
        return entry
    best = Evaluation.of(before["value"])
    entry["best_move"] = before["best_move"]
    entry["best_evaluation"] = best.as_dict()
    played = move_action(row.kind, row.point, row.choice)
    if played not in before["best"]:
        sign = 1 if row.seat in first else -1
        entry["judgement"] = judgement(before=best, after=evaluation, sign=sign)
    return entry


def _commit(
    analysis: Analysis,
    claim: int,
    plies: list[dict[str, Any]],
    positions: list[dict[str, Any] | None],
) -> bool:
    """Write the batch with the progress, under the row's lock and only while the claim holds;
    the analysis is then done (True) or handed back for the next batch (False). Either is told
    (``analysis_changed``, with the batch's plies)."""
    start = analysis.plies_processed
    with transaction.atomic():
        row = (
            Analysis.objects.select_for_update()
            .filter(pk=analysis.pk, status=RUNNING, attempt=claim, plies_processed=start)
            .first()
        )
        if row is None:
            raise _ClaimLost
        row.game = analysis.game
        row.plies = row.plies + plies
        row.positions = row.positions + positions
        row.plies_processed = start + len(plies)
        done = row.plies_processed >= row.plies_total
        row.status = Analysis.Status.DONE if done else PENDING
        fields = ["plies", "positions", "plies_processed", "status", "updated_at"]
        if done:
            row.finished_at = timezone.now()
            fields.append("finished_at")
        row.save(update_fields=fields)
        analysis_changed.send(sender=Analysis, analysis=row, new_plies=plies)
    return done


def _end(
    analysis_id: int,
    claim: int,
    *,
    error: tuple[str, str],
    before: datetime | None = None,
) -> bool:
    """Fail the analysis running under ``claim`` (not moved since ``before`` when given), and
    tell it (``analysis_changed``)."""
    now = timezone.now()
    rows = Analysis.objects.filter(pk=analysis_id, status=RUNNING, attempt=claim)
    if before is not None:
        rows = rows.filter(updated_at__lt=before)
    code, detail = error
    with transaction.atomic():
        ended = rows.update(
            status=Analysis.Status.FAILED,
            error_code=code[:32],
            error_detail=detail[:300],
            finished_at=now,
            updated_at=now,
        )
        if ended == 1:
            failed = Analysis.objects.select_related("game").get(pk=analysis_id)
            analysis_changed.send(sender=Analysis, analysis=failed, new_plies=[])
    return ended == 1


@dataclass(frozen=True, slots=True)
class SweepReport:
    requeued: int = 0
    failed: int = 0


def analyses_sweep(*, now: datetime | None = None) -> SweepReport:
    """Enqueue the task again for every analysis pending, or running without progress, for
    ``ANALYSIS_STALE_SECONDS`` (its message was lost, or its worker died); a running one counts
    an interruption, and is failed (``interrupted``) at ``ANALYSIS_MAX_ATTEMPTS``. Duplicate
    messages are harmless: a run claims an analysis only at the attempt it saw."""
    now = now or timezone.now()
    before = now - settings.ANALYSIS_STALE_AFTER
    stale = Analysis.objects.filter(
        status__in=selectors.ACTIVE_ANALYSIS_STATUSES, updated_at__lt=before
    )
    requeued = failed = 0
    for pk, status, attempt, lost in stale.values_list(
        "pk", "status", "attempt", "interruptions"
    ).order_by("pk"):
        if status == RUNNING:
            if lost + 1 >= settings.ANALYSIS_MAX_ATTEMPTS:
                detail = (
                    f"The analysis stopped {lost + 1} times without finishing (its worker was "
                    "lost); the plies analysed stay."
                )
                failed += _end(pk, attempt, error=("interrupted", detail), before=before)
                continue
            counted = Analysis.objects.filter(
                pk=pk, status=RUNNING, attempt=attempt, updated_at__lt=before
            ).update(interruptions=F("interruptions") + 1)
            if not counted:
                continue
        enqueue(ANALYSIS_TASK, args=(pk, attempt))
        requeued += 1
    return SweepReport(requeued=requeued, failed=failed)


# --- hints ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hint:
    """The engine's suggestion for the player to move: ``move`` in the game's notation (the
    stones' names, the decision word, Go's ``PASS`` or ``MARK C3 D4``), its ``points`` (to
    play, or in Go's marking the stones to propose dead) or ``decision``, and the
    ``evaluation`` of the position for that player."""

    game_id: int
    ply: int
    seat: int
    move: str
    points: tuple[str, ...]
    decision: str | None
    evaluation: Evaluation


def _hint_parts(actions: Sequence[int | str], size: int) -> tuple[tuple[str, ...], str | None]:
    """The points to send (``moves``: stones, or Go's ``PASS``; ``dead``: Go's stones to mark)
    or the decision word (``decision``) of the engine's action."""
    if not actions:
        return (), None
    first = actions[0]
    if not isinstance(first, str):
        return tuple(point_name(p, size) for p in actions), None  # type: ignore[arg-type]
    word, _, rest = first.partition(" ")
    if word == PASS:
        return (PASS,), None
    if word == MARK:
        return tuple(rest.split()), None
    return (), first


def _hint_cache_key(game: Game) -> str:
    return f"hint:{game.pk}:{game.ply}:{game.updated_at.timestamp()}"


def _cached(key: str) -> Hint | None:
    try:
        return cache.get(key)
    except Exception:  # a cache outage costs a search, never a hint
        log.warning("cannot read the cached hint %s", key, exc_info=True)
        return None


def _keep(key: str, hint: Hint) -> None:
    try:
        cache.set(key, hint, HINT_CACHE_SECONDS)
    except Exception:
        log.warning("cannot cache the hint %s", key, exc_info=True)


def hint_for(*, game_id: int | str, user: User) -> Hint:
    """The engine's move for ``user``, to move in game ``game_id``: an unrated game in progress
    whose opponents are all computer opponents (in Go, while stones are played: not while the
    dead stones are marked). Searched here, under ``HINT_SECONDS``; kept in
    the cache for the position (the same request again answers at once)."""
    game = game_get(game_id=game_id)
    require_in_progress(game)
    seats = seats_with_users(game)
    mine = require_participant(seats, user)
    position = played_of(game).position
    phase = None if position.phase is None else str(position.phase)
    refusal = selectors.hint_refusal(game=game, seats=seats, mine=mine, phase=phase)
    if refusal is not None:
        raise refusal
    searcher = searcher_for(game)
    seat = position.to_move_seat
    if seat not in mine:
        raise Conflict("not_your_turn", f"Seat {seat} is to move, not you.")
    key = _hint_cache_key(game)
    kept = _cached(key)
    if kept is not None and kept.seat == seat:
        return kept
    budget = max(0.01, min(float(settings.HINT_SECONDS), HINT_MAX_SECONDS))
    seen = look(
        position,
        first=team_of(game, seat),
        search=searcher,
        level=settings.HINT_LEVEL,
        budget_s=budget * 0.75,
        rng=random.Random(game.pk * 1_000 + game.ply),
        refine=1,
        refine_budget_s=budget * 0.25,
    )
    points, decision = _hint_parts(seen.best, position.size)
    hint = Hint(
        game_id=game.pk,
        ply=game.ply,
        seat=seat,
        move=action_text(seen.best, position.size),
        points=points,
        decision=decision,
        evaluation=Evaluation.of(seen.value),
    )
    _keep(key, hint)
    return hint
