"""The ``Variant`` hooks callers ask instead of comparing families: each answers for Go's boards
one way and for every Pente-family game the other."""

from __future__ import annotations

import pytest

from games.engine import GO_VARIANTS, VARIANTS, new_game

HOOKS = ("scored_by_area", "positions_recur", "black_first", "writes_sgf")


@pytest.mark.parametrize("hook", HOOKS)
def test_a_hook_is_true_for_go_and_false_for_the_pente_family(hook):
    assert all(getattr(v, hook) for v in GO_VARIANTS.values())
    assert not any(getattr(v, hook) for v in VARIANTS.values())


def test_only_the_pente_family_takes_the_table_options():
    assert all(v.table_options for v in VARIANTS.values())
    assert not any(v.table_options for v in GO_VARIANTS.values())


@pytest.mark.parametrize("variant", [*VARIANTS.values(), *GO_VARIANTS.values()], ids=str)
def test_scored_by_area_is_the_position_marking_its_dead_stones(variant):
    assert variant.scored_by_area == new_game(variant).marks_dead
