"""The play pages: a new game (challenge a player, post an open challenge, accept one, play the
computer) and a game's page (play it, watch it, or step through it once it is over).

The game page is the API's game state (``GET /api/games/{id}/``, the same selector) drawn on the
server's template and kept current by the page's script from the game's event stream."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.bots import analysis, analysis_selectors
from games.bots import selectors as bot_selectors
from games.challenges import rematch
from games.challenges import selectors as challenge_selectors
from games.challenges import services as challenge_services
from games.challenges.models import Challenge
from games.clocks import timecontrol
from games.clocks.timecontrol import TimeControl
from games.engine import GAMES, GO_VARIANTS, get_variant
from games.engine.openings import MULTI_VARIANTS
from games.play import selectors as play_selectors
from games.play.models import Game
from hills.selectors import crown_shade
from hills.templatetags.hill_crowns import request_kings
from pente_site.errors import DomainError, NotFound
from web.challenges import challenge_rows
from web.links import viewer_zone


def _viewer(request: HttpRequest):
    return request.user if request.user.is_authenticated else None


#: The form's "Players" choices: two, a multi-player table of 3..6, or partners (4 seats).
SEAT_CHOICES = [
    *(
        (str(n), str(n) if n == 2 else f"{n} (multi-player)")
        for n in range(challenge_services.MIN_SEATS, challenge_services.MAX_SEATS + 1)
    ),
    ("partners", f"{challenge_services.PARTNER_SEATS}, partners (two teams of two)"),
]


#: Who may take up an open challenge (``restriction``), in the words of the API's rule
#: (``challenge_selectors.restriction_failure``).
RESTRICTION_LABELS = {
    Challenge.Restriction.NONE: "Anyone",
    Challenge.Restriction.RATING_ABOVE: "Players rated at least the bound",
    Challenge.Restriction.RATING_BELOW: "Players rated at most the bound",
    Challenge.Restriction.RATING_SIMILAR: "Players rated within "
    f"{challenge_selectors.SIMILAR_RATING_RANGE} points of the bound",
    Challenge.Restriction.NOT_PLAYING_ME: "Players not already playing me",
    Challenge.Restriction.BEGINNERS: "Beginners (fewer than "
    f"{challenge_selectors.BEGINNER_MAX_RESULTS} rated results)",
}
#: The restrictions that compare a rating with a bound (``restriction_rating``).
RATING_RESTRICTIONS = (
    Challenge.Restriction.RATING_ABOVE,
    Challenge.Restriction.RATING_BELOW,
    Challenge.Restriction.RATING_SIMILAR,
)


def _variants_with(option: str) -> str:
    """The slugs of the games (space-separated, as the form's ``data-when`` reads them) whose
    challenges have ``option`` (``challenge_services.challenge_options``)."""
    return " ".join(
        v.slug for v in GAMES.values() if challenge_services.challenge_options(v.name)[option]
    )


def _limits() -> dict:
    """What the new-game form's numbers may be: the API's own limits (``TimeControl``, the
    challenge service), so that the form never refuses what the API takes or the reverse
    (both zero, the API's refusal is said)."""
    return {
        "initial_minutes": (0, timecontrol.MAX_INITIAL_MINUTES),
        "increment_seconds": (0, timecontrol.MAX_INCREMENT_SECONDS),
        "days_per_move": (timecontrol.MIN_DAYS_PER_MOVE, timecontrol.MAX_DAYS_PER_MOVE),
        "computer_wait_seconds": (0, challenge_services.MAX_COMPUTER_WAIT_SECONDS),
        "restriction_rating": (
            challenge_services.MIN_RESTRICTION_RATING,
            challenge_services.MAX_RESTRICTION_RATING,
        ),
        "message": challenge_services.MAX_MESSAGE_LENGTH,
    }


def new_game(request: HttpRequest) -> HttpResponse:
    user = _viewer(request)
    challenges = {
        "open": challenge_selectors.challenges_open,
        "incoming": challenge_selectors.challenges_incoming,
        "outgoing": challenge_selectors.challenges_outgoing,
    }
    context = {
        "variants": [(v.slug, v.name) for v in GAMES.values()],  # the API takes either
        "computers": bot_selectors.bots_list(),
        **{
            key: challenge_rows(read(user=user), user) if user else []
            for key, read in challenges.items()
        },
        "invitee": request.GET.get("invite", ""),
        "seat_choices": SEAT_CHOICES,
        "multi_variants": MULTI_VARIANTS,
        "limits": _limits(),
        "computer_wait": settings.BOT_OPEN_WAIT_SECONDS,
        # The choices each game has (its name in these lists: the field is shown for it).
        "tournament_rule_variants": _variants_with("tournament_rule"),
        "rated_tournament_rule_variants": _variants_with("rated_tournament_rule"),
        "adjacent_only_variants": _variants_with("adjacent_only"),
        "restrictions": [(r.value, RESTRICTION_LABELS[r]) for r in Challenge.Restriction],
        "rating_restrictions": " ".join(RATING_RESTRICTIONS),
    }
    return render(request, "web/play.html", context)


def _hints_offered(game: Game, seats: list[int]) -> bool:
    """Whether the page offers the viewer (on the seats ``seats``) hints on their turn: the
    API's own rule (``analysis_selectors.hint_refusal``), in a game in progress. The rule's
    phases of Go (``HINT_PHASES``) go to the page, which follows the phase on the stream."""
    if not seats or game.status != Game.Status.IN_PROGRESS:
        return False
    everyone = play_selectors.seats_with_users(game)
    return analysis_selectors.hint_refusal(game=game, seats=everyone, mine=seats) is None


def _analysis_status(game: Game) -> str | None:
    """The status of the game's computer analysis (None: nobody asked for it), read for a game
    over only: the page reads the analysis itself from the API when there is one."""
    if game.status == Game.Status.IN_PROGRESS:
        return None
    return analysis_selectors.analysis_status(game=game)


def _rematch_offered(game: Game, viewer) -> bool:
    """Whether the page offers ``viewer`` a rematch once the game is over (a player of a
    two-player game that is not a tournament's or an imported record)."""
    if viewer is None:
        return False
    try:
        rematch.rematch_opponent(game=game, user=viewer, over=False)
    except DomainError:
        return False
    return True


def _crowns(request: HttpRequest, state: dict) -> dict[str, int]:
    kings = request_kings(request)
    names = {(p.get("user") or {}).get("username") for p in state["players"]}
    return {name: crown_shade(kings[name]) for name in names if name in kings}


def game_page(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        shown = play_selectors.game_to_show(game_id=pk)
    except NotFound:
        raise Http404("There is no such game.") from None
    game = shown.game
    viewer = _viewer(request)
    state = play_selectors.game_state(game=game, viewer=viewer, snapshot=shown)
    seats = [
        p["seat"]
        for p in state["players"]
        if viewer is not None and p.get("user") and p["user"]["id"] == viewer.pk
    ]
    variant = get_variant(game.variant)
    go = game.variant in GO_VARIANTS
    context = {
        "game": game,
        "state": state,
        "time_control": str(TimeControl.of(game)),
        # The options chosen for this game, said beside its name: a player learns them here,
        # not from a refused move.
        "options": [
            word
            for word, chosen in (
                ("tournament rule", game.tournament_rule and not variant.tournament_rule_always),
                ("adjacent only", game.adjacent_only),
            )
            if chosen
        ],
        "page": {
            "id": game.pk,
            "my_seats": seats,
            "go": go,
            "opening": variant.opening,  # which decisions the page explains
            "captures": variant.captures and not go,
            # Captures by pairs only (Pente, not Keryo's threes): said in pairs too.
            "capture_pairs": tuple(variant.capture_lengths) == (2,),
            "set_games": game.game_set.games_count if game.game_set_id else 0,
            "hints": _hints_offered(game, seats),
            "hint_phases": analysis_selectors.HINT_PHASES,  # Go: none while marking
            "analysis": _analysis_status(game),
            "analysable": analysis.engine_analyses(game),  # once it is over
            "win_chance_slope": analysis.WIN_CHANCE_SLOPE,
            "time_zone": str(viewer_zone(viewer)),  # the account's, for the deadline
            "rematch": _rematch_offered(game, viewer),  # web/rematch.js
            # The kings of hills among the players: their crown's shade (web/players.js).
            "crowns": _crowns(request, state),
        },
    }
    return render(request, "web/game.html", context)
