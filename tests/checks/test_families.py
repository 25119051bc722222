"""Known families are dense, MoE is named (checks/physics/weights.py `architecture`, the family
table in checks/data/models.json), and an unknown name gets the most generous MoE reading."""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.models import Basis, Claim, Evidence, Provenance
from checks.physics.compute import moe_share
from checks.physics.figures import Derived
from checks.physics.weights import (
    architecture,
    family_row,
    model_is_moe,
    params_per_token,
    sparsest_moe_near,
)
from checks.reference import Reference, load_reference
from checks.rules.roofline import roofline


def _claim(model: str | None, **kw: object) -> Claim:
    base: dict[str, object] = {"model": model, "hardware": "RTX 3090", "hardware_count": 1,
                               "batch": 1, "tok_s_kind": "decode"}
    base.update(kw)
    return Claim(**base)


@pytest.mark.parametrize(("name", "family"), [
    ("Llama 33B", "Llama 1/2/3.x"),
    ("TinyLlama 1.1B", "Llama 1/2/3.x"),
    ("Shisa V2 70B (Llama 3 70B)", "Llama 1/2/3.x"),
    ("llama3.1:70b", "Llama 1/2/3.x"),
    ("Hermes 3 Llama 3.1 8B", "Llama 1/2/3.x"),
    ("CodeLlama 34B", "Llama 1/2/3.x"),
    ("Llama 2 13B", "Llama 1/2/3.x"),
    ("Vicuna 13B v1.5", "Vicuna"),
    ("Mistral 7B Instruct v0.2", "Mistral dense"),
    ("Mistral Small 24B", "Mistral dense"),
    ("Mistral Nemo 12B", "Mistral dense"),
    ("qwen2.5:7b-instruct-q4_K_M", "Qwen 1.5/2/2.5 dense sizes"),
    ("Qwen2.5-Coder-32B-Instruct", "Qwen 1.5/2/2.5 dense sizes"),
    ("Qwen3-8B", "Qwen3 dense sizes"),
    ("Qwen3 0.6B", "Qwen3 dense sizes"),
    ("DeepSeek-R1-Distill-Qwen-32B", "DeepSeek-R1 distills"),
    ("DeepSeek-R1-0528-Qwen3-8B", "DeepSeek-R1 distills"),
    ("DeepSeek-R1-8B", "DeepSeek-R1 distills"),
    ("deepseek-r1:32b", "DeepSeek-R1 distills"),
    ("deepseek-coder-33b-instruct", "DeepSeek LLM / Coder v1"),
    ("gemma-2-9b-it", "Gemma 1/2/3"),
    ("gemma 7b", "Gemma 1/2/3"),
    ("Phi-3-mini-4k-instruct 3.8B", "Phi-2/3/4"),
    ("phi-4 14B", "Phi-2/3/4"),
    ("Yi-34B-Chat", "Yi"),
    ("falcon-40b", "Falcon"),
    ("c4ai-command-r-v01 35B", "Command R / A"),
    ("starcoder2-15b", "StarCoder"),
    ("Midnight Miqu 70B v1.5", "Miqu (Mistral's Llama 2 70B retrain)"),
    ("miqu-1-70b", "Miqu (Mistral's Llama 2 70B retrain)"),
    ("bitnet 3B", "BitNet b1.58 / TriLM (ternary dense)"),
    ("IQ2_BN - 2.06 bpw TriLM 99M", "BitNet b1.58 / TriLM (ternary dense)"),
])
def test_a_known_family_named_with_its_size_is_dense(ref: Reference, name: str, family: str) -> None:
    arch = architecture(_claim(name), None, ref)
    assert (arch.moe, arch.how) == (False, "family")
    assert arch.family is not None and arch.family.name == family
    assert arch.family.source.startswith(("http", "LLaMA", "Mistral 7B", "Qwen", "Gemma", "Yi:", "DeepSeek LLM"))
    assert f"'{name}' is a {family} name" in arch.basis


@pytest.mark.parametrize(("name", "how", "family"), [
    ("Mixtral 8x7B", "name shape", None),
    ("Qwen3-30B-A3B", "name shape", None),
    ("Qwen1.5-MoE-A2.7B", "family", "MoE in the name"),
    ("Phi-3.5-MoE-instruct", "family", "MoE in the name"),
    ("OLMoE-1B-7B-0924", "family", "MoE in the name"),
    ("Mixtral Instruct", "family", "Mixtral"),
    ("DeepSeek-V3-0324", "family", "DeepSeek V2/V3/R1"),
    ("DeepSeek R1 671B", "family", "DeepSeek V2/V3/R1"),
    ("DeepSeek-Coder-V2-Lite-Instruct", "family", "DeepSeek V2/V3/R1"),
    ("dbrx-instruct", "family", "DBRX"),
    ("grok-1", "family", "Grok"),
    ("gpt-oss 120b", "family", "gpt-oss"),
    ("Llama 4 Scout", "family", "Llama 4"),
    ("llama4 maverick", "family", "Llama 4"),
    ("GLM-4.6", "family", "GLM-4.5/4.6/4.7"),
    ("Kimi K2 Thinking", "family", "Kimi"),
    ("MiniMax M1", "family", "MiniMax"),
    ("Jamba 1.5 Mini", "family", "Jamba"),
    ("granite-3.0-3b-a800m-instruct", "family", "Granite MoE"),
    ("Qwen3 30B", "family", "Qwen3 MoE sizes"),
    ("Qwen3-Next-80B", "family", "Qwen3-Next"),
    ("Qwen2 57B", "family", "Qwen2 MoE size"),
])
def test_moe_comes_from_the_name_shape_or_a_known_moe_family(
        ref: Reference, name: str, how: str, family: str | None) -> None:
    arch = architecture(_claim(name), None, ref)
    assert (arch.moe, arch.how) == (True, how)
    assert (arch.family.name if arch.family else None) == family


@pytest.mark.parametrize("name", [
    "Foo 70B", "Gemma 4 31B", "gemma-3n-E4B-it 7.85B", "Mistral Medium 3", "Mistral Large 3", "Qwen3 20B", "Qwen2.5 9B",
    "Granite 4.0 H Small", "llama.cpp", None,
])
def test_an_unknown_name_stays_unknown(ref: Reference, name: str | None) -> None:
    assert architecture(_claim(name), None, ref) == architecture(_claim(name), None, None)
    assert model_is_moe(_claim(name), None, ref) is None


def test_the_record_and_the_row_outrank_the_family(ref: Reference) -> None:
    stated = _claim("Llama 33B", is_moe=True, provenance={"is_moe": Provenance(source="record", field="arch")})
    assert architecture(stated, None, ref).how == "stated"
    assert model_is_moe(stated, None, ref) is True
    row = ref.model("Qwen3 30B-A3B")
    assert architecture(_claim("Qwen3 30B-A3B"), row, ref).how == "row"
    active = _claim("Llama 3 70B", params_total_b=70.0, params_active_b=7.0)
    assert (architecture(active, None, ref).moe, architecture(active, None, ref).how) == (True, "active count")


def test_a_size_outside_a_rows_sizes_is_not_covered(ref: Reference) -> None:
    row = family_row("Qwen3 14B", ref)
    assert row is not None and row.name == "Qwen3 dense sizes"
    assert family_row("Qwen3-14.2B", ref) is row  # within 5% of 14
    assert family_row("Qwen3 20B", ref) is None
    assert family_row("Qwen3", ref) is None  # no size, and the Qwen rows need one


def test_dense_by_family_names_its_row_in_the_params_basis(ref: Reference) -> None:
    params = params_per_token(_claim("Llama 33B", weight_format="Q4_K_M"), None, ref)
    assert isinstance(params, Derived)
    assert params.value == 33.0
    assert "not stated whether the model is MoE: read as dense (all weights)" not in params.notes
    assert any("is a Llama 1/2/3.x name" in b and "arXiv:2407.21783" in b for b in params.basis)


@pytest.mark.parametrize("name", ["Llama 33B", "TinyLlama 1.1B", "Shisa V2 70B (Llama 3 70B)", "llama3.1:70b"])
def test_a_real_row_times_ten_is_judged_not_excused_as_a_possible_moe(ref: Reference, name: str) -> None:
    # A llama.cpp Q4_K_M run on one RTX 3090 (936 GB/s) at ten times its generous ceiling.
    base = _claim(name, weight_format="Q4_K_M", speculative=False, tok_s=1.0)
    params = params_per_token(base, ref.model(name), ref)
    assert isinstance(params, Derived)
    ceiling = 936 / (params.value * 4 / 8)
    claim = base.model_copy(update={"tok_s": round(10 * ceiling, 1),
                                    "hardware_count": 2 if "70" in name else 1})
    answer = roofline(Evidence(claim=claim), ref, {})
    assert answer.status == "stop"
    assert not any("MoE" in m for m in answer.missing)


def test_an_unknown_name_gets_the_sparsest_published_moe_of_its_total(ref: Reference) -> None:
    claim = _claim("Foo 70B", params_total_b=70.0, size_inferred=True)
    share = moe_share(claim, None, ref)
    assert share is not None
    # Among the table's MoEs of 35-140B total, gpt-oss-120b reads the smallest share (5.71 of 116.83).
    assert share[0] == pytest.approx(5.71 / 116.83)
    assert (share[1].source, share[1].states) == (
        "models/gpt-oss-120b", "5.71B of 116.8B active = 0.049, the sparsest MoE of 35-140B total in the reference")


def test_a_small_unknown_model_is_read_as_the_small_moes_are(ref: Reference) -> None:
    # No MoE row within 3.5-14B of a 7B: the band doubles to 1.75-28B, where DeepSeek-V2-Lite (2.4
    # of 15.7B active) reads a smaller share than gpt-oss-20b (4.19 of 20.91B), not Kimi K2's 3% of
    # a trillion.
    share = moe_share(_claim("Foo 7B", params_total_b=7.0), None, ref)
    assert share is not None
    assert share[0] == pytest.approx(2.4 / 15.7)
    assert (share[1].source, share[1].states) == (
        "models/DeepSeek V2 Lite", "2.40B of 15.7B active = 0.153, the sparsest MoE of 1.75-28B total in the reference")


@pytest.mark.parametrize("name", ["Llama 33B", "Mixtral 8x7B", "DeepSeek V3"])
def test_no_generous_moe_reading_once_the_architecture_is_known(ref: Reference, name: str) -> None:
    # Far above any ceiling, a model known dense or MoE is judged at its own reading.
    claim = _claim(name, weight_format="Q4_K_M", speculative=False, tok_s=1e6, hardware_count=8)
    answer = roofline(Evidence(claim=claim), ref, {})
    assert model_is_moe(claim, ref.model(name), ref) is not None
    assert answer.status == "stop" and "moe_reading" not in answer.figures


def test_a_users_family_rows_decide_before_the_packaged_ones(tmp_path: Path) -> None:
    path = tmp_path / "extra.json"
    path.write_text('{"families": [{"name": "Foo", "pattern": "\\\\bfoo\\\\b", "moe": false, '
                    '"source": "https://example.org/foo", "checked": "2026-12-01"}]}', encoding="utf-8")
    ref = load_reference(path)
    assert ref.families[0].name == "Foo"
    assert architecture(_claim("Foo 70B"), None, ref).moe is False


# 3350 GB/s over the bytes the sparsest 35-140B MoE (gpt-oss-120b, 5.71 of 116.83B active) reads
# per token: its share of the params × 4 bits, or of the record's own file.
_SHARE_70B = 5.71 / 116.83


@pytest.mark.parametrize(("size_bytes", "gb"), [(None, 70 * _SHARE_70B * 4 / 8), (42.5e9, 42.5 * _SHARE_70B)])
def test_the_generous_moe_reading_in_weight_bytes(ref: Reference, size_bytes: float | None, gb: float) -> None:
    claim = _claim("Foo 70B", params_total_b=70.0, weight_format="Q4_K_M", hardware="H100 SXM",
                   model_size_bytes=size_bytes, speculative=False, tok_s=5000.0)
    answer = roofline(Evidence(claim=claim), ref, {})
    assert answer.figures["moe_reading"] is True
    assert answer.figures["ceiling_tok_s"] == pytest.approx(3350 / gb, rel=1e-6)


@pytest.mark.parametrize(("name", "total", "row", "active"), [
    ("Qwen3 30.53B", 30.53, "Qwen3 30B-A3B", 3.35),  # a llama-bench "qwen3moe" row's own size
    ("Qwen3 235B", 235.09, "Qwen3 235B-A22B", 22.2),
    ("Mixtral 47B", 47.0, "Mixtral 8x7B", 12.88),
])
def test_a_moe_family_named_with_its_total_reads_that_moes_active_params(
        ref: Reference, name: str, total: float, row: str, active: float) -> None:
    claim = _claim(name, params_total_b=total, size_inferred=True)
    params = params_per_token(claim, ref.model(name), ref)
    assert isinstance(params, Derived)
    assert params.value == pytest.approx(active)
    assert isinstance(params.basis[0], Basis) and params.basis[0].source == f"models/{row}"


def test_a_moe_with_no_published_twin_is_read_at_the_sparsest_moe_of_its_total(ref: Reference) -> None:
    # "Mixtral 300B" is no published Mixtral: its active params are unknown, and the most
    # generous plausible reading (among the MoEs of 150-600B total, Llama 4 Maverick's 17.2 of
    # 400.7B) bounds it instead of leaving the roofline unanswered.
    claim = _claim("Mixtral 300B", params_total_b=300.0, size_inferred=True)
    params = params_per_token(claim, None, ref)
    near = sparsest_moe_near(300.0, ref)
    assert isinstance(params, Derived) and near is not None
    assert near.row.name == "Llama 4 Maverick 17B-128E"
    assert params.value == pytest.approx(300.0 * 17.2 / 400.7)
    assert any(n.startswith("active params not stated: read as the sparsest published MoE") for n in params.notes)


def test_a_moe_above_even_its_sparsest_reading_is_judged(ref: Reference) -> None:
    # 8x H100 SXM (8 × 3350 GB/s) over "Mixtral 300B" at 4 bits, read as the sparsest MoE of
    # its size: a million tok/s at batch 1 is above the ceiling under every reading.
    claim = _claim("Mixtral 300B", params_total_b=300.0, size_inferred=True, hardware="H100 SXM",
                   hardware_count=8, weight_format="Q4_K_M", speculative=False, tok_s=1e6)
    answer = roofline(Evidence(claim=claim), ref, {})
    assert answer.status == "stop"
    assert not answer.missing


@pytest.mark.parametrize(("name", "row", "active"), [
    ("WizardLM 2 8x22B", "Mixtral 8x22B", 39.2),  # Microsoft's fine-tune of Mixtral 8x22B
    ("Nous Hermes 2 Mixtral 8x7B DPO", "Mixtral 8x7B", 12.88),
])
def test_a_fine_tune_named_by_its_bases_shape_reads_the_bases_active_params(
        ref: Reference, name: str, row: str, active: float) -> None:
    # Before, "WizardLM-2 8x22B" was read at the sparsest MoE of about 176B (7.5B active),
    # a ceiling five times too generous to catch anything.
    claim = _claim(name, params_total_b=176.0 if "22B" in name else 56.0, size_inferred=True)
    params = params_per_token(claim, ref.model(name), ref)
    assert isinstance(params, Derived)
    assert params.value == pytest.approx(active)
    assert isinstance(params.basis[0], Basis) and params.basis[0].source == f"models/{row}"
