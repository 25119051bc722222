"""drafter_regime: the draft window against the windows the drafter was published with.

Seed §2/§7: the method is "solid work" at its published settings; the record ran it at a window of
56 where DFlash drafters are published at block 8/16. An acceptance measured far outside the
drafter's trained regime says nothing about the published method, and vice versa.

Statuses:
- `flag`: window more than 2 × the largest published window for the method.
- `ok`: window within reach of the published ones.
- `unanswerable`: speculative decoding but no window, no method named, or no published windows
  for the method in the table.
- `n/a`: no speculative decoding.

Reference rows read: `methods` (published_windows).
"""

from __future__ import annotations

from collections.abc import Mapping

from checks.basis import answer, field, formula, note, row
from checks.models import Answer, Evidence
from checks.reference import Reference

__all__ = ["drafter_regime"]

# "Far outside" = more than twice the largest window the drafters were published with (z-lab's
# DFlash drafters are trained at block 16, NVIDIA/Model-Optimizer PR #1211's at block 8).
FAR_FACTOR = 2.0


def drafter_regime(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """drafter_regime: the draft window against the windows the drafter was published with."""
    c = ev.claim
    if c.speculative is False or (c.speculative is None and not c.spec_method and c.spec_window is None):
        return answer(key="drafter_regime", status="n/a",
                      summary="No speculative decoding in the record, so no drafter regime to check.")
    if c.spec_window is None:
        return answer(key="drafter_regime", status="unanswerable", missing=["draft window"],
                      summary="Speculative decoding, but the record gives no draft window.")
    window = c.spec_window
    if not c.spec_method:
        return answer(key="drafter_regime", status="unanswerable", missing=["speculative method"],
                      figures={"window": float(window)},
                      basis=[field(c, "spec_window", f"= {window}")],
                      summary=f"Window {window}, but the speculative method is not named.")
    method = ref.method(c.spec_method)
    if method is None or not method.published_windows:
        return answer(key="drafter_regime", status="unanswerable", figures={"window": float(window)},
                      basis=[field(c, "spec_window", f"= {window}"),
                             row(method, "no published windows") if method else
                             note(f"'{c.spec_method}' is not in the methods table")],
                      missing=[f"published draft windows for '{c.spec_method}'"],
                      summary=f"Window {window}, but the reference has no published windows for "
                              f"{c.spec_method}.")
    largest = max(method.published_windows)
    published = "/".join(str(w) for w in sorted(method.published_windows))
    ratio = window / largest
    figures = {"window": float(window), "largest_published_window": float(largest), "ratio": ratio}
    basis = [field(c, "spec_window", f"= {window}"),
             row(method, f"published windows {published}"),
             formula(f"ratio = {window} ÷ {largest} = {ratio:.1f}; flag above {FAR_FACTOR:g}")]
    lead = f"{method.name} drafters published at block {published}, run at {window}"
    if ratio > FAR_FACTOR:
        return answer(key="drafter_regime", status="flag", figures=figures, basis=basis,
                      reason="outside_published_regime",
                      label=f"run at window {window}, {ratio:.1f}× the largest the {method.name} drafters were "
                            "published at",
                      summary=f"{lead} ({ratio:.1f}× the largest): far outside the regime the drafter "
                              "was trained and published in, so its AL says nothing about the method.")
    return answer(key="drafter_regime", status="ok", figures=figures, basis=basis,
                  summary=f"{lead}: within the regime the drafter was published in.")
