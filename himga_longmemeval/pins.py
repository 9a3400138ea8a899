"""LongMemEval's pinned sources: one file per config, in the authors' Hugging Face dataset repositories at a revision.

Imports no builder (and so no ``datasets``): the catalogue entry's pins (``himga sources``) are read from here, and
each builder config returns its own (:meth:`himga_longmemeval.longmemeval.LongmemevalConfig.remote_file`).
"""

from __future__ import annotations

from himga.sources import RemoteFile

__all__ = ["LICENCE", "pins"]

#: The repositories' licence (their dataset cards): MIT.
LICENCE = "mit"

# The Hub cannot be reached from the machines this was written on, so none of these was confirmed against
# the Hub itself. Each value below is one that independent users of these files publish in their own code
# (found 2026-12-01 with a search of public GitHub code for the revision and for each sha256); how many
# independent pins agree is stated per value. A value nobody publishes is None (the file is then downloaded
# at the pinned revision without a sha256 check; `himga sources --check` shows the remote's sha256).
# Cleaned repo revision 98d7416c: 5+ independent pins (resolve/98d7416c.../<file> URLs).
_CLEANED_REPO = "xiaowu0162/longmemeval-cleaned"
_CLEANED_REVISION = "98d7416c24c778c2fee6e6f3006e7a073259d48f"
# Original repo revision 2ec2a557: 5+ independent pins; one cites the Hub API `sha` (lastModified 2025-09-19).
_ORIGINAL_REPO = "xiaowu0162/longmemeval"
_ORIGINAL_REVISION = "2ec2a557f339b6c0369619b1ed5793734cc87533"
# Oracle: 15,388,478 bytes, sha256 821a2034...; 5+ independent pins at the cleaned revision; one pin states
# the original repo's `longmemeval_oracle` is the same file (the 2025-09 cleaning changed only S/M haystacks).
_ORACLE_SHA256 = "821a2034d219ab45846873dd14c14f12cfe7776e73527a483f9dac095d38620c"
_ORACLE_SIZE = 15_388_478
_EVIDENCE = "unconfirmed against the Hub (unreachable here): as pinned by independent public code, searched 2026-12-01"


def _pin(
    filename: str,
    sha256: str | None,
    size: int | None,
    *,
    repo_id: str = _CLEANED_REPO,
    revision: str = _CLEANED_REVISION,
) -> RemoteFile:
    url = f"https://huggingface.co/datasets/{repo_id}/resolve/{revision}/{filename}"
    return RemoteFile(
        filename,
        url,
        sha256,
        repo_id=repo_id,
        revision=revision,
        size=size,
        rows=500,
        licence=LICENCE,
        evidence=_EVIDENCE if sha256 else f"{_EVIDENCE}; size and sha256 unknown",
    )


_ORIGINAL = {"repo_id": _ORIGINAL_REPO, "revision": _ORIGINAL_REVISION}

#: Config name → its file, in builder order.
PINS: dict[str, RemoteFile] = {
    # S cleaned: 277,383,467 bytes, sha256 d6f21ea9...; 5+ independent pins (one takes it from the Hub's LFS pointer).
    "s": _pin(
        "longmemeval_s_cleaned.json", "d6f21ea9d60a0d56f34a05b609c79c88a451d2ae03597821ea3d5a9678c3a442", 277_383_467
    ),
    # M cleaned: 2,737,100,077 bytes, sha256 9d79e552...; 5+ independent pins (one from the Hub's LFS metadata,
    # one after a verified download).
    "m": _pin(
        "longmemeval_m_cleaned.json", "9d79e5524794a2e6900a3aa9cb7d9152c5a3e8319c9a87c25494ba1eacee495f", 2_737_100_077
    ),
    "oracle": _pin("longmemeval_oracle.json", _ORACLE_SHA256, _ORACLE_SIZE),
    # S original: 278,025,796 bytes, sha256 08d8dad4...; 5+ independent pins.
    "s_original": _pin(
        "longmemeval_s", "08d8dad4be43ee2049a22ff5674eb86725d0ce5ff434cde2627e5e8e7e117894", 278_025_796, **_ORIGINAL
    ),
    # M original: size and sha256 unknown (no public pin found).
    "m_original": _pin("longmemeval_m", None, None, **_ORIGINAL),
    "oracle_original": _pin("longmemeval_oracle", _ORACLE_SHA256, _ORACLE_SIZE, **_ORIGINAL),
}


def pins() -> dict[str, RemoteFile]:
    """Config name → its pinned source file, in builder order (:attr:`himga.entry.Benchmark.pinned`)."""
    return dict(PINS)
