from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The OpenAPI description of the API-token authentication class, and the e-mails sent
        # when a turn starts, a challenge comes or a game ends.
        from accounts import (
            notifications,
            schema,  # noqa: F401
        )

        notifications.connect()
