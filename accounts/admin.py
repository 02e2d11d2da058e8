from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.models import ApiToken, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        (
            "Pente",
            {
                "fields": (
                    "time_zone",
                    "weekend_days",
                    "is_computer",
                    "vacation_hours_left",
                    "vacation_year",
                )
            },
        ),
    )
    list_display = (
        "username",
        "email",
        "is_active",
        "deleted_at",
        "is_computer",
        "is_staff",
        "date_joined",
    )
    list_filter = ("is_active", "is_staff", "is_computer", "email_verified")
    readonly_fields = ("deleted_at", "email_verified")
    actions = ["ban", "unban"]

    def has_delete_permission(self, request, obj=None) -> bool:
        """No account is deleted outright: its games are its opponents' too (a set's games and
        rating changes would go with it). Ban it (untick Active, or the Ban action) instead;
        players delete their own accounts from their settings, which keeps the games."""
        return False

    @admin.action(description="Ban: deactivate the chosen accounts")
    def ban(self, request, queryset) -> None:
        for user in queryset.filter(is_active=True):
            user.is_active = False
            user.save(update_fields=["is_active"])  # what follows a ban runs from its signal

    @admin.action(description="Lift the ban of the chosen accounts (not deleted ones)")
    def unban(self, request, queryset) -> None:
        for user in queryset.filter(is_active=False, deleted_at__isnull=True):
            user.is_active = True
            user.save(update_fields=["is_active"])


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "name", "prefix", "created_at", "last_used_at")
    search_fields = ("user__username", "name", "prefix")
    readonly_fields = ("key_hash",)
