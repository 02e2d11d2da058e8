"""The Celery application. Tasks live in each app's ``tasks.py``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pente_site.settings")

app = Celery("pente_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Task modules of packages inside the apps.
app.autodiscover_tasks(
    [
        "games.accounts",
        "games.bots",
        "games.challenges",
        "games.clocks",
        "games.idempotency",
        "games.notifications",
        "games.play",
        "games.records",
    ]
)
