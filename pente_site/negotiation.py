"""The API's content negotiation (named in ``REST_FRAMEWORK``).

This module imports no DRF views: DRF imports it while it is still loading its views.
"""

from __future__ import annotations

from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation


class JsonWhateverAccepted(DefaultContentNegotiation):
    """The representation asked for when the view has it (the browsable pages with ``DEBUG``
    on), else JSON rather than a 406: with ``DEBUG`` off a browser, or a client asking for
    ``text/html``, reads the same JSON answer as any other, refusals included."""

    def select_renderer(self, request, renderers, format_suffix=None):
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except NotAcceptable:
            return renderers[0], renderers[0].media_type
