"""Where the raw benchmark files come from: local folders, or a verified download into himga's cache.

Resolution order for :func:`get_dataset` (as in the HiMGA seed):

1. ``$HIMGA_DATASETS_ROOT/<name>/`` if that folder exists (your own copies; nothing is downloaded);
2. ``$HIMGA_CACHE/<name>/`` (default ``~/.cache/himga/<name>/``), filled on first use by downloading the
   pinned source file. A download goes to a temporary name in that folder and is moved into place only
   after its sha256 matches, so an interrupted or corrupted download is never used.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .errors import ChecksumError, ConfigurationError, DownloadError

__all__ = ["DATASETS", "RemoteFile", "default_sources", "cache_root", "datasets_root", "get_dataset", "sha256_of"]


@dataclass(frozen=True)
class RemoteFile:
    """One pinned source file.

    Attributes:
        filename: The local file name (for Hub files: the file's name in the repository).
        url: Where to fetch it (a revision-pinned URL).
        sha256: The expected checksum, or ``None`` where none is pinned.
        repo_id: A Hugging Face *dataset* repository: when set, the file is fetched with
            ``huggingface_hub.hf_hub_download`` (its auth, offline mode and retries) instead of ``url``.
        revision: The pinned revision (commit) of the source repository.
    """

    filename: str
    url: str
    sha256: str | None
    repo_id: str | None = None
    revision: str | None = None


def default_sources(name: str) -> list[RemoteFile]:
    """The pinned file of dataset ``name``'s default builder config (LongMemEval: config ``s`` only)."""
    from himga.data.builders import builder_class

    cls = builder_class(name)
    return [cls.builder_configs[cls.DEFAULT_CONFIG_NAME].remote_file()]


#: The datasets :func:`get_dataset` knows.
DATASETS = ("locomo", "longmemeval")


def datasets_root() -> Path | None:
    """``$HIMGA_DATASETS_ROOT`` as a Path, or ``None`` when unset."""
    root = os.environ.get("HIMGA_DATASETS_ROOT")
    return Path(root).expanduser() if root else None


def cache_root() -> Path:
    """``$HIMGA_CACHE``, default ``~/.cache/himga``: downloaded sources live in ``<cache>/<name>/``."""
    return Path(os.environ.get("HIMGA_CACHE", "~/.cache/himga")).expanduser()


def sha256_of(path: str | Path, chunk_size: int = 1 << 20) -> str:
    """Hex sha256 of a file, read in 1 MiB chunks.

    Raises:
        OSError: the file cannot be read.
    """
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(chunk_size):
            digest.update(chunk)
    return digest.hexdigest()


def _offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "0").lower() in ("1", "true", "yes", "on")


def _download(remote: RemoteFile, folder: Path) -> Path:
    """Fetch one file into ``folder`` atomically, verifying its sha256."""
    target = folder / remote.filename
    hint = (
        f"download {remote.url} yourself and put it at $HIMGA_DATASETS_ROOT/{folder.name}/{remote.filename} "
        f"(or pass --data-dir / data_dir= pointing at its folder)"
    )
    if _offline():
        raise DownloadError(f"{remote.filename}: not in {folder} and HF_HUB_OFFLINE is set; {hint}")
    if remote.repo_id is not None:
        return _hub_download(remote, folder, hint)
    from huggingface_hub.file_download import http_get

    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{remote.filename}.", suffix=".incomplete", dir=folder)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as f:
            http_get(remote.url, f, displayed_filename=remote.filename)
        if remote.sha256 is not None and (actual := sha256_of(tmp)) != remote.sha256:
            raise ChecksumError(f"{remote.filename}: expected sha256 {remote.sha256}, got {actual} (from {remote.url})")
        os.replace(tmp, target)
    except ChecksumError:
        raise
    except Exception as e:  # network failures of every kind
        raise DownloadError(f"{remote.filename}: could not download {remote.url} ({type(e).__name__}: {e}); {hint}") from e
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
        path = Path(hf_hub_download(remote.repo_id, remote.filename, repo_type="dataset", revision=remote.revision, local_dir=staging))
    except Exception as e:  # offline, not found, network failures of every kind
        raise DownloadError(f"{remote.filename}: could not download from {remote.repo_id}@{remote.revision} ({type(e).__name__}: {e}); {hint}") from e
    if remote.sha256 is not None and (actual := sha256_of(path)) != remote.sha256:
        path.unlink(missing_ok=True)
        raise ChecksumError(f"{remote.filename}: expected sha256 {remote.sha256}, got {actual} (from {remote.url})")
    target = folder / remote.filename
    os.replace(path, target)
    return target


def get_dataset(name: str, *, files: list[RemoteFile] | None = None) -> Path:
    """Return the local folder holding the raw files of dataset ``name``, downloading them if needed.

    Args:
        name: ``"locomo"`` or ``"longmemeval"`` (one of :data:`DATASETS`).
        files: The files to make sure of, default :func:`default_sources` (LongMemEval: the default
            config's file; its builder passes the file of the config in use).

    Returns:
        ``$HIMGA_DATASETS_ROOT/<name>`` if it exists, else ``<cache_root()>/<name>`` holding the files.

    Raises:
        ValueError: unknown ``name`` (a :class:`~himga.errors.ConfigurationError`).
        DownloadError: a file is missing and cannot be downloaded (offline, network failure); the
            message says which file to fetch and where to put it.
        ChecksumError: a downloaded file does not have its pinned sha256.
    """
    if name not in DATASETS:
        raise ConfigurationError(f"unknown dataset {name!r}; expected one of {sorted(DATASETS)}")
    root = datasets_root()
    if root is not None and (root / name).is_dir():
        return root / name
    folder = cache_root() / name
    for remote in files if files is not None else default_sources(name):
        if not (folder / remote.filename).is_file():
            _download(remote, folder)
    return folder
