"""URLs of the explorer, mounted under ``/api/``."""

from django.urls import re_path

from explorer import views

urlpatterns = [
    re_path(r"^games/explorer/?$", views.ExplorerView.as_view(), name="game-explorer"),
]
