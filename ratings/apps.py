from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_delete, post_save

        from accounts.selectors import PLAYER_PAGE_EXTRAS
        from games.challenges.signals import rating_asked
        from games.play.signals import game_finished, set_finished
        from ratings import selectors, services

        set_finished.connect(services.on_set_finished, dispatch_uid="ratings.apply_set")
        game_finished.connect(services.on_game_finished, dispatch_uid="ratings.computer_game")
        post_save.connect(
            services.on_user_saved,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="ratings.user_is_computer",
        )
        post_delete.connect(
            services.on_rating_deleted,
            sender="ratings.Rating",
            dispatch_uid="ratings.rating_deleted",
        )
        rating_asked.connect(selectors.on_rating_asked, dispatch_uid="ratings.rating_asked")
        if selectors.player_page_ratings not in PLAYER_PAGE_EXTRAS:
            PLAYER_PAGE_EXTRAS.append(selectors.player_page_ratings)
