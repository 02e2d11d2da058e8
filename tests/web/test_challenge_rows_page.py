"""The challenge rows of the home and play pages as the server renders them: a multi-player or
partners invitation says its seats, who sits in them and how many are filled, and offers Join,
Leave or Cancel as the API allows; every row says whether it is rated, and who moves first when
its creator chose; the play page's form offers the tables the API takes, with its own limits."""

from __future__ import annotations

import html
import re

import pytest

from games.bots.accounts import bots_ensure
from games.challenges import services
from games.clocks import timecontrol
from tests.factories import ChallengeEntryFactory, UserFactory
from web.challenges import challenge_rows

pytestmark = pytest.mark.django_db


def row(page: str, challenge_id: int, list_id: str = "open") -> tuple[str, list[str]]:
    """The words of the challenge's row in the list ``list_id`` and the labels of its buttons."""
    listed = re.search(rf'<ul class="challenges" id="{list_id}">(.*?)</ul>', page, re.S)
    assert listed, f"the page has the list {list_id}"
    found = re.search(
        rf'<li data-challenge="{challenge_id}"[^>]*>(.*?)</li>', listed.group(1), re.S
    )
    assert found, f"challenge {challenge_id} is in the list {list_id}"
    buttons = re.findall(r"<button[^>]*>(.*?)</button>", found.group(1))
    words = re.sub(r"<button.*?</button>", " ", found.group(1), flags=re.S)
    words = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", words))).strip()
    return words, buttons


@pytest.fixture
def partners():
    """eve's partners invitation to Keryo-Pente, which alice has joined: (challenge, eve, alice)."""
    eve, alice = UserFactory(username="eve"), UserFactory(username="alice")
    made = services.challenge_create(
        creator=eve, variant="Keryo-Pente", seats=4, partners=True, message="partners anyone?"
    )
    services.challenge_join(challenge_id=made.pk, user=alice)
    return made, eve, alice


def test_a_partners_invitation_says_its_seats_and_who_sits_in_them(client, partners):
    made, _, _ = partners
    words, buttons = row(client.get("/").content.decode(), made.pk)
    assert words == (
        "Keryo-Pente · 4 players, partners · unrated · untimed · by eve “partners anyone?” · "
        "2/4: eve, alice"
    )
    assert buttons == []  # signed out: nothing to do


@pytest.mark.parametrize("page", ["/", "/play/"])
def test_a_stranger_may_join_a_member_leave_and_the_creator_cancel(client, partners, page):
    made, eve, alice = partners
    client.force_login(UserFactory())
    assert row(client.get(page).content.decode(), made.pk)[1] == ["Join"]
    client.force_login(alice)
    listed = "open" if page == "/" else "outgoing"  # the play page lists it as hers
    assert row(client.get(page).content.decode(), made.pk, listed)[1] == ["Leave"]
    client.force_login(eve)
    assert row(client.get(page).content.decode(), made.pk, listed)[1] == ["Cancel"]


def test_the_rows_of_ones_own_challenges_are_marked_as_waiting_for_their_game(client, partners):
    made, _, alice = partners
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert f'<li data-challenge="{made.pk}" data-waiting>' in page
    client.force_login(UserFactory())
    assert f'<li data-challenge="{made.pk}">' in client.get("/").content.decode()


def test_a_seat_given_back_is_free_again(client, partners):
    made, _, alice = partners
    services.challenge_leave(challenge_id=made.pk, user=alice)
    client.force_login(alice)
    words, buttons = row(client.get("/").content.decode(), made.pk)
    assert words.endswith("· 1/4: eve") and buttons == ["Join"]


def test_a_three_player_invitation_that_computers_fill_says_so(client):
    bots_ensure()
    bob = UserFactory(username="bob")
    made = services.challenge_create(
        creator=bob, variant="Pente", seats=3, computer_level=2, computer_wait_seconds=600
    )
    words, _ = row(client.get("/").content.decode(), made.pk)
    assert "· 3 players ·" in words and "partners" not in words
    assert "1/3: bob" in words
    assert words.endswith("computers (level 2) take the empty seats if nobody does")


def test_a_full_table_offers_no_join():
    """Every seat taken (the game is being made): nothing to join, the creator's cancel, and a
    seated player's leave."""
    eve, alice, carl = UserFactory(), UserFactory(), UserFactory()
    made = services.challenge_create(creator=eve, variant="Pente", seats=3)
    for user in (alice, carl):
        ChallengeEntryFactory(challenge=made, user=user)
    actions = [challenge_rows([made], user)[0].actions for user in (eve, alice, UserFactory())]
    assert actions == [("cancel",), ("leave",), ()]


def test_two_player_challenges_are_accepted_or_declined_as_before(client):
    ann, bob = UserFactory(), UserFactory()
    direct = services.challenge_create(creator=ann, variant="Pente", invitee_username=bob.username)
    client.force_login(bob)
    words, buttons = row(client.get("/").content.decode(), direct.pk, "incoming")
    assert buttons == ["Accept", "Decline"] and "players" not in words and "/" not in words


@pytest.mark.parametrize("page", ["/", "/play/"])
def test_a_row_says_rated_or_unrated(client, page):
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    rated = services.challenge_create(creator=ann, variant="Pente", rated=True)
    unrated = services.challenge_create(creator=ann, variant="Gomoku")
    client.force_login(bob)
    shown = client.get(page).content.decode()
    assert row(shown, rated.pk)[0] == "Pente · rated · untimed · by ann"
    assert row(shown, unrated.pk)[0] == "Gomoku · unrated · untimed · by ann"


@pytest.mark.parametrize(
    ("invitee", "seat_wanted", "said"),
    [
        ("bob", 1, "by ann to bob · ann moves first"),
        ("bob", 2, "by ann to bob · bob moves first"),
        (None, 1, "by ann · ann moves first"),
        (None, 2, "by ann · whoever takes it moves first"),
        ("bob", None, "by ann to bob"),  # a coin decides: nothing said
    ],
)
def test_a_row_says_who_moves_first_when_the_creator_chose(client, invitee, seat_wanted, said):
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    made = services.challenge_create(
        creator=ann, variant="Pente", invitee_username=invitee, seat_wanted=seat_wanted
    )
    client.force_login(bob)
    listed = "incoming" if invitee else "open"
    words, _ = row(client.get("/").content.decode(), made.pk, listed)
    assert words == f"Pente · unrated · untimed · {said}"


def test_the_play_form_offers_the_tables_the_api_takes(client):
    client.force_login(UserFactory())
    page = client.get("/play/").content.decode()
    seats = re.search(r'<select name="seats"[^>]*>(.*?)</select>', page, re.S).group(1)
    values = re.findall(r'<option value="([^"]+)">', seats)
    assert values == ["2", "3", "4", "5", "6", "partners"]
    assert "Pente and Keryo-Pente only" in page
    levels = re.search(r'<select name="computer_level">(.*?)</select>', page, re.S).group(1)
    assert re.findall(r'<option value="([^"]*)">', levels)[0] == ""  # people only, by default


def number_field(page: str, name: str) -> tuple[int, int]:
    field = re.search(rf'<input type="number" name="{name}"[^>]*>', page).group(0)
    low, high = (int(re.search(rf'{bound}="(\d+)"', field).group(1)) for bound in ("min", "max"))
    return low, high


def test_the_play_forms_time_limits_are_the_apis(client):
    client.force_login(UserFactory())
    page = client.get("/play/").content.decode()
    assert number_field(page, "initial_minutes") == (0, timecontrol.MAX_INITIAL_MINUTES)
    assert number_field(page, "increment_seconds") == (0, timecontrol.MAX_INCREMENT_SECONDS)
    assert number_field(page, "days_per_move") == (
        timecontrol.MIN_DAYS_PER_MOVE,
        timecontrol.MAX_DAYS_PER_MOVE,
    )
    assert number_field(page, "computer_wait_seconds") == (0, services.MAX_COMPUTER_WAIT_SECONDS)
    assert f'name="message" maxlength="{services.MAX_MESSAGE_LENGTH}"' in page
    # Each bound is one the API takes, and one past it one it refuses.
    timecontrol.TimeControl.live(timecontrol.MAX_INITIAL_MINUTES, timecontrol.MAX_INCREMENT_SECONDS)
    timecontrol.TimeControl.live(0, 1)
    with pytest.raises(timecontrol.ClockError):
        timecontrol.TimeControl.live(10, timecontrol.MAX_INCREMENT_SECONDS + 1)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"tournament_rule": True}, "tournament rule"),
        ({"adjacent_only": True}, "adjacent only"),
        (
            {"restriction": "rating_above", "restriction_rating": 1800},
            "for players rated 1800 or more",
        ),
        ({"restriction": "beginners"}, "for beginners (fewer than 20 rated results)"),
        ({"restriction": "not_playing_me"}, "for players not already playing ann"),
    ],
)
def test_a_row_says_the_rules_and_restriction_its_creator_chose(client, options, said):
    """Whoever takes it up knows what they agree to."""
    ann = UserFactory(username="ann")
    made = services.challenge_create(creator=ann, variant="Pente", **options)
    words, _ = row(client.get("/").content.decode(), made.pk)
    assert words == f"Pente · unrated · untimed · {said} · by ann"
