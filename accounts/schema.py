"""drf-spectacular description of :class:`accounts.authentication.ApiTokenAuthentication`.

Imported from ``GamesConfig.ready()`` so the extension is registered before any schema is built.
The same key works as ``Authorization: Token <key>`` or ``Authorization: Bearer <key>``; the
schema offers both as alternatives.
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object


class ApiTokenAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.ApiTokenAuthentication"
    name = ["tokenAuth", "bearerAuth"]
    match_subclasses = True

    def get_security_requirement(self, auto_schema):
        # Either header form is enough on its own (OR), so one requirement dict per scheme.
        return [{"tokenAuth": []}, {"bearerAuth": []}]

    def get_security_definition(self, auto_schema):
        return [
            build_bearer_security_scheme_object(header_name="Authorization", token_prefix="Token"),
            build_bearer_security_scheme_object(header_name="Authorization", token_prefix="Bearer"),
        ]
