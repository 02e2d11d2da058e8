"""The Learn section: the list of lessons with the visitor's progress, and a lesson's page
(its board is drawn and answered by ``web/static/web/learn.js`` through the lessons' API)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from learn import presenters, selectors
from learn.session import progress
from pente_site.errors import NotFound


def learn_page(request: HttpRequest) -> HttpResponse:
    done = progress(request)
    rows = [
        presenters.lesson_summary(lesson, done=done.get(lesson.slug, set()))
        for lesson in selectors.lesson_list()
    ]
    return render(
        request,
        "web/learn.html",
        {"lessons": rows, "signed_in": request.user.is_authenticated},
    )


def lesson_page(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        lesson = selectors.lesson_named(slug)
    except NotFound as missing:
        raise Http404(missing.detail) from None
    done = progress(request).get(lesson.slug, set())
    detail = presenters.lesson_detail(lesson, done=done)
    lessons = selectors.lesson_list()
    following = next(
        (b for a, b in zip(lessons, lessons[1:], strict=False) if a.slug == lesson.slug), None
    )
    return render(
        request,
        "web/lesson.html",
        {
            "lesson": detail,
            "next_lesson": following,
            "signed_in": request.user.is_authenticated,
        },
    )
