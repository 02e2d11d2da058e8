"""The result an import keeps (``games.engine.records.result``): the header's when the moves stop
before the end of the game (a resignation, a loss on time), in each form Pente.org records and
SGF files write it; a record whose header contradicts its moves refused in the job with its
reason; ``*`` unfinished as before; both exports giving the result back, so that export ->
import is a round trip, for imported records and for games played here that their moves do not
end (resigned out of turn, lost on time while marking)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games.play.actions import game_resign, move_play
from games.play.models import Game
from tests.clients import client_for
from tests.explorer.support import record
from tests.factories import UserFactory, make_game
from tests.games.play.support import lost_on_time_while_marking
from tests.games.records.importing import import_job, imported_games

pytestmark = pytest.mark.django_db

#: Three stones of Pente: nobody has won; player 2 is to move.
OPEN = "1. K10 L11 2. M12"
#: Player 1 makes five on column K while player 2 plays on row 1.
FIVE = "1. K10 A1 2. K11 A2 3. K12 A3 4. K13 A4 5. K14"


def sgf(result: str | None, moves: str = ";B[ee];W[ce]") -> str:
    """A 9x9 game of ann (black) and bob (white) on 5 March 2024; two stones: black to move."""
    re = f"RE[{result}]" if result is not None else ""
    return f"(;GM[1]FF[4]SZ[9]KM[7.5]PB[ann]PW[bob]DT[2024-03-05]{re}{moves})"


def stored(text: str) -> Game:
    """Import ``text`` (one record) through the API: its game, as stored."""
    (game,) = imported_games(client_for(UserFactory()), text)
    return Game.objects.get(pk=game["id"])


def result_of(game: Game) -> tuple[str, str, list[int]]:
    return game.status, game.end_reason, game.winner_seats


def exported(game: Game, export: str) -> str:
    response = client_for().get(f"/api/games/{game.pk}/{export}")
    assert response.status_code == 200, response.content
    return response.content.decode()


def again(game: Game, export: str) -> Game:
    """``game`` exported, deleted (a record of a game here is refused as a duplicate), and its
    export imported: the new game."""
    text = exported(game, export)
    Game.objects.filter(pk=game.pk).delete()
    return stored(text)


# --- the header's result when the moves stop before the end -----------------------------------


@pytest.mark.parametrize(
    ("headers", "end_reason", "winners"),
    [
        ({"Result": "1-0"}, "recorded", [1]),
        ({"Result": "0-1"}, "recorded", [2]),
        ({"Result": "1/2-1/2"}, "recorded", []),
        ({"Result": "0-1", "End Reason": "resign"}, "resign", [2]),
        ({"Result": "1-0", "End Reason": "timeout"}, "timeout", [1]),
        ({"Result": "0-1", "End Reason": "forfeit"}, "forfeit", [2]),
    ],
)
def test_a_pente_org_result_after_the_last_stone_is_the_archived_game_s(
    headers, end_reason, winners
):
    game = stored(record(OPEN, Date="2024.03.05", **headers))
    assert result_of(game) == ("archived", end_reason, winners)
    assert game.finished_at == datetime(2024, 3, 5, tzinfo=UTC)  # the record's date
    assert game.ply == 3  # it ended at its last stone


def test_a_multi_player_result_is_won_by_the_seat_of_its_colour():
    game = stored(record("1. K10 L11 M12", Players="3", Result="0-1-0"))
    assert result_of(game) == ("archived", "recorded", [2])


def test_a_record_stating_no_result_stays_unfinished():
    game = stored(record(f"{OPEN} *", Result="*", Date="2024.03.05"))
    assert result_of(game) == ("archived", "", [])
    assert game.finished_at is None


def test_recorded_results_are_found_by_the_game_filters():
    game = stored(record(OPEN, p1="cy", p2="dee", Result="0-1"))
    c = client_for()
    found = c.get("/api/games/", {"end_reason": "recorded"}).json()["results"]
    assert [g["id"] for g in found] == [game.pk]
    won = c.get("/api/games/", {"player": "dee", "result": "win"}).json()["results"]
    assert [g["id"] for g in won] == [game.pk]


# --- a header that contradicts the board is refused in the job -----------------------------


def test_a_record_whose_result_contradicts_its_five_is_refused_with_its_reason():
    good = record(OPEN, Result="1-0")
    wrong = record(f"{FIVE} 0-1", p1="cy", p2="dee", Result="0-1")
    job = import_job(client_for(UserFactory()), f"{good}\n{wrong}")
    assert (job["status"], job["imported"], job["refused"]) == ("done", 1, 1)
    ((refusal,),) = [job["refusals"]]
    assert (refusal["record"], refusal["code"]) == (2, "result_contradicts_board")
    assert "1-0 by five" in refusal["detail"] and "says 0-1" in refusal["detail"]
    assert Game.objects.count() == 1


def test_an_sgf_whose_count_contradicts_its_result_is_refused_in_the_job():
    # Black walls column E off, white column F: counted with every stone alive, black (45) wins
    # against white's 36 + 7.5; the file says white won on the count.
    walls = "".join(f";B[e{row}];W[f{row}]" for row in "abcdefghi") + ";B[];W[]"
    job = import_job(client_for(UserFactory()), sgf("W+3.5", walls))
    assert (job["imported"], job["refusals"][0]["code"]) == (0, "result_contradicts_board")
    assert "1-0 by the count" in job["refusals"][0]["detail"]


# --- SGF's RE -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("re", "end_reason", "winners"),
    [
        ("W+R", "resign", [2]),  # black, to move, resigned: a final Resign
        ("B+R", "resign", [1]),  # white resigned out of turn
        ("W+T", "timeout", [2]),
        ("B+F", "forfeit", [1]),
        ("B+5.5", "score", [1]),
        ("W+", "recorded", [2]),
        ("0", "score", []),
        ("Draw", "score", []),
        ("Void", "", []),
        (None, "", []),
    ],
)
def test_an_sgf_result_the_moves_do_not_reach_is_the_archived_game_s(re, end_reason, winners):
    assert result_of(stored(sgf(re))) == ("archived", end_reason, winners)


def test_an_sgf_result_that_is_no_result_is_refused_at_once():
    response = client_for(UserFactory()).post(
        "/api/games/import", data=sgf("Black wins"), content_type="text/plain"
    )
    assert response.status_code == 400 and response.json()["code"] == "bad_result"


# --- export -> import -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"Result": "0-1"},
        {"Result": "1/2-1/2"},
        {"Result": "1-0", "End Reason": "timeout"},
        {"Result": "0-1", "End Reason": "resign"},
    ],
)
def test_an_imported_pente_org_result_comes_back_from_its_export(headers):
    game = stored(record(OPEN, Date="2024.03.05", **headers))
    text = exported(game, "record")
    assert f'[Result "{headers["Result"]}"]' in text and text.rstrip().endswith(headers["Result"])
    assert result_of(again(game, "record")) == result_of(game)


@pytest.mark.parametrize("export", ["record", "record.sgf"])
@pytest.mark.parametrize("re", ["B+R", "W+T", "B+F", "W+5.5", "B+", "0", "Void"])
def test_an_imported_sgf_result_comes_back_from_either_export(re, export):
    game = stored(sgf(re))
    if export == "record.sgf":
        assert f"RE[{re}]" in exported(game, export)
    assert result_of(again(game, export)) == result_of(game)


@pytest.mark.parametrize(
    ("variant", "export"),
    [("Pente", "record"), ("Go (9x9)", "record"), ("Go (9x9)", "record.sgf")],
)
def test_a_game_resigned_out_of_turn_here_comes_back_from_its_export(variant, export):
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    game = make_game(players=[ann, bob], variant=variant)
    # Pente: bob answers the centre stone, ann is to move; Go: ann plays first, bob is to move.
    mover, point, resigner = (bob, "L11", bob) if variant == "Pente" else (ann, "E5", ann)
    move_play(game_id=game.pk, user=mover, ply=game.ply, points=[point])
    game_resign(game_id=game.pk, user=resigner)  # out of turn
    game.refresh_from_db()
    winners = [1 if resigner == bob else 2]
    assert (game.end_reason, game.winner_seats) == ("resign", winners)
    if export == "record":
        assert '[End Reason "resign"]' in exported(game, export)
    assert result_of(again(game, export)) == ("archived", "resign", winners)


@pytest.mark.parametrize("export", ["record", "record.sgf"])
def test_a_go_game_lost_on_time_while_marking_comes_back_from_its_export(export):
    """Two passes and a marking, and white's clock runs out before it answers: both exports end
    with the two passes, and say the game was lost on time rather than counted."""
    black, white = UserFactory(username="black"), UserFactory(username="white")
    game, _ = lost_on_time_while_marking(black, white)
    assert (game.end_reason, game.winner_seats) == ("timeout", [1])
    assert result_of(again(game, export)) == ("archived", "timeout", [1])


# --- an imported Go record's own komi ----------------------------------------------------------


def test_an_imported_go_record_is_counted_and_exported_with_its_own_komi():
    """Black walls off 45 points, white 36; with ``KM[0.5]`` black wins by 8.5 (by 1.5 with the
    server's 7.5): the game shown, its count and both exports keep the record's komi."""
    moves = "".join(f";B[e{row}];W[f{row}]" for row in "abcdefghi") + ";B[];W[]"
    game = stored(f"(;GM[1]FF[4]SZ[9]KM[0.5]PB[ann]PW[bob]DT[2024-03-05]RE[B+8.5]{moves})")
    go = client_for().get(f"/api/games/{game.pk}/").json()["go"]
    assert go["komi"] == 0.5
    assert (go["score"]["black"], go["score"]["white"]) == (45.0, 36.5)
    sgf_text = exported(game, "record.sgf")
    assert "KM[0.5]" in sgf_text and "RE[B+8.5]" in sgf_text
    assert '[Komi "0.5"]' in exported(game, "record")
    back = again(game, "record.sgf")
    assert client_for().get(f"/api/games/{back.pk}/").json()["go"]["komi"] == 0.5
