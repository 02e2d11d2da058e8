"""Seeded elimination brackets and a generic bracket resolver.

A bracket is a list of :class:`BracketMatch` in playing order. Each match takes its two players
from a :class:`Slot`: a seed number, or the winner or loser of an earlier match. Seeds above the
number of players are byes: a player facing a bye advances without playing, and a match between
two byes produces byes. A match neither of its players turned up for (a double forfeit, its
winner recorded as :data:`BYE`) puts both out: its places in later matches are byes, so the
player who would have met its winner (or, in a losers' bracket, its loser) advances by
walkover. :func:`resolve` computes, from the recorded winners, which matches are
ready to be played, and the champion once the bracket is over.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field

BYE = "bye"  # the sentinel value of a missing player


@dataclass(frozen=True)
class Slot:
    kind: str  # "seed" | "winner" | "loser"
    ref: int | str  # seed number, or a match key

    def label(self) -> str:
        if self.kind == "seed":
            return f"seed {self.ref}"
        return f"{self.kind} of {self.ref}"


@dataclass(frozen=True)
class BracketMatch:
    key: str  # "W1-1", "L2-3", "GF1", "GF2"
    bracket: str  # "W" (winners / single elimination), "L" (losers), "GF" (grand final)
    round: int  # round within its bracket, 1-based
    index: int  # position within the round, 1-based
    a: Slot  # upper slot: plays first (player 1) in the first game
    b: Slot
    reset: bool = False  # grand-final reset: played only when the losers' champion won GF1


#: The states of a match that is over (played, decided without a game, or not to be played).
OVER = ("done", "walkover", "void", "double_forfeit")


@dataclass(frozen=True)
class MatchState:
    match: BracketMatch
    a: Hashable | None  # player, BYE, or None while unknown
    b: Hashable | None
    status: str  # "pending" | "ready" | "done" | "walkover" | "void" | "double_forfeit"
    winner: Hashable | None = None
    loser: Hashable | None = None


@dataclass(frozen=True)
class BracketState:
    matches: tuple[MatchState, ...]
    champion: Hashable | None
    finished: bool
    by_key: Mapping[str, MatchState] = field(default_factory=dict)

    def ready(self) -> list[MatchState]:
        return [m for m in self.matches if m.status == "ready"]


def bracket_size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seeds in bracket order: 1 meets 2 only in the final, byes go to the top seeds.
    ``seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]``."""
    if size < 1 or size & (size - 1):
        raise ValueError("size must be a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def first_round_slots(n: int) -> list[tuple[Slot, Slot]]:
    order = seed_order(max(2, bracket_size(n)))
    return [(Slot("seed", order[i]), Slot("seed", order[i + 1])) for i in range(0, len(order), 2)]


def single_elimination(n: int) -> list[BracketMatch]:
    """The matches of a single-elimination bracket for ``n`` (>= 2) seeded players."""
    if n < 2:
        raise ValueError("an elimination bracket needs at least two players")
    matches: list[BracketMatch] = []
    current = [
        BracketMatch(f"W1-{i + 1}", "W", 1, i + 1, a, b)
        for i, (a, b) in enumerate(first_round_slots(n))
    ]
    matches.extend(current)
    r = 1
    while len(current) > 1:
        r += 1
        nxt = [
            BracketMatch(
                f"W{r}-{i // 2 + 1}",
                "W",
                r,
                i // 2 + 1,
                Slot("winner", current[i].key),
                Slot("winner", current[i + 1].key),
            )
            for i in range(0, len(current), 2)
        ]
        matches.extend(nxt)
        current = nxt
    return matches


def bracket_stages(matches: Iterable[BracketMatch]) -> dict[str, int]:
    """The stage of every match of a bracket layout (given in playing order): one more than the
    latest stage of the matches its players come from, seeds being stage 0; a grand-final reset
    comes one after every match before it. A stage is a "wave": every match of it can be played
    once the stages before it are over. In single elimination the stage is the round; in double
    elimination (8 players) winners' rounds 1-3 are stages 1-3, losers' rounds 1-4 stages 2-5,
    the grand final 6 and its reset 7."""
    stages: dict[str, int] = {}
    for m in matches:
        if m.reset:
            stages[m.key] = 1 + max(stages.values(), default=0)
            continue
        sources = [s for s in (m.a, m.b) if s.kind != "seed"]
        stages[m.key] = 1 + max((stages[str(s.ref)] for s in sources), default=0)
    return stages


def resolve(
    matches: Iterable[BracketMatch],
    seeds: Mapping[int, Hashable],
    winners: Mapping[str, Hashable],
) -> BracketState:
    """Propagate players through the bracket. ``seeds`` maps seed numbers to players (missing
    seeds are byes); ``winners`` maps the keys of played matches to their winners (:data:`BYE`
    for a double forfeit)."""
    matches = list(matches)
    win: dict[str, Hashable | None] = {}
    lose: dict[str, Hashable | None] = {}
    states: list[MatchState] = []
    by_key: dict[str, MatchState] = {}

    def value(slot: Slot) -> Hashable | None:
        if slot.kind == "seed":
            return seeds.get(int(slot.ref), BYE)
        source = win if slot.kind == "winner" else lose
        return source.get(str(slot.ref))

    for m in matches:
        a, b = value(m.a), value(m.b)
        state: MatchState
        if m.reset:
            previous = by_key.get("GF1")
            if previous is None or previous.status not in OVER:
                state = MatchState(m, None, None, "pending")
            elif previous.status != "done" or previous.winner == previous.a:
                # The winners' champion won, or the final was not played (a walkover, or
                # nobody turned up: then nobody wins): no reset.
                state = MatchState(m, None, None, "void", previous.winner, previous.loser)
            else:
                state = _played(m, previous.a, previous.b, winners)
        elif a is None or b is None:
            state = MatchState(m, a, b, "pending")
        elif a == BYE and b == BYE:
            state = MatchState(m, a, b, "void", BYE, BYE)
        elif a == BYE or b == BYE:
            state = MatchState(m, a, b, "walkover", b if a == BYE else a, BYE)
        else:
            state = _played(m, a, b, winners)
        win[m.key] = state.winner
        lose[m.key] = state.loser
        states.append(state)
        by_key[m.key] = state
    champion, finished = _champion(states)
    return BracketState(tuple(states), champion, finished, by_key)


def _played(m: BracketMatch, a, b, winners: Mapping[str, Hashable]) -> MatchState:
    if m.key in winners:
        w = winners[m.key]
        if w == BYE:
            return MatchState(m, a, b, "double_forfeit", BYE, BYE)
        if w not in (a, b):
            raise ValueError(f"{m.key}: the winner is not one of the players")
        return MatchState(m, a, b, "done", w, b if w == a else a)
    return MatchState(m, a, b, "ready")


def _champion(states: list[MatchState]) -> tuple[Hashable | None, bool]:
    if not states:
        return None, False
    last = states[-1]
    if last.match.reset:
        if last.status in ("done",):
            return last.winner, True
        if last.status == "void" and last.winner is not None:
            return last.winner, True
        if last.status == "double_forfeit":
            return BYE, True
        return None, False
    if last.status in ("done", "walkover"):
        return last.winner, True
    if last.status in ("void", "double_forfeit"):  # nobody turned up for the final
        return BYE, True
    return None, False


def elimination_places(state: BracketState) -> dict[Hashable, int]:
    """Places: the champion 1st, then players ranked by how late they were knocked out (one
    loss in single elimination, two in double); players knocked out at the same stage share the
    place. While the bracket is played, the players still in it have no place yet and those
    knocked out come after all of them (4 players after the first round: two still in, two
    sharing 3rd place)."""
    double = any(ms.match.bracket != "W" for ms in state.matches)
    lives = 2 if double else 1
    losses: dict[Hashable, int] = {}
    out_at: dict[Hashable, BracketMatch] = {}
    for ms in state.matches:
        if ms.status == "double_forfeit":  # both out, wherever it is played
            for p in (ms.a, ms.b):
                losses[p] = lives
                out_at[p] = ms.match
            continue
        if ms.status != "done":
            continue
        losses[ms.loser] = losses.get(ms.loser, 0) + 1
        if losses[ms.loser] >= lives:
            out_at[ms.loser] = ms.match
    places: dict[Hashable, int] = {}
    if state.champion is not None and state.champion != BYE:
        places[state.champion] = 1
    ranked = sorted(
        (p for p in out_at if p not in places), key=lambda p: _stage_key(out_at[p]), reverse=True
    )
    players = {p for ms in state.matches for p in (ms.a, ms.b) if p is not None and p != BYE}
    still_in = players - set(out_at) - set(places)
    place, previous = 0, None
    for i, p in enumerate(ranked, start=len(places) + len(still_in) + 1):
        key = _stage_key(out_at[p])
        if key != previous:
            place, previous = i, key
        places[p] = place
    return places


def _stage_key(m: BracketMatch) -> tuple[int, int]:
    if m.bracket == "GF":
        return (3, 0)
    if m.bracket == "L":
        return (2, m.round)
    return (1, m.round)
