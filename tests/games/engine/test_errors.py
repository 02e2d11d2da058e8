"""The engine's domain errors: what a person reads, and that they survive a trip between
processes (Celery pickles what a task raises)."""

from __future__ import annotations

import pickle

import pytest

from games.engine.errors import BadRecord, IllegalMove


def test_a_bad_record_without_a_line_reads_as_its_detail():
    error = BadRecord("bad_move", "K10 is taken.")
    assert str(error) == "K10 is taken."
    assert (error.code, error.detail, error.line) == ("bad_move", "K10 is taken.", None)


def test_a_bad_record_with_a_line_says_which_line():
    error = BadRecord("bad_move", "K10 is taken.", line=7)
    assert str(error) == "line 7: K10 is taken."
    assert error.detail == "K10 is taken." and error.line == 7


def test_an_illegal_move_reads_as_its_detail():
    error = IllegalMove("occupied", "That point is taken.")
    assert str(error) == "That point is taken." and error.code == "occupied"


@pytest.mark.parametrize(
    "error",
    [
        IllegalMove("occupied", "That point is taken."),
        BadRecord("bad_move", "K10 is taken.", line=7),
        BadRecord("empty", "The record has no moves."),
    ],
    ids=["illegal-move", "bad-record-with-line", "bad-record"],
)
def test_an_error_pickled_and_read_back_keeps_its_kind_code_detail_and_line(error):
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error)
    assert (again.code, again.detail, str(again)) == (error.code, error.detail, str(error))
    assert getattr(again, "line", None) == getattr(error, "line", None)
