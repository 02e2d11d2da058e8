"""API clients for the tests that call the API in process."""

from __future__ import annotations

from rest_framework.test import APIClient


def client_for(user=None) -> APIClient:
    """An API client, signed in as ``user`` when one is given."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client
