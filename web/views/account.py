"""Sign up, sign in, sign out, a forgotten password, the settings page (profile, e-mails,
password, vacation, API tokens, the players ignored), and the page of a link that turns one kind of e-mail off.

The forms post here (Django's CSRF check on every one); the services judge them, and a refusal
is shown on the form with its sentence. Sign-up and sign-in count against the same rate
limits as the API's (``auth`` per address, ``auth_username`` per name)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts import guests
from accounts import selectors as account_selectors
from accounts import services as account_services
from accounts.models import User
from games.clocks import selectors as clock_selectors
from games.clocks import vacation
from games.notifications import services as notifications
from live import selectors as live_selectors
from live import services as live_services
from pente_site.counters import count_request, name_key
from pente_site.errors import DomainError
from pente_site.public import site_url, site_url_or_none
from web.forms import (
    DeleteAccountForm,
    NewPasswordForm,
    NotificationsForm,
    PasswordForm,
    PasswordResetForm,
    ProfileForm,
    SignInForm,
    SignUpForm,
    TokenForm,
    VacationForm,
)


def _next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return "/"


def _too_many(request: HttpRequest, username: str, *, scope: str = "auth_username") -> bool:
    """Whether this attempt goes past the sign-in limits (per address, and per name in
    ``scope``: ``auth_username``, or ``password_reset`` for an e-mail address)."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    checks = [("auth", request.META.get("REMOTE_ADDR", "?"))]
    named = name_key(username)
    if named:
        checks.append((scope, named))
    allowed = True
    for counted, ident in checks:
        ok, *_ = count_request(scope=counted, ident=ident, rate=rates[counted])
        allowed = allowed and ok
    return not allowed


def _account_limited(request: HttpRequest) -> bool:
    """Whether this settings action that checks the password or sends e-mail goes past the
    ``account`` limit, counted per user as the API counts ``me/delete`` (one budget for both
    doors: a stolen session cannot guess the password faster here)."""
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["account"]
    allowed, *_ = count_request(scope="account", ident=f"user:{request.user.pk}", rate=rate)
    return not allowed


#: The session's copy of a new API token's key, until the settings page has shown it once.
ISSUED_KEY = "web.issued_token"

_SLOW_DOWN = "Too many attempts from here or for that name: wait a minute and try again."


def _account_from(
    request: HttpRequest, form: SignUpForm | SignInForm, act: Callable[[str, str], User]
) -> User | None:
    """The account of a valid posted form: ``act(username, password)`` (register, or check
    the credentials) within the sign-in rate limits; None, with the reason on the form, when
    there is none."""
    if request.method != "POST" or not form.is_valid():
        return None
    name = form.cleaned_data["username"]
    if _too_many(request, name):
        form.add_error(None, _SLOW_DOWN)
        return None
    try:
        return act(name, form.cleaned_data["password"])
    except DomainError as err:
        form.add_error(None, err.detail)
        return None


def _judged(form: SignUpForm) -> None:
    """Put every problem the service sees in a posted sign-up form (the username's shape, the
    password, a taken name) beside its field at once, not one per attempt; a field whose shape
    the form itself refused (empty, too long) keeps the form's sentence alone."""
    form.is_valid()
    refused = set(form.errors)
    for problem in account_services.registration_problems(
        username=form.data.get("username", ""),
        password=form.data.get("password", ""),
        email=form.data.get("email", ""),
    ):
        if problem.field not in refused:
            form.add_error(problem.field, problem.detail)


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        # Not a silent switch of accounts: say who is signed in, with a way to sign out.
        return render(request, "web/signed_in.html", {"next": request.path})
    form = SignUpForm(request.POST or None)
    if form.is_bound:
        _judged(form)
    user = _account_from(
        request,
        form,
        lambda name, password: account_services.user_register(
            username=name,
            password=password,
            email=form.cleaned_data.get("email", ""),
            site_url=site_url_or_none(request),
        ),
    )
    if user is not None:
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}.")
        return redirect(_next(request))
    return render(request, "web/signup.html", {"form": form, "next": _next(request)})


@require_POST
def play_as_guest(request: HttpRequest) -> HttpResponse:
    """A signed-out visitor's account to play the computer (``guests.guest_create``), signed in
    for the browser's session only; then the play page. A signed-in visitor just goes there."""
    if not request.user.is_authenticated:
        if _too_many(request, ""):
            messages.error(request, _SLOW_DOWN)
            return redirect("web:play")
        guest = guests.guest_create()
        login(request, guest, backend="django.contrib.auth.backends.ModelBackend")
        request.session.set_expiry(0)  # ends when the browser closes
        messages.success(
            request,
            f"You play as {guest.username}: unrated games against the computer, kept while this "
            "browser is open. Sign up to play people.",
        )
    return redirect("web:play")


def _stored_name(name: str) -> str:
    """The account's name as stored, for a name typed in any case (names are unique regardless
    of case); the name as typed when there is no such account."""
    found = account_selectors.player_get(username=name)
    return found.username if found is not None else name


def signin(request: HttpRequest) -> HttpResponse:
    form = SignInForm(request.POST or None)
    user = _account_from(
        request,
        form,
        lambda name, password: account_services.user_check_credentials(
            request=request, username=_stored_name(name), password=password
        ),
    )
    if user is not None:
        login(request, user)
        return redirect(_next(request))
    return render(request, "web/login.html", {"form": form, "next": _next(request)})


def password_reset(request: HttpRequest) -> HttpResponse:
    """Forgot your password: an e-mail address, then the same page whether or not an account
    has it (``account_services.password_reset_request`` sends the links)."""
    form = PasswordResetForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        if _too_many(request, email, scope="password_reset"):
            form.add_error(None, _SLOW_DOWN)
        else:
            try:
                address = site_url(request)
            except DomainError as err:
                form.add_error(None, err.detail)
            else:
                account_services.password_reset_request(email=email, site_url=address)
                return render(request, "web/password_reset_sent.html", {"email": email})
    return render(request, "web/password_reset.html", {"form": form})


def password_reset_confirm(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """The page a link opens: a new password, typed twice; then signed in."""
    if account_selectors.reset_link_user(uid=uidb64, token=token) is None:
        return render(request, "web/password_reset_confirm.html", {"form": None}, status=400)
    form = NewPasswordForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = account_services.password_reset_confirm(
                uid=uidb64, token=token, password=form.cleaned_data["password"]
            )
        except DomainError as err:
            form.add_error("password", err.detail)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request,
                "Your new password is set and you are signed in. Any API tokens of this "
                "account were revoked: make new ones in the settings.",
            )
            return redirect("/")
    return render(request, "web/password_reset_confirm.html", {"form": form})


def email_confirm(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """The page a confirmation link opens: a button confirms the address (a POST, so that a
    mail program fetching the link to look at it confirms nothing)."""
    user = account_selectors.email_link_user(uid=uidb64, token=token)
    if user is None:
        return render(request, "web/email_confirm.html", {"address": None}, status=400)
    if request.method == "POST":
        account_services.email_confirm(uid=uidb64, token=token)
        messages.success(request, f"{user.email} is confirmed: thank you.")
        return redirect("/")
    return render(request, "web/email_confirm.html", {"address": user.email})


@csrf_exempt
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The page of the link at the end of a notification: a button turns that kind of e-mail
    off, without signing in (a POST: a mail program that opens the link to look at it changes
    nothing). The signed token is the credential, so the POST needs no CSRF token: mail
    programs that offer one-click unsubscribing (``List-Unsubscribe-Post``, RFC 8058) post to
    this address themselves."""
    found = account_selectors.unsubscribe_link(token=token)
    if found is None:
        return render(request, "web/unsubscribe.html", {"account": None}, status=400)
    user, kind = found
    done = request.method == "POST"
    if done:
        notifications.email_unsubscribe(token=token)
    context = {"account": user, "what": notifications.EMAIL_KIND_WORDS[kind], "done": done}
    return render(request, "web/unsubscribe.html", context)


def signout(request: HttpRequest) -> HttpResponse:
    """Signing out is a POST (the header's button); a GET shows a page with that button."""
    if request.method != "POST":
        return render(request, "web/logout.html")
    logout(request)
    return redirect("/")


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    user = request.user
    profile = ProfileForm(
        initial={
            "email": user.email,
            "time_zone": user.time_zone,
            "weekend_days": list(user.weekend_days or []),
        }
    )
    choices = NotificationsForm(
        initial={name: getattr(user, name) for name in NotificationsForm.base_fields}
    )
    password, away, token_form = PasswordForm(), VacationForm(), TokenForm()
    deletion = DeleteAccountForm()
    issued = request.session.pop(ISSUED_KEY, None) if request.method == "GET" else None
    if request.method == "POST":
        action = request.POST.get("action")
        if action in ("password", "delete", "confirm-email") and _account_limited(request):
            messages.error(request, _SLOW_DOWN)
            return redirect("web:settings")
        try:
            if action == "profile":
                profile = ProfileForm(request.POST)
                if profile.is_valid():
                    changed = profile.cleaned_data["email"] != user.email
                    account_services.profile_update(
                        user=user, **profile.cleaned_data, site_url=site_url_or_none(request)
                    )
                    saved = "Your settings are saved."
                    if changed and user.email:
                        saved += f" A link to confirm {user.email} is on its way to it."
                    messages.success(request, saved)
                    return redirect("web:settings")
            elif action == "notifications":
                choices = NotificationsForm(request.POST)
                if choices.is_valid():
                    account_services.profile_update(user=user, **choices.cleaned_data)
                    messages.success(request, "Your e-mail choices are saved.")
                    return redirect("web:settings")
            elif action == "confirm-email":
                account_services.email_confirmation_send(user=user, site_url=site_url(request))
                messages.success(request, f"A link to confirm {user.email} is on its way to it.")
                return redirect("web:settings")
            elif action == "password":
                password = PasswordForm(request.POST)
                if password.is_valid():
                    account_services.profile_update(
                        user=user,
                        password=password.cleaned_data["password"],
                        current_password=password.cleaned_data["current_password"],
                    )
                    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                    messages.success(request, "Your password is changed.")
                    return redirect("web:settings")
            elif action == "vacation":
                away = VacationForm(request.POST)
                if away.is_valid():
                    vacation.vacation_start(user=user, hours=away.cleaned_data["hours"])
                    messages.success(request, "Your vacation has started.")
                    return redirect("web:settings")
            elif action == "token":
                token_form = TokenForm(request.POST)
                if token_form.is_valid():
                    issued = account_services.token_create(
                        user=user, name=token_form.cleaned_data["name"]
                    )
                    # Post/redirect/get: a reload makes no second token. The key is shown
                    # once, by the next page, from the session.
                    request.session[ISSUED_KEY] = {"key": issued.key}
                    return redirect("web:settings")
            elif action == "delete":
                deletion = DeleteAccountForm(request.POST)
                if deletion.is_valid():
                    account_services.account_delete(
                        user=user, password=deletion.cleaned_data["current_password"]
                    )
                    logout(request)
                    messages.success(request, "Your account is deleted. Goodbye!")
                    return redirect("/")
            elif action == "revoke":
                account_services.token_revoke(user=user, token_id=int(request.POST["token"]))
                messages.success(request, "The token is revoked.")
                return redirect("web:settings")
            elif action == "unignore":
                name = request.POST["username"]
                live_services.ignore_remove(user=user, username=name)
                messages.success(request, f"You no longer ignore {name}.")
                return redirect("web:settings")
        except (DomainError, ValueError, KeyError) as err:
            messages.error(request, getattr(err, "detail", "That request is not valid."))
    return render(
        request,
        "web/settings.html",
        {
            "profile": profile,
            "notifications": choices,
            "password": password,
            "vacation_form": away,
            "token_form": token_form,
            "deletion": deletion,
            "issued": issued,
            "tokens": account_selectors.token_list(user=user),
            "ignores": live_selectors.ignores_of(user=user),
            "vacation": clock_selectors.vacation_status(user=user),
        },
    )
