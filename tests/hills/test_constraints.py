"""The database refuses hill rows that break the hills' invariants, whatever code writes them."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from hills.models import Hill, HillEvent, HillMatch, HillMember
from hills.services import hill_challenge, hill_open
from tests.factories import UserFactory
from tests.hills.helpers import SLUG, TURN, members

pytestmark = pytest.mark.django_db


def _refused(make) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        make()


@pytest.mark.parametrize(
    ("model", "name", "choices"),
    [
        (Hill, "hill_kind_valid", Hill.Kind),
        (HillMatch, "hillmatch_status_valid", HillMatch.Status),
        (HillEvent, "hillevent_kind_valid", HillEvent.Kind),
    ],
)
def test_choice_checks_match_the_choices(model, name, choices):
    (constraint,) = [c for c in model._meta.constraints if c.name == name]
    ((_, values),) = constraint.condition.children
    assert set(values) == set(choices.values)


def test_one_hill_per_game_and_kind_and_a_known_kind():
    hill_open(slug=SLUG)
    _refused(lambda: Hill.objects.create(variant="Pente", kind="turn"))
    _refused(lambda: Hill.objects.create(variant="Pente", kind="weekly"))


def test_a_member_is_once_on_a_hill_and_on_a_step_from_one():
    (alice,) = members(1)
    hill = hill_open(slug=SLUG)
    now = timezone.now()
    _refused(lambda: HillMember.objects.create(hill=hill, user=alice, joined_at=now, active_at=now))
    bob = UserFactory()
    _refused(
        lambda: HillMember.objects.create(hill=hill, user=bob, step=0, joined_at=now, active_at=now)
    )


def test_a_match_is_between_two_players_and_applied_only_when_finished():
    alice, bob = members(1, 1)
    match = hill_challenge(user=alice, slug=SLUG, opponent=bob.username, time_control=TURN)
    _refused(lambda: HillMatch.objects.filter(pk=match.pk).update(challenged=alice))
    _refused(lambda: HillMatch.objects.filter(pk=match.pk).update(applied_at=timezone.now()))
