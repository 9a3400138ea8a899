"""The join: each record of a published run to its LoCoMo question, by conversation and question text, never by
position.

The rule (every shared file joins by exact text, 0 unmatched): the record's conversation names a sample (by id, or
by its place in ``locomo10.json``); the QA pairs of that sample with the record's question text are its
candidates (exact text, else equal after NFKC, case folding and single spaces). LoCoMo repeats 12 question texts
within a conversation; a tie is resolved by the record's category, then by the file's scope (the categories its
questions come from), then by the gold it copied, and last by occurrence: conv-48 holds 11 identical QA pairs
(question, answer, evidence and category equal), so the k-th record with that text in the file takes the k-th pair.
A record that joins no question is listed with the reason; two records on one question are listed as duplicates.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from himga.errors import SourceFormatError, counted

__all__ = ["Join", "Question", "Wanted", "check_join", "join", "locomo_questions", "same_gold"]

_TRAILING_NUMBER = re.compile(r"(\d+)$")
_SHOWN = 20
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})


@dataclass(frozen=True)
class Question:
    """A LoCoMo QA pair as the join sees it: its item id, sample, text, category, published gold (the ``answer``,
    else the ``adversarial_answer`` of category 5), and whether the audit corrects its answer (Samples loaded with
    ``gold="audited"``)."""

    item: str
    sample: str
    text: str
    category: int
    gold: object
    audited: bool = False


@dataclass(frozen=True)
class Wanted:
    """What a record says of its question: where it is, its conversation, text, category (an integer or ``None``),
    the gold it copied (``None``: none), and himga's item id when it holds one."""

    where: str
    conversation: object
    text: object
    category: int | None = None
    gold: object = None
    item: object = None


@dataclass
class Join:
    """The join of a file's records.

    Attributes:
        items: Per record, the item id it joins (``None``: unmatched).
        unmatched: ``(where, why)`` of each record that joins no question.
        ties: How ties were resolved: ``{"category" | "scope" | "gold" | "occurrence": records}``.
        normalized: Where records joined only once spaces, case and quotes were normalized.
        duplicates: ``(item id, [where, ...])`` of each question two records join.
    """

    items: list[str | None] = field(default_factory=list)
    unmatched: list[tuple[str, str]] = field(default_factory=list)
    ties: dict[str, int] = field(default_factory=dict)
    normalized: list[str] = field(default_factory=list)
    duplicates: list[tuple[str, list[str]]] = field(default_factory=list)


def locomo_questions(samples) -> list[list[Question]]:
    """Per sample (in dataset order) its QA pairs as :class:`Question` s, in ``qa`` order."""
    from himga.schema.ids import item_id

    out = []
    for sample in samples:
        rows = []
        for qa in sample.qa_pairs:
            raw = qa.raw
            gold = raw.get("answer", raw.get("adversarial_answer"))
            audit = raw.get("gold_audit")
            audited = isinstance(audit, dict) and "answer" in audit.get("changed", ())
            rows.append(Question(item_id(sample, qa), sample.sample_id, qa.question, raw["category"], gold, audited))
        out.append(rows)
    return out


def _loose(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold().split())


def same_gold(copied: object, gold: object) -> bool:
    """Whether a file's copied gold is LoCoMo's (compared as ``str()``; a list holds it)."""
    if isinstance(copied, list):
        return any(same_gold(c, gold) for c in copied)
    return copied is not None and not isinstance(copied, (dict, bool)) and str(copied) == str(gold)


def _sample(value: object, samples: list[list[Question]], ids: dict[str, int]) -> int | None:
    """The sample a conversation value names: an id, an index (``3``, ``"3"``), or a key ending in one."""
    if isinstance(value, str) and value in ids:
        return ids[value]
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        index = value
    elif isinstance(value, str) and (m := _TRAILING_NUMBER.search(value)):
        index = int(m.group(1))
    else:
        return None
    return index if 0 <= index < len(samples) else None


def join(wanted: Sequence[Wanted], samples: list[list[Question]], scope: Sequence[int]) -> Join:
    """Join each record to its question (see the module docstring for the rule).

    Args:
        wanted: The records, in file order.
        samples: :func:`locomo_questions`.
        scope: The categories the file's questions come from (for records without a category).
    """
    ids = {rows[0].sample: n for n, rows in enumerate(samples) if rows}
    by_item = {q.item: q for rows in samples for q in rows}
    everywhere: dict[str, list[str]] = {}
    for rows in samples:
        for q in rows:
            everywhere.setdefault(q.text, []).append(q.sample)
    out = Join()
    seen: dict[tuple, int] = {}
    for w in wanted:
        item, why = _one(w, samples, ids, by_item, everywhere, scope, out, seen)
        out.items.append(item)
        if item is None:
            out.unmatched.append((w.where, why))
    places: dict[str, list[str]] = {}
    for w, item in zip(wanted, out.items, strict=True):
        if item is not None:
            places.setdefault(item, []).append(w.where)
    out.duplicates = [(item, ps) for item, ps in places.items() if len(ps) > 1]
    return out


def _one(w: Wanted, samples, ids, by_item, everywhere, scope, out: Join, seen: dict) -> tuple[str | None, str]:
    if not isinstance(w.text, str):
        return None, "no question text"
    if w.item is not None:  # a record holding himga's item id: joined by it, its text checked
        q = by_item.get(w.item) if isinstance(w.item, str) else None
        if q is None:
            return None, f"item id {w.item!r} names no LoCoMo question"
        if q.text != w.text:
            return None, f"{q.item}'s question is {q.text!r}, not {w.text!r}"
        return q.item, ""
    n = _sample(w.conversation, samples, ids)
    if n is None:
        return None, f"conversation {w.conversation!r} names no LoCoMo sample (an id, or a place from 0 to 9)"
    rows = samples[n]
    candidates = [q for q in rows if q.text == w.text]
    if not candidates:
        candidates = [q for q in rows if _loose(q.text) == _loose(w.text)]
        if candidates:
            out.normalized.append(w.where)
    if not candidates:
        elsewhere = sorted(set(everywhere.get(w.text, ())))
        hint = f" ({', '.join(elsewhere)} has it: does the conversation key name another sample?)" if elsewhere else ""
        return None, f"no question of {rows[0].sample} has this text{hint}"
    if len(candidates) > 1:
        for how, keep in (
            ("category", lambda q: w.category is not None and q.category == w.category),
            ("scope", lambda q: w.category is None and q.category in scope),
            ("gold", lambda q: same_gold(w.gold, q.gold)),
        ):
            narrowed = [q for q in candidates if keep(q)]
            if narrowed and len(narrowed) < len(candidates):
                out.ties[how] = out.ties.get(how, 0) + 1
                candidates = narrowed
            if len(candidates) == 1:
                break
    if len(candidates) > 1:  # identical QA pairs: the k-th record with this text takes the k-th pair
        key = tuple(q.item for q in candidates)
        k = seen[key] = seen.get(key, -1) + 1
        out.ties["occurrence"] = out.ties.get("occurrence", 0) + 1
        return candidates[min(k, len(candidates) - 1)].item, ""
    return candidates[0].item, ""


def _listing(items: Sequence[str]) -> str:
    more = f", ... and {len(items) - _SHOWN} more" if len(items) > _SHOWN else ""
    return "; ".join(items[:_SHOWN]) + more


def check_join(joined: Join, wanted: list[Wanted], file: str, allow_unmatched: bool) -> list[list[str]]:
    """``[where, why]`` of the unmatched records left out under ``allow_unmatched``.

    Raises:
        SourceFormatError: two records on one question (listed); no record joined (a file of another benchmark);
            unmatched records, unless ``allow_unmatched``.
    """
    if joined.duplicates:
        listed = [f"{item} ({', '.join(places)})" for item, places in joined.duplicates]
        raise SourceFormatError(
            file,
            "$",
            f"{counted(len(listed), 'question')} joined by more than one record (never averaged: remove the "
            f"duplicates): {_listing(listed)}",
        )
    if joined.unmatched and len(joined.unmatched) == len(wanted):
        raise SourceFormatError(
            file,
            "$",
            f"no record is a LoCoMo question ({counted(len(wanted), 'record')} read, none joined by conversation and "
            f"question text; the first: {joined.unmatched[0][0]}: {joined.unmatched[0][1]}): a file of another "
            "benchmark? himga import reads LoCoMo runs",
        )
    if joined.unmatched and not allow_unmatched:
        raise SourceFormatError(
            file,
            "$",
            f"{counted(len(joined.unmatched), 'record')} join no LoCoMo question: "
            f"{_listing([f'{w} ({why})' for w, why in joined.unmatched])}; --allow-unmatched leaves them out",
        )
    return [[w, why] for w, why in joined.unmatched]
