"""The seed's worked examples (the method's worked figures) as Claims, shared by the check tests.

Figures are the seed's: 27B dense (27.8e9 params), NVFP4, one RTX 5090, batch 1, 2048 tokens in
0.969 s, 2103.6 tok/s, DFlash window 56, AL 56.0, 99-100 W, TTFT empty, prefill from cache.
"""

from __future__ import annotations

from checks.models import Claim, Evidence, PostInfo, Provenance

LAUNCH = (
    "python -m sglang.launch_server --model-path nvidia/Qwen3.6-27B-NVFP4 --quantization modelopt_fp4 "
    "--speculative-algorithm DFLASH --speculative-draft-model-path z-lab/Qwen3.6-27B-DFlash "
    "--speculative-num-draft-tokens 56 --speculative-dflash-block-size 56 --tp 1"
)
NOTES = "width 56 speculative window with N-gram primary fill (100% acceptance, AL=56.0); prefill from cache"


def _prov(**fields: str) -> dict[str, Provenance]:
    return {k: Provenance(source="board://seed", field=v) for k, v in fields.items()}


def headline_claim(**overrides: object) -> Claim:
    base: dict[str, object] = dict(
        model="Qwen3.6-27B", params_total_b=27.8, is_moe=False, weight_format="NVFP4",
        hardware="RTX 5090", hardware_count=1, engine="sglang", engine_version="0.5.4+dflash.a91f3e",
        batch=1, concurrency=1, tokens_generated=2048, wall_seconds=0.969, tok_s=2103.6,
        tok_s_kind="decode", ttft_empty=True, prefill_cached=True, speculative=True,
        spec_method="DFlash", spec_window=56,
        spec_window_convention="DFlash block size (--speculative-dflash-block-size 56) = window",
        drafter_model="z-lab/Qwen3.6-27B-DFlash", acceptance_length=56.0, acceptance_rate=1.0,
        power_w=99.6, power_w_high=100.0, launch_command=LAUNCH, notes=NOTES,
        submitter="speedrunner", date="2026-11-20", record_id="r-56",
        provenance=_prov(tok_s="tok_s", acceptance_length="notes", power_w="power_w",
                         spec_window="launch_command", hardware="gpu"),
    )
    base.update(overrides)
    return Claim(**base)


def real_decode_claim() -> Claim:
    """Same card and model, plain autoregressive decode: 79 tok/s."""
    return Claim(model="Qwen3.6-27B", params_total_b=27.8, is_moe=False, weight_format="NVFP4",
                 hardware="RTX 5090", hardware_count=1, batch=1, tok_s=79.0, tok_s_kind="decode",
                 speculative=False)


def wide_window_siblings() -> list[Claim]:
    """The same submitter's other runs: window 512, 256 and 24 ('wide windows')."""
    return [
        headline_claim(spec_window=512, acceptance_length=None, acceptance_length_low=231.0,
                       acceptance_length_high=292.0, acceptance_rate=None, tok_s=4691.0,
                       tokens_generated=None, wall_seconds=None, record_id="r-512"),
        headline_claim(spec_window=256, acceptance_length=None, acceptance_length_low=174.0,
                       acceptance_length_high=240.0, acceptance_rate=None, tok_s=4547.0,
                       tokens_generated=None, wall_seconds=None, record_id="r-256"),
        headline_claim(spec_window=24, acceptance_length=None, acceptance_rate=None, tok_s=1074.0,
                       tokens_generated=None, wall_seconds=None, temperature=0.0, repeats=6,
                       cooldown_s=15.0, ttft_empty=None, prefill_cached=None, record_id="r-24"),
    ]


def headline_evidence(**claim_overrides: object) -> Evidence:
    return Evidence(
        claim=headline_claim(**claim_overrides),
        kind="record",
        siblings=wide_window_siblings(),
        post=PostInfo(text="27B dense, batch 1, 2048 tokens in 0.969 s — 2103.6 tok/s",
                      links=["https://board.example/records/r-56"],
                      evidence_links=["https://board.example/records/r-56"]),
    )
