"""``GET /api/`` describes the API, and the project's ordering filter refuses unknown fields."""

from __future__ import annotations

import pytest
from django.conf import settings
from rest_framework.generics import ListAPIView
from rest_framework.test import APIClient, APIRequestFactory

from accounts.models import User
from pente_site.errors import DomainError
from pente_site.lists import StrictOrderingFilter
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

COLLECTIONS = ("games", "challenges", "players", "bots", "leaderboards", "tournaments", "me")


def test_the_api_root_names_the_api_and_links_its_main_collections():
    response = APIClient().get("/api/")
    assert response.status_code == 200
    body = response.json()
    assert body["name"] == settings.SPECTACULAR_SETTINGS["TITLE"]
    assert body["version"] == settings.SPECTACULAR_SETTINGS["VERSION"]
    assert set(body["links"]) == {"docs", "schema", *COLLECTIONS}
    assert body["links"]["docs"] == "http://testserver/api/docs/"
    assert body["links"]["schema"] == "http://testserver/api/schema/"
    assert body["links"]["games"] == "http://testserver/api/games/"


@pytest.mark.parametrize("key", ["docs", "schema", *COLLECTIONS])
def test_every_link_of_the_api_root_leads_somewhere(key):
    client = APIClient()
    client.force_authenticate(UserFactory())
    url = client.get("/api/").json()["links"][key]
    response = client.get(url.removeprefix("http://testserver"))
    assert response.status_code == 200, (url, response.content[:200])


def test_the_api_root_is_in_the_schema():
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    assert "/api/" in response.json()["paths"]


def test_the_strict_ordering_filter_is_the_projects_default():
    backends = settings.REST_FRAMEWORK["DEFAULT_FILTER_BACKENDS"]
    assert "pente_site.lists.StrictOrderingFilter" in backends
    assert "rest_framework.filters.OrderingFilter" not in backends


class _NoOrderingFieldsView(ListAPIView):
    queryset = User.objects.all()


class _AllFieldsView(ListAPIView):
    queryset = User.objects.all()
    ordering_fields = "__all__"


def _order(view_class, ordering: str):
    request = ListAPIView().initialize_request(APIRequestFactory().get("/", {"ordering": ordering}))
    view = view_class()
    return StrictOrderingFilter().filter_queryset(request, view.queryset, view)


def test_a_list_that_declares_no_ordering_fields_cannot_be_ordered():
    with pytest.raises(DomainError) as refused:
        _order(_NoOrderingFieldsView, "username")
    assert refused.value.code == "invalid" and refused.value.kind.http_status == 400
    assert refused.value.extra["allowed"] == []
    assert "cannot be ordered" in refused.value.detail


def test_all_model_fields_may_order_a_list_that_allows_them_all():
    UserFactory(username="b"), UserFactory(username="a")
    ordered = _order(_AllFieldsView, "-username,id")
    assert [u.username for u in ordered] == ["b", "a"]
    with pytest.raises(DomainError):
        _order(_AllFieldsView, "password_hint")
