"""URLs of game clocks, mounted under ``/api/``."""

from django.urls import re_path

from games.clocks import views

urlpatterns = [
    re_path(r"^me/vacation/?$", views.VacationView.as_view(), name="me-vacation"),
]
