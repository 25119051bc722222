"""One escaper for every Markdown surface claimcheck writes: `--markdown` output and Discord.

Text that came from outside (record fields, page titles, URLs) is first cleaned by
`checks.text.sanitise`; then `escape_markdown` backslash-escapes every character CommonMark and
Discord treat as markup and turns `<`, `>` and `&` into entities, so a record's
`<img onerror=…>`, `</details>` or `[link](…)` shows as text. `defuse_mentions` breaks
`@everyone`, `@here` and user/role mentions in the text itself, besides the bot's
`AllowedMentions.none()`: a quoted report pasted elsewhere stays harmless too.
"""

from __future__ import annotations

import re

__all__ = ["defuse_mentions", "escape_markdown", "escape_untrusted"]

# CommonMark's ASCII punctuation that can start or end markup (spec 0.31 §2.4, backslash escapes),
# plus Discord's `||spoiler||` and `-#` subtext, which are covered by `|` and `-`.
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>])")
_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
# A word joiner cannot be typed by accident, and Discord does not resolve a mention through it;
# `checks.text.sanitise` strips it, so defusing runs after sanitising.
_JOINER = "\u2060"
_MENTION = re.compile(r"@(everyone|here|[!&]?\d{15,21}>)")
_ANGLE_MENTION = re.compile(r"<(@[!&]?\d{15,21}>)")


def escape_markdown(text: str) -> str:
    """Backslash-escape Markdown punctuation and entity-encode HTML's `& < >`."""
    text = "".join(_HTML.get(ch, ch) for ch in text)
    return _MARKDOWN.sub(r"\\\1", text)


def defuse_mentions(text: str) -> str:
    """`@everyone` → `@\u2060everyone` (and the same for @here and <@id> mentions)."""
    text = _ANGLE_MENTION.sub(lambda m: "<" + m.group(1)[0] + _JOINER + m.group(1)[1:], text)
    return _MENTION.sub(lambda m: "@" + _JOINER + m.group(1), text)


def escape_untrusted(text: str, *, limit: int = 4000) -> str:
    """Sanitise, escape and defuse one piece of outside text for a Markdown surface."""
    from checks.text import sanitise

    return defuse_mentions(escape_markdown(sanitise(text, limit=limit)))
