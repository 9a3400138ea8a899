"""A file of the download cache is its pin's: :func:`check_cached` hashes it once and remembers it beside the file;
:func:`sha256_of` hashes any file."""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path

from himga.errors import ChecksumError
from himga.sources._pin import RemoteFile

__all__ = ["check_cached", "record_verified", "sha256_of"]


def sha256_of(path: str | Path, chunk_size: int = 1 << 20) -> str:
    """Hex sha256 of a file, read in 1 MiB chunks (always reads the file; see :func:`file_sha256`).

    Raises:
        OSError: the file cannot be read.
    """
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(chunk_size):
            digest.update(chunk)
    return digest.hexdigest()


def _verified_record(path: Path) -> Path:
    return path.with_name(f".{path.name}.verified.json")


def check_cached(remote: RemoteFile, path: Path) -> None:
    """Refuse a file in the download cache that is not ``remote``'s pinned file (size, then sha256).

    A file in ``$HIMGA_CACHE/<name>/`` is the pin or it is not used: a copy put there by hand (another
    release, a sample, an edited file) would otherwise be served as the pinned config. The sha256 is
    computed once per file: a record beside it (``.<file>.verified.json``, holding the file's identity of
    :func:`himga.sources._checks.file_identity`) skips the hash while the file is unchanged, and any write,
    rename or ``touch`` changes that identity. A pin without a sha256 (LongMemEval ``m_original``) cannot be
    checked; its file is used as it is.

    Raises:
        ChecksumError: the size or sha256 differs from the pin's; names the file, the pin, and what to do.
    """
    if remote.sha256 is None:
        return
    from himga.jsonio import file_identity

    identity = list(file_identity(path.stat()))
    record = _verified_record(path)
    with contextlib.suppress(OSError, ValueError):
        if json.loads(record.read_text(encoding="utf-8")) == {"identity": identity, "sha256": remote.sha256}:
            return
    size = path.stat().st_size
    actual = None if remote.size is not None and size != remote.size else sha256_of(path)
    if actual != remote.sha256:
        got = f"{size:,} bytes" if actual is None else f"sha256 {actual}"
        expected = f"{remote.size:,} bytes" if actual is None else f"sha256 {remote.sha256}"
        folder = path.parents[len(Path(remote.local_path).parts) - 1]  # the dataset's folder of the download cache
        raise ChecksumError(
            f"{remote.local_path} in the download cache {folder}/ is not the pinned file {remote.origin} "
            f"{remote.repo_path} "
            f"(expected {expected}, got {got}): delete it to download the pinned file again, or read your copy "
            f"with --data-dir / data_dir= (or from <dir>/{folder.name}/ after `export HIMGA_DATASETS_ROOT=<dir>`)"
        )
    record_verified(remote, path)


def record_verified(remote: RemoteFile, path: Path) -> None:
    """Write the record of :func:`check_cached` for ``path``, whose sha256 was just found to be the pin's."""
    if remote.sha256 is None:
        return
    from himga.jsonio import file_identity

    with contextlib.suppress(OSError):  # a read-only cache: checked again next time
        record = {"identity": list(file_identity(path.stat())), "sha256": remote.sha256}
        _verified_record(path).write_text(json.dumps(record), encoding="utf-8")
