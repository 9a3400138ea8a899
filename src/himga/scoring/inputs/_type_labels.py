"""A question type copied in another harness's labels: which known label map a run's records used.

A loop may copy each QA pair's type in its harness's own names: MIRIX and mem0 write LoCoMo's categories as
``"Multi-Hop"``, ``"Open Domain"``, and ``load_locomo(category_order="seed")`` gives the seed's names. That is not stale
gold: the copy is accepted when every such record's label is its question's category under one known map (a map per
label set the field uses), and the map is named; otherwise the records are refused as copies that differ.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence

__all__ = ["label_key", "matching_map"]


def label_key(label: object) -> str:
    """A label as maps compare it: lower case, runs of spaces, hyphens and underscores as one ``_`` (``"Open Domain"``
    and ``"open-domain"`` are ``open_domain``)."""
    return re.sub(r"[\s_-]+", "_", str(label).strip().lower())


def matching_map(
    pairs: Sequence[tuple[Hashable, object]], maps: Mapping[str, Mapping[Hashable, str]]
) -> tuple[str | None, list[int]]:
    """The known map the ``(category, copied label)`` pairs were written in, and the pairs it does not explain.

    Args:
        pairs: Each record's question category and the label it copied.
        maps: Known label maps, name → category → label, in the order tried (the first of equal fit wins).

    Returns:
        ``(name, indices of the pairs whose label is not their category's under that map)`` for the map that explains
        the most pairs (``[]``: all of them), or ``(None, every index)`` when no map explains any.
    """
    best: tuple[int, str | None, list[int]] = (0, None, list(range(len(pairs))))
    for name, labels in maps.items():
        wanted = {category: label_key(label) for category, label in labels.items()}
        misses = [i for i, (category, label) in enumerate(pairs) if wanted.get(category) != label_key(label)]
        if len(pairs) - len(misses) > best[0]:
            best = (len(pairs) - len(misses), name, misses)
    return best[1], best[2]
