from django.conf import settings
from django.db import migrations, models
from django.db.models import F

from ratings.elo import bucket_of

# The values of this migration's time (frozen, as a migration must be).
ESTABLISHED_RESULTS = 20
RANK_BUCKET_WIDTH = 10


def unlist_deactivated(apps, schema_editor):
    """Take the ratings of deactivated accounts off the boards: ``listed`` false, and out of
    the rank buckets (later kept in sync by ``on_user_saved``)."""
    Rating = apps.get_model("ratings", "Rating")
    RatingBucket = apps.get_model("ratings", "RatingBucket")
    rows = list(Rating.objects.filter(user__is_active=False))
    for row in rows:
        RatingBucket.objects.filter(
            variant=row.variant,
            category=row.category,
            established=row.results >= ESTABLISHED_RESULTS,
            is_computer=row.is_computer,
            bucket=bucket_of(row.rating, RANK_BUCKET_WIDTH),
        ).update(players=F("players") - 1)
    Rating.objects.filter(pk__in=[row.pk for row in rows]).update(listed=False)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0004_computer_ratings"),
        ('games', '0001_initial'),
    ]

    operations = [
        migrations.RemoveIndex(model_name="rating", name="rating_board"),
        migrations.RemoveIndex(model_name="rating", name="rating_board_established"),
        migrations.AddField(
            model_name="rating",
            name="listed",
            field=models.BooleanField(db_default=True, default=True, editable=False),
        ),
        migrations.RunPython(unlist_deactivated, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="rating",
            index=models.Index(
                fields=["variant", "category", "-rating", "id"],
                include=("results", "is_computer", "listed", "last_played_at"),
                name="rating_board",
            ),
        ),
        migrations.AddIndex(
            model_name="rating",
            index=models.Index(
                condition=models.Q(("is_computer", False), ("listed", True), ("results__gte", 20)),
                fields=["variant", "category", "-rating", "id"],
                include=("results", "wins", "losses", "draws", "last_played_at", "username"),
                name="rating_board_established",
            ),
        ),
    ]
