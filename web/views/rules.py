"""The rule pages (one per game, from the project's rule book) and the site's policies: rated
games, privacy and terms."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from games.engine import GAMES, UnknownGame, get_variant
from ratings.elo import ESTABLISHED_RESULTS, START_RATING
from web.rulebook import game_rules


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "web/rules_index.html", {"games": list(GAMES.values())})


def rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        variant = get_variant(slug)
    except UnknownGame:
        raise Http404(f"There is no game {slug!r}.") from None
    if slug != variant.slug:  # a game's name (the game page links by name): its slug's page
        return redirect("web:rules-game", slug=variant.slug, permanent=True)
    return render(
        request,
        "web/rules.html",
        {"variant": variant, "rules": game_rules(variant.name), "games": list(GAMES.values())},
    )


def rated_policy(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "web/policy_rated.html",
        {
            "start_rating": int(START_RATING),
            "established": ESTABLISHED_RESULTS,
            "abort_limit": settings.ABORT_LIMIT,
            "abort_hours": settings.ABORT_LIMIT_HOURS,
        },
    )


def privacy_policy(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "web/policy_privacy.html",
        {"guest_hours": int(settings.GUEST_IDLE.total_seconds() // 3600)},
    )


def terms(request: HttpRequest) -> HttpResponse:
    return render(request, "web/policy_terms.html")
