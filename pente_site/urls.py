from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from pente_site import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path(
        "api/schema/",
        SpectacularAPIView.as_view(content_negotiation_class=api.SchemaFormatNegotiation),
        name="schema",
    ),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/", api.ApiRootView.as_view(), name="api-root"),
    # ratings' patterns are specific (leaderboards/, players/<name>/ratings|stats/) and come
    # first so the hot leaderboard routes resolve quickly; none of them overlaps games'.
    path("api/", include("live.urls")),  # the event streams (asynchronous views)
    path("api/", include("ratings.urls")),
    path("api/", include("explorer.urls")),  # games/explorer: not a game id
    path("api/", include("games.urls")),
    path("api/", include("tournaments.urls")),
    path("api/", include("learn.urls")),
    path("api/", include("hills.urls")),
    # Anything else under /api/ is a JSON 404, with DEBUG on or off.
    re_path(r"^api/", api.api_fallback),
    # The site's pages (server-rendered; their scripts call the API above).
    path("", include("web.urls")),
]

# JSON error bodies for requests under /api/ that no view handles (unknown URLs, server errors).
handler400 = "pente_site.api.handler400"
handler403 = "pente_site.api.handler403"
handler404 = "pente_site.api.handler404"
handler500 = "pente_site.api.handler500"
