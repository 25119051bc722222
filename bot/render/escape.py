"""One escaper for every Markdown surface claimcheck writes: `--markdown` output and Discord.

Text that came from outside (record fields, page titles, URLs) is first cleaned by
`checks.text.sanitise` (or folded onto one line by `checks.text.one_line` where one line is
promised); then `escape_markdown` backslash-escapes every ASCII punctuation character CommonMark
and Discord treat as markup, `<`, `>` and `&` included, so a record's `<img onerror=…>`,
`</details>`, `&lt;` or `[link](…)` shows as text. Backslashes rather than HTML entities: CommonMark
turns `\\<` into `<` and never starts raw HTML there (CommonMark 0.31 §2.4, §6.6), and Discord,
which does not decode entities, shows `&lt;` literally but `\\<` as `<`.

`defuse_mentions` breaks `@everyone`, `@here` and user/role mentions in the text itself, besides
the bot's `AllowedMentions.none()`: a quoted report pasted elsewhere stays harmless too.
`code_span` is for URLs: inside a code span nothing is markup and nothing links.
"""

from __future__ import annotations

import re

__all__ = ["code_span", "defuse_mentions", "escape_markdown", "escape_untrusted"]

# CommonMark's ASCII punctuation that can start or end markup (spec 0.31 §2.4, backslash escapes),
# plus Discord's `||spoiler||` and `-#` subtext, which are covered by `|` and `-`, and the HTML
# characters.
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>&:])")
# A word joiner cannot be typed by accident, and Discord does not resolve a mention through it;
# `checks.text.sanitise` strips it, so defusing runs after sanitising.
_JOINER = "\u2060"
_MENTION = re.compile(r"@(everyone|here|[!&]?\d{15,21}>)")
# Any "<@" (escaped or not, whole or cut short by truncation): a joiner after the "@".
_ANGLE_MENTION = re.compile(r"<(\\?)@(?!\u2060)")


def escape_markdown(text: str) -> str:
    """Backslash-escape Markdown punctuation and HTML's `& < >`."""
    return _MARKDOWN.sub(r"\\\1", text)


def defuse_mentions(text: str) -> str:
    """`@everyone` → `@\u2060everyone` (and the same for @here and <@id> mentions)."""
    text = _ANGLE_MENTION.sub(lambda m: "<" + m.group(1) + "@" + _JOINER, text)
    return _MENTION.sub(lambda m: "@" + _JOINER + m.group(1), text)


def escape_untrusted(text: str, *, limit: int = 4000, single_line: bool = False) -> str:
    """Sanitise, escape and defuse one piece of outside text for a Markdown surface;
    `single_line` folds it onto one line (table cells, list items)."""
    from checks.text import one_line, sanitise

    clean = one_line(text, limit) if single_line else sanitise(text, limit=limit)
    return defuse_mentions(escape_markdown(clean))


def code_span(text: str, *, limit: int = 500) -> str:
    """Outside text (a URL) as an inline code span: one line, no backticks, mentions defused."""
    from checks.text import one_line

    return "`" + defuse_mentions(one_line(text, limit).replace("`", "%60")) + "`"
