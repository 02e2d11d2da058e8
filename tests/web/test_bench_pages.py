"""The pure helpers of ``bench/pages.py`` (what a page loads, its weight, the verdict), on
small inputs: no server, no database."""

from __future__ import annotations

import gzip
import importlib.util
import sys

import pytest

from tests.servers import ROOT

BASE = "http://127.0.0.1:8123"


@pytest.fixture(scope="module")
def bench():
    """``bench/pages.py`` as a module (its folder on ``sys.path`` for ``_support``)."""
    folder = str(ROOT / "bench")
    added = folder not in sys.path
    if added:
        sys.path.insert(0, folder)
    try:
        spec = importlib.util.spec_from_file_location("bench_pages", ROOT / "bench" / "pages.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclasses look their module up
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("bench_pages", None)
        if added:
            sys.path.remove(folder)


PAGE = """<!doctype html>
<html><head>
<link rel="stylesheet" href="/static/web/site.css">
<LINK REL="Stylesheet" HREF="print.css" media="print">
<link rel="icon" href="/static/web/favicon.png">
<link rel="preload" href="/static/web/font.woff2" as="font">
<link rel="modulepreload" href="/static/web/board.js">
<script type="module" src="/static/web/site.js"></script>
<script>console.log("inline")</script>
<script src="https://cdn.example.org/x.js" defer></script>
</head><body>
<img src="/static/web/logo.png">
<script type="module" src="/static/web/site.js"></script>
<script type="module" src="game.js?v=2"></script>
</body></html>"""


def test_a_page_s_style_sheets_and_scripts_in_order_each_once(bench):
    assert bench.page_assets(PAGE, f"{BASE}/games/12/") == [
        f"{BASE}/static/web/site.css",
        f"{BASE}/games/12/print.css",
        f"{BASE}/static/web/board.js",
        f"{BASE}/static/web/site.js",
        "https://cdn.example.org/x.js",
        f"{BASE}/games/12/game.js?v=2",
    ]


def test_a_page_without_assets(bench):
    assert bench.page_assets("<p>plain</p><img src='a.png'>", f"{BASE}/") == []


def test_the_modules_a_script_imports(bench):
    js = """
    import { api, follow } from "./site.js";
    import board from '../web/board.js';
    import "/static/web/sound.js";
    export { el } from "./site.js";
    export * from "./util.js";
    import lodash from "lodash";            // bare: not loadable without an import map
    // import { old } from "./old.js";
    /* import { gone } from "./gone.js"; */
    const later = () => import("./lazy.js");  // dynamic: may never run
    const text = "important";
    """
    assert bench.module_imports(js, f"{BASE}/static/web/game.js") == [
        f"{BASE}/static/web/site.js",
        f"{BASE}/static/web/board.js",
        f"{BASE}/static/web/sound.js",
        f"{BASE}/static/web/util.js",
    ]


def test_same_origin(bench):
    assert bench.same_origin(f"{BASE}/static/web/site.css", BASE)
    assert not bench.same_origin("http://127.0.0.1:9999/x.js", BASE)
    assert not bench.same_origin("https://cdn.example.org/x.js", BASE)


def test_bodies_are_decoded_as_sent(bench):
    text = b"body { color: red; }" * 50
    squeezed = gzip.compress(text)
    assert bench.decoded(squeezed, {"content-encoding": "gzip"}) == text
    assert bench.decoded(text, {}) == text
    assert bench.decoded(text, {"content-encoding": "identity"}) == text
    with pytest.raises(ValueError):
        bench.decoded(text, {"content-encoding": "zstd"})


def test_the_verdict(bench):
    assert bench.verdict(weight=40_000, ratio=1.2) == "ok"
    assert bench.verdict(weight=40_000, ratio=3.0) == "ok"
    assert bench.verdict(weight=40_000, ratio=3.1) == "MISSED"
    assert bench.verdict(weight=150_000, ratio=1.0) == "MISSED"
    assert bench.verdict(weight=None, ratio=None) == "MISSED"
    assert bench.verdict(weight=40_000, ratio=None) == "MISSED"
    assert bench.verdict(weight=None, ratio=None, problem="page 404") == "MISSED (page 404)"


def test_a_row_of_the_table(bench):
    row = bench.format_row("leaderboard", 10_950, 3.0, 2.0, "ok")
    assert row.split() == ["leaderboard", "10,950", "<150k", "3.0", "2.0", "1.50", "<=3x", "ok"]
    missing = bench.format_row("tournament", None, None, None, "MISSED (page 500)")
    assert missing.split() == [
        "tournament",
        "-",
        "<150k",
        "-",
        "-",
        "-",
        "<=3x",
        "MISSED",
        "(page",
        "500)",
    ]
    assert bench.HEADER.split()[:3] == ["page", "bytes", "target"]


def test_every_page_is_compared_with_api_calls(bench):
    data = {"star": "alice", "star_id": 1, "live": 7, "finished": 5, "tournament": 3}
    cases = bench.cases_for(data, cookie="sessionid=x")
    names = [c.name for c in cases]
    for wanted in ("home", "play (in progress)", "viewer (finished)", "player", "leaderboard"):
        assert wanted in names
    assert {"tournament", "database"} <= set(names)
    for case in cases:
        assert case.page.startswith("/") and not case.page.startswith("/api/"), case
        assert case.apis and all(a.startswith("/api/") for a in case.apis), case
    assert next(c for c in cases if c.name == "viewer (finished)").page == "/games/5/"
