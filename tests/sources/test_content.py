"""Content fingerprints: a re-serialised locomo10.json is the same content; a one-character
edit differs, at its record path."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import himga.sources._provenance
from himga.catalog import benchmark
from himga.sources import (
    ContentDigest,
    canonical,
    content_sha256,
    content_tree,
    first_difference,
    provenance,
    provenance_lines,
)
from himga_locomo import pins

ROOT = Path(__file__).resolve().parents[2]


def test_canonical_form():
    assert canonical({"b": 1, "a": ["é", 1.5, None, True]}) == '{"a":["é",1.5,null,true],"b":1}'.encode()
    assert (
        canonical({"n": 2**70, "s": '\x01"\\/\u2028'})
        == b'{"n":1180591620717411303424,"s":"\\u0001\\"\\\\/\xe2\x80\xa8"}'
    )
    whole, items = content_sha256([{"x": 1}, "y"]), ContentDigest()
    items.item({"x": 1})
    items.item("y")
    assert items.hexdigest() == whole
    assert ContentDigest().hexdigest() == content_sha256([])


def test_first_difference():
    tree = content_tree([{"qa": [{"a": 1}, {"a": 2}], "id": "x"}], 3)
    assert first_difference(tree, [{"qa": [{"a": 1}, {"a": 2}], "id": "x"}]) is None
    assert first_difference(tree, [{"qa": [{"a": 1}, {"a": 3}], "id": "x"}]) == "$[0].qa[1]"
    assert first_difference(tree, [{"qa": [{"a": 1}], "id": "x"}]) == "$[0].qa[1]"
    assert first_difference(tree, [{"qa": [{"a": 1}, {"a": 2}]}]) == "$[0].id"
    assert first_difference(tree, [{"qa": [{"a": 1}, {"a": 2}], "id": "x"}, {}]) == "$[1]"


def test_the_pin_holds_the_real_files_content(shared_data):
    """Regenerate locomo10.content.json with `python -c "import json; from himga.sources._content import content_tree;
    print(json.dumps(content_tree(json.load(open('locomo10.json')), 3), separators=(',', ':'),
    ensure_ascii=False))"`."""
    data = json.loads((shared_data / "locomo" / "locomo10.json").read_text(encoding="utf-8"))
    pin = benchmark("locomo").pins()["default"]
    assert (
        pin.content_sha256 == content_sha256(data) == "93808652e5318eaf79a966a7aa3fe50f14eaee22fd0991f7212596600351dc05"
    )
    committed = json.loads((ROOT / "himga_locomo" / "locomo10.content.json").read_text(encoding="utf-8"))
    assert committed == content_tree(data, 3)
    assert pin.content_tree == pins._CONTENT_TREE


def _reserialised(shared_data, folder: Path) -> Path:
    """locomo10.json as another tool writes it: non-ASCII escaped, 4-space indentation, a trailing newline."""
    folder.mkdir(parents=True, exist_ok=True)
    data = json.loads((shared_data / "locomo" / "locomo10.json").read_text(encoding="utf-8"))
    path = folder / "locomo10.json"
    path.write_text(json.dumps(data, ensure_ascii=True, indent=4) + "\n", encoding="ascii")
    return path


def test_a_reserialised_copy_is_the_same_content(shared_data, tmp_path, monkeypatch):
    copy = _reserialised(shared_data, tmp_path / "a")
    digest = hashlib.sha256(copy.read_bytes()).hexdigest()
    assert digest != benchmark("locomo").pins()["default"].sha256
    line = f"locomo10.json: same content as snap-research/locomo@3eb6f2c (re-serialised; sha256 {digest})"
    monkeypatch.setattr(himga.sources._provenance, "_CONTENT_SEEN", {})
    assert provenance_lines(benchmark("locomo"), [copy]) == [line]  # no build: parsed once for it
    from himga.data import load_locomo

    monkeypatch.setattr(himga.sources._provenance, "_CONTENT_SEEN", {})
    load_locomo(copy, cache_dir=tmp_path / "c")
    seen = dict(himga.sources._provenance._CONTENT_SEEN)
    assert [fingerprint for fingerprint, _ in seen.values()] == [benchmark("locomo").pins()["default"].content_sha256]
    assert provenance_lines(benchmark("locomo"), [copy]) == [line]  # recorded by the build's parse


def test_a_one_character_edit_differs_at_its_record_path(shared_data, tmp_path):
    source = (shared_data / "locomo" / "locomo10.json").read_bytes()
    old = b'"answer": "Psychology, counseling certification"'  # conv-26, QA 2
    assert source.count(old) == 1
    copy = tmp_path / "locomo10.json"
    copy.write_bytes(source.replace(old, old.replace(b"certification", b"certificatiom")))
    assert copy.stat().st_size == len(source)
    digest = hashlib.sha256(copy.read_bytes()).hexdigest()
    assert provenance(copy, benchmark("locomo").pins().values()) == (
        f"locomo10.json: differs in content from snap-research/locomo@3eb6f2c at $[0].qa[2] (sha256 {digest})"
    )


def test_a_reserialised_copy_under_the_datasets_root_gives_no_warning(shared_data, tmp_path, monkeypatch, caplog):
    copy = _reserialised(shared_data, tmp_path / "root" / "locomo")
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(tmp_path / "root"))
    from himga.data import load_dataset

    with caplog.at_level("WARNING", logger="himga.sources"):
        samples = load_dataset("locomo", cache_dir=tmp_path / "c")
    assert len(samples) == 10 and copy.is_file()
    assert caplog.records == []
