"""LoCoMo's pinned source, ``data/locomo10.json`` of snap-research/LoCoMo at a commit.

Imports no builder (and so no ``datasets``): the catalogue entry's pins (``himga sources``) are read from here, and
the builder's configs return the same object (:meth:`himga_locomo.locomo.LocomoConfig.remote_file`).
"""

from __future__ import annotations

from pathlib import Path

from himga.sources import RemoteFile

__all__ = ["LICENCE", "PIN", "pins"]

#: LICENSE.txt at the pinned commit: CC BY-NC 4.0.
LICENCE = "cc-by-nc-4.0"

#: snap-research/LoCoMo, pinned to a commit; the file's sha256 is checked on download.
# Confirmed 2026-12-01 in a clone of github.com/snap-research/LoCoMo (its main branch is this commit,
# "Updated Readme", 2024-08-12): `git cat-file -s 3eb6f2c:data/locomo10.json` = 2805274 and the blob's
# sha256 = 79fa87e9...ff4; data/locomo10.json was added in cbfbc1d (2024-08-09) and is byte-identical up to
# 3eb6f2c. The previous pin, 9228632 ("Code commit", 2024-08-07, branch `code`), has data/locomo10.zip only.
# Licence: LICENSE.txt at 3eb6f2c is CC BY-NC 4.0.
_REPO = "snap-research/locomo"
_REVISION = "3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376"
_PATH = "data/locomo10.json"
_URL = f"https://raw.githubusercontent.com/{_REPO}/{_REVISION}/{_PATH}"
_FILENAME = "locomo10.json"
_SIZE = 2_805_274
_SHA256 = "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"
_EVIDENCE = "revision, size and sha256 confirmed 2026-12-01 in a clone of github.com/snap-research/LoCoMo"
#: The content fingerprint of that file (himga.sources._content: sha256 of its parsed JSON in canonical form) and its
#: content tree (depth 3: records, their keys, each QA pair / session / summary), measured on the pinned file;
#: tests/sources/test_content.py checks both against it.
_CONTENT_SHA256 = "93808652e5318eaf79a966a7aa3fe50f14eaee22fd0991f7212596600351dc05"
_CONTENT_TREE = str(Path(__file__).with_name("locomo10.content.json"))

#: The pinned ``locomo10.json`` (every config's source; LoCoMo-Plus reads the same file).
PIN = RemoteFile(
    _FILENAME,
    _URL,
    _SHA256,
    revision=_REVISION,
    size=_SIZE,
    path=_PATH,
    repo=_REPO,
    rows=10,
    licence=LICENCE,
    evidence=_EVIDENCE,
    content_sha256=_CONTENT_SHA256,
    content_tree=_CONTENT_TREE,
)


def pins() -> dict[str, RemoteFile]:
    """Config name → its pinned source: ``{"default": PIN}`` (:attr:`himga.entry.Benchmark.pinned`)."""
    return {"default": PIN}
