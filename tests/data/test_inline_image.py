"""An image inline in a message's text: written by one rule, split off again exactly."""

from __future__ import annotations

import pytest

from himga.schema.content import inline_image, split_inline_image, text_without_image


@pytest.mark.parametrize(
    ("caption", "text"),
    [("a dog on a beach", "Look!"), ("a dog", ""), ("]", ""), ("a [b] c", "] x"), ("", " lead")],
)
def test_text_without_image_inverts_inline_image(caption, text):
    assert text_without_image(inline_image(caption, text), caption) == text


def test_split_inline_image_cuts_at_the_first_bracket():
    assert split_inline_image("[Image: a dog] Look!") == ("a dog", "Look!")
    assert split_inline_image("[Image: a dog]") == ("a dog", "")
    assert split_inline_image("no image") == (None, "no image")
    # without the caption, a bracket inside it is ambiguous: cut at the first one
    assert split_inline_image("[Image: a [b] c] x") == ("a [b", "c] x")


def test_text_without_image_refuses_another_caption():
    with pytest.raises(ValueError, match="does not start with the image"):
        text_without_image("[Image: a cat] Look!", "a dog")
