"""The mutation-testing command's configuration holds: ``[tool.mutmut]`` names files that exist
and ``bench/mutation_equivalents.toml`` names real mutants of mutated files, each with its
change and why. The mutation run itself is too slow for the suite (docs/mutation-testing.md)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("bench_mutation", ROOT / "bench" / "mutation.py")
mutation = importlib.util.module_from_spec(_spec)
sys.modules["bench_mutation"] = mutation  # dataclasses look their module up there
_spec.loader.exec_module(mutation)


def test_the_mutmut_config_and_the_equivalents_file_have_no_problem():
    config = mutation.load_config()
    equivalents = mutation.load_equivalents()
    assert mutation.config_problems(config, equivalents) == []


def test_the_three_pure_packages_are_mutated_and_nothing_else():
    files = mutation.mutatable_files(mutation.load_config())
    assert "ratings/elo.py" in files
    assert "tournaments/pairing/dutch/search.py" in files
    assert "games/engine/go.py" in files
    assert all(
        f.startswith(("ratings/elo.py", "tournaments/pairing/", "games/engine/")) for f in files
    )


def test_the_check_sees_a_bad_equivalent_and_a_missing_test_file():
    config = mutation.load_config()
    config = {
        **config,
        "pytest_add_cli_args_test_selection": ["tests/ratings/test_no_such_file.py"],
    }
    bad = {
        "ratings.elo.x_rate__mutmut_1": mutation.Equivalent(
            mutant="ratings.elo.x_rate__mutmut_1",
            file="ratings/models.py",
            change="-a\n+b",
            why="x",
        ),
        "games.engine.go.x_f__mutmut_1": mutation.Equivalent(
            mutant="games.engine.go.x_f__mutmut_1", file="ratings/elo.py", change="-a\n+b", why="x"
        ),
        "ratings.elo.x_k_factor__mutmut_2": mutation.Equivalent(
            mutant="ratings.elo.x_k_factor__mutmut_2", file="ratings/elo.py", change="", why=""
        ),
    }
    config["scopes"] = {**config["scopes"], "engine": {"only_mutate": [], "tests": []}}
    problems = mutation.config_problems(config, bad)
    assert len(problems) == 5
    assert "test_no_such_file.py" in problems[0]
    assert "games/engine/*: in no [tool.mutation.scopes] package" in problems[1]
    assert "not a file mutmut mutates" in problems[2]
    assert "not a mutant name" in problems[3]
    assert "change and why" in problems[4]


def test_a_mutant_is_counted_by_its_exit_code():
    assert mutation.status_of(1) == "killed"
    assert mutation.status_of(0) == "survived"
    assert mutation.status_of(33) == "no tests"
    assert mutation.status_of(36) == "timeout"
    assert mutation.status_of(-24) == "timeout"
    assert mutation.status_of(None) == "not run"


def test_an_equivalents_change_is_the_diffs_changed_lines_stripped():
    diff = (
        "--- ratings/elo.py\n+++ ratings/elo.py\n@@ -1,3 +1,3 @@\n def f(x):\n"
        "-    return x < 1\n+    return x <= 1\n"
    )
    assert mutation.changed_lines(diff) == "-return x < 1\n+return x <= 1"


def test_a_scope_names_a_package_or_a_module_prefix():
    config = mutation.load_config()
    assert mutation.scope_prefixes([], config) == {
        "elo": ["ratings.elo"],
        "pairing": ["tournaments.pairing"],
        "engine": ["games.engine"],
    }
    assert mutation.scope_prefixes(["elo", "games.engine.go", "games.engine.sgf"], config) == {
        "elo": ["ratings.elo"],
        "engine": ["games.engine.go", "games.engine.sgf"],
    }
    with pytest.raises(SystemExit, match="not a package"):
        mutation.scope_prefixes(["games.play"], config)
    assert mutation.in_scope("games.engine.go", ["games.engine"])
    assert not mutation.in_scope("games.engineering", ["games.engine"])
    assert mutation.module_of_file("games/engine/records/__init__.py") == "games.engine.records"


def test_a_run_hands_mutmut_only_the_mutants_without_a_result(tmp_path):
    config = mutation.load_config()
    assert mutation.names_to_run(tmp_path, "elo", ["ratings.elo"], config) == []  # mutmut picks
    # A module run: mutmut would test again every mutant named, so only those not run are named.
    meta = tmp_path / "mutants" / "ratings" / "elo.py.meta"
    meta.parent.mkdir(parents=True)
    meta.write_text(
        '{"exit_code_by_key": {"ratings.elo.x_a__mutmut_1": 1, "ratings.elo.x_a__mutmut_2": null}}'
    )
    mutated = tmp_path / "mutants" / "ratings" / "elo.py"
    mutated.write_text("")
    source_time = (mutation.ROOT / "ratings" / "elo.py").stat().st_mtime
    # pretend the package is ratings/, so that ratings.elo is one module of it
    config["scopes"]["elo"] = {**config["scopes"]["elo"], "only_mutate": ["ratings/*"]}
    os.utime(mutated, (source_time + 1, source_time + 1))
    names = mutation.names_to_run(tmp_path, "elo", ["ratings.elo"], config)
    assert names == ["ratings.elo.x_a__mutmut_2"]
    # The source changed since its mutants were made: the whole module, mutmut renumbers it.
    os.utime(mutated, (source_time - 1, source_time - 1))
    assert mutation.names_to_run(tmp_path, "elo", ["ratings.elo"], config) == ["ratings.elo.*"]


def test_a_package_prefix_run_names_no_wildcard_for_a_file_without_mutants(tmp_path):
    # ``tournaments.pairing.dutch.*`` (for its empty ``__init__.py``) would make mutmut test
    # again every mutant of the package, those with a result included.
    config = mutation.load_config()
    files = [
        f for f in mutation.mutatable_files(config) if f.startswith("tournaments/pairing/dutch/")
    ]
    for rel in files:
        meta = tmp_path / "mutants" / (rel + ".meta")
        meta.parent.mkdir(parents=True, exist_ok=True)
        module = mutation.module_of_file(rel)
        codes = {} if rel.endswith("__init__.py") else {f"{module}.x_f__mutmut_1": None}
        meta.write_text(json.dumps({"exit_code_by_key": codes}))
        mutated = tmp_path / "mutants" / rel
        mutated.write_text("")
        newer = (mutation.ROOT / rel).stat().st_mtime + 1
        os.utime(mutated, (newer, newer))
    names = mutation.names_to_run(tmp_path, "pairing", ["tournaments.pairing.dutch"], config)
    assert names and not [name for name in names if name.endswith("*")]
    assert "tournaments.pairing.dutch.bounds.x_f__mutmut_1" in names


def test_a_stale_equivalent_takes_the_new_number_of_its_change_in_its_function():
    f = "m.x_f__mutmut_"
    stale = {f + "3": "-a < b\n+a <= b", f + "7": "-x\n+None", f + "9": "-gone\n+away"}
    free = {
        f + "2": "-a < b\n+a <= b",  # renumbered down
        f + "8": "-x\n+None",
        f + "12": "-x\n+None",  # the same change twice: the first number first
        "m.x_g__mutmut_1": "-gone\n+away",  # another function's: not this entry's
    }
    assert mutation.renumbered(stale, free) == {f + "3": f + "2", f + "7": f + "8"}


def test_renaming_equivalents_swaps_two_names_without_mixing_them():
    text = 'mutant = "m.x_f__mutmut_1"\nwhy = "a"\nmutant = "m.x_f__mutmut_2"\nwhy = "b"\n'
    mapping = {"m.x_f__mutmut_1": "m.x_f__mutmut_2", "m.x_f__mutmut_2": "m.x_f__mutmut_1"}
    assert mutation.rename_equivalents(text, mapping) == (
        'mutant = "m.x_f__mutmut_2"\nwhy = "a"\nmutant = "m.x_f__mutmut_1"\nwhy = "b"\n'
    )
