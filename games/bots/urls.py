"""Computer opponent routes, relative to ``/api/``. Trailing slashes are optional."""

from django.urls import re_path

from games.bots import views

urlpatterns = [
    re_path(r"^bots/?$", views.BotListView.as_view(), name="bot-list"),
]
