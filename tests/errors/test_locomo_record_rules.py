"""LoCoMo records against the shared rules: ids a TREC file cannot hold are refused where the source is read (the
identifier rule of :mod:`himga.identifiers`, which LoCoMo's readers call), and the category-5 ``adversarial_answer``
is checked as every other field is; a record without ``sample_id`` is reported by ``himga validate``.
"""

from __future__ import annotations

import pytest
from helpers.bad_input import LOADERS, check_bad_then_good
from helpers.bad_input import del_key as _del
from helpers.bad_input import dump as _dump
from helpers.bad_input import set_key as _set

from himga.errors import SourceFormatError

FILE = "locomo10.json"


def _record(sample_id: str = "conv-x") -> dict:
    turns = [{"speaker": "Ann", "dia_id": "D1:1", "text": "hello"}, {"speaker": "Bob", "dia_id": "D1:2", "text": "hi"}]
    return {
        "sample_id": sample_id,
        "conversation": {"speaker_a": "Ann", "speaker_b": "Bob", "session_1": turns},
        "qa": [
            {"question": "When?", "answer": 2023, "evidence": ["D1:1"], "category": 2},
            {"question": "Bob's dog?", "adversarial_answer": "Rex", "evidence": [], "category": 5},
        ],
    }


GOOD = _dump([_record()])


def _mutated(change) -> bytes:
    records = [_record("conv-a"), _record("conv-b")]
    change(records[1])
    return _dump(records)


def _load(loader, tmp_path, bad: bytes, message: str) -> None:
    check_bad_then_good(loader, tmp_path / FILE, bad, GOOD, tmp_path / "cache", SourceFormatError, message=message)


@pytest.fixture(params=sorted(LOADERS["locomo"]))
def loader(request):
    return LOADERS["locomo"][request.param]


ID_CASES = [
    (
        "sample_id with a space",
        _mutated(_set("sample_id", "conv 26")),
        f"{FILE}: $[1].sample_id: expected an id without whitespace, got 'conv 26'",
    ),
    ("empty sample_id", _mutated(_set("sample_id", "")), f"{FILE}: $[1].sample_id: expected a non-empty id, got ''"),
    (
        "sample_id with a no-break space",
        _mutated(_set("sample_id", "conv\xa026")),
        f"{FILE}: $[1].sample_id: expected an id without whitespace, got 'conv\\xa026'",
    ),
    (
        "dia_id with a space",
        _mutated(_set("conversation", "session_1", 0, "dia_id", "D1: 1")),
        f"{FILE}: $[1].conversation.session_1[0].dia_id: expected an id without whitespace, got 'D1: 1'",
    ),
]


@pytest.mark.parametrize(("bad", "message"), [c[1:] for c in ID_CASES], ids=[c[0] for c in ID_CASES])
def test_ids_a_trec_file_cannot_hold_are_refused_where_read(loader, tmp_path, bad, message):
    _load(loader, tmp_path, bad, message)


def test_evidence_lists_separated_by_whitespace_are_still_read(tmp_path):
    from himga.data import load_locomo

    (tmp_path / FILE).write_bytes(_mutated(_set("qa", 0, "evidence", ["D1:1 D1:2"])))
    assert load_locomo(tmp_path, cache_dir=tmp_path / "c")[1].qa_pairs[0].evidence.turn_ids == ["D1:1", "D1:2"]


# ---- the category-5 trap answer and a generated sample id ------------------------------------------------


def _seed_loader(path, cache_dir):
    from himga.data import load_locomo

    return load_locomo(path, cache_dir=cache_dir, adversarial_answer="seed")


ADVERSARIAL = [
    (
        "seed: adversarial_answer missing",
        "seed",
        _mutated(_del("qa", 1, "adversarial_answer")),
        f"{FILE}: $[1].qa[1]: missing required key 'adversarial_answer'",
    ),
    (
        "seed: adversarial_answer null",
        "seed",
        _mutated(_set("qa", 1, "adversarial_answer", None)),
        f"{FILE}: $[1].qa[1].adversarial_answer: expected string or number, got null",
    ),
    (
        "seed: adversarial_answer an array",
        "seed",
        _mutated(_set("qa", 1, "adversarial_answer", ["Rex"])),
        f"{FILE}: $[1].qa[1].adversarial_answer: expected string or number, got array",
    ),
    (
        "default: adversarial_answer an array",
        "abstain",
        _mutated(_set("qa", 1, "adversarial_answer", ["Rex"])),
        f"{FILE}: $[1].qa[1].adversarial_answer: expected string or number, got array",
    ),
]


@pytest.mark.parametrize(("mode", "bad", "message"), [c[1:] for c in ADVERSARIAL], ids=[c[0] for c in ADVERSARIAL])
def test_adversarial_answer_is_checked(tmp_path, mode, bad, message):
    loader = _seed_loader if mode == "seed" else LOADERS["locomo"]["load_locomo"]
    _load(loader, tmp_path, bad, message)


def test_a_generated_sample_id_is_reported(tmp_path):
    from himga.validate import validate

    (tmp_path / FILE).write_bytes(_mutated(_del("sample_id")))
    report = validate("locomo", data_dir=tmp_path)
    found = [(f.sample_id, f.where) for f in report.findings if f.kind == "generated_sample_id"]
    assert found == [("1", "$[1]")]
