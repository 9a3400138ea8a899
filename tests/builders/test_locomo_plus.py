"""The himga_locomo_plus builder on the real files: LoCoMo's rows as LoCoMo builds them, the 401 cognitive items
stitched
as the official code stitches them (tests/fixtures/locomo_plus/official-stitched.json, made by running it)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from himga.data import load_dataset
from himga.errors import ConfigurationError, SourceFormatError
from himga.schema.convert import row_to_sample, sample_to_row
from himga.validate import validate
from himga_locomo.source_record import source_turn
from himga_locomo_plus.records import parse_time_gap, placements
from himga_locomo_plus.source_record import sample_to_record

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "locomo_plus"
LOCOMO_IDS = [
    "conv-26",
    "conv-30",
    "conv-41",
    "conv-42",
    "conv-43",
    "conv-44",
    "conv-47",
    "conv-48",
    "conv-49",
    "conv-50",
]
OFFICIAL = json.loads((FIXTURES / "official-stitched.json").read_text(encoding="utf-8"))


def upstream_layout(shared_data: Path, folder: Path) -> Path:
    """A folder holding ``locomo10.json`` and ``locomo_plus.json`` (Locomo-Plus's ``data/``), linked to the real
    files."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "locomo10.json").symlink_to(shared_data / "locomo" / "locomo10.json")
    (folder / "locomo_plus.json").symlink_to(shared_data / "locomo-plus" / "locomo_plus.json")
    return folder


@pytest.fixture(scope="module")
def data_dir(locomo_plus_dir) -> Path:
    return locomo_plus_dir


@pytest.fixture(scope="module")
def samples(locomo_plus_samples):
    return locomo_plus_samples


def _rows(name: str, path: Path, cache: Path, **options) -> list[dict]:
    """The rows the builder generates from ``path`` (no Arrow cache written: quicker than a build)."""
    from himga.cache import path_builder
    from himga.catalog import benchmark

    builder = path_builder(benchmark(name), None, path, cache_dir=cache, **options)
    return [row for _key, row in builder._generate_examples(files=tuple(str(f) for f in builder.source_files()))]


def _cognitive(samples):
    return [s for s in samples if s.sample_id.startswith("cognitive-")]


def _official_context(sample) -> dict:
    """A cognitive Sample in the shape of ``build_conv.build_context``'s output."""
    turns = {"cue": [], "query": []}
    dialogue = []
    for session in sample.sessions:
        for m in session.messages:
            if session.session_id in turns:
                turns[session.session_id].append({"speaker": m.role, "text": m.content})
                dialogue.append(turns[session.session_id][-1])
            else:
                dialogue.append(source_turn(m))
    raw = sample.raw
    return {
        "speaker_a": sample.speaker_a,
        "speaker_b": sample.speaker_b,
        "time_gap": sample.qa_pairs[0].raw["time_gap"],
        "cue_session_idx": raw["cue_session_idx"],
        "cue_time": raw["cue_time"],
        "query_time": raw["query_time"],
        "cue_turns": turns["cue"],
        "query_turns": turns["query"],
        "dialogue": dialogue,
    }


def _sha(value) -> str:
    return hashlib.sha256(json.dumps(value, ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()


def test_rows_questions_and_types(samples):
    assert len(samples) == 411 and {s.dataset for s in samples} == {"locomo_plus"}
    assert [s.sample_id for s in samples[:2]] + [s.sample_id for s in samples[-1:]] == [
        "conv-26",
        "conv-30",
        "cognitive-400",
    ]
    qas = [qa for s in samples for qa in s.qa_pairs]
    assert len(qas) == 2387 == OFFICIAL["unified"]["items"]
    assert Counter(qa.question_type.value for qa in qas) == {
        "single_hop": 841,
        "adversarial": 446,
        "cognitive": 401,
        "temporal": 321,
        "multi_hop": 282,
        "open_domain": 96,
    }
    cognitive = _cognitive(samples)
    assert Counter(s.qa_pairs[0].raw["relation_type"] for s in cognitive) == {
        "causal": 101,
        "state": 100,
        "goal": 100,
        "value": 100,
    }
    assert all(
        len(s.qa_pairs) == 1 and s.qa_pairs[0].answer == "" and not s.qa_pairs[0].is_abstention for s in cognitive
    )


def test_locomo_rows_are_locomo_s_own(samples, locomo_samples):
    rows = [sample_to_row(s) for s in samples[:10]]
    assert [{**r, "dataset": "locomo"} for r in rows] == [sample_to_row(s) for s in locomo_samples]


def test_locomo_rows_under_the_audited_gold_too(shared_data, data_dir, samples, tmp_path):
    errata = shared_data / "locomo-audit" / "errors.json"
    plus = _rows("locomo_plus", data_dir, tmp_path, gold="audited", errata=errata)
    locomo = _rows("locomo", shared_data / "locomo", tmp_path, gold="audited", errata=errata)
    assert [{**row, "dataset": "locomo"} for row in plus[:10]] == locomo
    assert sum('"gold_audit"' in (qa["raw"] or "") for row in plus for qa in row["qa_pairs"]) == 156
    assert plus[10:] == [sample_to_row(s) for s in samples[10:]]  # the cognitive rows do not depend on the gold


def test_every_stitched_conversation_equals_the_official_output(samples):
    cognitive = _cognitive(samples)
    assert len(cognitive) == len(OFFICIAL["rows"]) == 401
    mine = [
        [
            i,
            s.raw["locomo_sample_id"],
            s.raw["cue_session_idx"],
            s.raw["cue_time"],
            s.raw["query_time"],
            sum(len(x.messages) for x in s.sessions),
            _sha(_official_context(s)),
        ]
        for i, s in enumerate(cognitive)
    ]
    assert [m for m, o in zip(mine, OFFICIAL["rows"], strict=True) if m != o] == []
    # the inserted sessions are dated at the official times, written as LoCoMo writes a session's date
    inserted = [{x.session_id: x for x in s.sessions if x.session_id in ("cue", "query")} for s in cognitive]
    times = [(x["cue"].datetime, x["query"].datetime) for x in inserted]
    assert times == [
        (
            dt.datetime.strptime(s.raw["cue_time"], "%Y-%m-%d %H:%M"),
            dt.datetime.strptime(s.raw["query_time"], "%Y-%m-%d %H:%M"),
        )
        for s in cognitive
    ]
    assert {
        re.sub(r"\d+", "9", re.sub(r"[A-Z][a-z]+", "M", session.date_str)) for x in inserted for session in x.values()
    } == {"9:9 am on 9 M, 9", "9:9 pm on 9 M, 9"}


def test_the_full_official_items(samples):
    cognitive = _cognitive(samples)
    assert [f["kind"] for f in OFFICIAL["full"]] == ["first", "one_cue_turn", "cue_first", "gap_0"]
    for full in OFFICIAL["full"]:
        ctx = _official_context(cognitive[full["i"]])
        assert {k: v for k, v in ctx.items() if k != "dialogue"} == {
            k: v for k, v in full.items() if k not in ("i", "kind", "dialogue_sha256", "cue_position")
        }
        assert _sha(ctx["dialogue"]) == full["dialogue_sha256"]
        position = next(n for n, turn in enumerate(ctx["dialogue"]) if turn is ctx["cue_turns"][0])
        assert position == full["cue_position"]
    first = cognitive[0]
    assert [(s.session_id, s.date_str) for s in first.sessions[-4:]] == [
        ("cue", "9:55 am on 15 October, 2023"),
        ("18", "6:55 pm on 20 October, 2023"),
        ("19", "9:55 am on 22 October, 2023"),
        ("query", "9:55 am on 29 October, 2023"),
    ]
    assert (first.raw["cue_time"], first.raw["query_time"]) == (
        "2023-10-15 09:55",
        "2023-10-29 09:55",
    )  # the official strings
    cue = first.sessions[-4].messages
    assert [(m.turn_id, m.role, m.raw) for m in cue] == [
        ("cue:1", "Caroline", {"speaker": "A"}),
        ("cue:2", "Melanie", {"speaker": "B"}),
    ]
    assert first.qa_pairs[0].evidence.turn_ids == ["cue:1", "cue:2"]
    assert first.qa_pairs[0].question == "A: I ended up volunteering for that project, and now I'm totally overwhelmed."
    assert first.sessions[-1].datetime.isoformat() == "2023-10-29T09:55:00"
    rel = first.relevance(first.qa_pairs[0])
    assert (rel.sessions, rel.turns, rel.evaluable, rel.dangling) == (["cue"], ["cue:1", "cue:2"], True, [])


def test_random_placement_is_build_conv_main_with_a_seed(data_dir, tmp_path):
    for official in OFFICIAL["random_placement"]:
        assert "".join(map(str, placements(10, 401, "random", official["seed"]))) == official["conversations"]
    seeded = OFFICIAL["random_placement"][1]
    rows = _rows("locomo_plus", data_dir, tmp_path, placement="random", placement_seed=seeded["seed"])
    cognitive = [row_to_sample(row) for row in rows[10:]]
    assert "".join(str(LOCOMO_IDS.index(s.raw["locomo_sample_id"])) for s in cognitive) == seeded["conversations"]
    assert _sha([_official_context(s) for s in cognitive[: seeded["hashed_items"]]]) == seeded["sha256"]
    assert {(s.raw["placement"], s.raw["seed"]) for s in cognitive} == {("random", 7)}


def test_placement_options_are_checked(data_dir, tmp_path):
    with pytest.raises(
        ConfigurationError,
        match=r"^placement: 'random' draws build_conv.py's random.choice from a seed: pass placement_seed$",
    ):
        load_dataset("locomo_plus", data_dir=data_dir, cache_dir=tmp_path, placement="random")
    with pytest.raises(ConfigurationError, match=r"^placement_seed applies with placement='random' only$"):
        load_dataset("locomo_plus", data_dir=data_dir, cache_dir=tmp_path, placement_seed=3)
    with pytest.raises(
        ConfigurationError, match=r"^placement: expected one of \['official', 'random'\], got 'shuffle'$"
    ):
        load_dataset("locomo_plus", data_dir=data_dir, cache_dir=tmp_path, placement="shuffle")


def test_time_gaps_as_the_official_parse():
    assert [
        parse_time_gap(g)
        for g in (
            "two weeks later",
            "about six weeks later",
            "a year after",
            "several months later",
            "a couple of months later",
            "3 months later",
            "twelve years later",
        )
    ] == [14, 42, 365, 0, 0, 90, 4380]


def test_a_source_record_is_rebuilt(samples, shared_data):
    items = json.loads((shared_data / "locomo-plus" / "locomo_plus.json").read_text(encoding="utf-8"))
    assert [sample_to_record(s) for s in _cognitive(samples)] == items
    locomo = json.loads((shared_data / "locomo" / "locomo10.json").read_text(encoding="utf-8"))
    assert [sample_to_record(s) for s in samples[:10]] == locomo


def test_validate_counts_the_official_quirks(data_dir):
    report = validate("locomo_plus", data_dir=data_dir)
    assert report.samples == 411
    assert report.counts == {
        "malformed_evidence": 6,
        "non_id_evidence": 1,
        "evidence_changed": 8,
        "empty_evidence": 4,
        "unparseable_date": 0,
        "date_without_session": 16,
        "generated_sample_id": 0,
        "blank_text": 0,
        "cue_before_conversation": 28,
        "time_gap_unparsed": 15,
        "dropped_dialogue_lines": 0,
        "dangling_evidence": 2,
        "duplicate_question": 12,
        "duplicate_turn_id": 0,
        "third_speaker": 0,
    }
    assert [f.sample_id for f in report.findings if f.kind == "time_gap_unparsed"][:3] == [
        "cognitive-56",
        "cognitive-127",
        "cognitive-148",
    ]


def test_both_files_are_needed_and_errors_name_file_and_path(shared_data, tmp_path):
    only = tmp_path / "only"
    only.mkdir()
    (only / "locomo_plus.json").symlink_to(shared_data / "locomo-plus" / "locomo_plus.json")
    with pytest.raises(
        SourceFormatError,
        match=r"^locomo_plus.json: \$: expected LoCoMo's conversations \(locomo10.json\) too: pass the "
        r"folder holding both \(the upstream data/ layout; put a copy of locomo10.json beside it\) as "
        r"data_dir / --data-dir, or both files as data_files$",
    ):
        load_dataset("locomo_plus", data_dir=only, cache_dir=tmp_path / "c")
    items = json.loads((shared_data / "locomo-plus" / "locomo_plus.json").read_text(encoding="utf-8"))
    items[3] = {**items[3], "time_gap": 14}
    bad = upstream_layout(shared_data, tmp_path / "bad")
    (bad / "locomo_plus.json").unlink()
    (bad / "locomo_plus.json").write_text(json.dumps(items), encoding="utf-8")
    with pytest.raises(SourceFormatError) as e:
        load_dataset("locomo_plus", data_dir=bad, cache_dir=tmp_path / "c")
    assert str(e.value) == "locomo_plus.json: $[3].time_gap: expected string, got number"


def test_the_pins_and_the_split_total(data_dir):
    from himga.cache import split_generator
    from himga.catalog import benchmark

    plus = benchmark("locomo_plus")
    pin = plus.pin()
    assert [(p.layout_path, p.size, p.rows, p.origin) for p in pin.parts] == [
        ("data/locomo10.json", 2_805_274, 10, "xjtuleeyf/Locomo-Plus@059f4e3"),
        ("data/locomo_plus.json", 305_737, 401, "xjtuleeyf/Locomo-Plus@059f4e3"),
    ]
    locomo = benchmark("locomo").pin()
    assert (pin.parts[0].sha256, pin.parts[0].content_sha256) == (locomo.sha256, locomo.content_sha256)  # LoCoMo's file
    assert (pin.sha256, pin.size, pin.rows) == (
        "fff7db7c8fee46f89c1861a03450f20378623888e0b9550eadbc5b689911a92d",
        3_111_011,
        411,
    )
    assert split_generator(plus.source_files(None, data_dir), pin).split_info.num_examples == 411
