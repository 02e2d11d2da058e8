"""Answering a step of a lesson: judged by the rules engine, kept in the account's progress."""

from __future__ import annotations

from dataclasses import dataclass

from learn import selectors
from learn.lessons import Verdict, judge
from learn.models import StepDone


@dataclass(frozen=True, slots=True)
class Answer:
    """The verdict on one answer, with the lesson's steps done after it and the next step
    (None after the last one)."""

    verdict: Verdict
    lesson: str
    step: int
    done: frozenset[int]
    next_step: int | None
    steps: int

    @property
    def completed(self) -> bool:
        return len(self.done) == self.steps


def lesson_answer(
    *, user, lesson: str, step: int, move: str, done_before: frozenset[int] = frozenset()
) -> Answer:
    """Judge ``move`` as the answer to step ``step`` of lesson ``lesson`` (404 for either
    unknown). A right answer by an account is kept (once); ``done_before`` is what a visitor
    without an account has done (the view keeps it in the session) and is counted with it."""
    found = selectors.lesson_named(lesson)
    target = selectors.step_of(found, step)
    verdict = judge(target, move)
    signed_in = user is not None and user.is_authenticated
    if verdict.right and signed_in:
        StepDone.objects.get_or_create(user=user, lesson=found.slug, step=step)
    done = set(done_before) | selectors.steps_done(user=user, lesson=found.slug).get(
        found.slug, set()
    )
    if verdict.right:
        done.add(step)
    return Answer(
        verdict=verdict,
        lesson=found.slug,
        step=step,
        done=frozenset(done),
        next_step=step + 1 if step < len(found.steps) else None,
        steps=len(found.steps),
    )


def on_account_deleted(sender, *, user, **kwargs) -> None:
    """``accounts.signals.account_deleted``: a deleted account keeps no progress."""
    StepDone.objects.filter(user=user).delete()
