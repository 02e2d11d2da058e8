"""The site's rule pages, drawn from the project's rule book (docs/rules.md): each game's
page is the book's sections that apply to it, written to HTML by a small reader of the plain
Markdown the book uses (headings, paragraphs, lists, tables, code blocks, ``code``, **bold**,
*emphasis* and links). Links to another game's section lead to that game's page; links out of
the book are left as text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from html import escape
from pathlib import Path

from django.conf import settings
from django.utils.safestring import SafeString, mark_safe

from games.engine import GAMES

RULES_FILE = Path(settings.BASE_DIR) / "docs" / "rules.md"
_SLUG_OF_ANCHOR = {
    re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-"): v.slug for name, v in GAMES.items()
}
_INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)]+)\)")


def anchor(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _link(target: str) -> str | None:
    if target.startswith("#"):
        name = target[1:]
        if name in _SLUG_OF_ANCHOR:
            return f"/rules/{_SLUG_OF_ANCHOR[name]}/"
        return target
    return None  # another document: text only


def inline(text: str) -> str:
    out, at = [], 0
    for m in _INLINE.finditer(text):
        out.append(escape(text[at : m.start()]))
        code, bold, em, label, target = m.groups()
        if code is not None:
            out.append(f"<code>{escape(code)}</code>")
        elif bold is not None:
            out.append(f"<strong>{inline(bold)}</strong>")
        elif em is not None:
            out.append(f"<em>{inline(em)}</em>")
        else:
            href = _link(target)
            words = inline(label)
            out.append(f'<a href="{escape(href)}">{words}</a>' if href else words)
        at = m.end()
    out.append(escape(text[at:]))
    return "".join(out)


def _list(lines: list[str]) -> str:
    """A (nested) list from its lines: items start with ``- `` or ``1. `` at the list's indent."""
    indent = len(lines[0]) - len(lines[0].lstrip())
    ordered = bool(re.match(r"\s*\d+\.\s", lines[0]))
    items: list[list[str]] = []
    for line in lines:
        stripped = line.lstrip()
        depth = len(line) - len(stripped)
        if depth == indent and re.match(r"(-|\d+\.)\s", stripped):
            items.append([re.sub(r"^(-|\d+\.)\s+", "", stripped)])
        else:
            items[-1].append(line)
    tag = "ol" if ordered else "ul"
    parts = []
    for first, *rest in items:
        text = [first]
        nested = []
        for line in rest:
            if nested or re.match(r"\s*(-|\d+\.)\s", line):
                nested.append(line)
            else:
                text.append(line.strip())
        body = inline(" ".join(text))
        parts.append(f"<li>{body}{_list(nested) if nested else ''}</li>")
    return f"<{tag}>{''.join(parts)}</{tag}>"


def _table(lines: list[str]) -> str:
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    head, body = rows[0], [r for r in rows[2:]]
    th = "".join(f"<th>{inline(c)}</th>" for c in head)
    trs = "".join("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) + "</tr>" for r in body)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table>"


def to_html(markdown: str) -> str:
    """HTML of the rule book's Markdown (the subset it uses)."""
    html: list[str] = []
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip() or line.lstrip().startswith("<!--"):
            i += 1
        elif line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            html.append(f"<pre>{escape(chr(10).join(lines[i + 1 : j]))}</pre>")
            i = j + 1
        elif line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            title = line[level:].strip()
            html.append(f'<h{level} id="{anchor(title)}">{inline(title)}</h{level}>')
            i += 1
        elif line.startswith("|"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            html.append(_table(lines[i:j]))
            i = j
        elif re.match(r"(-|\d+\.)\s", line):
            j = i + 1
            while j < len(lines) and lines[j].strip() and not lines[j].startswith(("#", "```")):
                j += 1
            html.append(_list(lines[i:j]))
            i = j
        else:
            j = i
            while (
                j < len(lines)
                and lines[j].strip()
                and not lines[j].startswith(("#", "```", "|", "<!--"))
            ):
                j += 1
            html.append(f"<p>{inline(' '.join(line.strip() for line in lines[i:j]))}</p>")
            i = j
    return "\n".join(html)


@dataclass
class Section:
    title: str
    level: int
    text: list[str] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)

    def markdown(self, *, with_children: bool = False) -> str:
        head = "#" * self.level + " " + self.title
        own = "\n".join([head, *self.text])
        if not with_children:
            return own
        return "\n\n".join([own, *(c.markdown(with_children=True) for c in self.children)])


@cache
def _book() -> list[Section]:
    """The book's ``##`` sections, each with its ``###`` children (the title is left out)."""
    parts: list[Section] = []
    current: Section | None = None
    fenced = False
    for line in RULES_FILE.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else re.match(r"(##+) (.*)", line)
        if heading and len(heading.group(1)) == 2:
            current = Section(heading.group(2), 2)
            parts.append(current)
        elif heading and len(heading.group(1)) == 3 and parts:
            current = Section(heading.group(2), 3)
            parts[-1].children.append(current)
        elif current is not None:
            current.text.append(line)
    return parts


def _part(title: str) -> Section | None:
    return next((p for p in _book() if p.title == title), None)


def _general(part: Section) -> list[Section]:
    """A part's sections that are not one game's own."""
    return [c for c in part.children if c.title not in GAMES]


@cache
def game_rules(name: str) -> SafeString:
    """The rule page of the game ``name``: notation, its part's common rules, its own section,
    and how a game ends."""
    chunks = []
    notation = _part("Board and notation")
    if notation:
        chunks.append(notation.markdown())
    for part in _book():
        own = next((c for c in part.children if c.title == name), None)
        if own is None:
            continue
        chunks.append(part.markdown())
        chunks.append(own.markdown())
        chunks.extend(c.markdown() for c in _general(part))
        if part.title == "Opening protocols":
            family = _part("The Pente family")
            if family:
                chunks.extend(c.markdown() for c in _general(family))
    ending = _part("How a game ends")
    if ending:
        chunks.append(ending.markdown())
    return mark_safe(_local_anchors(to_html("\n\n".join(chunks))))  # noqa: S308 (escaped)


_ANCHOR_LINK = re.compile(r'<a href="#([^"]+)">(.*?)</a>')
_HEADING_ID = re.compile(r'<h[1-6] id="([^"]+)">')


def _local_anchors(html: str) -> str:
    """Links to a section of the book that this page leaves out become their text."""
    ids = set(_HEADING_ID.findall(html))
    return _ANCHOR_LINK.sub(lambda m: m.group(0) if m.group(1) in ids else m.group(2), html)


def has_rules(name: str) -> bool:
    return any(c.title == name for part in _book() for c in part.children)
