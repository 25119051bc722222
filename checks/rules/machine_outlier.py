"""machine_outlier: a figure far above what its machine's other records allow, per byte read.

The check function's docstring is its documentation (rendered into docs/checks.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from checks.basis import answer, formula, other_records
from checks.models import Answer, Basis, Evidence, PeerFigure
from checks.peers import gb_per_token, machine_key
from checks.reference import Reference

__all__ = ["MACHINE_FACTOR", "machine_bound", "machine_outlier"]

# Above this multiple of the bound its machine's other records set a figure is an outlier. Picked
# on the calibration split of benchmarks/corpus (12 public sources; `python -m
# benchmarks.calibrate` prints the honest distribution per source): of 2,642 honest records with
# another record of their machine the median is 0.88× the bound, the 99th percentile 1.06×, the
# highest 2.05× (an ik_llama.cpp sweep-bench row at N_KV 0 of DeepSeek-V2-Lite on a CPU, bounded by
# its table's deeper rows whose MLA cache the KV count leaves out) and the next 2.03× (a LocalScore
# submission); 3 leaves the highest a margin of 1.46 and catches 2,378 of the 3,837 x10 fakes.
# Never below 2: a tuned run can honestly double an untuned one (a newer build, more threads).
MACHINE_FACTOR = 3.0
_LISTED = 5  # peers named in the basis, highest bound first; the figures count them all


def _g(x: float) -> str:
    return f"{x:.1f}" if x < 1000 else f"{x:,.0f}"


def machine_bound(peer: PeerFigure, gb: float) -> float:
    """The tok/s one peer of the machine allows a record reading `gb` GB per token: its own tok/s
    if it reads no more per token than the record (reading more takes no less time), else the
    bandwidth it drew ÷ the record's GB per token (a lighter token draws no more bandwidth)."""
    peer_gb = peer.gb_per_token or 0.0
    return peer.tok_s * max(1.0, peer_gb / gb)


def machine_outlier(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """machine_outlier: a batch-1 decode figure far above what the same machine's other records
    allow, per byte each token reads.

    Seed, section 4: the roofline is "a division" — bandwidth ÷ bytes per token. On one machine
    at batch 1 plain decode a token's time is a fixed cost plus the bytes it reads ÷ the
    bandwidth, so of two records of the machine, the one reading more per token (a bigger model, a
    wider format, a deeper KV cache) is no faster, and the one reading less draws no more
    bandwidth (tok/s × GB per token), its fixed cost weighing more. Each other record of the
    machine thus bounds this one: its tok/s where it reads no more per token, else its bandwidth ÷
    this record's GB per token (`machine_bound`). A figure far above the most generous of those
    bounds is an outlier even below the generous ceiling, where the machine's honest runs sat far
    under it (a small model on a big card, a CPU at a fraction of its platform's most generous
    bandwidth, a deep cache).

    The machine's other records are given by the caller (`checks.runner.audit(peers=...)`,
    `PeerGroup.machine_figures`, built by `checks.peers.PeerIndex`): only records that ran on one
    machine for sure — the same `Claim.machine` (one table of one post, one LocalScore
    submission) and the same hardware as written and card count — with the same tool and kind of
    figure, at batch 1, never speculative, dense and MoE apart, never across an offload or
    GPU-layers change (`checks.peers.machine_key`). Bytes per token are the roofline's generous
    figures (`checks.peers.gb_per_token`: weights from the file size or params × nominal bits,
    active params of a MoE, plus the KV at a stated depth at the smallest cache type).

    Statuses:
    - `flag`: at least one other record of the machine and the figure above `MACHINE_FACTOR` ×
      the most generous bound of theirs. Never `stop`: a peer can be misconfigured or its size
      misread; only physics condemns.
    - `ok`: within that multiple.
    - `n/a`: no machine given, no bytes per token, or no other record of the machine.

    Figures: `machine_peers`, `gb_per_token`, `bound_tok_s`, `ratio_to_bound`, `outlier_factor`.
    The basis names the machine and the records with the most generous bounds by id and source,
    with what each ran, its GB per token and the bound it sets.
    """
    group = ev.peers
    claim = ev.claim
    key = machine_key(claim, ref)
    gb = gb_per_token(claim, ref) if key is not None else None
    if group is None or gb is None or claim.tok_s is None:
        return answer(key="machine_outlier", status="n/a",
                      summary="No other records of the same machine were given to compare with.")
    others = [f for f in group.machine_figures if f.gb_per_token]
    if not others:
        return answer(key="machine_outlier", status="n/a",
                      summary=f"No other batch-1 decode record of this machine ({group.machine}).",
                      figures={"machine_peers": 0})
    value = claim.tok_s
    ranked = sorted(others, key=lambda f: -machine_bound(f, gb))
    bound = machine_bound(ranked[0], gb)
    ratio = value / bound
    n = len(others)
    figures = {"machine_peers": n, "gb_per_token": gb, "bound_tok_s": bound,
               "ratio_to_bound": ratio, "outlier_factor": MACHINE_FACTOR}

    def states(f: PeerFigure) -> str:
        peer_gb = f.gb_per_token or 0.0
        how = (f"no lighter than this record's {gb:.3g}: bound {_g(f.tok_s)} tok/s" if peer_gb <= gb else
               f"{_g(f.tok_s * peer_gb)} GB/s drawn ÷ this record's {gb:.3g} GB = {_g(machine_bound(f, gb))} tok/s")
        return f"reports {_g(f.tok_s)} tok/s of {f.ran} at {peer_gb:.3g} GB per token; {how}"

    basis: list[Basis] = [
        *other_records(f"machine: {group.machine}", ranked, states, "records of this machine", _LISTED),
        formula(f"ratio = {_g(value)} tok/s ÷ the machine's bound {_g(bound)} tok/s = {ratio:.2f}")]
    head = (f"{_g(value)} tok/s at {gb:.3g} GB per token is {ratio:.1f}× the most its machine's "
            f"{n} other record{'s' if n != 1 else ''} allow ({_g(bound)} tok/s)")
    if ratio > MACHINE_FACTOR:
        return answer(key="machine_outlier", status="flag", figures=figures, basis=basis,
                      reason="outlier",
                      label=f"{ratio:.1f}× what {n} other records of its machine allow",
                      summary=f"{head}: more than {MACHINE_FACTOR:g}×, an outlier even below any "
                              "ceiling; a peer can be misconfigured, so suspicious, not condemned.")
    return answer(key="machine_outlier", status="ok", figures=figures, basis=basis,
                  summary=f"{head}: within {MACHINE_FACTOR:g}× of its machine.")
