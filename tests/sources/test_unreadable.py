"""A source that cannot be read (permissions, an I/O error) is one himga error with one wording on every route:
``locomo: source '<path>' is unreadable (Permission denied)``, a :class:`SourceUnreadableError` (also an ``OSError``).

As root ``chmod 000`` stops nothing, so most tests make ``open``/``os.listdir`` raise the ``PermissionError`` an
unprivileged user gets (the translation runs under CI, which is root); ``test_*_as_another_user`` drop to uid 65534.
"""

from __future__ import annotations

import builtins
import errno
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from helpers.tiny_sources import tiny_locomo
from routes import all_routes, error_message

from himga.errors import HimgaError, SourceUnreadableError

DENIED = os.strerror(errno.EACCES)


def _deny_open(monkeypatch, path: Path) -> None:
    real = builtins.open

    def guarded(file, *args, **kwargs):
        if isinstance(file, (str, os.PathLike)) and Path(file) == path:
            raise PermissionError(errno.EACCES, DENIED, str(file))
        return real(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded)


def _deny_listing(monkeypatch, folder: Path) -> None:
    for name in ("listdir", "scandir"):
        real = getattr(os, name)

        def guarded(path=".", real=real):
            if isinstance(path, (str, os.PathLike)) and Path(path) == folder:
                raise PermissionError(errno.EACCES, DENIED, str(path))
            return real(path)

        monkeypatch.setattr(os, name, guarded)


def test_an_unreadable_file_is_one_error_on_every_route(tmp_path, monkeypatch, capsys):
    src = tiny_locomo(tmp_path / "u")
    source = src / "locomo10.json"
    _deny_open(monkeypatch, source)
    expected = f"locomo: source {str(source)!r} is unreadable ({DENIED})"
    for path in (src, source):
        for name, load in all_routes(capsys, path).items():
            assert error_message(load, "locomo", None, path, tmp_path / "c") == expected, (name, path)
    assert not list((tmp_path / "c").rglob("dataset_info.json")) and not list((tmp_path / "c").rglob("*.incomplete"))


def test_an_unreadable_folder_is_one_error_on_every_route(tmp_path, monkeypatch, capsys):
    src = tiny_locomo(tmp_path / "u")
    _deny_listing(monkeypatch, src)
    expected = f"locomo: source {str(src)!r} is unreadable ({DENIED})"
    for name, load in all_routes(capsys, src).items():
        assert error_message(load, "locomo", None, src, tmp_path / "c") == expected, name


def test_the_error_is_a_himga_error_and_an_os_error(tmp_path, monkeypatch):
    from himga.data import load_locomo

    src = tiny_locomo(tmp_path / "u")
    _deny_open(monkeypatch, src / "locomo10.json")
    with pytest.raises(SourceUnreadableError) as info:
        load_locomo(src, cache_dir=tmp_path / "c")
    error = info.value
    assert isinstance(error, HimgaError) and isinstance(error, OSError)
    assert (error.errno, error.strerror, error.filename) == (errno.EACCES, DENIED, str(src / "locomo10.json"))
    import pickle

    again = pickle.loads(pickle.dumps(error))
    assert (type(again), str(again), again.errno) == (SourceUnreadableError, str(error), errno.EACCES)


def test_a_file_in_a_folder_that_cannot_be_searched(tmp_path, monkeypatch):
    """``--data-dir u/locomo10.json`` where ``u`` has no execute bit: ``stat`` itself is denied."""
    from himga.data import load_locomo

    source = tiny_locomo(tmp_path / "u") / "locomo10.json"
    real = os.stat

    def stat(path, *args, **kwargs):
        if Path(path) == source:
            raise PermissionError(errno.EACCES, DENIED, str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    with pytest.raises(SourceUnreadableError, match=f"^locomo: source {str(source)!r} is unreadable \\({DENIED}\\)$"):
        load_locomo(source, cache_dir=tmp_path / "c")


def test_unreadable_sources_as_another_user(as_nobody):
    """The real thing: uid 65534 and a file, then a folder, that only root may read."""
    base = Path(tempfile.mkdtemp(prefix="himga-unreadable-"))
    try:
        base.chmod(0o755)
        (base / "cache").mkdir(mode=0o777)
        (base / "cache").chmod(0o777)
        src = tiny_locomo(base / "src")
        src.chmod(0o755)
        source = src / "locomo10.json"
        source.chmod(0o600)  # root's only
        himga = str(Path(sys.executable).with_name("himga"))
        done = as_nobody(himga, "stats", "locomo", "--data-dir", str(src), "--cache-dir", str(base / "cache"))
        assert (done.returncode, done.stdout, done.stderr) == (
            2,
            "",
            f"himga: error: locomo: source {str(source)!r} is unreadable ({DENIED})\n",
        )
        source.chmod(0o644)
        src.chmod(0o700)  # the folder root's only
        done = as_nobody(himga, "stats", "locomo", "--data-dir", str(src), "--cache-dir", str(base / "cache"))
        assert (done.returncode, done.stderr) == (
            2,
            f"himga: error: locomo: source {str(src)!r} is unreadable ({DENIED})\n",
        )
        script = (
            "import sys\nfrom himga.data import load_locomo\ntry:\n    load_locomo(sys.argv[1], "
            "cache_dir=sys.argv[2])\n"
            "except Exception as e:\n    print(type(e).__name__, e)\n"
        )
        done = as_nobody(sys.executable, "-c", script, str(src), str(base / "cache"))
        assert done.stdout == f"SourceUnreadableError locomo: source {str(src)!r} is unreadable ({DENIED})\n"
        assert not list((base / "cache").rglob("dataset_info.json")) and not list(
            (base / "cache").rglob("*.incomplete")
        )
    finally:
        shutil.rmtree(base)


def test_himga_cache_that_is_a_file(tmp_path, monkeypatch, capsys):
    from himga.cli import main

    (afile := tmp_path / "afile").write_text("x")
    monkeypatch.setenv("HIMGA_CACHE", str(afile))
    assert main(["stats", "locomo", "--cache-dir", str(tmp_path / "c")]) == 2
    assert capsys.readouterr().err == (
        f"himga: error: the download cache {str(afile)!r} (HIMGA_CACHE) is a regular file, "
        "not a folder: point HIMGA_CACHE at a folder\n"
    )


def test_empty_variables_count_as_unset(tmp_path, monkeypatch):
    """``HIMGA_DATASETS_ROOT=`` and ``HIMGA_CACHE=`` (set, but empty) mean what unset means, as for most variables."""
    from himga.sources import cache_root, datasets_root

    monkeypatch.setenv("HIMGA_DATASETS_ROOT", "")
    monkeypatch.setenv("HIMGA_CACHE", "")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert (datasets_root(), cache_root()) == (None, tmp_path / ".cache" / "himga")
