"""Clients for the tests that call the API or the site's pages in process."""

from __future__ import annotations

from django.test import Client
from rest_framework.test import APIClient


def client_for(user=None) -> APIClient:
    """An API client, signed in as ``user`` when one is given."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def page_client_for(user=None) -> Client:
    """A client of the site's pages, signed in (a session) as ``user`` when one is given."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client
