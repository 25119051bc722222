"""A socketed desktop's generous bound is its fastest common XMP/EXPO memory; laptops keep the spec.

And a record's size label above its model's sourced count yields to the count (the reading that
favours the claim). The shapes are LocalScore's CPU rows (accel_name = the CPU, plain decode).
"""

from __future__ import annotations

import pytest

from checks.models import Answer, Claim, Evidence
from checks.physics import num, roofline_ceilings
from checks.physics.ceilings import Ceilings
from checks.physics.weights import family_row
from checks.reference import Reference
from checks.rules.acceptance import acceptance
from checks.rules.roofline import roofline

ZEN3 = "AMD Ryzen 9 5950X 16-Core Processor (znver3)"


def _q7(ref: Reference, claim: Claim) -> Answer:
    ev = Evidence(claim=claim)
    return roofline(ev, ref, {"acceptance": acceptance(ev, ref, {})})


def _cpu(hardware: str, tok_s: float, **kw: object) -> Claim:
    base: dict[str, object] = {"model": "Meta Llama 3.1 8B Instruct", "weight_format": "BF16",
                               "params_total_b": 8.0, "hardware": hardware, "tok_s": tok_s,
                               "tok_s_kind": "decode", "speculative": False}
    base.update(kw)
    return Claim(**base)


@pytest.mark.parametrize(("hardware", "generous", "official"), [
    (ZEN3, 64.0, 51.2),  # AM4: DDR4-4000 kits against the official DDR4-3200
    ("13th Gen Intel(R) Core(TM) i9-13900K", 128.0, 89.6),  # LGA1700: DDR5-8000 against 5600
    ("AMD Ryzen 9 9950X3D 16-Core Processor", 128.0, 89.6),  # AM5
    ("Intel(R) Core(TM) i7-8700K CPU @ 3.70GHz", 64.0, 42.7),  # LGA1151 DDR4
    ("AMD Ryzen 7 8845HS w/ Radeon 780M Graphics", 120.0, 120.0),  # soldered LPDDR5X: spec only
    # server RDIMMs run at spec; the generous bound reads both sockets of a 2P board
    ("AMD EPYC 7352 24-Core Processor (znver2)", 2 * 204.8, 204.8),
])
def test_the_generous_ceiling_reads_the_fastest_common_memory(
        ref: Reference, hardware: str, generous: float, official: float) -> None:
    ceil = roofline_ceilings(_cpu(hardware, 3.0), ref)
    assert isinstance(ceil, Ceilings)
    weights = 8.03 * 16 / 8  # the Llama 3.1 8B row's 8.03B (the label's 8.0B is within 5%)
    assert ceil.bandwidth.value == pytest.approx(generous)
    assert ceil.generous.value == pytest.approx(generous / weights, rel=1e-3)
    # the realistic ceiling stays at the official rate
    assert f"0.9 × {num(official)} GB/s ÷" in ceil.realistic.basis[-1]


def test_an_overclocked_am4_rig_at_53_gb_s_is_consistent(ref: Reference) -> None:
    """LocalScore row 292: Llama 3.1 8B BF16 at 3.3 tok/s on a 5950X reads 53 GB/s, 1.04× the
    official DDR4-3200 51.2 GB/s: honest on DDR4-3600+, 0.83 of the DDR4-4000 bound."""
    a = _q7(ref, _cpu(ZEN3, 3.3))
    assert a.status == "ok"
    assert a.figures["ratio"] == pytest.approx(3.3 / (64.0 / 16.06), abs=0.005)
    assert any("official rate 51.2 GB/s kept for the realistic ceiling" in b for b in a.lines())


def test_the_same_row_x10_is_still_a_stop(ref: Reference) -> None:
    a = _q7(ref, _cpu(ZEN3, 33.0))
    assert a.status == "stop"
    assert a.figures["ratio"] == pytest.approx(33.0 / (64.0 / 16.06), abs=0.01)


@pytest.mark.parametrize(("model", "label_b", "used_b"), [
    ("Llama 3.2 1B Instruct", 1.5, 1.24),  # LocalScore's "1500 M"
    ("Llama 3.2 3B Instruct", 3.6, 3.21),  # "3600 M"
    ("Meta Llama 3.1 8B Instruct", 8.0, 8.03),  # within 5%: the row's exact count, as before
])
def test_a_size_label_above_the_models_count_yields_to_the_count(
        ref: Reference, model: str, label_b: float, used_b: float) -> None:
    ceil = roofline_ceilings(_cpu(ZEN3, 10.0, model=model, params_total_b=label_b), ref)
    assert isinstance(ceil, Ceilings)
    assert ceil.weights_gb.value == pytest.approx(used_b * 2, rel=1e-3)


def test_a_label_below_the_models_count_is_kept(ref: Reference) -> None:
    """The smaller of the two favours the claim whichever side it is on."""
    ceil = roofline_ceilings(_cpu(ZEN3, 10.0, model="Llama 3.2 3B Instruct", params_total_b=2.8), ref)
    assert isinstance(ceil, Ceilings)
    assert ceil.weights_gb.value == pytest.approx(5.6)


@pytest.mark.parametrize(("name", "row", "bandwidth"), [
    # LocalScore's accel_name for CPU runs: lscpu's model name and the -march tag
    ("Intel Core i5-4570 CPU @ 3.20GHz (haswell)",
     "Intel Core 3rd-5th gen and Xeon E3 v2-v4 (Ivy Bridge, Haswell, Broadwell; DDR3)", 25.6),
    ("Intel Xeon CPU E3-1245 V2 @ 3.40GHz (ivybridge)",
     "Intel Core 3rd-5th gen and Xeon E3 v2-v4 (Ivy Bridge, Haswell, Broadwell; DDR3)", 25.6),
    ("Intel Core M-5Y71 CPU @ 1.20GHz (broadwell)",
     "Intel Core 3rd-5th gen and Xeon E3 v2-v4 (Ivy Bridge, Haswell, Broadwell; DDR3)", 25.6),
    ("Intel Core i5-2500 CPU @ 3.30GHz (sandybridge)", "Intel Core 2nd gen (Sandy Bridge)", 25.6),
    ("Intel Xeon CPU           X5660  @ 2.80GHz (westmere)", "Intel Xeon 5600 (Westmere-EP)", 32.0),
    ("Intel Xeon CPU E3-1260L v5 @ 2.90GHz (skylake)", "Intel Xeon E3 v5/v6 (Skylake, Kaby Lake)", 38.4),
    ("Intel Pentium CPU G4600 @ 3.60GHz (skylake)",
     "Intel Pentium / Celeron desktop G4000-G6000 (Skylake to Comet Lake)", 42.7),
    ("Intel Core i5-7Y54 CPU @ 1.20GHz (skylake)", "Intel Core i/m Y-series 6th-7th gen (LPDDR3)", 29.9),
    # the newer families keep their own rows
    ("Intel(R) Core(TM) i7-8700K CPU @ 3.70GHz", "Intel 8th/9th gen desktop (Coffee Lake)", 42.7),
    ("Intel Xeon E5-2697 v2", "Intel Xeon E5 v2 (Ivy Bridge-EP)", 59.7),
])
def test_older_intel_parts_reach_their_platform_rows(ref: Reference, name: str, row: str,
                                                     bandwidth: float) -> None:
    hw = ref.gpu(name)
    assert hw is not None
    assert (hw.name, hw.bandwidth_gbs, hw.source_kind) == (row, bandwidth, "platform")


@pytest.mark.parametrize(("hardware", "count", "model", "tok_s", "status", "bound"), [
    # MLPerf v4.1 Server on 4× H100 NVL (ASUSTeK ESC4000A): the compute bound at any batch,
    # 4 × 1670.5 dense FP8 TFLOPS ÷ (2 × 6.05B GPT-J params)
    ("H100 NVL", 4, "gptj-99", 6070.26, "ok", 4 * 1670.5e12 / (2 * 6.05e9)),
    ("H100 NVL", 4, "gptj-99", 606000.0, "stop", 4 * 1670.5e12 / (2 * 6.05e9)),
    # the GH200 from the results path (a bare 'GH200': the 144 GB HBM3e module); the format is
    # unknown, so the card's best dense peak (FP8 1979 TFLOPS) over Llama 2 70B's params
    ("GH200", 1, "llama2-70b-99.9", 3884.16, "ok", 1979e12 / (2 * 68.98e9)),
])
def test_mlperf_server_aggregates_reach_the_compute_bound(
        ref: Reference, hardware: str, count: int, model: str, tok_s: float, status: str,
        bound: float) -> None:
    claim = Claim(model=model, hardware=hardware, hardware_count=count, serving_claim=True,
                  tok_s=tok_s, tok_s_kind="aggregate", cell="MLPerf Server")
    a = _q7(ref, claim)
    assert a.status == status
    assert a.figures["compute_bound_tok_s"] == pytest.approx(bound, rel=0.01)


def test_gpt_j_and_the_gh200_have_rows(ref: Reference) -> None:
    gptj = ref.model("gptj-99.9")
    assert gptj is not None and (gptj.name, gptj.params_total_b, gptj.moe) == ("GPT-J 6B", 6.05, False)
    assert gptj.kv_bytes_per_token_bf16 == 2 * 28 * 16 * 256 * 2
    big, small = ref.gpu("GH200"), ref.gpu("GH200-96GB")
    assert big is not None and (big.name, big.memory_gb, big.bandwidth_gbs) == ("GH200 144GB", 144, 5000)
    assert small is not None and (small.name, small.memory_gb, small.bandwidth_gbs) == ("GH200 96GB", 96, 4000)


@pytest.mark.parametrize(("name", "family"), [
    # LocalScore model names whose MoE-ness was unknown, each dense by its paper or model card
    ("Qwen2.5.1 Coder 7B Instruct", "Qwen 1.5/2/2.5 dense sizes"),
    ("EuroLLM 9B Instruct", "EuroLLM"),
    ("codegeex4-all-9b", "GLM-4 9B / CodeGeeX4"),
    ("glm-4-9b-chat", "GLM-4 9B / CodeGeeX4"),
    ("GLM-4.5-Air", "GLM-4.5/4.6/4.7"),  # the MoE line keeps its own row
])
def test_named_families_decide_dense_or_moe(ref: Reference, name: str, family: str) -> None:
    row = family_row(name, ref)
    assert row is not None
    assert (row.name, row.moe) == (family, family == "GLM-4.5/4.6/4.7")


# A server part's board holds several sockets, each with its own channels: with the count unstated
# the generous bound takes the most the platform holds; a stated count is the count.
@pytest.mark.parametrize(("hardware", "count", "generous"), [
    ("Intel Xeon CPU E5-2697 v2 @ 2.70GHz (ivybridge)", None, 2 * 59.7),  # an E5-2xxx part: 2 sockets
    ("Intel Xeon CPU E5-4657L v2 @ 2.40GHz (ivybridge)", None, 4 * 59.7),  # an E5-4xxx part: 4
    ("Intel Xeon CPU E5-2697 v2 @ 2.70GHz (ivybridge)", 1, 59.7),
    ("AMD EPYC 7763 64-Core Processor (znver3)", None, 2 * 204.8),  # EPYC: 1P/2P
    ("Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz (cascadelake)", None, 2 * 140.8),
    (ZEN3, None, 64.0),  # a desktop socket stays one socket
    # curated rows (their exact bandwidth) take their platform's sockets too
    ("EPYC 9654", None, 2 * 460.8),
    ("Xeon Platinum 8480+", None, 2 * 307.2),
    ("Xeon Platinum 8480+", 1, 307.2),
    ("Threadripper PRO 7995WX", None, 332.8),  # a workstation socket stays one socket
])
def test_an_unstated_socket_count_reads_the_most_the_platform_takes(
        ref: Reference, hardware: str, count: int | None, generous: float) -> None:
    q7 = _q7(ref, _cpu(hardware, 5.0, hardware_count=count))
    assert q7.figures["bandwidth_gbs"] == pytest.approx(generous, abs=0.05)
    assert q7.figures["ceiling_tok_s"] == pytest.approx(generous / 16.06, rel=0.01)


def test_a_curated_server_row_cites_the_platform_row_its_sockets_come_from(ref: Reference) -> None:
    row = ref.gpu("Xeon Platinum 8480+")
    assert row is not None
    assert (row.name, row.source_kind, row.max_sockets) == ("Intel Xeon 4th Gen (Sapphire Rapids)", "curated", 2)
    assert row.max_sockets_source is not None
    assert row.max_sockets_source.endswith(
        "(platform row Intel Xeon Scalable gen 4 (Sapphire Rapids), matched by 'Intel Xeon Platinum 8480+')")
