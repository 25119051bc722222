"""machine_outlier: a figure far above what its machine's other records allow, per byte read.

The check function's docstring is its documentation (rendered into docs/checks.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from checks.basis import answer, formula, note, other_record, other_records
from checks.models import Answer, Basis, Evidence, PeerFigure
from checks.peers import machine_gb_per_token, machine_key, weights_of
from checks.reference import Reference

__all__ = ["MACHINE_FACTOR", "machine_bound", "machine_outlier"]

# Above this multiple of the bound its machine's other records set a figure is an outlier. Picked
# on the calibration split of benchmarks/corpus (12 public sources; `python -m
# benchmarks.calibrate` prints the honest distribution per source): of 2,642 honest records with
# another record of their machine the median is 0.88× the bound, the 99th percentile 1.06×, the
# highest 2.05× (an ik_llama.cpp sweep-bench row at N_KV 0 of DeepSeek-V2-Lite on a CPU, bounded by
# its table's deeper rows whose MLA cache the KV count leaves out) and the next 2.03× (a LocalScore
# submission); 3 leaves the highest a margin of 1.46 and catches 2,378 of the 3,837 x10 fakes.
# The same factor bounds a row by the upper median of its shallower rows of the same weights: of the
# 1,703 honest records with such rows the median is 0.95× it, the 99th percentile 1.02×, the
# highest 1.10× (an ik_llama.cpp sweep-bench row, discussion 258).
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

    A second bound is tighter where the machine ran the same weights at several KV depths (a
    sweep-bench table): each row of the same weights at a strictly shallower cache is no slower
    than this record (the same kernels over the same bytes plus a smaller cache), and the upper
    median of their speeds is what a typical one of them allows. It needs neither the model's
    size nor whether it is a MoE: the rows of one sweep of an unnamed model bound each other.
    Rows at the same depth never do (a table varying threads or builds at one depth is no sweep).
    A CPU's attention over a deep cache is compute-bound, so its deep rows draw far less bandwidth
    than their bytes allow and the bandwidth bound of the first kind is loose there; the median
    keeps one slow or misread row from pulling the bound down.

    The machine's other records are given by the caller (`checks.runner.audit(peers=...)`,
    `PeerGroup.machine_figures`, built by `checks.peers.PeerIndex`): only records that ran on one
    machine for sure — the same `Claim.machine` (one table of one post, one LocalScore
    submission) and the same hardware as written and card count — with the same tool and kind of
    figure, at batch 1, never speculative, dense and MoE apart, never across an offload or
    GPU-layers change (`checks.peers.machine_key`); a record of unknown size, or not known to be
    dense or a MoE, is compared only with its own weights' rows. Bytes per token are the
    roofline's generous figures (`checks.peers.gb_per_token`: weights from the file size or
    params × nominal bits, active params of a MoE, plus the KV at a stated depth at the smallest
    cache type).

    Statuses:
    - `flag`: at least one other record of the machine and the figure above `MACHINE_FACTOR` ×
      the most generous bound of theirs (reason `outlier`), or above `MACHINE_FACTOR` × the
      upper median of its shallower rows of the same weights (`outlier_shallower`). Never
      `stop`: a peer can be misconfigured or its size misread; only physics condemns.
    - `ok`: within that multiple.
    - `n/a`: no machine given, or no other record of the machine to compare with (per byte, or
      of the same weights at a shallower cache).

    Figures: `machine_peers`, `outlier_factor`; where the size is known, `gb_per_token`,
    `bound_tok_s`, `ratio_to_bound`; where rows of the same weights at a shallower cache exist,
    `shallower_peers`, `typical_bound_tok_s` and `ratio_to_typical`. The basis names the machine and the records with
    the most generous bounds by id and source, with what each ran, its GB per token and the bound
    it sets, and the row whose speed is the upper median.
    """
    group = ev.peers
    claim = ev.claim
    key = machine_key(claim, ref)
    if group is None or key is None or claim.tok_s is None:
        return answer(key="machine_outlier", status="n/a",
                      summary="No other records of the same machine were given to compare with.")
    value = claim.tok_s
    # Per byte only where the size and whether the model is a MoE are known.
    gb = machine_gb_per_token(claim, key, ref)
    others = [f for f in group.machine_figures if f.gb_per_token] if gb is not None else []
    # The same weights at a strictly shallower KV depth: the same kernels over the same bytes
    # plus a smaller cache, so each is no slower than this record, whatever its size or kind of
    # model. Their upper median is what a typical one of them allows: one slow or misread row
    # cannot pull it down, and a sweep's deep row is bounded by its shallower rows, not only by
    # the fast row at depth 0. Rows at the same depth stay out (a table varying threads or builds
    # at one depth is no sweep), and so do other weights: across formats a CPU's dequantisation
    # cost differs (a lighter IQ2 row can be slower than a heavier Q4_0 one), which the most
    # generous bound absorbs.
    depth = claim.kv_depth or 0
    weights = weights_of(claim, ref)
    shallower = sorted((f for f in group.machine_figures if depth > 0 and f.weights == weights
                        and (f.kv_depth or 0) < depth), key=lambda f: f.tok_s)
    if not others and not shallower:
        why = "" if gb is not None else " per byte (its size, or whether it is a MoE, is unknown)"
        return answer(key="machine_outlier", status="n/a",
                      summary=f"No other batch-1 decode record of this machine ({group.machine}) to compare "
                              f"with{why}.",
                      figures={"machine_peers": len(others)})
    figures: dict[str, float | int] = {"machine_peers": len(others)}
    basis: list[Basis] = []
    heads: list[str] = []
    ratio = 0.0
    n = len(others)
    if others and gb is not None:
        ranked = sorted(others, key=lambda f: -machine_bound(f, gb))
        bound = machine_bound(ranked[0], gb)
        ratio = value / bound
        figures.update(gb_per_token=gb, bound_tok_s=bound, ratio_to_bound=ratio)

        def states(f: PeerFigure) -> str:
            peer_gb = f.gb_per_token or 0.0
            how = (f"no lighter than this record's {gb:.3g}: bound {_g(f.tok_s)} tok/s" if peer_gb <= gb else
                   f"{_g(f.tok_s * peer_gb)} GB/s drawn ÷ this record's {gb:.3g} GB = "
                   f"{_g(machine_bound(f, gb))} tok/s")
            return f"reports {_g(f.tok_s)} tok/s of {f.ran} at {peer_gb:.3g} GB per token; {how}"

        basis += [
            *other_records(f"machine: {group.machine}", ranked, states, "records of this machine", _LISTED),
            formula(f"ratio = {_g(value)} tok/s ÷ the machine's bound {_g(bound)} tok/s = {ratio:.2f}")]
        heads.append(f"{_g(value)} tok/s at {gb:.3g} GB per token is {ratio:.1f}× the most its machine's "
                     f"{n} other record{'s' if n != 1 else ''} allow ({_g(bound)} tok/s)")
    figures["outlier_factor"] = MACHINE_FACTOR
    typical = shallower[len(shallower) // 2] if shallower else None  # the upper median
    typical_ratio = value / typical.tok_s if typical is not None else 0.0
    k = len(shallower)
    if typical is not None:
        figures.update(shallower_peers=k, typical_bound_tok_s=typical.tok_s, ratio_to_typical=typical_ratio)
        if not others:
            basis.append(note(f"machine: {group.machine}"))
        basis += [
            other_record(typical.record, typical.source,
                         f"reports {_g(typical.tok_s)} tok/s of {typical.ran}: the upper median of the "
                         f"{k} record(s) of this machine with the same weights at a shallower KV cache "
                         f"than this record's {depth}"),
            formula(f"ratio = {_g(value)} tok/s ÷ {_g(typical.tok_s)} tok/s = {typical_ratio:.2f}")]
        heads.append(f"{'' if heads else _g(value) + ' tok/s is '}{typical_ratio:.1f}× the upper median "
                     f"({_g(typical.tok_s)} tok/s) of the {k} record{'s' if k != 1 else ''} of its machine "
                     "with the same weights at a shallower KV cache, which are no slower than it")
    head = ", and ".join(heads)
    verdict = "an outlier even below any ceiling; a peer can be misconfigured, so suspicious, not condemned."
    if ratio > MACHINE_FACTOR:
        return answer(key="machine_outlier", status="flag", figures=figures, basis=basis,
                      reason="outlier",
                      label=f"{ratio:.1f}× what {n} other records of its machine allow",
                      summary=f"{head}: more than {MACHINE_FACTOR:g}×, {verdict}")
    if typical_ratio > MACHINE_FACTOR:
        return answer(key="machine_outlier", status="flag", figures=figures, basis=basis,
                      reason="outlier_shallower",
                      label=f"{typical_ratio:.1f}× the typical of {k} rows of its machine with the same "
                            "weights at a shallower cache",
                      summary=f"{head}: more than {MACHINE_FACTOR:g}×, {verdict}")
    return answer(key="machine_outlier", status="ok", figures=figures, basis=basis,
                  summary=f"{head}: within {MACHINE_FACTOR:g}× of its machine.")
