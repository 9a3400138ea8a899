"""The LoCoMo export read by the tools people query Parquet with, none of which has himga.

Each reader runs in a fresh interpreter in which importing himga fails, reads every column of the
export, unnests ``qa_pairs`` and reads ``raw.category`` with its own JSON function (DuckDB
``json_extract``, polars ``.str.json_path_match``, Python ``json.loads`` for ``datasets`` and pyarrow).
The counts are checked against ``locomo10.json`` itself. The reader table of docs/datasets-export-and-hub.md lists these
queries.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from himga.data import load_locomo, samples_from_dataset
from himga.publish import export

# (question_type, source category) → QA pairs; the category order of the LoCoMo authors' evaluation code
EXPECTED = {
    ("single_hop", 4): 841,
    ("adversarial", 5): 446,
    ("temporal", 2): 321,
    ("multi_hop", 1): 282,
    ("open_domain", 3): 96,
}
COLUMNS = ["sample_id", "dataset", "sessions", "qa_pairs", "speaker_a", "speaker_b", "raw"]
DOCS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "datasets-export-and-hub.md"

_NO_HIMGA = """
    import json, sys
    for name in ("himga", "himga_locomo", "himga_longmemeval"):
        sys.modules[name] = None  # `import himga` raises ImportError here: the reader must not need it
    EXPORT = sys.argv[1]
    PARQUET = EXPORT + "/data/default/test-00000-of-00001.parquet"
"""

#: Reader → code printing ``{"version", "columns", "rows", "messages", "counts": [[type, category, n], ...]}``.
READERS = {
    "datasets": """
        import collections, datasets
        ds = datasets.load_dataset(EXPORT, split="test")
        rows = list(ds)  # every column, decoded by datasets
        counts = collections.Counter(
            (qa["question_type"], json.loads(qa["raw"])["category"]) for row in rows for qa in row["qa_pairs"]
        )
        stream = datasets.load_dataset(EXPORT, split="test", streaming=True)
        assert [r["qa_pairs"] for r in stream] == [r["qa_pairs"] for r in rows]
        result = dict(version=datasets.__version__, columns=ds.column_names, rows=len(rows),
                      messages=sum(len(s["messages"]) for r in rows for s in r["sessions"]),
                      counts=[[t, c, n] for (t, c), n in counts.items()])
    """,
    "pyarrow": """
        import collections, pyarrow, pyarrow.compute as pc, pyarrow.parquet as pq
        table = pq.read_table(EXPORT + "/data/default")
        qa = pc.list_flatten(table["qa_pairs"])
        categories = [json.loads(raw)["category"] for raw in pc.struct_field(qa, "raw").to_pylist()]
        counts = collections.Counter(zip(pc.struct_field(qa, "question_type").to_pylist(), categories))
        table.to_pylist()  # every column converts
        result = dict(version=pyarrow.__version__, columns=table.column_names, rows=table.num_rows,
                      messages=len(pc.list_flatten(pc.struct_field(pc.list_flatten(table["sessions"]), "messages"))),
                      counts=[[t, c, n] for (t, c), n in counts.items()])
    """,
    "duckdb": """
        import duckdb
        every = duckdb.sql(f"SELECT * FROM read_parquet('{PARQUET}')")
        rows = every.fetchall()  # every column converts
        counts = duckdb.sql(f'''
            SELECT qa.question_type, CAST(json_extract(qa.raw, '$.category') AS INTEGER) AS category, count(*)
            FROM (SELECT unnest(qa_pairs) AS qa FROM read_parquet('{PARQUET}'))
            GROUP BY ALL
        ''').fetchall()
        messages = duckdb.sql(f'''
            SELECT count(*) FROM (SELECT unnest(s.messages)
                                  FROM (SELECT unnest(sessions) AS s FROM read_parquet('{PARQUET}')))
        ''').fetchall()[0][0]
        result = dict(version=duckdb.__version__, columns=every.columns, rows=len(rows), messages=messages,
                      counts=[list(r) for r in counts])
    """,
    "polars": """
        # the page's recipe (POLARS_RECIPE), then:
        assert df.schema["raw"] == pl.String, df.schema["raw"]
        sessions = df.select("sessions").explode("sessions").unnest("sessions")
        messages = sessions.select("messages").explode("messages").height
        df.to_dicts()  # every column converts
        result = dict(version=pl.__version__, columns=df.columns, rows=df.height, messages=messages,
                      counts=counts.rows())
    """,
}


@pytest.fixture(scope="module")
def locomo_export(shared_data, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("readers") / "locomo_export"
    export("locomo", out, data_dir=shared_data / "locomo", cache_dir=tmp_path_factory.mktemp("readers_cache"))
    return out


#: The polars recipe of docs/datasets-export-and-hub.md (its one ``py`` block), the export's path made the test's.
POLARS_RECIPE = re.search(r"^```py\n(.*?)^```$", (DOCS_PAGE).read_text(encoding="utf-8"), re.S | re.M)[1].replace(
    '"locomo_export/data/default/test-00000-of-00001.parquet"', "PARQUET"
)


def _run_reader(reader: str, export_dir: Path, tmp_path: Path) -> dict:
    recipe = POLARS_RECIPE if reader == "polars" else ""
    code = textwrap.dedent(_NO_HIMGA) + recipe + textwrap.dedent(READERS[reader]) + "\nprint(json.dumps(result))\n"
    env = dict(
        os.environ,
        HF_DATASETS_CACHE=str(tmp_path / "fresh_cache"),
        HF_HUB_OFFLINE="1",
        HF_DATASETS_DISABLE_PROGRESS_BARS="1",
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(export_dir)], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_expected_counts_are_the_source_files(shared_data):
    """The reader tests' counts are the categories of locomo10.json, read here with plain json."""
    source = json.loads((shared_data / "locomo" / "locomo10.json").read_text(encoding="utf-8"))
    by_category = Counter(qa["category"] for record in source for qa in record["qa"])
    assert by_category == Counter({category: n for (_, category), n in EXPECTED.items()})


@pytest.mark.parametrize("reader", sorted(READERS))
def test_reader_without_himga_reads_every_column_and_queries_raw(reader, locomo_export, tmp_path):
    result = _run_reader(reader, locomo_export, tmp_path)
    assert result["columns"] == COLUMNS
    assert (result["rows"], result["messages"]) == (10, 5882)
    assert {(t, c): n for t, c, n in result["counts"]} == EXPECTED


def test_himga_gives_raw_as_dicts_from_the_export_and_the_cache(shared_data, locomo_export):
    """Same Samples (raw dicts included) from the export read by datasets and from himga's own cache."""
    import datasets

    from_export = list(samples_from_dataset(datasets.load_dataset(str(locomo_export), split="test")))
    from_cache = load_locomo(shared_data / "locomo")
    assert from_export == from_cache
    qa = from_export[0].qa_pairs[0]
    assert qa.raw == {
        "question": "When did Caroline go to the LGBTQ support group?",
        "answer": "7 May 2023",
        "evidence": ["D1:3"],
        "category": 2,
    }
