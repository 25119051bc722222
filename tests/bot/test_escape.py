"""The Markdown escaper shared by `--markdown` and the Discord renderer."""

from __future__ import annotations

import pytest

from bot.render.escape import defuse_mentions, escape_markdown, escape_untrusted


@pytest.mark.parametrize(("raw", "escaped"), [
    ("<img src=x onerror=alert(1)>", "\\<img src=x onerror=alert\\(1\\)\\>"),
    ("</details>", "\\</details\\>"),
    ("<script>alert(1)</script>", "\\<script\\>alert\\(1\\)\\</script\\>"),
    ("[click](https://evil.example)", "\\[click\\]\\(https\\://evil\\.example\\)"),
    ("![img](x.png)", "\\!\\[img\\]\\(x\\.png\\)"),
    ("**bold** _it_ `code` ~~s~~ ||spoiler||", "\\*\\*bold\\*\\* \\_it\\_ \\`code\\` \\~\\~s\\~\\~ \\|\\|spoiler\\|\\|"),
    ("a & b &lt;", "a \\& b \\&lt;"),
    ("2103.6 tok/s", "2103\\.6 tok/s"),
])
def test_markup_is_shown_as_text(raw: str, escaped: str) -> None:
    assert escape_markdown(raw) == escaped


@pytest.mark.parametrize(("raw", "defused"), [
    ("@everyone look", "@\u2060everyone look"),
    ("hi @here", "hi @\u2060here"),
    ("<@123456789012345678>", "<@\u2060123456789012345678>"),
    ("<@&123456789012345678>", "<@\u2060&123456789012345678>"),
    ("mail me at a@example.org", "mail me at a@example.org"),
])
def test_mentions_are_defused_in_the_text(raw: str, defused: str) -> None:
    assert defuse_mentions(raw) == defused


def test_untrusted_text_is_sanitised_before_it_is_escaped() -> None:
    # The terminal-retitling OSC sequence and a bidi override are removed; the mention stays defused.
    assert escape_untrusted("\x1b]0;pwned\x07\u202e@everyone") == "\\]0;pwned@\u2060everyone"
