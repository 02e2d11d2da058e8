"""Pages benchmark: the weight of each page of the site and its server time against the API
calls that carry the same data.

    .venv/bin/python bench/pages.py [--rounds 30] [--users 300] [--sets 200] [--web-workers 1]

With no ``DATABASE_URL`` it runs on the embedded default (SQLite in a throwaway
``PENTE_VAR_DIR``); with ``DATABASE_URL`` pointing at PostgreSQL it creates a throwaway database
(``pente_bench_pages``, dropped at the end unless ``--keep``) on that server instead. It fills
the database through the services (in this process): ``--users`` players, ``--sets`` finished
rated sets of two Pente games (live 20 minutes: the "normal" leaderboard), a finished game of
50 moves, a game in progress (turn-based, 30 moves), open challenges, and a Swiss tournament of
16 players in its first round with half its matches played; about 30 s on two cores. Then it
starts gunicorn as docs/operations.md does (``pente_site/gunicorn.conf.py``,
``DEBUG=0``, ``--web-workers`` workers) and measures each page from this process over loopback:

(a) weight: the bytes transferred for the page's HTML and the style sheets and scripts it
    references (``<link rel=stylesheet|modulepreload>``, ``<script src>``, and the modules those
    scripts ``import``), each fetched once, asking for gzip: the compressed size when the
    server compresses, else the raw size. No images. Target: under 150 kB a page.
(b) server time: the median over ``--rounds`` rounds of one request of the page and one of each
    API call it shows (in the same round, alternately first and last), compared as
    page / (the sum of the API calls). Target: at most 3x.

    page                 its API calls
    home /               games?status=in_progress, the three Pente leaderboards (top 5),
                         tournaments?status=running, rooms/main/; signed in also
                         challenges/open/, challenges/incoming/, games?player=<me>&status=...
    play /games/<id>/    games/<id>/ (a game in progress, anonymous, then as one of its players)
    viewer /games/<id>/  games/<id>/ (a finished game of 50 moves)
    player               players/<name>/ and players/<name>/ratings/
    leaderboard          leaderboards/?game=Pente&category=normal
    tournament           tournaments/<id>/ and tournaments/<id>/standings
    database             games/?player=<name> (the page as /database/?player=<name>)

A page or an API call that does not answer 200 is reported as MISSED with its status (the pages
are being written), never a crash. Prints one line a page:
``page  bytes  target  page_ms  api_ms  ratio  target(<=3x)  ok/MISSED``. Exit status 1 when a
target is missed. The server's log: ``var/bench-pages/web.log``.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import logging
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from _support import (
    ROOT,
    bench_url,
    recreate_database,
    setup_django,
    setup_embedded,
    start_stack,
    stop_stack,
)

DB_NAME = "pente_bench_pages"
TARGET_BYTES = 150_000
TARGET_RATIO = 3.0


# --- pure helpers: what a page loads, how much, and the verdict -----------------------------


class _AssetParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name.lower(): value or "" for name, value in attrs}
        if tag == "link":
            rels = values.get("rel", "").lower().split()
            if ("stylesheet" in rels or "modulepreload" in rels) and values.get("href"):
                self.found.append(values["href"])
        elif tag == "script" and values.get("src"):
            self.found.append(values["src"])

    handle_startendtag = handle_starttag


def page_assets(html: str, page_url: str) -> list[str]:
    """The absolute URLs of the style sheets and scripts ``html`` loads (``<link
    rel=stylesheet>``, ``<link rel=modulepreload>``, ``<script src>``), in order, each once;
    no images, no inline code."""
    parser = _AssetParser()
    parser.feed(html)
    parser.close()
    return _unique(urljoin(page_url, ref.strip()) for ref in parser.found)


#: ``import x from "..."``, ``import {a} from '...'``, ``import "..."``, ``export ... from "..."``
#: (static imports only: a dynamic ``import()`` may never run).
_IMPORT = re.compile(
    r"""(?:^|[;\s])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"'\n]+)["']""",
    re.MULTILINE,
)


def module_imports(js: str, script_url: str) -> list[str]:
    """The absolute URLs of the modules a JavaScript module imports statically, each once
    (bare specifiers, which a browser cannot load without an import map, are left out)."""
    found = []
    for spec in _IMPORT.findall(_strip_js_comments(js)):
        if spec.startswith(("/", "./", "../", "http://", "https://")):
            found.append(urljoin(script_url, spec))
    return _unique(found)


def _strip_js_comments(js: str) -> str:
    js = re.sub(r"/\*.*?\*/", " ", js, flags=re.DOTALL)
    return re.sub(r"(?m)^\s*//.*$", " ", js)


def same_origin(url: str, base: str) -> bool:
    a, b = urlsplit(url), urlsplit(base)
    return (a.scheme, a.netloc) == (b.scheme, b.netloc)


def decoded(body: bytes, headers: dict[str, str]) -> bytes:
    """A body as it came over the wire (``headers`` lower-cased), decoded: the bytes sent are
    ``len(body)``, the content is what this returns."""
    encoding = headers.get("content-encoding", "").lower()
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding not in ("", "identity"):
        raise ValueError(f"unexpected Content-Encoding {encoding!r}")
    return body


def median_ms(samples: Iterable[float]) -> float:
    return 1000 * statistics.median(samples)


def verdict(*, weight: int | None, ratio: float | None, problem: str = "") -> str:
    """ "ok" when both targets are met; else "MISSED", with the problem when there is one."""
    if problem:
        return f"MISSED ({problem})"
    ok = weight is not None and weight < TARGET_BYTES and ratio is not None
    return "ok" if ok and ratio <= TARGET_RATIO else "MISSED"


def format_row(
    name: str,
    weight: int | None,
    page_ms: float | None,
    api_ms: float | None,
    result: str,
) -> str:
    ratio = page_ms / api_ms if page_ms is not None and api_ms else None

    def num(value, fmt: str) -> str:
        return "-" if value is None else format(value, fmt)

    return (
        f"{name:<24}{num(weight, ',d'):>10}{f'<{TARGET_BYTES // 1000}k':>8}"
        f"{num(page_ms, '.1f'):>9}{num(api_ms, '.1f'):>9}{num(ratio, '.2f'):>7}"
        f"{f'<={TARGET_RATIO:g}x':>8}  {result}"
    )


HEADER = (
    f"{'page':<24}{'bytes':>10}{'target':>8}{'page_ms':>9}{'api_ms':>9}{'ratio':>7}"
    f"{'target':>8}  ok/MISSED"
)


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


# --- the database -------------------------------------------------------------------------


def _play(game, moves: list[int]) -> None:
    """Play ``moves`` in ``game`` through the service, each by the seat to move."""
    from games.play.actions import move_play
    from games.play.models import Seat

    users = {s.seat: s.user for s in Seat.objects.filter(game=game).select_related("user")}
    ply = game.ply
    for point in moves:
        seat = 1 if ply % 2 == 0 else 2  # seat 1 placed ply 1, the centre stone
        move_play(game_id=game.pk, user=users[seat], ply=ply, points=[point])
        ply += 1


def _finish_set(game_set, rnd: random.Random) -> None:
    """Finish each game still in progress of ``game_set`` by a resignation (random loser)."""
    from django.db import transaction

    from games.play.actions import game_resign
    from games.play.models import Game, Seat

    for game in Game.objects.filter(game_set=game_set, status="in_progress"):
        seats = list(Seat.objects.filter(game=game).select_related("user"))
        with transaction.atomic():
            game_resign(game_id=game.pk, user=rnd.choice(seats).user)


def make_data(*, users: int, sets: int, seed: int = 7) -> dict:
    """Players, rated sets, a finished and a live game, challenges and a tournament."""
    from datetime import timedelta

    import api  # bench/api.py: quiet_moves (moves that never end a game)
    from django.db import transaction
    from django.utils import timezone

    from accounts.models import User
    from games.challenges import services as challenge_services
    from games.clocks.timecontrol import TimeControl
    from games.play.create import game_create, set_create
    from games.play.models import Game
    from pente_site.celery import app
    from tests.tournaments.support import finish_match_games
    from tournaments import services as tournament_services
    from tournaments.models import Match

    app.conf.task_always_eager = True  # no worker: what the services enqueue runs here
    # Celery opens a broker connection even for an eager task with an eta; it need not say so.
    logging.getLogger("kombu.connection").setLevel(logging.ERROR)
    rnd = random.Random(seed)
    people = User.objects.bulk_create(
        User(username=f"bench{i}", password="!") for i in range(users)
    )
    star = people[0]  # the player whose page, games and ratings are shown
    normal = TimeControl.live(20, 0)
    for i in range(sets):
        first = star if i % 4 == 0 else rnd.choice(people[1:])
        second = rnd.choice([p for p in people[1:60] if p.pk != first.pk])
        pair = (first, second) if rnd.random() < 0.5 else (second, first)
        game_set = set_create(
            player1=pair[0], player2=pair[1], variant="Pente", rated=True, time_control=normal
        )
        _finish_set(game_set, rnd)

    viewer_set = set_create(
        player1=star, player2=people[1], variant="Pente", rated=True, time_control=normal
    )
    finished = Game.objects.get(game_set=viewer_set, set_index=1)
    _play(finished, api.quiet_moves(50, seed=seed))
    _finish_set(viewer_set, rnd)

    live = game_create(variant="Pente", players=[star, people[2]], time_control=TimeControl.turn(3))
    _play(live, api.quiet_moves(30, seed=seed + 1))

    for p in people[10:16]:
        challenge_services.challenge_create(
            creator=p, variant="Pente", rated=True, time_control=normal
        )

    organiser = people[3]
    tournament = tournament_services.tournament_create(
        organiser=organiser,
        name="Bench Open",
        start_at=timezone.now() + timedelta(hours=1),
        format="swiss",
        rated=False,
        games_per_match=1,
        time_control=TimeControl.turn(3),
    )
    for p in people[20:36]:
        tournament_services.tournament_join(tournament_id=tournament.pk, user=p)
    tournament_services.tournament_start(tournament_id=tournament.pk, user=organiser)
    for k, match in enumerate(Match.objects.filter(tournament=tournament).order_by("pk")):
        if k % 2 == 0 and match.player2_id is not None:
            with transaction.atomic():  # as in a test: game_finish locks its rows
                finish_match_games(match, rnd.choice(["player1", "player2", "draw"]))

    return {
        "star": star.username,
        "star_id": star.pk,
        "finished": finished.pk,
        "live": live.pk,
        "tournament": tournament.pk,
    }


def session_cookie(user_id: int) -> str:
    """A ``Cookie`` header value of a signed-in session of the user (stored in the database
    this process shares with the server)."""
    from django.conf import settings
    from django.test import Client

    from accounts.models import User

    client = Client()
    client.force_login(User.objects.get(pk=user_id))
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


# --- the server ---------------------------------------------------------------------------


# --- measuring ----------------------------------------------------------------------------


class Fetcher:
    """GET requests on one keep-alive connection (opened again when the server closed it)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: http.client.HTTPConnection | None = None

    def get(self, path: str, *, cookie: str = "", accept: str = "*/*"):
        """(status, lower-cased headers, body as sent, seconds)."""
        headers = {"Accept": accept, "Accept-Encoding": "gzip"}
        if cookie:
            headers["Cookie"] = cookie
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                t0 = time.perf_counter()
                self.conn.request("GET", path, headers=headers)
                response = self.conn.getresponse()
                body = response.read()
                elapsed = time.perf_counter() - t0
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
                continue
            if response.getheader("connection", "").lower() == "close":
                self.conn.close()
                self.conn = None
            return (
                response.status,
                {k.lower(): v for k, v in response.getheaders()},
                body,
                elapsed,
            )
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


@dataclass
class Case:
    name: str
    page: str
    apis: list[str]
    cookie: str = ""
    problems: list[str] = field(default_factory=list)


@dataclass
class Weight:
    total: int = 0  # bytes as sent
    raw: int = 0  # bytes decoded
    gzipped: int = 0  # what gzip (level 6) would make of them
    compressed: bool = False  # whether the server compressed any of them
    files: list[tuple[str, int]] = field(default_factory=list)
    problem: str = ""


def weigh(fetch: Fetcher, base: str, path: str, *, cookie: str = "") -> Weight:
    """The page's HTML plus its style sheets and scripts (and their imports), each once."""
    weight = Weight()
    status, headers, body, _ = fetch.get(path, cookie=cookie, accept="text/html")
    if status != 200:
        weight.problem = f"page {status}"
        return weight
    queue = [(base + path, body, headers)]
    seen = {base + path}

    def add(url: str, body: bytes, headers: dict[str, str]) -> bytes:
        plain = decoded(body, headers)
        sent = len(body)  # as sent: still compressed when the server compressed it
        weight.total += sent
        weight.raw += len(plain)
        weight.gzipped += len(gzip.compress(plain, compresslevel=6))
        weight.compressed |= headers.get("content-encoding", "") == "gzip"
        weight.files.append((url, sent))
        return plain

    html = add(*queue[0]).decode("utf-8", "replace")
    pending = page_assets(html, base + path)
    while pending:
        url = pending.pop(0)
        if url in seen:
            continue
        seen.add(url)
        if not same_origin(url, base):
            weight.problem = f"loads {url} from elsewhere"
            continue
        parts = urlsplit(url)
        status, headers, body, _ = fetch.get(
            parts.path + (f"?{parts.query}" if parts.query else "")
        )
        if status != 200:
            weight.problem = f"{parts.path} {status}"
            continue
        plain = add(url, body, headers)
        if parts.path.endswith((".js", ".mjs")):
            pending.extend(module_imports(plain.decode("utf-8", "replace"), url))
    return weight


def time_case(fetch: Fetcher, case: Case, rounds: int, warmup: int = 3):
    """Median page time and median summed API time (ms) over ``rounds`` rounds, the page first
    in even rounds and last in odd ones; or a problem (a status that is not 200)."""
    page_times: list[float] = []
    api_times: list[float] = []

    def page() -> float:
        status, _h, _b, seconds = fetch.get(case.page, cookie=case.cookie, accept="text/html")
        if status != 200:
            raise _Refused(f"page {status}")
        return seconds

    def apis() -> float:
        total = 0.0
        for path in case.apis:
            status, _h, _b, seconds = fetch.get(path, cookie=case.cookie, accept="application/json")
            if status != 200:
                raise _Refused(f"{path} {status}")
            total += seconds
        return total

    order: list[Callable[[], float]]
    for i in range(warmup + rounds):
        order = [page, apis] if i % 2 == 0 else [apis, page]
        results = {f: f() for f in order}
        if i >= warmup:
            page_times.append(results[page])
            api_times.append(results[apis])
    return median_ms(page_times), median_ms(api_times)


class _Refused(Exception):
    pass


def cases_for(data: dict, cookie: str) -> list[Case]:
    star, live, finished, tid = data["star"], data["live"], data["finished"], data["tournament"]
    boards = [
        f"/api/leaderboards/?game=Pente&category={c}&page_size=5"
        for c in ("speed", "normal", "turn")
    ]
    home = [
        "/api/games/?status=in_progress",
        *boards,
        "/api/tournaments/?status=running",
        "/api/rooms/main/",
    ]
    mine = [
        "/api/challenges/open/",  # the API lists challenges to those signed in only
        "/api/challenges/incoming/",
        f"/api/games/?player={star}&status=in_progress",
    ]
    return [
        Case("home", "/", home),
        Case("home (signed in)", "/", home + mine, cookie=cookie),
        Case("play (in progress)", f"/games/{live}/", [f"/api/games/{live}/"]),
        Case("play (as a player)", f"/games/{live}/", [f"/api/games/{live}/"], cookie=cookie),
        Case("viewer (finished)", f"/games/{finished}/", [f"/api/games/{finished}/"]),
        Case(
            "player",
            f"/players/{star}/",
            [f"/api/players/{star}/", f"/api/players/{star}/ratings/"],
        ),
        Case("leaderboard", "/leaderboards/", ["/api/leaderboards/?game=Pente&category=normal"]),
        Case(
            "tournament",
            f"/tournaments/{tid}/",
            [f"/api/tournaments/{tid}/", f"/api/tournaments/{tid}/standings"],
        ),
        Case("database", f"/database/?player={star}", [f"/api/games/?player={star}"]),
    ]


def run(port: int, data: dict, rounds: int, verbose: bool) -> int:
    base = f"http://127.0.0.1:{port}"
    fetch = Fetcher(port)
    cases = cases_for(data, session_cookie(data["star_id"]))
    print(f"\n{rounds} rounds a page; bytes as sent with Accept-Encoding: gzip\n")
    print(HEADER)
    missed = 0
    compressed = False
    raw_total = gzip_total = 0
    try:
        for case in cases:
            weight = weigh(fetch, base, case.page, cookie=case.cookie)
            compressed |= weight.compressed
            raw_total += weight.raw
            gzip_total += weight.gzipped
            page_ms = api_ms = None
            problem = weight.problem if weight.problem.startswith("page ") else ""
            if not problem:
                try:
                    page_ms, api_ms = time_case(fetch, case, rounds)
                except _Refused as refused:
                    problem = str(refused)
            problem = problem or weight.problem
            ratio = page_ms / api_ms if page_ms is not None and api_ms else None
            result = verdict(
                weight=weight.total if weight.files else None, ratio=ratio, problem=problem
            )
            missed += result != "ok"
            print(
                format_row(
                    case.name, weight.total if weight.files else None, page_ms, api_ms, result
                ),
                flush=True,
            )
            if verbose:
                for url, size in weight.files:
                    print(f"    {size:>9,d}  {url[len(base) :]}")
    finally:
        fetch.close()
    print()
    if compressed:
        print("The server compressed (gzip): bytes are the compressed sizes.")
    else:
        share = f"{gzip_total / raw_total:.0%}" if raw_total else "-"
        print(
            "The server did not compress: bytes are the raw sizes "
            f"(gzip would send {share} of them)."
        )
    return 1 if missed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="timed rounds a page")
    parser.add_argument("--users", type=int, default=300)
    parser.add_argument("--sets", type=int, default=200, help="finished rated sets")
    parser.add_argument("--web-workers", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="list each page's files")
    parser.add_argument("--keep", action="store_true", help="keep the PostgreSQL database")
    args = parser.parse_args()

    base_url = os.environ.get("DATABASE_URL", "")
    postgres = base_url.startswith(("postgres://", "postgresql://"))
    var_dir = Path(tempfile.mkdtemp(prefix="pente-bench-pages-"))
    database_url = None
    if postgres:
        database_url = bench_url(base_url, DB_NAME)
        recreate_database(base_url, DB_NAME)
        os.environ["PENTE_VAR_DIR"] = str(var_dir)
        setup_django(database_url)
    else:
        setup_embedded(var_dir)
    where = f"PostgreSQL ({DB_NAME})" if postgres else f"SQLite in {var_dir}"
    log_dir = ROOT / "var" / "bench-pages"
    log_dir.mkdir(parents=True, exist_ok=True)
    procs: list = []
    try:
        from django.core.cache import cache

        cache.clear()
        print(
            f"filling {where}: {args.users} players, {args.sets} rated sets, a tournament ...",
            flush=True,
        )
        started = time.perf_counter()
        data = make_data(users=args.users, sets=args.sets)
        print(f"  filled in {time.perf_counter() - started:.1f}s", flush=True)
        from tests.servers import free_port

        port = free_port()
        procs = start_stack(
            url=database_url,
            port=port,
            web_workers=args.web_workers,
            log_dir=log_dir,
            worker=False,
        )
        return run(port, data, args.rounds, args.verbose)
    finally:
        stop_stack(procs)
        from django.db import connections

        connections.close_all()
        if postgres and not args.keep:
            recreate_database(base_url, DB_NAME, drop_only=True)
        shutil.rmtree(var_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
