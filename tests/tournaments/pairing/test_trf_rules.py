"""The TRF reader's rules one by one: the dates it reads, every refusal with its sentence, the
rounds and planned blocks of a report, the initial colour read from round 1, and
``with_absent``. Written to kill the mutants ``bench/mutation.py`` found alive in
``tournaments/pairing/trf.py``."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

import pytest

from tests.tournaments.pairing.reports import trf_report
from tournaments.pairing.trf import (
    ABSENT,
    ReportedPair,
    TrfError,
    TrfGame,
    TrfTournament,
    dump,
    from_history,
    initial_colour_of,
    load,
    reported_rounds,
    truncate,
    with_absent,
)


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("2026-03-01", date(2026, 3, 1)),
        ("2026/03/01", date(2026, 3, 1)),
        ("2026.03.01", date(2026, 3, 1)),
        ("01.03.2026", None),  # day first: not read rather than misread
        ("2026-03", None),
        ("", None),
    ],
)
def test_the_start_date_is_read_year_first_with_any_of_three_separators(written, read):
    assert load(f"012 Dated\n042 {written}\n").start == read


def refused(text: str) -> str:
    """The sentence ``reported_rounds`` refuses the report with."""
    with pytest.raises(TrfError) as info:
        reported_rounds(load(text))
    return str(info.value)


@pytest.mark.parametrize(
    ("lines", "sentence"),
    [
        (
            ((1, "0002 w 1"), (1, "0000 - U")),
            "Two players have the same starting rank.",
        ),
        (((0, "0000 - U"), (1, "0000 - U")), "Starting ranks start at 1."),
        (((1, "0001 w 1"), (2, "0000 - U")), "Round 1: player 1 is paired with themself."),
        (
            ((1, "0002 w  "), (2, "0001 b 0")),
            "Round 1: player 1 has no result against 2 yet.",
        ),
        (
            ((1, "0002 w 1"), (2, "0001 b  ")),
            "Round 1: player 1 has no result against 2 yet.",
        ),
        (
            ((1, "0002 w U"), (2, "0001 b 0")),
            "Round 1: player 1: 'U' is not the result of a game.",
        ),
        (
            ((1, "0002 w 1|0002 w 1"), (2, "0001 b 0")),
            "Round 2: player 1 played 2, whose line does not say so.",
        ),
        (
            ((1, "0002 w 1|0000 - H"), (2, "0001 b 0"), (3, "0000 - Z|0000 - U")),
            "Round 2 is not played yet, but player 3 already has a game or a pairing-allocated "
            "bye in it.",
        ),
    ],
)
def test_a_report_is_refused_with_a_sentence_naming_the_round_the_player_and_why(lines, sentence):
    assert refused(trf_report(*lines)) == sentence


def test_a_forfeit_on_one_side_only_makes_the_game_a_forfeit():
    event = reported_rounds(load(trf_report((1, "0002 w +"), (2, "0001 b 0"))))
    assert event.rounds[0].pairs == (ReportedPair(1, 2, 2, forfeit=True),)


def test_a_report_with_no_game_has_no_round_yet_and_its_blocks_are_planned():
    event = reported_rounds(load(trf_report((1, "0000 - H"), (2, "0000 - Z"))))
    assert event.rounds == ()
    assert event.planned == ((1, 1, "half"), (1, 2, "zero"))


def test_a_player_with_no_block_for_a_round_is_skipped_and_the_players_after_him_are_read():
    # Round 2: player 2 has no block; player 3 (white, read after player 2) met player 1.
    text = trf_report((1, "0002 w 1|0003 b 0"), (2, "0001 b 0"), (3, "0000 - U|0001 w 1"))
    event = reported_rounds(load(text))
    assert [r.pairs for r in event.rounds] == [
        (ReportedPair(1, 2, 2),),
        (ReportedPair(3, 1, 2),),
    ]
    assert [r.byes for r in event.rounds] == [((3, "pab"),), ()]


def _no_colour(*lines: tuple[int, str]) -> TrfTournament:
    text = re.sub(r"XXR \d\n", "XXR 1\n", trf_report(*lines))
    doc = load(text)
    assert doc.initial_colour == ""
    return doc


def test_an_even_rank_highest_in_its_pair_with_black_gives_white_as_the_initial_colour():
    assert initial_colour_of(_no_colour((1, "0000 - Z"), (2, "0003 b 1"), (3, "0002 w 0"))) == "w"


def test_a_player_with_no_game_at_all_is_passed_over_for_the_initial_colour():
    assert initial_colour_of(_no_colour((1, ""), (2, "0003 w 1"), (3, "0002 b 0"))) == "b"


def test_a_report_with_no_game_and_no_stated_colour_gives_white():
    assert initial_colour_of(_no_colour((1, "0000 - U"))) == "w"


def test_with_absent_copies_the_extra_lines_and_takes_a_report_without_players():
    extra = {"XXZ": "kept"}
    empty = with_absent(TrfTournament("Empty", 1, (), extra=extra), {1: ABSENT})
    assert empty.players == () and empty.extra == extra and empty.extra is not extra
    one = TrfTournament("One", 1, load(trf_report((1, ""))).players, extra=extra)
    filled = with_absent(one, {1: ABSENT})
    assert filled.players[0].games == (ABSENT,) and filled.extra is not extra


def test_truncate_keeps_the_rounds_asked_and_drops_the_ranks_and_the_end_date():
    extra = {"XXZ": "kept"}
    full = TrfTournament(
        "Two rounds",
        2,
        load(trf_report((1, "0002 w 1|0002 b 1"), (2, "0001 b 0|0001 w 0"))).players,
        start=date(2026, 3, 1),
        end=date(2026, 3, 2),
        extra=extra,
    )
    full = replace(full, players=tuple(replace(p, rank=p.start_rank) for p in full.players))
    cut = truncate(full, 1)
    assert [(p.rank, len(p.games), p.points) for p in cut.players] == [(0, 1, 1.0), (0, 1, 0.0)]
    assert cut.start == date(2026, 3, 1) and cut.end is None
    assert cut.extra == extra and cut.extra is not extra


def spring_open(**options) -> TrfTournament:
    """Three players, two rounds played of three; bob has no block for round 2 (absent)."""
    return from_history(
        name="Spring Open",
        rounds=3,
        entrants=[(1, "Alexandra Konstantinopoulou-Smithers", 1712), (2, "bob", 0), (3, "carol", 1500)],
        history=[
            {1: TrfGame(2, "w", "1"), 2: TrfGame(1, "b", "0"), 3: TrfGame(None, "-", "U")},
            {1: TrfGame(3, "b", "="), 3: TrfGame(1, "w", "=")},
        ],
        ranks={1: 1, 3: 2},
        **options,
    )  # fmt: skip


SPRING_OPEN = """\
012 Spring Open
042 2026-04-01
052 2026-04-03
062 3
072 2
092 Swiss (FIDE Dutch)
142 3
152 W
192 FIDE_DUTCH_2025
XXR 3
XXC white1
001    1      Alexandra Konstantinopoulou-Smith 1712                             1.5    1  0002 w 1  0003 b =
001    2      bob                                                                0.0    0  0001 b 0  0000 - Z
001    3      carol                             1500                             1.5    2  0000 - U  0001 w =
"""  # noqa: E501


def test_a_report_is_written_line_for_line_in_the_trf_columns():
    # The name is cut to its 33 columns, an unrated player's rating and an unranked player's
    # rank are blank and 0, a player missing from a round is absent (0000 - Z) in it, and the
    # initial colour is white unless told.
    doc = spring_open(start=date(2026, 4, 1), end=date(2026, 4, 3))
    assert doc.initial_colour == "w"
    assert dump(doc) == SPRING_OPEN
    assert dump(replace(doc, initial_colour="")) == SPRING_OPEN


def test_what_is_written_is_read_back():
    doc = spring_open(start=date(2026, 4, 1), end=date(2026, 4, 3))
    read = load(dump(doc))
    assert (read.name, read.rounds, read.start, read.initial_colour) == (
        "Spring Open",
        3,
        date(2026, 4, 1),
        "w",
    )
    assert read.players == tuple(
        replace(p, name=p.name[:33]) for p in doc.players
    )  # rating, rank and every block
    assert (doc.start, doc.end) == (date(2026, 4, 1), date(2026, 4, 3))


PLAYER = f"001    1      {'p1':<33} {'':>4} {'':3} {'':>11} {'':10} {{points}} {0:4d}"


@pytest.mark.parametrize(
    ("blocks", "points", "games"),
    [
        # blanks after the last block are no round
        ("  0002 w 1    ", " 1.0", (TrfGame(2, "w", "1"),)),
        # the last block's blank result cut off with the line's trailing blanks: no result yet
        ("  0002 w", " 0.0", (TrfGame(2, "w", " "),)),
        # a four-digit starting rank
        ("  1234 b =", " 0.5", (TrfGame(1234, "b", "="),)),
    ],
)
def test_a_player_line_is_read_block_by_block(blocks, points, games):
    (player,) = load(PLAYER.format(points=points) + blocks + "\n").players
    assert player.games == games


@pytest.mark.parametrize(
    ("blocks", "chunk"),
    [("  0002 X 1  0003 w 1", "'0002 X 1'"), ("  0002 w 1  0003 X 1", "'0003 X 1'")],
)
def test_an_unknown_colour_is_refused_with_the_block_quoted(blocks, chunk):
    with pytest.raises(TrfError) as info:
        load(PLAYER.format(points=" 2.0") + blocks + "\n")
    assert (
        str(info.value)
        == f"Line 1: round {1 if '0002 X' in blocks else 2} has an unknown colour or result {chunk}."
    )


def player_line(*, start_rank: int = 1, points: str = " 0.0", rank: str = "   0") -> str:
    return f"001 {start_rank:4d}      {'p1':<33} {'':>4} {'':3} {'':>11} {'':10} {points} {rank}"


def test_four_digit_starting_ranks_and_ranks_and_a_blank_rank_are_read():
    (player,) = load(player_line(start_rank=1234, rank="1001") + "\n").players
    assert (player.start_rank, player.rank) == (1234, 1001)
    (player,) = load(player_line(rank="    ") + "\n").players
    assert player.rank == 0


def test_declared_points_of_ten_or_more_are_checked_against_the_results():
    line = player_line(points="11.0") + "  0000 - U" * 11
    assert load(line + "\n").players[0].points == 11.0
    with pytest.raises(TrfError) as info:
        load(player_line(points="10.0") + "  0000 - U" * 11 + "\n")
    assert str(info.value) == (
        "Line 1: player 1's points (10.0) are not the sum of the results (11)."
    )


def test_a_report_without_its_name_and_rounds_lines_has_an_empty_name_and_no_round():
    doc = load(player_line() + "\n")
    assert (doc.name, doc.rounds, doc.initial_colour) == ("", 0, "")


@pytest.mark.parametrize(
    ("lines", "colour"),
    [
        ("152 W", "w"),
        ("152 B", "b"),
        ("152 b", "b"),
        ("152 X", ""),  # not a colour: not stated
        ("XXC black1", "b"),
        ("XXC white1", "w"),
        ("999 B", ""),  # only the 152 and XXC lines state it
        ("999 black1", ""),
    ],
)
def test_the_initial_colour_is_read_from_the_152_or_the_xxc_line(lines, colour):
    assert load(f"012 Colours\n{lines}\n").initial_colour == colour


@pytest.mark.parametrize(("line", "rounds"), [("XXR 4", 4), ("142 5", 5)])
def test_the_number_of_rounds_is_read_from_the_xxr_or_the_142_line(line, rounds):
    assert load(f"012 Rounds\n{line}\n").rounds == rounds


def test_a_line_out_of_the_trf_layout_is_refused_with_its_number():
    with pytest.raises(TrfError) as info:
        load("012 x\n001 abcd\n")
    assert str(info.value) == "Line 2: it is not in the TRF layout."
