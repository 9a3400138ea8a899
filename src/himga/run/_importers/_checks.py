"""What an import checks beside the join: the gold the file copied, its categories, its own question ids."""

from __future__ import annotations

import re

from himga.run._importers._join import Join, same_gold

__all__ = ["categories", "gold_copied", "own_ids"]

_INDEX = re.compile(r"(\d+)$")


def gold_copied(records: list[dict], by_item) -> dict:
    """The gold the file copied against LoCoMo's published answers: differences listed, the audit's corrections marked,
    category-3 answers kept whole counted."""
    copied = differ = whole = 0
    listed = []
    for record in records:
        if "gold" not in record.get("source", {}):
            continue
        copied += 1
        q = by_item[record["question_id"]]
        value = record["source"]["gold"]
        if not same_gold(value, q.gold):
            differ += 1
            mark = " (the audit corrects this question)" if q.audited else ""
            listed.append(f"{record['source']['where']} {q.item}: {value!r}, LoCoMo {q.gold!r}{mark}")
        elif q.category == 3 and ";" in str(q.gold):
            whole += 1
    label = (
        "published" if copied and not differ else "not copied" if not copied else f"the file's own ({differ} differ)"
    )
    return {"gold": label, "copied": copied, "differ": differ, "differences": listed, "category3_whole": whole}


def categories(wanted, joined: Join, by_item, label_map) -> dict:
    """How the file's categories read: integers or names (in which map), and those that contradict LoCoMo's."""
    given = contradict = 0
    listed = []
    for w, item in zip(wanted, joined.items, strict=True):
        if item is None or w.category is None:
            continue
        given += 1
        if w.category != by_item[item].category:
            contradict += 1
            listed.append(f"{w.where} {item}: {w.category!r}, LoCoMo {by_item[item].category}")
    return {"given": given, "names": label_map, "contradict": contradict, "contradictions": listed}


def own_ids(records: list[dict]) -> dict:
    """The file's own question ids against the join: those ending in a number (``locomo_0_qa27``, ``conv-26_q27``)
    name the QA index the join found, else they are listed."""
    named = agree = 0
    listed = []
    for record in records:
        own = record.get("source", {}).get("id")
        if not isinstance(own, str) or not (m := _INDEX.search(own)):
            continue
        named += 1
        if m.group(1) == record["question_id"].rpartition(":")[2]:
            agree += 1
        else:
            listed.append(f"{record['source']['where']} {own!r} joined {record['question_id']}")
    return {"named": named, "agree": agree, "disagree": listed}
