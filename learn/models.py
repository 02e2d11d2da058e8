"""Progress through the lessons: one row per step an account has answered right."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class StepDone(models.Model):
    """``user`` answered step ``step`` (from 1) of lesson ``lesson`` (its slug) right, first at
    ``done_at``. A lesson is done when all its steps are."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    lesson = models.CharField(max_length=40)
    step = models.PositiveSmallIntegerField()
    done_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "lesson", "step"], name="learn_step_done_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.lesson} step {self.step}"
