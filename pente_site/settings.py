"""Settings, read from the environment.

With no environment at all the server runs on an embedded default: SQLite in ``var/`` and a
Celery broker kept on the filesystem (``var/broker``), so a worker and beat need no separate
server. ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` switch to the production set-up.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("PENTE_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    try:
        return int(value) if value else default
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}.") from None


DEFAULT_SECRET_KEY = "dev-only-insecure-key-change-me"
SECRET_KEY = os.environ.get("SECRET_KEY", DEFAULT_SECRET_KEY)
DEBUG = os.environ.get("DEBUG", "1") == "1"
ALLOWED_HOSTS = os.environ.get("ALLOWED_HOSTS", "*").split(",")
if not DEBUG and SECRET_KEY in ("", DEFAULT_SECRET_KEY):
    raise ImproperlyConfigured(
        "DEBUG is off but SECRET_KEY is not set: set SECRET_KEY to a long random value."
    )

# --- HTTPS / security headers (production: DEBUG=0 behind TLS) ----------------------------
# Each is driven by an environment variable; with DEBUG off the secure choice is the default.
SECURE_SSL_REDIRECT = _env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = _env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = _env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = _env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = _env_bool("SECURE_HSTS_PRELOAD", False)
# Joining the browsers' HSTS preload list is the operator's choice (hard to undo), not a default.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Behind a TLS-terminating proxy that sets X-Forwarded-Proto (e.g. SECURE_PROXY_SSL_HEADER=1).
if _env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# The health check and other plain-HTTP probes of the load balancer may be exempted.
SECURE_REDIRECT_EXEMPT = [
    p for p in os.environ.get("SECURE_REDIRECT_EXEMPT", "").split(",") if p.strip()
]
#: Under /api/ a refused CSRF check is a JSON 403 like every other refusal.
CSRF_FAILURE_VIEW = "pente_site.api.csrf_failure"
CSRF_TRUSTED_ORIGINS = [
    o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "games",
    "ratings",
    "tournaments",
    "live",
    "explorer",
    "learn",
    "hills",
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files (the API docs' Swagger UI, the admin's) served by the app itself, from the
    # apps' folders: no collectstatic step, no CDN.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # A body that is not text in its charset is refused before anything reads it (bad_encoding).
    "pente_site.bodies.StrictBodyEncodingMiddleware",
    # The request's address for the links of e-mails sent while it is served (``public``).
    "pente_site.public.RequestSiteMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "pente_site.ratelimit.RateLimitHeadersMiddleware",
    "pente_site.queryparams.KnownQueryParametersMiddleware",
]

ROOT_URLCONF = "pente_site.urls"
WSGI_APPLICATION = "pente_site.wsgi.application"
ASGI_APPLICATION = "pente_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]

DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
USING_POSTGRES = DATABASES["default"]["ENGINE"].endswith("postgresql")
# The hottest statements (leaderboard and rank reads, the write of a turn) run as server-side
# prepared statements on PostgreSQL (``pente_site.db``); turn this off behind a connection pooler
# that cannot keep them (PgBouncer < 1.21 in transaction mode).
PREPARED_STATEMENTS = os.environ.get("PREPARED_STATEMENTS", "1") == "1"

AUTH_USER_MODEL = "accounts.User"
# A password of at least 8 characters, not one of the 20,000 most common, not all digits and
# not too like the username or e-mail address.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

LOGIN_URL = "/login/"
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# ``collectstatic`` fills it; WhiteNoise serves the apps' folders meanwhile (and warns if it is
# missing), so it exists from the start.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

#: Default rates of the rate-limit scopes (docs/operations.md, "Rate limits").
THROTTLE_RATES = {
    "writes": "120/min",  # any other write, per user (or address when logged out)
    "writes_ip": "600/min",  # every write from one address
    "moves": "240/min",  # moves, decisions, resign, cancel and undo requests, per user
    "messages": "30/min",  # moves carrying a chat message, per user
    "chat": "20/min",  # chat lines in rooms and games, per user
    "chat_burst": "5/10s",  # the same over ten seconds (flood)
    "challenges": "30/min",  # creating and answering challenges, per user
    "challenge_pair": "5/min",  # direct challenges from one player to another
    "challenge_target": "60/min",  # direct challenges to one player, from anyone
    "tournaments": "10/hour",  # creating tournaments, per user
    "imports": "30/hour",  # record imports, per user
    "tokens": "10/min",  # creating and revoking API tokens, per user
    "account": "5/min",  # deleting one's account (the password is checked), per user
    "auth": "20/min",  # register, log in, token requests, per address
    "auth_username": "10/min",  # the same per username named in the body
    "password_reset": "5/hour",  # links to choose a new password, per e-mail address asked for
    "email_confirm": "5/hour",  # links to confirm an e-mail address, per address
}

# --- E-mail (links to choose a new password, notifications) --------------------------------------
# With EMAIL_HOST set, messages go out through that SMTP server; without it (the embedded
# default, development) they are written to the standard output of the process that sends them
# (the Celery worker). Either way a job sends them, never the web request.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = _env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = _env_bool("EMAIL_USE_TLS", True)
    EMAIL_TIMEOUT = _env_int("EMAIL_TIMEOUT", 20)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Pente server <noreply@localhost>")
#: The site's address as its users reach it (``https://pente.example.org``), for the links in
#: e-mails; without it they use the address of the request that asked for them, which, with
#: ``ALLOWED_HOSTS=*``, a stranger could choose: set it in production.
PUBLIC_URL = os.environ.get("PUBLIC_URL", "").strip().rstrip("/")
#: How long a link to choose a new password works (seconds; Django's default is three days).
PASSWORD_RESET_TIMEOUT = _env_int("PASSWORD_RESET_TIMEOUT", 24 * 3600)
#: E-mail notifications (``games.notifications.services``): the job that tells a player it is
#: their turn in a turn-based game waits this long after the turn starts, then tells in one
#: message every turn of theirs that came meanwhile (none already played).
TURN_EMAIL_WAIT_SECONDS = _env_int("TURN_EMAIL_WAIT_SECONDS", 120)
#: A live rated set is played one game at a time: game 2 starts this long after game 1 ends
#: (or as soon as both players say they are ready; ``games.play.sets``).
SET_NEXT_GAME_SECONDS = _env_int("SET_NEXT_GAME_SECONDS", 10)
#: A turn still untold this long after its job was due (a lost job) is told by the sweeper's.
TURN_EMAIL_STALE_SECONDS = _env_int("TURN_EMAIL_STALE_SECONDS", 60)
#: Challenge e-mails one player gets at most: from one challenger, and from everyone (an hour;
#: the challenges past them still show on the site and on the player's stream).
CHALLENGE_EMAILS_PER_CHALLENGER = _env_int("CHALLENGE_EMAILS_PER_CHALLENGER", 1)
CHALLENGE_EMAILS_PER_HOUR = _env_int("CHALLENGE_EMAILS_PER_HOUR", 10)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "pente_site.lists.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "pente_site.lists.StrictOrderingFilter",
        "pente_site.lists.KnownQueryParameters",
    ],
    # JSON only in production: DRF's browsable pages (for ``Accept: text/html``) with DEBUG alone.
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        *(["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    ],
    # ... and JSON whatever the Accept header asks for (not a 406).
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "pente_site.negotiation.JsonWhateverAccepted",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "pente_site.api.exception_handler",
    # ``?format=`` is a filter (tournaments' format), not DRF's renderer switch: ask for a
    # representation with the Accept header.
    "URL_FORMAT_OVERRIDE": None,
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # Rate limits (pente_site.ratelimit): every write per user and per address, and the
    # scopes below; each rate from THROTTLE_<SCOPE>_RATE. Beyond one: 429 {"code": "throttled"}.
    "DEFAULT_THROTTLE_CLASSES": [
        "pente_site.ratelimit.WriteThrottle",
        "pente_site.ratelimit.WriteAddressThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        scope: os.environ.get(f"THROTTLE_{scope.upper()}_RATE", default)
        for scope, default in THROTTLE_RATES.items()
    },
    # Proxies in front of the server that append to X-Forwarded-For (0: use the peer address).
    "NUM_PROXIES": _env_int("NUM_PROXIES", 0),
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Pente server API",
    "DESCRIPTION": "Play Pente and its variants, keep Elo ratings and run tournaments.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs page's scripts and styles come from this server (drf-spectacular-sidecar), so it
    # works offline and loads nothing from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "ChallengeStatusEnum": "games.challenges.models.Challenge.Status",
        "HillKindEnum": "hills.models.Hill.Kind",
        "HillEventKindEnum": "hills.models.HillEvent.Kind",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "pente_site.api.unicode_username_patterns",
        "pente_site.api.document_plain_views",
        "pente_site.api.document_errors",
    ],
}

# --- Cache (throttle counters) ---------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "pente_site.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "pente",
            # Bounded waits: a Redis that does not answer costs a request a second at most
            # (the rate limits then count in process, positions are rebuilt from the database).
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Celery -------------------------------------------------------------------------------
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict = {
        "visibility_timeout": 3600,
        "socket_connect_timeout": 2,
    }
else:
    _broker = VAR_DIR / "broker"
    for _sub in ("out", "processed", "control"):
        (_broker / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    # kombu's filesystem transport, with messages written whole (``pente_site.broker_fs``)
    CELERY_BROKER_TRANSPORT = "pente_site.broker_fs:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker / "out"),
        "data_folder_out": str(_broker / "out"),
        "processed_folder": str(_broker / "processed"),
        # the exchange tables (kombu's default is a "control" folder in the working directory)
        "control_folder": str(_broker / "control"),
        "store_processed": False,
    }
CELERY_TASK_IGNORE_RESULT = True
# The worker and beat outlive a broker outage: they retry connecting for ever, at start too.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BROKER_CHANNEL_ERROR_RETRY = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_ENABLE_UTC = True
# Eager mode runs tasks inline (tests without Redis); the embedded server runs a real worker.
CELERY_TASK_ALWAYS_EAGER = os.environ.get("CELERY_TASK_ALWAYS_EAGER", "0") == "1"
CELERY_TASK_EAGER_PROPAGATES = True
# Every scheduled task is backed by a periodic sweeper.
SWEEP_INTERVAL = timedelta(seconds=int(os.environ.get("SWEEP_INTERVAL_SECONDS", "30")))
_SWEEP = {
    "schedule": SWEEP_INTERVAL.total_seconds(),
    "options": {"expires": SWEEP_INTERVAL.total_seconds()},
}
#: How often beat runs the timeout sweeper, the safety net behind the timeout tasks: it closes the
#: games past their deadline that no task closed (a task lost with a worker, a deadline beyond
#: the eta horizon), so this is how late such a timeout can be (``docs/timeouts.md``). A sweep
#: that no worker takes within the period is dropped, not queued up.
TIMEOUT_SWEEP_INTERVAL = float(
    os.environ.get("TIMEOUT_SWEEP_SECONDS", os.environ.get("TIMEOUT_POLL_SECONDS", "1"))
)
#: The start window of live games (``games.clocks.rules.start_window``): the time each seat has
#: for its first action of its own, for initial times up to 10 minutes (longer games get 10% of
#: the time beyond 10 minutes more, up to five times this).
START_WINDOW_SECONDS = _env_int("START_WINDOW_SECONDS", 60)
#: Games aborted for a player's absence within ABORT_LIMIT_HOURS that keep them from rated live
#: challenges (``games.clocks.selectors.abort_limit_until``; 0: no limit).
ABORT_LIMIT = _env_int("ABORT_LIMIT", 3)
ABORT_LIMIT_HOURS = _env_int("ABORT_LIMIT_HOURS", 24)
# --- Record imports (games.records.jobs): limits, and the sweeper behind the import task -------
#: The largest text one import takes (bytes of UTF-8; 413 ``too_large`` beyond).
IMPORT_MAX_BYTES = _env_int("IMPORT_MAX_BYTES", 2_000_000)
#: The most records one import takes (413 ``too_many_records`` beyond).
IMPORT_MAX_RECORDS = _env_int("IMPORT_MAX_RECORDS", 10_000)
#: Imports of one user queued or running at once (409 ``import_busy`` beyond).
IMPORT_MAX_ACTIVE_JOBS = _env_int("IMPORT_MAX_ACTIVE_JOBS", 2)
#: Records stored per transaction (each batch commits with the job's progress).
IMPORT_BATCH_SIZE = _env_int("IMPORT_BATCH_SIZE", 200)
#: A job queued, or running without progress, this long is handed to a worker again.
IMPORT_STALE_AFTER = timedelta(seconds=_env_int("IMPORT_STALE_SECONDS", 120))
#: A job whose workers were lost this many times is failed (``interrupted``).
IMPORT_MAX_ATTEMPTS = _env_int("IMPORT_MAX_ATTEMPTS", 3)
#: How often beat looks for import jobs that no worker moves on.
IMPORT_SWEEP_INTERVAL = timedelta(seconds=_env_int("IMPORT_SWEEP_SECONDS", 60))
# --- Tournaments -------------------------------------------------------------------------------
#: Byes one player may ask for ahead of time in a Swiss (``POST tournaments/{id}/byes``).
TOURNAMENT_MAX_REQUESTED_BYES = _env_int("TOURNAMENT_MAX_REQUESTED_BYES", 2)
# --- Computer opponents (games.bots) -----------------------------------------------------------
#: A computer's move not made this many seconds after it was due (its turn's start, or the moment
#: a worker took it, plus its think time) is sent again by the resend sweeper (a lost task);
#: further resends wait twice as long each time, up to a minute.
BOT_RESEND_SECONDS = float(os.environ.get("BOT_RESEND_SECONDS", "3"))
#: How often beat runs the resend sweeper (one indexed query when no computer's move is late).
BOT_RESEND_SWEEP_SECONDS = float(os.environ.get("BOT_RESEND_SWEEP_SECONDS", "1"))
#: A factor on every level's think time (tests and CI shorten it; 1 in production).
BOT_THINK_SCALE = float(os.environ.get("BOT_THINK_SCALE", "1"))
#: Games in progress one player may have against the computer opponents at once.
BOT_MAX_ACTIVE_GAMES = _env_int("BOT_MAX_ACTIVE_GAMES", 3)
#: An open invitation made for a computer (``computer_level``) waits this long for a human first.
BOT_OPEN_WAIT_SECONDS = _env_int("BOT_OPEN_WAIT_SECONDS", 30)
#: How often beat lets the computers take the invitations whose wait is over.
BOT_OPEN_POLL_SECONDS = _env_int("BOT_OPEN_POLL_SECONDS", 5)
# --- Computer analysis of finished games and hints (games.bots.analysis) ---------------------
#: Seconds the engine thinks on each position of an analysed game (a ply costs about one search).
ANALYSIS_SECONDS_PER_MOVE = float(os.environ.get("ANALYSIS_SECONDS_PER_MOVE", "0.2"))
#: The search level of the analysis (1-8; ``games.bots.search``).
ANALYSIS_LEVEL = _env_int("ANALYSIS_LEVEL", 6)
#: Plies analysed per task run (each batch commits with the progress; the next batch is a new
#: task, so that analyses never hold the ``bots`` workers long against the computers' moves).
ANALYSIS_BATCH_SIZE = _env_int("ANALYSIS_BATCH_SIZE", 10)
#: Analyses one user may have pending or running at once (409 ``analysis_busy`` beyond).
ANALYSIS_MAX_ACTIVE = _env_int("ANALYSIS_MAX_ACTIVE", 2)
#: An analysis pending, or running without progress, this long is handed to a worker again.
ANALYSIS_STALE_AFTER = timedelta(seconds=_env_int("ANALYSIS_STALE_SECONDS", 120))
#: An analysis whose workers were lost this many times is failed (``interrupted``).
ANALYSIS_MAX_ATTEMPTS = _env_int("ANALYSIS_MAX_ATTEMPTS", 3)
#: How often beat looks for analyses that no worker moves on.
ANALYSIS_SWEEP_INTERVAL = timedelta(seconds=_env_int("ANALYSIS_SWEEP_SECONDS", 60))
#: Seconds the engine thinks on a hint (``GET /api/games/{id}/hint``, computed in the request).
HINT_SECONDS = float(os.environ.get("HINT_SECONDS", "0.3"))
#: The search level of hints (1-8).
HINT_LEVEL = _env_int("HINT_LEVEL", 6)
#: Hints one user may ask for (a read that costs a search, so counted: 429 ``throttled``).
HINT_RATE = os.environ.get("THROTTLE_HINTS_RATE", "30/min")
#: The computers think on a queue of their own, so a long think never delays timeouts or imports
#: (production runs a worker for it: ``celery -A pente_site worker -Q bots``); analyses too.
CELERY_TASK_ROUTES = {
    "games.bots.move": {"queue": "bots"},
    "games.bots.analysis_run": {"queue": "bots"},
}
CELERY_BEAT_SCHEDULE: dict = {
    "games-sweep-timeouts": {
        "task": "games.sweep_timeouts",
        "schedule": TIMEOUT_SWEEP_INTERVAL,
        "options": {"expires": max(1.0, TIMEOUT_SWEEP_INTERVAL)},
    },
    # The sets' next games whose task was lost (``games.play.sets.sets_start_due``).
    "games-sets-start-due": {"task": "games.sets_start_due", **_SWEEP},
    "challenges-expire": {"task": "games.challenges.tasks.challenges_expire", **_SWEEP},
    "tournaments-sweep": {"task": "tournaments.sweep", **_SWEEP},
    "accounts-deleted-games": {"task": "games.accounts.tasks.deleted_games_resign", **_SWEEP},
    "accounts-turn-emails-sweep": {"task": "games.accounts.turn_emails_sweep", **_SWEEP},
    # The computers' moves not made a few seconds after they were due (``games.bots.services``).
    "bots-resend-due": {
        "task": "games.bots.resend_due",
        "schedule": BOT_RESEND_SWEEP_SECONDS,
        "options": {"expires": max(1.0, BOT_RESEND_SWEEP_SECONDS)},
    },
    "challenges-computer-take": {
        "task": "games.challenges.computer_take_due",
        "schedule": float(BOT_OPEN_POLL_SECONDS),
        "options": {"expires": float(BOT_OPEN_POLL_SECONDS)},
    },
    "bots-analyses-sweep": {
        "task": "games.bots.analyses_sweep",
        "schedule": ANALYSIS_SWEEP_INTERVAL.total_seconds(),
        "options": {"expires": ANALYSIS_SWEEP_INTERVAL.total_seconds()},
    },
    "records-import-jobs-sweep": {
        "task": "games.records.import_jobs_sweep",
        "schedule": IMPORT_SWEEP_INTERVAL.total_seconds(),
        "options": {"expires": IMPORT_SWEEP_INTERVAL.total_seconds()},
    },
}

# --- Live event streams (live) ----------------------------------------------------------------
#: Events kept per channel for clients that reconnect (Redis: the stream's cap).
LIVE_EVENTS_KEEP = _env_int("LIVE_EVENTS_KEEP", 1000)
#: How long events are kept after the last one of their channel (older: a ``reset`` event).
LIVE_EVENTS_KEEP_SECONDS = _env_int("LIVE_EVENTS_KEEP_SECONDS", 3600)
#: A comment line on idle streams this often, so that proxies keep them open.
LIVE_HEARTBEAT_SECONDS = float(os.environ.get("LIVE_HEARTBEAT_SECONDS", "15"))
#: Streams one user (or address) may hold at once, per web process (429 beyond).
LIVE_MAX_STREAMS = _env_int("LIVE_MAX_STREAMS", 8)
#: Events waiting for a slow client before it is sent ``reset`` instead.
LIVE_QUEUE_SIZE = _env_int("LIVE_QUEUE_SIZE", 256)
#: How often the streams of the embedded default (no Redis) look for new events.
LIVE_POLL_SECONDS = float(os.environ.get("LIVE_POLL_SECONDS", "0.05"))
#: The streams of one web process (503 ``server_busy`` beyond).
LIVE_MAX_STREAMS_PER_PROCESS = _env_int("LIVE_MAX_STREAMS_PER_PROCESS", 10000)
#: How often a web process refreshes the presence rows of its streams; rows not refreshed for
#: three periods (a process that died) are swept.
LIVE_PRESENCE_SECONDS = float(os.environ.get("LIVE_PRESENCE_SECONDS", "20"))
#: How often the streams send a game's spectator count when its spectators changed.
LIVE_SPECTATORS_SECONDS = float(os.environ.get("LIVE_SPECTATORS_SECONDS", "1"))
CELERY_BEAT_SCHEDULE["explorer-sweep"] = {"task": "explorer.sweep", **_SWEEP}
CELERY_BEAT_SCHEDULE["live-events-trim"] = {"task": "live.events_trim", **_SWEEP}
CELERY_BEAT_SCHEDULE["live-outbox-deliver"] = {"task": "live.outbox_deliver", **_SWEEP}
CELERY_BEAT_SCHEDULE["live-presence-sweep"] = {"task": "live.presence_sweep", **_SWEEP}

# --- Idempotency keys and guests (games.idempotency, accounts.guests) -------------------
#: How long an ``Idempotency-Key`` keeps its first answer (then the sweeper deletes it).
IDEMPOTENCY_KEY_TTL = timedelta(hours=_env_int("IDEMPOTENCY_KEY_TTL_HOURS", 24))
#: A guest signed in longer ago than this, with no game in progress, is deleted with its games.
GUEST_IDLE = timedelta(hours=_env_int("GUEST_IDLE_HOURS", 24))
# --- King of the Hill (hills) ------------------------------------------------------------
#: A member who plays no hill set for this long leaves the hill (the sweeper ``hills.sweep``).
HILL_IDLE_DAYS_LIVE = _env_int("HILL_IDLE_DAYS_LIVE", 62)
HILL_IDLE_DAYS_TURN = _env_int("HILL_IDLE_DAYS_TURN", 31)
#: Hill sets (and open hill challenges) a turn-based hill member may have going at once.
HILL_MAX_TURN_SETS = _env_int("HILL_MAX_TURN_SETS", 4)
#: How many steps above their own a member may challenge.
HILL_REACH_STEPS = _env_int("HILL_REACH_STEPS", 2)
#: Declining a turn-based hill challenge of at least this many days per move costs a step.
HILL_DECLINE_PENALTY_DAYS = _env_int("HILL_DECLINE_PENALTY_DAYS", 7)
CELERY_BEAT_SCHEDULE["hills-sweep"] = {"task": "hills.sweep", **_SWEEP}

CELERY_BEAT_SCHEDULE["accounts-guests-sweep"] = {"task": "games.accounts.guests_sweep", **_SWEEP}
CELERY_BEAT_SCHEDULE["idempotency-keys-sweep"] = {
    "task": "games.idempotency.keys_sweep",
    "schedule": 3600.0,
    "options": {"expires": 3600.0},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
