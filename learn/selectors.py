"""Reads of the lessons and of an account's progress through them."""

from __future__ import annotations

from learn.lessons import Lesson, Step, lessons
from learn.models import StepDone
from pente_site.errors import NotFound


def lesson_list() -> list[Lesson]:
    """Every lesson, in the order the Learn page lists them."""
    return list(lessons().values())


def lesson_named(slug: str) -> Lesson:
    """The lesson ``slug`` (404 ``lesson_not_found``)."""
    found = lessons().get(slug)
    if found is None:
        raise NotFound("lesson_not_found", f"There is no lesson {slug!r}; GET /api/learn/lessons/.")
    return found


def step_of(lesson: Lesson, number: int) -> Step:
    """Step ``number`` (from 1) of ``lesson`` (404 ``step_not_found``)."""
    step = lesson.step(number)
    if step is None:
        raise NotFound(
            "step_not_found",
            f"The lesson {lesson.slug!r} has steps 1 to {len(lesson.steps)}, not {number}.",
        )
    return step


def steps_done(*, user, lesson: str | None = None) -> dict[str, set[int]]:
    """The steps ``user`` has done, by lesson (only ``lesson`` if given); empty for nobody."""
    if user is None or not user.is_authenticated:
        return {}
    rows = StepDone.objects.filter(user=user)
    if lesson is not None:
        rows = rows.filter(lesson=lesson)
    done: dict[str, set[int]] = {}
    for slug, step in rows.values_list("lesson", "step"):
        done.setdefault(slug, set()).add(step)
    return done
