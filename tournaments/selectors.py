"""Reads: tournaments, rounds and pairings, standings, a player's matches, the bracket, TRF."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from django.db.models import Count, Q, QuerySet

from accounts.models import User
from pente_site.errors import Conflict, Invalid, NotFound
from tournaments.models import Entry, Match, PlannedBye, Round, Tournament, bye_points2
from tournaments.pairing import standings as st
from tournaments.pairing import trf
from tournaments.pairing.double_elimination import double_elimination
from tournaments.pairing.elimination import (
    BYE,
    BracketMatch,
    BracketState,
    elimination_places,
    resolve,
    single_elimination,
)


def tournaments_queryset() -> QuerySet[Tournament]:
    return (
        Tournament.objects.select_related("organiser", "winner")
        .annotate(players=Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE)))
        .order_by("-start_at", "-id")
    )


def tournament_get(*, tournament_id: int) -> Tournament:
    t = tournaments_queryset().filter(pk=tournament_id).first()
    if t is None:
        raise NotFound("not_found", "No such tournament.")
    return t


def _user(user_id: int | None, names: dict[int, str]) -> dict[str, Any] | None:
    if user_id is None:
        return None
    return {"id": user_id, "username": names.get(user_id, "")}


def _names(t: Tournament) -> dict[int, str]:
    """Each entrant's name in the tournament: the account's username, or the name an imported
    report gave them."""
    return {
        user_id: name or username
        for user_id, name, username in Entry.objects.filter(tournament=t).values_list(
            "user_id", "name", "user__username"
        )
    }


def _entry_data(e: Entry) -> dict[str, Any]:
    return {
        "user": {"id": e.user_id, "username": e.player_name},
        "seed": e.seed,
        "rating": e.rating,
        "status": e.status,
        "joined_at": e.joined_at,
    }


def entries(t: Tournament) -> list[dict[str, Any]]:
    """Every entry, by seed (once there are seeds) then by the time it was made."""
    return [_entry_data(e) for e in Entry.objects.filter(tournament=t).select_related("user")]


def entry_of(t: Tournament, *, user_id: int | None) -> dict[str, Any] | None:
    """``user_id``'s own entry in ``t`` (withdrawn included), or None."""
    if user_id is None:
        return None
    e = Entry.objects.filter(tournament=t, user_id=user_id).select_related("user").first()
    return None if e is None else _entry_data(e)


def planned_byes(t: Tournament) -> list[dict[str, Any]]:
    """The byes decided before their rounds are paired (asked for by the players, or an
    imported report's), by round then player."""
    names = _names(t)
    return [
        {"user": _user(b.user_id, names), "round": b.round_number, "result": b.result}
        for b in PlannedBye.objects.filter(tournament=t).order_by("round_number", "user_id")
    ]


#: The name of each part of a bracket, as a match's round is said.
BRACKET_ROUNDS = {"W": "winners' round", "L": "losers' round"}


def match_round_label(m: Match) -> str:
    """Where a match is played, in words: "round 3", "winners' round 2", "grand final"
    (a single-elimination bracket has rounds only)."""
    if m.round_id is not None:
        return f"round {m.round.number}"
    if m.bracket == "GF":
        return "grand final" if m.bracket_round <= 1 else "grand final (reset)"
    if m.tournament.format == Tournament.Format.SINGLE_ELIMINATION:
        return f"round {m.bracket_round}"
    return f"{BRACKET_ROUNDS.get(m.bracket, 'round')} {m.bracket_round}"


def match_data(m: Match, names: dict[int, str]) -> dict[str, Any]:
    return {
        "id": m.pk,
        "key": m.key,
        "round": m.round.number if m.round_id else None,
        "bracket": m.bracket or None,
        "bracket_round": m.bracket_round or None,
        "board": m.board,
        "player1": _user(m.player1_id, names),
        "player2": _user(m.player2_id, names),
        "status": m.status,
        "result": m.result or None,
        "winner": _user(m.winner_id, names),
        "forfeit": m.forfeit,
        "sets": [
            {
                "id": ms.game_set_id,
                "index": ms.index,
                "games": [g.pk for g in ms.game_set.games.all()],
            }
            for ms in m.match_sets.all()
        ],
    }


def _matches(t: Tournament) -> QuerySet[Match]:
    return (
        Match.objects.filter(tournament=t)
        .select_related("round")
        .prefetch_related("match_sets__game_set__games")
        .order_by("round__number", "bracket", "bracket_round", "board", "id")
    )


def _in_rounds(t: Tournament, **filters: Any) -> QuerySet[Match]:
    """The matches of the tournament's rounds (a Swiss's or a round robin's; not brackets')."""
    return Match.objects.filter(tournament=t, round__isnull=False, **filters)


def round_numbers(t: Tournament) -> list[int]:
    """The numbers of a Swiss's or a round robin's rounds that have pairings, in order."""
    return sorted(_in_rounds(t).order_by().values_list("round__number", flat=True).distinct())


def rounds(t: Tournament, *, numbers: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """Rounds with their pairings; for brackets, one entry per bracket round. ``numbers``: only
    those rounds of a Swiss or a round robin (each built from its own matches alone)."""
    names = _names(t)
    groups: dict[tuple, list[dict]] = {}
    matches = _matches(t) if numbers is None else _matches(t).filter(round__number__in=numbers)
    for m in matches:
        key = ("R", m.round.number) if m.round_id else (m.bracket, m.bracket_round)
        groups.setdefault(key, []).append(match_data(m, names))
    order = {"R": 0, "W": 1, "L": 2, "GF": 3}
    relaxed = set(Round.objects.filter(tournament=t, relaxed=True).values_list("number", flat=True))
    out = []
    for (bracket, number), matches in sorted(
        groups.items(), key=lambda kv: (order[kv[0][0]], kv[0][1])
    ):
        out.append(
            {
                "bracket": None if bracket == "R" else bracket,
                "number": number,
                "relaxed": bracket == "R" and number in relaxed,
                "matches": matches,
            }
        )
    return out


def pairing_decision(t: Tournament) -> dict[str, Any] | None:
    """The round waiting for the organiser's pairing decision, as the API shows it, or None."""
    if t.pairing_decision_round is None:
        return None
    if t.pairing_problem == "pairing_too_hard":
        return {
            "round": t.pairing_decision_round,
            "code": "pairing_too_hard",
            "detail": (
                f"Round {t.pairing_decision_round}: the exact pairing search ran past its guard, "
                "and no other pairing is made in its place. Pair it again (POST "
                'pairing-decision {"relax": false}), after changing the entries if need be.'
            ),
        }
    return {
        "round": t.pairing_decision_round,
        "code": "colour_criteria_unmet",
        "detail": (
            f"Round {t.pairing_decision_round} cannot be paired without relaxing the colour "
            "criteria (FIDE C3: two players who must both have the same colour would meet). "
            'Pair it with the relaxation (POST pairing-decision {"relax": true}), or fix '
            'the entries (withdraw a player) and pair it again ({"relax": false}).'
        ),
    }


def match_get(t: Tournament, *, match_id: int) -> dict[str, Any]:
    m = _matches(t).filter(pk=match_id).first()
    if m is None:
        raise NotFound("not_found", "No such match in this tournament.")
    return match_data(m, _names(t))


def player_matches(t: Tournament, *, user_id: int) -> list[dict[str, Any]]:
    names = _names(t)
    return [
        match_data(m, names)
        for m in _matches(t).filter(Q(player1_id=user_id) | Q(player2_id=user_id))
    ]


class _RoundMatch(NamedTuple):
    """What the standings and the TRF read of a round's match (a thousand-player Swiss has
    thousands: plain rows, not model instances)."""

    number: int
    player1_id: int
    player2_id: int | None
    result: str | None
    status: str
    forfeit: bool


def _round_matches(t: Tournament, **filters: Any) -> list[_RoundMatch]:
    """``_in_rounds`` as plain rows, in the model's order."""
    rows = _in_rounds(t, **filters).values_list(
        "round__number", "player1_id", "player2_id", "result", "status", "forfeit"
    )
    return [_RoundMatch(*row) for row in rows]


def _results(t: Tournament) -> list[list[st.Result | st.Bye]]:
    by_round: dict[int, list] = {}
    swiss = t.format == Tournament.Format.SWISS
    for m in _round_matches(t, status=Match.Status.FINISHED):
        items = by_round.setdefault(m.number, [])
        if m.result in (Match.Result.ZERO_POINT_BYE, Match.Result.DOUBLE_FORFEIT):
            continue  # absences, as a round without a match is (a withdrawal, say)
        if m.player2_id is None:
            items.append(st.Bye(m.player1_id, bye_points2(m.result, swiss=swiss) / 2))
        else:
            score = {"player1": 1.0, "draw": 0.5, "player2": 0.0}[m.result]
            items.append(st.Result(m.player1_id, m.player2_id, score))
    return [by_round[k] for k in sorted(by_round)]


def compute_standings(t: Tournament) -> list[dict[str, Any]]:
    """Current standings (the final ones once the tournament is over)."""
    all_entries = list(
        Entry.objects.filter(tournament=t).select_related("user").order_by("seed", "id")
    )
    names = {e.user_id: e.player_name for e in all_entries}
    withdrawn = {e.user_id for e in all_entries if e.status == Entry.Status.WITHDRAWN}
    seeded = [e.user_id for e in all_entries if e.seed is not None] or [
        e.user_id for e in all_entries
    ]
    if t.is_elimination:
        return _bracket_standings(t, seeded, names, withdrawn)
    results = _results(t)
    if t.format == Tournament.Format.ROUND_ROBIN:
        rows = st.round_robin_standings(seeded, results)
    else:
        rows = st.swiss_standings(seeded, results)
    return [
        {
            "rank": r.rank,
            "user_id": r.player,
            "username": names.get(r.player, ""),
            "points": r.points,
            "played": r.played,
            "wins": r.wins,
            "draws": r.draws,
            "losses": r.losses,
            "tiebreaks": r.tiebreaks,
            "withdrawn": r.player in withdrawn,
        }
        for r in rows
    ]


def bracket_matches(t: Tournament) -> list[BracketMatch]:
    """The layout of an elimination tournament's bracket for its seeded players."""
    n = Entry.objects.filter(tournament=t, seed__isnull=False).count()
    if t.format == Tournament.Format.DOUBLE_ELIMINATION:
        return double_elimination(n)
    return single_elimination(n)


def bracket_state(t: Tournament) -> BracketState:
    """The bracket with the players and winners known so far."""
    seeds = dict(
        Entry.objects.filter(tournament=t, seed__isnull=False).values_list("seed", "user_id")
    )
    finished = Match.objects.filter(tournament=t, status=Match.Status.FINISHED)
    winners: dict[str, Any] = dict(
        finished.exclude(winner__isnull=True).values_list("key", "winner_id")
    )
    for key in finished.filter(result=Match.Result.DOUBLE_FORFEIT).values_list("key", flat=True):
        winners[key] = BYE  # nobody won: both are out, their next opponents walk over
    return resolve(bracket_matches(t), seeds, winners)


def _bracket_standings(t, seeded, names, withdrawn) -> list[dict[str, Any]]:
    if len(seeded) < 2 or t.status == Tournament.Status.REGISTRATION:
        return []  # no bracket is drawn before the start, nor for too few players
    state = bracket_state(t)
    places = elimination_places(state)
    wins: dict[int, int] = {}
    losses: dict[int, int] = {}
    for ms in state.matches:
        if ms.status == "done":
            wins[ms.winner] = wins.get(ms.winner, 0) + 1
            losses[ms.loser] = losses.get(ms.loser, 0) + 1
        elif ms.status == "double_forfeit":
            for p in (ms.a, ms.b):
                losses[p] = losses.get(p, 0) + 1
    alive = [p for p in seeded if p not in places]
    rows = []
    for p in alive + sorted((p for p in places if p != BYE), key=lambda p: places[p]):
        rows.append(
            {
                "rank": places.get(p),
                "user_id": p,
                "username": names.get(p, ""),
                "points": float(wins.get(p, 0)),
                "played": wins.get(p, 0) + losses.get(p, 0),
                "wins": wins.get(p, 0),
                "draws": 0,
                "losses": losses.get(p, 0),
                "tiebreaks": {},
                "withdrawn": p in withdrawn,
            }
        )
    if state.finished:
        rows.sort(key=lambda r: r["rank"] or 0)
    return rows


def standings(t: Tournament) -> list[dict[str, Any]]:
    if t.status == Tournament.Status.FINISHED and t.standings:
        return t.standings
    return compute_standings(t)


def bracket(t: Tournament) -> dict[str, Any]:
    """The bracket as data: every match of the layout with its players so far."""
    if not t.is_elimination:
        raise Conflict("no_bracket", "Only elimination tournaments have a bracket.")
    names = _names(t)
    seeded = Entry.objects.filter(tournament=t, seed__isnull=False).count()
    if t.status == Tournament.Status.REGISTRATION or seeded < 2:
        # No bracket is drawn before the start, nor for a tournament that had too few players.
        return {"format": t.format, "matches": [], "champion": None}
    state = bracket_state(t)
    ids = dict(Match.objects.filter(tournament=t).values_list("key", "id"))

    def who(value):
        if value is None:
            return None
        if value == BYE:
            return "bye"
        return _user(value, names)

    return {
        "format": t.format,
        "champion": None if state.champion == BYE else who(state.champion),
        "matches": [
            {
                "key": ms.match.key,
                "bracket": ms.match.bracket,
                "round": ms.match.round,
                "index": ms.match.index,
                "from": [ms.match.a.label(), ms.match.b.label()],
                "player1": who(ms.a),
                "player2": who(ms.b),
                "status": ms.status,
                "winner": who(ms.winner),
                "match_id": ids.get(ms.match.key),
            }
            for ms in state.matches
        ],
    }


def trf_text(t: Tournament, *, after_round: int | None = None) -> str:
    """FIDE TRF of a Swiss or round robin: one ``001`` line per player, round by round.

    ``after_round`` gives the report as it stood after that round, for checking each round's
    pairing with an outside Dutch-system checker; without it, the rounds finished so far (a
    round still being played has blank results, which no TRF reader takes: 409
    ``round_in_progress`` when asked for by number). The players who are not paired in the
    round after the report (withdrawn before it was paired, or left out of it) are marked
    absent in it, so that an outside engine pairs that round as this server did or will."""
    if t.is_elimination:
        raise Conflict("no_trf", "TRF export is for Swiss and round-robin events.")
    all_entries = list(
        Entry.objects.filter(tournament=t, seed__isnull=False).select_related("user")
    )
    rank_of = {e.user_id: e.seed for e in all_entries}
    swiss = t.format == Tournament.Format.SWISS
    history: list[dict[int, trf.TrfGame]] = []
    by_round: dict[int, list[_RoundMatch]] = {}
    for m in _round_matches(t):
        by_round.setdefault(m.number, []).append(m)
    finished = 0
    for number in sorted(by_round):
        games: dict[int, trf.TrfGame] = {}
        for m in by_round[number]:
            a = rank_of[m.player1_id]
            if m.player2_id is None:
                games[a] = _bye_block(m.result) if swiss else trf.ABSENT
                continue
            b = rank_of[m.player2_id]
            if m.status != Match.Status.FINISHED:
                ra = rb = " "
            elif m.result == "draw":
                ra = rb = "="
            elif m.result == Match.Result.DOUBLE_FORFEIT:
                ra = rb = "-"  # both forfeit: read back as two absences
            else:
                won = m.result == "player1"
                if m.forfeit:
                    ra, rb = ("+", "-") if won else ("-", "+")
                else:
                    ra, rb = ("1", "0") if won else ("0", "1")
            games[a] = trf.TrfGame(b, "w", ra)
            games[b] = trf.TrfGame(a, "b", rb)
        history.append(games)
        if finished == number - 1 and all(
            m.status == Match.Status.FINISHED for m in by_round[number]
        ):
            finished = number
    ranks = {
        rank_of[row["user_id"]]: row["rank"] for row in standings(t) if row["user_id"] in rank_of
    }
    doc = trf.from_history(
        name=t.name,
        rounds=t.rounds or len(history),
        entrants=[
            (e.seed, e.player_name, int(e.rating or 0))
            for e in sorted(all_entries, key=lambda e: e.seed)
        ],
        history=history,
        ranks=ranks,
        start=t.started_at.date() if t.started_at else None,
        end=t.finished_at.date() if t.finished_at else None,
        initial_colour="b" if t.initial_colour == "black" else "w",
    )
    if not swiss:
        doc = replace(doc, kind="Round robin (Berger)")
    if after_round is not None:
        if not 0 <= after_round <= len(history):
            raise Invalid(
                "bad_round", f"round must be 0..{len(history)} (the rounds paired so far)."
            )
        if after_round > finished:
            raise Conflict(
                "round_in_progress",
                f"Round {after_round} is still being played: its results are not known yet. "
                f"Export ?round={finished} (the history before it), or wait for its end.",
            )
    after = finished if after_round is None else after_round
    if after < len(history):
        doc = trf.truncate(doc, after)
    if after < len(history) or (after < doc.rounds and t.status == Tournament.Status.RUNNING):
        doc = trf.with_absent(doc, _absent_from(t, after + 1, by_round, all_entries, rank_of))
    return trf.dump(doc)


#: The TRF result letter of each kind of bye.
_TRF_BYE = {
    Match.Result.BYE: "U",
    Match.Result.FULL_POINT_BYE: "F",
    Match.Result.HALF_POINT_BYE: "H",
    Match.Result.ZERO_POINT_BYE: "Z",
}


def _bye_block(result: str) -> trf.TrfGame:
    """A Swiss round's block for a match with no opponent."""
    return trf.TrfGame(None, "-", _TRF_BYE[result])


def _absent_from(
    t: Tournament,
    number: int,
    by_round: dict[int, list[_RoundMatch]],
    entries: list[Entry],
    rank_of: dict[int, int],
) -> dict[int, trf.TrfGame]:
    """The players not paired with an opponent (nor given the PAB) in round ``number``, by
    starting rank, with their block for it: for a round paired already, those without a match
    in it (absent) and those with an unplayed round's bye (a late entry: ``0000 - H``, say);
    for the next one, those withdrawn and those with a planned bye."""
    if number in by_round:
        blocks = {
            rank_of[m.player1_id]: _bye_block(m.result)
            for m in by_round[number]
            if m.player2_id is None and m.result != Match.Result.BYE
        }
        paired = {m.player1_id for m in by_round[number]} | {
            m.player2_id for m in by_round[number] if m.player2_id is not None
        }
        for e in entries:
            if e.user_id not in paired:
                blocks[rank_of[e.user_id]] = trf.ABSENT
        return blocks
    blocks = {rank_of[e.user_id]: trf.ABSENT for e in entries if e.status == Entry.Status.WITHDRAWN}
    planned = PlannedBye.objects.filter(tournament=t, round_number=number)
    for user_id, result in planned.values_list("user_id", "result"):
        blocks[rank_of[user_id]] = _bye_block(result)
    return blocks


def crowns_of(*, user: User) -> list[dict[str, Any]]:
    return [
        {"tournament_id": t.pk, "name": t.name, "variant": t.variant, "won_at": t.finished_at}
        for t in Tournament.objects.filter(
            winner=user, status=Tournament.Status.FINISHED, imported=False
        )
    ]
