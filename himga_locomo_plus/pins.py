"""LoCoMo-Plus's pinned source: ``data/`` of xjtuleeyf/Locomo-Plus at a commit (its ``locomo_plus.json`` and its copy
of LoCoMo's ``locomo10.json``).

Imports no builder (and so no ``datasets``): the catalogue entry's pins (``himga sources``) are read from here, and
the builder's config returns the same object (:meth:`himga_locomo_plus.locomo_plus.LocomoPlusConfig.remote_file`).
"""

from __future__ import annotations

from himga.sources import RemoteFile, listing_sha256
from himga_locomo import pins as locomo_pins

__all__ = ["LOCOMO_COPY", "PIN", "RELEASE", "pins"]

#: xjtuleeyf/Locomo-Plus ``data/``, pinned to a commit.
# Confirmed 2026-12-03 in a snapshot of github.com/xjtuleeyf/Locomo-Plus at 059f4e3 ("Update README.md", the main
# branch's head): `git show 059f4e3:data/locomo_plus.json` = 305737 bytes, sha256 af2fc6e5...3d23 (last changed in
# 143cdeb, 2026-02-11); its data/locomo10.json (2805274 bytes, sha256 79fa87e9...8ff4) is byte-identical to LoCoMo's
# pinned file. No licence file at 059f4e3, none in the README.
_REPO = "xjtuleeyf/Locomo-Plus"
_REVISION = "059f4e3d38f7f1f96765e8e2cb7de3097551bffb"
_EVIDENCE = "revision, size and sha256 confirmed 2026-12-03 in a snapshot of github.com/xjtuleeyf/Locomo-Plus"


def _pin(name: str, sha256: str, size: int, rows: int, content: str, **fields) -> RemoteFile:
    path = f"data/{name}"
    return RemoteFile(
        name,
        f"https://raw.githubusercontent.com/{_REPO}/{_REVISION}/{path}",
        sha256,
        revision=_REVISION,
        size=size,
        path=path,
        repo=_REPO,
        rows=rows,
        licence=None,
        evidence=_EVIDENCE,
        content_sha256=content,
        layout_path=path,
        **fields,
    )


#: The cognitive items, ``data/locomo_plus.json``.
PIN = _pin(
    "locomo_plus.json",
    "af2fc6e5e0e88735e28d8dd1ef474b718861a73beb21779809e3b9e1a4fe3d23",
    305_737,
    401,
    "f7427b65af32c2d8caa178903c42f2d14e66d27abe3b841f81f08b0f80414c69",
)
#: Its ``data/locomo10.json``: LoCoMo's pinned file byte for byte (:data:`himga_locomo.pins.PIN`'s size, sha256,
#: content fingerprint and content tree), at Locomo-Plus's commit.
LOCOMO_COPY = _pin(
    locomo_pins.PIN.filename,
    locomo_pins.PIN.sha256,
    locomo_pins.PIN.size,
    locomo_pins.PIN.rows,
    locomo_pins.PIN.content_sha256,
    content_tree=locomo_pins.PIN.content_tree,
)
#: The pinned source: both files of upstream's ``data/`` (sha256 of their listing: ``find data -maxdepth 1 -name
#: '*.json' | LC_ALL=C sort | xargs sha256sum | sha256sum`` in a checkout at :data:`_REVISION`), found in the
#: repository's
#: layout (a checkout is one) or downloaded file by file (:func:`himga.sources.pinned_files`). No licence is stated
#: upstream (``licence`` is ``None``, as BEAM's); LoCoMo, which it redistributes, is CC BY-NC 4.0.
RELEASE = RemoteFile(
    "data",
    f"https://github.com/{_REPO}/tree/{_REVISION}/data",
    listing_sha256([{"path": p.path, "sha256": p.sha256} for p in (LOCOMO_COPY, PIN)]),
    revision=_REVISION,
    size=LOCOMO_COPY.size + PIN.size,
    path="data",
    repo=_REPO,
    rows=LOCOMO_COPY.rows + PIN.rows,
    licence=None,
    evidence=_EVIDENCE,
    parts=(LOCOMO_COPY, PIN),
)


def pins() -> dict[str, RemoteFile]:
    """Config name → its pinned source: ``{"default": RELEASE}`` (:attr:`himga.entry.Benchmark.pinned`)."""
    return {"default": RELEASE}
