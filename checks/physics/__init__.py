"""Shared decode physics: bytes read per token, KV bytes, bandwidth and compute ceilings.

Used by Q7 roofline, fits_memory and compute_ceiling (and by anything that draws the ceilings).
Each function returns a `Derived` (the figure, the formula written out with its numbers, the
reference rows it read, the constants it assumed and the caveats a summary must carry) or a
`Missing` naming exactly what the record or the tables lack. Units: GB = 1e9 bytes, GB/s = 1e9 B/s,
TFLOPS = 1e12 FLOP/s.

Two byte counts, on purpose:
- **generous**: the record's own file size, else params × *nominal* bits / 8; no KV reads. Every
  assumption favours the claim, so a claim that breaks it is robustly broken.
- **realistic**: a published mixed-precision recipe for this model and format, else the file size,
  else params × *effective* bits (with scale overhead) / 8; plus recurrent state and KV reads at the
  stated context; streamed at an achievable fraction of the theoretical bandwidth.

The modules: `figures` (`Derived`, `Missing`, `num`), `weights` (the weight format and weight bytes
per token), `kv` (KV-cache bytes), `offload` (card memory and the system-memory share), `ceilings` (bandwidth, roofline ceilings and compute peaks), `compute` (the compute roof:
dense peak × cards ÷ 2 × active params per token, the bound on prompt processing),
`serving` (the largest aggregate any batch allows: memory and compute bounds).
"""

from checks.physics.ceilings import (
    ACHIEVABLE_BANDWIDTH_FRACTION,
    Ceilings,
    aggregate_tok_s,
    bandwidth,
    batch_size,
    hardware_row,
    peak_tflops,
    required_tflops,
    roofline_ceilings,
)
from checks.physics.compute import (
    ComputeJudgement,
    ComputeRoof,
    compute_peak,
    compute_roof,
    judge_compute,
    moe_share,
    one_card_fits,
    smallest_active_share,
)
from checks.physics.figures import GB, GIB, Derived, Missing, gb, num
from checks.physics.kv import context_tokens, kv_bytes_per_token, kv_gb_per_sequence, parallel_slots
from checks.physics.model_size import NameSize, size_from_name
from checks.physics.offload import (
    MEMORY_UNIT_BYTES,
    PLATFORM_BANDWIDTH,
    OffloadSplit,
    card_gib,
    card_memory_gb,
    offload_split,
    one_named_card,
    says_offload,
)
from checks.physics.serving import ServingBounds, required_batch, serving_bounds
from checks.physics.weights import (
    WeightFormat,
    generous_weight_gb,
    model_is_moe,
    params_per_token,
    params_resident,
    realistic_weight_gb,
    resident_weight_gb,
    resolve_format,
)

__all__ = [
    "ACHIEVABLE_BANDWIDTH_FRACTION",
    "GB",
    "GIB",
    "MEMORY_UNIT_BYTES",
    "PLATFORM_BANDWIDTH",
    "Ceilings",
    "ComputeJudgement",
    "ComputeRoof",
    "Derived",
    "Missing",
    "NameSize",
    "OffloadSplit",
    "ServingBounds",
    "WeightFormat",
    "aggregate_tok_s",
    "bandwidth",
    "batch_size",
    "card_gib",
    "card_memory_gb",
    "compute_peak",
    "compute_roof",
    "context_tokens",
    "gb",
    "generous_weight_gb",
    "hardware_row",
    "judge_compute",
    "kv_bytes_per_token",
    "kv_gb_per_sequence",
    "model_is_moe",
    "moe_share",
    "num",
    "offload_split",
    "one_card_fits",
    "one_named_card",
    "parallel_slots",
    "params_per_token",
    "params_resident",
    "peak_tflops",
    "realistic_weight_gb",
    "required_batch",
    "required_tflops",
    "resident_weight_gb",
    "resolve_format",
    "roofline_ceilings",
    "says_offload",
    "serving_bounds",
    "size_from_name",
    "smallest_active_share",
]
