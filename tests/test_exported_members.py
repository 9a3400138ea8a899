"""Every package says what is public: its ``__all__`` lists exactly the public names it holds, sorted (like httpx's
``tests/test_exported_members.py``), and names nothing it does not have. Modules behind a face are private
(``_x.py``); what other packages import from a package comes from its face."""

from __future__ import annotations

import ast
import importlib
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Every package of the tree with a face: ``__init__.py`` defining ``__all__``.
FACES = sorted(
    ".".join(p.parent.relative_to(ROOT / "src").parts)
    for p in (ROOT / "src").rglob("__init__.py")
    if "__all__" in p.read_text(encoding="utf-8")
)
#: Packages whose modules are all private behind their face.
PRIVATE = ("himga.cache", "himga.publish", "himga.qrels", "himga.run", "himga.scoring", "himga.sources")


def _isort_style(name: str) -> tuple[int, str]:
    """Constants, then classes, then functions, each alphabetical (ruff's RUF022 order)."""
    return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)


def test_the_faces_are_the_ones_expected():
    assert {
        "himga.cache",
        "himga.catalog",
        "himga.data",
        "himga.jsonio",
        "himga.publish",
        "himga.qrels",
        "himga.run",
        "himga.scoring",
        "himga.sources",
    } <= set(FACES)


@pytest.mark.parametrize("name", FACES)
def test_all_is_sorted_and_equals_the_public_names(name):
    package = importlib.import_module(name)
    public = {
        n
        for n, v in vars(package).items()
        if not n.startswith("_") and not isinstance(v, types.ModuleType) and n not in ("annotations",)
    }
    assert package.__all__ == sorted(package.__all__, key=_isort_style)
    assert set(package.__all__) >= public - {
        n for n in public if getattr(vars(package)[n], "__module__", None) == "typing"
    }
    assert all(hasattr(package, n) for n in package.__all__)


@pytest.mark.parametrize("name", PRIVATE)
def test_modules_behind_the_face_are_private(name):
    folder = ROOT / "src" / Path(*name.split("."))
    assert sorted(p.name for p in folder.glob("*.py") if not p.name.startswith("_")) == []


def test_other_packages_import_a_private_package_through_its_face():
    """``from himga.sources._remote import X`` outside ``himga.sources`` is an import past the face."""
    found = []
    for path in [*(ROOT / "src").rglob("*.py"), *ROOT.glob("himga_*/*.py")]:
        rel = path.relative_to(ROOT / "src") if path.is_relative_to(ROOT / "src") else path.relative_to(ROOT)
        own = ".".join(rel.parts[:-1])
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for face in PRIVATE:
                    if node.module.startswith(face + "._") and not own.startswith(face):
                        found.append(f"{rel}:{node.lineno}: from {node.module}")
            if isinstance(node, ast.ImportFrom) and node.module in PRIVATE and not own.startswith(node.module):
                found += [
                    f"{rel}:{node.lineno}: from {node.module} import {a.name}"
                    for a in node.names
                    if a.name.startswith("_")
                ]
    assert found == []


def test_errors_all_lists_every_name_other_modules_import():
    import himga.errors

    imported = set()
    for path in [*(ROOT / "src").rglob("*.py"), *ROOT.glob("himga_*/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "himga.errors":
                imported |= {a.name for a in node.names}
    assert imported <= set(himga.errors.__all__)
