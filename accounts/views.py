"""Accounts API: registration, session log-in/out, forgotten passwords, API tokens, profile,
player pages."""

from __future__ import annotations

from django.contrib.auth import login, logout
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors, services
from accounts.models import User
from accounts.serializers import (
    AccountDeleteIn,
    CredentialsIn,
    DetailOut,
    LinkIn,
    PasswordResetConfirmIn,
    PasswordResetIn,
    PlayerListOut,
    PlayerListQueryIn,
    PlayerPageOut,
    ProfileOut,
    ProfilePatchIn,
    RegisterIn,
    TokenCreateIn,
    TokenIssuedOut,
    TokenObtainIn,
    TokenOut,
)
from pente_site.errors import NotFound
from pente_site.lists import KnownQueryParameters
from pente_site.public import site_url, site_url_or_none
from pente_site.ratelimit import AUTH_THROTTLES, PASSWORD_RESET_THROTTLES, AuthAddressThrottle


class _SigningInView(APIView):
    """A view for people not signed in yet: no credentials read, anyone may call it, counted
    per client address and per username named (``auth``, ``auth_username``)."""

    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = AUTH_THROTTLES


class RegisterView(_SigningInView):
    """Create an account (then ``POST auth/token`` for an API token, or ``auth/login`` for a
    browser session): ``username`` (letters, digits and ``@.+-_``, unique whatever its case),
    ``password``, and optionally ``email``, ``time_zone`` (an IANA zone, ``UTC`` by default)
    and ``weekend_days`` (0 Monday .. 6 Sunday; Saturday and Sunday by default: a turn-based
    clock counts only the other days). Every problem is named at once: the first one's code
    (``bad_username``, ``bad_password``, 409 ``username_taken``), every sentence in ``detail``
    and by field in ``fields``. An ``email`` is sent a link to confirm it (links to choose a
    new password only go to confirmed addresses)."""

    @extend_schema(request=RegisterIn, responses={201: ProfileOut})
    def post(self, request):
        data = RegisterIn(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.user_register(**data.validated_data, site_url=site_url_or_none(request))
        return Response(ProfileOut(user).data, status=status.HTTP_201_CREATED)


class LoginView(_SigningInView):
    """Session log-in (for browsers). API clients use ``POST /api/auth/token`` instead."""

    @extend_schema(request=CredentialsIn, responses={200: ProfileOut})
    def post(self, request):
        data = CredentialsIn(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.user_check_credentials(request=request, **data.validated_data)
        login(request._request, user)
        return Response(ProfileOut(user).data)


class LogoutView(APIView):
    """End the browser session. API tokens stay valid: ``DELETE me/tokens/{id}`` revokes one."""

    permission_classes = [AllowAny]

    @extend_schema(request=None, responses={204: None})
    def post(self, request):
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


#: The answer to a request for a link, whether or not the address has an account.
RESET_SENT = (
    "If an account has this e-mail address, a link to choose a new password is on its way to it."
)


class PasswordResetView(_SigningInView):
    """Forgot your password? ``{"email"}``: a link to choose a new one is e-mailed to each
    account with this address (the e-mail of the profile). Always 202 with the same sentence,
    so that the answer does not tell whether an address has an account. The link opens the
    site's page, or its ``uid`` and ``token`` go to ``auth/password-reset/confirm``."""

    throttle_classes = PASSWORD_RESET_THROTTLES

    @extend_schema(request=PasswordResetIn, responses={202: DetailOut})
    def post(self, request):
        data = PasswordResetIn(data=request.data)
        data.is_valid(raise_exception=True)
        services.password_reset_request(
            email=data.validated_data["email"], site_url=site_url(request)
        )
        return Response({"detail": RESET_SENT}, status=status.HTTP_202_ACCEPTED)


class _LinkView(_SigningInView):
    """What a link the server e-mailed does: the body (the link's ``uid`` and ``token``, and
    more) read by ``link_serializer`` goes to ``act``; 200 with the profile."""

    throttle_classes = [AuthAddressThrottle]
    link_serializer: type[LinkIn] = LinkIn

    def act(self, **data) -> User:
        raise NotImplementedError

    def post(self, request):
        data = self.link_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(ProfileOut(self.act(**data.validated_data)).data)


@extend_schema_view(post=extend_schema(request=PasswordResetConfirmIn, responses={200: ProfileOut}))
class PasswordResetConfirmView(_LinkView):
    """Choose a new password with the ``uid`` and ``token`` of a link: 200 with the profile
    (then log in as usual). 400 ``bad_reset_link`` (unknown, used or expired: ask for a new
    one), ``bad_password``."""

    link_serializer = PasswordResetConfirmIn

    def act(self, **data) -> User:
        return services.password_reset_confirm(**data)


@extend_schema_view(post=extend_schema(request=LinkIn, responses={200: ProfileOut}))
class EmailConfirmView(_LinkView):
    """Confirm an e-mail address with the ``uid`` and ``token`` of the link sent to it: 200
    with the profile. 400 ``bad_confirm_link`` (unknown, used, expired, or the address changed
    since: ask for a new one with ``POST me/email-confirmation``)."""

    def act(self, **data) -> User:
        return services.email_confirm(**data)


class EmailConfirmationView(APIView):
    """Send the link that confirms your e-mail address again: 202. 409 ``no_email``,
    ``email_verified``."""

    write_scope = "account"
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={202: DetailOut})
    def post(self, request):
        services.email_confirmation_send(user=request.user, site_url=site_url(request))
        detail = f"A link to confirm your address is on its way to {request.user.email}."
        return Response({"detail": detail}, status=status.HTTP_202_ACCEPTED)


class TokenObtainView(_SigningInView):
    """Exchange a username and password for a new API token (the key is shown once)."""

    @extend_schema(request=TokenObtainIn, responses={201: TokenIssuedOut})
    def post(self, request):
        data = TokenObtainIn(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.user_check_credentials(
            request=request,
            username=data.validated_data["username"],
            password=data.validated_data["password"],
        )
        issued = services.token_create(user=user, name=data.validated_data["name"])
        return Response(TokenIssuedOut(issued).data, status=status.HTTP_201_CREATED)


class TokenListCreateView(ListAPIView):
    """GET: your API tokens, newest first, paginated like every list (``count``, ``next``,
    ``previous``, ``results``; ``page``/``page_size``), each with its name, the first characters
    of its key and when it was last used. POST ``{"name"}``: a new token; its key is in this
    answer only (the server keeps a hash of it)."""

    write_scope = "tokens"

    permission_classes = [IsAuthenticated]
    serializer_class = TokenOut
    filter_backends = [KnownQueryParameters]

    def get_queryset(self):
        return selectors.token_list(user=self.request.user)

    @extend_schema(request=TokenCreateIn, responses={201: TokenIssuedOut})
    def post(self, request):
        data = TokenCreateIn(data=request.data)
        data.is_valid(raise_exception=True)
        issued = services.token_create(user=request.user, name=data.validated_data["name"])
        return Response(TokenIssuedOut(issued).data, status=status.HTTP_201_CREATED)


class TokenDetailView(APIView):
    """Revoke one of your API tokens: it stops working at once."""

    write_scope = "tokens"
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={204: None})
    def delete(self, request, token_id: int):
        services.token_revoke(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    """Your profile. PATCH changes any of ``email`` (a new one is sent a link to confirm it:
    ``email_verified`` until then false), ``time_zone``, ``weekend_days``,
    ``is_computer`` (a person who lets a program play for them, marked as such on the rankings),
    the e-mails wanted, ``email_on_turn`` (your turn in a turn-based game; on by default),
    ``email_on_challenge`` (a direct challenge; on) and ``email_on_game_over`` (a turn-based
    game of yours ended; off), which go to a confirmed address only, and ``password`` (with
    ``current_password``)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: ProfileOut})
    def get(self, request):
        return Response(ProfileOut(request.user).data)

    @extend_schema(request=ProfilePatchIn, responses={200: ProfileOut})
    def patch(self, request):
        data = ProfilePatchIn(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        user = services.profile_update(
            user=request.user, **data.validated_data, site_url=site_url_or_none(request)
        )
        return Response(ProfileOut(user).data)


class AccountDeleteView(APIView):
    """Delete your account, with your password: your name becomes ``deleted-<id>``, your e-mail
    address, password, tokens and sessions are gone, you leave the leaderboards, your
    challenges and tournaments, and your games in progress are resigned (by a job, within
    seconds). Your finished games stay in the database under the new name. It cannot be
    undone."""

    write_scope = "account"
    permission_classes = [IsAuthenticated]

    @extend_schema(request=AccountDeleteIn, responses={204: None})
    def post(self, request):
        data = AccountDeleteIn(data=request.data)
        data.is_valid(raise_exception=True)
        services.account_delete(user=request.user, password=data.validated_data["password"])
        logout(request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerListView(ListAPIView):
    """Every player, by name: ``search`` (part of a username, any case), ``computer`` (only the
    computer players, or only people); paginated."""

    query_parameters = ("search", "computer")
    permission_classes = [AllowAny]
    serializer_class = PlayerListOut
    filter_backends = [KnownQueryParameters]

    @extend_schema(
        parameters=[
            OpenApiParameter("search", str, description="Part of a username."),
            OpenApiParameter("computer", bool, description="Only computer players or only people."),
        ]
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        params = PlayerListQueryIn(data=self.request.query_params)
        params.is_valid(raise_exception=True)
        return selectors.player_list(
            search=params.validated_data.get("search", ""),
            computers=params.validated_data.get("computer"),
        )


class PlayerDetailView(APIView):
    """A player's public page: when they joined, whether they are a computer player, their
    games counted (in progress, finished, won, lost, drawn, rated) and their ratings by game
    and category. 404 ``unknown_player``."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: PlayerPageOut})
    def get(self, request, username: str):
        user = selectors.player_get(username=username)
        if user is None:
            raise NotFound("unknown_player", f"There is no player called '{username}'.")
        page = selectors.player_page(user=user)
        body = dict(PlayerPageOut(page).data)
        # Keys added by other apps' PLAYER_PAGE_EXTRAS pass through as they are.
        body.update({k: v for k, v in page.items() if k not in body})
        return Response(body)
