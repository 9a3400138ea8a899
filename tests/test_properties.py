"""Property tests with hypothesis.

1. Random valid raw records → the builder's row code → Arrow → Samples → rebuilt raw record equals the
   input (LoCoMo: ``record_to_row`` + the builder's JSON-text step; LongMemEval: ``question_to_row`` +
   ``himga.cache._arrow_batches.rows_to_table``; both read back with ``table_to_samples``).
2. Random truncations and byte flips of a valid small file, through the full builder and facade:
   a himga error or valid Samples, never any other exception.
"""

from __future__ import annotations

import json
import logging
import string
import tempfile
from pathlib import Path

import datasets
import pyarrow as pa
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from himga.cache import rows_to_table
from himga.data import Sample, load_locomo, load_longmemeval
from himga.errors import HimgaError
from himga.schema.convert import table_to_samples
from himga.schema.features import SAMPLE_FEATURES
from himga_locomo.records import record_to_row
from himga_locomo.source_record import sample_to_record as locomo_record
from himga_longmemeval.records import QUESTION_TYPES, question_to_row
from himga_longmemeval.records import sample_to_record as longmemeval_record

FAST = settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
BUILDS = settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
OPTIONS = {"category_order": "authors", "adversarial_answer": "abstain", "category3_answer": "scorer"}

text = st.text(max_size=12)  # any Unicode except surrogates
ids = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12).filter(
    lambda i: not any(c.isspace() for c in i)
)  # ids (himga.identifiers): no control characters, no whitespace, not empty
json_scalars = (
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.floats(allow_nan=False, allow_infinity=False) | text
)
json_values = st.recursive(
    json_scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3), max_leaves=6
)
plain_keys = st.text(string.ascii_lowercase + "_", min_size=1, max_size=8)


@st.composite
def locomo_records(draw):
    conversation = {"speaker_a": draw(text), "speaker_b": draw(text)}
    for n in draw(st.lists(st.integers(1, 40), unique=True, max_size=4)):
        turns = []
        for j in range(draw(st.integers(0, 3))):
            turn = {"speaker": draw(text), "dia_id": f"D{n}:{j + 1}", "text": draw(text)}
            if draw(st.booleans()):
                turn["blip_caption"] = draw(text)
            if draw(st.booleans()):
                turn["img_url"] = draw(st.lists(text, max_size=2))
            if draw(st.booleans()):
                turn["re-download"] = draw(st.booleans())
            turns.append(turn)
        if draw(st.booleans()) or not turns:
            conversation[f"session_{n}"] = turns
        if draw(st.booleans()):
            conversation[f"session_{n}_date_time"] = draw(text)
    for key in draw(
        st.lists(
            plain_keys.filter(lambda k: not k.startswith("session_") and k not in ("speaker_a", "speaker_b")),
            max_size=2,
        )
    ):
        conversation[key] = draw(json_values)
    qa = []
    for _ in range(draw(st.integers(0, 4))):
        category = draw(st.integers(1, 5))
        item = {"question": draw(text), "category": category}
        if category != 5 or draw(st.booleans()):
            item["answer"] = draw(text | st.integers(-(2**53), 2**53))
        if category == 5 and draw(st.booleans()):
            item["adversarial_answer"] = draw(text)
        if draw(st.booleans()):
            item["evidence"] = draw(
                st.lists(text | st.sampled_from(["D1:1", "D1:2; D2:1", "D:3:1", "D2:01", "D"]), max_size=3)
            )
        qa.append(item)
    if draw(st.booleans()):  # the first public release's flat layout
        record = {"qa": qa, **conversation}
        for key in draw(
            st.lists(st.sampled_from(["session_1_observation", "session_2_summary", "events_session_1"]), unique=True)
        ):
            record[key] = draw(json_values)
    else:
        record = {"conversation": conversation, "qa": qa}
        per_session = {
            "event_summary": "events_session_{}",
            "observation": "session_{}_observation",
            "session_summary": "session_{}_summary",
        }
        for key, form in per_session.items():
            if draw(st.booleans()):  # an object of per-session keys (re-keyed by session id) and others (kept aside)
                keys = st.integers(1, 40).map(form.format) | text
                record[key] = draw(st.dictionaries(keys, json_values, max_size=3))
    if draw(st.booleans()):
        record["sample_id"] = draw(ids)
    reserved = (
        "conversation",
        "qa",
        "sample_id",
        "event_summary",
        "observation",
        "session_summary",
        "speaker_a",
        "speaker_b",
    )
    for key in draw(
        st.lists(
            plain_keys.filter(lambda k: k not in reserved and not k.startswith(("session_", "events_session_"))),
            max_size=2,
        )
    ):
        record.setdefault(key, draw(json_values))
    return record


@st.composite
def longmemeval_questions(draw):
    n = draw(st.integers(0, 3))
    sessions = [
        [
            {
                "role": draw(st.sampled_from(["user", "assistant"])),
                "content": draw(text),
                **({"has_answer": draw(st.booleans())} if draw(st.booleans()) else {}),
            }
            for _ in range(draw(st.integers(0, 3)))
        ]
        for _ in range(n)
    ]
    question = {
        "question_id": draw(ids),
        "question_type": draw(st.sampled_from(sorted(QUESTION_TYPES))),
        "question": draw(text),
        "answer": draw(text | st.integers(-(2**53), 2**53)),
    }
    if draw(st.booleans()):
        question["question_date"] = draw(text)
    question["haystack_dates"] = draw(st.lists(text | st.none(), min_size=n, max_size=n))
    question["haystack_session_ids"] = draw(st.lists(ids, min_size=n, max_size=n))
    question["haystack_sessions"] = sessions
    if draw(st.booleans()):
        question["answer_session_ids"] = draw(st.lists(ids, max_size=3))
    for key in draw(st.lists(plain_keys.filter(lambda k: k not in question and k != "question_date"), max_size=2)):
        question[key] = draw(json_values)
    return question


def _locomo_arrow(row: dict) -> pa.Table:
    """What the LoCoMo builder writes: the row with JSON-text ``raw`` values, encoded by ``datasets``."""
    return datasets.Dataset.from_list([row], features=SAMPLE_FEATURES).data.table


def _json_equal(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


_BRACKET_CAPTION = {  # a caption holding "]" and no text: found by CI's hypothesis run
    "conversation": {
        "speaker_a": "",
        "speaker_b": "",
        "session_1": [{"speaker": "", "dia_id": "D1:1", "text": "", "blip_caption": "]"}],
    },
    "qa": [],
}


@FAST
@given(locomo_records())
@example(_BRACKET_CAPTION)
def test_locomo_record_round_trips_through_arrow(record):
    original = json.loads(json.dumps(record))
    row = record_to_row(record, file="x.json", path="$[0]", fallback_id="0", options=OPTIONS)
    (sample,) = table_to_samples(_locomo_arrow(row))
    assert isinstance(sample, Sample)
    assert _json_equal(locomo_record(sample), original)
    assert record == original  # the builder never mutates its input


@FAST
@given(longmemeval_questions())
def test_longmemeval_question_round_trips_through_arrow(question):
    original = json.loads(json.dumps(question))
    logging.disable(logging.WARNING)
    try:
        row = question_to_row(question, file="x.json", path="$[0]")
    finally:
        logging.disable(logging.NOTSET)
    (sample,) = table_to_samples(rows_to_table([row]))
    assert _json_equal(longmemeval_record(sample), original)
    assert question == original


# ---- corruption: the full builder through the facade -------------------------------------------------

LOCOMO_FILE = json.dumps(
    [
        {
            "sample_id": "conv-1",
            "conversation": {
                "speaker_a": "Ann",
                "speaker_b": "Bob",
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": [
                    {"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Bob", "blip_caption": "a dog"},
                    {"speaker": "Bob", "dia_id": "D1:2", "text": "Hi Ann"},
                ],
            },
            "qa": [
                {"question": "Who?", "answer": 2022, "evidence": ["D1:1"], "category": 1},
                {"question": "Why?", "adversarial_answer": "no", "evidence": [], "category": 5},
            ],
        }
    ],
    indent=1,
).encode()
LONGMEMEVAL_FILE = json.dumps(
    [
        {
            "question_id": "q1",
            "question_type": "temporal-reasoning",
            "question": "When?",
            "answer": 3,
            "question_date": "2023/05/20 (Sat) 10:00",
            "haystack_dates": ["2023/05/01 (Mon) 09:00"],
            "haystack_session_ids": ["s1"],
            "haystack_sessions": [
                [{"role": "user", "content": "Hello", "has_answer": True}, {"role": "assistant", "content": "Hi"}]
            ],
            "answer_session_ids": ["s1"],
        }
    ],
    indent=1,
).encode()


def _corruptions(data: bytes):
    truncate = st.integers(0, len(data) - 1).map(lambda n: data[:n])
    flips = st.lists(st.tuples(st.integers(0, len(data) - 1), st.integers(0, 255)), min_size=1, max_size=3)

    def flip(changes):
        out = bytearray(data)
        for position, value in changes:
            out[position] = value
        return bytes(out)

    return truncate | flips.map(flip)


def _load_or_himga_error(load, content: bytes, name: str, rebuild):
    """Load ``content``: either a himga error naming the file, or Samples that rebuild the file's records."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(content)
        try:
            samples = load(path, cache_dir=Path(tmp) / "cache")
        except HimgaError as e:
            assert str(e).startswith(name), str(e)  # names the file
            return None
        assert samples and all(isinstance(s, Sample) for s in samples)
        for s in samples:
            assert all(isinstance(qa.answer, str) for qa in s.qa_pairs)
        # whatever still parsed is kept losslessly: the Samples rebuild exactly what the file holds
        data = json.loads(content.decode("utf-8-sig"))
        assert [rebuild(s) for s in samples] == (data if isinstance(data, list) else [data])
        return samples


@BUILDS
@given(_corruptions(LOCOMO_FILE))
def test_corrupted_locomo_file_gives_a_himga_error_or_valid_samples(content):
    _load_or_himga_error(load_locomo, content, "locomo10.json", locomo_record)


@BUILDS
@given(_corruptions(LONGMEMEVAL_FILE))
def test_corrupted_longmemeval_file_gives_a_himga_error_or_valid_samples(content):
    logging.disable(logging.WARNING)
    try:
        _load_or_himga_error(
            lambda p, cache_dir: load_longmemeval(p, config="oracle", cache_dir=cache_dir),
            content,
            "longmemeval_oracle.json",
            longmemeval_record,
        )
    finally:
        logging.disable(logging.NOTSET)
