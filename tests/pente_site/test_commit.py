"""``on_commit_gather``: what a transaction gathers is flushed once when it commits, with every
item in order; a savepoint rolled back takes its items with it; outside a transaction at once."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import TestCase

from pente_site.commit import on_commit_gather

pytestmark = pytest.mark.django_db


def _gatherer():
    flushed: list[list[int]] = []
    return flushed, flushed.append


def test_a_transaction_flushes_its_items_once_in_order_whatever_runs_between():
    flushed, flush = _gatherer()
    others = []
    with TestCase.captureOnCommitCallbacks(execute=True):
        with transaction.atomic():
            for i in range(5):
                on_commit_gather("numbers", [i], flush)
                transaction.on_commit(lambda i=i: others.append(i))  # interleaved callbacks
    assert flushed == [[0, 1, 2, 3, 4]]
    assert others == [0, 1, 2, 3, 4]


def test_each_kind_has_its_own_batch():
    flushed, flush = _gatherer()
    with TestCase.captureOnCommitCallbacks(execute=True):
        on_commit_gather("a", [1], flush)
        on_commit_gather("b", [2], flush)
        on_commit_gather("a", [3], flush)
    assert flushed == [[1, 3], [2]]


def test_a_savepoint_rolled_back_takes_its_items_with_it():
    flushed, flush = _gatherer()
    with TestCase.captureOnCommitCallbacks(execute=True):
        on_commit_gather("numbers", [1], flush)
        try:
            with transaction.atomic():
                on_commit_gather("numbers", [2], flush)
                raise RuntimeError
        except RuntimeError:
            pass
        on_commit_gather("numbers", [3], flush)
    assert sorted(x for batch in flushed for x in batch) == [1, 3]


def test_nothing_is_flushed_when_the_transaction_rolls_back():
    flushed, flush = _gatherer()
    with TestCase.captureOnCommitCallbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                on_commit_gather("numbers", [1], flush)
                raise RuntimeError
        except RuntimeError:
            pass
    assert flushed == [] and callbacks == []


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_items_are_flushed_at_once():
    flushed, flush = _gatherer()
    on_commit_gather("numbers", [1, 2], flush)
    assert flushed == [[1, 2]]
