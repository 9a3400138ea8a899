"""The pins of the tiers that are complete on GitHub: one generated manifest of paths, sizes and sha256.

``beam.manifest.json`` (package data beside this module) lists every file the ``100K`` and ``500K`` configs
read, as mohammadtavakoli78/BEAM holds them at :data:`REVISION`: per chat ``chats/<tier>/<n>/chat.json`` and
``chats/<tier>/<n>/probing_questions/probing_questions.json``, with size and sha256. :func:`tier_pin` turns
a tier's entries into one :class:`himga.sources.RemoteFile` whose ``parts`` are the files.

Regenerate it from a checkout of the repository at that commit (or a copy of its ``chats/`` folder)::

    git -C BEAM checkout b2a3ee8ba12d68f83143dda191097dc3e028ddd3
    python -m himga_beam.manifest BEAM > himga_beam/beam.manifest.json

Confirmed 2026-12-03: the 110 files of ``../shared/data/beam/chats`` have the git blob ids of that commit's
tree (``git hash-object`` = ``git ls-tree``), and the manifest was written from them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from functools import cache
from pathlib import Path

from himga.sources import RemoteFile, listing_sha256

__all__ = [
    "MANIFEST",
    "RAW_BASE",
    "REPOSITORY",
    "REVISION",
    "TIERS",
    "listing_sha256",
    "main",
    "manifest_entries",
    "read_manifest",
    "tier_pin",
]

REPOSITORY = "mohammadtavakoli78/BEAM"
REVISION = "b2a3ee8ba12d68f83143dda191097dc3e028ddd3"
#: The tiers whose every file is in the repository at :data:`REVISION` (1M and 10M chats are not).
TIERS = ("100K", "500K")
MANIFEST = Path(__file__).with_name("beam.manifest.json")
CHAT_FILE = "chat.json"
QUESTIONS_FILE = "probing_questions/probing_questions.json"
_EVIDENCE = (
    "revision, sizes and sha256 confirmed 2026-12-03: the files of a copy of the repository's chats/ folder have the "
    "git blob ids of commit b2a3ee8's tree; manifest himga_beam/beam.manifest.json"
)


def _chat_number(folder: Path) -> tuple[int, str]:
    return (int(folder.name), folder.name) if folder.name.isdigit() else (sys.maxsize, folder.name)


def manifest_entries(root: str | Path, tiers: tuple[str, ...] = TIERS) -> list[dict]:
    """``{"path", "size", "sha256"}`` of each source file of ``tiers`` under ``root`` (a checkout), sorted by path.

    Raises:
        FileNotFoundError: a chat folder without one of its two files.
    """
    root = Path(root)
    entries = []
    for tier in tiers:
        for chat in sorted((p for p in (root / "chats" / tier).iterdir() if p.is_dir()), key=_chat_number):
            for name in (CHAT_FILE, QUESTIONS_FILE):
                path = chat / name
                data = path.read_bytes()
                entries.append(
                    {
                        "path": path.relative_to(root).as_posix(),
                        "size": len(data),
                        "sha256": hashlib.sha256(data).hexdigest(),
                    }
                )
    return sorted(entries, key=lambda e: e["path"])


@cache
def read_manifest() -> dict:
    """The committed manifest: ``{"repository", "revision", "files": [{"path", "size", "sha256"}, ...]}``."""
    return json.loads(MANIFEST.read_text(encoding="utf-8"))


#: Where the pinned files are downloaded from (raw files of the repository at :data:`REVISION`).
RAW_BASE = "https://raw.githubusercontent.com"


def _url(path: str) -> str:
    return f"{RAW_BASE}/{REPOSITORY}/{REVISION}/{path}"


def tier_pin(tier: str, chats: int) -> RemoteFile:
    """The pin of tier ``tier`` (a folder ``chats/<tier>`` of ``chats`` chats): its files from the manifest as
    ``parts``.

    Raises:
        KeyError: the manifest holds no file of ``tier``.
    """
    manifest = read_manifest()
    entries = [e for e in manifest["files"] if e["path"].startswith(f"chats/{tier}/")]
    if not entries:
        raise KeyError(tier)
    parts = tuple(
        RemoteFile(
            Path(e["path"]).name,
            _url(e["path"]),
            e["sha256"],
            revision=manifest["revision"],
            size=e["size"],
            path=e["path"],
            repo=manifest["repository"],
            licence=None,
            evidence=_EVIDENCE,
            layout_path=e["path"],
        )
        for e in sorted(
            entries,
            key=lambda e: (
                _chat_number(
                    Path(e["path"]).parent.parent if e["path"].endswith(QUESTIONS_FILE) else Path(e["path"]).parent
                ),
                e["path"],
            ),
        )
    )
    folder = f"chats/{tier}"
    return RemoteFile(
        folder,
        f"https://github.com/{manifest['repository']}/tree/{manifest['revision']}/{folder}",
        listing_sha256(entries),
        revision=manifest["revision"],
        size=sum(e["size"] for e in entries),
        path=folder,
        repo=manifest["repository"],
        licence=None,
        evidence=_EVIDENCE,
        rows=chats,
        parts=parts,
    )


def main(argv: list[str] | None = None) -> int:
    """``python -m himga_beam.manifest ROOT``: print the manifest of ``ROOT``'s 100K and 500K chats (JSON)."""
    parser = argparse.ArgumentParser(prog="python -m himga_beam.manifest", description=__doc__.splitlines()[0])
    parser.add_argument("root", help=f"a checkout of {REPOSITORY} at {REVISION} (or a copy of its chats/ folder)")
    args = parser.parse_args(argv)
    manifest = {"repository": REPOSITORY, "revision": REVISION, "files": manifest_entries(args.root)}
    sys.stdout.write(json.dumps(manifest, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
