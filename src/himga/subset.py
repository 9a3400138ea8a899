"""Subsets anyone can re-draw: ``himga subset`` and the rule behind it.

**The draw** (:func:`draw`). Every item (a scored QA pair, id from :func:`himga.schema.ids.item_id`) gets the
rank ``sha256("<seed>:<id>")`` (hex digest, compared as text, ties by id); the subset is the ``n`` items of
lowest rank. No ``random`` module, no set or hash order: the same ids on every machine, Python version and
``PYTHONHASHSEED``.

**Stratified** (``stratify="question_type"``, and/or ``keep_abstention=True``): the items are split into
strata, and each stratum of ``N_s`` of the ``N`` items gets the quota ``floor(n * N_s / N)``; the
``n - sum(floors)`` items left go one each to the strata with the largest remainders ``n * N_s mod N``
(ties: the stratum name that sorts first): the *largest remainder* (Hamilton) method. With
``keep_abstention``, ``n`` is first split so between abstention and answerable questions, then each
part's quota between its question types (with ``stratify``). Each stratum takes its quota of
lowest-rank items.

**Excluded questions** (``exclude_category``, ``exclude_type``): left out before the draw, as papers leave out
LoCoMo's adversarial category 5 (1,540 of its 1,986 questions remain); the rule above then runs on the rest.

**The fingerprint** (:func:`fingerprint`): sha256 of the sorted ids, one per line (``"\\n"``-terminated),
an empty line, then the sorted sha256 of each source file the build read, one per line. Two subsets with
the same fingerprint hold the same ids of the same bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from himga.errors import ConfigurationError
from himga.run import fingerprint, source_hashes
from himga.schema.ids import item_id

__all__ = ["Item", "Subset", "draw", "exclude", "items_of", "quotas", "rank", "subset", "write_ids"]

#: What ``stratify`` accepts.
STRATIFY = ("question_type",)


@dataclass(frozen=True)
class Item:
    """One scored QA pair: its id, question type, whether it is an abstention question, and the source's category
    number where it has one (LoCoMo ``category``)."""

    id: str
    question_type: str
    is_abstention: bool
    category: int | None = None


@dataclass(frozen=True)
class Subset:
    """A drawn subset.

    Attributes:
        ids: The selected ids, in source order.
        total: How many items the source has.
        strata: Stratum name → ``(selected, of)``; one stratum ``"all"`` when not stratified.
        fingerprint: :func:`fingerprint` of ``ids`` and the source files.
        sources: ``(file name, sha256)`` of each source file.
        excluded: How many items were left out before the draw (``exclude_category``, ``exclude_type``).
    """

    ids: list[str]
    total: int
    strata: dict[str, tuple[int, int]]
    fingerprint: str
    sources: list[tuple[str, str]]
    excluded: int = 0


def items_of(samples: Iterable[Any]) -> list[Item]:
    """The items of Samples, in source order."""
    return [
        Item(item_id(s, qa), qa.question_type.value, qa.is_abstention, _category(qa))
        for s in samples
        for qa in s.qa_pairs
    ]


def _category(qa) -> int | None:
    value = qa.raw.get("category") if isinstance(qa.raw, dict) else None
    return value if type(value) is int else None


def exclude(items: Sequence[Item], *, categories: Iterable[int] = (), types: Iterable[str] = ()) -> list[Item]:
    """The items whose category is not in ``categories`` and whose question type is not in ``types``.

    Raises:
        ConfigurationError: a category or type no item has (a misspelling leaves nothing out), or nothing left.
    """
    categories, types = set(categories), set(types)
    if categories and {i.category for i in items} == {None}:  # LongMemEval, BEAM: question types, no category
        raise ConfigurationError(
            "--exclude-category: these QA pairs have no category (LoCoMo's family does); "
            "leave question types out with --exclude-type"
        )
    if unknown := sorted(categories - {i.category for i in items}):
        raise ConfigurationError(f"--exclude-category: no QA pair has category {', '.join(map(str, unknown))}")
    if unknown := sorted(types - {i.question_type for i in items}):
        known = ", ".join(sorted({i.question_type for i in items}))
        raise ConfigurationError(
            f"--exclude-type: no QA pair has type {', '.join(unknown)}; the source's types: {known}"
        )
    kept = [i for i in items if i.category not in categories and i.question_type not in types]
    if not kept:
        raise ConfigurationError("--exclude-category/--exclude-type leave no QA pair to draw from")
    return kept


def rank(seed: int | str, item: str) -> str:
    """The rank of ``item`` under ``seed``: ``sha256("<seed>:<item>")`` as hex (lower is drawn first)."""
    return hashlib.sha256(f"{seed}:{item}".encode()).hexdigest()


def quotas(sizes: dict[str, int], n: int) -> dict[str, int]:
    """Split ``n`` (0 to the total) over strata of ``sizes`` in proportion, by the largest remainder method.

    ``floor(n * size / total)`` each, then one more to each of the ``n - sum(floors)`` strata with the largest
    remainder ``n * size mod total`` (ties: the stratum name that sorts first).
    """
    total = sum(sizes.values())
    if total == 0:
        return dict.fromkeys(sizes, 0)
    base = {k: n * size // total for k, size in sizes.items()}
    left = n - sum(base.values())
    for key in sorted(sizes, key=lambda k: (-(n * sizes[k] % total), k))[:left]:
        base[key] += 1
    return base


def draw(
    items: Sequence[Item], n: int, seed: int | str, *, stratify: str | None = None, keep_abstention: bool = False
) -> tuple[list[str], dict[str, tuple[int, int]]]:
    """Select ``n`` item ids (see the module docstring for the rule).

    With ``keep_abstention``, ``n`` is first split between abstention and answerable questions, then (with
    ``stratify``) each part between its question types, so the abstention share is kept exactly (to the
    rounding of the largest remainder method).

    Args:
        items: Every item of the source (:func:`items_of`), ids unique.
        n: How many to select (1 to ``len(items)``).
        seed: Any integer or text; the draw depends on its text form only.
        stratify: ``None`` or ``"question_type"``: proportional quotas per question type.
        keep_abstention: Also keep the share of abstention questions.

    Returns:
        ``(ids in source order, {stratum: (selected, of)})``, strata sorted by name (``"all"`` when not
        stratified; ``"abstention / temporal"``-style names with both).

    Raises:
        ConfigurationError: ``n`` out of range, an unknown ``stratify``.
    """
    if stratify is not None and stratify not in STRATIFY:
        raise ConfigurationError(f"--stratify: expected one of {list(STRATIFY)}, got {stratify!r}")
    if not 1 <= n <= len(items):
        raise ConfigurationError(f"--n: expected 1 to {len(items):,} (the QA pairs of the source), got {n:,}")
    parts: dict[str, dict[str, list[str]]] = {}
    for item in items:
        part = ("abstention" if item.is_abstention else "answerable") if keep_abstention else ""
        kind = item.question_type if stratify else ""
        parts.setdefault(part, {}).setdefault(kind, []).append(item.id)
    chosen: set[str] = set()
    strata: dict[str, tuple[int, int]] = {}
    for part, share in quotas({p: sum(map(len, g.values())) for p, g in parts.items()}, n).items():
        for kind, quota in quotas({k: len(v) for k, v in parts[part].items()}, share).items():
            ids = parts[part][kind]
            chosen.update(sorted(ids, key=lambda i: (rank(seed, i), i))[:quota])
            strata[" / ".join(x for x in (part, kind) if x) or "all"] = (quota, len(ids))
    return [item.id for item in items if item.id in chosen], dict(sorted(strata.items()))


def subset(
    name: str,
    n: int,
    seed: int | str,
    *,
    config: str | None = None,
    data_dir: str | Path | None = None,
    cache_dir: str | Path | None = None,
    stratify: str | None = None,
    keep_abstention: bool = False,
    exclude_category: Iterable[int] = (),
    exclude_type: Iterable[str] = (),
    **options: Any,
) -> Subset:
    """Draw a subset of a benchmark's QA pairs (what ``himga subset`` runs).

    Args:
        name: a benchmark of the catalogue (``"locomo"``, ``"longmemeval"``, ``"beam"``, ...:
            :data:`himga.catalog.NAMES`).
        n: How many QA pairs.
        seed: The seed (any integer or text).
        config: The builder config (LongMemEval: ``s``, ``m``, ``oracle``, ...).
        data_dir: A local folder or file instead of the pinned source.
        cache_dir: The ``datasets`` cache folder.
        stratify: ``None`` or ``"question_type"``.
        keep_abstention: Keep the share of abstention questions.
        exclude_category: Category numbers left out before the draw (LoCoMo ``5``: the adversarial questions).
        exclude_type: Question types left out before the draw (``"adversarial"``).
        **options: Builder options (LoCoMo's ``gold`` does not change the items).

    Returns:
        The :class:`Subset`.

    Raises:
        ConfigurationError: ``n`` out of range, an unknown ``stratify`` or option, an exclusion that matches no
            QA pair or leaves none; and what a build raises.
    """
    from himga.catalog import benchmark
    from himga.data.lazy import qa_samples
    from himga.data.loaders import build_dataset

    entry = benchmark(name)  # resolved once, handed down
    every = items_of(
        qa_samples(build_dataset(entry, config, path=data_dir, cache_dir=cache_dir, **options))
    )  # no haystack read
    items = exclude(every, categories=exclude_category, types=exclude_type)
    ids, strata = draw(items, n, seed, stratify=stratify, keep_abstention=keep_abstention)
    sources = source_hashes(entry, config, data_dir)
    return Subset(
        ids, len(items), strata, fingerprint(ids, [sha for _, sha in sources]), sources, len(every) - len(items)
    )


def write_ids(ids: Iterable[str], path: str | Path) -> None:
    """Write an ids file: one id per line, UTF-8, ``\\n`` line ends; whole or not at all, with the umask's mode."""
    from himga.run import write_text

    write_text(path, "".join(f"{i}\n" for i in ids))
