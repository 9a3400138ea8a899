"""``himga subset`` and ``load_*(ids=)``: the same ids everywhere; stratified counts pinned on the real files."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import pytest

from himga.catalog import benchmark
from himga.cli import main
from himga.data import load_dataset, load_locomo, load_longmemeval
from himga.errors import ConfigurationError, SourceFormatError
from himga.run import fingerprint, run_identity
from himga.schema.ids import item_id
from himga.subset import Item, draw, quotas, rank, subset

LOCOMO_200_SEED0 = "f1ebf69fcb531c9f5714623766dbf8fe529a142482714139b4d4cc6a391a140f"
LOCOMO_SHA256 = "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"
ORACLE_SAMPLE = "longmemeval/longmemeval_oracle_sample.json"


def test_largest_remainder_quotas():
    assert quotas({"a": 5, "b": 3, "c": 2}, 5) == {"a": 3, "b": 1, "c": 1}  # 2.5, 1.5, 1.0: a before b on the tie
    assert quotas({"x": 1, "y": 1, "z": 1}, 2) == {"x": 1, "y": 1, "z": 0}
    assert quotas({"a": 841, "b": 446, "c": 321, "d": 282, "e": 96}, 200) == {
        "a": 85,
        "b": 45,
        "c": 32,
        "d": 28,
        "e": 10,
    }
    assert quotas({"a": 4}, 0) == {"a": 0}


def test_rank_is_sha256_of_seed_and_id():
    import hashlib

    assert rank(3, "q1") == hashlib.sha256(b"3:q1").hexdigest()


def test_draw_on_synthetic_items():
    items = [Item(f"q{i}", "a" if i % 3 else "b", i % 10 == 0) for i in range(100)]
    ids, strata = draw(items, 10, 1, stratify="question_type", keep_abstention=True)
    assert strata == {
        "abstention / a": (1, 6),
        "abstention / b": (0, 4),
        "answerable / a": (6, 60),
        "answerable / b": (3, 30),
    }
    assert sum(chosen for chosen, _ in strata.values()) == 10 == len(ids)
    assert sum(chosen for name, (chosen, _) in strata.items() if name.startswith("abstention")) == 1  # 10 of 100
    assert ids == [i.id for i in items if i.id in set(ids)]  # source order
    with pytest.raises(ConfigurationError, match="--n: expected 1 to 100 .* got 101"):
        draw(items, 101, 1)


def test_fingerprint_rule():
    import hashlib

    assert fingerprint(["b", "a"], ["f", "e"]) == hashlib.sha256(b"a\nb\n\ne\nf\n").hexdigest()


_DRAW = """
import sys
from himga.subset import Item, draw
items = [Item(f"id-{i}", ("t1", "t2", "t3")[i % 3], i % 7 == 0) for i in range(500)]
ids, strata = draw(items, 50, "seed", stratify="question_type", keep_abstention=True)
print(hash("x"), ",".join(ids), sorted(strata.items()))
"""


def test_same_ids_under_another_pythonhashseed():
    outputs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", _DRAW], env=env, capture_output=True, text=True, check=True).stdout
        outputs.append(out.split(" ", 1))
    assert outputs[0][0] != outputs[1][0]  # the hash order did differ
    assert outputs[0][1] == outputs[1][1]


def test_cli_subset_in_two_processes(shared_data, tmp_path):
    results = []
    for seed in ("0", "123"):
        out = tmp_path / f"ids{seed}.txt"
        env = {k: v for k, v in os.environ.items()} | {
            "PYTHONHASHSEED": seed,
            "HF_DATASETS_CACHE": str(tmp_path / f"hf{seed}"),
        }
        argv = [
            sys.executable,
            "-m",
            "himga.cli",
            "subset",
            "locomo",
            str(out),
            "--n",
            "200",
            "--seed",
            "0",
            "--stratify",
            "question_type",
            "--data-dir",
            str(shared_data / "locomo"),
        ]
        printed = subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout
        results.append((out.read_text(), printed.splitlines()[-1]))
    assert results[0] == results[1]
    assert results[0][1] == f"fingerprint: {LOCOMO_200_SEED0}"


def test_stratified_locomo_counts(shared_data, tmp_path, capsys):
    out = tmp_path / "ids.txt"
    argv = [
        "subset",
        "locomo",
        str(out),
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
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines() == [
        "locomo: 200 of 1,986 QA pairs, seed 0 (stratified by question_type; largest remainder)",
        "  adversarial                                  45 of 446",
        "  multi_hop                                    28 of 282",
        "  open_domain                                  10 of 96",
        "  single_hop                                   85 of 841",
        "  temporal                                     32 of 321",
        f"source: locomo10.json sha256 {LOCOMO_SHA256}",
        f"wrote {out}",
        f"fingerprint: {LOCOMO_200_SEED0}",
    ]
    ids = out.read_text().splitlines()
    assert (len(ids), ids[:3]) == (200, ["conv-26:15", "conv-26:21", "conv-26:23"])
    assert fingerprint(ids, [LOCOMO_SHA256]) == LOCOMO_200_SEED0


def test_keep_abstention_on_the_oracle_sample(shared_data, tmp_path):
    drawn = subset(
        "longmemeval",
        50,
        7,
        config="oracle",
        data_dir=shared_data / ORACLE_SAMPLE,
        cache_dir=tmp_path,
        stratify="question_type",
        keep_abstention=True,
    )
    assert drawn.strata == {
        "abstention / multi_session": (1, 1),
        "abstention / temporal_reasoning": (0, 1),
        "answerable / knowledge_update": (11, 21),
        "answerable / multi_session": (10, 20),
        "answerable / single_session_assistant": (3, 6),
        "answerable / single_session_preference": (5, 10),
        "answerable / single_session_user": (6, 12),
        "answerable / temporal_reasoning": (14, 26),
    }
    assert (len(drawn.ids), drawn.total) == (50, 97)


def test_load_restricted_to_an_ids_file(shared_data, tmp_path):
    drawn = subset("locomo", 200, 0, data_dir=shared_data / "locomo", cache_dir=tmp_path, stratify="question_type")
    ids = tmp_path / "ids.txt"
    ids.write_text("\n".join(drawn.ids) + "\n")
    samples = load_locomo(shared_data / "locomo", cache_dir=tmp_path, ids=ids)
    assert [item_id(s, qa) for s in samples for qa in s.qa_pairs] == drawn.ids
    assert Counter(qa.question_type.value for s in samples for qa in s.qa_pairs) == {
        "single_hop": 85,
        "adversarial": 45,
        "temporal": 32,
        "multi_hop": 28,
        "open_domain": 10,
    }
    assert len(samples) == 10 and sum(len(s.sessions) for s in samples) == 272  # conversations whole
    lazy = load_dataset("locomo", data_dir=shared_data / "locomo", cache_dir=tmp_path, ids=ids, lazy=True)
    assert list(lazy) == samples and lazy[1:3][0] == samples[1]


def test_exclude_category_on_a_benchmark_without_categories_says_so(shared_data, tmp_path):
    with pytest.raises(ConfigurationError) as info:
        subset(
            "longmemeval",
            10,
            0,
            config="oracle",
            data_dir=shared_data / ORACLE_SAMPLE,
            cache_dir=tmp_path,
            exclude_category=[5],
        )
    assert str(info.value) == (
        "--exclude-category: these QA pairs have no category (LoCoMo's family does); "
        "leave question types out with --exclude-type"
    )


def test_load_longmemeval_restricted(shared_data, tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("gpt4_78cf46a3\n\n 7e974930 \n")  # file order wins
    samples = load_longmemeval(shared_data / ORACLE_SAMPLE, config="oracle", cache_dir=tmp_path, ids=ids)
    assert [s.sample_id for s in samples] == ["7e974930", "gpt4_78cf46a3"]


def test_ids_file_errors(shared_data, tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("conv-26:0\nconv-99:1\nconv-26:9999\n")
    with pytest.raises(
        ConfigurationError, match=r"^ids.txt: 'conv-99:1' names no QA pair of the source \(and 1 more\)$"
    ):
        load_locomo(shared_data / "locomo", cache_dir=tmp_path, ids=ids)
    ids.write_text("conv-26:0\nconv-26:1\nconv-26:0\n")
    with pytest.raises(SourceFormatError, match=r"^ids.txt: line 3: 'conv-26:0' is also on line 1$"):
        load_locomo(shared_data / "locomo", cache_dir=tmp_path, ids=ids)
    ids.write_text("conv-26:0\n" + "c" * 300 + "\n")  # the one ids reader (himga score --ids too): ids bounded
    with pytest.raises(
        SourceFormatError, match=r"^ids.txt: line 2: expected an id of at most 258 characters, got 300$"
    ):
        load_locomo(shared_data / "locomo", cache_dir=tmp_path, ids=ids)
    ids.write_bytes(b"conv-26:0\n\xe9\n")
    with pytest.raises(SourceFormatError, match=r"^ids.txt: line 2: expected UTF-8 text"):
        load_locomo(shared_data / "locomo", cache_dir=tmp_path, ids=ids)


def test_run_identity(shared_data, tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("conv-26:0\nconv-30:2\n")
    errata = shared_data / "locomo-audit" / "errors.json"
    if not errata.is_file():
        pytest.skip(f"real data not found at {errata}")
    assert run_identity(
        benchmark("locomo"), data_dir=shared_data / "locomo", ids=ids, gold="audited", errata=errata
    ) == {
        "dataset": "locomo",
        "config": None,
        "options": {"errata": str(errata), "gold": "audited"},
        "sources": [{"file": "locomo10.json", "sha256": LOCOMO_SHA256}],
        "gold": {
            "variant": "audited",
            "errata": "errors.json",
            "errata_sha256": "f298ef46263fada20688a1d672be37d4f488c6da3b19343eea55ae5c1b5fe55e",
        },
        "ids": "ids.txt",
        "subset_fingerprint": fingerprint(["conv-26:0", "conv-30:2"], [LOCOMO_SHA256]),
    }


def test_exclude_category_5_draws_from_the_1540_non_adversarial_questions(
    shared_data, locomo_samples, tmp_path, capsys
):
    out = tmp_path / "ids.txt"
    argv = [
        "subset",
        "locomo",
        str(out),
        "--n",
        "500",
        "--seed",
        "0",
        "--data-dir",
        str(shared_data / "locomo"),
        "--cache-dir",
        str(tmp_path / "c"),
    ]
    assert main([*argv, "--exclude-category", "5"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "locomo: 500 of 1,540 QA pairs (category 5 excluded: 446), seed 0",
        f"source: locomo10.json sha256 {LOCOMO_SHA256}",
        f"wrote {out}",
        "fingerprint: 3566280f43da655b996fba0042ee069d0cbad9fddca65dda3dc439276a942810",
    ]
    ids = out.read_text().splitlines()
    category = {item_id(s, qa): qa.raw["category"] for s in locomo_samples for qa in s.qa_pairs}
    assert len(ids) == 500 and Counter(category[i] for i in ids) == {4: 248, 1: 110, 2: 107, 3: 35}
    by_type = out.with_name("by_type.txt")
    assert main([*argv[:2], str(by_type), *argv[3:], "--exclude-type", "adversarial"]) == 0
    assert by_type.read_text() == out.read_text()  # the same questions, so the same ids and fingerprint
    assert main([*argv, "--exclude-category", "7"]) == 2
    assert capsys.readouterr().err.endswith("himga: error: --exclude-category: no QA pair has category 7\n")
    assert main([*argv, "--exclude-type", "adversarial", "--n", "1541"]) == 2
    assert "--n: expected 1 to 1,540 (the QA pairs of the source), got 1,541" in capsys.readouterr().err
