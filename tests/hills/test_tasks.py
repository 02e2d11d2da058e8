"""The hills' sweeper task and its beat entry."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from hills.models import HillMember
from hills.tasks import sweep
from pente_site.celery import app
from tests.hills.helpers import members, steps

pytestmark = pytest.mark.django_db


def test_the_beat_runs_the_sweeper_by_its_name():
    entry = settings.CELERY_BEAT_SCHEDULE["hills-sweep"]
    assert entry["task"] == "hills.sweep" == sweep.name
    app.loader.import_default_modules()
    assert "hills.sweep" in app.tasks


def test_the_sweeper_task_removes_idle_members():
    alice, bob = members(1, 1)
    HillMember.objects.filter(user=alice).update(active_at=timezone.now() - timedelta(days=40))
    assert sweep() == 1
    assert steps() == {bob.username: 1}
    assert sweep() == 0
