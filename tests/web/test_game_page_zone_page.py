"""A game's page gives its script the time zone of the viewer's account, in which the page says
a turn-based game's deadline (and names it), as the tournament pages do."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory, make_game
from tests.web.pages import page_data

pytestmark = pytest.mark.django_db


def test_the_deadline_is_given_in_the_time_zone_of_the_viewers_account(client):
    white, black = UserFactory(time_zone="Asia/Tokyo"), UserFactory()
    game = make_game(players=[white, black], time_control="turn", days_per_move=2)
    client.force_login(white)
    assert page_data(client, game)["time_zone"] == "Asia/Tokyo"


@pytest.mark.parametrize("viewer", ["stranger", "unknown zone"])
def test_a_stranger_or_an_unknown_zone_gets_utc(client, viewer):
    game = make_game(time_control="turn", days_per_move=2)
    if viewer == "unknown zone":
        client.force_login(UserFactory(time_zone="Mars/Olympus_Mons"))
    assert page_data(client, game)["time_zone"] == "UTC"
