"""The forms of the site's pages. They only check shapes; the services judge the values and
their refusals (domain errors) are shown on the form."""

from __future__ import annotations

import zoneinfo

from django import forms

from accounts.models import User

WEEKDAYS = [(0, "Mon"), (1, "Tue"), (2, "Wed"), (3, "Thu"), (4, "Fri"), (5, "Sat"), (6, "Sun")]


def _zones() -> list[tuple[str, str]]:
    return [(z, z) for z in sorted(zoneinfo.available_timezones()) if "/" in z or z == "UTC"]


def _username_field(*, help_text: str = "", maxlength: int = 150) -> forms.CharField:
    """A username box; ``maxlength``: what the box takes (the service says the rule itself,
    so a longer name typed in a page without the limit is refused in its words)."""
    attrs = {"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false"}
    field = forms.CharField(max_length=150, help_text=help_text, widget=forms.TextInput(attrs))
    field.widget.attrs["maxlength"] = str(maxlength)
    return field


def _password_field(autocomplete: str, **kwargs) -> forms.CharField:
    """A password box; ``autocomplete`` tells the browser's password manager what it holds
    (``new-password``: offer to make one up and save it; ``current-password``: fill it in)."""
    return forms.CharField(
        widget=forms.PasswordInput(attrs={"autocomplete": autocomplete}),
        max_length=128,
        strip=False,
        **kwargs,
    )


class NewPasswordForm(forms.Form):
    """A new password typed twice."""

    password = _password_field("new-password")
    password2 = _password_field("new-password", label="Password again")

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password") != data.get("password2"):
            self.add_error("password2", "The two passwords differ.")
        return data


class SignUpForm(NewPasswordForm):
    username = _username_field(
        help_text="At most 20 letters and digits, and . @ + - _", maxlength=20
    )
    email = forms.EmailField(
        required=False,
        label="E-mail (optional: to choose a new password if you forget yours)",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    field_order = ["username", "email", "password", "password2"]


class PasswordResetForm(forms.Form):
    email = forms.EmailField(
        label="E-mail", widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )


class SignInForm(forms.Form):
    username = _username_field()
    password = _password_field("current-password")


class ProfileForm(forms.Form):
    email = forms.EmailField(required=False)
    time_zone = forms.ChoiceField(choices=_zones)
    weekend_days = forms.TypedMultipleChoiceField(
        choices=WEEKDAYS, coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )


def _email_choice(field: str) -> forms.BooleanField:
    """A box for one of the account's e-mail choices, labelled as the API describes it."""
    label = str(User._meta.get_field(field).help_text).rstrip(".")
    return forms.BooleanField(required=False, label=label)


class NotificationsForm(forms.Form):
    """The e-mails wanted (``User.email_on_*``)."""

    email_on_turn = _email_choice("email_on_turn")
    email_on_challenge = _email_choice("email_on_challenge")
    email_on_game_over = _email_choice("email_on_game_over")


class PasswordForm(NewPasswordForm):
    """The settings' change of password: the current one, then the new one twice."""

    current_password = _password_field("current-password")
    field_order = ["current_password", "password", "password2"]


class DeleteAccountForm(forms.Form):
    """Deleting one's account: the password, and a box ticked to say one means it."""

    current_password = _password_field("current-password", label="Password")
    confirm = forms.BooleanField(label="I understand that this cannot be undone")


class VacationForm(forms.Form):
    hours = forms.IntegerField(min_value=1, max_value=24 * 60)


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=64,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": "Token name", "aria-label": "Token name"}),
    )
