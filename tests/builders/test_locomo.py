"""The himga_locomo builder on the real locomo10.json: exact values measured on the file."""

from __future__ import annotations

import json
import os
import re
from collections import Counter

from himga.cache import make_builder, prepare
from himga.catalog import benchmark
from himga.data import SAMPLE_FEATURES, load_locomo
from himga_locomo.records import ABSTENTION_ANSWER
from himga_locomo.source_record import sample_to_record

IDS = ["conv-26", "conv-30", "conv-41", "conv-42", "conv-43", "conv-44", "conv-47", "conv-48", "conv-49", "conv-50"]


def test_samples_in_file_order(locomo_samples):
    assert [s.sample_id for s in locomo_samples] == IDS
    assert {s.dataset for s in locomo_samples} == {"locomo"}
    assert (locomo_samples[0].speaker_a, locomo_samples[0].speaker_b) == ("Caroline", "Melanie")


def test_sessions_and_messages(locomo_samples):
    assert sum(len(s.sessions) for s in locomo_samples) == 272
    conv26 = locomo_samples[0]
    assert len(conv26.sessions) == 19
    assert conv26.sessions[0].session_id == "1"
    assert conv26.sessions[0].date_str == "1:56 pm on 8 May, 2023"
    assert [int(s.session_id) for s in conv26.sessions] == sorted(int(s.session_id) for s in conv26.sessions)
    assert sum(len(sess.messages) for s in locomo_samples for sess in s.sessions) == 5882


def test_dates_without_turns_stay_in_raw(locomo_samples):
    extra = locomo_samples[0].raw["conversation_extra"]
    assert len(extra) == 16
    assert all(re.fullmatch(r"session_\d+_date_time", k) for k in extra)
    assert all("conversation_extra" not in s.raw for s in locomo_samples[1:])


def test_qa_counts_and_default_types(locomo_samples):
    assert sum(len(s.qa_pairs) for s in locomo_samples) == 1986
    assert len(locomo_samples[0].qa_pairs) == 199
    types = Counter(qa.question_type.value for s in locomo_samples for qa in s.qa_pairs)
    assert types == {"multi_hop": 282, "temporal": 321, "open_domain": 96, "single_hop": 841, "adversarial": 446}


def test_seed_category_order_option(shared_data, tmp_path):
    samples = load_locomo(shared_data / "locomo", cache_dir=tmp_path, category_order="seed")
    types = Counter(qa.question_type.value for s in samples for qa in s.qa_pairs)
    assert types == {"single_hop": 282, "temporal": 321, "multi_hop": 96, "open_domain": 841, "adversarial": 446}


def test_answers(locomo_samples):
    qas = [qa for s in locomo_samples for qa in s.qa_pairs]
    assert all(type(qa.answer) is str for qa in qas)
    assert locomo_samples[0].qa_pairs[1].answer == "2022"
    assert locomo_samples[0].qa_pairs[1].raw["answer"] == 2022
    adversarial = [qa for qa in qas if qa.is_abstention]
    assert len(adversarial) == 446
    assert all(qa.answer == ABSTENTION_ANSWER == "Not mentioned in the conversation" for qa in adversarial)
    assert all("adversarial_answer" in qa.raw for qa in adversarial)


#: (sample_id, question_id) → the category-3 gold LoCoMo's scorer uses (text before the first ";", stripped).
CATEGORY3_CUT = {
    ("conv-26", "27"): "LIkely no",
    ("conv-26", "42"): "National park",
    ("conv-26", "64"): "Yes",
    ("conv-26", "77"): "Likely no",
    ("conv-26", "81"): "No",
    ("conv-42", "60"): "A Nintendo Switch",
    ("conv-42", "66"): "an animalkeeper at a localzoo and workingwith turtles",
    ("conv-42", "84"): "No",
    ("conv-48", "36"): "likely no more than 30",
    ("conv-50", "13"): "Yes",
    ("conv-50", "21"): "Yes",
}


def test_category3_gold_is_cut_at_the_first_semicolon(locomo_samples):
    qas = {(s.sample_id, qa.question_id): qa for s in locomo_samples for qa in s.qa_pairs}
    cut = {k: qa.answer for k, qa in qas.items() if qa.raw["category"] == 3 and qa.answer != str(qa.raw["answer"])}
    assert cut == CATEGORY3_CUT
    assert sum(qa.raw["category"] == 3 for qa in qas.values()) == 96
    assert qas["conv-26", "64"].raw["answer"] == "Yes; it's classical music"  # the rationale stays in raw
    # other categories are never cut: the one category-4 answer with ";" keeps it
    semicolon = [(k, qa.answer) for k, qa in qas.items() if ";" in qa.answer]
    assert semicolon == [
        (("conv-42", "108"), "Not tough; keep their area clean, feed them properly, give them enough light.")
    ]
    assert qas["conv-42", "108"].raw["category"] == 4


def test_category3_answer_full_option(shared_data, tmp_path):
    samples = load_locomo(shared_data / "locomo", cache_dir=tmp_path, category3_answer="full")
    qas = {(s.sample_id, qa.question_id): qa for s in samples for qa in s.qa_pairs}
    assert qas["conv-50", "13"].answer == "Yes; because he enjoys the rush of performing onstage to large crowds"
    assert sum(";" in qa.answer for qa in qas.values()) == 12
    assert all(qa.answer == str(qa.raw["answer"]) for qa in qas.values() if qa.raw["category"] != 5)


def test_seed_raw_snippets_run_verbatim(locomo_samples):
    """The seed API's examples (§3.6, §6.5): per-session dicts keyed by the session id."""
    sample = locomo_samples[0]
    assert sample.raw["event_summary"]["1"]["Caroline"] == [
        "Caroline attends an LGBTQ support group for the first time."
    ]
    assert sample.raw["event_summary"]["1"]["date"] == "8 May, 2023"
    assert sample.raw["session_summary"]["1"].startswith(
        "Caroline and Melanie had a conversation on 8 May 2023 at 1:56 pm."
    )
    assert list(sample.raw["observation"]["1"]) == ["Caroline", "Melanie"]
    assert sample.raw["observation"]["1"]["Caroline"][0] == [
        "Caroline attended an LGBTQ support group recently and found the transgender stories inspiring.",
        "D1:3",
    ]
    ids = [str(n) for n in range(1, 20)]
    assert [
        list(s.raw[k]) for s in locomo_samples[:1] for k in ("event_summary", "observation", "session_summary")
    ] == [ids] * 3
    assert [sess.session_id for sess in sample.sessions] == ids


def test_seed_adversarial_answer_option(shared_data, tmp_path):
    samples = load_locomo(shared_data / "locomo", cache_dir=tmp_path, adversarial_answer="seed")
    adversarial = [qa for s in samples for qa in s.qa_pairs if qa.is_abstention]
    assert sum(qa.answer == qa.raw["adversarial_answer"] for qa in adversarial) == 446


def test_image_turns(locomo_samples):
    messages = [m for s in locomo_samples for sess in s.sessions for m in sess.messages]
    images = [m for m in messages if m.content.startswith("[Image: ")]
    assert len(images) == 1226
    assert all(m.content.startswith(f"[Image: {m.raw['blip_caption']}]") for m in images)
    assert sum("img_url" not in m.raw for m in images) == 316
    assert Counter(k for m in messages for k in m.raw) == {
        "blip_caption": 1226,
        "img_url": 910,
        "query": 888,
        "re-download": 206,
    }


def test_evidence_normalized(locomo_samples):
    qas = [qa for s in locomo_samples for qa in s.qa_pairs]
    pattern = re.compile(r"D[1-9][0-9]*:[1-9][0-9]*")
    assert all(pattern.fullmatch(m.turn_id) for s in locomo_samples for sess in s.sessions for m in sess.messages)
    assert all(pattern.fullmatch(t) for qa in qas for t in qa.evidence.turn_ids)
    assert locomo_samples[0].qa_pairs[37].raw["evidence"] == ["D8:6; D9:17"]
    assert locomo_samples[0].qa_pairs[37].evidence.turn_ids == ["D8:6", "D9:17"]
    changed = [qa for qa in qas if qa.evidence.turn_ids != qa.raw["evidence"]]
    assert len(changed) == 8


def test_lossless_rebuild_of_every_record(shared_data, locomo_samples):
    records = json.loads((shared_data / "locomo" / "locomo10.json").read_text())
    assert [sample_to_record(s) for s in locomo_samples] == records


def test_builder_dataset_features_and_cache_reuse(shared_data, tmp_path):
    builder = make_builder(
        benchmark("locomo"), data_files=[str(shared_data / "locomo" / "locomo10.json")], cache_dir=tmp_path
    )
    ds = prepare(builder)
    assert ds.num_rows == 10
    assert ds.split == "test"
    assert ds.features == SAMPLE_FEATURES
    again = make_builder(
        benchmark("locomo"), data_files=[str(shared_data / "locomo" / "locomo10.json")], cache_dir=tmp_path
    )
    assert again.cache_dir == builder.cache_dir
    # a second prepare reuses the cache: the Arrow files are not rewritten
    mtimes = {f["filename"]: os.path.getmtime(f["filename"]) for f in ds.cache_files}
    ds2 = prepare(again)
    assert {f["filename"]: os.path.getmtime(f["filename"]) for f in ds2.cache_files} == mtimes


def test_second_load_locomo_reuses_cache(shared_data, tmp_path, monkeypatch):
    load_locomo(shared_data / "locomo", cache_dir=tmp_path)
    import datasets

    def _no_generation(*args, **kwargs):
        raise AssertionError("rebuilt instead of reusing the cache")

    monkeypatch.setattr(datasets.GeneratorBasedBuilder, "_prepare_split", _no_generation)
    assert len(load_locomo(shared_data / "locomo", cache_dir=tmp_path)) == 10


def test_default_mapping_agrees_with_the_data(locomo_samples):
    """The authors' order fits the questions: temporal ones ask "When", single-hop ones cite one turn."""
    qas = [qa for s in locomo_samples for qa in s.qa_pairs]

    def of(value):
        return [qa for qa in qas if qa.question_type.value == value]

    assert sum(qa.question.startswith("When") for qa in of("temporal")) == 246
    assert sum(len(qa.raw["evidence"]) == 1 for qa in of("single_hop")) == 795
    assert sum(len(qa.raw["evidence"]) == 1 for qa in of("multi_hop")) == 6
