"""The API docs page loads everything from this server (no CDN), so it works offline."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_docs_page_loads_its_scripts_and_styles_from_this_server():
    page = Client().get("/api/docs/").content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assets = [s for s in sources if s.endswith((".js", ".css", ".png"))]
    assert assets, page[:500]
    assert all(s.startswith("/static/") for s in assets), assets
    assert "cdn" not in page.lower()


def test_the_docs_pages_assets_are_served_by_the_app_itself():
    page = Client().get("/api/docs/").content.decode()
    bundle = re.search(r'src="(/static/[^"]*swagger-ui-bundle\.js)"', page).group(1)
    response = Client().get(bundle)
    assert response.status_code == 200
    assert "javascript" in response["Content-Type"]
