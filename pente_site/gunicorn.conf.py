"""gunicorn settings for production: ``gunicorn -c pente_site/gunicorn.conf.py pente_site.wsgi``.

Every value can be set from the environment (names in docs/operations.md, "Settings"). The
limits keep gunicorn's own refusals rare: a request line or header block too large for them is
far beyond anything the API takes, and a request never works for long (longer work is a job).
"""

import multiprocessing
import os

from pente_site.frontserver import json_errors

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("WEB_THREADS", "4"))
worker_class = "gthread"
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("WEB_GRACEFUL_TIMEOUT", "30"))
keepalive = 5
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190
accesslog = os.environ.get("WEB_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "warning").lower()
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

# gunicorn's own refusals (414, 431, 400 before the application sees the request) as JSON.
json_errors()
