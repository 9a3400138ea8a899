"""``himga.run.run``: a memory system run on a benchmark, resumable, into a run folder, scored when it completes."""

from __future__ import annotations

import datetime as _dt
import shlex
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from himga.errors import ConfigurationError
from himga.run._memory_spec import resolve_memory
from himga.version import __version__

__all__ = ["run"]


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()


def run(
    dataset: str,
    *,
    memory: Any,
    out: str | Path,
    config: str | None = None,
    data_dir: str | Path | None = None,
    cache_dir: str | Path | None = None,
    memory_args: Mapping[str, Any] | None = None,
    answer_model: str = "extractive",
    base_url: str | None = None,
    answer_prompt: str | None = None,
    top_k: int = 10,
    concurrency: int = 8,
    ids: str | Path | None = None,
    limit: int | None = None,
    shard: str | tuple[int, int] | None = None,
    judge: str | None = None,
    allow_empty_retrieval: bool = False,
    max_retries: int = 5,
    timeout: float = 120.0,
    api_key_env: str = "OPENAI_API_KEY",
    ready_timeout: float = 600.0,
    progress: bool = True,
    dry_run: bool = False,
    **options: Any,
) -> dict:
    """Run a memory system on a benchmark: ingest, retrieve, answer, record; score when every question has an answer.

    Args:
        dataset: A benchmark of the catalogue (``"locomo"``).
        memory: A reference memory's name (``"bm25"``), ``"module:Class"``, a memory class (``memory_args`` its
            keyword arguments) or a factory ``() -> memory``; one fresh memory per sample.
        out: The run folder (created; a rerun into it continues, :mod:`himga.run._folder`).
        config, data_dir, cache_dir, **options: As :func:`himga.data.build_dataset` (the source, its options).
        answer_model: A model of the endpoint, or ``"extractive"`` (the top item's text; no endpoint).
        base_url: An OpenAI-compatible endpoint (default: ``$OPENAI_BASE_URL``, else OpenAI's).
        answer_prompt: An answer prompt's name (default: the benchmark's official one where registered, else
            ``"plain"``).
        top_k: ``k`` of every ``retrieve`` (at least 1).
        concurrency: Answers in flight at once (at least 1).
        ids: An ids file (``himga subset``): only its questions.
        limit: Only the first ``limit`` questions (dataset order), after ``ids``.
        shard: ``"I/N"`` or ``(I, N)``: the samples of shard ``I`` of ``N`` (:mod:`himga.run._shards`).
        judge: ``NAME[,NAME]``: also write these judges' requests when the run completes.
        allow_empty_retrieval: Go on when a memory retrieves nothing for every question of a sample.
        max_retries, timeout, api_key_env: The ``openai`` client's settings (as ``himga judge``).
        ready_timeout: Seconds to wait on a memory's ``ready()``.
        progress: Show a progress bar.
        dry_run: Plan only (``himga run --dry-run``): the questions selected, those ``out`` already answers, the
            requests to the answer model; nothing is asked, ingested or written, no endpoint is called.

    Returns:
        The manifest as written (``completed``, and when complete ``score`` and ``summary``); with ``dry_run``,
        ``{"dry_run": True, "questions", "answered", "requests", "answer_model", "endpoint", "out"}``.

    Raises:
        ConfigurationError: bad arguments, an ``--out`` that holds another run (naming the field that differs) or
            other files, a memory that is none.
        EndpointError: the endpoint cannot be reached, or refuses the key (before anything is ingested).
        RunStopped: a memory that raised or retrieved no items; a request the endpoint refuses (the records written
            stay; rerun to continue).
    """
    from himga.catalog import benchmark
    from himga.endpoint import check_settings, endpoint_host, preflight
    from himga.run._answer import EXTRACTIVE, EndpointAnswerer, ExtractiveAnswerer
    from himga.run._folder import RunFolder
    from himga.run._shards import parse_shard
    from himga.run.prompts import answer_prompt_named, answer_prompts, default_answer_prompt

    entry = benchmark(dataset)
    entry.check_options(options, run)
    check_settings(concurrency=concurrency, max_retries=max_retries, timeout=timeout)
    if not isinstance(answer_model, str) or not answer_model.strip():
        raise ConfigurationError(f"--answer-model: expected a model name (or extractive), got {answer_model!r}")
    if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1:
        raise ConfigurationError(f"--top-k: expected a positive integer, got {top_k!r}")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise ConfigurationError(f"--limit: expected a positive integer, got {limit!r}")
    if ids is not None and limit is not None:
        raise ConfigurationError("--ids and --limit: give one (a subset file names its questions already)")
    shard = parse_shard(f"{shard[0]}/{shard[1]}" if isinstance(shard, tuple) else shard)
    factory, memory_info = resolve_memory(memory, memory_args)
    prompt = answer_prompt_named(answer_prompt) if answer_prompt else default_answer_prompt(entry.name)
    if prompt.benchmarks and entry.name not in prompt.benchmarks:
        fitting = [name for name, p in answer_prompts().items() if not p.benchmarks or entry.name in p.benchmarks]
        raise ConfigurationError(
            f"--answer-prompt {prompt.name}: written for {', '.join(prompt.benchmarks)}, not {entry.name}; "
            f"for {entry.name}: {', '.join(fitting)}"
        )
    if judge:
        from himga.scoring import judges_named

        judges_named(judge, entry.name)  # an unknown, repeated or foreign name stops here, before any question
    folder = RunFolder(out)
    if answer_model == EXTRACTIVE:
        answerer, parameters = ExtractiveAnswerer(), {}
    elif dry_run:
        answerer, parameters = None, dict(prompt.parameters)
    else:
        preflight(base_url=base_url, api_key_env=api_key_env)  # one line, before any sample is built or ingested
        parameters = dict(prompt.parameters)
        answerer = EndpointAnswerer(
            answer_model,
            base_url=base_url,
            api_key_env=api_key_env,
            max_retries=max_retries,
            timeout=timeout,
            parameters=parameters,
        )
    from himga.run._plan import plan

    planned = plan(
        entry, config=config, data_dir=data_dir, cache_dir=cache_dir, ids=ids, limit=limit, shard=shard, options=options
    )
    shape = None
    if entry.shape_note is not None:  # LongMemEval's oracle file read as s or m: said, and kept in the manifest
        from himga.data.lazy import LazySamples

        if shape := entry.shape_note(planned.config, LazySamples(planned.dataset)):
            print(f"note: {shape}")
    manifest = {
        "himga": __version__,
        "dataset": entry.name,
        "config": planned.config,
        "options": {k: str(v) for k, v in sorted(options.items())},
        "sources": planned.identity["sources"],
        "gold": planned.identity["gold"],
        "subset": {"ids": planned.identity["ids"], "fingerprint": planned.identity["subset_fingerprint"]}
        if planned.identity["ids"]
        else None,
        "selection": {"limit": limit, "questions": len(planned.selected)},
        "shard": f"{shard[0]}/{shard[1]}" if shard else None,
        "memory": memory_info,
        "reference": memory_info["reads_gold"] or (prompt.reads_gold and answer_model != EXTRACTIVE),
        "top_k": top_k,
        "answer_prompt": prompt.describe(),
        "answer_model": answer_model,
        "answer_parameters": parameters,
        "endpoint": None if answer_model == EXTRACTIVE else endpoint_host(base_url),
        **({"shape_note": shape} if shape else {}),
    }
    answered = folder.resume(manifest, planned.selected)  # refused before the folder is touched
    if dry_run:
        return {
            "dry_run": True,
            "questions": len(planned.selected),
            "answered": len(answered),
            "requests": 0 if answer_model == EXTRACTIVE else len(planned.selected) - len(answered),
            "answer_model": answer_model,
            "endpoint": manifest["endpoint"],
            "out": str(folder.path),
        }
    previous = folder.manifest() or {}
    manifest["started"] = previous.get("started") or _now()
    hosts = [
        h for h in dict.fromkeys([*previous.get("endpoints", [previous.get("endpoint")]), manifest["endpoint"]]) if h
    ]
    if answered and len(hosts) > 1:  # the model's name is compared, not where it is served: say it, keep every host
        manifest["endpoints"] = hosts
        print(f"note: {out} holds answers from {', '.join(hosts)}; it continues at {manifest['endpoint']}")
    folder.write_manifest({**previous, **manifest, "completed": False})
    folder.start_appending()
    pending = set(planned.selected) - answered
    from himga.run._runner import Work

    work = Work(
        memory=factory,
        answer=answerer,
        prompt=prompt,
        top_k=top_k,
        concurrency=concurrency,
        folder=folder,
        pending=pending,
        allow_empty=allow_empty_retrieval,
        ready_timeout=ready_timeout,
        reads_gold=memory_info["reads_gold"],
    )
    given = {"--config": planned.config, "--data-dir": data_dir, "--cache-dir": cache_dir}
    source = " ".join(f"{flag} {shlex.quote(str(v))}" for flag, v in given.items() if v is not None)
    return _work(entry, planned, manifest, work, judge=judge, progress=progress, source=source)


def _work(entry, planned, manifest: dict, work, *, judge: str | None, progress: bool, source: str) -> dict:
    """Ask the pending questions of ``work`` (a progress bar over every question of the run), then complete it."""
    from tqdm.auto import tqdm

    from himga.run._complete import complete
    from himga.run._runner import work_through

    total = len(planned.selected)
    bar = tqdm(total=total, initial=total - len(work.pending), desc=f"run {entry.name}", unit="q", disable=not progress)
    work.on_answer = lambda: bar.update(1)
    work.folder.open_writer()
    start = time.perf_counter()
    try:
        if work.pending:
            work_through(work, planned.samples(work.pending))
    finally:
        work.folder.close_writer()
        bar.close()
    manifest = {**manifest, "run_seconds": round(time.perf_counter() - start, 3)}
    return complete(entry, work.folder, planned, manifest, work.unanswered, judge=judge, source=source)
