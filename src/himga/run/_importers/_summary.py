"""What ``himga import`` prints: how the file was read, joined and checked, in a few lines."""

from __future__ import annotations

from himga.errors import counted

__all__ = ["summary_lines"]

_SHOWN = 20


def _listing(items: list[str]) -> str:
    more = f"; ... and {len(items) - _SHOWN} more" if len(items) > _SHOWN else ""
    return "; ".join(items[:_SHOWN]) + more


def summary_lines(imported, layout, how: str) -> list[str]:
    """The summary of an :class:`~himga.run.ImportedRun` read by ``layout`` (``how``: ``"recognised by its shape"``,
    ``"named"``, ``"read by a field map"``)."""
    run, report = imported.run, imported.report
    lines = [
        f"{report['file']}: layout {layout.name} ({how}), {counted(report['records'], 'record')}, sha256 "
        f"{report['sha256']}"
    ]
    ties = ", ".join(f"{n} by {rule}" for rule, n in report["ties"].items())
    lines.append(
        f"joined: {report['joined']:,} of {report['records']:,} to LoCoMo questions by conversation and question text"
        + (f"; ties resolved: {ties}" if ties else "")
        + (
            f"; {len(report['normalized'])} only once spaces, case and quotes were normalized"
            if report["normalized"]
            else ""
        )
    )
    if report["left_out"]:
        shown = _listing([f"{w} ({why})" for w, why in report["left_out"]])
        lines.append(f"left out: {counted(len(report['left_out']), 'unmatched record')} (--allow-unmatched): {shown}")
    cats = report["categories"]
    if cats["given"]:
        read = f"names in the {cats['names']} label map" if cats["names"] else "integers"
        agree = cats["given"] - cats["contradict"]
        lines.append(f"categories: {read}, LoCoMo's for {agree:,} of {cats['given']:,}")
        if cats["contradict"]:
            lines.append(f"categories that contradict LoCoMo's: {_listing(cats['contradictions'])}")
    else:
        lines.append("categories: none in the file (LoCoMo's are used)")
    gold = report["gold"]
    if gold["copied"]:
        whole = (
            f"; {gold['category3_whole']} category-3 answers whole, as the judges read them (the official F1 cuts them "
            "at ';')"
            if gold["category3_whole"]
            else ""
        )
        lines.append(
            f"gold: copied in {gold['copied']:,} records, {gold['differ']} differ from LoCoMo's published{whole}"
        )
        if gold["differ"]:
            lines.append(f"gold differences: {_listing(gold['differences'])}")
    if run["runs"]:
        judge = run["judge"] or "not a registered judge"
        what = "recall value" if run["verdict_kind"] == "recall" else "verdict"
        lines.append(
            f"verdicts: {counted(run['runs'], what)} per question; judge {judge}"
            + (f" ({run['judge_model']})" if run["judge_model"] else "")
        )
    else:
        lines.append("verdicts: none in the file")
    if report["stated"]:
        lines.append("the file states: " + ", ".join(f"{k} {v}" for k, v in report["stated"].items()))
    if (published := report["published"]) is not None:
        spread = f" ± {published['spread']:g}" if published.get("spread") else ""
        lines.append(f"published: {published['headline']}{spread} ({published['published_in']})")
        lines.append(f"judge: {published['judge_found']}")
        if published.get("note"):
            lines.append(f"note: {published['note']}")
    return lines
