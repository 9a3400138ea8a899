"""The system view carries a date on every message and no gold, for every question of every benchmark in the catalogue.

What "no gold" means here, precisely. A Sample's gold is: the answer (``qa.answer`` and every string of ``qa.raw``
but the question text and the dates the benchmark shows, so LoCoMo's category-5 ``adversarial_answer`` and
LongMemEval's ``answer_session_ids``/``haystack_session_ids`` included), the evidence turn and session ids, the
answer sessions, the question type, the source's sample, session, turn and question ids (LongMemEval's name the
answer sessions, ``answer_4be1b6b4_2``, and the abstentions, ``…_abs``) and ``raw`` (``has_answer``). The view

1. has only the fields a system is given (pinned below: no answer, evidence, type, ``raw``);
2. copies every text the benchmark itself shows the system verbatim from the source (messages, roles, dates,
   speakers, question texts, question dates), so a gold answer can be in the view only where it is in the
   conversation or the question already: a short answer ("Yes", "2022", "Caroline") is there often, and is no
   leak (the counts are measured, not asserted to be 0);
3. names everything else by generated ids of a fixed shape, none equal to a source id, and no token of any field
   outside the verbatim texts equals a gold id (evidence turn id, answer session id, source session, turn or
   question id);
4. writes every date of a sample in one style, so no session stands out by the way its date is written (LoCoMo-Plus's
   inserted cue, the gold evidence, was once the only session dated ``"2023-10-15 09:55"``).
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from himga.catalog import CATALOG
from himga.data import (
    Message,
    Session,
    SystemQuestion,
    SystemSample,
    item_id,
    samples_from_dataset,
    system_view,
    view_ids,
)
from himga.errors import ConfigurationError
from himga.schema.dates import TemporalParser

_SHOWN = ("question", "question_date", "haystack_dates")  # keys of qa.raw the benchmark shows the system
_TOKEN = re.compile(r"[^\s\"',\[\]{}()]+")


def _folder(shared_data, name):
    for candidate in (name, name.replace("_", "-")):
        if (shared_data / candidate).is_dir():
            return shared_data / candidate
    pytest.fail(f"{name}: no real data under {shared_data} (expected a folder {name}/ or {name.replace('_', '-')}/)")


@pytest.fixture(scope="module", params=list(CATALOG))
def benchmark_samples(request, shared_data, tmp_path_factory):
    """Every sample of the benchmark's real files (default config), by catalogue name."""
    from himga.data import build_dataset

    name = request.param
    entry = CATALOG[name]
    # LoCoMo-Plus reads upstream's data/ layout (its items beside locomo10.json): the session fixture links one
    path = request.getfixturevalue("locomo_plus_dir") if name == "locomo_plus" else _folder(shared_data, name)
    ds = build_dataset(name, entry.default_config, path=path, cache_dir=tmp_path_factory.mktemp(f"view_{name}"))
    return name, samples_from_dataset(ds)


def _strings(value, skip=()):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in skip:
                yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _source_ids(sample) -> set[str]:
    ids = {
        sample.sample_id,
        *(s.session_id for s in sample.sessions),
        *(item_id(sample, qa) for qa in sample.qa_pairs),
        *(qa.question_id for qa in sample.qa_pairs),
    }
    ids |= {m.turn_id for s in sample.sessions for m in s.messages if m.turn_id}
    for qa in sample.qa_pairs:
        ids |= set(qa.evidence.turn_ids) | set(qa.evidence.session_ids) | set(sample.relevance(qa).turns)
    ids |= {s.session_id for s in sample.answer_sessions()}
    return ids


def _outside_verbatim(view: SystemSample) -> list[str]:
    """Every string of the view that is not a text the benchmark shows (message text, role, dates, speakers,
    questions)."""
    out = [view.sample_id, view.dataset]
    for session in view.sessions:
        out += [session.session_id, *(m.turn_id for m in session.messages)]
        out += [text for m in session.messages for text in _strings(m.raw)]
    out += [q.question_id for q in view.questions]
    return out


def test_the_view_has_only_what_a_system_is_given():
    assert [f.name for f in dataclasses.fields(SystemSample)] == [
        "sample_id",
        "dataset",
        "sessions",
        "questions",
        "speaker_a",
        "speaker_b",
    ]
    # issue 37: where a question sits in the history (PersonaMem asks in the middle of it); None: after all of it
    assert [f.name for f in dataclasses.fields(SystemQuestion)] == [
        "question_id",
        "question",
        "question_date",
        "position",
        "options",
    ]
    assert [f.name for f in dataclasses.fields(Session)] == ["session_id", "messages", "date_str", "title"]
    assert [f.name for f in dataclasses.fields(Message)] == ["role", "content", "turn_id", "date_str", "raw"]


def date_styles(view: SystemSample) -> set[str]:
    """The styles the view's dates are written in: the name of the format each reads with (``locomo_session``), or
    ``"unread"`` for a date no known format reads."""
    parser, styles = TemporalParser(), set()
    for date in {d for s in view.sessions for d in (s.date_str, *(m.date_str for m in s.messages)) if d is not None}:
        try:
            styles.add(parser.match(date)[0])
        except ValueError:
            styles.add("unread")
    return styles


def problems(sample, view: SystemSample, checked: dict | None = None) -> list[str]:
    """What in ``view`` is not the system's view of ``sample`` (the three rules of the module docstring)."""
    found = []
    if (view.speaker_a, view.speaker_b, view.dataset) != (sample.speaker_a, sample.speaker_b, sample.dataset):
        found.append("speakers or dataset differ")
    if len(view.sessions) != len(sample.sessions):
        found.append("sessions added or lost")
    for n, (mine, theirs) in enumerate(zip(view.sessions, sample.sessions), 1):
        if (mine.session_id, mine.date_str, mine.title) != (f"S{n}", theirs.date_str, theirs.title):
            found.append(f"session {n}: id, date or title")
        if [(m.role, m.content, m.turn_id, m.date_str, m.raw) for m in mine.messages] != [
            (m.role, m.content, f"S{n}:{k}", m.date_str or theirs.date_str, {})
            for k, m in enumerate(theirs.messages, 1)
        ]:
            found.append(f"session {n}: messages not verbatim, undated, or with raw")
    question_date = sample.raw.get("question_date")
    if [(q.question, q.question_date) for q in view.questions] != [
        (qa.question, question_date) for qa in sample.qa_pairs
    ]:
        found.append("questions not verbatim")
    if not re.fullmatch(r"v[0-9a-f]{10}", view.sample_id) or [q.question_id for q in view.questions] != [
        f"{view.sample_id}:q{n}" for n in range(1, len(view.questions) + 1)
    ]:
        found.append("sample or question ids not generated")
    if len(styles := date_styles(view)) > 1:
        found.append(f"dates in {len(styles)} styles: {sorted(styles)}")
    tokens = {t for s in _outside_verbatim(view) for t in _TOKEN.findall(s)}
    source = _source_ids(sample)
    found += [f"source id {t!r}" for t in sorted(tokens & source)]
    conversation = "\n".join(m.content for s in sample.sessions for m in s.messages)
    for qa in sample.qa_pairs:
        gold = {qa.answer, qa.question_type.value, *_strings(qa.raw, skip=_SHOWN)} - {qa.question}
        found += [f"{item_id(sample, qa)}: gold {t!r}" for t in sorted(tokens & gold)]
        if checked is not None:
            checked["questions"] += 1
            checked["ids and gold strings"] += len(source) + len(gold)
            checked["answers in the conversation"] += qa.answer in conversation
    return found


def test_every_question_of_every_benchmark_sees_no_gold(benchmark_samples):
    name, samples = benchmark_samples
    checked = {"questions": 0, "ids and gold strings": 0, "answers in the conversation": 0}
    for sample in samples:
        assert problems(sample, system_view(sample), checked) == []
        mapping = view_ids(sample)  # the ids map back
        assert list(mapping.questions.values()) == [item_id(sample, qa) for qa in sample.qa_pairs]
        assert list(mapping.sessions.values()) == [s.session_id for s in sample.sessions]
    assert checked["questions"] == sum(len(s.qa_pairs) for s in samples) > 0


def test_the_check_finds_each_kind_of_leak(benchmark_samples):
    name, samples = benchmark_samples
    sample = samples[0]
    qa = sample.qa_pairs[0]
    leaky = [
        lambda v: setattr(v.sessions[0], "session_id", sample.sessions[0].session_id),  # the source id (answer_…)
        lambda v: v.sessions[0].messages[0].raw.update(has_answer=True),
        lambda v: setattr(v.sessions[0].messages[0], "content", v.sessions[0].messages[0].content + " CONTAINS ANSWER"),
        *(
            [lambda v: setattr(v.sessions[0].messages[0], "date_str", None)]
            if system_view(sample).sessions[0].messages[0].date_str is not None
            else []  # PersonaMem dates nothing
        ),
        lambda v: v.sessions[0].messages[0].raw.update(gold=qa.answer),
        lambda v: setattr(
            v, "questions", [dataclasses.replace(q, question_id=item_id(sample, qa)) for q in v.questions]
        ),
        lambda v: v.sessions.reverse() if len(v.sessions) > 1 else v.sessions.append(v.sessions[0]),
    ]
    for n, tamper in enumerate(leaky):
        view = system_view(sample)
        tamper(view)
        assert problems(sample, view) != [], n
    restyled = dataclasses.replace(sample, sessions=[dataclasses.replace(s) for s in sample.sessions])
    if not any(s.date_str for s in restyled.sessions):
        assert name == "personamem"  # the one benchmark without dates
        return
    dated = next(s for s in restyled.sessions if s.date_str)  # one session dated in another style than the others
    dated.date_str = dated.datetime.strftime(
        "%Y-%m-%d %H:%M" if date_styles(system_view(sample)) != {"iso_datetime"} else "%d %B, %Y"
    )
    assert [p for p in problems(restyled, system_view(restyled)) if p.startswith("dates in 2 styles")] != []


@pytest.mark.parametrize("granularity", ["session", "turn"])
def test_a_ranking_made_on_the_view_maps_back_to_the_qrels(benchmark_samples, granularity):
    """Rank every relevant document first, in view ids: mapped back, the run names exactly the qrels' documents."""
    from himga.qrels import qrels, view_run

    name, samples = benchmark_samples
    rankings = {}
    for sample in samples:
        mapping = view_ids(sample)
        back = {
            v: k for k, v in (mapping.sessions if granularity == "session" else mapping.turns).items() if v is not None
        }
        for view_qid, qa in zip(mapping.questions, sample.qa_pairs):
            if sample.relevance(qa).evaluable:
                rankings[view_qid] = [back[i] for i in sample.relevance(qa).ids(granularity) if i in back]
    run = view_run(samples, rankings, granularity)
    expected = {qid: [d for d, grade in docs.items() if grade] for qid, docs in qrels(samples, granularity).items()}
    present = {
        qid: [d for d in docs if d in run[qid]] for qid, docs in expected.items()
    }  # dangling LoCoMo ids have no turn
    assert run == present and len(run) == len(expected)
    assert len(run) > 0 or name == "personamem"  # PersonaMem labels no evidence: no question's retrieval is evaluable
    with pytest.raises(ConfigurationError, match="is no question of the views"):
        view_run(samples, {"conv-26:0": []}, granularity)
