"""The depth guard of :mod:`himga.jsonio._depth`: strings and escapes split anywhere, item index, safe prefix."""

from __future__ import annotations

import json

import pytest

from himga.jsonio._depth import MAX_DEPTH, DepthGuard, TooDeep

# 3 levels of brackets; the strings hold brackets, escaped quotes and backslash runs that must not count
TEXT = json.dumps([{"a": '[[["{{', "b\\": ['x\\"]]', "\\\\"]}, {"c": [1]}, "]\\"]).encode()


def _fed(pieces: list[bytes], limit: int) -> DepthGuard:
    guard = DepthGuard(limit)
    for piece in pieces:
        guard.feed(piece)
    return guard


def test_max_depth_is_64():
    assert MAX_DEPTH == 64


@pytest.mark.parametrize("cut", range(len(TEXT) + 1))
def test_strings_split_at_any_byte_do_not_count(cut):
    guard = _fed([TEXT[:cut], TEXT[cut:]], limit=3)
    assert (guard.depth, guard.items, guard.array) == (0, 2, True)
    with pytest.raises(TooDeep) as info:
        _fed([TEXT[:cut], TEXT[cut:]], limit=2)
    assert (info.value.path, info.value.index) == ("$[0]", 0)


def test_item_index_and_top_level_object():
    with pytest.raises(TooDeep) as info:
        _fed([b'[1, "a,", {"b": 2},', b" [[[]]]]"], limit=3)
    assert (info.value.path, str(info.value)) == (
        "$[3]",
        "arrays and objects nested more than 3 levels deep (the benchmark files need fewer than 10)",
    )
    with pytest.raises(TooDeep) as info:
        _fed([b'{"a": [1, [2, [3]]]}'], limit=3)
    assert info.value.path == "$"


def test_feed_safe_stops_before_the_offending_bracket():
    guard = DepthGuard(3)
    data = b'[{"id": "q1"}, {"id": "q2", "x": [[1]]}]'
    assert guard.feed_safe(data) == data.index(b"[[") + 1  # the second '[' would be level 4
    assert (guard.depth, guard.items) == (3, 1)
    with pytest.raises(TooDeep):
        guard.feed_safe(b"[1]")  # the first byte passes the bound: nothing to hand on
