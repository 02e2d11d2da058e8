"""The lessons as the API and the Learn pages show them (plain dicts for the serializers and
the page's data)."""

from __future__ import annotations

from dataclasses import asdict

from learn.lessons import Lesson, board_of
from learn.services import Answer


def lesson_summary(lesson: Lesson, *, done: set[int]) -> dict:
    return {
        "slug": lesson.slug,
        "title": lesson.title,
        "summary": lesson.summary,
        "game": lesson.variant.name,
        "game_slug": lesson.variant.slug,
        "steps": len(lesson.steps),
        "done": sorted(done),
    }


def lesson_detail(lesson: Lesson, *, done: set[int]) -> dict:
    return {
        **lesson_summary(lesson, done=done),
        "step_list": [
            {
                "number": step.number,
                "prompt": step.prompt,
                "game": step.variant.name,
                "done": step.number in done,
                "board": asdict(board_of(step)),
            }
            for step in lesson.steps
        ],
    }


def answer_body(answer: Answer) -> dict:
    v = answer.verdict
    return {
        "right": v.right,
        "feedback": v.feedback,
        "refusal_code": v.refusal_code,
        "refusal": v.refusal,
        "rows": list(v.rows),
        "lesson": answer.lesson,
        "step": answer.step,
        "done": sorted(answer.done),
        "next_step": answer.next_step,
        "completed": answer.completed,
    }
