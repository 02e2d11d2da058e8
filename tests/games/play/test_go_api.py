"""Go over the API: stones and passes, the marking of dead stones with its answers, the count."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.play.models import Game, Move
from tests.factories import UserFactory, make_game
from tests.games.play.support import lost_on_time_while_marking
from tests.games.records.importing import import_job

pytestmark = pytest.mark.django_db

#: Black builds a wall on column D, white on column F (9x9): black owns A-D (36 points), white
#: F-J (36), column E is neutral. 18 stones, black first.
WALLS = [p for row in range(1, 10) for p in (f"D{row}", f"F{row}")]


@pytest.fixture
def players():
    return UserFactory(username="black"), UserFactory(username="white")


@pytest.fixture
def game(players):
    return make_game(players=list(players), variant="Go (9x9)")


class Table:
    def __init__(self, game, players):
        self.url = f"/api/games/{game.pk}"
        self.clients = {}
        for seat, user in enumerate(players, start=1):
            client = APIClient()
            client.force_authenticate(user)
            self.clients[seat] = client

    def state(self):
        return self.clients[1].get(f"{self.url}/").json()

    def post(self, seat, action, body):
        body = {"ply": self.state()["ply"], **body}
        return self.clients[seat].post(f"{self.url}/{action}", body, format="json")

    def move(self, seat, point):
        response = self.post(seat, "moves", {"point": point})
        assert response.status_code == 200, response.json()
        return response.json()


def test_a_new_9x9_game_is_empty_with_black_to_move(game):
    body = APIClient().get(f"/api/games/{game.pk}/").json()
    assert body["variant"] == "Go (9x9)" and body["ply"] == 0
    assert body["board"]["size"] == 9 and body["board"]["rows"] == ["." * 9] * 9
    assert body["to_move"]["seat"] == 1 and body["to_move"]["colour"] == 1
    assert body["go"]["phase"] == "playing" and body["go"]["komi"] == 7.5
    assert body["set_id"] is None or body["rated"] is False


def test_points_are_named_on_the_game_s_own_board(game, players):
    t = Table(game, players)
    body = t.move(1, "J9")
    assert body["board"]["stones"] == [{"point": 8, "name": "J9", "colour": 1}]
    refused = t.post(2, "moves", {"point": "T19"}).json()
    assert refused["code"] == "off_board"


def test_a_9x9_game_played_to_two_passes_marked_rejected_resumed_and_counted(game, players):
    t = Table(game, players)
    for i, point in enumerate(WALLS):
        t.move(1 + i % 2, point)
    t.move(1, "PASS")
    t.move(2, "B5")  # white invades black's side: a stone that cannot live
    t.move(1, "PASS")
    body = t.move(2, "PASS")
    assert body["go"]["phase"] == "marking" and body["go"]["marking_seat"] == 1
    assert body["to_move"]["seat"] == 1 and body["pending_decision"] is None

    refused = t.post(2, "dead", {"points": ["B5"]})
    assert refused.status_code == 409 and refused.json()["code"] == "not_your_turn"
    body = t.post(1, "dead", {"points": ["B5"]}).json()
    assert body["go"]["proposed_dead"] == ["B5"]
    assert body["pending_decision"] == "dead_stones"
    assert body["decisions_available"] == ["accept", "reject"]
    assert body["to_move"]["seat"] == 2

    body = t.post(2, "decision", {"choice": "reject"}).json()
    assert body["go"]["phase"] == "playing" and body["to_move"]["seat"] == 1
    assert body["status"] == "in_progress"

    t.move(1, "PASS")
    t.move(2, "PASS")
    t.post(1, "dead", {"points": ["B5"]})
    body = t.post(2, "decision", {"choice": "accept"}).json()
    assert (body["status"], body["end_reason"]) == ("finished", "score")
    # black: D wall (9) + A-C (27, B5 counted once the white stone is off) = 36;
    # white: F wall (9) + G-J (27) + komi 7.5 = 43.5; column E touches both: nobody's
    assert body["go"]["score"]["black"] == 36 and body["go"]["score"]["white"] == 43.5
    assert body["go"]["dead"] == ["B5"] and body["winner_seats"] == [2]
    assert body["captures"][0] == 1  # the dead stone, a prisoner of black
    assert body["board"]["rows"][4][1] == "."
    assert [m["kind"] for m in body["moves"][-7:]] == [
        "pass",
        "mark",
        "decision",
        "pass",
        "pass",
        "mark",
        "decision",
    ]
    # the game replays from its stored moves to the same count
    fresh = APIClient().get(f"/api/games/{game.pk}/").json()
    assert fresh["go"] == body["go"] and fresh["board"] == body["board"]

    # its Pente.org-format record names the game, the passes and the dead stones
    record = APIClient().get(f"/api/games/{game.pk}/record").content.decode()
    assert '[Game "Go (9x9)"]' in record and '[Dead "B5"]' in record and "PASS" in record

    # its SGF opens anywhere and comes back: imported, replayed to the same board and count
    sgf = APIClient().get(f"/api/games/{game.pk}/record.sgf")
    assert sgf.status_code == 200 and sgf["Content-Type"].startswith("application/x-go-sgf")
    text = sgf.content.decode()
    for part in ("FF[4]", "GM[1]", "SZ[9]", "KM[7.5]", "PB[black]", "PW[white]", "RE[W+7.5]"):
        assert part in text
    assert "TB[" in text and "TW[" in text and "B[]" in text and "W[]" in text
    # imported while the game is here, it is this game: the same moves, the marking turned down
    # included, the same players, result and date
    job = import_job(t.clients[1], text)
    assert (job["imported"], job["refusals"][0]["code"]) == (0, "duplicate"), job
    assert job["refusals"][0]["detail"].startswith(f"Game {game.pk} is this game already")
    Game.objects.filter(pk=game.pk).delete()
    job = import_job(t.clients[1], text)
    assert (job["status"], job["imported"], job["refusals"]) == ("done", 1, []), job
    archived = APIClient().get(f"/api/games/{job['games'][0]}/").json()
    assert archived["variant"] == "Go (9x9)" and archived["status"] == "archived"
    assert archived["board"] == body["board"] and archived["go"]["score"] == body["go"]["score"]
    assert archived["go"]["dead"] == ["B5"] and archived["winner_seats"] == [2]
    assert archived["end_reason"] == "score"
    assert [p["name"] for p in archived["players"]] == ["black", "white"]
    history = [(m["seat"], m["kind"], m["name"], m["choice"]) for m in body["moves"]]
    assert [(m["seat"], m["kind"], m["name"], m["choice"]) for m in archived["moves"]] == history


@pytest.mark.parametrize("export", ["record", "record.sgf"])
def test_a_marking_turned_down_comes_back_from_either_export(game, players, export):
    """B5 proposed dead and the marking turned down, then black resigns at once: either export,
    imported once the game has left, gives back every action, the marking and its rejection."""
    t = Table(game, players)
    for i, point in enumerate(WALLS):
        t.move(1 + i % 2, point)
    for seat, point in ((1, "PASS"), (2, "B5"), (1, "PASS"), (2, "PASS")):
        t.move(seat, point)
    t.post(1, "dead", {"points": ["B5"]})
    t.post(2, "decision", {"choice": "reject"})
    assert t.clients[1].post(f"{t.url}/resign").status_code == 200
    before = t.state()
    text = APIClient().get(f"{t.url}/{export}").content.decode()
    Game.objects.filter(pk=game.pk).delete()
    job = import_job(t.clients[1], text)
    assert (job["imported"], job["refusals"]) == (1, []), job
    after = APIClient().get(f"/api/games/{job['games'][0]}/").json()
    history = [(m["seat"], m["kind"], m["name"], m["choice"]) for m in before["moves"]]
    assert [(m["seat"], m["kind"], m["name"], m["choice"]) for m in after["moves"]] == history
    assert history[-4:] == [
        (1, "pass", None, ""),
        (2, "pass", None, ""),
        (1, "mark", None, "B5"),
        (2, "decision", None, "reject"),
    ]
    assert (after["end_reason"], after["winner_seats"]) == ("resign", [2])


def test_a_repeated_pass_is_harmless_and_a_pass_is_one_move(game, players):
    t = Table(game, players)
    ply = t.state()["ply"]
    first = t.clients[1].post(f"{t.url}/moves", {"ply": ply, "point": "PASS"}, format="json")
    again = t.clients[1].post(f"{t.url}/moves", {"ply": ply, "point": "pass"}, format="json")
    assert first.status_code == again.status_code == 200
    assert again.json()["ply"] == 1
    assert Move.objects.filter(game=game, kind="pass").count() == 1


def test_suicide_is_refused_with_its_code(game, players):
    t = Table(game, players)
    for seat, point in ((1, "A2"), (2, "J9"), (1, "B1")):
        t.move(seat, point)
    assert t.post(2, "moves", {"point": "A1"}).json()["code"] == "suicide"


def test_a_ko_cannot_be_taken_back_at_once_but_can_after_a_move_elsewhere(game, players):
    t = Table(game, players)
    # black D6 C5 D4, white E6 D5 F5 E4: black E5 takes D5; white D5 at once would repeat
    for i, point in enumerate(["D6", "E6", "C5", "D5", "D4", "F5", "A9", "E4", "E5"]):
        t.move(1 + i % 2, point)
    assert t.state()["captures"] == [1, 0]
    assert t.post(2, "moves", {"point": "D5"}).json()["code"] == "superko"
    t.move(2, "J1")
    t.move(1, "A8")
    body = t.move(2, "D5")  # the board differs now: the ko may be taken
    assert body["captures"] == [1, 1]


def test_only_go_games_have_sgf(players):
    pente = make_game(players=list(players))
    response = APIClient().get(f"/api/games/{pente.pk}/record.sgf")
    assert (response.status_code, response.json()["code"]) == (409, "not_go")


def test_a_malformed_sgf_is_refused_at_once(players):
    client = APIClient()
    client.force_authenticate(players[0])
    response = client.post("/api/games/import", "(;GM[1]SZ[15])", content_type="text/plain")
    assert (response.status_code, response.json()["code"]) == (400, "bad_size")


def test_marking_is_refused_outside_the_marking_phase_and_in_other_games(game, players):
    t = Table(game, players)
    assert t.post(1, "dead", {"points": []}).json()["code"] == "not_marking"
    pente = make_game(players=list(players))
    other = Table(pente, players)
    assert other.post(2, "dead", {"points": []}).json()["code"] == "not_marking"


def test_go_games_are_stored_with_their_end_reason_and_variant(game, players):
    t = Table(game, players)
    t.move(1, "PASS")
    t.move(2, "PASS")
    t.post(1, "dead", {"points": []})
    t.post(2, "decision", {"choice": "accept"})
    row = Game.objects.get(pk=game.pk)
    assert (row.variant, row.status, row.end_reason, row.winner_seats) == (
        "Go (9x9)",
        "finished",
        "score",
        [2],  # an empty board: komi wins
    )


def test_a_marking_left_unanswered_is_decided_by_the_clock(players):
    """After two passes and a marking it is white's turn to answer: white's clock runs, and
    when it runs out white loses on time like on any turn."""
    game, report = lost_on_time_while_marking(*players)
    assert (game.status, game.end_reason, game.winner_seats) == ("finished", "timeout", [1])
    assert report.timed_out == 1
