"""Running the project's migrations to a chosen state inside a test (data migrations' tests).

Going back to an old state and forward again costs seconds of Django's state rendering, so a
data migration's test does not migrate back to the latest state itself: ``leave_behind()``
notes that the schema is old, and ``tests/conftest.py`` migrates to the latest state before the
next test that uses the database and is not a migration test. Migration tests run one after
another (as xdist hands out a module's tests together) then go from one old state to the next.
"""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_to(targets):
    """Migrate the test database to ``targets`` ([(app, migration)]); the apps of that state."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def migrate_to_latest() -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


#: Whether a migration test left the test database at an old state (see the module's docstring).
behind = False


def leave_behind() -> None:
    global behind
    behind = True


def catch_up() -> None:
    """Migrate to the latest state if a migration test left the schema behind."""
    global behind
    if behind:
        migrate_to_latest()
        behind = False
