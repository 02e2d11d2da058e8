"""The rule book (docs/rules.md) covers every game the engine offers: each game has a section
headed by its name, and the book's in-page links land on its headings. A game added to the
engine without its rules section fails here."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from games.engine.go import GO_ILLEGAL_MOVE_CODES
from games.engine.openings import ALL_DECISIONS, MULTI_VARIANTS
from games.engine.variants import GAMES

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
