"""The published runs himga knows, by the sha256 of their file: the project, the headline it printed, and the judge and
models that made the file, each with where it was read.

An imported record carries what its file's entry says (``run.published``); ``himga score locomo RUN.jsonl
--verdicts`` compares it with the number the verdicts give. A file not listed here imports the same way, without a
published number.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

__all__ = ["PUBLISHED", "PublishedRun", "published_run", "reproduction"]

_AUDIT = "dial481/locomo-audit@9493fb4b4af4256ed17a18e8fd0b3cfdeec29539"
_AUDIT_JUDGE = (
    "the audit's evaluation/config/prompts.yaml llm_judge (byte-identical to the registered evermemos judge), "
    "gpt-4o-mini, 3 runs (fc-baseline/scripts/fc_eval.py)"
)


@dataclass(frozen=True)
class PublishedRun:
    """One published file.

    Attributes:
        sha256: The file's sha256.
        name: A short name for tables (``"zep"``).
        source: ``repository@commit path`` of the file.
        headline: The number published, in percent (``75.14``), printed to ``decimals`` places, ``spread`` its ±.
        published_in: ``repository@commit path`` where the headline is printed.
        judge: The registered judge the verdicts came from, else ``None``; judge_found: that judge as read in the
            project's code (or why none is registered).
        judge_model, answer_model: The models (``None``: not stated).
        note: What a reader must know to read the number.
    """

    sha256: str
    name: str
    source: str
    headline: float
    decimals: int
    published_in: str
    judge: str | None
    judge_found: str
    judge_model: str | None
    answer_model: str | None
    spread: float | None = None
    note: str = ""

    def as_dict(self) -> dict:
        """The entry as the records carry it (``run.published``)."""
        return asdict(self)


def _fc(sha256: str, name: str, headline: float, answer_model: str) -> PublishedRun:
    return PublishedRun(
        sha256,
        f"locomo-audit fc {name}",
        f"{_AUDIT} fc-baseline/results/{name}/eval_results.json",
        headline,
        2,
        f"{_AUDIT} fc-baseline/README.md",
        "evermemos",
        _AUDIT_JUDGE,
        "gpt-4o-mini",
        answer_model,
        note="full-context baseline: the whole conversation as context, no memory system",
    )


def _probe(sha256: str, version: str, headline: float) -> PublishedRun:
    return PublishedRun(
        sha256,
        f"locomo-audit probe {version}",
        f"{_AUDIT} ap-baseline/{version}/ap_eval_results_scored.json",
        headline,
        2,
        f"{_AUDIT} ap-baseline/README.md",
        "evermemos",
        _AUDIT_JUDGE.replace("fc-baseline/scripts/fc_eval.py", "ap-baseline/score_ap.py"),
        "gpt-4o-mini",
        None,
        note="the answers are written to be wrong: the score is the judge's false-accept rate",
    )


#: Every published file himga knows, by sha256.
PUBLISHED: dict[str, PublishedRun] = {
    run.sha256: run
    for run in (
        PublishedRun(
            "2ecb701017bb007306e88abd1af88a9cddac06098e6a7f666e4640aadce23fc6",
            "zep",
            "getzep/zep@1659df1a5fbda7a010a8ab214e067637499b4a07 benchmarks/locomo_eval/data/zep_locomo_grades.json",
            75.14,
            2,
            "getzep/zep@1659df1a5fbda7a010a8ab214e067637499b4a07 benchmarks/locomo_eval/README.md",
            "zep",
            "benchmarks/locomo_eval/zep_locomo_eval.py locomo_grader at the same commit: system prompt and template "
            "byte-identical to the registered zep judge",
            "gpt-4o-mini",
            "gpt-4o-mini",
            spread=0.17,
            note="the README's ± spans several runs; the file holds the grades of one",
        ),
        PublishedRun(
            "c4943a6e15013e8af07a079d285a0d8206282ff6815429db2f5f5d5d5ad28b6d",
            "zep responses",
            "getzep/zep@1659df1a5fbda7a010a8ab214e067637499b4a07 benchmarks/locomo_eval/data/zep_locomo_responses.json",
            75.14,
            2,
            "getzep/zep@1659df1a5fbda7a010a8ab214e067637499b4a07 benchmarks/locomo_eval/README.md",
            None,
            "none: the responses before grading (the grades are zep_locomo_grades.json)",
            None,
            "gpt-4o-mini",
            spread=0.17,
        ),
        PublishedRun(
            "9e9783e903f30d086c478117686a14267ce525c1011d28a0696d1c2ce0fb398b",
            "evermemos",
            "EverMind-AI/EverMemOS@5cb4ccdb6e95a31d0e6e9a56936bb3dab73dabaa "
            "evaluation/locomo_evaluation/results_ref/locomo_evaluation_event_log/judged.json",
            92.3,
            1,
            "EverMind-AI/EverMemOS@2cc76b9c063f3db2829b39967efb970ad389724b README.md",
            None,
            "evaluation/locomo_evaluation/stage5_eval.py locomo_grader at 5cb4ccdb (the commit that added the file): "
            "Zep's prompt ('williolw23' kept) without its four trailing spaces, no response format, 3 runs; not the "
            "later evaluation/config/prompts.yaml judge registered as evermemos",
            "gpt-4o-mini",
            "gpt-4.1-mini-2025-04-14",
            note="an earlier run than the one announced: neither its mean of runs nor its majority is 92.3",
        ),
        _fc(
            "7fa10ba1d8976bdc215172f9d4e1840c015644b28e8e97de840b690051e354f3",
            "gpt-4.1-mini-cot",
            92.62,
            "gpt-4.1-mini",
        ),
        _fc(
            "08212320401c65fa9a97f78dd18adfb1d527137ec9f04b1b518420aa8e651bfe", "gpt-4o-mini-cot", 79.89, "gpt-4o-mini"
        ),
        _fc(
            "f573c091606b5c7691d7801ef30aada0bc8c54e406e31da3a2f807ab1ffa02e8",
            "gpt-4.1-mini-memos",
            81.95,
            "gpt-4.1-mini",
        ),
        _fc(
            "1c55eb0ee66f9eb784c222ec54492cc39702652baa4e6c66b7fb89a7bb8a3d8f",
            "gpt-4o-mini-memos",
            74.29,
            "gpt-4o-mini",
        ),
        _probe("a83882eda3ff02fd04dace6edddd0ceed533a245fedb3069ffde02a9503c4e3a", "v1", 10.61),
        _probe("3c32acbdcf667967a4e1f9f541b06566ae5e7361dc92f79f9043af7d068adc6b", "v2", 62.81),
        PublishedRun(
            "171489e7a60dd6275027a9897270ad5a9bce83193c2b64863ecd43eba9582b5a",
            "memobase",
            "memodb-io/memobase@358c16bbc6d687937d79bc2f984a11c3be8da901 "
            "docs/experiments/locomo-benchmark/fixture/memobase/memobase_eval_0710_3000.json",
            75.78,
            2,
            "memodb-io/memobase@358c16bbc6d687937d79bc2f984a11c3be8da901 docs/experiments/locomo-benchmark/README.md",
            None,
            "docs/experiments/locomo-benchmark/metrics/llm_judge.py at the same commit: mem0's ACCURACY_PROMPT with "
            'one character changed (’ in "Now it’s time"), reply read by json.loads without extract_json; not '
            "registered (the nearest is mem0)",
            "gpt-4o-mini",
            None,
            note="Memobase v0.0.37; the README names categories 1, 3, 4 in mem0's order (single-hop, multi-hop, "
            "open-domain)",
        ),
        PublishedRun(
            "e71811ef87b28cc7b267576dc1f5453cd6e9b8d577d5d221e50ea0aaf588c111",
            "cognee (amb)",
            "vectorize-io/agent-memory-benchmark@de83fa7816ab6bbb8a0ed63916f49f65300fb74b "
            "outputs/locomo/cognee/rag/locomo10.json.gz",
            80.26,
            2,
            "vectorize-io/agent-memory-benchmark@de83fa7816ab6bbb8a0ed63916f49f65300fb74b results-manifest.json "
            "(accuracy 0.8026315789473685)",
            None,
            "agent-memory-benchmark's own judge (gemini-2.5-flash-lite); not registered",
            "gemini-2.5-flash-lite",
            "gemini-3.1-pro-preview",
            note="conv-26 only: 152 questions of one conversation, not LoCoMo's 1,540",
        ),
        PublishedRun(
            "f7f11bad92cf7406a6e93aa776524bf97d0bc84032786e62585835a4582a1dcf",
            "mempalace",
            "MemPalace/mempalace@9b7cfc9940846f9bb06bdfe40476ca34b504ab4b "
            "benchmarks/results_locomo_hybrid_session_top10_20260414_1649.json",
            88.9,
            1,
            "MemPalace/mempalace@9b7cfc9940846f9bb06bdfe40476ca34b504ab4b benchmarks/BENCHMARKS.md",
            None,
            "none: a retrieval run (recall@10 of evidence sessions, benchmarks/locomo_bench.py "
            "compute_retrieval_recall)",
            None,
            None,
            note="R@10 over all 1,986 questions, category 5 included (87.06 over the 1,540 of categories 1-4)",
        ),
    )
}


def published_run(sha256: str) -> PublishedRun | None:
    """The published run whose file has this sha256, or ``None``."""
    return PUBLISHED.get(sha256)


def reproduction(published: dict, percent: float) -> str:
    """Whether ``percent`` (the file's own verdicts, aggregated) reproduces a published headline (``run.published``):
    ``"reproduced"`` (equal to the printed precision), ``"within the published ±0.17"``, or ``"not reproduced"``."""
    if round(percent, published["decimals"]) == published["headline"]:
        return "reproduced"
    if published.get("spread") is not None and abs(percent - published["headline"]) <= published["spread"]:
        return f"within the published ±{published['spread']:g}"
    return "not reproduced"
