"""Q2 config: which page has the real config?"""

from __future__ import annotations

from checks.models import Claim, Evidence, Source
from checks.reference import Reference
from checks.rules.config import config
from tests.seed_claims import LAUNCH, headline_claim, headline_evidence

RECORD_URL = "https://board.example/api/records/r-56"


def test_seed_record_with_launch_command_and_notes_is_ok(ref: Reference) -> None:
    a = config(headline_evidence(), ref, {})
    assert a.status == "ok"
    assert a.summary.startswith("launch command + runtime notes")
    assert a.missing == []


def test_config_names_the_record_url(ref: Reference) -> None:
    ev = headline_evidence()
    ev.sources = [Source(url=RECORD_URL, kind="record", format="board JSON API")]
    a = config(ev, ref, {})
    assert a.status == "ok"
    assert RECORD_URL in a.summary
    assert "board JSON API" in a.summary
    assert any(RECORD_URL in b for b in a.lines())


def test_launch_command_without_notes_is_ok_and_says_notes_are_missing(ref: Reference) -> None:
    ev = Evidence(claim=headline_claim(notes=None), kind="record")
    a = config(ev, ref, {})
    assert a.status == "ok"
    assert "no runtime notes" in a.summary
    assert a.missing == ["runtime notes"]


def test_followed_record_without_config_is_unanswerable_listing_the_search(ref: Reference) -> None:
    claim = Claim(hardware="RTX 5090", tok_s=2103.6)
    ev = Evidence(
        claim=claim,
        kind="post",
        sources=[Source(url=RECORD_URL, kind="record")],
        not_found=["launch_command in record r-56", "notes field"],
    )
    a = config(ev, ref, {})
    assert a.status == "unanswerable"
    assert "launch_command in record r-56" in a.summary
    assert "notes field" in a.missing


def test_pasted_claim_without_any_config_is_unanswerable(ref: Reference) -> None:
    ev = Evidence(claim=Claim(hardware="RTX 5090", tok_s=2103.6), kind="post")
    a = config(ev, ref, {})
    assert a.status == "unanswerable"
    assert "no launch command, engine flags or record found" in a.summary
    assert {"launch command", "engine version"} <= set(a.missing)


def test_pasted_claim_with_a_launch_command_is_ok(ref: Reference) -> None:
    ev = Evidence(claim=Claim(tok_s=2103.6, launch_command=LAUNCH), kind="post")
    assert config(ev, ref, {}).status == "ok"


def test_tool_output_that_records_its_settings_is_ok(ref: Reference) -> None:
    claim = Claim(
        tok_s=79.0, engine_version="b9251-e2b129e1b", weight_format="Q4_K_M", kv_dtype="f16"
    )
    ev = Evidence(
        claim=claim, kind="tool-output", sources=[Source(url="bench.json", kind="tool-output")]
    )
    a = config(ev, ref, {})
    assert a.status == "ok"
    assert "no launch command" in a.summary


def test_tool_output_with_a_single_setting_is_not_a_config(ref: Reference) -> None:
    claim = Claim(tok_s=79.0, weight_format="Q4_K_M")
    ev = Evidence(
        claim=claim, kind="tool-output", sources=[Source(url="bench.json", kind="tool-output")]
    )
    assert config(ev, ref, {}).status == "unanswerable"
