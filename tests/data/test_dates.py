"""TemporalParser / parse_date: exact values, every date string of the real files, and the errors."""

from __future__ import annotations

import json
import pickle
import re
from datetime import datetime

import pytest

from himga.data import Message, Sample, Session, TemporalParser, parse_date
from himga.errors import DateFormatError, HimgaError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56)),
        ("12:09 am on 13 September, 2023", datetime(2023, 9, 13, 0, 9)),
        ("12:30 pm on 1 June, 2023", datetime(2023, 6, 1, 12, 30)),
        ("11:59 pm on 31 December, 2022", datetime(2022, 12, 31, 23, 59)),
        ("8 May, 2023", datetime(2023, 5, 8)),
        ("2023/05/20 (Sat) 02:21", datetime(2023, 5, 20, 2, 21)),
        ("2024-03-01", datetime(2024, 3, 1)),
        ("2024-03-01T14:30", datetime(2024, 3, 1, 14, 30)),
        ("2024-03-01T14:30:05", datetime(2024, 3, 1, 14, 30, 5)),
        ("2024-03-01 14:30:05.250000", datetime(2024, 3, 1, 14, 30, 5, 250000)),
        ("  8 May, 2023 ", datetime(2023, 5, 8)),
    ],
)
def test_exact_values(text, expected):
    result = parse_date(text)
    assert result == expected
    assert result.tzinfo is None


def test_format_names():
    parser = TemporalParser()
    assert [
        parser.match(s)[0]
        for s in (
            "1:56 pm on 8 May, 2023",
            "8 May, 2023",
            "2023/05/20 (Sat) 02:21",
            "2024-03-01",
            "2024-03-01T14:30:05",
        )
    ] == ["locomo_session", "locomo_event", "longmemeval", "iso_date", "iso_datetime"]
    assert parser("2024-03-01") == datetime(2024, 3, 1)


def test_none_gives_none():
    assert parse_date(None) is None
    assert TemporalParser().parse(None) is None


@pytest.mark.parametrize(
    ("value", "detail"),
    [
        ("May 8, 2023", "not in a known format"),
        ("", "not in a known format"),
        ("2024-03-01T14:30:00+02:00", "not in a known format"),  # an offset: the results are naive
        ("13:00 pm on 8 May, 2023", "not in a known format"),
        ("31 April, 2023", "locomo_event format, but day is out of range for month"),
        ("2023/05/20 (Mon) 02:21", "the weekday does not match the date: 2023-05-20 is a Saturday"),
        (20230520, "expected a string, got int"),
    ],
)
def test_errors_name_the_string(value, detail):
    with pytest.raises(DateFormatError) as info:
        parse_date(value)
    assert str(info.value).startswith(f"cannot parse date {value!r}: {detail}")
    assert info.value.value == value
    assert isinstance(info.value, HimgaError) and isinstance(info.value, ValueError)


def test_error_survives_pickling():
    error = pickle.loads(pickle.dumps(DateFormatError("8 Mai, 2023", "not in a known format")))
    assert (error.value, error.detail, str(error)) == (
        "8 Mai, 2023",
        "not in a known format",
        "cannot parse date '8 Mai, 2023': not in a known format",
    )


def test_accessors():
    session = Session("1", [Message("Caroline", "hi")], date_str="12:09 am on 13 September, 2023")
    assert session.datetime == datetime(2023, 9, 13, 0, 9)
    assert Session("2", []).datetime is None
    sample = Sample("q1", "longmemeval", [session], [], raw={"question_date": "2023/05/20 (Sat) 02:21"})
    assert sample.question_datetime == datetime(2023, 5, 20, 2, 21)
    assert Sample("conv-26", "locomo", [], []).question_datetime is None


# --- every date string of the real files -----------------------------------------------------------


def test_every_locomo_date_parses(shared_data):
    records = json.loads((shared_data / "locomo" / "locomo10.json").read_text())
    session_dates = [
        v for r in records for k, v in r["conversation"].items() if re.fullmatch(r"session_\d+_date_time", k)
    ]
    event_dates = [e["date"] for r in records for e in r["event_summary"].values()]
    assert (len(session_dates), len(event_dates)) == (288, 272)
    parser = TemporalParser()
    assert {parser.match(s)[0] for s in session_dates} == {"locomo_session"}
    assert {parser.match(s)[0] for s in event_dates} == {"locomo_event"}
    assert sum(" am on " in s for s in session_dates) == 75
    parsed = [parse_date(s) for s in session_dates]
    assert (min(parsed), max(parsed)) == (datetime(2022, 1, 21, 19, 31), datetime(2024, 1, 12, 13, 41))
    # 17 times are "12:xx am", all just after midnight (hour 0): a %H-style reading would put them at noon
    assert (
        sum(s.startswith("12:") for s in session_dates)
        == sum(s.startswith("12:") and " am " in s for s in session_dates)
        == 17
    )
    assert {parse_date(s).hour for s in session_dates if s.startswith("12:")} == {0}


def test_locomo_session_accessor(locomo_samples):
    conv26 = locomo_samples[0]
    assert conv26.sessions[0].datetime == datetime(2023, 5, 8, 13, 56)
    assert sum(s.datetime is not None for sample in locomo_samples for s in sample.sessions) == 272
    assert conv26.question_datetime is None


def test_every_longmemeval_date_parses(shared_data):
    counts = {}
    for path in sorted((shared_data / "longmemeval").glob("*.json")):
        questions = json.loads(path.read_text())
        haystack = [d for q in questions for d in q["haystack_dates"]]
        asked = [q["question_date"] for q in questions]
        assert {TemporalParser().match(s)[0] for s in haystack + asked} == {"longmemeval"}
        counts[path.name] = (len(haystack), len(asked))
    assert counts == {"longmemeval_oracle_pair.json": (5, 2), "longmemeval_oracle_sample.json": (186, 97)}
    assert parse_date("2023/05/28 (Sun) 06:58") == datetime(2023, 5, 28, 6, 58)  # 09ba9854_abs's question_date
