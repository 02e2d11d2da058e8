"""FIDE Tournament Report File: TRF-2026 (the player lines of TRF-2016) with the TRF(x) lines
older tools read; parsing, writing, ``with_absent`` and ``truncate``.

The lines and columns written: docs/tournaments.md, "The TRF export".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date

RESULT_POINTS = {
    "1": 1.0,
    "=": 0.5,
    "0": 0.0,
    "+": 1.0,
    "-": 0.0,
    "U": 1.0,
    "F": 1.0,
    "H": 0.5,
    "Z": 0.0,
    " ": 0.0,
    "W": 1.0,
    "D": 0.5,
    "L": 0.0,
}


@dataclass(frozen=True)
class TrfGame:
    opponent: int | None  # opponent's starting rank, None for a bye / unplayed round
    colour: str  # "w", "b" or "-"
    result: str  # one of RESULT_POINTS


@dataclass(frozen=True)
class TrfPlayer:
    start_rank: int
    name: str
    rating: int = 0
    rank: int = 0
    games: tuple[TrfGame, ...] = ()

    @property
    def points(self) -> float:
        return sum(RESULT_POINTS[g.result] for g in self.games)


@dataclass(frozen=True)
class TrfTournament:
    name: str
    rounds: int
    players: tuple[TrfPlayer, ...]
    start: date | None = None
    end: date | None = None
    kind: str = "Swiss (FIDE Dutch)"
    extra: dict = field(default_factory=dict)
    #: The colour of the top seed in round 1: "w" or "b" ("" when a report read does not say:
    #: see :func:`initial_colour_of`).
    initial_colour: str = "w"


def _points(value: float) -> str:
    return f"{value:4.1f}"


def dump(t: TrfTournament) -> str:
    lines = [f"012 {t.name}"]
    if t.start:
        lines.append(f"042 {t.start.isoformat()}")
    if t.end:
        lines.append(f"052 {t.end.isoformat()}")
    lines.append(f"062 {len(t.players)}")
    lines.append(f"072 {sum(1 for p in t.players if p.rating)}")
    lines.append(f"092 {t.kind}")
    lines.append(f"142 {t.rounds}")
    colour = t.initial_colour or "w"
    lines.append(f"152 {colour.upper()}")
    if "Dutch" in t.kind:
        lines.append("192 FIDE_DUTCH_2025")
    lines.append(f"XXR {t.rounds}")
    lines.append(f"XXC {'black1' if colour == 'b' else 'white1'}")
    for p in sorted(t.players, key=lambda p: p.start_rank):
        name = p.name[:33]
        head = (
            f"001 {p.start_rank:4d}      {name:<33} {p.rating if p.rating else '':>4}"
            f" {'':3} {'':>11} {'':10} {_points(p.points)} {p.rank:4d}"
        )
        assert len(head) == 89, len(head)
        blocks = "".join(f"  {(g.opponent or 0):04d} {g.colour} {g.result}" for g in p.games)
        lines.append(head + blocks)
    return "\n".join(lines) + "\n"


class TrfError(ValueError):
    """A report this reader cannot take, with a sentence saying where and why."""


def load(text: str) -> TrfTournament:
    """Read what :func:`dump` writes (and the ``001``, ``012``, ``042``, ``142``/``XXR`` and
    ``152``/``XXC`` lines of other TRF files; other lines are skipped). Raises
    :class:`TrfError`."""
    name, rounds, players, colour, start = "", 0, [], "", None
    for number, line in enumerate(text.splitlines(), start=1):
        code = line[:3]
        try:
            if code == "012":
                name = line[4:].strip()
            elif code == "042":
                start = _date(line[4:].strip())
            elif code == "152" and line[4:].strip().upper() in ("W", "B"):
                colour = line[4:].strip().lower()
            elif code == "XXC" and line[4:].strip().lower().startswith(("white1", "black1")):
                colour = line[4:].strip()[0].lower()
            elif code in ("XXR", "142"):
                rounds = int(line[4:].strip())
            elif code == "001":
                players.append(_player(line))
        except (ValueError, IndexError) as exc:
            detail = exc if isinstance(exc, TrfError) else "it is not in the TRF layout"
            raise TrfError(f"Line {number}: {detail}.") from None
    return TrfTournament(name, rounds, tuple(players), start=start, initial_colour=colour)


def _date(value: str) -> date | None:
    for sep in ("-", "/", "."):
        parts = value.split(sep)
        if len(parts) == 3 and len(parts[0]) == 4:
            return date(int(parts[0]), int(parts[1]), int(parts[2]))
    return None


def _player(line: str) -> TrfPlayer:
    games = []
    pos = 91
    while pos < len(line) and line[pos:].strip():
        chunk = line[pos : pos + 8].ljust(8)
        opp = chunk[0:4].strip()
        result = chunk[7]
        if result not in RESULT_POINTS or chunk[5] not in "wb- ":
            raise TrfError(f"round {len(games) + 1} has an unknown colour or result {chunk!r}")
        games.append(TrfGame(int(opp) if opp and int(opp) else None, chunk[5], result))
        pos += 10
    rating = line[48:52].strip()
    rank = line[85:89].strip()
    player = TrfPlayer(
        start_rank=int(line[4:8]),
        name=line[14:47].strip(),
        rating=int(rating) if rating else 0,
        rank=int(rank) if rank else 0,
        games=tuple(games),
    )
    declared = line[80:84].strip()
    if declared and abs(float(declared) - player.points) > 1e-9:
        raise TrfError(
            f"player {player.start_rank}'s points ({declared}) are not the sum of the results "
            f"({player.points:g})"
        )
    return player


#: The block of a player absent from a round (not paired, no points).
ABSENT = TrfGame(None, "-", "Z")


def with_absent(t: TrfTournament, blocks: dict[int, TrfGame]) -> TrfTournament:
    """The report with the players not paired in the round after the last one reported (start
    rank -> their block for it: :data:`ABSENT`, or a late entry's ``0000 - H``, say) filled in
    for it, so that a pairing engine leaves them out of it."""
    played = max((len(p.games) for p in t.players), default=0)
    players = tuple(
        replace(
            p,
            games=p.games + (ABSENT,) * (played - len(p.games)) + (blocks[p.start_rank],),
        )
        if p.start_rank in blocks
        else p
        for p in t.players
    )
    return replace(t, players=players, extra=dict(t.extra))


def truncate(t: TrfTournament, rounds: int) -> TrfTournament:
    """The report as it stood after ``rounds`` rounds (points recomputed; ranks dropped)."""
    players = tuple(replace(p, rank=0, games=p.games[:rounds]) for p in t.players)
    return replace(t, players=players, end=None, extra=dict(t.extra))


def from_history(
    *,
    name: str,
    rounds: int,
    entrants: Sequence[tuple[int, str, int]],  # (start rank, name, rating)
    history: Sequence[dict[int, TrfGame]],  # per round: start rank -> game
    ranks: dict[int, int] | None = None,
    start: date | None = None,
    end: date | None = None,
    initial_colour: str = "w",
) -> TrfTournament:
    players = []
    for start_rank, pname, rating in entrants:
        games = tuple(rnd.get(start_rank, TrfGame(None, "-", "Z")) for rnd in history)
        players.append(
            TrfPlayer(start_rank, pname, rating, (ranks or {}).get(start_rank, 0), games)
        )
    return TrfTournament(name, rounds, tuple(players), start, end, initial_colour=initial_colour)


# --- reading the rounds of a report ------------------------------------------------------------

#: A block with no opponent, by its result letter: the PAB (``U``), or an unplayed round with a
#: win's, a draw's or no points. Blank, ``Z``, ``-`` and ``0`` are an absence.
UNPLAYED = {
    "U": "pab",
    "F": "full",
    "+": "full",
    "W": "full",
    "H": "half",
    "=": "half",
    "D": "half",
    "Z": "zero",
    "-": "zero",
    "0": "zero",
    "L": "zero",
    " ": "zero",
}
_WON, _DRAWN, _LOST = ("1", "+", "W"), ("=", "D"), ("0", "-", "L")


@dataclass(frozen=True)
class ReportedPair:
    white: int  # starting ranks
    black: int
    white_points2: int  # 2 win, 1 draw, 0 loss for white
    forfeit: bool = False


@dataclass(frozen=True)
class ReportedRound:
    pairs: tuple[ReportedPair, ...] = ()
    #: (starting rank, kind): kind is "pab", "full", "half" or "zero" (see :data:`UNPLAYED`).
    byes: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class ReportedEvent:
    rounds: tuple[ReportedRound, ...]
    #: Blocks already filled for rounds after the last one played: (round, starting rank, kind).
    planned: tuple[tuple[int, int, str], ...] = ()


def reported_rounds(t: TrfTournament) -> ReportedEvent:
    """The rounds a report holds, each game checked from both sides: the opponent's line names
    the player back, with the other colour and the complementary result (or a forfeit of both,
    read as two absences). The rounds played are
    those with at least one game; blocks after them (a player announced absent, or given
    a bye, for a round to come) are ``planned``. Raises :class:`TrfError`."""
    by_rank = {p.start_rank: p for p in t.players}
    if len(by_rank) != len(t.players):
        raise TrfError("Two players have the same starting rank.")
    if any(rank < 1 for rank in by_rank):
        raise TrfError("Starting ranks start at 1.")
    played = 0
    for p in t.players:
        for index, g in enumerate(p.games, start=1):
            if g.opponent is not None:
                played = max(played, index)
    rounds = []
    for index in range(played):
        pairs, byes = [], []
        for p in t.players:
            if index >= len(p.games):
                continue
            g = p.games[index]
            if g.opponent is None:
                byes.append((p.start_rank, UNPLAYED[g.result]))
                continue
            pair = _pair(index + 1, p, g, by_rank)
            if pair is DOUBLE_FORFEIT:
                byes.append((p.start_rank, "zero"))
            elif pair is not None:
                pairs.append(pair)
        rounds.append(ReportedRound(tuple(pairs), tuple(byes)))
    planned = tuple(
        (index, p.start_rank, _planned(index, p, g))
        for p in t.players
        for index, g in enumerate(p.games[played:], start=played + 1)
    )
    return ReportedEvent(tuple(rounds), planned)


def _planned(number: int, p: TrfPlayer, g: TrfGame) -> str:
    kind = UNPLAYED[g.result] if g.opponent is None else "pab"
    if kind == "pab":
        raise TrfError(
            f"Round {number} is not played yet, but player {p.start_rank} already has a game or "
            "a pairing-allocated bye in it."
        )
    return kind


#: What :func:`_pair` answers for a game both players forfeited: neither played nor scored, so
#: for the pairing and the scores each of them was absent (a zero-point bye), and they may meet.
DOUBLE_FORFEIT = ReportedPair(0, 0, 0, forfeit=True)


def initial_colour_of(t: TrfTournament) -> str:
    """The initial colour ("w" or "b") a report states (``152``/``XXC``) or, when it does not,
    the one its first round shows (FIDE Art. 5.2.5: in each pair the higher-ranked player, of
    the lower starting rank, got the initial colour if that rank is odd, the other if even);
    "w" for a report with no game."""
    if t.initial_colour:
        return t.initial_colour
    games = [
        (p.start_rank, p.games[0].colour)
        for p in t.players
        if p.games and p.games[0].opponent and p.games[0].opponent > p.start_rank
    ]
    for rank, colour in sorted(games):
        if colour in ("w", "b"):
            other = "b" if colour == "w" else "w"
            return colour if rank % 2 else other
    return "w"


def _pair(number: int, p: TrfPlayer, g: TrfGame, by_rank: dict) -> ReportedPair | None:
    """The pair of ``p``'s game in round ``number``, once (from its white, or lower-ranked,
    side); None from the other side; :data:`DOUBLE_FORFEIT` from both sides of a game both
    players forfeited."""
    where = f"Round {number}: player {p.start_rank}"
    other = by_rank.get(g.opponent)
    if other is None:
        raise TrfError(f"{where} played {g.opponent}, who is not in the report.")
    if other.start_rank == p.start_rank:
        raise TrfError(f"{where} is paired with themself.")
    back = other.games[number - 1] if len(other.games) >= number else None
    if back is None or back.opponent != p.start_rank:
        raise TrfError(f"{where} played {other.start_rank}, whose line does not say so.")
    colours = {g.colour, back.colour}
    if colours not in ({"w", "b"}, {"-"}):
        raise TrfError(f"{where} and {other.start_rank} do not have opposite colours.")
    if g.result == " " or back.result == " ":
        raise TrfError(f"{where} has no result against {other.start_rank} yet.")
    mine, theirs = _score(g.result), _score(back.result)
    if mine is None or theirs is None:
        raise TrfError(f"{where}: {g.result!r} is not the result of a game.")
    forfeit = g.result in "+-" or back.result in "+-"
    if colours == {"-"} and not forfeit:
        raise TrfError(f"{where} and {other.start_rank} played a game without colours.")
    if g.result == back.result == "-":
        return DOUBLE_FORFEIT
    if mine + theirs != 2:
        raise TrfError(f"{where} and {other.start_rank}: the results are inconsistent.")
    white_is_p = g.colour == "w" or (g.colour == "-" and p.start_rank < other.start_rank)
    if not white_is_p:
        return None
    return ReportedPair(p.start_rank, other.start_rank, mine, forfeit=forfeit)


def _score(result: str) -> int | None:
    if result in _WON:
        return 2
    if result in _DRAWN:
        return 1
    if result in _LOST:
        return 0
    return None
