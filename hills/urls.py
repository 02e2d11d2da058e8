"""Hills routes, relative to ``/api/``. Trailing slashes are optional."""

from django.urls import re_path

from hills import views

HILL = r"^hills/(?P<slug>[a-z0-9-]{1,40})"

urlpatterns = [
    re_path(r"^hills/?$", views.HillListView.as_view(), name="hill-list"),
    re_path(HILL + r"/?$", views.HillDetailView.as_view(), name="hill-detail"),
    re_path(HILL + r"/join/?$", views.HillJoinView.as_view(), name="hill-join"),
    re_path(HILL + r"/leave/?$", views.HillLeaveView.as_view(), name="hill-leave"),
    re_path(HILL + r"/challenges/?$", views.HillChallengeView.as_view(), name="hill-challenge"),
    re_path(HILL + r"/history/?$", views.HillHistoryView.as_view(), name="hill-history"),
]
