"""The import page: a player imports game records (Pente.org's text or SGF) from a file or
pasted text. The page's script posts the text to ``POST /api/games/import`` (a job, 202) and
follows the job (``GET /api/games/imports/{id}``): its progress, the games imported and each
refused record's reason."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


@login_required
def import_page(request: HttpRequest) -> HttpResponse:
    context = {
        "max_bytes": settings.IMPORT_MAX_BYTES,
        "max_megabytes": round(settings.IMPORT_MAX_BYTES / 1_000_000, 1),
        "max_records": settings.IMPORT_MAX_RECORDS,
    }
    return render(request, "web/import.html", context)
