"""The rule book (docs/rules.md) covers every game the engine offers: each game has a section
headed by its name, and the book's in-page links land on its headings. A game added to the
engine without its rules section fails here, and so does a diagram the engine does not agree
with (each diagram marked ``<!-- check: ... -->`` is replayed on the engine)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from games.engine import Game, GoGame, IllegalMove, new_game
from games.engine.go import GO_ILLEGAL_MOVE_CODES
from games.engine.openings import ALL_DECISIONS, MULTI_VARIANTS
from games.engine.variants import GAMES, get_variant

BOOK = Path(__file__).resolve().parent.parent / "docs" / "rules.md"

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_LINK = re.compile(r"\]\(#([^)\s]+)\)")


def headings(text: str) -> list[str]:
    """The heading texts of a Markdown page, in order, outside fenced code blocks."""
    out: list[str] = []
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced and (m := _HEADING.match(line)):
            out.append(m.group(2))
    return out


def slug(heading: str) -> str:
    """The anchor Python-Markdown's table of contents (and so mkdocs) gives a heading."""
    value = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(r"[-\s]+", "-", value)


def missing_games(text: str, names: list[str]) -> list[str]:
    """The game names that have no heading of their own in ``text``."""
    found = set(headings(text))
    return [name for name in names if name not in found]


def section(text: str, name: str) -> str:
    """The body of the section headed ``name``, down to the next heading of its level or above."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = _HEADING.match(line)
        if m and m.group(2) == name:
            level = len(m.group(1))
            body = []
            for rest in lines[i + 1 :]:
                n = _HEADING.match(rest)
                if n and len(n.group(1)) <= level:
                    break
                body.append(rest)
            return "\n".join(body)
    raise AssertionError(f"docs/rules.md has no section {name!r}")


@pytest.fixture(scope="module")
def book() -> str:
    return BOOK.read_text(encoding="utf-8")


def test_every_game_the_engine_offers_has_a_section_headed_by_its_name(book):
    assert missing_games(book, list(GAMES)) == []


def test_a_game_without_its_section_is_reported_missing(book):
    without_keryo = book.replace("### Keryo-Pente\n", "### Keryo\n")
    assert without_keryo != book
    assert missing_games(without_keryo, list(GAMES)) == ["Keryo-Pente"]
    assert missing_games(book, [*GAMES, "Hex"]) == ["Hex"]


def test_the_summary_table_lists_every_game_by_its_url_slug(book):
    table = book.split("## ", 1)[0]
    for variant in GAMES.values():
        assert f"| `{variant.slug}` |" in table, variant.slug


def test_the_heading_anchors_are_unique_and_every_in_page_link_lands_on_one(book):
    anchors = [slug(h) for h in headings(book)]
    assert len(anchors) == len(set(anchors)), "two headings share an anchor"
    assert slug("Go (13x13)") == "go-13x13"
    assert slug("Passes, marking and counting") == "passes-marking-and-counting"
    links = _LINK.findall(book)
    assert links
    assert sorted(set(links) - set(anchors)) == []


def test_every_opening_decision_is_named_in_the_opening_protocols(book):
    protocols = section(book, "Opening protocols")
    for choice in sorted(ALL_DECISIONS):
        assert f"`{choice}`" in protocols, choice


def test_the_multi_player_games_are_the_engines(book):
    multi = section(book, "Multi-player and partners")
    first = multi.strip().splitlines()[0]
    for name in MULTI_VARIANTS:
        assert name in first
    assert "Offered for Pente and Keryo-Pente only" in first


def test_go_refusals_that_are_rules_are_explained(book):
    go = section(book, "Go on three boards")
    for code in ("suicide", "superko"):
        assert code in GO_ILLEGAL_MOVE_CODES
        assert f"`{code}`" in go or f"**{code}**" in go, code


def test_the_book_links_nothing_outside_the_repository(book):
    assert not re.search(r"\]\((https?:|//|/)", book)
    assert "RULES.md" not in book


# ---------------------------------------------------------------- the diagrams, on the engine

_CHECK = re.compile(r"<!-- check: (.+?) -->\n\n```text\n(.*?)\n```", re.S)
_STONES = {"X": 1, "O": 2, **{str(c): c for c in range(1, 7)}}
_CELLS = frozenset(".*#abg") | frozenset(_STONES)


class Diagram:
    """A board diagram: its columns, and the rows of the board before (and after, when drawn
    after ``=>``) as {point name: cell}."""

    def __init__(self, text: str) -> None:
        lines = text.splitlines()
        letters = lines[0].split()
        half = len(letters) // 2
        twice = len(letters) % 2 == 0 and letters[:half] == letters[half:]
        width = half if twice else len(letters)
        self.before: dict[str, str] = {}
        self.after: dict[str, str] = {}
        boards = (self.before, self.after)
        for line in lines[1:]:
            which = -1
            col = width
            row = ""
            for token in line.replace("=>", " ").split():
                if col == width and token.isdigit() and which < (1 if twice else 0):
                    which += 1
                    row = token
                    col = 0
                elif col < width and len(token) == 1 and token in _CELLS:
                    boards[which][f"{letters[col]}{row}"] = token
                    col += 1
                else:
                    break

    def stones(self, board: dict[str, str]) -> dict[int, list[str]]:
        out: dict[int, list[str]] = {}
        for name, cell in board.items():
            if cell in _STONES:
                out.setdefault(_STONES[cell], []).append(name)
        return out


def diagrams(text: str) -> list[tuple[str, Diagram]]:
    return [(check, Diagram(body)) for check, body in _CHECK.findall(text)]


def replay(check: str, diagram: Diagram) -> None:
    """Play what ``check`` says on the diagram's position and assert what it claims."""
    name, *steps = (part.strip() for part in check.split("|"))
    variant = get_variant(name)
    if steps == ["zone"]:
        game = new_game(variant, tournament_rule=True, rated=True)
        game.play("A1")  # player 2 answers far away; player 1's second stone is due
        legal = {game.parse_point(p) for p in game.legal_points()}
        for point, cell in diagram.before.items():
            taken = cell == "X"
            barred = cell in "#g"
            assert (game.parse_point(point) in legal) == (not taken and not barred), point
        return
    options = {}
    mover, point = steps.pop(0).split()
    if steps and steps[-1].startswith("seats"):
        options["seats"] = int(steps.pop().split()[1])
    stones = diagram.stones(diagram.before)
    colour = _STONES[mover]
    if variant.family == "go":
        game = GoGame.from_position(variant.size, stones, to_move=colour)
    else:
        game = Game.from_position(variant, stones=stones, to_move=colour, **options)
    assert diagram.before[point] == "*", f"{point} is not the marked point"
    game.play(point)
    for i, step in enumerate(steps):
        if step == "wins":
            assert game.outcome is not None and game.outcome.winners == (colour,), check
        elif step == "no win":
            assert game.outcome is None, check
        elif step.startswith("then "):
            _, who, where, *refused = step.split()
            assert _STONES[who] == game.to_move_colour, check
            if refused:
                with pytest.raises(IllegalMove) as caught:
                    game.play(where)
                assert caught.value.code == refused[-1], check
            else:
                game.play(where)
                if steps[i + 1 : i + 2] != ["wins"]:  # "then O H9 | wins": the reply loses
                    assert game.outcome is None, check
        else:
            raise AssertionError(f"unknown check step {step!r}")
    if diagram.after:
        size = variant.size
        rows = game.rows()
        for name, cell in diagram.after.items():
            p = game.parse_point(name)
            shown = rows[p // size][p % size]
            expected = str(_STONES[cell]) if cell in _STONES else "."
            assert shown == expected, f"{check}: {name} is {shown!r}, the diagram says {cell!r}"


def test_the_book_has_its_checked_diagrams(book):
    checks = [check for check, _ in diagrams(book)]
    assert len(checks) >= 10
    for kind in ("Pente | X", "zone", "Keryo-Pente", "Poof-Pente", "Boat-Pente", "superko"):
        assert any(kind in check for check in checks), kind


@pytest.mark.parametrize(
    ("check", "diagram"),
    [pytest.param(c, d, id=c) for c, d in diagrams(BOOK.read_text(encoding="utf-8"))],
)
def test_the_books_diagram_agrees_with_the_engine(check, diagram):
    replay(check, diagram)


def test_a_diagram_the_engine_disagrees_with_fails():
    wrong = (
        "       J  K  L  M  N           J  K  L  M  N\n  10   .  X  O  O  *  =>  10   .  X  O  O  X"
    )
    with pytest.raises(AssertionError, match="L10"):
        replay("Pente | X N10", Diagram(wrong))
    with pytest.raises(AssertionError):
        replay("Keryo-Pente | X N10 | wins", Diagram(wrong.split("=>")[0]))
