"""The play page's new-game form offers what the challenges API takes: who moves first, the
tournament rule and the adjacent-only option for the games that have them, and who may take up
an open challenge (a rating bound within the API's limits). Each choice the form can send is
one the API takes; where the form hides one, the API has no such choice for that game."""

from __future__ import annotations

import re

import pytest

from games.challenges import services
from games.challenges.models import Challenge
from games.engine import GAMES
from pente_site.errors import Invalid
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def form(client) -> str:
    """The new-game form as a signed-in player gets it."""
    client.force_login(UserFactory())
    page = client.get("/play/").content.decode()
    start = page.index('<form id="challenge-form"')
    return page[start : page.index("</form>", start)]


def options(form: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', form, re.S).group(1)
    return re.findall(r'<option value="([^"]*)"', select)


def shown_when(form: str, name: str) -> dict[str, set[str]]:
    """The conditions under which the label holding the field ``name`` is shown."""
    label = re.search(
        rf'<label[^>]*data-when="([^"]*)"[^>]*>(?:(?!</label>).)*name="{name}"', form, re.S
    )
    conditions = (c.split(":") for c in label.group(1).split(";"))
    return {field.strip(): set(values.split()) for field, values in conditions}


def create(**fields) -> Challenge:
    return services.challenge_create(creator=UserFactory(), **fields)


def takes(**fields) -> bool:
    try:
        create(**fields)
    except Invalid:
        return False
    return True


def test_who_moves_first_is_a_coin_me_or_my_opponent_and_the_api_takes_each(form):
    assert options(form, "seat_wanted") == ["", "1", "2"]
    # Two-player tables only: hidden for the others (an open table of 3 or partners).
    assert shown_when(form, "seat_wanted") == {"seats": {"2"}}
    opponent = UserFactory()
    for value in (None, 1, 2):
        made = create(variant="Pente", invitee_username=opponent.username, seat_wanted=value)
        assert made.seat_wanted == value
    with pytest.raises(Invalid):
        create(variant="Pente", seats=3, seat_wanted=1)


def test_the_tournament_rule_is_offered_unrated_for_the_games_where_the_api_lets_one_choose(form):
    shown = shown_when(form, "tournament_rule")
    assert shown["rated"] == {"off"} and shown["seats"] == {"2", "partners"}
    offered = shown["variant"]
    assert {"pente", "keryo-pente"} <= offered
    assert not offered & {"gomoku", "g-pente", "go-9"}  # none, always, none
    for v in GAMES.values():
        either = takes(variant=v.slug, tournament_rule=True) and takes(
            variant=v.slug, tournament_rule=False
        )
        assert either == (v.slug in offered), v.name
    # Rated games always play it: a rated challenge cannot turn it off.
    with pytest.raises(Invalid, match="always played with the tournament rule"):
        create(variant="Pente", rated=True, tournament_rule=False)


def test_rated_games_say_they_use_the_tournament_rule_where_their_sets_do(form):
    said = re.search(r'<p class="muted" data-when="rated:on; variant:([^"]*)"', form).group(1)
    for v in GAMES.values():
        made = create(variant=v.slug, invitee_username=UserFactory().username, rated=True)
        accepted = services.challenge_accept(challenge_id=made.pk, user=made.invitee)
        assert accepted.game.tournament_rule == (v.slug in said.split()), v.name


def test_adjacent_only_is_offered_unrated_for_the_games_the_api_takes_it_for(form):
    shown = shown_when(form, "adjacent_only")
    assert shown["rated"] == {"off"}
    offered = shown["variant"]
    assert "pente" in offered and not offered & {"go", "go-13", "go-9"}
    for v in GAMES.values():
        assert takes(variant=v.slug, adjacent_only=True) == (v.slug in offered), v.name
    with pytest.raises(Invalid, match="without the adjacent-only option"):
        create(variant="Pente", rated=True, adjacent_only=True)


def test_an_open_challenge_says_who_may_take_it_up_with_the_apis_bounds(form):
    assert options(form, "restriction") == list(Challenge.Restriction.values)
    assert shown_when(form, "restriction") == {"opponent": {"open"}}
    assert shown_when(form, "restriction_rating") == {
        "opponent": {"open"},
        "restriction": {"rating_above", "rating_below", "rating_similar"},
    }
    field = re.search(r'<input type="number" name="restriction_rating"[^>]*>', form).group(0)
    low, high = (int(re.search(rf'{b}="(\d+)"', field).group(1)) for b in ("min", "max"))
    assert (low, high) == (services.MIN_RESTRICTION_RATING, services.MAX_RESTRICTION_RATING)
    for bound in (low, high):
        made = create(variant="Pente", restriction="rating_above", restriction_rating=bound)
        assert made.restriction_rating == bound
    for bound in (low - 1, high + 1):
        assert not takes(variant="Pente", restriction="rating_below", restriction_rating=bound)
    # Without a bound, the creator's own rating (1600 before any).
    assert create(variant="Pente", restriction="rating_similar").restriction_rating == 1600


def test_the_games_are_offered_by_slug_which_the_api_takes(form):
    assert options(form, "variant") == [v.slug for v in GAMES.values()]
    assert create(variant="go-9").variant == "Go (9x9)"
