import hashlib
import xml.etree.ElementTree as ET

import pytest

from games.play.actions import game_decide, game_mark_dead, move_play
from games.play.positions import position_of
from games.records.pictures import CELL, COLUMNS, MARGIN, GoCount, board_svg
from tests.clients import client_for
from tests.factories import UserFactory, make_game

NS = "{http://www.w3.org/2000/svg}"


def _empty(size=19):
    return ["." * size for _ in range(size)]


def _stones(svg):
    root = ET.fromstring(svg.encode())
    return {
        c.get("data-point"): c.get("class")
        for c in root.iter(f"{NS}circle")
        if (c.get("class") or "").startswith("stone")
    }


def test_svg_is_valid_xml_with_one_circle_per_stone():
    rows = _empty()
    rows[9] = "." * 9 + "1" + "." * 9  # K10
    rows[0] = "2" + "." * 18  # A19
    svg = board_svg(rows, last_point=0, captures=(2, 4))
    assert _stones(svg) == {"K10": "stone colour1", "A19": "stone colour2"}


def test_svg_marks_the_last_move_and_shows_the_capture_counts():
    rows = _empty()
    rows[9] = "." * 9 + "1" + "." * 9
    root = ET.fromstring(board_svg(rows, last_point=180, captures=(2, 4)).encode())
    marks = [c for c in root.iter(f"{NS}circle") if c.get("class") == "last-move"]
    assert len(marks) == 1 and marks[0].get("cx") == marks[0].get("cy")
    texts = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "captures"]
    assert texts == ["Captures white: 2, black: 4"]


def test_svg_draws_six_colours_differently():
    rows = _empty()
    rows[0] = "123456" + "." * 13
    root = ET.fromstring(board_svg(rows).encode())
    fills = {
        c.get("fill")
        for c in root.iter(f"{NS}circle")
        if (c.get("class") or "").startswith("stone")
    }
    assert len(fills) == 6


def test_svg_labels_columns_without_i():
    root = ET.fromstring(board_svg(_empty()).encode())
    labels = {t.text for t in root.iter(f"{NS}text")}
    assert "J" in labels and "I" not in labels and "19" in labels


def test_svg_refuses_a_grid_that_is_not_square():
    with pytest.raises(ValueError):
        board_svg(["...", ".."])


# ---------------------------------------------------------------------- Pente, pinned


def test_a_pente_picture_is_unchanged_byte_for_byte():
    """The Pente family's picture, as it was before Go: white colour 1, black colour 2, the
    19x19 star points (pinned: a change here changes every Pente picture)."""
    rows = _empty()
    rows[9] = "." * 9 + "12" + "." * 8
    rows[3] = "." * 3 + "2" + "." * 15
    svg = board_svg(rows, last_point=9 * 19 + 10, captures=(2, 4), title="Game 7")
    assert len(svg) == 5206
    assert hashlib.sha256(svg.encode()).hexdigest() == (
        "5305319f77781336de122f3f3044fd8cd653cc910637c285c723ec6a0a6a8c7c"
    )


# ---------------------------------------------------------------------- Go, pure


def _root(svg):
    return ET.fromstring(svg.encode())


def _star_names(root, size):
    """The star points drawn, by name (from their centres)."""
    stars = next(g for g in root.iter(f"{NS}g") if g.get("class") == "stars")
    names = set()
    for c in stars.iter(f"{NS}circle"):
        x = (int(c.get("cx")) - MARGIN) // CELL
        y = (int(c.get("cy")) - MARGIN) // CELL
        names.add(f"{COLUMNS[x]}{size - y}")
    return names


def _go_rows(size, stones):
    """Rows of a ``size`` board with ``stones`` ({"C3": 1, ...}: 1 black, 2 white)."""
    grid = [["."] * size for _ in range(size)]
    for name, colour in stones.items():
        grid[size - int(name[1:])][COLUMNS.index(name[0])] = str(colour)
    return ["".join(r) for r in grid]


@pytest.mark.parametrize(
    ("size", "stars"),
    [
        (9, {"C3", "G3", "E5", "C7", "G7"}),
        (13, {"D4", "K4", "G7", "D10", "K10"}),
        (19, {f"{c}{r}" for c in "DKQ" for r in (4, 10, 16)}),
    ],
)
def test_a_go_board_has_its_size_and_its_star_points(size, stars):
    rows = _go_rows(size, {"C3": 1, "D4": 2, "A1": 1})
    root = _root(board_svg(rows, last_point=0, go=True))
    side = 2 * MARGIN + CELL * (size - 1)
    assert (root.get("width"), root.get("height")) == (str(side), str(side))
    assert root.get("viewBox") == f"0 0 {side} {side}"
    assert _star_names(root, size) == stars
    assert _stones(board_svg(rows, go=True)) == {
        "C3": "stone colour1",
        "D4": "stone colour2",
        "A1": "stone colour1",
    }
    labels = {t.text for t in root.iter(f"{NS}text")}
    assert set(COLUMNS[:size]) | {str(n) for n in range(1, size + 1)} <= labels
    assert "I" not in labels and str(size + 1) not in labels


def test_a_9x9_picture_is_smaller_than_a_13x13_one_and_labels_to_j():
    small = _root(board_svg(_go_rows(9, {}), go=True))
    middle = _root(board_svg(_go_rows(13, {}), go=True))
    assert int(small.get("width")) < int(middle.get("width"))
    letters = {t.text for t in small.iter(f"{NS}text") if not t.text.isdigit()}
    assert letters == set("ABCDEFGHJ")


def test_go_draws_colour_1_black_and_colour_2_white_where_pente_does_the_opposite():
    rows = _go_rows(9, {"E5": 1, "F5": 2})

    def fills(svg):
        return {
            c.get("data-point"): c.get("fill")
            for c in _root(svg).iter(f"{NS}circle")
            if (c.get("class") or "").startswith("stone")
        }

    assert fills(board_svg(rows, go=True)) == {"E5": "#111111", "F5": "#ffffff"}
    assert fills(board_svg(rows)) == {"E5": "#ffffff", "F5": "#111111"}
    texts = [
        t.text
        for t in _root(board_svg(rows, captures=(3, 1), go=True)).iter(f"{NS}text")
        if t.get("class") == "captures"
    ]
    assert texts == ["Captures black: 3, white: 1"]


def test_the_count_draws_territory_squares_and_crossed_dead_stones():
    rows = _go_rows(9, {"E5": 1})
    count = GoCount(territory={0: 1, 1: 1, 80: 2}, dead={40 - 9: 2}, black=3, white=8.5)
    root = _root(board_svg(rows, go=True, count=count))
    squares = {r.get("data-point"): r.get("class") for r in root.iter(f"{NS}rect")}
    assert squares.pop(None) is None  # the background
    assert squares == {
        "A9": "territory black",
        "B9": "territory black",
        "J1": "territory white",
    }
    dead = [c for c in root.iter(f"{NS}circle") if c.get("class", "").startswith("dead-stone")]
    assert [(c.get("data-point"), c.get("class"), c.get("opacity")) for c in dead] == [
        ("E6", "dead-stone colour2", "0.45")
    ]
    assert len([p for p in root.iter(f"{NS}path") if p.get("class") == "dead-mark"]) == 1
    assert _stones(board_svg(rows, go=True, count=count)) == {"E5": "stone colour1"}
    texts = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "score"]
    assert texts == ["Count black: 3, white: 8.5"]


# ---------------------------------------------------------------------- Go games over HTTP

#: 9x9 (tests/games/play/test_go_api.py): black walls column D, white column F, black first;
#: then a white stone at B5 that cannot live, marked dead and accepted.
WALLS = [p for row in range(1, 10) for p in (f"D{row}", f"F{row}")]


def _act(game, user, action, **kwargs):
    game.refresh_from_db()
    return action(game_id=game.pk, user=user, ply=game.ply, **kwargs)


def _svg(game, **params):
    response = client_for().get(f"/api/games/{game.pk}/board.svg", params)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    return _root(response.content.decode())


def _classes(root, tag, prefix):
    return [e for e in root.iter(f"{NS}{tag}") if (e.get("class") or "").startswith(prefix)]


@pytest.fixture
def counted_9x9():
    black, white = UserFactory(username="black"), UserFactory(username="white")
    game = make_game(players=[black, white], variant="Go (9x9)")
    seats = (black, white)
    for i, point in enumerate(WALLS):
        _act(game, seats[i % 2], move_play, points=[point])
    _act(game, black, move_play, points=["PASS"])
    _act(game, white, move_play, points=["B5"])
    _act(game, black, move_play, points=["PASS"])
    _act(game, white, move_play, points=["PASS"])
    _act(game, black, game_mark_dead, points=["B5"])
    _act(game, white, game_decide, choice="accept")
    game.refresh_from_db()
    assert game.status == "finished"
    return game


@pytest.mark.django_db
def test_a_new_13x13_game_s_picture_is_13x13():
    black, white = UserFactory(), UserFactory()
    game = make_game(players=[black, white], variant="Go (13x13)")
    _act(game, black, move_play, points=["G7"])
    _act(game, white, move_play, points=["N13"])
    root = _svg(game)
    side = 2 * MARGIN + CELL * 12
    assert root.get("width") == str(side)
    assert root.get("viewBox") == f"0 0 {side} {side + 28}"  # and the captures below
    assert [t.text for t in _classes(root, "text", "captures")] == ["Captures black: 0, white: 0"]
    assert _star_names(root, 13) == {"D4", "K4", "G7", "D10", "K10"}
    stones = {c.get("data-point"): c.get("fill") for c in _classes(root, "circle", "stone")}
    assert stones == {"G7": "#111111", "N13": "#ffffff"}  # black moved first
    last = _classes(root, "circle", "last-move")
    assert [(c.get("cx"), c.get("cy")) for c in last] == [(str(MARGIN + 12 * CELL), str(MARGIN))]
    assert not _classes(root, "rect", "territory") and not _classes(root, "circle", "dead")


@pytest.mark.django_db
def test_a_counted_9x9_game_s_final_picture_shows_territory_and_the_dead_stone(counted_9x9):
    game = counted_9x9
    for root in (_svg(game), _svg(game, ply=game.ply)):
        side = 2 * MARGIN + CELL * 8
        assert root.get("viewBox").startswith(f"0 0 {side} ")
        assert _star_names(root, 9) == {"C3", "G3", "E5", "C7", "G7"}
        stones = _classes(root, "circle", "stone")
        assert len(stones) == 18 and "B5" not in {c.get("data-point") for c in stones}
        squares = {r.get("data-point"): r.get("class") for r in _classes(root, "rect", "terr")}
        black = {f"{c}{r}" for c in "ABC" for r in range(1, 10)}
        white = {f"{c}{r}" for c in "GHJ" for r in range(1, 10)}
        assert squares == {
            **dict.fromkeys(black, "territory black"),
            **dict.fromkeys(white, "territory white"),
        }
        dead = _classes(root, "circle", "dead-stone")
        assert [(c.get("data-point"), c.get("class")) for c in dead] == [
            ("B5", "dead-stone colour2")
        ]
        assert len(_classes(root, "path", "dead-mark")) == 1
        scores = [t.text for t in _classes(root, "text", "score")]
        assert scores == ["Count black: 36, white: 43.5"]


@pytest.mark.django_db
def test_an_earlier_ply_of_a_counted_game_shows_no_count(counted_9x9):
    game = counted_9x9
    root = _svg(game, ply=game.ply - 1)  # marked, not yet accepted: B5 still on the board
    stones = {c.get("data-point") for c in _classes(root, "circle", "stone")}
    assert "B5" in stones and len(stones) == 19
    assert not _classes(root, "rect", "territory")
    assert not _classes(root, "circle", "dead-stone") and not _classes(root, "text", "score")


@pytest.mark.django_db
def test_a_pente_game_s_picture_keeps_pente_s_colours_and_no_count():
    alice, bob = UserFactory(), UserFactory()
    game = make_game(players=[alice, bob])
    _act(game, bob, move_play, points=["L10"])
    _act(game, alice, move_play, points=["M12"])
    response = client_for().get(f"/api/games/{game.pk}/board.svg")
    position = position_of(game)
    expected = board_svg(
        position.rows(),
        last_point=position.last_point,
        captures=tuple(position.captures),
        title=f"Game {game.pk}",
    )
    assert response.content.decode() == expected
    root = _root(expected)
    fills = {c.get("data-point"): c.get("fill") for c in _classes(root, "circle", "stone")}
    assert fills == {"K10": "#ffffff", "L10": "#111111", "M12": "#ffffff"}
