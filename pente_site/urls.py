from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/", include("games.urls")),
    path("api/", include("ratings.urls")),
    path("api/", include("tournaments.urls")),
]

# JSON error bodies for requests under /api/ that no view handles (unknown URLs, server errors).
handler400 = "pente_site.api.handler400"
handler403 = "pente_site.api.handler403"
handler404 = "pente_site.api.handler404"
handler500 = "pente_site.api.handler500"
