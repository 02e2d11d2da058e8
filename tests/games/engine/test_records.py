"""Pente.org game records: reading, writing, and replaying them through the engine."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from games.engine import Outcome, Termination
from games.engine.errors import BadRecord
from games.engine.records import (
    Record,
    RecordMoveError,
    game_from_record,
    parse_record,
    parse_records,
    record_from_game,
    replay_record,
    replay_summary,
    standard_headers,
    write_record,
    write_records,
)
from games.engine.records.model import SWAPPED_HEADER

DATA = Path(__file__).parent / "data"

PENTE_ORG_RECORD = """\
[Game "Pente"]
[Site "Pente.org"]
[Event "Turn-based Game"]
[Round "-"]
[Section "-"]
[Date "06/17/2005"]
[Time "21:22:25"]
[TimeControl "5"]
[Rated "Y"]
[Player 1 Name "alice"]
[Player 2 Name "bob"]
[Player 1 Rating "1650"]
[Player 2 Rating "1600"]
[Player 1 Type "Human"]
[Player 2 Type "Human"]
[Result "1-0"]

1. K10 A1 2. K13 A3 3. K12 A5 4. K11 A7 5. K14 1-0
"""


def record(game: str, moves: str, **headers: str) -> Record:
    lines = [f'[Game "{game}"]'] + [f'[{k.replace("_", " ")} "{v}"]' for k, v in headers.items()]
    return parse_record("\n".join(lines) + "\n\n" + moves + "\n")


def empty_board_except(stones: dict[str, str]) -> list[str]:
    rows = [["."] * 19 for _ in range(19)]
    cols = "ABCDEFGHJKLMNOPQRST"
    for name, colour in stones.items():
        rows[19 - int(name[1:])][cols.index(name[0])] = colour
    return ["".join(r) for r in rows]


# --------------------------------------------------------------------------- parsing


class TestParse:
    def test_reads_pente_org_headers_in_order_and_the_move_tokens(self):
        rec = parse_record(PENTE_ORG_RECORD)
        assert [k for k, _ in rec.headers][:3] == ["Game", "Site", "Event"]
        assert rec.header("Player 1 Name") == "alice"
        assert rec.header("Player 2 Rating") == "1600"
        assert rec.header("Date") == "06/17/2005"
        assert rec.game_name == "Pente"
        assert rec.rated is True
        assert rec.moves == ("K10", "A1", "K13", "A3", "K12", "A5", "K11", "A7", "K14")
        assert rec.result == "1-0"

    def test_reads_several_records_from_one_text(self):
        text = PENTE_ORG_RECORD + "\n" + PENTE_ORG_RECORD.replace('"alice"', '"carol"')
        recs = parse_records(text)
        assert [r.header("Player 1 Name") for r in recs] == ["alice", "carol"]
        assert recs[1].line == PENTE_ORG_RECORD.count("\n") + 2

    def test_reads_records_without_blank_line_between_them(self):
        text = '[Game "Pente"]\n1. K10 L11 *\n[Game "Gomoku"]\n1. K10 L11 *\n'
        assert [r.game_name for r in parse_records(text)] == ["Pente", "Gomoku"]

    def test_header_only_records_separated_by_a_blank_line_are_two_records(self):
        text = '[Game "Pente"]\n[Result "*"]\n\n[Game "Gomoku"]\n[Result "*"]\n'
        assert [r.game_name for r in parse_records(text)] == ["Pente", "Gomoku"]

    def test_reads_crlf_line_endings_and_a_byte_order_mark(self):
        text = "\ufeff" + PENTE_ORG_RECORD.replace("\n", "\r\n")
        assert parse_record(text) == parse_record(PENTE_ORG_RECORD)

    def test_move_numbers_are_ignored_wherever_they_are(self):
        assert parse_record('[Game "Pente"]\n1.K10 L11 2... M12 7. N13').moves == (
            "K10",
            "L11",
            "M12",
            "N13",
        )

    def test_reads_the_integer_point_form_and_lower_case(self):
        assert parse_record('[Game "Pente"]\n1. 180 l11').moves == ("180", "l11")

    def test_resign_and_forfeit_tokens(self):
        assert parse_record('[Game "Pente"]\n1. K10 L11 2. resign 0-1').ending == "Resign"
        assert parse_record('[Game "Pente"]\n1. K10 Forfeit').ending == "Forfeit"
        assert parse_record('[Game "Pente"]\n1. K10 Forfeit').stones == ("K10",)

    def test_comments_in_braces_are_skipped(self):
        assert parse_record('[Game "Pente"]\n1. K10 {a fine move} L11').moves == ("K10", "L11")

    def test_speed_and_turn_based_prefixes_name_the_plain_game(self):
        assert record("Speed Keryo-Pente", "").game_name == "Keryo-Pente"
        assert record("Turn-based D-Pente", "").game_name == "D-Pente"

    def test_header_value_runs_to_the_last_quote(self):
        rec = parse_record('[Player 1 Name "the "best" one"]\n')
        assert rec.header("Player 1 Name") == 'the "best" one'

    def test_empty_text_has_no_records(self):
        assert parse_records("") == []
        assert parse_records("\n  \n") == []

    def test_d_pente_swapped_header_is_a_decision(self):
        assert record("D-Pente", "", **{"Player's_Swapped?": "Yes"}).decisions == ("swap",)
        assert record("DK-Pente", "", **{"Player's_Swapped?": "No"}).decisions == ("keep",)
        assert record("D-Pente", "", **{"Player's_Swapped?": "-"}).decisions == ()
        assert record("Pente", "", **{"Player's_Swapped?": "Yes"}).decisions == ()

    def test_swap2_header_lists_the_decisions(self):
        assert record("Swap2-Pente", "", Swap2="place_two colour2").decisions == (
            "place_two",
            "colour2",
        )

    def test_missing_rated_header_means_unrated(self):
        assert record("Pente", "").rated is False
        assert record("Pente", "", Rated="N").rated is False


class TestMalformed:
    @pytest.mark.parametrize(
        ("text", "code", "line"),
        [
            ('[Game "Pente"]\n[Site Pente.org]\n', "bad_header", 2),
            ('[Game "Pente"\n', "bad_header", 1),
            ('["Pente"]\n', "bad_header", 1),
            ('[Game "Pente"]\n[Game "Gomoku"]\n', "duplicate_header", 2),
            ('[Game "Pente"]\n\n1. K10 L11\n2. K?? M12\n', "bad_token", 4),
            ('[Game "Pente"]\n\n1. K10 L11 1-0 M12\n', "moves_after_result", 3),
            ('[Game "Pente"]\n\n1. K10 Resign\nL11\n', "moves_after_end", 4),
            ('[Game "Pente"]\n\n1. K10 {unclosed\n', "bad_token", 3),
            ('[Game "Pente"]\n\n1. K10 Pass\n', "bad_token", 3),
        ],
    )
    def test_malformed_text_raises_bad_record_with_code_and_line(self, text, code, line):
        with pytest.raises(BadRecord) as info:
            parse_records(text)
        assert info.value.code == code
        assert info.value.line == line
        assert info.value.detail

    def test_parse_record_wants_exactly_one(self):
        with pytest.raises(BadRecord) as info:
            parse_record(PENTE_ORG_RECORD + "\n" + PENTE_ORG_RECORD)
        assert info.value.code == "not_one_record"


# --------------------------------------------------------------------------- writing


class TestWrite:
    def test_writes_pente_org_layout_exactly(self):
        assert write_record(parse_record(PENTE_ORG_RECORD)) == PENTE_ORG_RECORD

    def test_write_then_read_gives_back_the_same_records(self):
        recs = parse_records(PENTE_ORG_RECORD + "\n" + '[Game "Connect6"]\n\n1. K10 L11 2. L12 *\n')
        assert parse_records(write_records(recs)) == recs

    def test_long_move_text_wraps_before_80_characters(self):
        moves = " ".join(["K10", "L11"] * 60)
        text = write_record(parse_record(f'[Game "Pente"]\n\n{moves} *'))
        body = text.split("\n\n", 1)[1].splitlines()
        assert len(body) > 3
        assert all(len(line) < 80 for line in body)
        assert parse_record(text).moves == tuple(moves.split())

    def test_multi_player_records_number_each_round_of_seats(self):
        rec = record("Pente", "K10 L11 M12 N13 O14 P15 Q16", Players="3")
        assert write_record(rec).endswith("1. K10 L11 M12 2. N13 O14 P15 3. Q16\n")

    def test_header_values_with_newlines_are_refused(self):
        with pytest.raises(ValueError):
            write_record(Record(headers=(("Event", "a\nb"),)))

    def test_with_header_replaces_in_place_and_appends_new(self):
        rec = parse_record(PENTE_ORG_RECORD).with_header("Site", "Elsewhere")
        assert rec.headers[1] == ("Site", "Elsewhere")
        assert rec.with_header("Extra", "x").headers[-1] == ("Extra", "x")
        assert rec.with_header("Site", None).header("Site") is None

    def test_standard_headers_use_pente_org_order_and_placeholders(self):
        headers = standard_headers(
            game="Pente",
            played_at=datetime(2005, 6, 17, 21, 22, 25, tzinfo=UTC),
            rated=True,
            player_names=["alice", "bob"],
            player_ratings=[1650, 1600],
            player_types=["Human", "Human"],
            time_control="5",
            event="Turn-based Game",
            result="1-0",
        )
        rec = Record(headers=headers, moves=parse_record(PENTE_ORG_RECORD).moves, result="1-0")
        assert write_record(rec) == PENTE_ORG_RECORD
        unknown = dict(standard_headers(game="Gomoku"))
        assert unknown["Player 1 Name"] == "?"
        assert unknown["Round"] == "-"
        assert unknown["Rated"] == "N"


# --------------------------------------------------------------------------- replay


class TestReplay:
    def test_replays_a_rated_pente_win_by_five(self):
        summary = replay_summary(parse_record(PENTE_ORG_RECORD))
        assert summary == {
            "game": "Pente",
            "plies": 9,
            "status": "finished",
            "winner": 1,
            "reason": "five",
            "captures": [0, 0],
            "board": empty_board_except(
                {
                    "K10": "1",
                    "K11": "1",
                    "K12": "1",
                    "K13": "1",
                    "K14": "1",
                    "A1": "2",
                    "A3": "2",
                    "A5": "2",
                    "A7": "2",
                }
            ),
        }

    def test_winner_comes_from_the_moves_not_the_result_header(self):
        lying = PENTE_ORG_RECORD.replace('[Result "1-0"]', '[Result "0-1"]').replace(
            "K14 1-0", "K14 0-1"
        )
        assert replay_summary(parse_record(lying))["winner"] == 1
        unfinished = PENTE_ORG_RECORD.replace(" 5. K14 1-0", " 1-0")
        summary = replay_summary(parse_record(unfinished))
        assert (summary["status"], summary["winner"], summary["plies"]) == ("in_progress", None, 8)

    def test_captures_are_counted_and_removed(self):
        summary = replay_summary(record("Pente", "1. K10 J10 2. L10 M10 *"))
        assert summary["captures"] == [0, 2]
        assert summary["board"] == empty_board_except({"J10": "2", "M10": "2"})
        assert summary["plies"] == 4

    def test_rated_records_are_played_with_the_tournament_rule(self):
        summary = replay_summary(record("Pente", "1. K10 J10 2. L10 M10 *", Rated="Y"))
        assert summary["error"]["code"] == "tournament_rule"
        assert summary["error"]["ply"] == 3
        assert summary["error"]["move"] == "L10"
        assert summary["game"] == "Pente"

    def test_tournament_rule_header_overrides_the_default(self):
        rated_off = record("Pente", "1. K10 J10 2. L10 *", Rated="Y", Tournament_Rule="N")
        assert "error" not in replay_summary(rated_off)
        unrated_on = record("Pente", "1. K10 J10 2. L10 *", Tournament_Rule="Y")
        assert replay_summary(unrated_on)["error"]["code"] == "tournament_rule"

    def test_occupied_point_is_an_error_with_its_ply(self):
        summary = replay_summary(record("Pente", "1. K10 L11 2. M12 L11"))
        assert summary["error"]["ply"] == 4
        assert summary["error"]["code"] == "occupied"
        assert summary["error"]["detail"]

    def test_bad_coordinate_is_an_error_with_its_ply(self):
        summary = replay_summary(record("Pente", "1. K10 I5"))
        assert summary["error"] == {
            "ply": 2,
            "move": "I5",
            "code": "bad_coordinate",
            "detail": summary["error"]["detail"],
        }
        assert replay_summary(record("Pente", "1. K10 Z5"))["error"]["code"] == "off_board"

    def test_centre_opening_text_must_start_on_the_centre(self):
        summary = replay_summary(record("Pente", "1. L11 K10"))
        assert summary["error"]["code"] == "not_centre"
        assert summary["error"]["ply"] == 1

    def test_stones_after_the_end_of_the_game_are_an_error(self):
        text = PENTE_ORG_RECORD.replace("K14 1-0", "K14 S19 1-0")
        summary = replay_summary(parse_record(text))
        assert summary["error"]["code"] == "game_over"
        assert summary["error"]["ply"] == 10

    def test_unknown_or_missing_game_is_an_error(self):
        assert replay_summary(record("Chess", "1. e4"))["error"]["code"] == "unknown_game"
        assert replay_summary(parse_record("1. K10 L11"))["error"]["code"] == "missing_game"

    def test_a_player_named_past_the_players_is_refused_not_dropped(self):
        three_named = record("Pente", "1. K10 L11", Player_3_Name="carol")
        error = replay_summary(three_named)["error"]
        assert error["code"] == "bad_header" and "Player 3" in error["detail"]
        as_three = record("Pente", "1. K10 L11 2. M12", Players="3", Player_3_Name="carol")
        assert replay_summary(as_three).get("error") is None
        placeholder = record("Pente", "1. K10 L11", Player_3_Name="?")
        assert replay_summary(placeholder).get("error") is None

    def test_unknown_game_detail_is_one_sentence_naming_the_game_once(self):
        detail = replay_summary(record("Foo", "1. K10"))["error"]["detail"]
        assert detail.count("Unknown game") == 1
        assert detail.startswith("Unknown game 'Foo'; the engine plays Pente, ")
        assert detail.endswith("Connect6, Go, Go (13x13), Go (9x9).")
        assert detail.count(".") == 1

    def test_resign_token_makes_the_other_side_win(self):
        summary = replay_summary(record("Pente", "1. K10 L11 2. M12 Resign 1-0"))
        assert (summary["status"], summary["winner"], summary["reason"]) == (
            "finished",
            1,
            "resign",
        )
        assert summary["plies"] == 3
        p1 = replay_summary(record("Pente", "1. K10 L11 2. Forfeit 0-1"))
        assert (p1["winner"], p1["reason"]) == (2, "forfeit")

    def test_replay_outcome_is_the_resignation_or_the_positions_own(self):
        resigned = replay_record(record("Pente", "1. K10 L11 2. M12 Resign 1-0"))
        assert resigned.outcome == Outcome(Termination.RESIGN, (1,))
        forfeit = replay_record(record("Pente", "1. K10 L11 2. Forfeit 0-1"))
        assert forfeit.outcome == Outcome(Termination.FORFEIT, (2,))
        partners = replay_record(record("Pente", "1. K10 A1 2. B1 C1 3. Resign *", Partners="Y"))
        assert partners.outcome == Outcome(Termination.RESIGN, (2, 4))
        won = replay_record(parse_record(PENTE_ORG_RECORD))
        assert won.outcome == won.game.outcome == Outcome(Termination.FIVE, (1,))
        assert replay_record(record("Pente", "1. K10 L11 *")).outcome is None

    def test_resign_after_the_game_ended_is_an_error(self):
        text = PENTE_ORG_RECORD.replace("K14 1-0", "K14 Resign 1-0")
        assert replay_summary(parse_record(text))["error"]["code"] == "game_over"

    def test_game_from_record_raises_record_move_error(self):
        with pytest.raises(RecordMoveError) as info:
            game_from_record(record("Pente", "1. K10 K10"))
        assert (info.value.ply, info.value.move, info.value.code) == (2, "K10", "occupied")
        assert isinstance(info.value, BadRecord)

    def test_replay_record_gives_the_position_the_move_text_outcome_and_each_actions_seat(self):
        replay = replay_record(record("Pente", "1. K10 L11 2. M12 Resign 1-0"))
        assert replay.game.actions == [180, 162, 144]
        assert replay.seats == (1, 2, 1)
        assert (replay.ending, replay.resigned_colour) == ("Resign", 2)
        assert (replay.outcome, replay.winner) == (Outcome(Termination.RESIGN, (1,)), 1)
        forfeit = replay_record(record("Pente", "1. K10 L11 2. Forfeit 0-1"))
        assert forfeit.resigned_colour == 1
        assert (forfeit.outcome, forfeit.winner) == (Outcome(Termination.FORFEIT, (2,)), 2)
        open_game = replay_record(record("Pente", "1. K10 L11 *"))
        assert (open_game.outcome, open_game.winner) == (None, None)
        assert (open_game.ending, open_game.resigned_colour) == (None, None)

    def test_replay_record_seats_follow_decisions_and_turn_order(self):
        swap2 = replay_record(
            record("Swap2-Pente", "1. A1 T19 2. A19 T1 3. B2 C3 4. K10", Swap2="place_two colour2")
        )
        assert swap2.game.actions[3::3] == ["place_two", "colour2"]
        assert swap2.seats == (1, 1, 1, 2, 2, 2, 1, 1, 2)
        connect6 = replay_record(record("Connect6", "1. K10 A1 A2 3. B1 B2 4. C1 C2"))
        assert connect6.seats == (1, 2, 2, 1, 1, 2, 2)
        partners = replay_record(record("Pente", "1. K10 A1 2. B1 C1 3. D1", Partners="Y"))
        assert partners.seats == (1, 2, 3, 4, 1)

    def test_game_from_record_and_replay_summary_replay_the_record_once(self, monkeypatch):
        from games.engine.game import Game

        built: list[object] = []
        init = Game.__init__

        def counting_init(self, *args, **kwargs):
            built.append(args[0] if args else kwargs.get("variant"))
            init(self, *args, **kwargs)

        monkeypatch.setattr(Game, "__init__", counting_init)
        rec = record("Pente", "1. K10 L11 2. M12 Resign 1-0")
        game_from_record(rec)
        assert built == ["Pente"]
        replay_summary(rec)
        assert built == ["Pente", "Pente"]

    def test_empty_move_text_gives_the_constructed_position(self):
        summary = replay_summary(record("Pente", ""))
        assert summary["plies"] == 1
        assert summary["board"] == empty_board_except({"K10": "1"})


class TestGameTypes:
    def test_keryo_captures_a_triple(self):
        # 1: K10, L10, M10 is a triple of colour 1 ... colour 2 brackets J10 and N10.
        summary = replay_summary(record("Keryo-Pente", "1. K10 J10 2. L10 A1 3. M10 N10 *"))
        assert summary["captures"] == [0, 3]
        assert summary["board"] == empty_board_except({"J10": "2", "N10": "2", "A1": "2"})

    def test_pente_does_not_capture_a_triple(self):
        summary = replay_summary(record("Pente", "1. K10 J10 2. L10 A1 3. M10 N10 *"))
        assert summary["captures"] == [0, 0]

    def test_gomoku_overline_does_not_win_but_exact_five_does(self):
        six = "1. K10 A1 2. K11 A3 3. K12 A5 4. K14 A7 5. K15 A9 6. K13 *"
        assert replay_summary(record("Gomoku", six))["status"] == "in_progress"
        five = "1. K10 A1 2. K11 A3 3. K12 A5 4. K13 A7 5. K14 *"
        summary = replay_summary(record("Gomoku", five))
        assert (summary["status"], summary["winner"]) == ("finished", 1)

    def test_d_pente_swap_header_swaps_seats_but_not_the_stones(self):
        moves = "1. A1 T19 2. A19 T1 3. K10 L10 4. K11 L11 5. K12 L12 6. K13 L13 7. K14 1-0"
        swapped = record("D-Pente", moves, **{"Player's_Swapped?": "Yes"})
        game = game_from_record(swapped)
        assert "swap" in game.actions
        assert game.seat_colour(2) == 1
        summary = replay_summary(swapped)
        assert (summary["winner"], summary["plies"]) == (1, 13)
        assert (
            replay_summary(record("D-Pente", moves, **{"Player's_Swapped?": "No"}))["winner"] == 1
        )

    def test_d_pente_without_a_decision_stops_at_the_fifth_stone(self):
        summary = replay_summary(record("D-Pente", "1. A1 T19 2. A19 T1 3. K10"))
        assert summary["error"]["code"] == "decision_pending"
        assert summary["error"]["ply"] == 5

    def test_d_pente_decision_after_the_last_stone_is_applied(self):
        game = game_from_record(
            record("D-Pente", "1. A1 T19 2. A19 T1", **{"Player's_Swapped?": "Yes"})
        )
        assert game.pending_decision is None
        assert game.seat_colour(1) == 2

    def test_connect6_stones_are_single_tokens(self):
        moves = "1. K10 A1 2. A3 L10 3. M10 A5 4. A7 N10 5. O10 A9 6. A11 P10"
        summary = replay_summary(record("Connect6", moves))
        assert (summary["status"], summary["winner"], summary["plies"]) == ("finished", 1, 12)

    def test_connect6_is_won_by_six_not_five(self):
        moves = "1. K10 A1 2. A3 L10 3. M10 A5 4. A7 N10 5. O10 A9 6. A11 P10"
        assert replay_summary(record("Connect6", moves))["reason"] == "six"

    def test_poof_pente_poofs_the_movers_own_pair(self):
        # colour 2 brackets K11 (J11 ... M11); colour 1 plays into it: L11 with K11 is poofed.
        moves = "1. K10 J11 2. K11 M11 3. L11 *"
        summary = replay_summary(record("Poof-Pente", moves))
        assert summary["captures"] == [0, 2]
        assert summary["board"] == empty_board_except({"K10": "1", "J11": "2", "M11": "2"})

    def test_swap2_decisions_come_from_the_swap2_header(self):
        moves = "1. K10 L11 2. M12 N13 3. O14 *"
        game = game_from_record(record("Swap2-Pente", moves, Swap2="place_two colour2"))
        assert [a for a in game.actions if isinstance(a, str)] == ["place_two", "colour2"]
        assert game.seat_colour(1) == 2

    def test_every_game_name_replays(self):
        from games.engine.variants import VARIANTS

        for name, variant in VARIANTS.items():
            moves = "" if variant.opening in ("d", "swap2") else "1. K10"
            summary = replay_summary(record(name, moves))
            assert summary["game"] == name
            assert "error" not in summary


# --------------------------------------------------------------------------- game -> record


class TestRecordFromGame:
    def test_records_a_game_with_the_centre_stone_first(self):
        from games.engine.game import Game

        game = Game("Pente")
        game.play(19 * 9 + 11)
        rec = record_from_game(game, standard_headers(game="Pente", player_names=["a", "b"]))
        assert rec.moves == ("K10", "M10")
        assert rec.result == "*"
        assert rec.header("Result") == "*"
        assert game_from_record(parse_record(write_record(rec))).actions == game.actions

    def test_fills_game_header_and_refuses_a_mismatch(self):
        from games.engine.game import Game

        game = Game("Keryo-Pente")
        assert record_from_game(game).header("Game") == "Keryo-Pente"
        with pytest.raises(ValueError):
            record_from_game(game, {"Game": "Pente"})

    def test_d_pente_decision_becomes_pente_org_swapped_header(self):
        from games.engine.game import Game

        game = Game("D-Pente")
        for point in (0, 18, 342, 360):
            game.play(point)
        assert record_from_game(game).header(SWAPPED_HEADER) == "-"
        game.decide("swap")
        rec = record_from_game(game)
        assert rec.header(SWAPPED_HEADER) == "Yes"
        again = game_from_record(parse_record(write_record(rec)))
        assert again.actions == game.actions

    def test_resignation_of_the_side_to_move_is_written_as_a_token(self):
        from games.engine.game import Game

        game = Game("Pente")
        rec = record_from_game(game, resigned_colour=2)
        assert rec.moves == ("K10", "Resign")
        assert rec.result == "1-0"
        out_of_turn = record_from_game(game, resigned_colour=1)
        assert out_of_turn.moves == ("K10",)
        assert out_of_turn.header("Result") == "0-1"

    def test_multi_player_and_partners_headers(self):
        from games.engine.game import Game

        three = Game("Pente", seats=3)
        rec = record_from_game(three)
        assert rec.header("Players") == "3"
        assert game_from_record(rec).to_move_colour == 2
        partners = Game("Pente", seats=4, partners=True)
        rec = record_from_game(partners)
        assert rec.header("Partners") == "Y"
        assert rec.header("Players") is None
        assert game_from_record(rec).seat_colour(3) == 1


class TestDataFiles:
    def test_sample_file_replays_every_record(self):
        recs = parse_records((DATA / "games.txt").read_text())
        assert len(recs) >= 8
        summaries = [replay_summary(r) for r in recs]
        assert all("error" not in s for s in summaries), summaries
        assert {s["game"] for s in summaries} >= {
            "Pente",
            "Keryo-Pente",
            "Gomoku",
            "D-Pente",
            "Connect6",
            "Poof-Pente",
            "Boat-Pente",
            "G-Pente",
        }

    def test_sample_file_is_written_back_byte_for_byte(self):
        text = (DATA / "games.txt").read_text()
        assert write_records(parse_records(text)) == text
