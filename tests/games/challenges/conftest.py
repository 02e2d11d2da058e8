"""The players the challenge tests share."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory


@pytest.fixture
def alice():
    return UserFactory(username="alice")


@pytest.fixture
def bob():
    return UserFactory(username="bob")
