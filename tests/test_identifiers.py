"""Issue 16 §3: identifiers have a length limit, so the qrels files are bounded by the input.

A 200,000-character LoCoMo ``sample_id`` in a 0.5 MB file made ``himga qrels`` write a 33 GB
``candidates.turn.tsv`` (each line repeats the qualified id). Now an id longer than 128 characters is a
``SourceFormatError`` naming the file and the path, and nothing is written; a 128-character id is read,
and every qrels line is at most a few times that.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from himga.cli import main
from himga.identifiers import MAX_ID_LENGTH, MAX_QUALIFIED_ID_LENGTH, id_problem
from himga.qrels import export_qrels

MESSAGE = "locomo10.json: $[0].sample_id: expected an id of at most 128 characters, got 200,000"


def _locomo(folder: Path, sample_id: str, turn_id: str = "D1:2") -> Path:
    turns = [{"speaker": "A", "dia_id": "D1:1", "text": "hi"}, {"speaker": "B", "dia_id": turn_id, "text": "yo"}]
    record = {
        "sample_id": sample_id,
        "conversation": {"speaker_a": "A", "speaker_b": "B", "session_1": turns},
        "qa": [{"question": "Q?", "answer": "hi", "category": 1, "evidence": ["D1:1"]}],
    }
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "locomo10.json").write_text(json.dumps([record]), encoding="utf-8")
    return folder


def test_the_limits():
    assert (MAX_ID_LENGTH, MAX_QUALIFIED_ID_LENGTH) == (128, 258)
    assert id_problem("x" * 128) is None
    assert id_problem("x" * 129) == "expected an id of at most 128 characters, got 129"


def test_128_character_ids_are_read_and_bound_every_line(tmp_path):
    sample_id, turn_id = "c" * 128, "D" * 128
    summary = export_qrels(
        "locomo", tmp_path / "out", data_dir=_locomo(tmp_path / "src", sample_id, turn_id), cache_dir=tmp_path / "cache"
    )
    assert (summary.queries, summary.evaluable) == (1, 1)
    lines = (tmp_path / "out" / "candidates.turn.tsv").read_text(encoding="utf-8").splitlines()
    assert lines == [f"{sample_id}:0\t{sample_id}:D1:1", f"{sample_id}:0\t{sample_id}:{turn_id}"]
    assert max(len(line) for line in lines) == 130 + 1 + 257  # qid + tab + doc id
    qrels = (tmp_path / "out" / "qrels.turn.txt").read_text(encoding="utf-8")
    assert qrels == f"{sample_id}:0 0 {sample_id}:D1:1 1\n"


def test_a_200000_character_id_writes_nothing(tmp_path, capsys):
    src = _locomo(tmp_path / "src", "c" * 200_000)
    assert (
        main(["qrels", "locomo", "--data-dir", str(src), "--cache-dir", str(tmp_path / "cache"), str(tmp_path / "out")])
        == 2
    )
    assert capsys.readouterr().err == f"himga: error: {MESSAGE}\n"
    assert not (tmp_path / "out").exists()


def test_a_200000_character_id_as_another_user(as_nobody):
    base = Path(tempfile.mkdtemp(prefix="himga-longid-"))
    try:
        src = _locomo(base / "src", "c" * 200_000)
        for path in (base, src, src / "locomo10.json"):
            os.chown(path, 65534, 65534)
        himga = str(Path(sys.executable).with_name("himga"))
        done = as_nobody(
            himga, "qrels", "locomo", "--data-dir", str(src), "--cache-dir", str(base / "cache"), str(base / "out")
        )
        assert (done.returncode, done.stderr) == (2, f"himga: error: {MESSAGE}\n")
        assert not (base / "out").exists()
    finally:
        shutil.rmtree(base)


def test_many_tiny_turns_and_questions_write_nothing(tmp_path, capsys):
    """Bounded ids do not bound the candidates (every question × every turn): 3,000 one-character turns and
    3,000 questions (0.37 MB) would make 146 MB of candidates; refused before anything is written."""
    turns = [{"speaker": "A", "dia_id": f"D1:{n}", "text": "x"} for n in range(1, 3001)]
    qa = [{"question": "Q", "answer": "x", "category": 1, "evidence": ["D1:1"]} for _ in range(3000)]
    record = {"sample_id": "s", "conversation": {"speaker_a": "A", "speaker_b": "B", "session_1": turns}, "qa": qa}
    (src := tmp_path / "src").mkdir()
    (src / "locomo10.json").write_text(json.dumps([record]), encoding="utf-8")
    assert (src / "locomo10.json").stat().st_size == 367_990
    assert (
        main(["qrels", "locomo", "--data-dir", str(src), "--cache-dir", str(tmp_path / "cache"), str(tmp_path / "out")])
        == 2
    )
    assert capsys.readouterr().err == (
        "himga: error: cannot write TREC files: sample s: its candidates (3,000 questions × 3,000 turns) would take "
        "146,383,890 bytes, more than 256 bytes per character of its text (7,396,608); the released benchmarks need at "
        "most 42\n"
    )
    assert not (tmp_path / "out").exists()  # the folder qrels made is removed again


def test_the_real_locomo_candidates_are_within_the_bound(shared_data, tmp_path):
    """The released file's candidates: 32.0 MB, at most 42 bytes per character of a conversation's text (conv-42)."""
    summary = export_qrels("locomo", tmp_path / "out", data_dir=shared_data / "locomo", cache_dir=tmp_path / "cache")
    sizes = sum((tmp_path / "out" / f"candidates.{g}.tsv").stat().st_size for g in ("session", "turn"))
    assert (summary.queries, sizes) == (1986, 31_984_605)


# ---- control characters never reach a TREC/TSV file, a message or a report raw -------------


def test_control_characters_are_refused_in_trec_files(tmp_path):
    from himga.errors import ConfigurationError
    from himga.qrels import write_run

    assert id_problem("x\0y") == "expected an id without control characters, got 'x\\x00y'"
    assert id_problem("x\x1b[2Jy") == "expected an id without control characters, got 'x\\x1b[2Jy'"
    assert id_problem("café-ü") is None
    with pytest.raises(ConfigurationError) as info:
        write_run({"x\0y": ["a"]}, tmp_path / "x.run")
    assert (
        str(info.value)
        == "cannot write TREC files: query id 'x\\x00y': expected an id without control characters, got 'x\\x00y'"
    )
    assert not (tmp_path / "x.run").exists()


def test_a_file_name_with_a_newline_and_esc_is_one_escaped_line(tmp_path, capsys):
    src = tmp_path / "src"
    src.mkdir()
    (src / "bad\nFAKE: all good\x1b[2J.json").write_bytes(b"[")
    assert main(["stats", "locomo", "--data-dir", str(src), "--cache-dir", str(tmp_path / "cache")]) == 2
    err = capsys.readouterr().err
    assert (
        err == "himga: error: 'bad\\nFAKE: all good\\x1b[2J.json': $: invalid JSON at line 1 column 2: Expecting value "
        "(truncated or corrupted file?)\n"
    )


def test_cli_escapes_any_message_to_one_line(monkeypatch, capsys):
    import himga.cli
    from himga.errors import ConfigurationError

    def fail(args):
        raise ConfigurationError("folder 'a\nFAKE: all good\x1b[0m' is odd")

    monkeypatch.setattr(himga.cli, "cmd_sources", fail)
    assert main(["sources"]) == 2
    assert capsys.readouterr().err == "himga: error: folder 'a\\nFAKE: all good\\x1b[0m' is odd\n"


def test_validate_report_escapes_ids():
    from himga.validate import Finding, Report, format_report

    report = Report(
        "locomo",
        None,
        ["locomo10.json"],
        1,
        {"dangling_evidence": "evidence naming no turn"},
        [Finding("dangling_evidence", "conv\x1b[2J", "QA 0", "D9:9\nFAKE: all good")],
        [],
    )
    assert format_report(report).splitlines()[-1] == "  'conv\\x1b[2J'  QA 0  'D9:9\\nFAKE: all good'"
