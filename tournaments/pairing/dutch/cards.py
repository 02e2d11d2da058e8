"""The engine's input and output: pairing cards, played rounds, colour preferences, round counts.

Scores are kept in half points (``points2``: a win is 2, a draw 1) so that they stay exact.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from .. import PairingError

WHITE, BLACK = 1, -1

#: Colour preference strengths (Art. 1.7).
NO_PREFERENCE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3


@dataclass(frozen=True)
class SwissPlayer:
    id: Hashable
    tpn: int
    points2: int = 0  # score in half points
    colours: tuple[str | None, ...] = ()  # per past round: "w", "b" or None (no game played)
    opponents: frozenset = field(default_factory=frozenset)
    had_bye: bool = False  # a PAB, or a win's points without playing: no (further) PAB
    floats: tuple[str | None, ...] = ()  # per past round: "down", "up" or None


class PairingTooHard(PairingError):
    """The pairing search crossed its guard before it could prove the FIDE pairing: the
    ``node_budget`` of :func:`pair_round` in one bracket (or a fiftieth of it in sets of MDPs
    or of downfloaters to check). The engine never falls back to a "best found so far"
    pairing: the round is left unpaired and the organiser can be told (the message names the
    bracket)."""


@dataclass(frozen=True)
class SwissRound:
    pairs: tuple[tuple[Hashable, Hashable], ...]  # (white, black), best boards first
    bye: Hashable | None = None
    relaxed: bool = False  # the colour criteria had to be relaxed to pair at all
    fallback: bool = False  # kept for compatibility: always False (the pairing is always exact)
    hard_brackets: int = 0
    """Brackets whose quick first search ran out of nodes, so that they needed the bound per
    floater and the checked search (the pairing is exact all the same: a measure of work)."""
    search_nodes: int = 0
    """Search nodes (pairs tried, exchanges tried, candidates evaluated), whole round."""

    @property
    def approximate(self) -> bool:
        """Always False: a search that cannot finish raises :class:`PairingTooHard`."""
        return self.fallback


@dataclass(frozen=True)
class PlayedPair:
    white: Hashable
    black: Hashable
    white_points2: int  # 2 win, 1 draw, 0 loss for white
    played: bool = True  # False for a forfeit: no colour, and the two may meet again


@dataclass(frozen=True)
class RoundRecord:
    pairs: tuple[PlayedPair, ...] = ()
    byes: tuple[tuple[Hashable, int], ...] = ()  # (player, half points scored); PAB included
    pab: Hashable | None = None  # the pairing-allocated bye of the round, if any


def default_rounds(players: int) -> int:
    """4 rounds below 16 players, 5 below 32, 6 below 64, else 7."""
    if players < 16:
        return 4
    if players < 32:
        return 5
    if players < 64:
        return 6
    return 7


def max_rounds(players: int) -> int:
    """The most rounds a Swiss of this size can always pair without rematches: with at most
    ``n // 2`` rounds every player still has at least half the field as possible opponents, so a
    complete pairing always exists (Dirac)."""
    return max(1, players // 2)


def colour_preference(colours: Iterable[str | None]) -> tuple[int, int, int]:
    """(preference, strength, colour difference). Preference WHITE/BLACK/0; strength 3 absolute,
    2 strong, 1 mild, 0 none (no game played yet). Unplayed rounds are skipped."""
    played = [colour for colour in colours if colour]
    if not played:
        return 0, NO_PREFERENCE, 0
    difference = played.count("w") - played.count("b")
    last_two = played[-2:] if len(played) >= 2 else []
    if difference > 1:
        return BLACK, ABSOLUTE, difference
    if difference < -1:
        return WHITE, ABSOLUTE, difference
    if last_two == ["w", "w"]:
        return BLACK, ABSOLUTE, difference
    if last_two == ["b", "b"]:
        return WHITE, ABSOLUTE, difference
    if difference == 1:
        return BLACK, STRONG, difference
    if difference == -1:
        return WHITE, STRONG, difference
    return (BLACK if played[-1] == "w" else WHITE), MILD, difference


@dataclass(slots=True)
class _CardDraft:
    """One entrant's card while the rounds are replayed."""

    colours: list[str | None] = field(default_factory=list)
    floats: list[str | None] = field(default_factory=list)
    opponents: set = field(default_factory=set)
    had_bye: bool = False


def players_from_history(
    entrants: Sequence[tuple[Hashable, int]], rounds: Sequence[RoundRecord]
) -> list[SwissPlayer]:
    """Build the pairing cards. ``entrants`` is (player, TPN) for everyone still in the event."""
    points = {pid: 0 for pid, _ in entrants}
    drafts = {pid: _CardDraft() for pid, _ in entrants}
    opponents: dict[Hashable, set] = {pid: draft.opponents for pid, draft in drafts.items()}
    gave_up_bye: set[Hashable] = set()  # anyone (entrant or not) who may get no further PAB
    tpn_of = dict(entrants)
    for record in rounds:
        before = dict(points)
        # this round's (colour, float) of everyone who appears in it
        seen: dict[Hashable, tuple[str | None, str | None]] = {}
        for pair in record.pairs:
            white, black = pair.white, pair.black
            for pid in (white, black):
                points.setdefault(pid, 0)
            points[white] = points.get(white, 0) + pair.white_points2
            points[black] = points.get(black, 0) + 2 - pair.white_points2
            if pair.played:
                opponents.setdefault(white, set()).add(black)
                opponents.setdefault(black, set()).add(white)
                white_float = black_float = None
                white_before, black_before = before.get(white, 0), before.get(black, 0)
                if white_before != black_before:
                    white_float, black_float = (
                        ("down", "up") if white_before > black_before else ("up", "down")
                    )
                seen[white] = ("w", white_float)
                seen[black] = ("b", black_float)
            else:  # forfeit: no colour; scoring without playing is a downfloat (1.4.3)
                for pid, scored in ((white, pair.white_points2), (black, 2 - pair.white_points2)):
                    seen[pid] = (None, "down" if scored > 0 else None)
                    if scored >= 2:
                        gave_up_bye.add(pid)
        for pid, scored in record.byes:
            points[pid] = points.get(pid, 0) + scored
            if pid == record.pab or scored >= 2:
                gave_up_bye.add(pid)
            seen[pid] = (None, "down" if scored > 0 else None)
        for pid, draft in drafts.items():
            colour, float_ = seen.get(pid, (None, None))
            draft.colours.append(colour)
            draft.floats.append(float_)
    return [
        SwissPlayer(
            id=pid,
            tpn=tpn_of[pid],
            points2=points.get(pid, 0),
            colours=tuple(drafts[pid].colours),
            opponents=frozenset(drafts[pid].opponents),
            had_bye=pid in gave_up_bye,
            floats=tuple(drafts[pid].floats),
        )
        for pid, _ in entrants
    ]
