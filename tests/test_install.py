"""What users install: the wheel ``pip install .`` builds, installed without ``-e`` into a fresh venv.

An editable install (the one CI's suite runs on) imports from the checkout and hides a package missing from
the wheel; this test builds the wheel, installs it into a new venv and imports every module of it from there.
The venv reuses the running interpreter's installed dependencies (a ``.pth`` line naming its site-packages,
which adds the folder without processing its own ``.pth`` files, so the editable himga of the running venv is
not importable there).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Every package of the tree: ``himga`` and its subpackages under src/, the benchmark folders at the top.
TREE_PACKAGES = sorted(
    {".".join(p.parent.relative_to(ROOT / "src").parts) for p in (ROOT / "src").rglob("__init__.py")}
    | {p.parent.name for p in ROOT.glob("himga_*/__init__.py")}
)

_IMPORT_ALL = """
import importlib, json, pkgutil, sys
found = {}
for top in ("himga", *sorted(m.name for m in pkgutil.iter_modules() if m.name.startswith("himga_"))):
    package = importlib.import_module(top)
    names = [top] + [m.name for m in pkgutil.walk_packages(package.__path__, top + ".")
                     if not m.name.endswith(".__main__")]
    for name in names:
        found[name] = importlib.import_module(name).__file__
print(json.dumps(found))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of a copy of the tree without build output (setuptools would reuse a stale ``build/lib``)."""
    out = tmp_path_factory.mktemp("wheel")
    tree = out / "tree"
    output = {
        ".git",
        "build",
        "dist",
        ".pytest_cache",
        ".hypothesis",
    }  # at the top only: src/ may hold a package of any name
    shutil.copytree(
        ROOT,
        tree,
        ignore=lambda folder, names: [
            n
            for n in names
            if n == "__pycache__"
            or n.endswith(".egg-info")
            or Path(folder) == ROOT
            and (n in output or n.startswith(".venv"))
        ],
    )
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(tree)],
        capture_output=True,
        text=True,
        cwd=out,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (built,) = out.glob("himga-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh venv holding the wheel (no ``-e``); its dependencies are the running interpreter's."""
    env_dir = tmp_path_factory.mktemp("venv") / "v"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    site = Path(
        subprocess.check_output(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
        ).strip()
    )
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", str(wheel)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return env_dir


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}


def test_the_wheel_holds_every_package_of_the_tree(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    packages = sorted({n.rpartition("/")[0].replace("/", ".") for n in names if n.endswith("/__init__.py")})
    assert packages == TREE_PACKAGES
    assert {
        "himga_locomo/card_notes.md",
        "himga_locomo/README.md",
        "himga_locomo/locomo10.content.json",
        "himga_longmemeval/card_notes.md",
        "himga_longmemeval/README.md",
        "himga_beam/card_notes.md",
        "himga_beam/README.md",
        "himga_beam/beam.manifest.json",
    } <= set(names)


def test_every_module_imports_from_the_installed_wheel(installed, tmp_path):
    done = subprocess.run(
        [str(installed / "bin" / "python"), "-c", _IMPORT_ALL],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_clean_env(),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    tree = {
        ".".join(p.relative_to(ROOT / "src").with_suffix("").parts).removesuffix(".__init__")
        for p in (ROOT / "src").rglob("*.py")
    }
    tree |= {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__") for p in ROOT.glob("himga_*/*.py")
    }
    assert sorted(found) == sorted(m for m in tree if not m.endswith(".__main__"))
    assert all(file.startswith(str(installed)) for file in found.values()), [
        f for f in found.values() if not f.startswith(str(installed))
    ]


def test_the_installed_command_runs_stats(installed, tmp_path, shared_data):
    env = _clean_env() | {
        "HF_DATASETS_CACHE": str(tmp_path / "cache"),
        "HIMGA_CACHE": str(tmp_path / "himga"),
        "HF_HUB_OFFLINE": "1",
    }
    done = subprocess.run(
        [str(installed / "bin" / "himga"), "stats", "locomo", "--data-dir", str(shared_data / "locomo")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "QA pairs                    1,986" in done.stdout
    assert done.stdout.strip().endswith("source: locomo10.json = snap-research/locomo@3eb6f2c, sha256 ok")
    done = subprocess.run(
        [str(installed / "bin" / "himga"), "sources", "beam"], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    assert done.returncode == 0, done.stderr[-3000:]  # the pins of BEAM's tiers come from the wheel's manifest
    assert done.stdout.splitlines()[0] == "beam/100K: chats/100K/ (40 files; sha256: of their sha256sum listing)"
