"""URLs of the lessons, mounted under ``/api/``."""

from django.urls import path

from learn import views

urlpatterns = [
    path("learn/lessons/", views.LessonListView.as_view(), name="lesson-list"),
    path("learn/lessons/<slug:slug>/", views.LessonView.as_view(), name="lesson"),
    path(
        "learn/lessons/<slug:slug>/steps/<int:step>/answer/",
        views.LessonAnswerView.as_view(),
        name="lesson-answer",
    ),
]
