"""Q6 power: watts over board power, against the decode band for the card class.

Seed §3: "A saturated accelerator should sit against its TDP. Sitting well below it means the thing
is waiting, not computing."

`ratio = watts / TDP`. Power is the hardest figure to fake: it is unrelated to the number under
scrutiny, nobody optimises it, and leaderboards record it passively.

Per-GPU rule (hardware_count > 1): a figure the record's power method calls total, whole-system or
wall power, or one above what a single card can draw (> 1.10 × its highest known board limit), is
taken as the total and divided by the count; otherwise it is read as per GPU (the reading that
favours the claim for the "waiting" flag). When a range is reported (99-100 W) the ratio uses the
low figure and the "waiting" test the high one, so neither flag rests on the end that suits it.

Above board power is no red flag on the speed: partner boards and raised limits run well past the
reference board power (an EVGA RTX 3090 FTW3 allows 450 W of the reference 350 W,
https://www.evga.com/products/specs/gpu.aspx?pn=24G-P5-3987-KR; many RTX 4090 boards 600 W of
450 W), and a post often quotes the power limit it set rather than the draw. Only power too low
for the claimed work is a plausibility flag (seed §3).

Statuses:
- `flag`: below the band's low end × 0.8 for a throughput claim (the GPU is waiting, not
  computing).
- `ok`: inside the band (or above it, up to board power); or above board power up to the highest
  board limit known for the card (`max_power_w`, else board power) × 1.10, with a note.
- `unanswerable`: above that limit: probably whole-system (wall) power, so nothing is judged from
  it; no power figure; no hardware, a card not in the table, a card with no board power (Apple
  SoC), or no decode power band for its class.

Reference rows read: `hardware` (tdp_w, max_power_w, kind, power_band), `power_bands` (low/high
fraction of TDP).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from checks.basis import answer, field, formula, note, row
from checks.models import Answer, Assumption, Evidence
from checks.physics import num
from checks.reference import CONSUMER_GPU, Reference

__all__ = ["power"]

# Above the highest known board limit by more than 10% (meter error, transients) cannot be one
# card's draw.
ABOVE_BOARD_RATIO = 1.10
# A unified-memory box's TDP is its SoC's; a draw measured for the whole box (memory, storage,
# fans) can reach its power supply: DGX Spark, 140 W SoC, 240 W PSU
# (https://www.nvidia.com/en-us/products/workstations/dgx-spark/).
UNIFIED_SYSTEM_RATIO = 240 / 140
# Margin under the band's low end before flagging: the bands are drawn from a handful of runs
# (arXiv 2605.11999; jeanfbrito.github.io RTX 3090 power-limit post; llmgarage.ai), so a draw
# within 20% of the lowest seen is not evidence of idling.
BAND_MARGIN = 0.8
# Words in a power method that mark a figure as all cards (or the whole box), not one card.
_TOTAL_WORDS = re.compile(r"\b(total|sum|all gpus|system|wall|node|box|psu)\b", re.IGNORECASE)

# Frozen, so every answer may hold the one instance (validated once, at import).
_A_BAND = Assumption(name="power band margin", value=BAND_MARGIN, unit="× band low",
                     source="claimcheck: bands rest on a handful of runs (arXiv 2605.11999; "
                            "llmgarage.ai power-limit benchmark)")
_HARDEST = "power is the hardest figure to fake because nobody optimises it"


def power(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """Q6 power: watts over board power, against the decode band for the card class."""
    c = ev.claim
    if c.power_w is None:
        return answer(key="power", status="unanswerable", missing=["power draw (W)"],
                      summary=f"The record gives no power draw; {_HARDEST}, so its absence is a gap.")
    if not c.hardware:
        return answer(key="power", status="unanswerable", missing=["hardware"],
                      summary=f"{num(c.power_w)} W, but no hardware to divide it by.")
    hw = ref.gpu(c.hardware)
    if hw is None and c.hardware == CONSUMER_GPU:
        # Board powers of consumer cards run from tens of watts to 575 W: a class has none.
        return answer(key="power", status="unanswerable", missing=["which card (its board power)"],
                      summary=f"{num(c.power_w)} W on a card named only as a {CONSUMER_GPU}: board powers "
                              "differ card by card, so there is none to divide by.")
    if hw is None:
        return answer(key="power", status="unanswerable",
                      missing=[f"reference row for hardware '{c.hardware}'"],
                      summary=f"{num(c.power_w)} W on {c.hardware}, a card not in the reference table.")
    if hw.tdp_w is None:
        return answer(key="power", status="unanswerable", missing=[f"board power (TDP) of {hw.name}"],
                      basis=[row(hw, "no board power")], reason="no_board_power",
                      summary=f"{num(c.power_w)} W on {hw.name}, which has no board power to divide by "
                              "(an SoC shares its power budget).")

    tdp = hw.tdp_w
    # The highest board limit known for the card (partner boards, raised limits); the reference
    # board power until the tables carry it.
    limit = max(tdp, getattr(hw, "max_power_w", None) or tdp)
    count = c.hardware_count or 1
    low_w, high_w = c.power_w, max(c.power_w, c.power_w_high or c.power_w)
    basis = [field(c, "power_w", f"= {num(c.power_w)} W"
                   + (f" (to {num(c.power_w_high)} W)" if c.power_w_high else "")),
             row(hw, f"board power {num(tdp)} W")]
    how = f" measured as {c.power_method}" if c.power_method else ""
    if count > 1:
        total = bool(c.power_method and _TOTAL_WORDS.search(c.power_method))
        if total or low_w > ABOVE_BOARD_RATIO * limit:
            why = (f"power method '{c.power_method}'" if total
                   else f"above one card's {num(limit)} W")
            basis.append(formula(f"{count} cards, figure read as the total ({why}): "
                                 f"{num(low_w)} W ÷ {count} = {num(low_w / count)} W per GPU"))
            low_w, high_w = low_w / count, high_w / count
        else:
            basis.append(note(f"{count} cards, figure read as per GPU (at or below one card's board power)"))

    ratio = low_w / tdp
    basis.append(formula(f"ratio = {num(low_w)} W ÷ {num(tdp)} W = {ratio:.2f}"))
    figures: dict[str, float] = {"watts": low_w, "tdp_w": tdp, "ratio": ratio}
    if high_w != low_w:
        figures["watts_high"] = high_w
    shown = f"{num(low_w)} W" + (f" (to {num(high_w)} W)" if high_w != low_w else "")
    per = " per GPU" if count > 1 else ""
    lead = f"{shown}{per}{how} of the {hw.name}'s {num(tdp)} W board power = {ratio:.2f}"

    if hw.kind == "unified" and ABOVE_BOARD_RATIO < ratio <= UNIFIED_SYSTEM_RATIO:
        basis.append(note(f"unified-memory system: up to {UNIFIED_SYSTEM_RATIO:.2f} × the SoC TDP is "
                          "whole-box power (DGX Spark: 240 W supply for a 140 W SoC)"))
        return answer(key="power", status="ok", figures=figures, basis=basis, reason="whole_box",
                      summary=(
            f"{lead}: above the SoC's TDP but within the whole box's supply, so it reads as "
            f"whole-system power, which a busy unified-memory box does draw; {_HARDEST}."))
    if low_w > ABOVE_BOARD_RATIO * limit:
        figures["max_power_w"] = limit
        basis.append(formula(f"{num(low_w)} W > {ABOVE_BOARD_RATIO} × {num(limit)} W, the highest board "
                             f"limit known for the {hw.name}"))
        return answer(key="power", status="unanswerable", figures=figures, basis=basis, reason="wall_power",
                      missing=[f"the {hw.name}'s own power draw (board power, not wall)"], summary=(
            f"{lead}: above the highest board limit known for the card ({num(limit)} W), so probably "
            f"whole-system (wall) power; nothing is judged from it."))
    if low_w > tdp:
        figures["max_power_w"] = limit
        basis.append(formula(f"{num(low_w)} W ≤ {ABOVE_BOARD_RATIO} × {num(limit)} W, the highest board "
                             f"limit known for the {hw.name}"))
        return answer(key="power", status="ok", figures=figures, basis=basis, reason="above_board",
                      summary=(
            f"{lead}: above the reference board power but within the limits partner boards and "
            f"raised power limits allow ({num(limit)} W), or a power limit quoted rather than a "
            f"draw; no red flag on the speed; {_HARDEST}."))

    band = ref.power_band(hw)
    if band is None:
        return answer(key="power", status="unanswerable", figures=figures, basis=basis, reason="no_band",
                      missing=[f"decode power band for card class '{hw.power_band or hw.kind}'"],
                      summary=f"{lead}, but there is no decode power band for its class to judge it by.")
    floor = band.low * BAND_MARGIN
    figures["band_low"], figures["band_high"] = band.low, band.high
    basis.append(row(band, f"decode draws {band.low:.2f}–{band.high:.2f} of board power; "
                           f"flag below {band.low:.2f} × {BAND_MARGIN} = {floor:.2f}"))
    assumptions = [_A_BAND]
    band_text = f"the {band.name} decode band ({band.low:.2f}–{band.high:.2f} of board power)"
    throughput = c.tok_s is not None and c.tok_s_kind != "prefill"
    if throughput and high_w / tdp < floor:
        return answer(key="power", status="flag", figures=figures, basis=basis, assumptions=assumptions,
                      reason="waiting", summary=f"{lead}, below {band_text} for a throughput claim: the GPU is waiting, "
                              f"not computing; {_HARDEST}.")
    return answer(key="power", status="ok", figures=figures, basis=basis, assumptions=assumptions,
                  reason="in_band", summary=f"{lead}, within reach of {band_text}; {_HARDEST}.")
