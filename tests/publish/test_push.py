"""``himga push`` against a fake Hub: ``HfApi`` methods monkeypatched to copy files into a temp folder.

The fake applies ``upload_folder``'s ``allow_patterns`` / ``delete_patterns`` with huggingface_hub's own
``filter_repo_objects``, like the real Hub.
"""

from __future__ import annotations

import inspect
import json
import logging
import shutil
from pathlib import Path
from types import SimpleNamespace

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from huggingface_hub import DatasetCard, HfApi
from huggingface_hub.utils import filter_repo_objects

from himga.cli import main
from himga.data.loaders import build_dataset
from himga.errors import ConfigurationError, UploadError
from himga.publish import export, push

FAKE_TOKEN = "hf_FAKEtokenNeverPrinted0123456789abcdef"
ORACLE_SAMPLE = Path("longmemeval") / "longmemeval_oracle_sample.json"  # under the shared_data fixture


class FakeHub:
    """Records calls; ``root/<repo_id>/<branch>/`` holds each branch's files."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.calls: list[tuple[str, dict]] = []

    def files(self, repo_id: str, branch: str = "main") -> list[str]:
        base = self.root / repo_id / branch
        return sorted(str(p.relative_to(base)) for p in base.rglob("*") if p.is_file())

    def install(self, monkeypatch) -> None:
        hub = self

        def create_repo(self, repo_id, *, repo_type=None, private=None, exist_ok=False, **kwargs):
            hub.calls.append(
                ("create_repo", {"repo_id": repo_id, "repo_type": repo_type, "private": private, "exist_ok": exist_ok})
            )
            (hub.root / repo_id / "main").mkdir(parents=True, exist_ok=True)

        def create_branch(self, repo_id, *, branch, repo_type=None, exist_ok=False, **kwargs):
            hub.calls.append(("create_branch", {"repo_id": repo_id, "branch": branch, "repo_type": repo_type}))
            target = hub.root / repo_id / branch
            if not target.exists():
                shutil.copytree(hub.root / repo_id / "main", target)

        def upload_folder(
            self,
            *,
            repo_id,
            folder_path,
            repo_type=None,
            revision=None,
            allow_patterns=None,
            delete_patterns=None,
            commit_message=None,
            **kwargs,
        ):
            hub.calls.append(
                (
                    "upload_folder",
                    {
                        "repo_id": repo_id,
                        "repo_type": repo_type,
                        "revision": revision,
                        "allow_patterns": allow_patterns,
                        "delete_patterns": delete_patterns,
                    },
                )
            )
            base = hub.root / repo_id / (revision or "main")
            local = sorted(str(p.relative_to(folder_path)) for p in Path(folder_path).rglob("*") if p.is_file())
            upload = list(filter_repo_objects(local, allow_patterns=allow_patterns))
            for stale in filter_repo_objects(hub.files(repo_id, revision or "main"), allow_patterns=delete_patterns):
                if stale not in upload:
                    (base / stale).unlink()
            for name in upload:
                (base / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(Path(folder_path) / name, base / name)
            return SimpleNamespace(commit_url=f"https://huggingface.co/datasets/{repo_id}/commit/fake")

        for fake in (create_repo, create_branch, upload_folder):
            monkeypatch.setattr(HfApi, fake.__name__, _checked(getattr(HfApi, fake.__name__), fake))


def _checked(real, fake):
    """``fake``, after checking that the real method accepts the same call (keyword names included)."""
    signature = inspect.signature(real)

    def method(self, *args, **kwargs):
        signature.bind(self, *args, **kwargs)
        return fake(self, *args, **kwargs)

    return method


@pytest.fixture
def hub(tmp_path, monkeypatch):
    fake = FakeHub(tmp_path / "hub")
    fake.install(monkeypatch)
    monkeypatch.setenv("HF_TOKEN", FAKE_TOKEN)
    return fake


def test_push_locomo_via_cli(shared_data, hub, capsys, caplog):
    caplog.set_level(logging.DEBUG)
    status = main(["push", "locomo", "--repo-id", "org/locomo", "--private", "--data-dir", str(shared_data / "locomo")])
    assert status == 0
    assert hub.files("org/locomo") == ["README.md", "data/default/test-00000-of-00001.parquet"]
    assert hub.calls[0] == (
        "create_repo",
        {"repo_id": "org/locomo", "repo_type": "dataset", "private": True, "exist_ok": True},
    )
    assert hub.calls[1][1]["allow_patterns"] == ["README.md", "data/default/test-*.parquet"]
    card = DatasetCard.load(hub.root / "org/locomo/main/README.md")
    assert card.data.license == "cc-by-nc-4.0"
    assert card.data.configs[0]["data_files"] == [{"split": "test", "path": "data/default/test-*.parquet"}]
    pushed = datasets.load_dataset(str(hub.root / "org/locomo/main"), split="test")
    built = build_dataset("locomo", path=shared_data / "locomo")
    assert pushed.features == built.features
    assert list(pushed) == list(built)
    out, err = capsys.readouterr()
    assert "pushed locomo to org/locomo: https://huggingface.co/datasets/org/locomo/commit/fake" in out
    for text in (out, err, caplog.text):
        assert FAKE_TOKEN not in text


def test_repush_replaces_stale_shards_of_the_pushed_config_only(shared_data, hub, tmp_path):
    export_dir = tmp_path / "export"
    export("longmemeval", export_dir, ["oracle", "oracle_original"], data_dir=shared_data / ORACLE_SAMPLE, num_shards=3)
    push("longmemeval", "org/lme", export_dir=export_dir)
    assert hub.files("org/lme") == ["README.md"] + [
        f"data/{c}/test-0000{i}-of-00003.parquet" for c in ("oracle", "oracle_original") for i in range(3)
    ]
    export("longmemeval", export_dir, ["oracle"], data_dir=shared_data / ORACLE_SAMPLE, num_shards=1)  # now one shard
    push("longmemeval", "org/lme", export_dir=export_dir, configs=["oracle"])
    assert hub.files("org/lme") == ["README.md", "data/oracle/test-00000-of-00001.parquet"] + [
        f"data/oracle_original/test-0000{i}-of-00003.parquet" for i in range(3)
    ]
    for config in ("oracle", "oracle_original"):
        pushed = datasets.load_dataset(str(hub.root / "org/lme/main"), config, split="test")
        assert (
            pushed["sample_id"] == build_dataset("longmemeval", config, path=shared_data / ORACLE_SAMPLE)["sample_id"]
        )


def test_push_to_a_branch_never_uploads_python(shared_data, hub, tmp_path):
    export_dir = tmp_path / "export"
    export("longmemeval", export_dir, ["oracle"], data_dir=shared_data / ORACLE_SAMPLE, num_shards=1)
    (export_dir / "builder.py").write_text("print('never uploaded')\n")
    (export_dir / "data" / "oracle" / "extra.py").write_text("")
    push("longmemeval", "org/lme", export_dir=export_dir, revision="v1")
    assert ("create_branch", {"repo_id": "org/lme", "branch": "v1", "repo_type": "dataset"}) in hub.calls
    assert hub.files("org/lme", "v1") == ["README.md", "data/oracle/test-00000-of-00001.parquet"]
    assert hub.files("org/lme") == []


def test_push_of_an_empty_folder_is_a_clear_error(hub, tmp_path):
    with pytest.raises(
        ConfigurationError,
        match=r"longmemeval: nothing to push from .*empty \(expected README.md and data/<config>/test-\*.parquet\)",
    ):
        push("longmemeval", "org/lme", export_dir=tmp_path / "empty")
    assert hub.calls == []


def test_export_cli(shared_data, tmp_path, capsys):
    assert (
        main(
            [
                "export",
                "longmemeval",
                str(tmp_path),
                "--config",
                "oracle",
                "--data-dir",
                str(shared_data / ORACLE_SAMPLE),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.splitlines() == [
        f"longmemeval/oracle: 97 rows in {tmp_path}/data/oracle/",
        f"card: {tmp_path}/README.md",
    ]
    assert main(["export", "longmemeval", str(tmp_path), "--config", "x"]) == 2
    assert "himga: error: longmemeval: unknown config 'x'" in capsys.readouterr().err
    assert (
        json.loads(json.dumps(DatasetCard.load(tmp_path / "README.md").data.to_dict()))["pretty_name"]
        == "LongMemEval (HiMGA-normalized)"
    )


@pytest.fixture
def two_exports(shared_data, tmp_path):
    """A LoCoMo export and a LongMemEval (oracle) export."""
    export("locomo", tmp_path / "locomo", data_dir=shared_data / "locomo")
    export("longmemeval", tmp_path / "lme", ["oracle"], data_dir=shared_data / ORACLE_SAMPLE, num_shards=1)
    return tmp_path / "locomo", tmp_path / "lme"


def test_push_of_another_datasets_export_fails_before_any_network_call(two_exports, hub, capsys):
    locomo, lme = two_exports
    with pytest.raises(
        ConfigurationError,
        match=rf"^locomo: {lme}/README.md is not a LoCoMo \(HiMGA-normalized\) card "
        r"\(pretty_name 'LongMemEval \(HiMGA-normalized\)'\): another dataset's export, or a README of your own; "
        r"use an empty folder or this dataset's export folder$",
    ):
        push("locomo", "org/locomo", export_dir=lme)
    with pytest.raises(
        ConfigurationError, match=r"^longmemeval: .*/README.md is not a LongMemEval \(HiMGA-normalized\) card"
    ):
        push("longmemeval", "org/lme", export_dir=locomo)
    assert main(["push", "locomo", "--repo-id", "org/locomo", "--export-dir", str(lme)]) == 2
    assert capsys.readouterr().err.startswith(
        f"himga: error: locomo: {lme}/README.md is not a LoCoMo (HiMGA-normalized) card"
    )
    assert main(["push", "longmemeval", "--repo-id", "org/lme", "--export-dir", str(locomo)]) == 2
    assert "is not a LongMemEval (HiMGA-normalized) card" in capsys.readouterr().err
    # the card swapped in as well: the data still does not match it
    shutil.copy(lme / "README.md", locomo / "README.md")
    with pytest.raises(
        ConfigurationError,
        match=rf"^longmemeval: nothing to push from {locomo}: the card lists oracle, the data has default$",
    ):
        push("longmemeval", "org/lme", export_dir=locomo)
    shutil.copy(
        locomo / "data" / "default" / "test-00000-of-00001.parquet", lme / "data" / "oracle"
    )  # under oracle's name
    with pytest.raises(
        ConfigurationError,
        match=r"^longmemeval: data/oracle/test-00000-of-00001.parquet is not longmemeval/oracle data "
        r"\(locomo/default\)$",
    ):
        push("longmemeval", "org/lme", export_dir=lme)
    with pytest.raises(
        ConfigurationError, match=r"^longmemeval: config s is not in the export .*/lme \(it has oracle\)$"
    ):
        push("longmemeval", "org/lme", export_dir=lme, configs=["oracle", "s"])
    with pytest.raises(ConfigurationError, match=r"^longmemeval: unknown config 'x'"):
        push("longmemeval", "org/lme", export_dir=lme, configs=["oracle", "x"])
    assert hub.calls == []


def test_push_checks_every_shard_and_the_dataset_column(two_exports, hub, tmp_path):
    locomo, lme = two_exports
    shard = lme / "data" / "oracle" / "test-00000-of-00001.parquet"
    table = pq.read_table(shard)
    pq.write_table(
        table.replace_schema_metadata({k: v for k, v in table.schema.metadata.items() if k != b"himga"}), shard
    )
    with pytest.raises(
        ConfigurationError,
        match=r"^longmemeval: data/oracle/test-00000-of-00001.parquet is not longmemeval/oracle data "
        r"\(no himga source record; export it again\)$",
    ):
        push("longmemeval", "org/lme", export_dir=lme)
    locomo_shard = locomo / "data" / "default" / "test-00000-of-00001.parquet"
    rows = pq.read_table(locomo_shard)
    relabelled = rows.set_column(
        rows.schema.get_field_index("dataset"), "dataset", pa.array(["longmemeval"] * rows.num_rows)
    )
    pq.write_table(relabelled.replace_schema_metadata(rows.schema.metadata), locomo_shard)
    with pytest.raises(
        ConfigurationError,
        match=r"^locomo: data/default/test-00000-of-00001.parquet holds rows of dataset \['longmemeval'\]$",
    ):
        push("locomo", "org/locomo", export_dir=locomo)
    assert hub.calls == []


def test_push_of_one_unnamed_file_fails_before_any_network_call(shared_data, hub):
    with pytest.raises(
        ConfigurationError, match=r"^longmemeval: cannot tell the config of longmemeval_oracle_sample.json"
    ):
        push("longmemeval", "org/lme", data_dir=shared_data / ORACLE_SAMPLE)
    assert main(["push", "longmemeval", "--repo-id", "org/lme", "--data-dir", str(shared_data / ORACLE_SAMPLE)]) == 2
    assert hub.calls == []
    push("longmemeval", "org/lme", data_dir=shared_data / ORACLE_SAMPLE, configs=["oracle"])
    assert hub.files("org/lme") == ["README.md"] + [
        f"data/oracle/test-{i:05d}-of-00016.parquet" for i in range(16)
    ]  # 97 rows: 16 files
    assert "`longmemeval_oracle_sample.json` | 3,079,019 |" in (hub.root / "org/lme/main/README.md").read_text()


def test_a_hub_error_echoing_the_token_is_redacted_to_one_line(shared_data, hub, monkeypatch, capsys, caplog):
    """Issue 16 §10: an endpoint that echoes the Authorization header never makes himga print the token."""

    class HfHubHTTPError(Exception):  # the shape of huggingface_hub's: status line, then headers and body
        pass

    def create_repo(self, repo_id, **kwargs):
        raise HfHubHTTPError(
            f"403 Forbidden for url: https://hub.example/api/repos/create\n"
            f"request headers: {{'authorization': 'Bearer {FAKE_TOKEN}'}}\n"
            f"body: token {FAKE_TOKEN} and hf_otherTOKENvalue1234 are not allowed"
        )

    monkeypatch.setattr(HfApi, "create_repo", create_repo)
    caplog.set_level(logging.DEBUG)
    status = main(["push", "locomo", "--repo-id", "org/locomo", "--data-dir", str(shared_data / "locomo")])
    out, err = capsys.readouterr()
    assert status == 2
    assert (
        err == "himga: error: cannot push to org/locomo: HfHubHTTPError: 403 Forbidden for url: "
        "https://hub.example/api/repos/create\n"
    )
    for text in (out, err, caplog.text):
        assert FAKE_TOKEN not in text and "hf_otherTOKEN" not in text
    with pytest.raises(UploadError) as info:
        push("locomo", "org/locomo", data_dir=shared_data / "locomo")
    assert info.value.__cause__ is None and FAKE_TOKEN not in str(info.value)


def test_redacted_removes_every_token_shape(monkeypatch):
    from himga.errors import redacted

    monkeypatch.setenv("HF_TOKEN", "plainsecret42")
    text = f"Authorization: Bearer xyz; token {FAKE_TOKEN}, env plainsecret42, hf_short stays"
    assert redacted(text) == "Authorization: Bearer ***; token ***, env ***, hf_short stays"


def test_push_dry_run_checks_everything_but_the_upload_without_a_token(shared_data, tmp_path, monkeypatch, capsys):
    """``himga push --dry-run``: the export made, its card and shards checked, the files listed; no token needed, no
    Hub method called."""

    def refuse(*args, **kwargs):
        raise AssertionError("the Hub was called")

    for method in ("create_repo", "create_branch", "upload_folder"):
        monkeypatch.setattr(HfApi, method, refuse)
    monkeypatch.delenv("HF_TOKEN", raising=False)
    export_dir = tmp_path / "export"
    export("locomo", export_dir, data_dir=shared_data / "locomo", cache_dir=tmp_path / "c")
    assert main(["push", "locomo", "--repo-id", "org/locomo", "--export-dir", str(export_dir), "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    parquet = export_dir / "data/default/test-00000-of-00001.parquet"
    assert out == [
        "dry run: would push locomo (default) to the dataset repository org/locomo (created if missing), branch "
        "main; the card and every shard checked:",
        f"  README.md  {(export_dir / 'README.md').stat().st_size:,} bytes",
        f"  data/default/test-00000-of-00001.parquet  {parquet.stat().st_size:,} bytes",
        "and delete the repository's other files matching data/default/test-*.parquet (stale shards of these "
        "configs); no token was read, nothing was sent",
    ]
    (export_dir / "README.md").unlink()  # what push refuses, the dry run refuses
    assert main(["push", "locomo", "--repo-id", "org/locomo", "--export-dir", str(export_dir), "--dry-run"]) == 2
    assert "nothing to push from" in capsys.readouterr().err
