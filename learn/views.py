"""``/api/learn/lessons/``: the lessons, one lesson with its steps, and answering a step.

Anyone may read and answer: an account's progress is kept on the server, a visitor's in the
session (``learn.session``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games.play.serializers import ErrorSerializer
from learn import presenters, selectors, services
from learn.serializers import (
    AnswerInSerializer,
    AnswerSerializer,
    LessonSerializer,
    LessonSummarySerializer,
)
from learn.session import done_in_session, keep_in_session, progress


class LessonListView(APIView):
    """Every lesson: its game, its steps and those the caller has done."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: LessonSummarySerializer(many=True)})
    def get(self, request):
        done = progress(request)
        return Response(
            [
                presenters.lesson_summary(lesson, done=done.get(lesson.slug, set()))
                for lesson in selectors.lesson_list()
            ]
        )


class LessonView(APIView):
    """One lesson with each step's prompt and position (the board, what the answer may be)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: LessonSerializer, 404: ErrorSerializer})
    def get(self, request, slug: str):
        lesson = selectors.lesson_named(slug)
        done = progress(request).get(lesson.slug, set())
        return Response(presenters.lesson_detail(lesson, done=done))


class LessonAnswerView(APIView):
    """Answer a step: the move is played on the step's position by the rules engine, and is
    right when it does what the step asks (wins, captures, is refused...). The answer says so
    with a sentence of feedback; a right answer counts in the caller's progress."""

    permission_classes = [AllowAny]

    @extend_schema(
        request=AnswerInSerializer,
        responses={200: AnswerSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request, slug: str, step: int):
        body = AnswerInSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        signed_in = request.user.is_authenticated
        answer = services.lesson_answer(
            user=request.user if signed_in else None,
            lesson=slug,
            step=step,
            move=body.validated_data["move"],
            done_before=frozenset() if signed_in else done_in_session(request.session, slug),
        )
        if not signed_in and answer.verdict.right:
            keep_in_session(request.session, answer.lesson, answer.done)
        return Response(presenters.answer_body(answer))
