"""TRF reports built from short block strings ("0002 w 1"), for the tests of the reader."""

from __future__ import annotations

from tournaments.pairing.trf import TrfGame


def trf_report(*lines: tuple[int, str]) -> str:
    """A report with one 001 line per (start rank, blocks): blocks as "0002 w 1" strings."""
    out = ["012 Read back", "XXR 3"]
    for rank, blocks in lines:
        games = [TrfGame(int(b[:4]) or None, b[5], b[7]) for b in blocks.split("|") if b.strip()]
        points = sum(
            {"1": 1, "+": 1, "U": 1, "F": 1, "=": 0.5, "H": 0.5}.get(g.result, 0) for g in games
        )
        head = f"001 {rank:4d}      {'p' + str(rank):<33} {'':>4} {'':3} {'':>11} {'':10} {points:4.1f} {0:4d}"
        out.append(
            head + "".join(f"  {(g.opponent or 0):04d} {g.colour} {g.result}" for g in games)
        )
    return "\n".join(out) + "\n"
