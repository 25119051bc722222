"""Human labels for question keys and statuses, shared by every renderer."""

from __future__ import annotations

from checks.models import Claim, Report, Source, figure_unit

__all__ = ["FINDING_TITLES", "QUESTION_TITLES", "STATUS_ORDER", "claim_line", "figure_with_unit", "format_figure",
           "source_format"]

QUESTION_TITLES = {
    "evidence": "Evidence in the post",
    "config": "The real config",
    "cell": "Which cell",
    "fork": "Private fork",
    "acceptance": "AL / window",
    "power": "Power",
    "roofline": "Roofline",
    "measure": "Go measure",
}
FINDING_TITLES = {
    "arithmetic": "Arithmetic",
    "forced_acceptance": "Forced acceptance",
    "lossy_acceptance": "Lossy acceptance",
    "full_ratio": "Full ratio",
    "prefill_excluded": "Prefill excluded",
    "window_curve": "Window curve",
    "fits_memory": "Fits in memory",
    "compute_ceiling": "Compute ceiling",
    "drafter_regime": "Drafter regime",
    "token_accounting": "Token accounting",
}
STATUS_ORDER = {"stop": 0, "error": 1, "flag": 2, "unanswerable": 3, "plan": 4, "ok": 5, "n/a": 6}


def format_figure(value: float) -> str:
    """'128.9', '16', '0.173'; a flag (a bool figure) reads 'yes' or 'no'."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value == int(value) and abs(value) < 1e6:
        return str(int(value))
    if abs(value) >= 100:
        return f"{value:.1f}"
    return f"{value:.3g}" if abs(value) < 1 else f"{value:.2f}"


def figure_with_unit(name: str, value: float) -> str:
    """'128.9 tok/s', '575 W', '16': a figure with the unit its name carries (checks.models)."""
    unit = figure_unit(name)
    return f"{format_figure(value)} {unit}" if unit else format_figure(value)


def claim_line(claim: Claim, report: Report | None = None) -> str:
    """'Qwen3.6-27B · NVFP4 · RTX 5090 ×1 · batch 1 · sglang 0.5.4+dflash.a91f3e'."""
    parts = []
    if claim.model:
        parts.append(claim.model)
    if claim.weight_format:
        parts.append(claim.weight_format)
    if claim.hardware:
        card = (report.hardware_name if report is not None else None) or claim.hardware
        parts.append(f"{card} ×{claim.hardware_count or 1}")
    if claim.batch is not None:
        parts.append(f"batch {claim.batch}")
    elif claim.concurrency is not None:
        parts.append(f"concurrency {claim.concurrency}")
    if claim.engine:
        parts.append(" ".join(p for p in (claim.engine, claim.engine_version) if p))
    if claim.spec_method:
        window = f" window {claim.spec_window}" if claim.spec_window else ""
        parts.append(f"{claim.spec_method}{window}")
    if report is not None:
        formats = [f for s in report.sources if (f := source_format(s)) and f != "text"]
        parts.append(", ".join(dict.fromkeys(formats)) if formats else "pasted text")
    return " · ".join(parts) or "(no setup given)"


def source_format(s: Source) -> str | None:
    """How a source was read: its adapter, or for an image "screenshot, OCR" and what its text
    was read as (the provenance a member sees for a picture, never "text")."""
    if s.screenshot is not None:
        read_as = s.screenshot.format or s.format
        return "screenshot, OCR" + (f": {read_as}" if read_as and read_as != "text" else "")
    return s.format
