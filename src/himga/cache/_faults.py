"""Cache faults as himga errors: a full disk, a read-only cache, a damaged one, a cache root that is a file, and the
error behind a ``datasets`` wrapper (:func:`unwrap`, the one unwrap of every route).

Used by :class:`himga.cache._guarded.GuardedBuilder` and :mod:`himga.cache._prepare`.
"""

from __future__ import annotations

import errno
import os
import shutil
import traceback
from pathlib import Path

import datasets

from himga.cache import _manifest as cache
from himga.errors import CacheError, HimgaError

__all__ = [
    "READ_ONLY",
    "damage",
    "disk_full",
    "existing",
    "not_a_folder",
    "os_error",
    "read_only",
    "unwrap",
    "writable",
]

#: The errnos of a file system or folder the user cannot write.
READ_ONLY = {errno.EROFS, errno.EACCES, errno.EPERM}
_FULL = {errno.ENOSPC, errno.EDQUOT}


def existing(folder: Path) -> Path:
    """``folder`` or its nearest existing parent."""
    return next(p for p in (folder, *folder.parents) if p.exists())


def writable(path: Path) -> bool:
    """Whether files can be created in ``path`` or, if it does not exist yet, in its nearest existing parent."""
    return os.access(existing(path), os.W_OK)


def _first_in_chain(error: BaseException, test) -> BaseException | None:
    """The first exception in ``error``'s cause/context chain (``error`` included) for which ``test`` is true."""
    seen, visited = error, set()
    while seen is not None and id(seen) not in visited:  # "raise cause from wrapper" makes a cycle
        visited.add(id(seen))
        if test(seen):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def os_error(error: BaseException, errnos: set[int]) -> OSError | None:
    """The first ``OSError`` with one of ``errnos`` in ``error``'s cause/context chain (``error`` included)."""
    return _first_in_chain(error, lambda e: isinstance(e, OSError) and e.errno in errnos)


def disk_full(folder: Path, error: BaseException) -> CacheError | None:
    """A ``CacheError`` if ``error`` is a full disk: ``ENOSPC``/``EDQUOT`` anywhere in its chain, or ``datasets``'
    own "Not enough disk space" check (an ``OSError`` without errno) with 0 bytes free; else ``None``.

    Also clears the frames of ``error``'s chain: the failed Arrow writer (still open in them) then closes now,
    so the space of its partial file, which ``datasets`` has already unlinked, is freed at once.
    """
    full = os_error(error, _FULL)
    found = existing(folder)
    free = shutil.disk_usage(found).free
    if full is None and not (isinstance(error, OSError) and error.errno is None and free == 0):
        return None
    seen, visited = error, set()
    while seen is not None and id(seen) not in visited:
        visited.add(id(seen))
        traceback.clear_frames(seen.__traceback__)
        seen = seen.__cause__ or seen.__context__
    mount = found
    while not os.path.ismount(mount):
        mount = mount.parent
    return CacheError(
        folder,
        f"no space left on device while writing the cache {folder} (the file system mounted at {mount} is full; "
        f"{getattr(full or error, 'strerror', None) or error}); nothing was cached: free space there, or point "
        f"--cache-dir / HF_DATASETS_CACHE at another disk",
    )


def read_only(folder: Path, error: OSError | None = None) -> CacheError:
    if (folder / cache.INFO_FILE).exists():  # only if datasets touched something this class does not cover
        return CacheError(folder, f"the cache {folder} is built but could not be opened read-only ({error})")
    return CacheError(
        folder,
        f"the cache {folder} is not built and its file system or folder is read-only; build it once where the cache "
        f"is writable (e.g. himga build ... --cache-dir DIR, then share DIR read-only), or point --cache-dir / "
        f"HF_DATASETS_CACHE at a writable folder",
    )


def damage(folder: Path | None) -> CacheError | None:
    """A ``CacheError`` if ``folder`` is a built cache whose files differ from its manifest, else ``None``."""
    if folder is None or not (folder / cache.INFO_FILE).exists():
        return None
    try:
        cache.check_sizes(folder)
    except CacheError as damage:
        return damage
    return None


def not_a_folder(root: str | None, given: bool, error: BaseException) -> CacheError | None:
    """A ``CacheError`` naming the variable if the cache root could not be made because it, or a folder
    above it, is a file (``datasets``' bare ``[Errno 17] File exists`` / ``[Errno 20] Not a directory``)."""
    if not root or "://" in root or os_error(error, {errno.EEXIST, errno.ENOTDIR}) is None:
        return None
    from himga.sources import folder_blocker, path_kind

    path = Path(root)
    if (blocker := folder_blocker(path)) is None:
        return None

    variable = (
        "cache_dir= / --cache-dir"
        if given
        else "HF_HOME"
        if "HF_HOME" in os.environ and "HF_DATASETS_CACHE" not in os.environ
        else "HF_DATASETS_CACHE"
    )
    where = "it is" if blocker == path else f"{str(blocker)!r} is"
    return CacheError(
        root,
        f"the datasets cache folder {root!r} ({variable}) cannot be made: {where} {path_kind(blocker)}, "
        f"not a folder; point {variable} at a folder",
    )


def unwrap(error: BaseException) -> BaseException:
    """The error behind a ``datasets`` wrapper: the himga error in ``error``'s cause chain, else (behind a
    ``DatasetGenerationError``) the ``OSError`` that stopped the build, e.g. an unreadable source file;
    else ``error`` itself. The one unwrap of every route (the facade, the CLI, ``datasets.load_dataset``)."""
    if (ours := _first_in_chain(error, lambda e: isinstance(e, HimgaError))) is not None:
        return ours
    if isinstance(error, datasets.exceptions.DatasetGenerationError):
        return _first_in_chain(error, lambda e: isinstance(e, OSError)) or error
    return error
