"""The import graph of himga's modules is a DAG: no cycle of any length, counting imports
made inside functions too (a deferred import hides a cycle, it does not remove it)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _modules() -> dict[str, Path]:
    """Module name → file, for ``src/himga/**.py`` and ``himga_*/*.py``."""
    files = list((ROOT / "src").glob("himga/**/*.py")) + list(ROOT.glob("himga_*/*.py"))
    modules = {}
    for path in files:
        rel = path.relative_to(ROOT / "src") if path.is_relative_to(ROOT / "src") else path.relative_to(ROOT)
        modules[".".join(rel.with_suffix("").parts).removesuffix(".__init__")] = path
    return modules


def import_graph() -> dict[str, set[str]]:
    """Module → the project modules it imports anywhere in its source (top level or inside functions).

    ``from pkg import name`` counts as importing ``pkg.name`` when that is a module, else ``pkg``.
    """
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            graph[module] |= {t for t in targets if t in modules and t != module}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle (``[a, b, ..., a]``) of ``graph``, or ``None`` when it is a DAG."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt)) is not None:
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)) is not None:
            return cycle
    return None


def test_the_import_graph_has_no_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_checker_finds_cycles_of_any_length():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_graph_sees_imports_inside_functions():
    graph = import_graph()
    assert "himga.cache" in graph["himga.validate"]  # imported inside iter_source_samples()


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    reachable, todo = set(), [start]
    while todo:
        for nxt in graph[todo.pop()] - reachable:
            reachable.add(nxt)
            todo.append(nxt)
    return reachable


#: The layers of the tree, bottom first: a module imports only modules of its own layer or below (prefixes;
#: the longest prefix names a module's layer). The builders stand on the shared code and under the catalogue,
#: which every consumer above it reads.
LAYERS = [
    ("himga.errors", "himga.version", "himga.identifiers", "himga.finding"),
    ("himga.registry",),
    ("himga.jsonio", "himga.options"),
    ("himga.sources", "himga.schema"),
    ("himga.scoring",),
    ("himga.entry",),
    ("himga.cache", "himga.endpoint"),
    ("himga.memory",),  # the reference memories: the embedding memory asks an endpoint
    ("himga_",),
    ("himga.catalog",),
    (
        "himga._registration",
        "himga.data",
        "himga.validate",
        "himga.stats",
        "himga.publish",
        "himga.run",
        "himga.subset",
        "himga.qrels",
        "himga.utils",
        "himga.testing",
    ),
    ("himga.cli", "himga"),
]


def layer(module: str) -> int:
    """The layer of ``module``: that of the longest prefix of :data:`LAYERS` it has (``himga`` is the face)."""
    matches = [
        (len(p), i)
        for i, prefixes in enumerate(LAYERS)
        for p in prefixes
        if module == p or module.startswith(p if p.endswith("_") else p + ".")
    ]
    return max(matches)[1]


def test_no_import_runs_from_a_lower_layer_back_up():
    graph = import_graph()
    upward = sorted(
        f"{m} (layer {layer(m)}) -> {t} (layer {layer(t)})"
        for m, ts in graph.items()
        for t in ts
        if layer(t) > layer(m)
    )
    assert upward == []


def test_the_shared_code_imports_no_builder_and_no_catalogue():
    graph = import_graph()
    for low in (
        "himga.sources",
        "himga.jsonio",
        "himga.schema",
        "himga.schema.sample",
        "himga.schema.relevance",
        "himga.cache",
        "himga.scoring",
        "himga.entry",
    ):
        assert not {m for m in _reachable(graph, low) if m.startswith(("himga_", "himga.catalog"))}, low
    # an entry registers its rules below (the relevance rule, its folders, its scorer); it imports no catalogue
    assert not {
        m for m in _reachable(graph, "himga.entry") if m.startswith(("himga.cache", "himga.data", "himga.catalog"))
    }
    assert _reachable(graph, "himga.sources._offline") == set()  # the one offline decision imports nothing of ours
    assert {"himga_locomo", "himga_longmemeval"} <= graph["himga.catalog"]  # the catalogue's reach is visible


def test_the_light_imports_load_no_datasets(tmp_path):
    """``import himga.errors`` / ``himga.data`` and ``himga --version`` load neither ``datasets`` (nor ``pyarrow``) nor
    the catalogue (the builders): measured in a fresh interpreter, as a user's first import."""
    import subprocess
    import sys

    code = (
        "import sys, himga.errors, himga.data; from himga.cli import main\n"
        "try:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m in ('datasets', 'pyarrow', 'himga.catalog') or "
        "m.startswith('himga_')))"
    )
    # from an empty folder: the checkout's parent may hold a folder named himga (the clone itself), which -c would
    # import
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert (done.returncode, done.stdout.splitlines()[-1], done.stderr) == (0, "[]", "")


def test_a_records_module_loads_no_datasets(tmp_path):
    """LongMemEval's records module (its row rules, which its validate rules use too) builds its rows' sessions as
    :class:`himga.schema.columns.SessionColumns`, plain Python: importing it loads neither ``datasets`` nor
    ``pyarrow``."""
    import subprocess
    import sys

    code = (
        "import sys, himga_longmemeval.records, himga_longmemeval.validate_rules\n"
        "print(sorted(m for m in sys.modules if m in ('datasets', 'pyarrow')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert (done.returncode, done.stdout.splitlines()[-1], done.stderr) == (0, "[]", "")


_COMMAND = """
import contextlib, io, json, sys
from himga.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        status = main(sys.argv[1:])
    except SystemExit as e:
        status = e.code
print(json.dumps([status, sorted(m for m in ("datasets", "pyarrow") if m in sys.modules)]))
"""


@pytest.mark.parametrize(
    ("argv", "status"),
    [
        (["--help"], 0),
        (["sources"], 0),
        (["sources", "beam"], 0),
        (["judge", "--help"], 0),
        (["bogus"], 2),
        (["build", "--help"], 0),
        (["stats", "--help"], 0),
        (["score", "--help"], 0),
        (["build"], 2),
        (["stats", "nosuch"], 2),
    ],
)
def test_commands_that_need_no_builder_load_no_datasets(tmp_path, argv, status):
    """``himga --help``, ``himga sources``, a command's ``--help`` and a usage error read the catalogue's pins, option
    classes and rules, not its builders: neither ``datasets`` nor ``pyarrow`` (about a second of import); the parser
    builds only the command it runs."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _COMMAND, *argv], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert json.loads(done.stdout.splitlines()[-1]) == [status, []]


def package_of(module: str) -> str:
    """The package a module belongs to: ``himga.<pkg>`` (a top-level module of himga is its own), a ``himga_*``
    folder, or ``himga`` (the face)."""
    parts = module.split(".")
    return parts[0] if parts[0] != "himga" or len(parts) == 1 else ".".join(parts[:2])


def package_graph() -> dict[str, set[str]]:
    """Package → the packages it imports (lazy imports included): :func:`import_graph` collapsed by
    :func:`package_of`."""
    graph: dict[str, set[str]] = {}
    for module, targets in import_graph().items():
        graph.setdefault(package_of(module), set()).update(package_of(t) for t in targets)
    return {p: ts - {p} for p, ts in graph.items()}


def test_the_package_graph_has_no_cycle():
    """No circle between packages either (the catalogue once closed one of 38 files: entries found by name)."""
    cycle = find_cycle(package_graph())
    assert cycle is None, "package cycle: " + " -> ".join(cycle)


def test_builder_folders_are_imported_by_the_catalogue_the_commands_and_the_facade_only():
    """A ``himga_*`` folder is imported by the catalogue, the commands (``himga.cli``), the facade (``himga.data``) or
    another folder (LoCoMo-Plus and REALTALK reuse LoCoMo's rules): everything else receives the resolved entry."""
    allowed = {"himga.catalog", "himga.cli", "himga.data"}
    importers = sorted(
        f"{p} -> {t}"
        for p, ts in package_graph().items()
        for t in ts
        if t.startswith("himga_") and not p.startswith("himga_") and p not in allowed
    )
    assert importers == []
    assert {t for t in package_graph()["himga.catalog"] if t.startswith("himga_")} == {
        "himga_beam",
        "himga_locomo",
        "himga_locomo_plus",
        "himga_longmemeval",
        "himga_personamem",
        "himga_realtalk",
    }


def test_nothing_is_imported_by_name():
    """No ``importlib.import_module`` / ``__import__`` in the package: an import the graph cannot see."""
    found = [
        f"{path.relative_to(ROOT)}"
        for path in [*(ROOT / "src").rglob("*.py"), *ROOT.glob("himga_*/*.py")]
        if "import_module(" in (text := path.read_text(encoding="utf-8")) or "__import__(" in text
    ]
    assert found == []
