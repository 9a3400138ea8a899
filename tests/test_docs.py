"""README.md and docs/*.md: short, linked, and every snippet that claims an output gives that output.

The snippets are read from the Markdown itself (never copied here), run against the real files where they
name ``../shared/data`` (the ``shared_data`` fixture: skipped without the data, a failure under CI), and
their claims (the comments and the printed blocks) are compared with what they produce.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
from datetime import datetime
from pathlib import Path

import pytest

from himga.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.S | re.M)


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _section(path: Path, heading: str) -> str:
    """The text under ``heading`` (a whole heading line), up to the next heading of the same or a higher level."""
    text = _text(path)
    level = heading.split(" ", 1)[0]
    start = text.index(f"\n{heading}\n") + 1
    end = re.compile(rf"^#{{1,{len(level)}}} ", re.M).search(text, start + len(heading))
    return text[start : end.start() if end else len(text)]


def _blocks(text: str, lang: str | None = None) -> list[str]:
    """The fenced code blocks of ``text`` (of one info string if ``lang`` is given), in order."""
    return [code for info, code in FENCE.findall(text) if lang is None or info == lang]


def _run(code: str, data: Path) -> tuple[dict, str]:
    """Execute a Python snippet with ``../shared/data`` pointing at ``data``; its namespace and what it printed."""
    namespace: dict = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.replace("../shared/data", str(data)), "<snippet>", "exec"), namespace)
    return namespace, out.getvalue()


def _cli(args: list[str], capsys) -> str:
    capsys.readouterr()
    assert main(args) == 0
    return capsys.readouterr().out


# --- shape ------------------------------------------------------------------------------------------------


def test_readme_is_at_most_300_lines():
    assert len(_text(README).splitlines()) <= 300


def test_readme_starts_with_the_two_commands_ci_and_newcomers_run():
    first = _blocks(_text(README))[0].splitlines()
    assert first[0].startswith(
        "python3 -m venv .venv && .venv/bin/pip install -e '.[memory,scoring]' && .venv/bin/himga run locomo "
        "--memory bm25 --answer-model extractive --out runs/bm25 "
    )
    assert first[1].startswith(
        "python3 -m venv .venv && .venv/bin/pip install -e '.[test,plot]' && .venv/bin/python -m pytest -q "
    )
    ci = _text(ROOT / ".ci" / "run")
    assert "python3 -m venv .venv\n" in ci and "-e '.[test,plot]'" in ci and "\n.venv/bin/python -m pytest -q " in ci


def test_readme_says_where_the_first_commands_run():
    assert "from a clone of this repository, with `../shared` beside it" in _text(README).split("## ")[0]


def test_readme_command_block_lists_every_command():
    """The "Command line" block names each command of `himga --help`, in its order, and no other."""
    from himga.cli import build_parser

    (sub,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    block = _blocks(_section(README, "## Command line"))[0]
    named = [line.split()[1] for line in block.splitlines() if not line.startswith("himga --")]
    assert list(dict.fromkeys(named)) == list(sub.choices)


def test_departures_table_is_on_the_first_screen():
    """The LoCoMo category mapping changes every per-type number: a newcomer must meet it before line 50."""
    lines = _text(README).splitlines()
    heading = lines.index("## Decisions that depart from the seed API")
    start = next(i for i in range(heading, len(lines)) if lines[i].startswith("|"))
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("|"))
    rows = lines[start + 2 : end]  # after the header and the rule
    assert heading < 30 and lines.index(rows[-1]) < 50
    decisions = {row.split(" | ")[0].removeprefix("| "): row for row in rows}
    assert list(decisions) == [
        "LoCoMo category order",
        "LoCoMo category-5 gold",
        "LoCoMo category-3 gold",
        "LongMemEval session order",
        "LongMemEval file names",
        "`raw` keys",
        "BEAM probe markers",
        "BEAM abilities as question types",
        "BEAM judge",
        "LoCoMo-Plus placement",
        "REALTALK evidence",
        "builders registered on `import himga`",
    ]
    assert (
        "1 = `multi_hop`, 2 = `temporal`, 3 = `open_domain`, 4 = `single_hop`, 5 = `adversarial`"
        in decisions["LoCoMo category order"]
    )
    for decision, option in [("LoCoMo category "
        "order", 'category_order="seed"'), ("LoCoMo category-5 gold", 'adversarial_answer="seed"'),
                             ("LoCoMo category-3 "
                                 "gold", 'category3_answer="full"'), ("LongMemEval session "
                                     "order", "chronological(sample)")]:  # fmt: skip
        assert f"`{option}`" in decisions[decision]
    assert all(
        len(row.split(" | ")) == 4 and row.rstrip().endswith("|") for row in rows
    )  # decision, default, option, evidence


def _links(path: Path) -> list[str]:
    text = FENCE.sub("", _text(path))
    text = re.sub(r"`[^`\n]*`", "", text)  # inline code: `samples[0](...)` is no link
    return re.findall(r"\]\(([^)\s]+)\)", text)


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file: lower case, punctuation dropped, spaces to hyphens."""
    headings = re.findall(r"^#+ (.+)$", FENCE.sub("", _text(path)), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def test_every_relative_link_resolves():
    checked = 0
    for page in PAGES:
        for target in _links(page):
            if re.match(r"[a-z]+:", target):
                continue  # https://, mailto:
            file, _, anchor = target.partition("#")
            path = (page.parent / file).resolve() if file else page
            assert path.is_file(), f"{page.relative_to(ROOT)}: link to {target}: no such file"
            if anchor:
                assert anchor in _anchors(path), f"{page.relative_to(ROOT)}: link to {target}: no such heading"
            checked += 1
    assert checked >= 40


def test_every_repository_file_named_in_code_exists():
    """Files under `tests/`, `benchmarks/`, `.ci/` that the pages name must exist (folders a run creates, `…/`,
    aside)."""
    named = {(page.relative_to(ROOT), path) for page in PAGES
             for path in re.findall(r"`((?:tests|benchmarks|\.ci)/[\w./-]*\w)`", _text(page))}  # fmt: skip
    assert len(named) >= 8
    assert [(str(page), path) for page, path in sorted(named) if not (ROOT / path).exists()] == []


def _resolves(dotted: str) -> bool:
    """``himga.data.chronological`` or ``himga_locomo.source_record.sample_to_record``: a module, or an attribute of
    one."""
    import importlib

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(obj, name):
                return False
            obj = getattr(obj, name)
        return True
    return False


#: A dotted name of the package or of a builder folder in a page (``himga.data.chronological``).
DOTTED = (
    r"\b((?:himga|himga_locomo|himga_longmemeval|himga_beam|himga_locomo_plus|himga_realtalk|himga_personamem)"
    r"(?:\.[A-Za-z_]\w*)+)\b"
)


def test_every_python_name_the_pages_use_imports():
    """Issue 18: every `himga…`, `himga_locomo…`, `himga_longmemeval…`, `himga_beam…` dotted name in README and docs
    imports (a module moved by a layout change shows up here, not in a reader's traceback)."""
    named = {
        (page.relative_to(ROOT), name)
        for page in PAGES
        for name in re.findall(DOTTED, _text(page))
        if not name.endswith((".py", ".md", ".json"))
    }
    assert len(named) >= 20
    assert [(str(page), name) for page, name in sorted(named) if not _resolves(name)] == []


def test_readme_links_every_docs_page():
    linked = {(README.parent / target.partition("#")[0]).resolve() for target in _links(README)}
    assert sorted(p.name for p in DOCS.glob("*.md") if p.resolve() not in linked) == []


# --- README quick start -----------------------------------------------------------------------------------


def test_readme_quick_start_runs_as_written(shared_data, monkeypatch):
    quick = _section(README, "## Quick start")
    export, snippet = _blocks(quick, "bash")[0], _blocks(quick, "python")[0]
    assert export.startswith("export HIMGA_DATASETS_ROOT=../shared/data ")
    assert (
        "\n`../shared/data` is there only in a checkout with `../shared` beside it; elsewhere, use an absolute path "
        "to a folder holding `locomo/locomo10.json`.\n"
    ) in quick  # probe C1
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(shared_data))
    ns, out = _run(snippet, shared_data)

    sample = ns["sample"]
    assert "# conv-26: Caroline & Melanie, 19 sessions, 199 QA pairs" in snippet
    assert (sample.sample_id, len(sample.sessions), len(sample.qa_pairs)) == ("conv-26", 19, 199)
    assert {m.role for s in sample.sessions for m in s.messages} == {"Caroline", "Melanie"}
    assert re.search(r"^temporal = .*# 321$", snippet, re.M) and len(ns["temporal"]) == 321
    printed = out.splitlines()
    for claim in ["1 1:56 pm on 8 May, 2023", "Caroline (D1:1): Hey Mel! Good to see you! How have you been?",
                  "When did Caroline go to the LGBTQ support group? 7 May 2023 ['D1:3']", "2 ['D1:3']"]:  # fmt: skip
        assert f"# {claim}" in snippet
        assert claim in [line.strip() for line in printed], claim
    assert len(printed) == 2 * 3 + 2


def test_readme_first_command_prints_the_table_the_quick_start_shows(shared_data, tmp_path, capsys):
    """The README's first command (a bm25 run of LoCoMo, scored) prints the Quick start's table, line for line, before
    its latencies."""
    command = _blocks(_text(README))[0].splitlines()[0].split("#")[0].split("&& .venv/bin/himga ")[1].split()
    printed = _blocks(_section(README, "## Quick start"), "text")[0]
    assert command[-2:] == ["--out", "runs/bm25"]
    argv = [*command[:-1], str(tmp_path / "bm25"), "--data-dir", str(shared_data / "locomo")]
    out = _cli(argv, capsys)
    assert out.startswith(printed) and out[len(printed) :].startswith("latency ingest_per_sample ")


def test_readme_stats_block_is_what_the_command_prints(shared_data, monkeypatch, capsys):
    quick = _section(README, "## Quick start")
    command, printed = _blocks(quick, "bash")[1], _blocks(quick, "")[0]
    assert command.startswith(".venv/bin/himga stats locomo ")
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(shared_data))
    assert _cli(["stats", "locomo"], capsys) == printed


# --- docs/usage.md ----------------------------------------------------------------------------------------


def test_usage_stats_blocks_are_what_the_commands_print(shared_data, capsys, tmp_path):
    section = _section(DOCS / "usage.md", "## Command line")
    locomo, lme = _blocks(section, "")
    assert "`himga stats locomo --data-dir ../shared/data/locomo` prints:" in section
    assert (
        _cli(["stats", "locomo", "--data-dir", str(shared_data / "locomo"), "--cache-dir", str(tmp_path)], capsys)
        == locomo
    )
    assert (
        "himga stats longmemeval --config oracle --data-dir ../shared/data/longmemeval/longmemeval_oracle_sample.json\n"
        in section
    )
    sample = str(shared_data / "longmemeval" / "longmemeval_oracle_sample.json")
    assert (
        _cli(["stats", "longmemeval", "--config", "oracle", "--data-dir", sample, "--cache-dir", str(tmp_path)], capsys)
        == lme
    )


def test_usage_locomo_snippet_runs(shared_data, monkeypatch):
    """The full LoCoMo walk-through; its first line reads $HIMGA_DATASETS_ROOT, its second the folder itself."""
    snippet = _blocks(_section(DOCS / "usage.md", "## LoCoMo"), "python")[0]
    monkeypatch.setenv("HIMGA_DATASETS_ROOT", str(shared_data))
    ns, out = _run(snippet, shared_data)
    assert (ns["sample"].sample_id, len(ns["sample"].sessions), len(ns["sample"].qa_pairs), len(ns["temporal"])) == (
        "conv-26",
        19,
        199,
        321,
    )
    messages = sum(len(s.messages) for s in ns["sample"].sessions)
    assert (
        out.splitlines()[0] == "1 1:56 pm on 8 May, 2023"
        and len(out.splitlines()) == 19 + messages + 4
        and messages == 419
    )


def test_usage_longmemeval_claims(shared_data, tmp_path):
    """The LongMemEval walk-through's comments, on its local lines (the first one downloads)."""
    from himga.data import chronological, load_longmemeval

    snippet = _blocks(_section(DOCS / "usage.md", "## LongMemEval"), "python")[0]
    assert "# names say no config: both files, as parts (99 questions)" in snippet  # the config is given
    assert len(load_longmemeval(shared_data / "longmemeval", config="oracle", cache_dir=tmp_path)) == 99
    sample = load_longmemeval(
        shared_data / "longmemeval" / "longmemeval_oracle_pair.json", config="oracle", cache_dir=tmp_path
    )[0]
    assert "# gpt4_2655b836" in snippet and sample.sample_id == "gpt4_2655b836"
    assert '# "2023/04/10 (Mon) 23:07"' in snippet and sample.raw["question_date"] == "2023/04/10 (Mon) 23:07"
    assert (
        isinstance(sample.qa_pairs[0].answer, str)
        and sample.qa_pairs[0].evidence.session_ids == sample.qa_pairs[0].raw["answer_session_ids"]
    )
    assert [s.date_str[-5:] for s in chronological(sample).sessions] == ["14:47", "17:15", "17:50"]


def test_usage_locomo_plus_and_realtalk_snippet(shared_data, locomo_plus_dir, locomo_plus_samples, realtalk_samples):
    snippet = _blocks(_section(DOCS / "usage.md", "## LoCoMo-Plus and REALTALK"), "python")[0]
    ns, _ = _run(snippet.replace("path/to/Locomo-Plus/data", str(locomo_plus_dir)), shared_data)
    plus, item, talk = ns["plus"], ns["item"], ns["talk"]
    assert "# 411 samples: conv-26 ... conv-50, cognitive-0 ... cognitive-400" in snippet and len(plus) == 411
    assert [plus[0].sample_id, plus[9].sample_id, plus[10].sample_id, plus[-1].sample_id] == [
        "conv-26",
        "conv-50",
        "cognitive-0",
        "cognitive-400",
    ]
    assert "# cognitive-0, placed in conv-26" in snippet and item.raw["locomo_sample_id"] == "conv-26"
    assert (ns["qa"].answer, ns["qa"].question_type.value, ns["qa"].question) == (
        "",
        "cognitive",
        item.raw and item.qa_pairs[0].raw["trigger_query"],
    )
    assert "# ['cue', '18', '19', 'query']" in snippet and [s.session_id for s in item.sessions][-4:] == [
        "cue",
        "18",
        "19",
        "query",
    ]
    assert "# ('2023-10-15 09:55', '2023-10-29 09:55')" in snippet and (
        item.raw["cue_time"],
        item.raw["query_time"],
    ) == ("2023-10-15 09:55", "2023-10-29 09:55")
    assert "# 10 samples, 728 QA pairs" in snippet and (len(talk), sum(len(s.qa_pairs) for s in talk)) == (10, 728)
    message = ns["message"]
    assert '# Emi (D1:1): "Hey! How are you?"' in snippet and (message.role, message.turn_id, message.content) == (
        "Emi",
        "D1:1",
        "Hey! How are you?",
    )
    assert "# '29.12.2023, 22:42:04'" in snippet and message.date_str == "29.12.2023, 22:42:04"


def test_usage_dates_and_helpers_snippet(shared_data):
    snippet = _blocks(_section(DOCS / "usage.md", "## Dates and helpers"), "python")[0]
    ns, _ = _run(snippet, shared_data)
    claims = {
        'parse_date("12:09 am on 13 September, 2023")': datetime(2023, 9, 13, 0, 9),
        "conv26.sessions[0].datetime": datetime(2023, 5, 8, 13, 56),
        "qa.question": "When did Caroline go to the LGBTQ support group?",
        "[(m.turn_id, m.role) for m in evidence_messages(conv26, qa)]": [("D1:3", "Caroline")],
        "lme.question_datetime": datetime(2023, 4, 10, 23, 7),
        "[s.session_id for s in answer_sessions(lme)]": ["answer_4be1b6b4_2", "answer_4be1b6b4_3", "answer_4be1b6b4_1"],
        "noise_sessions(lme)": [],
        "len(temporal)": 321,
    }
    for expression, value in claims.items():
        assert eval(expression, ns) == value, expression
    for comment in ["# datetime(2023, 9, 13, 0, 9)", "# datetime(2023, 5, 8, 13, 56)", '# [("D1:3", "Caroline")]',
                    "# datetime(2023, 4, 10, 23, "
                    "7)", "answer_4be1b6b4_2, _3, _1", "# [] in oracle files", "# 321 (sample, qa) pairs"]:  # fmt: skip
        assert comment in snippet, comment


# --- the other pages --------------------------------------------------------------------------------------


def test_datasets_page_snippet_rows(shared_data):
    """`datasets.load_dataset` on the local lines of the first snippet: the oracle sample gives 97 rows."""
    import himga  # noqa: F401  registers the builders

    snippet = _blocks(_text(DOCS / "datasets-export-and-hub.md"), "python")[0]
    line = next(line for line in snippet.splitlines() if line.startswith("lme = "))
    assert line.endswith("# 97 rows")
    ns, _ = _run("import datasets\n" + line, shared_data)
    assert ns["lme"].num_rows == 97
    slice_line = next(line for line in snippet.splitlines() if 'split="test[:2]"' in line)
    ns, _ = _run("import datasets\n" + slice_line, shared_data)
    assert [row["sample_id"] for row in ns["ds"]] == ["conv-26", "conv-30"]


def test_scoring_page_ir_measures_snippet(shared_data, tmp_path, monkeypatch, capsys):
    """The word-overlap retriever scored with ir-measures after `himga qrels locomo qrels/`: the printed scores."""
    pytest.importorskip("ir_measures")
    section = _text(DOCS / "scoring-and-relevance.md")
    snippet = next(code for code in _blocks(section, "python") if "ir_measures" in code)
    assert "after `himga qrels locomo qrels/`:" in section
    monkeypatch.chdir(tmp_path)
    _cli(
        [
            "qrels",
            "locomo",
            "qrels/",
            "--data-dir",
            str(shared_data / "locomo"),
            "--cache-dir",
            str(tmp_path / "cache"),
        ],
        capsys,
    )
    _, out = _run(snippet, shared_data)
    claimed = re.search(r"^# \{nDCG@10: (\d\.\d+)\.\.\., R@5: (\d\.\d+)\.\.\.\}$", snippet, re.M)
    scores = dict(re.findall(r"(nDCG@10|R@5): ([\d.]+)", out))
    assert claimed and scores["nDCG@10"].startswith(claimed[1]) and scores["R@5"].startswith(claimed[2])


def test_failure_modes_validate_block(shared_data, capsys):
    """Every line of the abridged `himga validate locomo` block is a line the command prints."""
    block = next(
        code for code in _blocks(_text(DOCS / "failure-modes.md"), "text") if code.startswith("$ himga validate locomo")
    )
    out = _cli(["validate", "locomo", "--data-dir", str(shared_data / "locomo")], capsys).splitlines()
    shown = [line for line in block.splitlines()[1:] if line != "..."]
    assert len(shown) == 25
    assert [line for line in shown if line not in out] == []


def test_export_sizes_on_the_datasets_and_benchmarks_pages(shared_data, tmp_path, capsys):
    """LoCoMo's export: 2,805,274 bytes of JSON become 742,578 bytes of Parquet (0.26x)."""
    _cli(
        [
            "export",
            "locomo",
            str(tmp_path / "out"),
            "--data-dir",
            str(shared_data / "locomo"),
            "--cache-dir",
            str(tmp_path / "cache"),
        ],
        capsys,
    )
    size = sum(p.stat().st_size for p in (tmp_path / "out" / "data").rglob("*.parquet"))
    assert f"{size:,}" == "742,578" and round(size / 2_805_274, 2) == 0.26
    assert "LoCoMo `locomo10.json` 2,805,274 bytes → 742,578 bytes (0.26×)" in _text(
        DOCS / "datasets-export-and-hub.md"
    )
    assert "LoCoMo 742,578 of 2,805,274" in _text(DOCS / "benchmarks.md")


def test_oracle_export_sizes_name_their_shard_count(shared_data, tmp_path, capsys):
    """The oracle sample's export: 943,220 bytes in one file, 1,274,267 in the default 16."""
    source = shared_data / "longmemeval" / "longmemeval_oracle_sample.json"
    sizes = {}
    for shards in ([], ["--num-shards", "1"]):
        out = tmp_path / f"out{len(shards)}"
        _cli(
            [
                "export",
                "longmemeval",
                str(out),
                "--config",
                "oracle",
                "--data-dir",
                str(source),
                "--cache-dir",
                str(tmp_path / "c"),
                *shards,
            ],
            capsys,
        )
        files = list((out / "data").rglob("*.parquet"))
        sizes[len(files)] = sum(p.stat().st_size for p in files)
    assert sizes == {16: 1_274_267, 1: 943_220}  # QA pairs gained position and options (issue 37)
    page = " ".join(_text(DOCS / "datasets-export-and-hub.md").split())
    assert (
        "3,079,019 bytes → 943,220 bytes (0.31×) with `--num-shards 1`, and 1,274,267 bytes (0.41×) in the default 16 "
        "files" in page
    )


def test_failure_modes_shadowing_folder(tmp_path):
    """Probe B4: an empty ``himga/`` folder in the working directory is imported instead of an editable install,
    as the page says (``himga.__file__`` is ``None``, nothing registered); a regular install wins over it."""
    import json as _json
    import subprocess
    import sys

    assert "prints `None` then: run from another directory, or rename the folder." in _text(
        DOCS / "failure-modes.md"
    ).replace("\n", " ")
    # Asked from an empty directory: in the checkout, the egg-info folder that `pip install -e .` leaves at the top
    # is found first (the working directory leads sys.path) and carries no direct_url.json.
    ask = "import importlib.metadata as m; print(m.distribution('himga').read_text('direct_url.json') or '{}')"
    direct = subprocess.run(
        [sys.executable, "-c", ask], capture_output=True, text=True, cwd=tmp_path, check=True
    ).stdout
    editable = bool(_json.loads(direct).get("dir_info", {}).get("editable"))
    (tmp_path / "himga").mkdir()
    code = (
        "import himga, datasets.load; print(himga.__file__ is None, getattr(datasets.load.dataset_module_factory, "
        "'_himga', False))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.stdout.split() == (["True", "False"] if editable else ["False", "True"]), done.stderr[-2000:]
