"""Challenges API: create, list, look at, accept / join / leave, decline, cancel."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.challenges import rematch, selectors, services
from games.challenges.serializers import ChallengeIn, ChallengeOut
from games.clocks.timecontrol import TimeControl
from games.idempotency.views import IDEMPOTENCY_KEY_PARAM, idempotent
from games.play.serializers import ErrorSerializer
from pente_site.errors import NotFound
from pente_site.lists import KnownQueryParameters
from pente_site.ratelimit import ChallengePairThrottle, ChallengeTargetThrottle

VARIANT_PARAM = OpenApiParameter("variant", str, description="Only this game (name or slug).")


class _ChallengeListView(ListAPIView):
    """A paginated list of challenges (rows come from a selector)."""

    write_scope = "challenges"
    permission_classes = [IsAuthenticated]
    serializer_class = ChallengeOut
    filter_backends = [KnownQueryParameters]


class ChallengeListCreateView(_ChallengeListView):
    """``GET``: open challenges I can take up (as ``/challenges/open/``). ``POST``: challenge."""

    throttle_classes = [
        *ListAPIView.throttle_classes,
        ChallengePairThrottle,
        ChallengeTargetThrottle,
    ]
    query_parameters = ("variant",)

    @extend_schema(parameters=[VARIANT_PARAM])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        return selectors.challenges_open(
            user=self.request.user, variant=self.request.query_params.get("variant") or None
        )

    @extend_schema(
        request=ChallengeIn, responses={201: ChallengeOut}, parameters=[IDEMPOTENCY_KEY_PARAM]
    )
    @idempotent
    def post(self, request):
        data = ChallengeIn(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        invitee = fields.pop("invitee", None) or None
        time_control = TimeControl.pop_from(fields)
        challenge = services.challenge_create(
            creator=request.user, invitee_username=invitee, time_control=time_control, **fields
        )
        return Response(ChallengeOut(challenge).data, status=status.HTTP_201_CREATED)


class ChallengeOpenView(ChallengeListCreateView):
    """Open challenges I can take up: not mine, not joined, restrictions met."""

    http_method_names = ["get", "head", "options"]


class ChallengeIncomingView(_ChallengeListView):
    """Open direct challenges to me."""

    def get_queryset(self):
        return selectors.challenges_incoming(user=self.request.user)


class ChallengeOutgoingView(_ChallengeListView):
    """Open challenges I made or joined."""

    def get_queryset(self):
        return selectors.challenges_outgoing(user=self.request.user)


class ChallengeDetailView(APIView):
    """One challenge you made, were invited to or may take (an open one), with its seats and,
    once accepted, its ``game`` (or rated set). 404 ``unknown_challenge`` for any other."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: ChallengeOut})
    def get(self, request, challenge_id: int):
        challenge = selectors.challenge_visible(user=request.user, challenge_id=challenge_id)
        if challenge is None:
            raise NotFound("unknown_challenge", "There is no challenge with that id.")
        return Response(ChallengeOut(challenge).data)


def _action_view(action, doc: str):
    class ActionView(APIView):
        write_scope = "challenges"
        permission_classes = [IsAuthenticated]

        @extend_schema(request=None, responses={200: ChallengeOut}, description=doc)
        def post(self, request, challenge_id: int):
            challenge = action(challenge_id=challenge_id, user=request.user)
            return Response(ChallengeOut(challenge).data)

    ActionView.__name__ = f"Challenge{action.__name__.split('_')[-1].title()}View"
    ActionView.__qualname__ = ActionView.__name__
    return ActionView


ChallengeAcceptView = _action_view(
    services.challenge_accept,
    "Accept a challenge. A two-player game (or rated set) starts at once; for a multi-player "
    "challenge this takes a seat, like join.",
)
ChallengeJoinView = _action_view(
    services.challenge_join, "Take a seat in a multi-player / partners challenge."
)
ChallengeLeaveView = _action_view(
    services.challenge_leave, "Give up a seat taken in a multi-player / partners challenge."
)
ChallengeDeclineView = _action_view(
    services.challenge_decline, "Decline a direct challenge (the invitee only)."
)
ChallengeCancelView = _action_view(
    services.challenge_cancel, "Withdraw a challenge (its creator only)."
)


class GameRematchView(APIView):
    """A game's rematch (``games.challenges.rematch``). ``POST``: ask for it: a direct
    challenge to the same opponent with the same options and the seats swapped (201); asking
    again answers the same challenge (200), and asking when the opponent already has accepts
    theirs (200, with its ``game``); against the computer the game starts at once. Refused: 403
    ``not_a_player``; 409 ``game_in_progress``, ``rematch_tournament``, ``rematch_imported``,
    ``rematch_multiplayer``, ``rematch_no_opponent``. ``GET``: the rematch asked by either
    player, open or accepted (204: none yet)."""

    write_scope = "challenges"
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: ChallengeOut,
            201: ChallengeOut,
            **{code: ErrorSerializer for code in (401, 403, 404, 409)},
        },
    )
    def post(self, request, pk: int):
        challenge, created = rematch.challenge_rematch(game_id=pk, user=request.user)
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(ChallengeOut(challenge).data, status=code)

    @extend_schema(
        responses={
            200: ChallengeOut,
            204: None,
            **{code: ErrorSerializer for code in (401, 403, 404, 409)},
        },
    )
    def get(self, request, pk: int):
        challenge = rematch.rematch_current(game_id=pk, user=request.user)
        if challenge is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(ChallengeOut(challenge).data)
