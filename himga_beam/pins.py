"""BEAM's pinned sources, one per tier: ``chats/<tier>`` of mohammadtavakoli78/BEAM at a commit (100K, 500K), or the
Hugging Face copy the README names, not confirmed (1M, 10M).

Imports no builder (and so no ``datasets``): the catalogue entry's pins (``himga sources``) and its release ids are
read from here, and each builder config returns its own pin (:meth:`himga_beam.beam.BeamConfig.remote_file`).
"""

from __future__ import annotations

from himga.sources import RemoteFile
from himga_beam import manifest
from himga_beam.layout import sample_id_of

__all__ = ["TIER_CHATS", "UNCONFIRMED", "pins", "release_sample_ids", "tier_source"]

#: Tier → chats of its full release, in builder order (the card's and the progress bar's total).
TIER_CHATS: dict[str, int] = {"100K": 20, "500K": 35, "1M": 35, "10M": 10}

# 100K and 500K: every file is in mohammadtavakoli78/BEAM at manifest.REVISION (sizes and sha256 in the generated
# manifest, himga_beam/beam.manifest.json; how it was confirmed and regenerated: himga_beam/manifest.py).
# 1M and 10M: their chat.json blobs are not in that repository's snapshot; the tiers are complete only on the Hugging
# Face copies the README names (Mohammadta/BEAM, Mohammadta/BEAM-10M), as Parquet rows, not in this layout, and
# no revision of them was confirmed here: no pin, like LongMemEval's m_original; a local copy in the layout is read.
_HUB = {"1M": "Mohammadta/BEAM", "10M": "Mohammadta/BEAM-10M"}
#: Why the 1M and 10M tiers have no revision.
UNCONFIRMED = "not yet confirmed: the Hugging Face copy could not be reached from the machines this was written on"


def tier_source(tier: str) -> RemoteFile:
    """The pin of ``tier``: ``chats/<tier>`` with its files as parts (:func:`himga_beam.manifest.tier_pin`), or, for a
    tier not in the repository, the Hugging Face copy, marked not confirmed (no revision, no sha256).

    Raises:
        KeyError: ``tier`` is no tier of :data:`TIER_CHATS`.
    """
    chats = TIER_CHATS[tier]
    if tier in manifest.TIERS:
        return manifest.tier_pin(tier, chats)
    repo = _HUB[tier]
    return RemoteFile(
        f"chats/{tier}",
        f"https://huggingface.co/datasets/{repo}",
        None,
        repo=repo,
        path=f"chats/{tier}",
        licence=None,
        rows=chats,
        evidence=UNCONFIRMED,
    )


def pins() -> dict[str, RemoteFile]:
    """Tier → its pin, in builder order (:attr:`himga.entry.Benchmark.pinned`)."""
    return {tier: tier_source(tier) for tier in TIER_CHATS}


def release_sample_ids() -> dict[str, str]:
    """``{sample_id: tier}`` of every chat of every tier's full release (chats numbered from 1): ``"500K-35"`` →
    ``"500K"``. What :attr:`himga.entry.Benchmark.release_ids` returns, to say that a record answers another tier."""
    return {sample_id_of(tier, str(n)): tier for tier, chats in TIER_CHATS.items() for n in range(1, chats + 1)}
