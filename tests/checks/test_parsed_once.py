"""Launch commands, env and notes are parsed once (checks.parsing) and the checks read the parsed
form: no rule module tokenizes or pattern-matches those raw fields itself."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from checks.models import Claim, Evidence
from checks.parsing import parse_config, parsed, with_parsed
from checks.reference import load_reference
from checks.runner import audit

RULES = Path(__file__).resolve().parents[2] / "checks" / "rules"
TOKENIZERS = {"re", "re2", "shlex", "regex"}
# Rule modules that still import a pattern library, with what they match. Each entry is to move
# into checks.parsing; the test fails when an entry no longer imports one (drop it then).
STILL_MATCHING = {
    "token_accounting": "a 'total' label in the post's text or the tok/s field's name",
    "power": "'total' words in the power method (a structured field)",
    "fork": "version strings of structured fields (engine_version, the image tag)",
    "measure": "vendor words in the hardware name (a structured field), for the power logger",
}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.stem)
def test_rule_module_parses_no_raw_text(path: Path) -> None:
    used = _imports(path) & TOKENIZERS
    assert "shlex" not in used, f"{path.name} splits a command itself: read parsed(ev).words"
    if path.stem in STILL_MATCHING:
        assert used, f"{path.name} no longer imports a pattern library: drop it from STILL_MATCHING"
    else:
        assert not used, f"{path.name} imports {sorted(used)}: parse in checks.parsing instead"


def test_parsed_is_memoised_frozen_and_keeps_its_texts() -> None:
    c = Claim(launch_command="vllm serve m --speculative-config '{\"num_speculative_tokens\": 3}'",
              notes="vllm==0.6.3; accepted 767/767 draft tokens; ISL/OSL 128/128", env={"A": "1"})
    p = parse_config(c)
    assert parse_config(c.model_copy()) is p  # the same content is parsed once
    assert p.words == ("vllm", "serve", "m", "--speculative-config", '{"num_speculative_tokens": 3}')
    assert p.notes_version == "0.6.3"
    assert p.launch_version is None
    assert p.accept_ratios == ((767, 767, "767/767"),)
    with pytest.raises(Exception):  # noqa: B017, PT011 - pydantic's frozen-instance error
        p.words = ()  # type: ignore[misc]


@pytest.mark.parametrize(("cmd", "words"), [
    (None, None),
    ("", None),
    ("python -m sglang.launch_server --model-path 'a b'", ("python", "-m", "sglang.launch_server",
                                                           "--model-path", "a b")),
    ("vllm serve 'unbalanced", None),  # a half-pasted command: no words, no crash
])
def test_words(cmd: str | None, words: tuple[str, ...] | None) -> None:
    assert parse_config(Claim(launch_command=cmd)).words == words


def test_evidence_without_parsed_is_parsed_and_a_stale_one_reparsed() -> None:
    ev = Evidence(claim=Claim(launch_command="llama-server -m x.gguf", notes="build: 4567 (a1b2c3d)"))
    assert ev.parsed is None
    assert parsed(ev).notes_version == "b4567-a1b2c3d"
    filled = with_parsed(ev)
    assert filled.parsed is not None and with_parsed(filled) is filled
    changed = filled.model_copy(update={"claim": filled.claim.model_copy(update={"notes": None})})
    assert parsed(changed).notes_version is None  # the claim changed: parsed again, not read stale


def test_audit_of_hand_built_evidence_equals_audit_of_parsed_evidence() -> None:
    ref = load_reference()
    claim = Claim(model="Llama 3.1 8B", hardware="H100 SXM", weight_format="bf16", tok_s=150.0,
                  batch=1, engine="vLLM", launch_command="vllm serve meta-llama/Llama-3.1-8B",
                  notes="vllm==0.6.3+fork.a1b2c3d; accepted 400/400 draft tokens")
    bare = audit(Evidence(claim=claim), ref)
    pre = audit(with_parsed(Evidence(claim=claim)), ref)
    assert bare.model_dump_json() == pre.model_dump_json()
    assert bare.question("fork").status == "flag"
    assert bare.finding("full_ratio").status == "flag"


@pytest.mark.parametrize(("notes", "switch", "off"), [
    ("ran with sglang_simulate_acc_len=3", "SGLANG_SIMULATE_ACC_LEN", None),  # any case
    ("--spec_decode_acceptance_length 4", "--spec-decode-acceptance-length", None),
    ("no SGLANG_SIMULATE_ACC_LEN here", "SGLANG_SIMULATE_ACC_LEN", "negated in the notes"),
])
def test_keyword_gate_lets_every_spelling_the_switch_pattern_reads_through(
        notes: str, switch: str, off: str | None) -> None:
    hits = parse_config(Claim(notes=notes)).forced
    assert [(h.switch, h.where, h.off) for h in hits] == [(switch, "notes", off)]


@pytest.mark.parametrize(("notes", "phrases"), [
    ("prefix caching hit rate of 100%", ("prefix caching hit rate of 100%",)),  # gated on "cach"
    ("TTFT excluded from the rate", ("TTFT excluded",)),
    ("prefill was not excluded", ()),
])
def test_prefill_phrases(notes: str, phrases: tuple[str, ...]) -> None:
    assert parse_config(Claim(notes=notes)).prefill_phrases == phrases
