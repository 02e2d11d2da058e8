"""FIDE Tournament Report File: TRF-2026 (the player lines of TRF-2016) with the TRF(x) lines
older tools read.

Header: ``012`` name, ``042``/``052`` dates, ``062`` players, ``072`` rated players, ``092``
type, then the pairing lines: ``142`` number of rounds and ``152 W`` / ``152 B`` the initial
colour (the colour of the top seed in round 1; TRF-2026), ``192 FIDE_DUTCH_2025`` the pairing
system (Swiss only; the code the reference engines read), and the TRF(x) equivalents ``XXR`` and
``XXC white1`` / ``XXC black1`` (JaVaFo-style checkers).

A player who will not be paired in the round after the last one reported (withdrawn, or not
arrived yet) has that round's block already filled: ``0000 - Z`` (absent, no points); a
pairing engine leaves out every player whose block for the round it pairs is filled
(:func:`with_absent`).

Each player gets a ``001`` line: starting rank (TPN) in columns 5-8, name in 15-47, rating in
49-52, points in 81-84, rank in 86-89, then one 10-character block per round starting at
column 92: opponent's starting rank (4 digits, ``0000`` for none), colour (``w``/``b``/``-``) and
result (``1`` win, ``=`` draw, ``0`` loss, ``+``/``-`` forfeit win/loss, ``U`` pairing-allocated
bye, ``F``/``H``/``Z`` full/half/zero-point bye). The points column equals the sum of the
results. :func:`truncate` cuts a report to its first rounds, so that the history can be
exported round by round (the file a checker needs to re-pair the next round).
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
    #: The colour of the top seed in round 1: "w" or "b".
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
    lines.append(f"152 {t.initial_colour.upper()}")
    if "Dutch" in t.kind:
        lines.append("192 FIDE_DUTCH_2025")
    lines.append(f"XXR {t.rounds}")
    lines.append(f"XXC {'black1' if t.initial_colour == 'b' else 'white1'}")
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


def load(text: str) -> TrfTournament:
    """Read what :func:`dump` writes (and the 001/XXR lines of other TRF files)."""
    name, rounds, players, colour = "", 0, [], "w"
    for line in text.splitlines():
        code = line[:3]
        if code == "012":
            name = line[4:].strip()
        elif code == "152" and line[4:].strip().upper() in ("W", "B"):
            colour = line[4:].strip().lower()
        elif code == "XXC" and line[4:].strip().lower().startswith(("white1", "black1")):
            colour = line[4:].strip()[0].lower()
        elif code in ("XXR", "142"):
            rounds = int(line[4:].strip())
        elif code == "001":
            games = []
            pos = 91
            while pos + 8 <= len(line):
                chunk = line[pos : pos + 8]
                opp = chunk[0:4].strip()
                games.append(TrfGame(int(opp) if opp and int(opp) else None, chunk[5], chunk[7]))
                pos += 10
            rating = line[48:52].strip()
            players.append(
                TrfPlayer(
                    start_rank=int(line[4:8]),
                    name=line[14:47].strip(),
                    rating=int(rating) if rating else 0,
                    rank=int(line[85:89]),
                    games=tuple(games),
                )
            )
            declared = float(line[80:84])
            if abs(declared - players[-1].points) > 1e-9:
                raise ValueError(f"player {players[-1].start_rank}: points != sum of results")
    return TrfTournament(name, rounds, tuple(players), initial_colour=colour)


#: The block of a player absent from a round (not paired, no points).
ABSENT = TrfGame(None, "-", "Z")


def with_absent(t: TrfTournament, absent: set[int]) -> TrfTournament:
    """The report with the players ``absent`` (start ranks) marked absent (``0000 - Z``) in
    the round after the last one reported, so that a pairing engine leaves them out of it."""
    played = max((len(p.games) for p in t.players), default=0)
    players = tuple(
        replace(p, games=p.games + (ABSENT,) * (played + 1 - len(p.games)))
        if p.start_rank in absent
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
