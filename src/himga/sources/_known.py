"""The source folders the catalogue knows: each benchmark's, and the folders of its other pinned files, registered by
the catalogue's entries as they are made (:class:`himga.entry.Benchmark`), for the messages of this package.

Nothing here looks a benchmark up: a message lists what was registered.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["KnownFolder", "benchmark_names", "known_folders", "option_for", "order_folders", "register_folders"]


@dataclass(frozen=True)
class KnownFolder:
    """One pinned file of a benchmark that is not its data (LoCoMo's errata, the probe's files).

    Attributes:
        folder: The folder it is found in under ``$HIMGA_DATASETS_ROOT`` and ``$HIMGA_CACHE`` (``"locomo-audit"``).
        pin: Its pin (a :class:`~himga.sources.RemoteFile`).
        option: The option that names a copy of one's own (``"--errata / errata="``), or ``None``.
    """

    folder: str
    pin: object
    option: str | None


_BENCHMARKS: dict[str, tuple[KnownFolder, ...]] = {}


def register_folders(name: str, auxiliary: tuple[KnownFolder, ...] = ()) -> None:
    """Record benchmark ``name`` (its folder is ``<root>/<name>``) and the folders of its other pinned files."""
    _BENCHMARKS.setdefault(name, tuple(auxiliary))


def order_folders(names: tuple[str, ...]) -> None:
    """List the benchmarks ``names`` first, in that order (the catalogue's order, which its messages keep whatever
    order the folders were imported in)."""
    ordered = {name: _BENCHMARKS[name] for name in names if name in _BENCHMARKS}
    ordered.update(_BENCHMARKS)
    _BENCHMARKS.clear()
    _BENCHMARKS.update(ordered)


def benchmark_names() -> tuple[str, ...]:
    """The benchmarks registered: the catalogue's, in its order (:func:`order_folders`), then any other."""
    return tuple(_BENCHMARKS)


def known_folders() -> list[str]:
    """Every folder a datasets root may hold: each benchmark's, then the other pinned files' (each once)."""
    return list(dict.fromkeys([*_BENCHMARKS, *(a.folder for found in _BENCHMARKS.values() for a in found)]))


def option_for(folder: str, remote) -> str | None:
    """The option that names a file of one's own for ``remote`` in ``folder``: ``--data-dir / data_dir=`` for a
    benchmark's data, the auxiliary file's own option (LoCoMo's errata: ``--errata / errata=``), ``None`` for one
    without (the leniency probe's files: found in their folder only)."""
    for found in _BENCHMARKS.values():
        for known in found:
            if known.folder == folder and (known.pin == remote or remote in known.pin.files):
                return known.option
    return "--data-dir / data_dir="
