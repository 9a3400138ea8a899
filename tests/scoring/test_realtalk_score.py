"""REALTALK's official F1 is LoCoMo's rule: himga's per-question score equals the authors' code on 2,184 varied
predictions, and so do the per-conversation category means evaluate_memory.py prints
(tests/fixtures/realtalk/official-f1.json, made by running danny911kr/REALTALK@b903e06)."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from himga.cli import main
from himga.schema.ids import item_id
from himga.scoring import REALTALK_SCORER, locomo_score, score_samples

pytest.importorskip("nltk")
OFFICIAL = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures" / "realtalk" / "official-f1.json").read_text(encoding="utf-8")
)


@pytest.fixture(scope="module")
def questions(realtalk_samples) -> dict:
    return {item_id(s, qa): qa for s in realtalk_samples for qa in s.qa_pairs}


def test_the_fixture_names_the_official_commit():
    assert OFFICIAL["commit"] == REALTALK_SCORER.source["commit"] == "b903e06a9770bf4e5fe9018c3e132889666d3b4a"
    assert len(OFFICIAL["rows"]) == 3 * 728


def test_every_score_equals_the_authors_code(questions):
    assert [r for r in OFFICIAL["rows"] if locomo_score(questions[r[0]], r[1]) != r[2]] == []


def test_the_category_means_evaluate_memory_prints(questions):
    rounds = len(OFFICIAL["rows"]) // 728
    for n in range(rounds):
        rows = OFFICIAL["rows"][n * 728 : (n + 1) * 728]
        by_file: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        for qid, prediction, _ in rows:
            qa = questions[qid]
            by_file[qid.split(":")[0]][str(qa.raw["category"])].append(locomo_score(qa, prediction))
        mine = [
            {"round": n, "file": f, "lexical_mean": {c: sum(v) / len(v) for c, v in cats.items()}}
            for f, cats in by_file.items()
        ]
        assert mine == [m for m in OFFICIAL["means"] if m["round"] == n]


def test_the_table_and_the_command(realtalk_samples, shared_data, tmp_path, capsys):
    rows = OFFICIAL["rows"][:728]
    report = score_samples("realtalk", realtalk_samples, predictions={r[0]: r[1] for r in rows})
    assert [(t["type"], t["n"]) for t in report["per_type"]] == [
        ("multi_hop", 301),
        ("temporal", 319),
        ("open_domain", 108),
    ]
    assert report["overall"]["mean"] == pytest.approx(sum(r[2] for r in rows) / 728, abs=1e-12)
    predictions = tmp_path / "pred.jsonl"
    predictions.write_text("".join(json.dumps({"question_id": r[0], "hypothesis": r[1]}) + "\n" for r in rows))
    assert (
        main(
            [
                "score",
                "realtalk",
                str(predictions),
                "--data-dir",
                str(shared_data / "realtalk"),
                "--cache-dir",
                str(tmp_path),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "realtalk: 728 questions scored"
    assert [line.split()[0] for line in out[2:6]] == ["multi_hop", "temporal", "open_domain", "overall"]
    assert "source: 10 files = danny911kr/REALTALK@b903e06, sha256 ok" in out
