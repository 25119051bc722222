"""A record's own words (launch command, notes, engine config) read like a pasted post."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.pipeline import audit_inputs
from checks.models import Claim
from checks.reference import Reference, load_reference
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.formats.generic_board import GenericBoard
from extractors.formats.mlperf import MLPerf
from extractors.formats.record_text import config_flags, read_record_text
from extractors.text.launch import parse_launch_command
from tests.seed_claims import LAUNCH, NOTES

PLAIN = "python -m sglang.launch_server --model-path nvidia/Qwen3.6-27B-NVFP4 --quantization modelopt_fp4 --tp 1"


@pytest.fixture(scope="module")
def ref() -> Reference:
    return load_reference()


def board(tmp_path: Path, **record: object) -> str:
    base: dict[str, object] = {"gpu": "NVIDIA GeForce RTX 5090", "model": "Qwen3.6-27B",
                               "quant": "NVFP4", "batch": 1, "tok_s": 2103.6}
    base.update(record)
    path = tmp_path / "board.json"
    path.write_text(json.dumps({"records": [base]}), encoding="utf-8")
    return str(path)


def claims(**record: object) -> list[Claim]:
    doc = RawDocument(json.dumps({"records": [record]}).encode(), source="board.json")
    return GenericBoard().parse(doc)


def test_seed_setup_in_a_records_words_answers_like_the_same_text_pasted(tmp_path: Path, ref: Reference) -> None:
    record = audit_inputs([board(tmp_path, launch_command=LAUNCH, notes=NOTES)], ref)
    post = tmp_path / "post.txt"
    post.write_text("Qwen3.6-27B NVFP4 on NVIDIA GeForce RTX 5090, batch 1: 2103.6 tok/s\n"
                    f"{LAUNCH}\n{NOTES}\n", encoding="utf-8")
    pasted = audit_inputs([str(post)], ref)
    for key in ("acceptance", "roofline"):
        a, b = record.question(key), pasted.question(key)
        assert a.status == b.status and a.figures == pytest.approx(b.figures)
    assert record.question("acceptance").status == "stop"
    assert record.question("acceptance").figures["ratio"] == pytest.approx(1.0)
    assert record.question("roofline").figures["ratio"] == pytest.approx(16.32, abs=0.01)
    assert record.verdict == pasted.verdict == "implausible"


def test_values_read_from_a_records_text_name_the_json_key_and_span() -> None:
    c = claims(gpu="RTX 5090", tok_s=2103.6, launch_command=LAUNCH, notes=NOTES)[0]
    assert (c.spec_window, c.acceptance_length, c.spec_method) == (56, 56.0, "DFlash")
    assert c.provenance["acceptance_length"].field == "records[0].notes"
    assert c.provenance["acceptance_length"].span == "AL=56.0"
    assert c.provenance["spec_window"].field is not None
    assert c.provenance["spec_window"].field.startswith("records[0].launch_command")
    assert c.provenance["spec_window"].span == "--speculative-dflash-block-size 56"


def test_structured_window_wins_and_the_disagreement_is_a_conflict() -> None:
    c = claims(gpu="RTX 5090", tok_s=2103.6, window=16, launch_command=LAUNCH)[0]
    assert c.spec_window == 16 and c.provenance["spec_window"].field == "records[0].window"
    [conflict] = c.conflicts
    assert (conflict.field, conflict.structured, conflict.text) == ("spec_window", "16", "56")
    assert conflict.structured_from == "records[0].window"
    assert "launch_command" in conflict.text_from and "56" in conflict.text_from


def test_agreeing_text_is_no_conflict() -> None:
    c = claims(gpu="RTX 5090", tok_s=2103.6, num_draft_tokens=56, al=56.0,
               launch_command=LAUNCH, notes=NOTES)[0]
    assert c.conflicts == []


def test_full_plain_launch_command_means_plain_decode() -> None:
    c = claims(gpu="RTX 5090", tok_s=79.0, launch_command=PLAIN)[0]
    assert c.speculative is False
    assert c.provenance["speculative"].field is not None
    assert c.provenance["speculative"].field.startswith("records[0].launch_command")
    assert (c.provenance["speculative"].span or "").startswith("no speculative flag in:")


def test_plain_record_is_judged_as_plain_decode(tmp_path: Path, ref: Reference) -> None:
    report = audit_inputs([board(tmp_path, tok_s=79.0, launch_command=PLAIN)], ref)
    assert report.claim.speculative is False
    q7 = report.question("roofline")
    assert q7.status == "ok" and q7.figures["ratio"] == pytest.approx(0.613, abs=0.001)


@pytest.mark.parametrize("notes", ["no speculative decoding", "plain decode"])
def test_notes_saying_plain_decode_mean_plain_decode(notes: str) -> None:
    c = claims(gpu="RTX 5090", tok_s=79.0, notes=notes)[0]
    assert c.speculative is False and c.provenance["speculative"].span == notes


def test_nothing_said_leaves_the_method_unknown() -> None:
    assert claims(gpu="RTX 5090", tok_s=79.0, notes="best of three runs")[0].speculative is None


def test_a_method_in_the_notes_outranks_a_plain_looking_command() -> None:
    c = claims(gpu="RTX 5090", tok_s=300.0, launch_command=PLAIN, notes="EAGLE-3 speculative decoding")[0]
    assert c.speculative is True


def test_a_client_command_alone_is_not_a_complete_launch_command() -> None:
    cmd = "vllm bench serve --model Qwen/Qwen3-8B --max-concurrency 1"
    assert parse_launch_command(cmd).speculative is None


def test_speculative_env_variable_keeps_a_command_from_meaning_plain_decode() -> None:
    assert parse_launch_command("SGLANG_SIMULATE_ACC_LEN=7 " + PLAIN).speculative is None
    assert parse_launch_command(PLAIN).speculative is False


def test_speculative_config_object_uses_vllms_window_convention() -> None:
    c = claims(gpu="H100", tok_s=500.0, engine="vllm",
               speculative_config={"method": "eagle3", "model": "org/drafter",
                                   "num_speculative_tokens": 3})[0]
    assert (c.speculative, c.spec_window, c.drafter_model) == (True, 4, "org/drafter")
    assert c.provenance["spec_window"].field is not None
    assert c.provenance["spec_window"].field.startswith("records[0].speculative_config")


def test_config_object_spelled_as_flags() -> None:
    config = {"kv_cache_dtype": "fp8", "engine_kwargs": {"enable_prefix_caching": False}}
    assert [f[0] for f in config_flags(config)] == ["--kv-cache-dtype", "--no-enable-prefix-caching"]
    b = ClaimBuilder("x")
    read_record_text(b, [("extra_config", config)], engine="vllm")
    assert (b.values["kv_dtype"], b.values["prefix_caching"]) == ("fp8", False)
    assert b.provenance["kv_dtype"].field == "extra_config (--kv-cache-dtype)"


def test_a_servers_maximum_length_is_not_the_runs_context() -> None:
    b = ClaimBuilder("x")
    read_record_text(b, [("launch_command", PLAIN + " --context-length 8192")])
    assert not b.has("context_length") and b.values["speculative"] is False


def test_mlperf_system_notes_say_speculative() -> None:
    path = Path(__file__).parents[1] / "fixtures" / "mlperf" / "system_dgx_spark_gb10.json"
    [c] = MLPerf().parse(RawDocument(path.read_bytes(), source=path.name))
    assert (c.speculative, c.spec_method) == (True, "MTP")
    assert c.provenance["spec_method"].field == "sw_notes"


def test_a_records_texts_are_read_with_the_callers_reference(tmp_path: Path) -> None:
    """A format adapter's parse is given no reference: read_document hands it the caller's, so a
    card only a user's override file knows is found in a record's notes (and the packaged tables
    are not loaded a second time on the side)."""
    from extractors.evidence import read_document

    row = {"name": "Test Card 9000", "kind": "consumer", "memory_gb": 24, "bandwidth_gbs": 1000,
           "tdp_w": 300, "source": "test fixture", "checked": "2026-12-02"}
    override = tmp_path / "ref.json"
    override.write_text(json.dumps({"hardware": [row]}), encoding="utf-8")
    record = {"model": "Qwen3.6-27B", "quant": "NVFP4", "batch": 1, "tok_s": 42.0,
              "notes": "measured on one Test Card 9000"}
    doc = RawDocument(json.dumps({"records": [record]}).encode(), source="board.json")
    with_override = read_document(doc, load_reference(override))
    packaged = read_document(doc, load_reference())
    assert [c.hardware for c in with_override.records] == ["Test Card 9000"]
    assert [c.hardware for c in packaged.records] == [None]
