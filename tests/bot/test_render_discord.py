"""The report as a Discord embed: limits, escaping, links, and the thread's name."""

from __future__ import annotations

import io

import pytest

from bot.cli import main
from bot.render.discord import EMBED_TOTAL, MARK, cut, report_embed, safe_url, thread_name
from checks.models import Report


@pytest.fixture(scope="module")
def headline() -> Report:
    out = io.StringIO()
    assert main(["audit", "--json", "--example"], out=out) == 0
    return Report.model_validate_json(out.getvalue())


def test_the_headline_embed_is_red_with_eight_numbered_questions_and_the_caveat(headline: Report) -> None:
    embed = report_embed(headline)
    assert embed.colour is not None and embed.colour.value == 0xD7263D
    names = [f.name for f in embed.fields]
    assert names[:8] == ["✅ 1 Evidence in the post", "✅ 2 The real config", "✅ 3 Which cell",
                         "⚠️ 4 Private fork", "🛑 5 AL / window", "⚠️ 6 Power", "⚠️ 7 Roofline",
                         "🧪 8 Go measure"]
    assert names[8:] == ["Also", "Sources"]
    also = embed.fields[8].value or ""
    assert [ln.split("**")[1] for ln in also.splitlines()] == [
        "Full ratio", "Prefill excluded", "Window curve", "Drafter regime"]
    assert embed.footer.text == headline.caveat


def test_an_unanswerable_question_says_what_is_missing(headline: Report) -> None:
    q = headline.question("roofline").model_copy(update={
        "status": "unanswerable", "summary": "No ceiling: the hardware is unknown",
        "missing": ["hardware", "weight format"]})
    report = headline.model_copy(update={"questions": [
        q if x.key == "roofline" else x for x in headline.questions]})
    field = next(f for f in report_embed(report).fields if f.name == "❔ 7 Roofline")
    assert field.value == "No ceiling\\: the hardware is unknown\nmissing: hardware, weight format"


def test_a_hostile_report_fits_every_embed_limit_and_pings_nobody(headline: Report) -> None:
    evil = "@everyone **bold** [x](https://evil.example) \u202egnp.exe <@123456789012345678> " * 80
    questions = [q.model_copy(update={"summary": evil}) for q in headline.questions]
    findings = [f.model_copy(update={"summary": evil, "status": "flag"}) for f in headline.findings]
    sources = [s.model_copy(update={"url": f"https://evil.example/{i}>@everyone " + "a" * 300})
               for i, s in enumerate(headline.sources * 10)]
    report = headline.model_copy(update={"headline": evil, "questions": questions,
                                         "findings": findings, "sources": sources})
    embed = report_embed(report)
    assert len(embed) <= EMBED_TOTAL
    assert len(embed.title or "") <= 256 and (embed.title or "").endswith(MARK)
    assert all(len(f.value or "") <= 1024 for f in embed.fields) and len(embed.fields) <= 25
    text = str(embed.to_dict())
    assert "@everyone" not in text and "<@1234" not in text and "\u202e" not in text
    assert "[x](" not in text and "**bold**" not in text


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://board.example/r/56", "<https://board.example/r/56>"),
        ("https://e.example/a>b c", "<https://e.example/a%3Ebc>"),
        ("javascript:alert(1)", "javascript\\:alert\\(1\\)"),
    ],
)
def test_links_are_wrapped_so_they_do_not_unfurl(url: str, shown: str) -> None:
    assert safe_url(url) == shown


def test_cut_marks_what_it_cut_and_never_leaves_a_lone_backslash() -> None:
    assert cut("short", 10) == "short"
    assert cut("a" * 50, 20) == "a" * (20 - len(MARK)) + MARK
    assert cut("a" * (20 - len(MARK) - 1) + "\\." * 10, 20).endswith("a" + MARK)


def test_the_thread_is_named_from_the_claim_within_100_characters(headline: Report) -> None:
    # The board spells the card "NVIDIA GeForce RTX 5090"; the thread uses the table's row name.
    assert headline.claim.hardware == "NVIDIA GeForce RTX 5090"
    assert thread_name(headline) == "2103.6 tok/s · RTX 5090 · Qwen3.6-27B"
    unmatched = headline.model_copy(update={"hardware_name": None})
    assert thread_name(unmatched) == "2103.6 tok/s · NVIDIA GeForce RTX 5090 · Qwen3.6-27B"
    long = headline.model_copy(update={"hardware_name": "H" * 300,
                                       "claim": headline.claim.model_copy(update={"model": "M" * 300})})
    assert len(thread_name(long)) == 100 and thread_name(long).endswith("…")
    empty = headline.claim.model_copy(update={"tok_s": None, "hardware": None, "model": None})
    assert thread_name(headline.model_copy(update={"claim": empty, "hardware_name": None})) == "claim audit"
