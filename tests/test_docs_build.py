"""The documentation builds into a site with ``mkdocs build --strict`` and no warning (a broken
link or anchor between pages, a page missing from the nav or a nav entry without its page fails
it), and every link from the README and CONTRIBUTING.md, which live outside ``docs/``, reaches
an existing file and, into ``docs/``, an existing anchor of the built page."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE_DOCS = ("README.md", "CONTRIBUTING.md")

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None,
    reason="mkdocs and mkdocs-material are not installed (pip install -e '.[dev]')",
)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    log = result.stdout + result.stderr
    assert result.returncode == 0, log
    assert "WARNING" not in log, log
    return out


def test_the_docs_build_strictly_with_no_warning(site):
    assert (site / "index.html").is_file()
    assert (site / "api" / "index.html").is_file()


def local_links(markdown: str) -> list[str]:
    """The targets of the Markdown links and images of ``markdown`` that stay in the repository
    (not ``http:``, ``https:`` or ``mailto:``), code blocks and code spans left out."""
    text = re.sub(r"```.*?```", "", markdown, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    return [t for t in targets if not re.match(r"[a-z]+:", t)]


def anchors(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def built_page(site: Path, doc: Path) -> Path:
    """The HTML page mkdocs builds from ``docs/...md`` (directory URLs)."""
    rel = doc.relative_to(ROOT / "docs").with_suffix("")
    if rel.name == "index":
        return site / rel.parent / "index.html"
    return site / rel / "index.html"


@pytest.mark.parametrize("name", OUTSIDE_DOCS)
def test_links_from_the_repository_root_reach_their_files_and_anchors(site, name):
    source = ROOT / name
    links = local_links(source.read_text())
    assert links, f"{name} links to nothing"
    broken = []
    for link in links:
        path, _, anchor = link.partition("#")
        target = (source.parent / path).resolve() if path else source
        if not target.exists():
            broken.append(f"{link}: no such file")
            continue
        if anchor and target.suffix == ".md" and (ROOT / "docs") in target.parents:
            if anchor not in anchors(built_page(site, target).read_text()):
                broken.append(f"{link}: no such anchor")
    assert not broken, f"broken links in {name}: {broken}"


def test_the_link_checker_sees_a_broken_link(site, tmp_path):
    """The checker above can fail: a link to a missing page and one to a missing anchor."""
    assert local_links("[a](docs/api.md) [b](https://x.org) `[c](no.md)` [d](docs/no.md#x)") == [
        "docs/api.md",
        "docs/no.md#x",
    ]
    page = built_page(site, ROOT / "docs" / "api.md").read_text()
    assert "walkthroughs" in anchors(page)
    assert "no-such-anchor" not in anchors(page)


def test_the_site_output_is_ignored_by_git():
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert "site/" in ignored
