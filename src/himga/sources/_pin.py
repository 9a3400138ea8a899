"""One pinned source file (or a pin of several), :class:`RemoteFile`, and the sha256 of a listing of files."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

__all__ = ["RemoteFile", "listing_sha256"]


@dataclass(frozen=True)
class RemoteFile:
    """One pinned source file.

    Attributes:
        filename: The local file name (for Hub files: the file's name in the repository).
        url: Where to fetch it (a revision-pinned URL).
        sha256: The expected checksum (hex), or ``None`` where none is pinned.
        repo_id: A Hugging Face *dataset* repository: when set, the file is fetched with
            ``huggingface_hub.hf_hub_download`` (its auth, offline mode and retries) instead of ``url``.
        revision: The pinned revision (full commit SHA) of the source repository.
        size: The file's size in bytes, or ``None`` where unknown.
        path: The file's path inside the repository (default: ``filename``).
        repo: The source repository as ``owner/name`` (default: ``repo_id``), for display.
        licence: The licence of the data (an SPDX-like id, e.g. ``"cc-by-nc-4.0"``).
        evidence: Where and when revision, size and sha256 were confirmed (or that they are not).
        rows: The rows a build of this file makes (LoCoMo: 10 samples; LongMemEval: 500 questions), the
            total of the build's progress bar; ``None`` where unknown.
        content_sha256: The content fingerprint of the file's parsed JSON (:mod:`himga.sources._content`), or ``None``.
        content_tree: A JSON file holding the file's content tree (:func:`himga.sources._content.content_tree`), which
            locates where a copy's content differs; or ``None``.
        layout_path: Where the file sits in a source folder laid out as its repository is
            (``chats/100K/1/chat.json``); ``None``: at the folder's top level, as ``filename``.
        parts: A pin of several files (a release of many files, BEAM's tier ``chats/100K``): its files, each a pin
            with a ``layout_path``. Such a pin is the folder ``filename`` (its repository path), ``size`` is the
            parts' total, ``rows`` the rows of the whole, and ``sha256`` the sha256 of the parts' ``sha256sum``
            listing (``"<sha256>  <layout_path>\n"`` per part, sorted by path: ``LC_ALL=C sort``), which standard
            tools reproduce; it is never downloaded itself (:func:`pinned_files`).
    """

    filename: str
    url: str
    sha256: str | None
    repo_id: str | None = None
    revision: str | None = None
    size: int | None = None
    path: str | None = None
    repo: str | None = None
    licence: str | None = None
    evidence: str | None = None
    rows: int | None = None
    content_sha256: str | None = None
    content_tree: str | None = None
    layout_path: str | None = None
    parts: tuple[RemoteFile, ...] = ()

    @property
    def files(self) -> tuple[RemoteFile, ...]:
        """The single files this pin stands for: its :attr:`parts`, or itself."""
        return self.parts or (self,)

    @property
    def local_path(self) -> str:
        """Where the file is found (and downloaded to) in its source folder: :attr:`layout_path`, else ``filename``."""
        return self.layout_path or self.filename

    @property
    def repo_path(self) -> str:
        """The file's path inside its repository."""
        return self.path or self.filename

    @property
    def origin(self) -> str:
        """``owner/name@<7-digit revision>``, e.g. ``snap-research/locomo@3eb6f2c``."""
        repo = self.repo or self.repo_id or self.url
        return f"{repo}@{self.revision[:7]}" if self.revision else repo

    @property
    def local_names(self) -> list[str]:
        """The names a local copy of this file may have: ``filename``, then with (or without) ``.json``.

        The one rule for "does this file name belong to this pin" (the builders' source rules, export's
        config labels, ``himga sources``' local copies; :meth:`himga.catalog.Benchmark.configs_named`).
        """
        if self.parts:  # a folder of files: no single file carries its name
            return []
        stem = self.filename.removesuffix(".json")
        return [self.filename, stem] if self.filename.endswith(".json") else [self.filename, f"{stem}.json"]

    def accepts_name(self, name: str) -> bool:
        """Whether a local file called ``name`` carries this pin's name (see :attr:`local_names`)."""
        return name in self.local_names

    def accepts(self, path: str | Path) -> bool:
        """Whether the local file ``path`` carries this pin's name: :meth:`accepts_name`, and for a file of a
        layout (:attr:`layout_path`) a path ending in that layout path (``.../chats/100K/1/chat.json``)."""
        path = Path(path)
        if not self.accepts_name(path.name):
            return False
        if self.layout_path is None:
            return True
        tail = Path(self.layout_path).parts
        return path.parts[-len(tail) :] == tail

    def shown_name(self, path: str | Path) -> str:
        """``path`` as messages name it: its layout path when it is this pin's file of a layout, else its base name."""
        return self.layout_path if self.layout_path is not None and self.accepts(path) else Path(path).name


def listing_sha256(entries: list[dict]) -> str:
    """The sha256 of the ``sha256sum`` listing of ``entries`` (``{"path", "sha256"}``; ``"<sha256>  <path>\\n"`` each,
    sorted by path): the :attr:`RemoteFile.sha256` of a pin of several files, which standard tools reproduce in a
    checkout, e.g. ``find chats/100K -name '*.json' | LC_ALL=C sort | xargs sha256sum | sha256sum`` (BEAM) or
    ``find data -maxdepth 1 -name '*.json' | LC_ALL=C sort | xargs sha256sum | sha256sum`` (REALTALK)."""
    listing = "".join(f"{e['sha256']}  {e['path']}\n" for e in sorted(entries, key=lambda e: e["path"]))
    return hashlib.sha256(listing.encode()).hexdigest()
