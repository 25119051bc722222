"""Where the weights live: the card's memory, and what an offloaded run keeps in system RAM.

A named card is that card: weights larger than the stated cards' memory ("42 GB of Q4_K_M weights
on one RTX 5090's 32 GB") are read as offloaded even when the record does not say so, and the
ceiling is the offloaded one; cards are never invented to make the weights fit. A discrete card
named with no count is one card (`one_named_card`) unless the record's words say more ran ("2x",
"GPUs", `-ts`, `CUDA_VISIBLE_DEVICES=0,1`, "cluster", tensor parallel); a datacenter card, sold on
4- and 8-GPU boards, keeps its count unknown. A card's memory is the row's, or the record's own
larger figure (a card sold in several sizes: the RTX 4060 Ti's 8 and 16 GB).

fits_memory and Q7 roofline share these sizes. A run whose weights do not fit in the card's
memory × count, and that says it offloads ("+ 64GB RAM offload", "partial offload", llama.cpp
`-ngl 30`), streams the offloaded part from system memory every token: time per token = VRAM part
÷ card bandwidth + system part ÷ system-memory bandwidth (the llama.cpp CPU backend computes
the offloaded layers where they sit, so they are read at system-memory speed).

System-memory bandwidth = channels × 64-bit bus × transfer rate ÷ 8, stated by the record. Not
stated, the host is unknown, and any card can sit in any host (a consumer RTX 3090 or 5090 in a
dual-EPYC or Threadripper box is a common rig): the generous ceiling reads the most generous host
platform below (the datacenter one), the realistic ceiling the best platform in common use for
the card's class (each constant names its public source):
- consumer: dual-channel DDR5-6400 = 2 × 64 bit × 6400 MT/s ÷ 8 = 102.4 GB/s, the top rated speed
  of current desktop platforms (Intel Core Ultra 200S, "Up to DDR5 6400 MT/s", 2 channels:
  https://www.intel.com/content/www/us/en/products/sku/241060/intel-core-ultra-9-processor-285k-36m-cache-up-to-5-70-ghz/specifications.html);
- workstation: 8-channel DDR5-6400 = 409.6 GB/s (AMD Ryzen Threadripper PRO 9000 WX-series,
  8 channels DDR5-6400: https://www.amd.com/en/products/processors/workstations/ryzen-threadripper.html);
- datacenter: two sockets of 12-channel DDR5-6400 = 2 × 614.4 = 1228.8 GB/s (AMD EPYC 9005,
  12 channels DDR5-6400 per socket: https://www.amd.com/en/products/processors/server/epyc/9005-series.html).
A host CPU named beside the card (`Claim.host`) replaces that guess: its platform's most generous
bandwidth (the fastest common kit where the row has one, × the most sockets it takes) for the
generous ceiling, its official one-socket rate for the realistic one.
Unified-memory machines have no separate system memory: offload does not apply there.

The split favours the claim: as much as fits goes in VRAM (KV not counted against it), or the
stated share of layers (`gpu_layers` ÷ the model's layers); a MoE reads its active bytes in the
same proportion as its resident ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from checks.basis import row
from checks.models import Assumption, Basis, Claim
from checks.physics.figures import GB, GIB, Derived, Missing, num
from checks.physics.weights import WeightFormat, params_resident, resident_weight_gb
from checks.reference import HardwareRow, ModelRow

__all__ = [
    "MEMORY_UNIT_BYTES",
    "PLATFORM_BANDWIDTH",
    "OffloadSplit",
    "card_gib",
    "card_memory_gb",
    "fits_at_no_format",
    "host_generous_gbs",
    "offload_split",
    "one_named_card",
    "says_offload",
]

# Card memory is sized in binary units (a "32 GB" RTX 5090 has 32 GiB); reading it as GiB is the
# larger, claim-favouring reading.
MEMORY_UNIT_BYTES = GIB

_INTEL = ("https://www.intel.com/content/www/us/en/products/sku/241060/"
          "intel-core-ultra-9-processor-285k-36m-cache-up-to-5-70-ghz/specifications.html")
_TR = "https://www.amd.com/en/products/processors/workstations/ryzen-threadripper.html"
_EPYC = "https://www.amd.com/en/products/processors/server/epyc/9005-series.html"
# card kind -> (GB/s, derivation, source)
PLATFORM_BANDWIDTH: dict[str, tuple[float, str, str]] = {
    "consumer": (102.4, "dual-channel DDR5-6400 = 2 × 64 bit × 6400 MT/s ÷ 8", _INTEL),
    "workstation": (409.6, "8-channel DDR5-6400 = 8 × 64 bit × 6400 MT/s ÷ 8", _TR),
    "datacenter": (1228.8, "2 sockets × 12-channel DDR5-6400 = 2 × 12 × 64 bit × 6400 MT/s ÷ 8", _EPYC),
}


def card_gib(hw: HardwareRow, stated_gb: float | None = None) -> float:
    """One card's memory as sized (GiB): the row's, or the record's own figure where it is larger
    (`Claim.hardware_memory_gb`, LocalScore's `accel_ram`): a card sold in several memory sizes
    (RTX 4060 Ti 8 and 16 GB) is the variant the record saw, and the larger reading favours the
    claim. A figure 10× off the row never gets here (checks/physics/model_size.sourced_claim)."""
    return max(hw.memory_gb, stated_gb or 0.0)


def card_memory_gb(hw: HardwareRow, count: int, stated_gb: float | None = None) -> float:
    """The cards' memory in GB (1e9), read as GiB × count (`card_gib`)."""
    return card_gib(hw, stated_gb) * MEMORY_UNIT_BYTES / GB * count


# Words that say more than one card ran, though no count was read: a count ("2x", "4×"), plural
# GPUs or cards, llama.cpp's tensor split or device list, a split across cards, tensor parallel.
# Any of them and the count stays unknown: one card is never assumed against them.
_MORE_CARDS = re.compile(
    r"(?i)\b(?:[2-9]|1[0-6])\s?[x×]\s?[a-z0-9]|\b(?:dual|twin|triple|quad|two|three|four|six|eight)\b"
    r"|\bgpus\b|\bcards\b|\bcluster\b|--tensor-split|(?:^|\s)-ts\s|cuda_visible_devices\s{0,3}=\s{0,3}\d+\s{0,3},"
    r"|tensor[ -]parallel|\btp\s{0,3}[=:]?\s{0,3}[2-9]|(?:-sm|--split-mode)\s{0,3}[=:]?\s{0,3}(?:row|graph|tensor)")


def one_named_card(claim: Claim, hw: HardwareRow) -> bool:
    """A discrete card named with no count, and nothing the record says of more: one card
    ("on an RTX 5090", "my 3090", LocalScore's one accelerator). Weights that do not fit it are
    offloaded (`offload_split`), never spread over cards nobody named. A unified-memory machine
    or CPU has no card memory to overflow; a rig or system row carries its own count. A
    datacenter card is sold on multi-card boards (NVIDIA HGX: 4 or 8 GPUs,
    https://www.nvidia.com/en-us/data-center/hgx/), so a record naming one whose weights do not
    fit it most likely ran on several: its count stays unknown."""
    if claim.hardware_count is not None or hw.kind in ("unified", "cpu", "datacenter"):
        return False
    if hw.weights_across_devices or hw.cards > 1 or hw.source_kind in ("composite", "system"):
        return False
    said = " ".join(x for x in (claim.hardware, claim.launch_command, claim.notes, claim.cell,
                                *(f"{k}={v}" for k, v in claim.env.items())) if x)
    return not _says_more_cards(said)


@lru_cache(maxsize=512)  # by the words: a board repeats its launch templates and notes
def _says_more_cards(said: str) -> bool:
    return _MORE_CARDS.search(said) is not None


def says_offload(claim: Claim, model: ModelRow | None) -> bool:
    """The record says part of the weights sit outside the card: "offload", system RAM or its
    bandwidth named, or fewer GPU layers than the model has (`-ngl 99` means all of them)."""
    if claim.offload is False:
        return False
    layers = model.layers if model is not None else None
    fewer = claim.gpu_layers is not None and layers is not None and claim.gpu_layers < layers
    return bool(claim.offload or claim.system_ram_gb or claim.system_bandwidth_gbs or fewer)


@dataclass(frozen=True)
class OffloadSplit:
    """The share of the bytes read per token that sits in system memory, and its bandwidth."""

    system_fraction: float  # of the weights read per token
    system_bandwidth: Derived  # generous: stated, else the most generous host any card sits in
    basis: tuple[Basis | str, ...]
    assumptions: tuple[Assumption, ...] = ()
    realistic_bandwidth_gbs: float | None = None  # the card kind's own platform; None: the same

    @property
    def realistic_gbs(self) -> float:
        return self.realistic_bandwidth_gbs or self.system_bandwidth.value


def host_generous_gbs(host: HardwareRow) -> tuple[float, str]:
    """A host CPU's most generous memory bandwidth when its DIMMs and sockets are unknown: the
    platform's fastest common kit (XMP/EXPO, where the row has one) × the most sockets it takes."""
    per = max(host.bandwidth_gbs, host.overclock_bandwidth_gbs or 0.0)
    how = host.overclock_derivation if per > host.bandwidth_gbs and host.overclock_derivation else (
        host.bandwidth_derivation or f"{num(per)} GB/s")
    if host.max_sockets > 1:
        return per * host.max_sockets, f"({how}) × {host.max_sockets} sockets, the most the platform takes"
    return per, how


def _system_bandwidth(claim: Claim, hw: HardwareRow, host: HardwareRow | None = None) -> Derived | None:
    if claim.system_bandwidth_gbs:
        bw = claim.system_bandwidth_gbs
        return Derived(bw, "GB/s", (f"{claim.source_of('system_bandwidth_gbs')} = {num(bw)} GB/s",))
    if host is not None:
        # The host is named: the offloaded share streams from its memory, at most its
        # platform's most generous bandwidth.
        bw, how = host_generous_gbs(host)
        return Derived(bw, "GB/s", (row(host, f"host {claim.source_of('host')}: system memory at most "
                                              f"{how} = {num(bw)} GB/s"),))
    if hw.kind not in PLATFORM_BANDWIDTH:
        return None
    # The host is not stated: any card can sit in any host (a consumer RTX 3090 in a dual-EPYC
    # server is a common rig), so the generous bound reads the most generous host platform; the
    # realistic one keeps the card kind's own (`_kind_platform_gbs`).
    bw, how, src = max(PLATFORM_BANDWIDTH.values(), key=lambda p: p[0])
    a = Assumption(name="system-memory bandwidth (most generous host platform)", value=bw, unit="GB/s",
                   source=f"{how} ({src})")
    return Derived(bw, "GB/s", (f"system memory not stated: the most generous host platform, {how} = "
                                f"{num(bw)} GB/s ({src}); realistic: a {hw.kind} platform's "
                                f"{num(PLATFORM_BANDWIDTH[hw.kind][0])} GB/s",), (a,))


def _kind_platform_gbs(claim: Claim, hw: HardwareRow, host: HardwareRow | None = None) -> float | None:
    """The realistic system bandwidth: stated, else the named host's official rate (one socket),
    else the card kind's own platform's best."""
    if claim.system_bandwidth_gbs:
        return claim.system_bandwidth_gbs
    if host is not None:
        return host.bandwidth_gbs
    best = PLATFORM_BANDWIDTH.get(hw.kind)
    return best[0] if best is not None else None


# No format in the table stores a weight in fewer nominal bits (IQ1_S and IQ1_M: 1, checks/data/
# formats.json from llama.cpp tools/quantize/README.md): weights that overflow the cards at this
# size overflow them at every format.
SMALLEST_NOMINAL_BITS = 1.0


def fits_at_no_format(claim: Claim, hw: HardwareRow, model: ModelRow | None, one: bool) -> Derived | None:
    """The weights at `SMALLEST_NOMINAL_BITS` when even that overflows the stated card(s) (one
    named card, or a stated count), else None."""
    if claim.hardware_count is None and not one:
        return None
    params = params_resident(claim, model)
    if isinstance(params, Missing):
        return None
    gb = params.value * SMALLEST_NOMINAL_BITS / 8
    memory = card_memory_gb(hw, claim.hardware_count or 1, claim.hardware_memory_gb)
    if gb <= memory:
        return None
    return Derived(gb, "GB", (*params.basis, (
        f"format not stated: even at {num(SMALLEST_NOMINAL_BITS)} bit a weight, the fewest any format in the "
        f"table stores, {num(params.value)}e9 params take {num(gb)} GB, more than the {num(memory)} GB on "
        f"{hw.on(claim.hardware_count or 1)}: offloaded at any format")))


def offload_split(claim: Claim, hw: HardwareRow, model: ModelRow | None,
                  fmt: WeightFormat, host: HardwareRow | None = None) -> OffloadSplit | Missing | None:
    """How much of each token's weights an offloaded run reads from system memory (`host`: the
    named host CPU's row, whose platform bounds that memory).

    None when the record says nothing of offload, or everything fits and no layer count puts
    part of it outside the card; Missing when the weights cannot be sized."""
    if hw.kind in ("unified", "cpu"):
        return None
    # Weights that do not fit the stated cards ("on one RTX 5090") are offloaded whether or not
    # the record says so: the cards are never multiplied to make them fit.
    # Only on a known size: with the format unknown the 4-bit reading is an assumption, and a
    # smaller quant that fits would be judged at system-memory speed.
    stated = says_offload(claim, model)
    # A format the table holds, or whose bits the record or the name states ("Q8", 6.0 bpw), sizes them.
    known = not fmt.assumed or bool(claim.model_size_bytes)
    # With the format unstated a smaller quant might fit; not where none could: weights past the
    # stated cards even at one bit a weight are offloaded at any format (the spill is then read
    # at that smallest size, the share that favours the claim).
    layers = model.layers if model is not None else None
    all_on_card = claim.gpu_layers is not None and layers is not None and claim.gpu_layers >= layers
    one = one_named_card(claim, hw)
    floor = None if known or stated else fits_at_no_format(claim, hw, model, one)
    known = known or floor is not None
    # `-ngl 99` on one named card the weights cannot fit: tensors were overridden to system memory
    # (`-ot exps=CPU`), there is nowhere else for them to be; a stated count keeps the layer rule.
    all_on_card = all_on_card and not one
    if not stated and ((claim.hardware_count is None and not one) or not known or all_on_card
                       or claim.offload is False):
        return None
    count = claim.hardware_count or 1
    basis: list[Basis | str] = []
    if claim.gpu_layers is not None and layers and claim.gpu_layers < layers:
        frac = 1 - claim.gpu_layers / layers
        where = model.cite() if model is not None else "the model"
        basis.append(f"{claim.source_of('gpu_layers')} = {claim.gpu_layers} of {layers} layers "
                     f"({where}) on the card: {num(frac)} of the weights in system memory")
    else:
        weights = floor if floor is not None else resident_weight_gb(claim, model, fmt)
        if isinstance(weights, Missing):
            return weights
        memory = card_memory_gb(hw, count, claim.hardware_memory_gb)
        if weights.value <= memory:
            return None
        frac = (weights.value - memory) / weights.value
        what = (f"weights (at {num(SMALLEST_NOMINAL_BITS)} bit a weight)" if floor is not None
                else f"{fmt.name} weights")
        if not stated and claim.hardware_count is None:
            basis.append(f"a named card is one card: {num(weights.value)} GB of {what} do "
                         f"not fit {hw.on(1)} ({num(memory)} GB), so the rest is read from system "
                         "memory (no more cards are named)")
        elif not stated:
            basis.append(f"{num(weights.value)} GB of {what} do not fit the stated "
                         f"{hw.on(count)} ({num(memory)} GB): the rest is read from system memory")
        basis += [*weights.basis,
                  row(hw, f"{num(card_gib(hw, claim.hardware_memory_gb))} GB (GiB) × {count} = {num(memory)} GB on the card(s); "
                          f"({num(weights.value)} − {num(memory)}) ÷ {num(weights.value)} = {num(frac)} of the "
                          "weights in system memory (as much as fits on the card, KV not counted)")]
    bw = _system_bandwidth(claim, hw, host)
    if bw is None:
        return Missing((f"system-memory bandwidth for a {hw.kind} card",))
    return OffloadSplit(frac, bw, (*basis, *bw.basis), bw.assumptions,
                        realistic_bandwidth_gbs=_kind_platform_gbs(claim, hw, host))
