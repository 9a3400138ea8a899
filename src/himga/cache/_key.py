"""The cache key of a build: the code that shapes its rows, and the identity of its source files.

``datasets`` puts a build's cache in a folder named after this key (``<cache>/<builder>/<config>/<version>/<key>``),
so a change of either gives a new build and never serves stale rows. The code part covers what the rows are
made by (:func:`row_files`): a benchmark's row modules (:attr:`himga.entry.Benchmark.row_modules`: the builder,
its records modules) and every himga module they import, directly or not, read from their import statements
(found by a pattern, then parsed one by one: parsing each whole module took ~0.1 s of every build and open;
``tests/cache/test_cache_key.py`` checks that the pattern finds what a whole-module parse finds).
A validate rule, the card, the catalogue or a helper the builders do not import (``himga.data.chronological``)
is not among them, so editing one keeps every cache; an M-scale LongMemEval rebuild takes minutes.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import re
from functools import cache
from pathlib import Path

from himga.entry import Benchmark
from himga.jsonio import file_identity
from himga.version import __version__

__all__ = ["cache_key", "code_hash", "row_files"]

_OURS = ("himga", "himga_")
#: An import statement at the start of a line: ``import a.b as c, d``, ``from .x import y  # note``, or a ``from``
#: import of a parenthesized list over several lines (text in a docstring that reads as one is parsed too, and
#: names a module of ours only when it is one: the key then covers one file more, never one less).
_IMPORT = re.compile(
    rb"^[ \t]*((?:from[ \t]+[\w.]+[ \t]+import[ \t]*\([^)]*\))|(?:(?:from[ \t]+[\w.]+[ \t]+)?import[ \t][^\n]*))", re.M
)


@cache
def _file(module: str) -> Path | None:
    """The source file of ``module``, or ``None`` when it is no module of ours (looked up once per process)."""
    if not module.startswith(_OURS):
        return None
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    return Path(spec.origin) if spec is not None and spec.origin and spec.origin.endswith(".py") else None


@cache
def _imports(module: str) -> tuple[str, ...]:
    """The modules of ours ``module`` imports anywhere in its source (top level or inside functions)."""
    path = _file(module)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in _import_nodes(path.read_bytes()):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            found += [f"{base}.{a.name}" if _file(f"{base}.{a.name}") else base for a in node.names]
    return tuple(sorted({m for m in found if m != module and _file(m) is not None}))


def _import_nodes(source: bytes) -> list[ast.stmt]:
    """The import statements of a module's ``source``: the matches of :data:`_IMPORT` parsed together, or, when one
    does not parse as Python (prose in a docstring: no import), each alone."""
    matches = [m.group(1) for m in _IMPORT.finditer(source)]
    try:
        return ast.parse(b"\n".join(matches)).body
    except SyntaxError:
        pass
    nodes = []
    for match in matches:
        try:
            nodes += ast.parse(match).body
        except SyntaxError:
            continue
    return nodes


def row_files(entry: Benchmark) -> list[Path]:
    """The source files whose bytes :func:`code_hash` covers: ``entry``'s row modules and every module of ours
    they import, directly or not (sorted by module name)."""
    seen, todo = set(), list(entry.row_modules)
    while todo:
        if (module := todo.pop()) not in seen:
            seen.add(module)
            todo += _imports(module)
    return [_file(m) for m in sorted(seen)]


@cache
def code_hash(entry: Benchmark) -> str:
    """A 16-hex-digit sha256 of the himga version and the bytes of :func:`row_files` (read once per process)."""
    digest = hashlib.sha256(__version__.encode())
    for path in row_files(entry):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_key(entry: Benchmark, data_dir: str | Path | None = None, data_files: list[Path] | None = None) -> str:
    """:func:`code_hash`, plus ``-`` and 8 hex digits of the source files' names and identities.

    The identity is ``(size, mtime_ns, ctime_ns, inode)`` (:func:`himga.jsonio.file_identity`) of each file in a
    ``data_dir`` folder and its subfolders (a source in its repository's layout: BEAM's ``chats/100K/1/chat.json``),
    of a ``data_dir`` that is one file, and of each of ``data_files``.
    ``datasets`` keys ``data_files`` by their mtime only and ``data_dir`` only by its path: without
    this, adding a file to a folder, or an edit whose mtime was set back (``touch -r``, ``cp -p``),
    would keep serving the old rows.

    Args:
        entry: The benchmark.
        data_dir: A source folder or file (absolute), or ``None``.
        data_files: Source files (from :func:`himga.cache.source_files`), or ``None``.
    """
    key = code_hash(entry)
    if data_files is not None:
        paths = list(data_files)
    elif data_dir is not None and Path(data_dir).is_dir():
        paths = sorted(p for p in Path(data_dir).rglob("*") if p.is_file())
    elif data_dir is not None and Path(data_dir).is_file():
        paths = [Path(data_dir)]
    else:
        return key
    digest = hashlib.sha256()
    for path in paths:
        identity = "\0".join(map(str, file_identity(path.stat())))
        digest.update(f"{path}\0{identity}\n".encode())
    return f"{key}-{digest.hexdigest()[:8]}"
