"""peer_outlier: a figure far above every other record of the same setup.

The check function's docstring is its documentation (rendered into docs/checks.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter

from checks.basis import answer, formula, other_records
from checks.models import Answer, Basis, Evidence
from checks.peers import peer_figure
from checks.reference import Reference

__all__ = ["FEW_PEERS", "FEW_PEERS_FACTOR", "MIN_PEERS", "OUTLIER_FACTOR", "factor_for", "peer_outlier"]

# Fewer than this many other records say too little about a setup: two runs can both be slow.
MIN_PEERS = 3
# Above this multiple of the best peer a figure is an outlier. Picked on the calibration split of
# benchmarks/corpus (12 public sources, `python -m benchmarks.calibrate` prints the highest): of
# 1,116 honest records with 3+ peers the highest is 1.96× its best peer (a LocalScore RTX 4090 run
# of Llama 3.2 1B Q4_K_M at 282 tok/s whose peers ran at most 144), the next 1.89× and 1.61×;
# 2.5 leaves them a quarter's margin and still flags 1,104 of the 1,109 x10 fakes that have peers.
# Never below 2: a tuned run can honestly double an untuned one (flash attention, a newer build).
OUTLIER_FACTOR = 2.5
# Two peers say less, so they need a wider margin: of 405 honest records of the calibration split
# with exactly two peers the highest is 2.51× its best peer (an ik_llama.cpp LLaMA-3.2 quant row),
# the 99th percentile 1.73×; 4 leaves the highest three fifths' margin. One peer says too little:
# there the highest honest ratio is 10.1× (two LocalScore submissions of one card and model, one
# of them slow), so no factor both keeps honest records clear and catches a ×10.
FEW_PEERS = 2
FEW_PEERS_FACTOR = 4.0
_TOK_S = attrgetter("tok_s")
_LISTED = 5  # peers named in the basis, highest first; the figures count them all


def factor_for(peers: int) -> float | None:
    """The multiple of the best peer above which a figure is an outlier; None: too few to judge."""
    if peers >= MIN_PEERS:
        return OUTLIER_FACTOR
    return FEW_PEERS_FACTOR if peers == FEW_PEERS else None


def _g(x: float) -> str:
    return f"{x:.1f}" if x < 1000 else f"{x:,.0f}"


def peer_outlier(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """peer_outlier: a figure far above every other record of its setup.

    Seed, section 4: the roofline is "a division", and a division only bounds what the hardware
    allows. Records of the same setup bound more tightly what it does: a decode figure ten times
    the best of twenty runs of the same card, model and format is an outlier even below the
    ceiling, when the honest runs sat far under it (offload, a small model on a big card).

    Peers are given by the caller (`checks.runner.audit(peers=...)`): a board's other records
    (`sweep`), the other records of a calibration run, earlier stored audits. The setup is
    `checks.peers.peer_key`: hardware row and card count, model row (or parameter count), weight
    format, kind of figure, and batch, concurrency, offload and GPU layers where stated. A record
    naming no hardware keys by the unnamed machine it ran on where that is known (`Claim.machine`:
    the rows of one table of one post), never by another machine. The record itself is never its
    own peer.

    Statuses:
    - `flag`: at least `MIN_PEERS` peers and the figure above `OUTLIER_FACTOR` × the highest of
      them, or exactly `FEW_PEERS` peers and the figure above `FEW_PEERS_FACTOR` × the higher
      (two runs say less, so the margin is wider). Never `stop`: peers can be misconfigured or all
      slow; only physics condemns.
    - `ok`: enough peers and the figure within that multiple of the highest.
    - `n/a`: no peers given, no setup to key on, or a single peer (one run can be slow by 10×).

    Figures: `peers`, `peer_highest_tok_s`, `peer_median_tok_s`, `ratio_to_highest`,
    `outlier_factor`. The basis names the setup and the highest peers by record id and source.
    Reads no reference table beyond the rows the setup key resolves (hardware, models, formats).
    """
    group = ev.peers
    figure = peer_figure(ev.claim)
    if group is None or figure is None or not group.setup:
        return answer(key="peer_outlier", status="n/a",
                      summary="No records of the same setup were given to compare with.")
    n = len(group.figures)
    factor = factor_for(n)
    if factor is None:
        return answer(key="peer_outlier", status="n/a",
                      summary=f"{n} other record{'s' if n != 1 else ''} of this setup ({group.setup}): "
                              f"fewer than {FEW_PEERS}, too few to judge by.",
                      figures={"peers": n})
    value = figure[0]
    # Highest first, ties in the order given (a reversed sort is stable too), by a key read in C:
    # a board's group is some hundred figures, sorted again for each of its records.
    ranked = sorted(group.figures, key=_TOK_S, reverse=True)
    highest = ranked[0].tok_s
    # The median of the sorted figures (the middle one, or the two middle ones' mean): what
    # `statistics.median` gives, without sorting them once more.
    half = n // 2
    mid = ranked[half].tok_s if n % 2 else (ranked[half - 1].tok_s + ranked[half].tok_s) / 2
    ratio = value / highest
    figures = {"peers": n, "peer_highest_tok_s": highest, "peer_median_tok_s": mid,
               "ratio_to_highest": ratio, "outlier_factor": factor}
    basis: list[Basis] = [
        *other_records(f"setup: {group.setup}", ranked, lambda f: f"reports {_g(f.tok_s)} tok/s", "peers",
                       _LISTED),
        formula(f"ratio = {_g(value)} ÷ {_g(highest)} = {ratio:.2f}")]
    head = (f"{_g(value)} tok/s is {ratio:.1f}× the highest of {n} other records of this setup "
            f"({_g(highest)} tok/s; median {_g(mid)})")
    if ratio > factor:
        return answer(key="peer_outlier", status="flag", figures=figures, basis=basis,
                      reason="outlier", label=f"{ratio:.1f}× the best of {n} records of its setup",
                      summary=f"{head}: more than {factor:g}× every peer, an outlier even "
                              "below any ceiling; peers can be misconfigured, so suspicious, not "
                              "condemned.")
    return answer(key="peer_outlier", status="ok", figures=figures, basis=basis,
                  summary=f"{head}: within {factor:g}× of its peers.")
