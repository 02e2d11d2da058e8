"""Go records in Pente.org's format: reading and writing them (``PASS``, ``Dead``, ``Komi``,
``Rejected Dead``), replaying them through ``GoGame`` (``replay_summary``), the ``replay``
command on a file that mixes Pente and Go records, and published games replayed to their end.

Boards are rows top first (row 9 first on 9x9), one character a column A..J (no I): ``.``
empty, ``1`` black, ``2`` white.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.engine import BadRecord, GoGame, Record, Termination, parse_record, parse_records
from games.engine.records import game_from_record, replay_record, replay_summary
from games.engine.records.model import DEAD_HEADER, KOMI_HEADER, PASS, REJECTED_HEADER
from games.engine.records.write import record_from_game, write_record
from tests.games.engine.go_play import FINISHED_9X9

DATA = Path(__file__).parent / "data"

WALLS = ["....12..."] * 9


def go(moves: str, game: str = "Go (9x9)", **headers: str) -> Record:
    """A Go record of ``moves`` (move text) with the given extra headers."""
    lines = [f'[Game "{game}"]'] + [f'[{name} "{value}"]' for name, value in headers.items()]
    return parse_record("\n".join(lines) + "\n\n" + moves + "\n")


def board(size: int, stones: dict[str, str]) -> list[str]:
    """A board of ``size`` rows holding ``stones`` ({"D4": "1"}), top row first."""
    rows = [["."] * size for _ in range(size)]
    columns = "ABCDEFGHJKLMNOPQRST"
    for name, colour in stones.items():
        rows[size - int(name[1:])][columns.index(name[0])] = colour
    return ["".join(row) for row in rows]


def turned_down(dead: str | list[str]) -> GoGame:
    """9x9: E5, D5, two passes, and black's marking of ``dead`` turned down: play goes on."""
    game = GoGame(9)
    for move in ("E5", "D5", "PASS", "PASS"):
        game.play(move)
    game.mark_dead(dead)
    game.reject()
    return game


def error(summary: dict) -> tuple:
    """(ply, move, code) of an error line, after checking its shape."""
    assert set(summary) == {"game", "error"}, summary
    assert set(summary["error"]) == {"ply", "move", "code", "detail"}
    assert summary["error"]["detail"]
    return summary["error"]["ply"], summary["error"]["move"], summary["error"]["code"]


# --------------------------------------------------------------------------- reading and writing


class TestReadWrite:
    def test_a_9x9_record_with_passes_and_dead_stones_round_trips_exactly(self):
        record = parse_record(FINISHED_9X9)
        assert record.game_name == "Go (9x9)" and record.go_size == 9
        assert record.moves.count(PASS) == 3 and len(record.moves) == 23
        assert record.dead == ("B5", "H5")
        assert record.result == "1-0"
        assert write_record(record) == FINISHED_9X9
        assert parse_record(write_record(record)) == record

    def test_pass_is_read_in_any_case_and_written_in_capitals(self):
        record = go("1. E5 pass 2. Pass F5 3. pASS *")
        assert record.moves == ("E5", PASS, PASS, "F5", PASS)
        assert "2. PASS F5 3. PASS *" in write_record(record)

    def test_pass_is_no_move_of_the_pente_family(self):
        with pytest.raises(BadRecord) as info:
            parse_record('[Game "Pente"]\n\n1. K10 PASS *\n')
        assert info.value.code == "bad_token"
        assert "or PASS" not in info.value.detail  # the Pente family's message, unchanged

    def test_a_bad_token_of_a_go_record_mentions_pass(self):
        with pytest.raises(BadRecord) as info:
            go("1. E5 Pas *")
        assert info.value.code == "bad_token" and "or PASS" in info.value.detail

    def test_the_three_names_and_speed_prefixes_give_the_size(self):
        assert go("*", "Go").go_size == 19
        assert go("*", "Go (13x13)").go_size == 13
        assert go("*", "Speed Go (9x9)").go_size == 9
        assert go("*", "Pente").go_size is None

    def test_the_record_of_a_counted_game_is_the_record_it_was_replayed_from(self):
        record = parse_record(FINISHED_9X9)
        game = game_from_record(record)
        again = record_from_game(game, record.headers)
        assert again == record
        assert write_record(again) == FINISHED_9X9
        # Without headers: the game's name, the result and the dead stones are filled in.
        fresh = record_from_game(game)
        assert fresh.headers == (("Game", "Go (9x9)"), ("Result", "1-0"), (DEAD_HEADER, "B5 H5"))
        assert fresh.moves == record.moves

    def test_a_game_counted_without_dead_stones_has_no_dead_header(self):
        game = GoGame(9)
        for move in ("E5", "PASS", "PASS"):
            game.play(move)
        game.mark_dead(())
        game.accept()
        record = record_from_game(game)
        assert record.header(DEAD_HEADER) is None and record.moves == ("E5", PASS, PASS)
        assert record.result == "1-0"  # 81 to 7.5
        assert replay_summary(record)["winner"] == 1

    def test_a_resigned_game_is_written_with_resign_in_the_resigners_slot(self):
        game = GoGame(13, komi=6.5)
        for move in ("D4", "K10", "PASS"):
            game.play(move)
        record = record_from_game(game, resigned_colour=2)
        assert record.game_name == "Go (13x13)"
        assert record.moves == ("D4", "K10", PASS, "Resign") and record.result == "1-0"
        assert record.header(KOMI_HEADER) == "6.5"
        text = write_record(record)
        assert '[Komi "6.5"]' in text and "2. PASS Resign 1-0" in text
        summary = replay_summary(parse_record(text))
        assert (summary["status"], summary["winner"], summary["plies"]) == ("finished", 1, 3)

    def test_a_rejected_marking_leaves_its_two_passes_and_replays_the_same(self):
        game = GoGame(9)
        for move in ("E5", "PASS", "PASS"):
            game.play(move)
        game.mark_dead("E5")
        game.reject()
        game.play("F5")  # white passed first, so white plays on
        record = record_from_game(game)
        assert record.moves == ("E5", PASS, PASS, "F5") and record.result == "*"
        replayed = game_from_record(record)
        assert replayed.board == game.board and replayed.to_move_seat == game.to_move_seat

    def test_a_rejected_marking_is_written_with_the_stones_it_proposed_and_comes_back(self):
        game = turned_down("D5")  # black passed first and proposes white's D5 dead
        game.play("C5")
        record = record_from_game(game)
        assert record.header(REJECTED_HEADER) == "D5"
        text = write_record(record)
        assert '[Rejected Dead "D5"]' in text
        assert replay_record(parse_record(text)).game.actions == game.actions

    def test_markings_rejected_in_turn_are_written_in_order_with_a_dash_for_none(self):
        game = turned_down([])
        for move in ("PASS", "PASS"):
            game.play(move)
        game.mark_dead(["E5", "D5"])
        game.reject()
        game.play("C5")
        text = write_record(record_from_game(game))
        assert '[Rejected Dead "-; D5 E5"]' in text
        assert replay_record(parse_record(text)).game.actions == game.actions

    def test_a_marking_rejected_with_no_move_since_comes_back_rejected_not_counted(self):
        game = turned_down("D5")  # black, who passed first, is to move, and resigns
        text = write_record(record_from_game(game, resigned_colour=1))
        assert "2. PASS PASS 3. Resign 0-1" in text
        replay = replay_record(parse_record(text))
        assert replay.game.actions == game.actions
        assert replay.outcome.termination is Termination.RESIGN and replay.winner == 2

    def test_a_record_without_the_header_turns_down_markings_of_no_stone(self):
        replay = replay_record(go("1. E5 D5 2. PASS PASS 3. C5 *"))
        assert replay.game.actions[4:7] == ["MARK", "REJECT", 38]  # C5

    def test_a_rejected_dead_point_without_a_stone_is_refused(self):
        with pytest.raises(BadRecord) as refused:
            replay_record(go("1. E5 D5 2. PASS PASS 3. C5 *", **{REJECTED_HEADER: "A1"}))
        assert refused.value.code == "bad_dead"
        assert refused.value.detail.startswith("Rejected Dead header: ")

    def test_a_game_header_of_another_game_is_refused(self):
        with pytest.raises(ValueError):
            record_from_game(GoGame(9), {"Game": "Go"})


# --------------------------------------------------------------------------- replay summaries


class TestSummaries:
    def test_a_game_finished_by_two_passes_is_counted_with_its_dead_stones(self):
        assert replay_summary(parse_record(FINISHED_9X9)) == {
            "game": "Go (9x9)",
            "plies": 23,
            "status": "finished",
            "captures": [1, 1],
            "board": WALLS,
            "dead": ["B5", "H5"],
            "score": {"black": 45.0, "white": 43.5},
            "winner": 1,
        }

    def test_without_the_dead_header_no_stone_is_dead(self):
        # B5 (white) and H5 (black) stay: each side's area touches the other colour, so no
        # empty point counts. Black: 10 stones; white: 10 stones + 7.5 komi.
        record = parse_record(FINISHED_9X9).with_header(DEAD_HEADER, None)
        assert replay_summary(record) == {
            "game": "Go (9x9)",
            "plies": 23,
            "status": "finished",
            "captures": [0, 0],
            "board": [".2..12.1." if i == 4 else row for i, row in enumerate(WALLS)],
            "dead": [],
            "score": {"black": 10.0, "white": 17.5},
            "winner": 2,
        }

    def test_the_marking_seat_is_the_one_that_passed_first(self):
        replay = replay_record(parse_record(FINISHED_9X9))
        game = replay.game
        assert game.marking_seat == 2  # white's PASS (ply 22) came before black's (ply 23)
        assert replay.outcome.termination is Termination.SCORE
        assert game.actions[-2:] == ["MARK B5 H5", "ACCEPT"]
        assert len(replay.seats) == len(game.actions) and replay.seats[-2:] == (2, 1)

    def test_a_komi_header_sets_whites_komi(self):
        summary = replay_summary(
            parse_record(FINISHED_9X9.replace("[Result", '[Komi "9"]\n[Result'))
        )
        assert summary["score"] == {"black": 45.0, "white": 45.0}
        assert (summary["status"], summary["winner"]) == ("finished", None)  # a draw

    def test_a_resigned_game_is_won_by_the_other_side_and_scored_as_it_stands(self):
        # Decision: the score of a resigned game is the area count of the board as it stands
        # (nothing dead), whoever it favours. After H5 (ply 7) white is to move and resigns.
        summary = replay_summary(go("1. E5 F5 2. E4 F4 3. PASS B5 4. H5 Resign 1-0", Dead="B5 H5"))
        assert summary == {
            "game": "Go (9x9)",
            "plies": 7,
            "status": "finished",
            "captures": [0, 0],
            "board": board(9, {"E5": "1", "E4": "1", "H5": "1", "F5": "2", "F4": "2", "B5": "2"}),
            "dead": [],  # the Dead header is read only at the end of two passes
            "score": {"black": 3.0, "white": 10.5},
            "winner": 1,
        }
        outcome = replay_record(go("1. E5 F5 2. Resign 0-1")).outcome
        assert outcome.termination is Termination.RESIGN and outcome.winners == (2,)
        forfeit = replay_record(go("1. E5 Forfeit 1-0")).outcome
        assert forfeit.termination is Termination.FORFEIT and forfeit.winners == (1,)

    def test_a_resignation_after_two_passes_is_the_first_passers(self):
        summary = replay_summary(go("1. E5 PASS 2. PASS Resign 1-0"))
        assert (summary["status"], summary["winner"], summary["plies"]) == ("finished", 1, 3)

    def test_moves_after_two_passes_resume_play(self):
        # Black E5, white PASS, black PASS: the marking is turned down and white, who passed
        # first, plays on: F5 is white's, G5 black's.
        summary = replay_summary(go("1. E5 PASS 2. PASS F5 3. G5 *", Dead="E5"))
        assert summary["status"] == "in_progress" and summary["plies"] == 5
        assert summary["board"][4] == "....121.."
        assert summary["dead"] == [] and summary["winner"] is None

    @pytest.mark.parametrize(
        ("game", "moves", "stones", "captures", "score"),
        [
            # B1 takes white's A1. Black's three stones and every empty point (they touch black
            # only) make 169; white has its komi alone.
            (
                "Go (13x13)",
                "1. A2 A1 2. B1 PASS 3. K10 *",
                {"A2": "1", "B1": "1", "K10": "1"},
                [1, 0],
                {"black": 169.0, "white": 7.5},
            ),
            # One empty region touches both colours: nobody's. The Dead header is not read.
            (
                "Go",
                "1. Q16 D4 2. PASS Q4 *",
                {"Q16": "1", "D4": "2", "Q4": "2"},
                [0, 0],
                {"black": 1.0, "white": 9.5},
            ),
        ],
    )
    def test_an_in_progress_game_is_counted_as_it_stands(
        self, game, moves, stones, captures, score
    ):
        record = go(moves, game, Dead="D4")
        size = record.go_size
        assert replay_summary(record) == {
            "game": game,
            "plies": len(record.moves),
            "status": "in_progress",
            "captures": captures,
            "board": board(size, stones),
            "dead": [],
            "score": score,
            "winner": None,
        }

    @pytest.mark.parametrize(("game", "size"), [("Go (9x9)", 9), ("Go (13x13)", 13), ("Go", 19)])
    def test_the_board_has_a_row_per_line_of_the_board(self, game, size):
        summary = replay_summary(go("1. C3 *", game))
        assert len(summary["board"]) == size
        assert all(len(row) == size for row in summary["board"])

    def test_the_integer_form_is_read_on_the_records_board(self):
        # 40 = x + 9*y with x 4, y 4 (from the top): E5 on 9x9; 180 = K10 on 19x19.
        assert replay_summary(go("1. 40 F5 *")) == replay_summary(go("1. E5 F5 *"))
        assert replay_summary(go("1. 180 *", "Go"))["board"][9][9] == "1"


class TestErrors:
    def test_an_occupied_point(self):
        assert error(replay_summary(go("1. E5 PASS 2. E5 *"))) == (3, "E5", "occupied")

    def test_suicide_counts_the_pass_in_the_ply(self):
        # Black A2 and B1 leave A1 without a liberty for white.
        summary = replay_summary(go("1. A2 PASS 2. B1 A1 *"))
        assert error(summary) == (4, "A1", "suicide")
        assert summary["game"] == "Go (9x9)"

    def test_superko(self):
        # A ko at D5/E5: black E5 takes D5 (ply 9), white D5 at once would take E5 back and
        # repeat the position after ply 8. Black's pass is ply 7.
        summary = replay_summary(go("1. D6 E6 2. C5 D5 3. D4 E4 4. PASS F5 5. E5 D5 *"))
        assert error(summary) == (10, "D5", "superko")

    def test_a_point_off_the_board(self):
        assert error(replay_summary(go("1. E5 PASS 2. T19 *"))) == (3, "T19", "off_board")
        assert error(replay_summary(go("1. 81 *"))) == (1, "81", "off_board")
        assert error(replay_summary(go("1. I5 *"))) == (1, "I5", "bad_coordinate")

    def test_the_error_line_is_the_same_as_the_pente_familys(self):
        pente = replay_summary(parse_record('[Game "Pente"]\n\n1. K10 K10 *\n'))
        go_line = replay_summary(go("1. E5 E5 *"))
        assert set(pente) == set(go_line) and set(pente["error"]) == set(go_line["error"])

    def test_a_dead_point_without_a_stone_is_a_record_error(self):
        summary = replay_summary(go("1. E5 PASS 2. PASS *", Dead="A1"))
        assert summary["error"]["code"] == "bad_dead" and summary["error"]["ply"] is None
        assert replay_summary(go("1. E5 PASS 2. PASS *", Dead="T19"))["error"]["code"] == (
            "off_board"
        )

    def test_a_komi_that_is_not_a_number(self):
        for komi in ("six", "nan"):
            summary = replay_summary(go("1. E5 *", Komi=komi))
            assert summary["error"]["code"] == "bad_header"


# --------------------------------------------------------------------------- the command


MIXED = (
    """\
[Game "Pente"]
[Rated "Y"]

1. K10 A1 2. K13 A3 3. K12 A5 4. K11 A7 5. K14 1-0

"""
    + FINISHED_9X9
    + """
[Game "Go (13x13)"]

1. D4 K10 2. PASS *

[Game "Keryo-Pente"]

1. K10 J10 2. L10 A1 3. M10 N10 *

[Game "Go"]

1. Q16 Q16 *
"""
)


def test_the_replay_command_prints_a_json_line_per_record_of_a_mixed_file(tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text(MIXED)
    out = io.StringIO()
    with pytest.raises(CommandError):  # the last record has an illegal move
        call_command("replay", str(path), stdout=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["game"] for line in lines] == [
        "Pente",
        "Go (9x9)",
        "Go (13x13)",
        "Keryo-Pente",
        "Go",
    ]
    pente, go9, go13, keryo, go19 = lines
    assert pente == replay_summary(parse_records(MIXED)[0])  # the Pente family's line as before
    assert list(pente) == ["game", "plies", "status", "winner", "reason", "captures", "board"]
    assert go9 == replay_summary(parse_record(FINISHED_9X9))
    assert list(go9) == [
        "game",
        "plies",
        "status",
        "captures",
        "board",
        "dead",
        "score",
        "winner",
    ]
    assert (go13["plies"], go13["status"], len(go13["board"])) == (3, "in_progress", 13)
    assert keryo["captures"] == [0, 3]
    assert error(go19) == (2, "Q16", "occupied")


# --------------------------------------------------------------------------- published games


def published() -> list[Record]:
    """The published games of ``data/go_games.txt`` (sources and licences are in the file)."""
    return parse_records((DATA / "go_games.txt").read_text())


def test_the_published_games_are_three_records_that_round_trip():
    records = published()
    assert len(records) == 3
    for record in records:
        assert parse_record(write_record(record)) == record


def test_the_ear_reddening_game_replays_to_the_recorded_count():
    # Shusaku (black) v Gennan Inseki (white), 1846, no komi: black won by 2 points (Japanese
    # count: territory and prisoners). 325 moves, then the two passes and the dead stones
    # added in the data file. The area count gives black 3 more (black played one stone more,
    # and no seki); the Japanese count, territory plus prisoners, gives the recorded 2.
    record = published()[0]
    summary = replay_summary(record)
    assert "error" not in summary, summary
    assert (summary["status"], summary["winner"], summary["plies"]) == ("finished", 1, 327)
    assert summary["score"] == {"black": 178.0, "white": 175.0}
    assert summary["dead"] == list(record.dead)
    stones = {c: sum(row.count(c) for row in summary["board"]) for c in "12"}
    black_territory = summary["score"]["black"] - stones["1"]
    white_territory = summary["score"]["white"] - stones["2"]
    black, white = summary["captures"]
    assert (black_territory + black, white_territory + white) == (87, 85)


@pytest.mark.parametrize(
    ("index", "plies", "winner", "resigned"),
    [
        (1, 211, 1, 2),  # AlphaGo v Lee Sedol, game 2: B+R after black's 211th move
        (2, 180, 2, 1),  # game 4: W+R after white's 180th move
    ],
)
def test_the_alphago_lee_sedol_games_replay_to_the_resignation(index, plies, winner, resigned):
    record = published()[index]
    replay = replay_record(record)
    assert replay.game.plies == plies
    assert replay.ending == "Resign" and replay.resigned_colour == resigned
    assert replay.outcome.termination is Termination.RESIGN
    summary = replay_summary(record)
    assert (summary["status"], summary["winner"]) == ("finished", winner)
    assert record.result == ("1-0" if winner == 1 else "0-1")
