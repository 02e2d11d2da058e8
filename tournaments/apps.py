from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_save

        from games.play import positions
        from games.play.signals import sets_finished
        from tournaments import services, tasks

        sets_finished.connect(tasks.on_sets_finished, dispatch_uid="tournaments.sets_finished")
        post_save.connect(
            services.on_user_saved,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="tournaments.user_saved",
        )
        if services.cancel_forbidden not in positions.CANCEL_FORBIDDEN_CHECKS:
            positions.CANCEL_FORBIDDEN_CHECKS.append(services.cancel_forbidden)
