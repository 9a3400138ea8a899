"""Integrity of a built Arrow cache: a checksum manifest written with it, cheap checks on open, full verification.

``datasets`` keeps no checksum of its own cache and serves whatever the ``.arrow`` files hold: a file cut
at a record-batch boundary reads as a shorter split, with no error. himga therefore writes
:data:`MANIFEST` (size and xxh3-64 hash of every file) into each cache folder while ``datasets`` still
builds it in its ``.incomplete`` folder, so the manifest appears with the cache in one rename, and:

* on every open (:func:`check_sizes`, then :func:`check_rows` on the split read) compares each file's
  size with the manifest and the rows read with the split size in ``dataset_info.json``: a few ``stat``
  calls and one small JSON file, so a cut, emptied or missing file is caught without reading the data;
* on request (:func:`verify`, ``himga verify``) re-hashes every file and counts the rows of every Arrow
  file, which also catches bytes altered in place (same size).

Any mismatch is a :class:`~himga.errors.CacheError` naming the folder and how to clear it. Which cache
folder serves which inputs is decided by ``datasets`` and :mod:`himga.cache._prepare`; this module only
looks inside a folder.
"""

from __future__ import annotations

import json
import os
import shlex
import stat
from collections.abc import Iterable
from pathlib import Path

import xxhash

from himga.errors import CacheError

__all__ = [
    "HASH",
    "INFO_FILE",
    "MANIFEST",
    "check_rows",
    "check_sizes",
    "damaged",
    "find_caches",
    "find_incomplete",
    "record",
    "undecodable",
    "verify",
]

#: The manifest's file name inside a cache folder.
MANIFEST = "himga_checksums.json"
#: The file ``datasets`` writes last into a cache folder; its presence marks a complete build.
INFO_FILE = "dataset_info.json"
#: The hash recorded for each file: xxh3-64 from ``xxhash`` (a ``datasets`` dependency), ~6.4 GB/s here,
#: against ~1.0 GB/s for sha256 (measured on an S-scale cache, see benchmarks/cache_checks.py).
HASH = "xxh3_64"

_CHUNK = 1 << 20


def damaged(folder: str | os.PathLike, what: str) -> CacheError:
    """The error for a damaged cache folder: what is wrong, and the command that clears it."""
    folder = str(folder)
    return CacheError(
        folder,
        f"damaged cache {folder}: {what}; remove the folder (rm -rf {shlex.quote(folder)}) and load again to rebuild "
        "it",
    )


def undecodable(folder: str | os.PathLike, error: BaseException) -> CacheError:
    """The error for a cache whose rows no longer decode (bytes altered in place, e.g. a flipped bit: same
    size, so not caught on open): what failed, the ``himga verify`` line that checks every cache, and the
    command that clears this one."""
    what = str(error).splitlines()[0][:160] if str(error) else ""
    return damaged(
        folder,
        f"its rows no longer decode ({type(error).__name__}: {what}): its bytes changed after the build "
        "(`himga verify` checks every cache)",
    )


def file_hash(path: str | os.PathLike) -> str:
    """The :data:`HASH` of a file's bytes, as 16 hex digits, read in 1 MiB chunks."""
    digest = xxhash.xxh3_64()
    buffer = bytearray(_CHUNK)
    view = memoryview(buffer)
    with open(path, "rb", buffering=0) as f:
        while n := f.readinto(buffer):
            digest.update(view[:n])
    return digest.hexdigest()


def record(folder: str | os.PathLike) -> Path:
    """Write :data:`MANIFEST` for every regular file of ``folder`` (size in bytes, :data:`HASH`).

    Called by the builders once ``datasets`` has written the Arrow files and ``dataset_info.json`` into
    the build's ``.incomplete`` folder, before it is renamed into place.

    Returns:
        The manifest's path.
    """
    folder = Path(folder)
    files = {}
    for path in sorted(folder.iterdir()):
        if path.name != MANIFEST and path.is_file():
            files[path.name] = {"size": path.stat().st_size, HASH: file_hash(path)}
    target = folder / MANIFEST
    tmp = folder / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps({"hash": HASH, "files": files}, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, target)
    return target


def _read_manifest(folder: Path) -> dict[str, dict] | str:
    """The ``files`` of ``folder``'s manifest, or what is wrong with it (a ``str``)."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        files = manifest["files"]
        if manifest["hash"] != HASH or not all(
            isinstance(v["size"], int) and isinstance(v[HASH], str) for v in files.values()
        ):
            raise ValueError(f"unknown hash {manifest['hash']!r}, or an entry without size and hash")
    except FileNotFoundError:
        return f"{MANIFEST} is missing (built by an older himga, or removed)"
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:  # unreadable, not JSON, wrong shape
        return f"{MANIFEST} is unreadable ({type(e).__name__}: {e})"
    return files


def _file_problem(folder: Path, name: str, entry: dict) -> str | None:
    """What is wrong with file ``name`` of ``folder`` against its manifest ``entry`` (``stat`` only), or ``None``:
    the one wording of an open (:func:`check_sizes`) and of :func:`verify`."""
    try:
        found = (folder / name).stat()
    except FileNotFoundError:
        return f"{name} is missing"
    if not stat.S_ISREG(found.st_mode):
        return f"{name} is a folder, not a file" if stat.S_ISDIR(found.st_mode) else f"{name} is not a regular file"
    if found.st_size != entry["size"]:
        return f"{name} has {found.st_size:,} bytes, {entry['size']:,} when it was built"
    return None


def check_sizes(folder: str | os.PathLike) -> None:
    """Check that every file listed in ``folder``'s manifest exists with its recorded size (``stat`` only).

    Raises:
        CacheError: the manifest is missing or unreadable, or a file (``dataset_info.json`` included) is missing,
            is no regular file, or has another size.
    """
    folder = Path(folder)
    files = _read_manifest(folder)
    if isinstance(files, str):
        raise damaged(folder, files)
    for name, entry in files.items():
        if (problem := _file_problem(folder, name, entry)) is not None:
            raise damaged(folder, problem)


def check_rows(folder: str | os.PathLike, split: str, rows: int, expected: int | None) -> None:
    """Check that ``rows`` rows were read for ``split`` (a split or a slice such as ``test[:3]``), as
    the split sizes recorded in ``dataset_info.json`` say (``expected``).

    Raises:
        CacheError: the counts differ.
    """
    if expected is not None and rows != expected:
        raise damaged(folder, f"split {split!r} has {rows:,} rows, {expected:,} according to {INFO_FILE}")


def _arrow_rows(path: Path) -> int:
    import pyarrow as pa

    with pa.memory_map(str(path)) as source:
        return sum(batch.num_rows for batch in pa.ipc.open_stream(source))


def verify(folder: str | os.PathLike) -> list[str]:
    """Verify a cache folder completely: every file's size and hash, and the rows of every split.

    Reads every byte of the cache once (hashing) and walks the record batches of each Arrow file
    (memory-mapped). Writes nothing, so it works on a read-only cache.

    Args:
        folder: A cache folder (the one holding ``dataset_info.json``).

    Returns:
        The problems found, one sentence each (``[]``: the cache is intact).
    """
    from datasets.naming import filenames_for_dataset_split

    folder = Path(folder)
    files = _read_manifest(folder)
    if isinstance(files, str):
        return [files]
    problems = []
    for name, entry in files.items():
        if (problem := _file_problem(folder, name, entry)) is not None:
            problems.append(problem)
        elif (actual := file_hash(folder / name)) != entry[HASH]:
            problems.append(f"{name}: {HASH} {actual}, {entry[HASH]} when it was built (bytes altered)")
    if problems:
        return problems
    try:
        info = json.loads((folder / INFO_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        return [f"{INFO_FILE} is unreadable ({type(e).__name__}: {e})"]
    for split, split_info in (info.get("splits") or {}).items():
        paths = filenames_for_dataset_split(
            folder, info["dataset_name"], split, "arrow", split_info.get("shard_lengths")
        )
        try:
            rows = sum(_arrow_rows(Path(p)) for p in paths)
        except (OSError, ValueError) as e:  # pyarrow: ArrowInvalid is a ValueError, a cut message an OSError
            problems.append(f"split {split!r}: unreadable Arrow data ({type(e).__name__}: {e})")
            continue
        if rows != split_info["num_examples"]:
            problems.append(
                f"split {split!r} has {rows:,} rows, {split_info['num_examples']:,} according to {INFO_FILE}"
            )
    return problems


def find_caches(root: str | os.PathLike, names: Iterable[str]) -> list[Path]:
    """The complete himga cache folders under a ``datasets`` cache root, sorted.

    Args:
        root: A ``datasets`` cache folder (``$HF_DATASETS_CACHE`` or a ``--cache-dir``).
        names: Builder names (``"locomo"``, ``"longmemeval"``): ``datasets`` keeps their caches in
            ``<root>/<name>/<config-id>/<version>/<hash>/``.

    Returns:
        Every such folder that holds a manifest, or a ``dataset_info.json`` that is not another builder's
        (``.incomplete`` builds excluded): ``datasets`` keeps the caches of a folder it loads, such as an export
        named ``realtalk``, under the same ``<root>/realtalk/`` with ``"builder_name": "parquet"``; those are not
        himga's, and are left out.
    """
    root = Path(root)
    found = set()
    for name in names:
        for marker in (INFO_FILE, MANIFEST):
            found.update(
                p.parent for p in root.glob(f"{name}/*/*/*/{marker}") if not p.parent.name.endswith(".incomplete")
            )
    return sorted(
        folder
        for folder in found
        if (folder / MANIFEST).is_file() or _builder_name(folder) in (None, folder.parents[2].name)
    )


def _builder_name(folder: Path) -> str | None:
    """The ``builder_name`` recorded in ``folder``'s ``dataset_info.json``, ``None`` when it cannot be read (a damaged
    cache stays in :func:`find_caches`, for :func:`verify` to report)."""
    try:
        name = json.loads((folder / INFO_FILE).read_text(encoding="utf-8")).get("builder_name")
    except (OSError, ValueError, AttributeError):
        return None
    return name if isinstance(name, str) else None


def find_incomplete(root: str | os.PathLike, names: Iterable[str]) -> list[Path]:
    """The ``<hash>.incomplete`` folders under a ``datasets`` cache root, sorted: what a build killed before its end
    (SIGKILL, a crash, power loss) leaves, or a build still running. Nothing reads them; ``datasets`` builds the same
    inputs into the same folder again and removes it.

    Args:
        root: A ``datasets`` cache folder.
        names: Builder names, as for :func:`find_caches`.
    """
    root = Path(root)
    return sorted(p for name in names for p in root.glob(f"{name}/*/*/*.incomplete") if p.is_dir())
