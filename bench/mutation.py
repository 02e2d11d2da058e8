"""Mutation testing of the pure packages: the rules engine, the pairing and the Elo rules.

Usage: ``.venv/bin/python bench/mutation.py [SCOPE ...] [--jobs N] [--report] [--survivors]``

SCOPE is ``elo``, ``pairing``, ``engine`` (the default is all three) or a dotted module prefix
such as ``games.engine.go`` or ``tournaments.pairing.dutch.bounds``. The command runs mutmut
(configured in ``pyproject.toml``: ``[tool.mutmut]``, and per package ``[tool.mutation.scopes]``)
on the mutants of that scope, ``--jobs`` at a time (default 2). Each package runs in a folder of
its own, ``var/mutation/<package>/``, with only its own pure tests, and each mutant runs only
the tests that reached the function it changes.
It then prints, per module, how many mutants were killed, survived, timed out or were reached
by no test, and lists every survivor with its change, unless ``bench/mutation_equivalents.toml``
lists it as equivalent (a change that cannot alter behaviour) and its recorded change still
matches. ``--report`` only prints the last results; ``--survivors`` runs again only the
mutants of the scope that survived or timed out last time (after adding a test that should kill
them; a timeout on a busy machine may be a starved test rather than a loop). ``--renumber``
first gives each stale equivalent (mutmut numbers a function's mutants anew when the function
changes) the new name of the surviving mutant of its function with the very same change, in
the equivalents file.

Target: no survivor. The exit status is 0 when every mutant of the scope was killed, timed out
or is a listed equivalent, 1 otherwise. It is not part of the pytest suite (the engine alone
has thousands of mutants); run it under ``nice`` on a shared machine.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import resource
import subprocess
import sys
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from mutmut.mutation.diff_apply import get_diff_for_mutant

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENTS = ROOT / "bench" / "mutation_equivalents.toml"
WORK = ROOT / "var" / "mutation"

#: mutmut's exit codes of a mutant run, as this report counts them.
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 37: "killed"}
TIMEOUT_CODES = {24, -24, 36, 152, 255}
#: The address space of mutmut and of every mutant it forks: a mutant that grows a list for
#: ever (an undo loop that never shrinks its stack) fails with a MemoryError, a kill, instead
#: of filling the machine until the kernel kills it (which mutmut reports as a crash).
MEMORY_CAP_BYTES = 8 * 2**30
COLUMNS = ("killed", "timeout", "equivalent", "survived", "no tests", "not run")


@dataclass(frozen=True, slots=True)
class Equivalent:
    mutant: str
    file: str
    change: str
    why: str


def load_pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def load_config() -> dict:
    """The ``[tool.mutmut]`` table of pyproject.toml, with the packages of
    ``[tool.mutation.scopes]`` under ``scopes``."""
    tool = load_pyproject()["tool"]
    return {**tool["mutmut"], "scopes": tool["mutation"]["scopes"]}


def scope_prefix(scope: dict) -> str:
    """The module prefix of a package's mutants: ``tournaments/pairing/*`` -> ``tournaments.pairing``."""
    (pattern,) = scope["only_mutate"]
    return module_of_file(pattern.removesuffix("/*"))


def load_equivalents(path: Path = EQUIVALENTS) -> dict[str, Equivalent]:
    """The mutants written down as equivalent, by name."""
    data = tomllib.loads(path.read_text())
    entries = [Equivalent(**entry) for entry in data.get("equivalent", [])]
    return {entry.mutant: entry for entry in entries}


def config_problems(config: dict, equivalents: dict[str, Equivalent]) -> list[str]:
    """What is wrong with the configuration or the equivalents file (empty when nothing)."""
    problems = []
    tests = [t for scope in config["scopes"].values() for t in scope["tests"]]
    for scope in config["scopes"].values():
        for test in scope.get("deselect", []):
            path, _, function = test.partition("::")
            if not (ROOT / path).exists() or f"def {function}(" not in (ROOT / path).read_text():
                problems.append(f"{test}: deselected but not a test")
    for path in [*config["source_paths"], *config["pytest_add_cli_args_test_selection"], *tests]:
        if not (ROOT / path).exists():
            problems.append(f"{path}: named in [tool.mutmut] but missing")
    files = mutatable_files(config)
    scoped = [p for scope in config["scopes"].values() for p in scope["only_mutate"]]
    for pattern in config["only_mutate"]:
        if not any(fnmatch.fnmatch(f, pattern) for f in files):
            problems.append(f"{pattern}: only_mutate matches no file")
        if pattern not in scoped:
            problems.append(f"{pattern}: in no [tool.mutation.scopes] package")
    for name, entry in equivalents.items():
        if entry.file not in files:
            problems.append(f"{name}: {entry.file} is not a file mutmut mutates")
        elif not name.startswith(module_of_file(entry.file) + ".") or "__mutmut_" not in name:
            problems.append(f"{name}: not a mutant name of {entry.file}")
        if not entry.change.strip() or not entry.why.strip():
            problems.append(f"{name}: an equivalent needs its change and why")
    return problems


def module_of_file(path: str) -> str:
    """``games/engine/go.py`` -> ``games.engine.go`` (mutmut's prefix of the mutant names)."""
    dotted = path.removesuffix(".py").replace("/", ".")
    return dotted.removesuffix(".__init__")


def mutatable_files(config: dict) -> list[str]:
    """The source files of ``only_mutate``, relative to the repository."""
    files = []
    for pattern in config["only_mutate"]:
        for path in sorted(
            ROOT.glob(pattern.replace("/*", "/**/*.py") if pattern.endswith("/*") else pattern)
        ):
            rel = path.relative_to(ROOT).as_posix()
            if rel.endswith(".py") and rel not in files:
                files.append(rel)
    return files


def scope_prefixes(scopes: list[str], config: dict) -> dict[str, list[str]]:
    """The module prefixes asked for, by the package (scope name) they belong to."""
    by_name = {name: scope_prefix(scope) for name, scope in config["scopes"].items()}
    wanted: dict[str, list[str]] = {}
    for asked in scopes or list(by_name):
        prefix = by_name.get(asked, asked)
        owners = [name for name, p in by_name.items() if in_scope(prefix, [p])]
        if not owners:
            raise SystemExit(f"{asked}: not a package ({', '.join(by_name)}) nor a module in one")
        wanted.setdefault(owners[0], []).append(prefix)
    return wanted


def in_scope(module: str, prefixes: list[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def toml_value(value: object) -> str:
    """Strings, numbers, booleans and lists of them (JSON spells these as TOML does)."""
    return json.dumps(value)


def prepare(name: str, config: dict) -> Path:
    """The package's own folder: the sources and tests linked, a pyproject.toml naming only
    this package's files and tests (mutmut reads its configuration from the working folder)."""
    work = WORK / name
    work.mkdir(parents=True, exist_ok=True)
    for entry in [*config["source_paths"], *config["also_copy"], "tests"]:
        link = work / entry
        if not link.is_symlink():
            link.symlink_to(ROOT / entry)
    pyproject = load_pyproject()
    pytest_options = pyproject["tool"]["pytest"]["ini_options"]
    mutmut = {k: v for k, v in pyproject["tool"]["mutmut"].items()}
    mutmut["only_mutate"] = config["scopes"][name]["only_mutate"]
    mutmut["pytest_add_cli_args_test_selection"] = config["scopes"][name]["tests"]
    for test in config["scopes"][name].get("deselect", []):
        mutmut["pytest_add_cli_args"] = [*mutmut["pytest_add_cli_args"], "--deselect", test]
    lines = ["# Written by bench/mutation.py from the repository's pyproject.toml.", ""]
    for table, values in (("tool.pytest.ini_options", pytest_options), ("tool.mutmut", mutmut)):
        lines.append(f"[{table}]")
        lines += [f"{key} = {toml_value(value)}" for key, value in values.items()]
        lines.append("")
    text = "\n".join(lines)
    target = work / "pyproject.toml"
    if not target.exists() or target.read_text() != text:
        target.write_text(text)
    return work


def load_results(work: Path, files: list[str]) -> dict[str, dict[str, int | None]]:
    """Each file's mutants and the exit code of their last run (None: not run)."""
    results = {}
    for rel in files:
        meta = work / "mutants" / (rel + ".meta")
        results[rel] = json.loads(meta.read_text())["exit_code_by_key"] if meta.exists() else {}
    return results


def status_of(code: int | None) -> str:
    if code is None:
        return "not run"
    if code in TIMEOUT_CODES:
        return "timeout"
    return STATUS.get(code, "survived")


def mutant_diff(work: Path, name: str, rel: str) -> str:
    """The mutant's change as a unified diff of its function (read from the package's mutants/)."""
    here = Path.cwd()
    os.chdir(work)  # mutmut reads mutants/ from the working folder
    try:
        return get_diff_for_mutant(name, path=rel)
    finally:
        os.chdir(here)


def changed_lines(diff: str) -> str:
    """The ``-``/``+`` lines of a diff, stripped: what an equivalent's ``change`` records."""
    lines = [
        line[0] + line[1:].strip()
        for line in diff.splitlines()
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    return "\n".join(lines)


def run_mutmut(work: Path, names: list[str], jobs: int) -> int:
    # mutmut's own script, not ``python -m mutmut``: the latter imports its main module twice.
    command = [
        str(Path(sys.executable).parent / "mutmut"),
        "run",
        "--max-children",
        str(jobs),
        *names,
    ]
    return subprocess.call(command, cwd=work, preexec_fn=_cap_memory)


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP_BYTES, MEMORY_CAP_BYTES))


def scoped_results(work: Path, prefixes: list[str], config: dict) -> dict[str, dict]:
    files = [f for f in mutatable_files(config) if in_scope(module_of_file(f), prefixes)]
    return load_results(work, files)


def names_to_run(work: Path, name: str, prefixes: list[str], config: dict) -> list[str] | None:
    """The mutant names to hand mutmut so that it tests only what has no result yet: ``[]``
    for the whole package (mutmut alone then skips the mutants it has a result for and tests
    again the functions whose source changed), and for some modules the wildcard of each module
    whose source changed since its mutants were made, or else its mutants not run yet; None
    when there is nothing to run. (mutmut tests again every mutant it is given by name.)"""
    if prefixes == [scope_prefix(config["scopes"][name])]:
        return []
    names: list[str] = []
    for rel, codes in scoped_results(work, prefixes, config).items():
        mutated = work / "mutants" / rel
        if not codes and (work / "mutants" / (rel + ".meta")).exists():
            continue  # a file without mutants (an ``__init__.py``): its wildcard would name all
        if (
            not codes
            or not mutated.exists()
            or (ROOT / rel).stat().st_mtime > mutated.stat().st_mtime
        ):
            names.append(module_of_file(rel) + ".*")
        else:
            names += [mutant for mutant, code in codes.items() if code is None]
    return names or None


def report(wanted: dict[str, list[str]], config: dict, equivalents: dict[str, Equivalent]) -> int:
    """Print the per-module table and every survivor; the number of survivors left."""
    results: dict[str, dict] = {}
    work_of: dict[str, Path] = {}
    for name, prefixes in wanted.items():
        for rel, codes in scoped_results(WORK / name, prefixes, config).items():
            results[rel], work_of[rel] = codes, WORK / name
    totals: Counter[str] = Counter()
    survivors: list[tuple[str, str, str]] = []
    stale: list[str] = []
    print(f"{'module':<42}" + "".join(f"{c:>11}" for c in ("mutants", *COLUMNS)))
    for rel, codes in results.items():
        counts: Counter[str] = Counter()
        for name, code in sorted(codes.items()):
            status = status_of(code)
            if status in ("survived", "no tests") and name in equivalents:
                diff = mutant_diff(work_of[rel], name, rel)
                if changed_lines(diff) == equivalents[name].change.strip():
                    status = "equivalent"
                else:
                    stale.append(name)
            counts[status] += 1
            if status in ("survived", "no tests"):
                survivors.append((name, rel, status))
        totals.update(counts)
        print(
            f"{module_of_file(rel):<42}{len(codes):>11}"
            + "".join(f"{counts[c]:>11}" for c in COLUMNS)
        )
    print(f"{'total':<42}{sum(totals.values()):>11}" + "".join(f"{totals[c]:>11}" for c in COLUMNS))
    for name in stale:
        print(f"\nstale equivalent (its change no longer matches): {name}")
    for name, rel, status in survivors:
        print(f"\n{status}: {name}\n{mutant_diff(work_of[rel], name, rel)}")
    if not survivors and not totals["not run"]:
        print("\nno survivor: every mutant killed, timed out or a listed equivalent")
    return len(survivors) + totals["not run"]


def _function_and_number(name: str) -> tuple[str, int]:
    function, _, number = name.rpartition("__mutmut_")
    return function, int(number)


def renumbered(stale: dict[str, str], free: dict[str, str]) -> dict[str, str]:
    """Old name -> new name for the stale equivalents (name -> recorded change) found among
    the unlisted survivors (name -> change) of the same function with the same change; where
    several match, in the order of their numbers."""
    mapping: dict[str, str] = {}
    taken: set[str] = set()
    candidates = sorted(free, key=_function_and_number)
    for old in sorted(stale, key=_function_and_number):
        function = _function_and_number(old)[0]
        for new in candidates:
            if new in taken or _function_and_number(new)[0] != function:
                continue
            if free[new] == stale[old]:
                mapping[old] = new
                taken.add(new)
                break
    return mapping


def rename_equivalents(text: str, mapping: dict[str, str]) -> str:
    """The equivalents file's text with each ``mutant = "old"`` renamed (swaps included)."""
    for old in mapping:
        text = text.replace(f'mutant = "{old}"', f'mutant = "\0{old}"')
    for old, new in mapping.items():
        text = text.replace(f'mutant = "\0{old}"', f'mutant = "{new}"')
    return text


def renumber(wanted: dict[str, list[str]], config: dict, equivalents: dict[str, Equivalent]):
    """Rename in the equivalents file the stale entries of these scopes (see ``renumbered``):
    those whose mutant is no survivor with their change any more."""
    free: dict[str, str] = {}
    matched: set[str] = set()
    for name, prefixes in wanted.items():
        work = WORK / name
        for rel, codes in scoped_results(work, prefixes, config).items():
            for mutant, code in codes.items():
                if status_of(code) not in ("survived", "no tests"):
                    continue
                change = changed_lines(mutant_diff(work, mutant, rel))
                listed = equivalents.get(mutant)
                if listed is not None and listed.change.strip() == change:
                    matched.add(mutant)
                else:
                    free[mutant] = change
    stale = {
        mutant: entry.change.strip()
        for mutant, entry in equivalents.items()
        if mutant not in matched
        and any(in_scope(module_of_file(entry.file), p) for p in wanted.values())
    }
    mapping = renumbered(stale, free)
    EQUIVALENTS.write_text(rename_equivalents(EQUIVALENTS.read_text(), mapping))
    for old, new in sorted(mapping.items()):
        print(f"renumbered: {old} -> {new}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scopes", nargs="*", help="elo, pairing, engine or a module prefix")
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--report", action="store_true", help="print the last results only")
    parser.add_argument(
        "--survivors", action="store_true", help="run last time's survivors and timeouts only"
    )
    parser.add_argument(
        "--renumber",
        action="store_true",
        help="rename stale equivalents to the survivor of their function with their change",
    )
    parser.add_argument(
        "--again",
        action="store_true",
        help="test every mutant of the scope again, not only new ones",
    )
    args = parser.parse_args()
    config = load_config()
    equivalents = load_equivalents()
    problems = config_problems(config, equivalents)
    if problems:
        print("\n".join(problems))
        return 2
    wanted = scope_prefixes(args.scopes, config)
    if not args.report:
        for name, prefixes in wanted.items():
            work = prepare(name, config)
            names = [prefix + ".*" for prefix in prefixes]
            if not args.again and not args.survivors:
                names = names_to_run(work, name, prefixes, config)
            if args.survivors:
                names = [
                    mutant
                    for codes in scoped_results(work, prefixes, config).values()
                    for mutant, code in codes.items()
                    if status_of(code) in ("survived", "no tests", "timeout")
                    and mutant not in equivalents
                ] or None
            if names is not None:
                shown = " ".join(names) if len(names) < 8 else f"({len(names)} mutants)"
                print(f"== {name}: mutmut run {shown or '(what has no result yet)'}")
                run_mutmut(work, names, args.jobs)
    if args.renumber:
        renumber(wanted, config, equivalents)
        equivalents = load_equivalents()
    return 1 if report(wanted, config, equivalents) else 0


if __name__ == "__main__":
    sys.exit(main())
