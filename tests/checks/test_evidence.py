"""Q1 evidence: is there evidence in the original post?"""

from __future__ import annotations

from checks.models import Claim, Evidence, PostInfo, Source
from checks.reference import Reference
from checks.rules.evidence import evidence
from tests.seed_claims import headline_claim, headline_evidence

POST_TEXT = "27B dense, batch 1, 2048 tokens in 0.969 s — 2103.6 tok/s"


def _bare_claim() -> Claim:
    return Claim(model="Qwen3.6-27B", hardware="RTX 5090", batch=1, tok_s=2103.6)


def test_post_linking_the_record_is_ok(ref: Reference) -> None:
    a = evidence(headline_evidence(), ref, {})
    assert a.status == "ok"
    assert "https://board.example/records/r-56" in a.summary
    assert a.figures["evidence_links"] == 1


def test_post_linking_a_followed_record_names_it_as_the_record(ref: Reference) -> None:
    url = "https://board.example/records/r-56"
    ev = headline_evidence()
    ev.sources = [Source(url=url, kind="record")]
    a = evidence(ev, ref, {})
    assert a.status == "ok"
    assert "the record" in a.summary


def test_number_and_a_picture_is_flagged(ref: Reference) -> None:
    ev = Evidence(claim=_bare_claim(), kind="post", post=PostInfo(text=POST_TEXT, image_count=1))
    a = evidence(ev, ref, {})
    assert a.status == "flag"
    assert "no evidence in the post" in a.summary
    assert "1 picture" in a.summary
    assert a.figures["images"] == 1


def test_post_quoting_the_launch_command_is_ok(ref: Reference) -> None:
    ev = Evidence(
        claim=_bare_claim(),
        kind="post",
        post=PostInfo(text=POST_TEXT, image_count=1, quotes_launch_command=True),
    )
    assert evidence(ev, ref, {}).status == "ok"


def test_post_whose_links_lead_to_no_record_is_flagged(ref: Reference) -> None:
    ev = Evidence(
        claim=_bare_claim(),
        kind="post",
        post=PostInfo(text=POST_TEXT, links=["https://example.com/gpu.jpg"]),
    )
    a = evidence(ev, ref, {})
    assert a.status == "flag"
    assert "lead to no record" in a.summary


def test_record_input_without_a_post_is_its_own_evidence(ref: Reference) -> None:
    ev = Evidence(claim=headline_claim(), kind="record")
    a = evidence(ev, ref, {})
    assert a.status == "ok"
    assert "the record is the evidence" in a.summary


def test_tool_output_input_is_its_own_evidence(ref: Reference) -> None:
    ev = Evidence(
        claim=_bare_claim(),
        kind="tool-output",
        sources=[Source(url="bench.json", kind="tool-output")],
    )
    a = evidence(ev, ref, {})
    assert a.status == "ok"
    assert "tool-output" in a.summary


def test_record_found_separately_still_flags_an_empty_post(ref: Reference) -> None:
    ev = Evidence(
        claim=headline_claim(),
        kind="record",
        post=PostInfo(text=POST_TEXT, image_count=2),
        sources=[Source(url="https://board.example/api/records", kind="record")],
    )
    a = evidence(ev, ref, {})
    assert a.status == "flag"
    assert "2 pictures" in a.summary
    assert "found separately" in a.summary


def test_pasted_claim_with_a_launch_command_is_ok(ref: Reference) -> None:
    ev = Evidence(claim=headline_claim(), kind="post")
    a = evidence(ev, ref, {})
    assert a.status == "ok"
    assert "launch command" in a.summary


def test_pasted_bare_number_is_flagged(ref: Reference) -> None:
    ev = Evidence(claim=_bare_claim(), kind="post")
    a = evidence(ev, ref, {})
    assert a.status == "flag"
    assert "no evidence in the post" in a.summary
