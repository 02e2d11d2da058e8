"""The table of games at the top of docs/rules.md, as the engine describes them."""

from __future__ import annotations

import pytest

from games.engine import (
    GAMES,
    GO_VARIANTS,
    VARIANTS,
    BadOptions,
    Game,
    GoGame,
    UnknownGame,
    Variant,
    get_variant,
    new_game,
    parse_point,
    replay_game,
)

NAMES = [
    "Pente",
    "Keryo-Pente",
    "Gomoku",
    "G-Pente",
    "D-Pente",
    "DK-Pente",
    "Poof-Pente",
    "Boat-Pente",
    "O-Pente",
    "Swap2-Pente",
    "Swap2-Keryo",
    "Connect6",
]


def test_every_game_but_go_is_offered_by_its_pente_org_name():
    assert list(VARIANTS) == NAMES


@pytest.mark.parametrize(
    ("name", "lengths", "target", "line", "exact", "opening", "poof", "boat", "tr", "set_size"),
    [
        ("Pente", (2,), 10, 5, False, "centre", False, False, True, 2),
        ("Keryo-Pente", (2, 3), 15, 5, False, "centre", False, False, True, 2),
        ("Gomoku", (), None, 5, True, "centre", False, False, False, 2),
        ("G-Pente", (2,), 10, 5, False, "centre", False, False, True, 2),
        ("D-Pente", (2,), 10, 5, False, "d", False, False, False, 2),
        ("DK-Pente", (2, 3), 15, 5, False, "d", False, False, False, 2),
        ("Poof-Pente", (2,), 10, 5, False, "centre", True, False, True, 2),
        ("Boat-Pente", (2,), 10, 5, False, "centre", False, True, True, 2),
        ("O-Pente", (2, 3), 15, 5, False, "centre", True, True, True, 2),
        ("Swap2-Pente", (2,), 10, 5, False, "swap2", False, False, False, 1),
        ("Swap2-Keryo", (2, 3), 15, 5, False, "swap2", False, False, False, 1),
        ("Connect6", (), None, 6, False, "connect6", False, False, False, 2),
    ],
)
def test_variant_rules_match_the_rule_book(
    name, lengths, target, line, exact, opening, poof, boat, tr, set_size
):
    v = VARIANTS[name]
    assert (v.capture_lengths, v.capture_target, v.line_length, v.exact_line) == (
        lengths,
        target,
        line,
        exact,
    )
    assert (v.opening, v.poof, v.boat, v.tournament_rule_when_rated, v.set_size) == (
        opening,
        poof,
        boat,
        tr,
        set_size,
    )


def test_g_pente_forbids_its_eight_points_and_always_has_the_tournament_rule():
    v = VARIANTS["G-Pente"]
    assert v.tournament_rule_always
    assert set(v.g_points) == {parse_point(n) for n in "K6 K7 K13 K14 F10 G10 N10 O10".split()}
    assert all(not VARIANTS[n].g_points for n in NAMES if n != "G-Pente")


@pytest.mark.parametrize("name", NAMES)
def test_lookup_by_name_slug_and_any_case(name):
    v = VARIANTS[name]
    assert get_variant(name) is v
    assert get_variant(v.slug) is v
    assert get_variant(name.upper()) is v
    assert get_variant(v) is v
    assert v.slug == name.lower()


def test_unknown_game_is_refused():
    with pytest.raises(UnknownGame):
        get_variant("Go-Moku")
    with pytest.raises(UnknownGame) as info:
        get_variant("chess")
    assert str(info.value) == f"Unknown game 'chess'; the engine plays {', '.join(GAMES)}"
    assert "Pente, Keryo-Pente, " in str(info.value)


def test_go_is_hosted_on_three_boards_in_sets_of_one_game():
    boards = {name: (v.slug, v.size, v.family, v.set_size) for name, v in GO_VARIANTS.items()}
    assert boards == {
        "Go": ("go", 19, "go", 1),
        "Go (13x13)": ("go-13", 13, "go", 1),
        "Go (9x9)": ("go-9", 9, "go", 1),
    }
    assert get_variant("go-9") is GO_VARIANTS["Go (9x9)"]
    assert set(GAMES) == set(VARIANTS) | set(GO_VARIANTS)
    assert all(v.family == "pente" for v in VARIANTS.values())


def test_new_game_plays_each_family_with_its_own_rules():
    assert isinstance(new_game("Pente"), Game) and len(new_game("Pente").actions) == 1  # centre
    go = new_game("go-13")
    assert isinstance(go, GoGame) and go.size == 13 and go.actions == []
    assert replay_game("Go (9x9)", ["E5", "PASS"]).rows()[4] == "....1...."
    with pytest.raises(BadOptions):
        new_game("Go", seats=3)
    with pytest.raises(BadOptions):
        new_game("Go", adjacent_only=True)


def test_komi_is_an_option_of_go_alone():
    assert new_game("Go (9x9)").komi == 7.5
    assert new_game("Go (9x9)", komi=6.5).komi == 6.5
    assert replay_game("Go (9x9)", ["E5", "PASS"], komi=0.5).komi == 0.5
    with pytest.raises(BadOptions):
        new_game("Pente", komi=6.5)


def test_variants_are_immutable():
    with pytest.raises(AttributeError):
        VARIANTS["Pente"].capture_target = 5  # type: ignore[misc]
    assert isinstance(VARIANTS["Pente"], Variant)
