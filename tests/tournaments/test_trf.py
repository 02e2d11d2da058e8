"""TRF export: fixed columns, XXR, points equal the sum of the results."""

from __future__ import annotations

import pytest

from tests.tournaments.pairing.reports import trf_report
from tournaments.pairing.trf import TrfGame, dump, from_history, load


def sample():
    return from_history(
        name="Autumn Swiss",
        rounds=2,
        entrants=[(1, "alice", 1700), (2, "bob", 1600), (3, "carol", 0)],
        history=[
            {1: TrfGame(2, "w", "1"), 2: TrfGame(1, "b", "0"), 3: TrfGame(None, "-", "U")},
            {1: TrfGame(3, "b", "="), 3: TrfGame(1, "w", "="), 2: TrfGame(None, "-", "U")},
        ],
        ranks={1: 1, 3: 2, 2: 3},
    )


def test_player_lines_use_the_trf_columns():
    text = dump(sample())
    assert "XXR 2" in text.splitlines()
    line = next(ln for ln in text.splitlines() if ln.startswith("001    1"))
    assert line[14:19] == "alice"
    assert line[48:52] == "1700"
    assert line[80:84] == " 1.5"
    assert line[85:89] == "   1"
    assert line[91:99] == "0002 w 1"
    assert line[101:109] == "0003 b ="


def test_round_trip_and_scores_equal_sum_of_results():
    parsed = load(dump(sample()))
    assert parsed.rounds == 2
    assert {p.start_rank: p.points for p in parsed.players} == {1: 1.5, 2: 1.0, 3: 1.5}


def test_reader_rejects_points_that_are_not_the_sum():
    text = dump(sample()).replace(" 1.5    1", " 2.5    1")
    with pytest.raises(ValueError):
        load(text)


# --- a whole Swiss, exported and read back round by round ----------------------------------------

import random  # noqa: E402

from tournaments.pairing.dutch import (  # noqa: E402
    PlayedPair,
    RoundRecord,
    pair_round,
    players_from_history,
)
from tournaments.pairing.trf import truncate  # noqa: E402

CODE = {2: ("1", "0"), 1: ("=", "="), 0: ("0", "1")}
FORFEIT = {2: ("+", "-"), 0: ("-", "+")}


def simulate(n=23, rounds=6, seed=4):
    rng = random.Random(seed)
    entrants = [(i, i) for i in range(1, n + 1)]
    history: list[RoundRecord] = []
    trf_rounds: list[dict[int, TrfGame]] = []
    pairings = []
    for number in range(1, rounds + 1):
        result = pair_round(
            players_from_history(entrants, history), round_number=number, total_rounds=rounds
        )
        pairings.append(result)
        pairs, games = [], {}
        for w, b in result.pairs:
            played = rng.random() > 0.05
            pts = rng.choice((2, 1, 0)) if played else rng.choice((2, 0))
            pairs.append(PlayedPair(w, b, pts, played=played))
            rw, rb = (CODE if played else FORFEIT)[pts]
            games[w], games[b] = TrfGame(b, "w", rw), TrfGame(w, "b", rb)
        byes = ()
        if result.bye is not None:
            byes = ((result.bye, 2),)
            games[result.bye] = TrfGame(None, "-", "U")
        history.append(RoundRecord(tuple(pairs), byes, result.bye))
        trf_rounds.append(games)
    doc = from_history(
        name="Sim",
        rounds=rounds,
        entrants=[(i, f"player{i}", 1500) for i, _ in entrants],
        history=trf_rounds,
    )
    return entrants, history, pairings, doc


def cards_from_trf(t, entrants):
    """Rebuild the engine's records from a TRF read back (a checker's view of the file)."""
    history = []
    for r in range(max((len(p.games) for p in t.players), default=0)):
        pairs, byes, pab = [], [], None
        for p in t.players:
            g = p.games[r]
            if g.opponent is None:
                pts = {"U": 2, "F": 2, "H": 1}.get(g.result, 0)
                byes.append((p.start_rank, pts))
                if g.result == "U":
                    pab = p.start_rank
            elif g.colour == "w":
                played = g.result not in "+-"
                pts = {"1": 2, "=": 1, "0": 0, "+": 2, "-": 0}[g.result]
                pairs.append(PlayedPair(p.start_rank, g.opponent, pts, played=played))
        history.append(RoundRecord(tuple(pairs), tuple(byes), pab))
    return players_from_history(entrants, history)


def test_full_swiss_trf_scores_are_the_sum_of_results_and_the_engine_totals():
    entrants, history, _, doc = simulate()
    text = dump(doc)
    for header in ("142 6", "152 W", "192 FIDE_DUTCH_2025", "XXR 6", "XXC white1"):
        assert header in text.splitlines()
    parsed = load(text.replace("\n", "\r"))  # CR-only files (as bbpPairings writes) read too
    engine = {p.id: p.points2 / 2 for p in players_from_history(entrants, history)}
    assert {p.start_rank: p.points for p in parsed.players} == engine
    for p in parsed.players:  # opponents and colours are mirrored
        for r, g in enumerate(p.games):
            if g.opponent:
                other = parsed.players[g.opponent - 1].games[r]
                assert other.opponent == p.start_rank and {g.colour, other.colour} == {"w", "b"}


def test_every_round_is_reproduced_from_the_trf_of_the_rounds_before():
    entrants, _, pairings, doc = simulate()
    for r, expected in enumerate(pairings):
        before = load(dump(truncate(doc, r)))
        assert before.rounds == 6
        cards = cards_from_trf(before, entrants)
        again = pair_round(cards, round_number=r + 1, total_rounds=6)
        assert again.pairs == expected.pairs and again.bye == expected.bye, f"round {r + 1}"


# --- what an outside engine needs: the system code, the initial colour, absences -----------------


def test_an_initial_colour_of_black_is_written_and_read_back():
    doc = sample()
    black = from_history(
        name=doc.name,
        rounds=2,
        entrants=[(p.start_rank, p.name, p.rating) for p in doc.players],
        history=[],
        initial_colour="b",
    )
    lines = dump(black).splitlines()
    assert "152 B" in lines and "XXC black1" in lines and "152 W" not in lines
    assert load(dump(black)).initial_colour == "b"
    assert load(dump(doc)).initial_colour == "w"


def test_players_marked_absent_get_a_zero_point_block_in_the_next_round_only():
    from tournaments.pairing.trf import ABSENT, with_absent

    doc = with_absent(sample(), {2: ABSENT})
    by_rank = {p.start_rank: p for p in load(dump(doc)).players}
    assert len(by_rank[2].games) == 3 and by_rank[2].games[2] == TrfGame(None, "-", "Z")
    assert len(by_rank[1].games) == 2 and len(by_rank[3].games) == 2
    line = next(ln for ln in dump(doc).splitlines() if ln.startswith("001    2"))
    assert line[111:119] == "0000 - Z"


# --- reading the rounds back: every game checked from both sides -------------------------------


def test_reported_rounds_reads_games_byes_and_planned_blocks():
    from tournaments.pairing.trf import ReportedPair, reported_rounds

    text = trf_report(
        (1, "0002 w 1|0003 b ="),
        (2, "0001 b 0|0000 - U|0000 - H"),
        (3, "0000 - U|0001 w ="),
    )
    event = reported_rounds(load(text))
    assert [r.pairs for r in event.rounds] == [
        (ReportedPair(1, 2, 2),),
        (ReportedPair(3, 1, 1),),
    ]
    assert [r.byes for r in event.rounds] == [((3, "pab"),), ((2, "pab"),)]
    assert event.planned == ((3, 2, "half"),)


def test_a_forfeit_is_read_as_unplayed_and_without_colours_the_lower_rank_is_white():
    from tournaments.pairing.trf import ReportedPair, reported_rounds

    event = reported_rounds(load(trf_report((1, "0002 - -"), (2, "0001 - +"))))
    assert event.rounds[0].pairs == (ReportedPair(1, 2, 0, forfeit=True),)


@pytest.mark.parametrize(
    ("lines", "says"),
    [
        (((1, "0002 w 1"), (2, "0003 b 0"), (3, "0002 w 1")), "whose line does not say so"),
        (((1, "0002 w 1"), (2, "0001 w 0")), "opposite colours"),
        (((1, "0002 w 1"), (2, "0001 b 1")), "inconsistent"),
        (((1, "0009 w 1"), (2, "0000 - U")), "not in the report"),
        (((1, "0002 w  "), (2, "0001 b  ")), "no result"),
        (((1, "0002 - 1"), (2, "0001 - 0")), "without colours"),
        (((1, "0002 w 1"), (1, "0000 - U")), "same starting rank"),
        (((1, "0002 w 1|0000 - U"), (2, "0001 b 0|0003 w 1"), (3, "0000 - U|0002 b 0")), None),
    ],
)
def test_reported_rounds_refuses_a_report_that_contradicts_itself(lines, says):
    from tournaments.pairing.trf import TrfError, reported_rounds

    text = trf_report(*lines)
    if says is None:  # the last case is consistent
        reported_rounds(load(text))
        return
    with pytest.raises(TrfError, match=says):
        reported_rounds(load(text))


def test_a_double_forfeit_is_read_as_two_absences():
    from tournaments.pairing.trf import reported_rounds

    text = trf_report((1, "0002 w -|0003 w 1"), (2, "0001 b -|0000 - U"), (3, "0000 - U|0001 b 0"))
    event = reported_rounds(load(text))
    assert event.rounds[0].pairs == () and event.rounds[0].byes == (
        (1, "zero"),
        (2, "zero"),
        (3, "pab"),
    )


def test_a_pab_already_given_for_a_round_to_come_is_refused():
    from tournaments.pairing.trf import TrfError, reported_rounds

    text = trf_report((1, "0002 w 1|0000 - H"), (2, "0001 b 0"), (3, "0000 - Z|0000 - U"))
    with pytest.raises(TrfError, match="not played yet"):
        reported_rounds(load(text))


def test_the_reader_names_the_line_it_cannot_read():
    from tournaments.pairing.trf import TrfError

    with pytest.raises(TrfError, match="Line 2"):
        load("012 x\n001 abcd\n")
    with pytest.raises(TrfError, match="Line 1: round 1 has an unknown colour or result"):
        load(
            trf_report((1, "0002 x 1"), (2, "0001 b 0"))
            .split("\n", 2)[2]
            .replace("0002 w", "0002 x")
        )


@pytest.mark.parametrize(
    ("round1", "colour"),
    [
        ("0002 w 1|0001 b 0", "w"),  # rank 1 (odd) had white: white
        ("0002 b 1|0001 w 0", "b"),  # rank 1 (odd) had black: black
    ],
)
def test_a_report_without_an_initial_colour_takes_it_from_its_first_round(round1, colour):
    from tournaments.pairing.trf import initial_colour_of

    first, second = round1.split("|")
    text = trf_report((1, first), (2, second)).replace("XXR 3\n", "XXR 1\n")
    assert "152" not in text and "XXC" not in text
    doc = load(text)
    assert doc.initial_colour == "" and initial_colour_of(doc) == colour


def test_an_even_rank_that_was_highest_in_its_pair_gives_the_other_colour():
    from tournaments.pairing.trf import initial_colour_of

    # Rank 1 did not play round 1; rank 2 met rank 3 with white: the initial colour was black.
    text = trf_report((1, "0000 - Z"), (2, "0003 w 1"), (3, "0002 b 0"))
    assert initial_colour_of(load(text)) == "b"
