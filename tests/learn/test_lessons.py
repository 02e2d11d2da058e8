"""Every lesson's data file, checked on the rules engine: each step's position can be built,
each expected answer does what the step says (wins, captures, poofs, is refused, hands a
colour over, starts the marking, marks the dead group), and each wrong example is told apart.
A step whose answer stopped doing what its lesson says (a rule changed, a typo in a point)
fails here, naming the lesson, the step and the move."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from games.engine import Termination
from learn.lessons import LESSONS_DIR, MARK, Expect, board_of, judge, lessons, read_lesson

LESSONS = lessons()
STEPS = [
    pytest.param(lesson, step, id=f"{slug}-{step.number}")
    for slug, lesson in LESSONS.items()
    for step in lesson.steps
]

#: The game families and rules issue 39 asks a lesson for, by the lesson that teaches each.
REQUIRED = {
    "pente": ("Pente", "captured", "tournament_rule"),
    "keryo-pente": ("Keryo-Pente", "captured", None),
    "gomoku": ("Gomoku", "wins", None),
    "connect6": ("Connect6", "wins", None),
    "d-pente": ("D-Pente", "seat_colour", None),
    "swap2": ("Swap2-Pente", "seat_colour", None),
    "poof-pente": ("Poof-Pente", "poofed", None),
    "boat-pente": ("Boat-Pente", "wins", None),
    "o-pente": ("O-Pente", "poofed", None),
    "go": ("Go (9x9)", "refused", None),
    "go-ko": ("Go (9x9)", "refused", None),
    "go-end": ("Go (9x9)", "dead", None),
}


def test_every_family_has_its_lesson():
    assert set(REQUIRED) <= set(LESSONS)
    for slug, (game, expectation, _) in REQUIRED.items():
        lesson = LESSONS[slug]
        assert lesson.variant.name == game
        asked = [getattr(step.expect, expectation) for step in lesson.steps]
        assert any(a not in (None, ()) for a in asked), f"{slug} never asks for {expectation}"


def test_dk_pente_is_taught_in_the_d_lesson():
    assert "DK-Pente" in {step.variant.name for step in LESSONS["d-pente"].steps}


def test_the_pente_lesson_shows_the_tournament_rule_refusing_a_point():
    step = LESSONS["pente"].steps[-1]
    verdict = judge(step, "L10")
    assert not verdict.right
    assert verdict.refusal_code == "tournament_rule"


@pytest.mark.parametrize(("lesson", "step"), STEPS)
def test_each_expected_answer_does_what_the_step_says(lesson, step):
    assert step.answers, "a step names at least one answer"
    for answer in step.answers:
        verdict = judge(step, answer)
        assert verdict.right, (lesson.slug, step.number, answer, verdict)
        assert verdict.feedback == step.right
        if step.expect.refused is not None:
            assert verdict.refusal_code == step.expect.refused
            assert verdict.rows == ()
        else:
            assert verdict.refusal_code is None
            assert len(verdict.rows) == step.variant.size


@pytest.mark.parametrize(("lesson", "step"), STEPS)
def test_each_wrong_example_is_told_apart(lesson, step):
    assert step.wrong_examples, "a step names at least one wrong answer"
    for move in step.wrong_examples:
        verdict = judge(step, move)
        assert not verdict.right, (lesson.slug, step.number, move)
        assert verdict.feedback == (step.hint(move) or step.wrong)
        assert verdict.failed


@pytest.mark.parametrize(("lesson", "step"), STEPS)
def test_each_step_asks_something_and_shows_a_board(lesson, step):
    board = board_of(step)
    assert len(board.rows) == board.size == step.variant.size
    assert board.to_move_colour is not None
    assert step.prompt and step.right and step.wrong
    expect = step.expect
    assert any(getattr(expect, name) not in (None, ()) for name in expect.__dataclass_fields__), (
        "a step that asks nothing would take any legal move"
    )


def test_a_refusal_step_wants_its_own_refusal_not_any():
    """Go's suicide step: an occupied point is refused too, but not for suicide."""
    step = LESSONS["go"].steps[2]
    verdict = judge(step, "D5")
    assert (verdict.right, verdict.refusal_code) == (False, "occupied")
    assert judge(step, "E5").refusal_code == "suicide"


def test_a_win_is_judged_by_the_engine_not_by_the_answers_name():
    """Connect6's six: any two stones that make six win, not only the listed answers."""
    step = LESSONS["connect6"].steps[1]
    assert "J10 O10" in step.answers
    assert judge(step, "o10 j10").right  # the same turn, written otherwise
    assert judge(step, "J10 O10").right


def test_winning_steps_end_the_game_the_way_they_say():
    for lesson in LESSONS.values():
        for step in lesson.steps:
            if step.expect.by is not None:
                assert step.expect.by in set(Termination)


def test_a_move_that_does_only_part_of_the_step_is_wrong():
    """Boat-Pente: a reply elsewhere is legal, but the pending five then wins for white."""
    step = LESSONS["boat-pente"].steps[1]
    verdict = judge(step, "A1")
    assert not verdict.right
    assert "wins" in verdict.failed


def test_marking_takes_the_whole_dead_group_from_one_stone():
    step = LESSONS["go-end"].steps[1]
    assert step.action == MARK
    assert judge(step, "B2").right
    assert set(judge(step, "G5").failed) == {"dead"}  # white's living wall: black still wins
    assert set(judge(step, "F5").failed) == {"dead", "winner_colour"}  # black's own wall


def test_a_malformed_lesson_is_refused(tmp_path):
    path = tmp_path / "01-bad.json"
    data = json.loads(next(LESSONS_DIR.glob("*.json")).read_text())
    data["steps"][0]["expect"] = {"wins_by_magic": True}
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="wins_by_magic"):
        read_lesson(path)
    data["steps"] = []
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="at least one step"):
        read_lesson(path)


def test_lesson_slugs_drop_the_files_order_number():
    names = sorted(p.stem for p in LESSONS_DIR.glob("*.json"))
    assert list(LESSONS) == [n.split("-", 1)[1] for n in names]


@pytest.mark.parametrize(
    ("slug", "number", "alone", "right", "wrong"),
    [
        ("d-pente", 2, {"seat_colour": ((2, 1),)}, "swap", "keep"),
        ("d-pente", 2, {"to_move_seat": 2}, "swap", "keep"),
        ("gomoku", 1, {"wins": True}, "H10", "N10"),
        ("gomoku", 1, {"wins": False}, "N10", "H10"),
        ("pente", 3, {"by": "captures"}, "N13", "N10"),
        ("pente", 1, {"captured": 2}, "N10", "L11"),
        ("poof-pente", 1, {"poofed": 2}, "M10", "L11"),
        ("go-end", 1, {"phase": "marking"}, "PASS", "B5"),
        ("go-end", 2, {"winner_colour": 1}, "B3", "F5"),
        ("go-end", 2, {"dead": frozenset({"B2", "B3", "C2"})}, "B3", "G5"),
    ],
)
def test_each_expectation_alone_tells_right_from_wrong(slug, number, alone, right, wrong):
    step = replace(LESSONS[slug].steps[number - 1], expect=Expect(**alone))
    assert judge(step, right).right
    assert not judge(step, wrong).right
