"""``himga score`` with LoCoMo's audited gold and a subset: the report names the gold variant, the
errata's sha256 and the subset's fingerprint; the published answers score below 1 where the audit changed them."""

from __future__ import annotations

import json
import os

import pytest

from himga.cli import main
from himga.data import load_locomo
from himga.run import fingerprint
from himga.schema.ids import item_id

ERRATA_SHA256 = "f298ef46263fada20688a1d672be37d4f488c6da3b19343eea55ae5c1b5fe55e"
LOCOMO_SHA256 = "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"


@pytest.fixture(scope="module")
def errata(shared_data):
    path = shared_data / "locomo-audit" / "errors.json"
    if not path.is_file():
        pytest.fail(f"no {path}") if os.environ.get("CI") else pytest.skip(f"real data not found at {path}")
    return path


def _hypotheses(samples, path):
    path.write_text(
        "".join(
            json.dumps({"question_id": item_id(s, qa), "hypothesis": qa.answer}) + "\n"
            for s in samples
            for qa in s.qa_pairs
        ),
        encoding="utf-8",
    )
    return path


def _score(shared_data, errata, tmp_path, hypotheses, *extra):
    out = tmp_path / "report.json"
    argv = [
        "score",
        "locomo",
        str(hypotheses),
        "--data-dir",
        str(shared_data / "locomo"),
        "--cache-dir",
        str(tmp_path / "c"),
        "--gold",
        "audited",
        "--errata",
        str(errata),
        "--out",
        str(out),
        *extra,
    ]
    assert main(argv) == 0
    return json.loads(out.read_text())


def test_published_answers_against_the_audited_gold(shared_data, errata, locomo_samples, tmp_path, capsys):
    report = _score(shared_data, errata, tmp_path, _hypotheses(locomo_samples, tmp_path / "published.jsonl"))
    assert report["run"]["gold"] == {"variant": "audited", "errata": "errors.json", "errata_sha256": ERRATA_SHA256}
    assert report["run"]["subset"] is None
    below = [qid for qid, score in report["per_question"].items() if score < 1]
    assert len(below) == 116  # of the 120 answers the audit changes; 4 still score 1.0
    assert (
        round(report["overall"]["mean"], 4) == 0.9632
        and round(report["overall_without_category_5"]["mean"], 4) == 0.9525
    )


def test_audited_answers_score_one_on_a_subset(shared_data, errata, tmp_path, capsys):
    audited = load_locomo(shared_data / "locomo", cache_dir=tmp_path / "c", gold="audited", errata=errata)
    ids = tmp_path / "ids.txt"
    assert (
        main(
            [
                "subset",
                "locomo",
                str(ids),
                "--n",
                "200",
                "--seed",
                "0",
                "--stratify",
                "question_type",
                "--data-dir",
                str(shared_data / "locomo"),
                "--cache-dir",
                str(tmp_path / "c"),
            ]
        )
        == 0
    )
    report = _score(shared_data, errata, tmp_path, _hypotheses(audited, tmp_path / "audited.jsonl"), "--ids", str(ids))
    assert report["scored"] == 200 and set(report["per_question"].values()) == {1.0}
    assert report["run"]["subset"] == {
        "ids": "ids.txt",
        "fingerprint": fingerprint(ids.read_text().split(), [LOCOMO_SHA256]),
    }
    assert report["run"]["subset"]["fingerprint"] == "f1ebf69fcb531c9f5714623766dbf8fe529a142482714139b4d4cc6a391a140f"


def test_gold_is_a_locomo_option(tmp_path, capsys):
    hypotheses = tmp_path / "h.jsonl"
    hypotheses.write_text('{"question_id": "q", "hypothesis": "x"}\n')
    labels = tmp_path / "l.jsonl"
    labels.write_text('{"question_id": "q", "reply": "yes"}\n')
    assert main(["score", "longmemeval", str(hypotheses), "--gold", "audited", "--labels", str(labels)]) == 2
    assert capsys.readouterr().err == "himga: error: longmemeval: --gold applies to locomo, locomo_plus only\n"
