"""Hills API: the hills, a hill's steps, joining, leaving, challenging a member, its history."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.challenges.serializers import ChallengeOut
from games.clocks.timecontrol import TimeControl
from hills import selectors, services
from hills.serializers import HillChallengeIn, HillDetailOut, HillEventOut, HillOut
from pente_site.api import validated
from pente_site.lists import KnownQueryParameters


def _detail(slug: str) -> dict:
    variant, kind = selectors.hill_of_slug(slug)
    hill = selectors.hill_find(slug=slug)
    return selectors.hill_detail(variant=variant, kind=kind, hill=hill)


class HillListView(APIView):
    """Every hill: one per game, live and turn-based, with its member count and king."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: HillOut(many=True)})
    def get(self, request):
        return Response(HillOut(selectors.hills_list(), many=True).data)


class HillDetailView(APIView):
    """A hill's steps, top first, with each member's rating, crown and hill sets (whose turn)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: HillDetailOut})
    def get(self, request, slug: str):
        return Response(HillDetailOut(_detail(slug)).data)


class HillJoinView(APIView):
    """Join the hill, on its bottom step (409 ``already_member``)."""

    permission_classes = [IsAuthenticated]
    write_scope = "challenges"

    @extend_schema(request=None, responses={201: HillDetailOut})
    def post(self, request, slug: str):
        services.hill_join(user=request.user, slug=slug)
        return Response(HillDetailOut(_detail(slug)).data, status=status.HTTP_201_CREATED)


class HillLeaveView(APIView):
    """Leave the hill (404 ``not_member``); hill sets going still count for the opponent."""

    permission_classes = [IsAuthenticated]
    write_scope = "challenges"

    @extend_schema(request=None, responses={200: HillDetailOut})
    def post(self, request, slug: str):
        services.hill_leave(user=request.user, slug=slug)
        return Response(HillDetailOut(_detail(slug)).data)


class HillChallengeView(APIView):
    """Challenge a member within reach to a rated set of the hill's game: a direct challenge,
    answered like any other (``/api/challenges/<id>/accept/``)."""

    permission_classes = [IsAuthenticated]
    write_scope = "challenges"

    @extend_schema(request=HillChallengeIn, responses={201: ChallengeOut})
    def post(self, request, slug: str):
        fields = dict(
            validated(
                HillChallengeIn(data=request.data),
                rights=lambda: selectors.member_required(user=request.user, slug=slug),
            )
        )
        time_control = TimeControl.pop_from(fields)
        match = services.hill_challenge(
            user=request.user,
            slug=slug,
            opponent=fields["opponent"],
            time_control=time_control,
            message=fields["message"],
        )
        return Response(ChallengeOut(match.challenge).data, status=status.HTTP_201_CREATED)


class HillHistoryView(ListAPIView):
    """The hill's history, newest first: who joined, left, moved up or down, was crowned, was
    removed for inactivity or lost a step for declining, and when."""

    permission_classes = [AllowAny]
    serializer_class = HillEventOut
    filter_backends = [KnownQueryParameters]

    def get_queryset(self):
        selectors.hill_of_slug(self.kwargs["slug"])
        return selectors.hill_history(hill=selectors.hill_find(slug=self.kwargs["slug"]))
