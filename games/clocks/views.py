"""Vacation API: ``GET /api/me/vacation`` (the balance) and ``POST /api/me/vacation``
``{"hours": n}`` (push the deadlines of the user's turn-based games where they are to move)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.clocks import rules, selectors, vacation


class VacationOut(serializers.Serializer):
    hours_left = serializers.IntegerField()
    days_left = serializers.FloatField()
    year = serializers.IntegerField()
    hours_per_year = serializers.IntegerField()


class VacationGameOut(serializers.Serializer):
    id = serializers.IntegerField()
    deadline = serializers.DateTimeField()


class VacationStartIn(serializers.Serializer):
    hours = serializers.IntegerField(min_value=1, max_value=rules.VACATION_HOURS_PER_YEAR)


class VacationStartOut(VacationOut):
    hours_spent = serializers.IntegerField()
    games = VacationGameOut(many=True)


class VacationView(APIView):
    """Turn-based vacation: 240 hours a calendar year, spent automatically an hour at a time
    when a deadline passes, or taken in advance here."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: VacationOut}, operation_id="me_vacation_retrieve")
    def get(self, request):
        return Response(VacationOut(selectors.vacation_status(user=request.user)).data)

    @extend_schema(
        request=VacationStartIn,
        responses={200: VacationStartOut},
        operation_id="me_vacation_start",
    )
    def post(self, request):
        data = VacationStartIn(data=request.data)
        data.is_valid(raise_exception=True)
        result = vacation.vacation_start(user=request.user, hours=data.validated_data["hours"])
        return Response(VacationStartOut(result).data)
