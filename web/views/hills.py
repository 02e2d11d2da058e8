"""The King of the Hill pages: the hills, and a hill's page with its steps drawn as a staircase
(members, ratings, crowns, hill sets and whose turn), join and leave buttons, challenges to
the members within reach, and the chat of the hill's room. The steps are a fragment of their own (``hill_steps``), which the
page's script reads again on each ``hill_changed`` of the hill's room."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from hills import selectors, services
from hills.models import Hill
from live import selectors as live_selectors
from pente_site.errors import NotFound

#: How far each step is drawn to the right of the one below it (rem).
STEP_INDENT = 2.5


def hills_page(request: HttpRequest) -> HttpResponse:
    """Every game's hills, live and turn-based, with their members and kings."""
    return render(request, "web/hills.html", {"hills": selectors.hills_list()})


def _context(request: HttpRequest, slug: str) -> dict:
    try:
        variant, kind = selectors.hill_of_slug(slug)
    except NotFound:
        raise Http404("There is no such hill.") from None
    hill = services.hill_open(slug=slug)  # the room the page follows exists from now on
    detail = selectors.hill_detail(variant=variant, kind=kind, hill=hill)
    me = request.user if request.user.is_authenticated else None
    mine = next(
        (
            m
            for s in detail["steps"]
            for m in s["members"]
            if me is not None and m["username"] == me.username
        ),
        None,
    )
    reach = detail["rules"]["reach_steps"]
    for s in detail["steps"]:
        s["indent"] = (s["step"] - 1) * STEP_INDENT
        for m in s["members"]:
            m["challengeable"] = (
                mine is not None
                and m["username"] != mine["username"]
                and m["step"] <= mine["step"] + reach
            )
    return {"hill": detail, "mine": mine, "turn": kind == Hill.Kind.TURN}


def hill_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The hill and its room's chat (the last lines; new ones come on the room's stream)."""
    context = _context(request, slug)
    room = live_selectors.room_find(name=context["hill"]["room"])
    viewer = request.user if request.user.is_authenticated else None
    context["chat"] = live_selectors.chat_lines(viewer=viewer, room=room, limit=30) if room else []
    return render(request, "web/hill.html", context)


def hill_steps(request: HttpRequest, slug: str) -> HttpResponse:
    """The staircase alone, for the page's script."""
    return render(request, "web/_hill_steps.html", _context(request, slug))
