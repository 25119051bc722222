"""Rendering: colour only on a terminal and never with NO_COLOR; Markdown keeps untrusted pipes
from breaking its table."""

from __future__ import annotations

import io

import pytest

from bot.cli import main
from bot.render import render_markdown, render_terminal
from bot.render.labels import source_format
from checks.models import Screenshot, Source
from checks.reference import load_reference
from checks.runner import audit
from tests.seed_claims import headline_evidence


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    out = Tty()
    assert main(["audit", "--example", "--brief"], out=out, err=io.StringIO()) == 0
    assert "\x1b[31;1mimplausible" in out.getvalue()


def test_no_color_wins_even_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    out = Tty()
    assert main(["audit", "--example", "--brief"], out=out, err=io.StringIO()) == 0
    assert "\x1b[" not in out.getvalue()


def test_brief_leaves_out_basis_lines_but_keeps_every_answer() -> None:
    report = audit(headline_evidence(), load_reference())
    brief, full = render_terminal(report, details=False), render_terminal(report)
    assert "basis:" not in brief and "basis:" in full
    for n in range(1, 9):
        assert f"\n{n} " in brief


def test_markdown_escapes_pipes_in_untrusted_text() -> None:
    report = audit(headline_evidence(model="evil | model"), load_reference())
    md = render_markdown(report)
    assert "evil \\| model" in md
    assert md.rstrip().endswith("_")  # the caveat closes every report


@pytest.mark.parametrize(("source", "shown"), [
    (Source(url="bench.png", kind="file", format="text",
            screenshot=Screenshot(name="bench.png", lines=9, figures=5, format="text")), "screenshot, OCR"),
    (Source(url="shot.png", kind="file", format="llama_bench",
            screenshot=Screenshot(name="shot.png", lines=4, figures=3, format="llama-bench table")),
     "screenshot, OCR: llama-bench table"),
    (Source(url="bench.json", kind="file", format="llama_bench"), "llama_bench"),
    (Source(url="post.txt", kind="text"), None),
])
def test_a_source_says_how_it_was_read_and_a_picture_says_screenshot(source: Source, shown: str | None) -> None:
    assert source_format(source) == shown
