"""Progress of a visitor without an account: kept in their session (lost when it ends, never
moved to an account), so the Learn pages show what they have done in this browser."""

from __future__ import annotations

from learn import selectors

_KEY = "learn_done"


def done_in_session(session, slug: str) -> frozenset[int]:
    return frozenset(session.get(_KEY, {}).get(slug, ()))


def keep_in_session(session, slug: str, done: frozenset[int]) -> None:
    kept = dict(session.get(_KEY, {}))
    kept[slug] = sorted(done)
    session[_KEY] = kept


def progress(request) -> dict[str, set[int]]:
    """The steps done by lesson: the account's, or this session's for a visitor."""
    user = request.user
    if user.is_authenticated:
        return selectors.steps_done(user=user)
    return {slug: set(steps) for slug, steps in request.session.get(_KEY, {}).items()}
