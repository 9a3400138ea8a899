"""Pinned remote files and the folders they are found in: :func:`get_dataset`, verified downloads (the pin itself,
:class:`~himga.sources._pin.RemoteFile`, is :mod:`himga.sources._pin`; a cached file's check,
:mod:`himga.sources._verified`)."""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
from pathlib import Path, PurePosixPath

from himga.errors import ChecksumError, ConfigurationError, DownloadError
from himga.sources._known import benchmark_names, known_folders, option_for
from himga.sources._offline import offline_switch
from himga.sources._pin import RemoteFile
from himga.sources._verified import check_cached, record_verified, sha256_of

__all__ = [
    "cache_root",
    "dataset_folder",
    "datasets_root",
    "download",
    "get_dataset",
    "pinned_files",
    "pinned_source",
    "where_to_put",
]


def datasets_root() -> Path | None:
    """``$HIMGA_DATASETS_ROOT`` as a Path, or ``None`` when unset or empty (``HIMGA_DATASETS_ROOT=`` is unset)."""
    root = os.environ.get("HIMGA_DATASETS_ROOT")
    return Path(root).expanduser() if root else None


def cache_root() -> Path:
    """``$HIMGA_CACHE``, default (also when empty) ``~/.cache/himga``: downloaded sources live in ``<cache>/<name>/``.

    Raises:
        ConfigurationError: it, or a folder above it, is a file (or anything but a folder).
    """
    root = Path(os.environ.get("HIMGA_CACHE") or "~/.cache/himga").expanduser()
    from himga.sources._checks import folder_blocker, path_kind

    if (blocker := folder_blocker(root)) is not None:
        where = "" if blocker == root else f": {str(blocker)!r}"
        raise ConfigurationError(
            f"the download cache {str(root)!r} (HIMGA_CACHE){where} is {path_kind(blocker)}, not a folder: "
            "point HIMGA_CACHE at a folder"
        )
    return root


def where_to_put(remote: RemoteFile, folder: Path) -> str:
    """The end of every "cannot download" message: where a copy made by hand is found.

    ``folder`` is the download cache's ``<name>/`` folder (downloads happen only when
    ``$HIMGA_DATASETS_ROOT`` is unset), so the message names it, and gives the ``export`` line that
    makes a folder of your own the source instead.
    """
    option = option_for(folder.name, remote)
    return (
        f"download {remote.url} yourself and put it in {(folder / remote.local_path).parent}/ (a copy there that has "
        "the pinned sha256 is used and not downloaded again), "
        f"or in {(PurePosixPath('<dir>', folder.name) / remote.local_path).parent}/ "
        + (
            f"after `export HIMGA_DATASETS_ROOT=<dir>`, or pass {option} pointing at it"
            if option
            else "and `export HIMGA_DATASETS_ROOT=<dir>`"
        )
    )


@contextlib.contextmanager
def _hub_warnings_silenced():
    """``huggingface_hub`` logs a warning per retry ("Error while downloading ...", "Trying to resume
    download...", "Retrying in 1s"); the DownloadError raised after the last one is the one line to show."""
    logger = logging.getLogger("huggingface_hub")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def download(remote: RemoteFile, folder: Path) -> Path:
    """Fetch one file into ``folder`` atomically, verifying its sha256.

    Raises:
        DownloadError: offline (any switch of :func:`himga.sources._offline.offline_switch`, at once), not found,
            network failure (the message says where to put a copy).
        ChecksumError: the downloaded bytes do not have the pinned sha256 (nothing is left behind).
    """
    target = folder / remote.local_path
    hint = where_to_put(remote, folder)
    if switch := offline_switch():  # before any name look-up or retry
        raise DownloadError(f"{remote.local_path}: not in {folder} and {switch} is set; {hint}")
    if remote.repo_id is not None:
        return _hub_download(remote, folder, hint)
    from huggingface_hub.file_download import http_get

    target.parent.mkdir(parents=True, exist_ok=True)  # a filename may hold folders (the audit's ap-baseline/v1/...)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".incomplete", dir=target.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as f, _hub_warnings_silenced():
            http_get(remote.url, f, displayed_filename=remote.filename)
        if remote.sha256 is not None and (actual := sha256_of(tmp)) != remote.sha256:
            raise ChecksumError(f"{remote.filename}: expected sha256 {remote.sha256}, got {actual} (from {remote.url})")
        os.replace(tmp, target)
        record_verified(remote, target)
    except ChecksumError:
        raise
    except Exception as e:  # network failures of every kind
        raise DownloadError(
            f"{remote.filename}: could not download {remote.url} ({type(e).__name__}: {e}); {hint}"
        ) from e
    finally:
        tmp.unlink(missing_ok=True)
    return target


def _hub_download(remote: RemoteFile, folder: Path, hint: str) -> Path:
    """Fetch one file of a Hub dataset repository into ``folder`` with ``hf_hub_download``, verifying its sha256."""
    from huggingface_hub import hf_hub_download

    # hf_hub_download writes into a staging folder (where it keeps partial downloads to resume them);
    # the file gets its final name in ``folder`` only after its checksum matches.
    staging = folder / ".download"
    try:
        with _hub_warnings_silenced():
            path = Path(
                hf_hub_download(
                    remote.repo_id, remote.filename, repo_type="dataset", revision=remote.revision, local_dir=staging
                )
            )
    except Exception as e:  # offline, not found, network failures of every kind
        raise DownloadError(
            f"{remote.filename}: could not download from {remote.repo_id}@{remote.revision} ({type(e).__name__}: {e}); "
            f"{hint}"
        ) from e
    if remote.sha256 is not None and (actual := sha256_of(path)) != remote.sha256:
        path.unlink(missing_ok=True)
        raise ChecksumError(f"{remote.filename}: expected sha256 {remote.sha256}, got {actual} (from {remote.url})")
    target = folder / remote.filename
    os.replace(path, target)
    record_verified(remote, target)
    return target


def dataset_folder(name: str) -> Path | None:
    """``$HIMGA_DATASETS_ROOT/<name>`` when the variable is set, else ``None``.

    Raises:
        ConfigurationError: the variable is set but ``<name>/`` is not a folder in it; the message says
            what it is set to and what was expected (and spots a root pointing at the folder itself).
    """
    root = datasets_root()
    if root is None:
        return None
    folder = root / name
    if folder.is_dir():
        return folder
    subfolders = ", ".join(f"{d}/" for d in benchmark_names())
    message = (
        f"$HIMGA_DATASETS_ROOT is set to {str(root)!r}, but {str(folder)!r} is not a folder; "
        f"expected a folder holding one subfolder per dataset ({subfolders})"
    )
    if not root.is_dir():
        from himga.sources._checks import path_kind

        kind = path_kind(root)
        message += (
            f", and {str(root)!r} does not exist"
            if kind == "missing"
            else f", and {str(root)!r} is {kind}, not a folder"
        )
    elif root.name == name or any(p.suffix == ".json" for p in root.iterdir()):
        message += f"; it looks like the {name} folder itself: set HIMGA_DATASETS_ROOT={root.parent}"
    raise ConfigurationError(message + " (unset it to download the pinned files)")


def get_dataset(name: str, *, files: list[RemoteFile]) -> Path:
    """Return the local folder holding the raw files of dataset ``name``, downloading them if needed.

    Args:
        name: A benchmark's name (``"locomo"``), or the folder of an auxiliary file of its entry (``"locomo-audit"``).
        files: The pinned files to make sure of (a builder config's :meth:`remote_file`);
            :func:`himga.utils.get_dataset` fills in the default config's.

    Returns:
        ``$HIMGA_DATASETS_ROOT/<name>`` if the variable is set, else ``<cache_root()>/<name>`` holding the files.

    Raises:
        ConfigurationError: unknown ``name``, or ``$HIMGA_DATASETS_ROOT`` set without a ``<name>/`` folder.
        DownloadError: a file is missing and cannot be downloaded (offline, network failure); the
            message says which file to fetch and where to put it.
        ChecksumError: a downloaded file does not have its pinned sha256.
    """
    if name not in (known := known_folders()):
        expected = sorted(known) if known else "[] (none registered: import himga.catalog)"
        raise ConfigurationError(f"unknown dataset {name!r}; expected one of {expected}")
    if (folder := dataset_folder(name)) is not None:
        return folder
    folder = cache_root() / name
    for remote in (part for pin in files for part in pin.files):
        if (folder / remote.local_path).is_file():
            check_cached(remote, folder / remote.local_path)
        else:
            download(remote, folder)
    return folder


def pinned_source(name: str, remote: RemoteFile, *, config: str | None = None) -> Path:
    """The one file a build of the default source reads: ``remote``'s, by name, in :func:`get_dataset`'s folder.

    The rule for every route without a ``data_dir``/``data_files`` (``load_dataset(name)``,
    ``datasets.load_dataset("himga_<name>")``, streaming, the CLI without ``--data-dir``, an export of the
    pinned sources): a config, the default one included, reads only its own file (``remote.local_names``:
    ``longmemeval_s_cleaned.json`` or ``longmemeval_s_cleaned`` for LongMemEval's ``s``), never the other
    files of ``$HIMGA_DATASETS_ROOT/<name>/``.

    Args:
        name: a benchmark of the catalogue (``"locomo"``, ``"longmemeval"``, ``"beam"``, ...:
            :data:`himga.catalog.NAMES`).
        remote: The config's pinned file (its ``remote_file()``).
        config: The config's name, for the message.

    Returns:
        The file's path.

    Raises:
        ConfigurationError: ``$HIMGA_DATASETS_ROOT/<name>/`` lacks the file; the message names the folder,
            the names looked for and the files found there.
        DownloadError, ChecksumError: see :func:`get_dataset`.
    """
    folder = get_dataset(name, files=[remote])
    for candidate in remote.local_names:
        if (folder / candidate).is_file():
            return folder / candidate
    found = (
        sorted(p.name for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
        if folder.is_dir()
        else []
    )
    which = f"{name} (config {config!r})" if config else name
    raise ConfigurationError(
        f"{which}: no source file in {folder}; looked for {', '.join(remote.local_names)}"
        + (f"; found {', '.join(found)}" if found else "")
        + " (pass config= / --config for another config's file, or data_dir= / --data-dir for a file of another name)"
    )


def pinned_files(name: str, remote: RemoteFile, *, config: str | None = None) -> list[Path]:
    """The files a build of the default source reads for a pin: :func:`pinned_source`'s one file, or, for a pin of
    several files (:attr:`RemoteFile.parts`), each part at its layout path in :func:`get_dataset`'s folder, in
    layout order, and nothing else of that folder.

    Raises:
        ConfigurationError: ``$HIMGA_DATASETS_ROOT/<name>/`` lacks a part; the message names the first ones missing.
        DownloadError, ChecksumError: see :func:`get_dataset`.
    """
    if not remote.parts:
        return [pinned_source(name, remote, config=config)]
    folder = get_dataset(name, files=[remote])
    paths = [folder / part.local_path for part in remote.parts]
    if missing := [p for p in paths if not p.is_file()]:
        which = f"{name} (config {config!r})" if config else name
        shown = ", ".join(str(p.relative_to(folder)) for p in missing[:3]) + (
            f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        )
        raise ConfigurationError(
            f"{which}: {len(missing)} of the {len(paths)} pinned files of {remote.repo_path} are not in {folder}: "
            f"{shown} "
            "(a copy in the repository's layout is read from there; pass data_dir= / --data-dir for a folder of "
            "another layout)"
        )
    return paths
