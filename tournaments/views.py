"""Thin views of the tournaments API (mounted under ``/api/``)."""

from __future__ import annotations

from functools import partial

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from games.clocks.timecontrol import FIELDS as TIME_CONTROL_FIELDS
from games.idempotency.views import IDEMPOTENCY_KEY_PARAM, idempotent
from games.play.serializers import ErrorSerializer
from pente_site.api import AnyAccept, validated
from pente_site.errors import Invalid
from pente_site.lists import KnownQueryParameters, Pagination
from tournaments import selectors, services, trf_import
from tournaments.models import Tournament
from tournaments.serializers import (
    BracketSerializer,
    ByeRequestIn,
    EntrySerializer,
    MatchResultIn,
    MatchSerializer,
    PairingDecisionIn,
    PlannedByeSerializer,
    RoundSerializer,
    StandingSerializer,
    StandingsPageSerializer,
    TournamentCreateSerializer,
    TournamentDetailSerializer,
    TournamentSerializer,
    TrfImportIn,
)
from tournaments.svg import bracket_svg


class TournamentListView(generics.ListCreateAPIView):
    """List tournaments (filter with ``?status=`` and ``?format=``) or create one: you become
    its organiser."""

    write_scope = "tournaments"
    query_parameters = ("status", "format", "variant")
    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = TournamentSerializer

    def get_queryset(self):
        qs = selectors.tournaments_queryset()
        for field in ("status", "format", "variant"):
            value = self.request.query_params.get(field)
            if value:
                qs = qs.filter(**{field: value})
        return qs

    @extend_schema(
        request=TournamentCreateSerializer,
        responses={201: TournamentDetailSerializer},
        parameters=[IDEMPOTENCY_KEY_PARAM],
    )
    @idempotent
    def post(self, request):
        data = TournamentCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        time_control = services.tournament_time_control(
            **{name: fields.pop(name) for name in TIME_CONTROL_FIELDS if name in fields}
        )
        t = services.tournament_create(organiser=request.user, time_control=time_control, **fields)
        return Response(
            _detail(request, t.pk),
            status=status.HTTP_201_CREATED,
        )


def _detail(request, pk: int) -> dict:
    """The tournament ``pk`` as ``TournamentDetailSerializer`` gives it to this request's user."""
    t = selectors.tournament_get(tournament_id=pk)
    return TournamentDetailSerializer(t, context={"request": request}).data


class TournamentDetailView(APIView):
    """A tournament: its settings, status, current round, whether a pairing waits for a job
    (``pairing_pending``) or for the organiser (``pairing_decision``), the number of its
    players and your own entry (``entry``; every entry: ``tournaments/{id}/entries``)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: TournamentDetailSerializer})
    def get(self, request, pk: int):
        return Response(_detail(request, pk))


class TournamentJoinView(APIView):
    """Register while registration is open; a running Swiss that takes late entries is entered
    from its next round, with ``late_entry_points`` for each round paired so far. 409
    ``registration_closed``, ``already_joined``, ``tournament_full``; 403 ``not_eligible``
    (the tournament's rating limits)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: TournamentDetailSerializer})
    def post(self, request, pk: int):
        services.tournament_join(tournament_id=pk, user=request.user)
        return Response(_detail(request, pk), status=status.HTTP_201_CREATED)


class TournamentWithdrawView(APIView):
    """Withdraw. Once the tournament runs, your games in progress in it are forfeited and you
    are not paired again; byes you asked for in rounds to come go with you. 409 ``not_joined``,
    ``tournament_over``."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: TournamentDetailSerializer})
    def post(self, request, pk: int):
        services.tournament_withdraw(tournament_id=pk, user=request.user)
        return Response(_detail(request, pk))


def _accepted(request, pk: int) -> Response:
    """202: the tournament as it stands, its pairing pending (``pairing_pending``)."""
    return Response(_detail(request, pk), status=status.HTTP_202_ACCEPTED)


class TournamentStartView(APIView):
    """Start now (organiser or staff): 202, then registration closes and the first round is
    paired by a job (``pairing_pending`` until it is). 409 ``too_few_players`` (it stays open),
    ``already_started``, ``tournament_over``."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={202: TournamentDetailSerializer, 403: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request, pk: int):
        services.tournament_start_request(tournament_id=pk, user=request.user)
        return _accepted(request, pk)


class TournamentCancelView(APIView):
    """Cancel (organiser or staff), before the start or while it runs: no more rounds, no
    winner; games in progress are played to their end. 409 ``tournament_over`` once over."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: TournamentDetailSerializer, 403: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request, pk: int):
        services.tournament_cancel(tournament_id=pk, user=request.user)
        return Response(_detail(request, pk))


class TournamentPairingDecisionView(APIView):
    """The organiser's choice for a Swiss round that no pairing makes without relaxing the
    colour criteria (the tournament's ``pairing_decision``): 202, then a job pairs the round
    (``pairing_pending`` until it is). 409 ``no_pairing_decision`` when no round waits."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=PairingDecisionIn,
        responses={202: TournamentDetailSerializer, 403: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request, pk: int):
        data = PairingDecisionIn(data=request.data)
        validated(
            data, rights=partial(services.organiser_check, tournament_id=pk, user=request.user)
        )
        services.tournament_pairing_decide(
            tournament_id=pk, user=request.user, relax=data.validated_data["relax"]
        )
        return _accepted(request, pk)


class TournamentImportTrfView(APIView):
    """Import an event run elsewhere from its FIDE TRF: an unrated Swiss (``imported``) with its
    players, rounds, results and byes, finished if the report is, else ready to be continued
    here (``next-round``, ``matches/{match_id}/result``). You become its organiser."""

    write_scope = "tournaments"
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=TrfImportIn, responses={201: TournamentDetailSerializer, 400: ErrorSerializer}
    )
    def post(self, request):
        data = TrfImportIn(data=request.data)
        data.is_valid(raise_exception=True)
        t = trf_import.tournament_import_trf(
            organiser=request.user,
            text=data.validated_data["trf"],
            variant=data.validated_data["variant"],
            accounts=data.validated_data["accounts"],
        )
        return Response(
            _detail(request, t.pk),
            status=status.HTTP_201_CREATED,
        )


class TournamentNextRoundView(APIView):
    """Imported tournaments (organiser): once every result of the current round is entered,
    202, then a job pairs the next round, or finishes the tournament after its last round
    (``pairing_pending`` until it is done). 409 ``round_in_progress``
    while results are missing; ``not_imported`` for a tournament played here (its rounds are
    paired by themselves)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={202: TournamentDetailSerializer, 403: ErrorSerializer, 409: ErrorSerializer},
    )
    def post(self, request, pk: int):
        services.tournament_next_round(tournament_id=pk, user=request.user)
        return _accepted(request, pk)


class MatchResultView(APIView):
    """Imported tournaments (organiser): a match's result, played elsewhere. 409 ``match_over``
    when it has one already."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=MatchResultIn,
        responses={
            200: MatchSerializer,
            400: ErrorSerializer,
            403: ErrorSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
        },
    )
    def post(self, request, pk: int, match_id: int):
        data = MatchResultIn(data=request.data)
        validated(
            data, rights=partial(services.organiser_check, tournament_id=pk, user=request.user)
        )
        services.match_result_enter(
            tournament_id=pk, match_id=match_id, user=request.user, **data.validated_data
        )
        t = selectors.tournament_get(tournament_id=pk)
        return Response(selectors.match_get(t, match_id=match_id))


NO_BRACKET = OpenApiResponse(
    ErrorSerializer, description="no_bracket: only elimination tournaments have a bracket."
)


class _PaginatedListView(generics.GenericAPIView):
    """A paginated list (``count``, ``next``, ``previous``, ``results``; ``?page=``,
    ``?page_size=``) of rows a selector computes."""

    permission_classes = [AllowAny]
    pagination_class = Pagination
    filter_backends = [KnownQueryParameters]

    def paginated(self, rows: list, *, build=None, **extra) -> Response:
        """A page of ``rows``; with ``build``, ``rows`` are keys and ``build(keys)`` makes the
        page's rows from its keys alone."""
        page = self.paginate_queryset(rows)
        if build is not None:
            page = build(page)
        response = self.get_paginated_response(page)
        if extra:
            data = response.data
            response.data = {
                "count": data["count"],
                "next": data["next"],
                "previous": data["previous"],
                **extra,
                "results": data["results"],
            }
        return response


class TournamentRoundsView(_PaginatedListView):
    """The rounds with their pairings, first round first (for brackets: one entry per bracket
    round, winners' then losers' then the grand final)."""

    serializer_class = RoundSerializer

    @extend_schema(responses={200: RoundSerializer(many=True)})
    def get(self, request, pk: int):
        t = selectors.tournament_get(tournament_id=pk)
        if t.is_elimination:
            return self.paginated(selectors.rounds(t))
        # A Swiss may have a thousand players: only the page's rounds are built.
        return self.paginated(
            selectors.round_numbers(t), build=lambda numbers: selectors.rounds(t, numbers=numbers)
        )


class TournamentEntriesView(_PaginatedListView):
    """The entries, withdrawn ones included: by seed once the tournament has started, by the
    time they were made before."""

    serializer_class = EntrySerializer

    @extend_schema(responses={200: EntrySerializer(many=True)})
    def get(self, request, pk: int):
        return self.paginated(selectors.entries(selectors.tournament_get(tournament_id=pk)))


class TournamentStandingsView(_PaginatedListView):
    """The standings, best first; ``final`` is true once the tournament is over."""

    serializer_class = StandingSerializer

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "page",
                {"type": "integer", "minimum": 1},
                description="A page number within the paginated result set.",
            ),
            OpenApiParameter(
                "page_size",
                {"type": "integer", "minimum": 1},
                description=f"Results per page, from 1 (at most {Pagination.max_page_size}: more "
                f"is read as {Pagination.max_page_size}).",
            ),
        ],
        responses={200: StandingsPageSerializer},
    )
    def get(self, request, pk: int):
        t = selectors.tournament_get(tournament_id=pk)
        return self.paginated(selectors.standings(t), final=t.status == Tournament.Status.FINISHED)


class TournamentPlayerMatchesView(_PaginatedListView):
    """A player's matches in the tournament, in playing order."""

    serializer_class = MatchSerializer

    @extend_schema(responses={200: MatchSerializer(many=True)})
    def get(self, request, pk: int, user_id: int):
        t = selectors.tournament_get(tournament_id=pk)
        return self.paginated(selectors.player_matches(t, user_id=user_id))


class TournamentByesView(_PaginatedListView):
    """Byes decided before their rounds are paired: ``GET`` lists them (by round); ``POST``
    (``{"round": N}``, an entrant of a Swiss) asks for one: left out of round N's pairing, half
    a point. 409 ``round_paired``, ``not_joined``, ``bye_requested``, ``too_many_byes``
    (``TOURNAMENT_MAX_REQUESTED_BYES``), ``byes_not_taken`` (not a Swiss played here),
    ``tournament_over``."""

    serializer_class = PlannedByeSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: PlannedByeSerializer(many=True)})
    def get(self, request, pk: int):
        return self.paginated(selectors.planned_byes(selectors.tournament_get(tournament_id=pk)))

    @extend_schema(
        request=ByeRequestIn,
        responses={
            201: PlannedByeSerializer,
            400: ErrorSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
        },
    )
    def post(self, request, pk: int):
        data = ByeRequestIn(data=request.data)
        validated(data, rights=partial(services.entrant_check, tournament_id=pk, user=request.user))
        bye = services.bye_request(
            tournament_id=pk, user=request.user, round_number=data.validated_data["round"]
        )
        body = {
            "user": {"id": request.user.pk, "username": request.user.username},
            "round": bye.round_number,
            "result": bye.result,
        }
        return Response(PlannedByeSerializer(body).data, status=status.HTTP_201_CREATED)


class TournamentByeView(APIView):
    """Take back a bye asked for a round not paired yet (204; 404 when there is none)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None, 404: ErrorSerializer, 409: ErrorSerializer})
    def delete(self, request, pk: int, round_number: str):
        services.bye_cancel(tournament_id=pk, user=request.user, round_number=int(round_number))
        return Response(status=status.HTTP_204_NO_CONTENT)


class TournamentBracketView(APIView):
    """An elimination tournament's bracket: every match with its players, games, winner and
    where the winner (and, in double elimination, the loser) goes next; ``champion`` once it is
    over."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: BracketSerializer, 409: NO_BRACKET})
    def get(self, request, pk: int):
        return Response(selectors.bracket(selectors.tournament_get(tournament_id=pk)))


class TournamentBracketSvgView(APIView):
    """The bracket drawn as an SVG picture."""

    content_negotiation_class = AnyAccept
    permission_classes = [AllowAny]

    @extend_schema(responses={(200, "image/svg+xml"): str, 409: NO_BRACKET})
    def get(self, request, pk: int):
        t = selectors.tournament_get(tournament_id=pk)
        return HttpResponse(
            bracket_svg(selectors.bracket(t), title=t.name), content_type="image/svg+xml"
        )


class TournamentTrfView(APIView):
    """The tournament as a FIDE TRF report (plain text, as FIDE's pairing programs read it),
    as it stands or, with ``round``, as it stood after that round."""

    content_negotiation_class = AnyAccept
    permission_classes = [AllowAny]
    query_parameters = ("round",)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "round",
                {"type": "integer", "minimum": 0},
                description="The report as it stood after this round.",
            )
        ],
        responses={
            (200, "text/plain"): str,
            400: OpenApiResponse(ErrorSerializer, description="bad_round"),
            409: OpenApiResponse(
                ErrorSerializer,
                description="no_trf: the tournament is an elimination (TRF is for Swiss and "
                "round-robin events).",
            ),
        },
    )
    def get(self, request, pk: int):
        t = selectors.tournament_get(tournament_id=pk)
        after = request.query_params.get("round")
        if after is not None and not (after.isascii() and after.isdigit()):
            raise Invalid("bad_round", "round must be a whole number.")
        text = selectors.trf_text(t, after_round=None if after is None else int(after))
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="tournament-{t.pk}.trf"'
        return response
