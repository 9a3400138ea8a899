"""What a new user's mistakes and a hostile endpoint do to ``himga run``: one line naming the cause, said before any
question is asked where it can be, and a run folder that is never silently mixed, overwritten or misread."""

from __future__ import annotations

import json
import math

import pytest
from helpers.chat_server import ChatServer

from himga.cli import main
from himga.errors import ConfigurationError, SourceFormatError, redacted
from himga.memory import BaseMemory, Retrieved
from himga.run import RunStopped, run


@pytest.fixture
def locomo(shared_data, tmp_path):
    return {"data_dir": shared_data / "locomo", "cache_dir": tmp_path / "cache"}


def _run(out, **kwargs):
    return run("locomo", memory="recency", answer_model="extractive", out=out, progress=False, **kwargs)


class NaNScores(BaseMemory):
    def reset(self):
        self.messages = []

    def ingest(self, message):
        self.messages.append(message)

    def retrieve(self, query, k=10, now=None):
        return [Retrieved(m.content, m.turn_id, score=math.nan) for m in self.messages[-k:]]


def test_a_damaged_records_file_is_refused_naming_the_line(locomo, tmp_path):
    out = tmp_path / "r"
    _run(out, limit=3, **locomo)
    records = out / "records.jsonl"
    lines = records.read_text(encoding="utf-8").splitlines(keepends=True)
    records.write_text(lines[0] + "not json\n" + "".join(lines[1:]), encoding="utf-8")
    with pytest.raises(SourceFormatError, match=r"records\.jsonl: line 2: not a record of a run \(invalid JSON"):
        _run(out, limit=3, **locomo)
    records.write_text(lines[0] + '{"a": 1}\n', encoding="utf-8")
    with pytest.raises(SourceFormatError, match=r"line 2: not a record of a run \(no view_question_id\)"):
        _run(out, limit=3, **locomo)


def test_a_torn_last_line_is_the_one_damage_tolerated(locomo, tmp_path):
    out = tmp_path / "r"
    _run(out, limit=3, **locomo)
    records = out / "records.jsonl"
    lines = records.read_text(encoding="utf-8").splitlines(keepends=True)
    records.write_text("".join(lines[:2]) + lines[2][:25], encoding="utf-8")  # a kill -9 in the middle of a write
    manifest = _run(out, limit=3, **locomo)
    assert (manifest["completed"], manifest["answered"]) == (True, 3)
    assert records.read_text(encoding="utf-8").count("\n") == 3


def test_records_of_another_run_copied_in_are_refused_before_the_folder_is_touched(locomo, tmp_path):
    _run(tmp_path / "a", limit=5, **locomo)
    _run(tmp_path / "b", limit=2, **locomo)
    before = (tmp_path / "b" / "manifest.json").read_bytes()
    (tmp_path / "b" / "records.jsonl").write_bytes((tmp_path / "a" / "records.jsonl").read_bytes())
    with pytest.raises(
        ConfigurationError, match=r"3 records answer questions this run does not ask \(conv-26:2, conv-26:3, conv-26:4"
    ):
        _run(tmp_path / "b", limit=2, **locomo)
    assert (tmp_path / "b" / "manifest.json").read_bytes() == before


def test_settings_may_change_while_nothing_is_answered(locomo, tmp_path):
    out = tmp_path / "r"
    _run(out, limit=2, **locomo)
    (out / "records.jsonl").write_bytes(b"")
    manifest = _run(out, limit=2, top_k=5, **locomo)
    assert (manifest["top_k"], manifest["answered"]) == (5, 2)


def test_a_nan_score_stops_the_run_naming_the_memory(locomo, tmp_path):
    with pytest.raises(
        RunStopped, match=r"NaNScores: retrieve\(\) on sample conv-26 returned what is not items: .*score is nan"
    ):
        run(
            "locomo", memory=NaNScores, answer_model="extractive", out=tmp_path / "r", limit=2, progress=False, **locomo
        )


def test_a_reply_that_is_not_json_stops_the_run_in_one_line(locomo, tmp_path):
    with ChatServer(raw_reply=b"<html>a login page</html>") as server:
        with pytest.raises(RunStopped, match=r"the endpoint's reply is not JSON .*is --base-url an OpenAI-compatible"):
            run(
                "locomo",
                memory="recency",
                answer_model="m",
                base_url=server.base_url,
                out=tmp_path / "r",
                limit=1,
                progress=False,
                **locomo,
            )


def _cli(argv, locomo, tmp_path, capsys) -> tuple[int, str]:
    base = ["run", "locomo", "--answer-model", "extractive", "--out", str(tmp_path / "r"), "--no-progress"]
    status = main([*base, "--data-dir", str(locomo["data_dir"]), "--cache-dir", str(locomo["cache_dir"]), *argv])
    return status, capsys.readouterr().err


def test_a_memory_module_in_the_current_folder_is_imported(locomo, tmp_path, capsys, monkeypatch):
    (tmp_path / "mymem_ok.py").write_text(
        "from himga.memory import BaseMemory\n"
        "class Mine(BaseMemory):\n"
        "    def reset(self): self.m = []\n"
        "    def ingest(self, message): self.m.append(message.content)\n"
        "    def retrieve(self, query, k=10, now=None): return self.m[-k:]\n"
    )
    monkeypatch.chdir(tmp_path)
    assert _cli(["--memory", "mymem_ok:Mine", "--limit", "2"], locomo, tmp_path, capsys) == (0, "")
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert (manifest["memory"]["name"], manifest["answered"]) == ("mymem_ok:Mine", 2)


_MEMORY = "from himga.memory import BaseMemory\nclass Mine(BaseMemory):\n    reset = ingest = retrieve = print\n"


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def broken(:\n", "--memory mymem_bad:Mine: cannot import it (SyntaxError: "),
        ("raise RuntimeError('no GPU')\n", "--memory mymem_bad:Mine: cannot import it (RuntimeError: no GPU)"),
        (
            _MEMORY + "    def __init__(self, path): pass\n",
            "--memory mymem_bad:Mine: Mine.__init__() missing 1 required positional argument: 'path' (give "
            "arguments with --memory-arg NAME=VALUE)",
        ),
        (
            _MEMORY + "    def __init__(self): raise OSError('index locked')\n",
            "--memory mymem_bad:Mine: OSError: index locked",
        ),
    ],
)
def test_a_memory_that_cannot_be_made_is_one_line(source, message, locomo, tmp_path, capsys, monkeypatch):
    (tmp_path / "mymem_bad.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(__import__("sys").modules, "mymem_bad", raising=False)
    status, err = _cli(["--memory", "mymem_bad:Mine"], locomo, tmp_path, capsys)
    assert (status, err.count("\n")) == (2, 1) and err.startswith("himga: error: " + message), err
    assert not (tmp_path / "r").exists()


def test_a_prompt_for_another_benchmark_and_an_unknown_judge_are_refused_before_a_request(locomo, tmp_path, capsys):
    with ChatServer(default="x") as server:
        status, err = _cli(
            ["--memory", "recency", "--answer-model", "m", "--base-url", server.base_url, "--answer-prompt", "beam"],
            locomo,
            tmp_path,
            capsys,
        )
        assert status == 2 and err.startswith(
            "himga: error: --answer-prompt beam: written for beam, not locomo; for "
        ), err
        assert "locomo-no-gold" in err and server.bodies == []
        status, err = _cli(["--memory", "recency", "--judge", "nosuch"], locomo, tmp_path, capsys)
        assert status == 2 and err.startswith("himga: error: unknown judge 'nosuch'"), err
    assert not (tmp_path / "r").exists()


class WithEndpoint(NaNScores):
    def __init__(self, url: str):
        self.url = url

    def retrieve(self, query, k=10, now=None):
        return [m.content for m in self.messages[-k:]]


def test_credentials_in_a_url_never_reach_the_manifest_or_an_error(locomo, tmp_path):
    assert redacted("cannot reach http://alice:s3cret@127.0.0.1:9/v1") == "cannot reach http://***@127.0.0.1:9/v1"
    manifest = run(
        "locomo",
        memory=WithEndpoint,
        memory_args={"url": "https://bob:hunter22@example.org/x"},
        answer_model="extractive",
        out=tmp_path / "r",
        limit=1,
        progress=False,
        **locomo,
    )
    assert manifest["memory"]["args"] == {"url": "https://***@example.org/x"}
    assert "hunter22" not in (tmp_path / "r" / "manifest.json").read_text()


def _oracle_sample_run(shared_data, tmp_path, config: str):
    """The LongMemEval oracle sample's first two questions, run read as ``config``: (the file, the manifest)."""
    lme = shared_data / "longmemeval" / "longmemeval_oracle_sample.json"
    manifest = run(
        "longmemeval",
        config=config,
        data_dir=lme,
        cache_dir=tmp_path / "c",
        memory="recency",
        answer_model="extractive",
        out=tmp_path / "r",
        limit=2,
        progress=False,
    )
    return lme, manifest


def test_the_printed_score_command_repeats_the_source_arguments(shared_data, tmp_path, capsys):
    lme, manifest = _oracle_sample_run(shared_data, tmp_path, "oracle")
    assert f"--config oracle --data-dir {lme} --cache-dir {tmp_path / 'c'} --labels" in manifest["score"]["next"]


def test_a_reference_run_says_what_reads_gold(locomo, tmp_path, capsys):
    _run(tmp_path / "r", limit=2, **locomo)
    assert "note: a reference run" not in capsys.readouterr().out
    run("locomo", memory="oracle", answer_model="extractive", out=tmp_path / "o", limit=2, progress=False, **locomo)
    assert "note: a reference run, no system's: the memory reads gold\n" in capsys.readouterr().out


def test_an_empty_model_name_is_refused(locomo, tmp_path, capsys):
    status, err = _cli(["--memory", "recency", "--answer-model", " "], locomo, tmp_path, capsys)
    assert (status, err) == (2, "himga: error: --answer-model: expected a model name (or extractive), got ' '\n")
    (tmp_path / "req.jsonl").write_text('{"question_id": "q", "model": "m", "messages": [{"role": "user"}]}\n')
    assert main(["judge", str(tmp_path / "req.jsonl"), "--model", "", "--dry-run"]) == 2
    assert capsys.readouterr().err == "himga: error: --model: expected a model name, got ''\n"


class OwnIds(NaNScores):
    def retrieve(self, query, k=10, now=None):
        return [Retrieved(self.messages[0].content, self.messages[0].turn_id), Retrieved("a fact", "fact-17")]


def test_retrieved_ids_that_name_nothing_in_the_view_are_counted(locomo, tmp_path, capsys):
    run("locomo", memory=OwnIds, answer_model="extractive", out=tmp_path / "r", limit=2, progress=False, **locomo)
    records = [json.loads(line) for line in (tmp_path / "r" / "records.jsonl").read_text().splitlines()]
    assert [(r["retrieved_ids"], r["retrieved_sessions"], r["unknown_ids"]) for r in records] == [
        (["D1:1"], ["1"], ["fact-17"])
    ] * 2
    assert (
        "note: 2 retrieved items of 2 questions named no message or session of the view (first: 'fact-17' at "
        "conv-26:0); they count as retrieving nothing\n"
    ) in capsys.readouterr().out


def test_himga_score_takes_a_run_folder(locomo, tmp_path, capsys):
    _run(tmp_path / "r", limit=3, **locomo)
    capsys.readouterr()
    args = [
        "score",
        "locomo",
        "--partial",
        "--data-dir",
        str(locomo["data_dir"]),
        "--cache-dir",
        str(locomo["cache_dir"]),
    ]
    assert main([*args[:2], str(tmp_path / "r"), *args[2:]]) == 0
    by_folder = capsys.readouterr().out
    assert main([*args[:2], str(tmp_path / "r" / "records.jsonl"), *args[2:]]) == 0
    assert capsys.readouterr().out == by_folder and by_folder.startswith("locomo: 3 questions scored")


def test_a_run_continued_at_another_endpoint_keeps_both_hosts(locomo, tmp_path, capsys):
    def at(server):
        return run(
            "locomo",
            memory="recency",
            answer_model="m",
            base_url=server.base_url,
            out=tmp_path / "r",
            limit=2,
            progress=False,
            **locomo,
        )

    with ChatServer(default="x") as first, ChatServer(default="x") as second:
        at(first)
        (tmp_path / "r" / "records.jsonl").write_text(
            (tmp_path / "r" / "records.jsonl").read_text().splitlines(keepends=True)[0]
        )
        capsys.readouterr()
        manifest = at(second)
    hosts = [s.base_url.split("//")[1].removesuffix("/v1") for s in (first, second)]
    assert (manifest["endpoints"], manifest["endpoint"], manifest["answered"]) == (hosts, hosts[1], 2)
    assert f"holds answers from {hosts[0]}, {hosts[1]}; it continues at {hosts[1]}" in capsys.readouterr().out
    assert len(second.bodies) == 1


class StringScore(NaNScores):
    def retrieve(self, query, k=10, now=None):
        return [Retrieved(m.content, m.turn_id, score="0.9") for m in self.messages[-k:]]


class LoneSurrogate(NaNScores):
    def retrieve(self, query, k=10, now=None):
        return [Retrieved("broken \ud800 text", self.messages[0].turn_id)]


def test_an_item_of_the_wrong_types_stops_the_run_in_one_line(locomo, tmp_path):
    with pytest.raises(RunStopped, match=r"StringScore: retrieve\(\) .* an item whose score is '0\.9', not a finite"):
        run(
            "locomo",
            memory=StringScore,
            answer_model="extractive",
            out=tmp_path / "r",
            limit=1,
            progress=False,
            **locomo,
        )


def test_a_lone_surrogate_is_written_escaped_and_read_back_the_same(locomo, tmp_path):
    manifest = run(
        "locomo", memory=LoneSurrogate, answer_model="extractive", out=tmp_path / "r", limit=1, progress=False, **locomo
    )
    (record,) = [json.loads(line) for line in (tmp_path / "r" / "records.jsonl").read_text().splitlines()]
    assert (manifest["completed"], record["response"], record["retrieved"][0]["text"]) == (
        True,
        "broken \ud800 text",
        "broken \ud800 text",
    )


@pytest.mark.parametrize(
    ("body", "kind"),
    [(b'{"choices": 5}', "application/json"), (b'{"choices": [{"index": 0}]}', "application/json")],
)
def test_json_that_is_no_completion_stops_the_run_and_the_judge_in_one_line(body, kind, locomo, tmp_path, capsys):
    with ChatServer(raw_reply=body, raw_type=kind) as server:
        with pytest.raises(RunStopped, match=r"the endpoint's reply is no chat completion \(.*\): is --base-url"):
            run(
                "locomo",
                memory="recency",
                answer_model="m",
                base_url=server.base_url,
                out=tmp_path / "r",
                limit=1,
                progress=False,
                **locomo,
            )
        (tmp_path / "req.jsonl").write_text(
            '{"question_id": "conv-26:0", "model": "m", "messages": [{"role": "user", "content": "q"}]}\n'
        )
        args = ["judge", str(tmp_path / "req.jsonl"), "--out", str(tmp_path / "out.jsonl"), "--no-progress"]
        assert main([*args, "--base-url", server.base_url, "--cache-dir", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("himga: error: the endpoint's reply is no chat completion (") and err.count("\n") == 1


def test_an_answer_without_content_is_scored_wrong_and_counted(locomo, tmp_path, capsys):
    def reply(body):
        return None if "When did Caroline go to the LGBTQ support group" in body["messages"][-1]["content"] else "x"

    with ChatServer(respond=reply) as server:
        manifest = run(
            "locomo",
            memory="recency",
            answer_model="m",
            answer_prompt="locomo-no-gold",
            base_url=server.base_url,
            out=tmp_path / "r",
            limit=3,
            progress=False,
            **locomo,
        )
    records = sorted(
        (json.loads(line) for line in (tmp_path / "r" / "records.jsonl").read_text().splitlines()),
        key=lambda r: r["order"],
    )
    assert [(r["response"], r.get("empty_reply")) for r in records] == [
        ("", "the endpoint sent no content (finish_reason stop)"),
        ("x", None),
        ("x", None),
    ]
    assert (manifest["completed"], manifest["empty_replies"], manifest["score"]["scored"]) == (True, 1, 3)
    note = "note: 1 answer of 3 came back without content (first: conv-26:0, the endpoint sent no content"
    assert f"{note} (finish_reason stop))" in capsys.readouterr().out


class WithSecrets(WithEndpoint):
    def __init__(self, url: str, api_key: str, password: str, api_key_env: str):
        self.url = url


def test_secret_arguments_never_reach_the_manifest(locomo, tmp_path):
    args = {"url": "https://x.org", "api_key": "sk-live-ABCDEF123", "password": "plainpw", "api_key_env": "K"}
    manifest = run(
        "locomo",
        memory=WithSecrets,
        memory_args=args,
        answer_model="extractive",
        out=tmp_path / "r",
        limit=1,
        progress=False,
        **locomo,
    )
    assert manifest["memory"]["args"] == {
        "url": "https://x.org",
        "api_key": "***",
        "password": "***",
        "api_key_env": "K",
    }
    written = (tmp_path / "r" / "manifest.json").read_text()
    assert "sk-live" not in written and "plainpw" not in written


def test_a_question_answered_twice_is_refused_naming_both_lines(locomo, tmp_path):
    _run(tmp_path / "r", limit=3, **locomo)
    records = tmp_path / "r" / "records.jsonl"
    lines = records.read_text().splitlines(keepends=True)
    records.write_text("".join(lines) + lines[1].replace('"response": "', '"response": "edited '))
    with pytest.raises(SourceFormatError, match=r"records\.jsonl: line 4: answers conv-26:\d+ again \(line 2\)"):
        _run(tmp_path / "r", limit=3, **locomo)


def test_a_judge_named_twice_or_of_another_benchmark_is_refused_before_a_question(locomo, tmp_path):
    with pytest.raises(ConfigurationError, match=r"--judge mem0,mem0: a judge named twice"):
        _run(tmp_path / "r", limit=1, judge="mem0,mem0", **locomo)
    with pytest.raises(ConfigurationError, match=r"judge 'longmemeval' applies to longmemeval, not locomo"):
        _run(tmp_path / "r", limit=1, judge="longmemeval", **locomo)
    assert not (tmp_path / "r").exists()


def test_the_oracle_file_run_as_s_says_so(shared_data, tmp_path, capsys):
    _, manifest = _oracle_sample_run(shared_data, tmp_path, "s")
    assert manifest["shape_note"].startswith("every haystack session of the ")
    assert manifest["shape_note"].endswith("read it with --config oracle")
    assert f"note: {manifest['shape_note']}" in capsys.readouterr().out


def test_an_edited_manifest_shows_what_differs_beyond_the_name(locomo, tmp_path):
    _run(tmp_path / "r", limit=1, **locomo)
    path = tmp_path / "r" / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["memory"]["version"] = "edited"
    path.write_text(json.dumps(manifest))
    with pytest.raises(ConfigurationError, match=r'memory differs: \{.*"version": "edited".* there, \{.*now'):
        _run(tmp_path / "r", limit=1, **locomo)


@pytest.mark.parametrize("value", [":", "mymem:", ":Mine"])
def test_a_memory_name_missing_a_part_is_one_line(value, locomo, tmp_path, capsys):
    status, err = _cli(["--memory", value], locomo, tmp_path, capsys)
    assert (status, err) == (
        2,
        f"himga: error: --memory {value!r}: expected module:Class, both named (mymem:MyMemory)\n",
    )
