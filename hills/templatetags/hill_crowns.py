"""The crown beside a king's name: ``{% load hill_crowns %}{% crown username %}``, darker with
each hill the player conquered. The kings are read once per request."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from hills.selectors import crown_shade, kings_by_name

register = template.Library()


def crown_html(conquests: int) -> str:
    """The crown of a king who conquered ``conquests`` hills (escaped HTML)."""
    shade = crown_shade(conquests)
    noun = "hill" if conquests == 1 else "hills"
    return format_html(
        '<span class="crown crown-{}" title="King of the Hill ({} {} conquered)" '
        'aria-label="King of the Hill">\u265b</span>',
        shade,
        conquests,
        noun,
    )


def request_kings(request) -> dict[str, int]:
    """The kings by username, read once for the request (``request`` may be None)."""
    found = getattr(request, "_hill_kings", None)
    if found is None:
        found = kings_by_name()
        if request is not None:
            request._hill_kings = found
    return found


@register.simple_tag(takes_context=True)
def crown(context, username: str) -> str:
    """The crown when ``username`` is king of a hill now, else nothing."""
    conquests = request_kings(context.get("request")).get(str(username))
    return crown_html(conquests) if conquests else ""
