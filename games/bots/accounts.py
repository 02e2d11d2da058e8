"""The server's own computer opponents: one account per level, ``computer1`` .. ``computer8``.

``bots_ensure()`` creates them, or brings existing ones back to what they should be (a computer,
its level, active, no usable password: nobody logs in as a computer); running it again changes
nothing. ``manage.py bots_create`` calls it.
"""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from games.bots.selectors import BOT_LEVELS, bot_username


def bots_ensure() -> list[User]:
    """The eight computer opponents, level 1 to 8, created or updated (idempotent)."""
    bots: list[User] = []
    with transaction.atomic():
        for level in BOT_LEVELS:
            username = bot_username(level=level)
            user = User.objects.select_for_update().filter(username__iexact=username).first()
            if user is None:
                user = User(username=username)
                user.set_unusable_password()
            changed = user.pk is None
            for field, value in (("is_computer", True), ("bot_level", level), ("is_active", True)):
                if getattr(user, field) != value:
                    setattr(user, field, value)
                    changed = True
            if user.has_usable_password():
                user.set_unusable_password()
                changed = True
            if changed:
                user.save()
            bots.append(user)
    return bots
