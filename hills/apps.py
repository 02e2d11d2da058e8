from django.apps import AppConfig


class HillsConfig(AppConfig):
    name = "hills"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_save

        from games.challenges.signals import challenge_changed
        from games.play.signals import set_finished
        from hills import services

        # Wired after ratings (INSTALLED_APPS order): the hill moves in the same transaction
        # as the set's rating change, after it.
        set_finished.connect(services.on_set_finished, dispatch_uid="hills.apply_set")
        challenge_changed.connect(services.on_challenge_changed, dispatch_uid="hills.challenge")
        post_save.connect(
            services.on_user_saved,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="hills.user_deactivated",
        )
