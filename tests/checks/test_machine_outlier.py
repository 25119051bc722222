"""machine_outlier: a batch-1 decode figure far above what its machine's other records allow, per
byte read, is suspicious, never condemned.

The records are in the shapes the readers give: a LocalScore submission (one RTX 3090 machine
running Llama 3.1 8B, Qwen2.5 14B and Llama 3.2 1B one after another, d893a/localscore-insights
rows 1-3) and the rows of one sweep-bench table of an unnamed rig (ikawrakow/ik_llama.cpp
discussion 354's shape: one model at KV depths 0 … 16384, slower the deeper).
"""

from __future__ import annotations

import pytest

from checks.models import Answer, Claim, Evidence, PeerFigure
from checks.peers import PeerIndex, gb_per_token, machine_key
from checks.reference import Reference
from checks.rules.machine_outlier import MACHINE_FACTOR, machine_bound, machine_outlier
from checks.runner import audit


def _row(model: str, params: float, tok_s: float, record_id: str, **kw: object) -> Claim:
    base: dict[str, object] = {
        "model": model, "params_total_b": params, "weight_format": "Q4_K - Medium",
        "hardware": "NVIDIA GeForce RTX 3090", "engine": "llamafile", "batch": 1, "concurrency": 1,
        "tok_s": tok_s, "tok_s_kind": "decode", "speculative": False, "record_id": record_id,
        "source_url": f"https://example.invalid/localscore_results.tsv#L{record_id}",
        "machine": "submission RTX 3090 | EPYC 7352 | 125.64 GB | Linux | 2025.03.19"}
    base.update(kw)
    return Claim(**base)


SUBMISSION = [_row("Meta Llama 3.1 8B Instruct", 8.0, 103.0, "1"),
              _row("Qwen2.5 14B Instruct", 14.8, 59.9, "2"),
              _row("Llama 3.2 1B Instruct", 1.5, 330.0, "3")]


def _answer(ref: Reference, claim: Claim, others: list[Claim], own_id: str) -> Answer:
    index = PeerIndex.build(((c.record_id or "", c) for c in others), ref)
    return machine_outlier(Evidence(claim=claim, peers=index.peers_of(own_id, claim, ref)), ref, {})


def _scaled(claim: Claim, factor: float) -> Claim:
    return claim.model_copy(update={"tok_s": (claim.tok_s or 0.0) * factor})


@pytest.mark.parametrize(("k", "factor", "status", "bound", "ratio"), [
    # the 8B: heavier than the 1B, so no faster than it (330); x10 is 3.1x that
    (0, 1, "ok", 330.0, 103.0 / 330.0),
    (0, 10, "flag", 330.0, 1030.0 / 330.0),
    # the 14B: x10 is 599, 1.8x the 1B's 330: within the factor (it reads 12x the 1B's bytes)
    (1, 10, "ok", 330.0, 599.0 / 330.0),
    # the 1B: lighter than both, so it draws no more bandwidth than the 14B's 59.9 x 7.385 GB
    (2, 1, "ok", 59.9 * 7.385 / 0.62, 330.0 / (59.9 * 7.385 / 0.62)),
    (2, 10, "flag", 59.9 * 7.385 / 0.62, 3300.0 / (59.9 * 7.385 / 0.62)),
])
def test_each_record_is_bounded_by_its_submissions_other_models(
        ref: Reference, k: int, factor: float, status: str, bound: float, ratio: float) -> None:
    claim = _scaled(SUBMISSION[k], factor)
    a = _answer(ref, claim, SUBMISSION, SUBMISSION[k].record_id or "")
    assert a.status == status
    assert a.figures["machine_peers"] == 2.0
    assert a.figures["bound_tok_s"] == pytest.approx(bound)
    assert a.figures["ratio_to_bound"] == pytest.approx(ratio)
    assert a.figures["outlier_factor"] == MACHINE_FACTOR == 3.0


def test_bytes_per_token_are_the_rooflines_generous_weights(ref: Reference) -> None:
    # params x Q4_K_M's nominal 4.5 bits ÷ 8 (the 1B row's 1.5B is Llama 3.2 1B's sourced count)
    assert [gb_per_token(c, ref) for c in SUBMISSION] == pytest.approx([4.015, 7.385, 0.62])


def test_the_finding_names_the_machine_and_the_records_it_rests_on(ref: Reference) -> None:
    a = _answer(ref, _scaled(SUBMISSION[2], 10), SUBMISSION, "3")
    assert a.reason == "outlier"
    assert a.lines() == [
        "machine: nvidia geforce rtx 3090 ×1, llamafile, decode, dense, batch 1 on submission RTX 3090 | "
        "EPYC 7352 | 125.64 GB | Linux | 2025.03.19",
        "https://example.invalid/localscore_results.tsv#L2: peer 2 reports 59.9 tok/s of Qwen2.5 14B Instruct, "
        "Q4_K - Medium at 7.38 GB per token; 442.4 GB/s drawn ÷ this record's 0.62 GB = 713.5 tok/s",
        "https://example.invalid/localscore_results.tsv#L1: peer 1 reports 103.0 tok/s of Meta Llama 3.1 8B "
        "Instruct, Q4_K - Medium at 4.01 GB per token; 413.5 GB/s drawn ÷ this record's 0.62 GB = 667.0 tok/s",
        "ratio = 3,300 tok/s ÷ the machine's bound 713.5 tok/s = 4.63"]
    assert a.summary.startswith("3,300 tok/s at 0.62 GB per token is 4.6× the most its machine's 2 other "
                                "records allow (713.5 tok/s): more than 3×")


@pytest.mark.parametrize(("peer_gb", "gb", "bound"), [
    (4.0, 4.0, 100.0),  # the same bytes: its own speed
    (2.0, 4.0, 100.0),  # a lighter peer: reading more takes no less time
    (8.0, 4.0, 200.0),  # a heavier peer: its 800 GB/s ÷ 4 GB
])
def test_one_peer_bounds_by_speed_or_by_bandwidth(peer_gb: float, gb: float, bound: float) -> None:
    peer = PeerFigure(record="p", tok_s=100.0, gb_per_token=peer_gb)
    assert machine_bound(peer, gb) == bound


def _sweep(n_kv: int, s_tg: float) -> Claim:
    """A sweep-bench row of an unnamed rig: no hardware, its table as its machine."""
    return Claim(model="Llama 3.1 8B", params_total_b=8.03, weight_format="Q8_0", engine="ik_llama.cpp",
                 batch=1, tok_s=s_tg, tok_s_kind="decode", speculative=False, kv_depth=n_kv,
                 record_id=f"L{n_kv}", machine="discussion 354 | sweep-bench | from line 200")


SWEEP = [_sweep(0, 150.2), _sweep(4096, 121.0), _sweep(16384, 50.9)]


@pytest.mark.parametrize(("k", "factor", "status", "bound"), [
    (2, 1, "ok", 150.2),  # the deepest row against the shallowest: no faster than it
    (2, 10, "flag", 150.2),  # x10 at depth 16384: 3.4x the row at depth 0
    (0, 1, "ok", None),  # the shallowest row is bounded by the deeper ones' bandwidth
])
def test_a_deeper_cache_is_no_faster_than_a_shallower_one(
        ref: Reference, k: int, factor: float, status: str, bound: float | None) -> None:
    a = _answer(ref, _scaled(SWEEP[k], factor), SWEEP, SWEEP[k].record_id or "")
    assert a.status == status
    assert a.figures["machine_peers"] == 2.0
    if bound is not None:
        assert a.figures["bound_tok_s"] == pytest.approx(bound)
    # the KV read at the stated depth adds to the weights: deeper rows read more per token
    assert [gb_per_token(c, ref) for c in SWEEP] == sorted(gb_per_token(c, ref) or 0.0 for c in SWEEP)


@pytest.mark.parametrize(("change", "why"), [
    ({"machine": None}, "no machine named by the caller"),
    ({"batch": 8}, "a batch shares its reads"),
    ({"speculative": True}, "a draft multiplies tokens per byte read"),
    ({"tok_s_kind": "prefill"}, "prompt processing is no decode"),
])
def test_records_that_may_not_compare_have_no_machine(ref: Reference, change: dict[str, object],
                                                      why: str) -> None:
    claim = SUBMISSION[0].model_copy(update=change)
    assert machine_key(claim, ref) is None, why
    a = _answer(ref, claim, SUBMISSION, "me")
    assert (a.status, a.figures) == ("n/a", {})


@pytest.mark.parametrize("change", [
    {"machine": "another submission"}, {"hardware": "NVIDIA GeForce RTX 4090"}, {"offload": True},
    {"gpu_layers": 20}, {"engine": "llama.cpp"}, {"hardware_count": 2},
])
def test_another_machine_or_another_way_of_running_is_no_peer(ref: Reference,
                                                              change: dict[str, object]) -> None:
    claim = _scaled(SUBMISSION[2], 10).model_copy(update=change)
    a = _answer(ref, claim, SUBMISSION, "3")
    assert (a.status, a.figures) == ("n/a", {"machine_peers": 0.0})


def test_dense_and_moe_records_of_one_machine_are_not_compared(ref: Reference) -> None:
    # LocalScore's Qwen3 30B A3B ran at a third of the bandwidth its machine drew for a dense 4B
    moe = _row("Qwen3 30B A3B", 30.5, 43.2, "869")
    assert machine_key(moe, ref) is not None
    a = _answer(ref, _row("Qwen3 4B", 4.4, 117.0, "868"), [moe], "868")
    assert (a.status, a.figures) == ("n/a", {"machine_peers": 0.0})


def test_no_peers_given_is_n_a(ref: Reference) -> None:
    a = machine_outlier(Evidence(claim=SUBMISSION[0]), ref, {})
    assert (a.status, a.figures) == ("n/a", {})


def test_a_fake_below_the_ceiling_is_suspicious_and_the_headline_says_why(ref: Reference) -> None:
    # The same submission on an H100 SXM (3,350 GB/s): the 1B x7 (2,310 tok/s) is under its
    # generous ceiling of 3,350 ÷ 0.62 GB, but 3.2x what the machine's 14B and 8B allow.
    board = [c.model_copy(update={"hardware": "NVIDIA H100 80GB HBM3"}) for c in SUBMISSION]
    index = PeerIndex.build(((c.record_id or "", c) for c in board), ref)
    fake = _scaled(board[2], 7)
    report = audit(Evidence(claim=fake, kind="record"), ref, peers=index.peers_of("3", fake, ref))
    assert report.verdict == "suspicious"
    assert report.question("roofline").status == "ok"
    assert "3.2× what 2 other records of its machine allow" in report.headline
    honest = audit(Evidence(claim=board[2], kind="record"), ref, peers=index.peers_of("3", board[2], ref))
    assert honest.verdict == "consistent"


# ikawrakow/ik_llama.cpp@8337e4cd github-data/discussions/357 (lines 2388-2419): one sweep-bench
# table, Qwen3-235B-A22B on an EPYC 9355, S_TG t/s at N_KV 0 … 15872. Its attention runs on the
# CPU, so the deep rows fall far below what their bytes would allow: 14.13 tok/s at depth 0, 1.32
# at 15872.
DEEP = [(0, 14.13), (512, 10.46), (1536, 7.22), (2560, 4.33), (3072, 3.86), (4096, 3.42), (6144, 2.38),
        (8704, 1.87), (11264, 1.63), (13824, 1.39), (15872, 1.32)]


def _deep(n_kv: int, s_tg: float, **kw: object) -> Claim:
    base: dict[str, object] = {
        "model": "Qwen3-235B-A22B", "hardware": "AMD EPYC 9355", "engine": "ik_llama.cpp", "batch": 1,
        "tok_s": s_tg, "tok_s_kind": "decode", "speculative": False, "kv_depth": n_kv,
        "record_id": f"L{n_kv}", "machine": "discussion 357 | sweep-bench | from line 2386"}
    base.update(kw)
    return Claim(**base)


DEEP_SWEEP = [_deep(n, t) for n, t in DEEP]


@pytest.mark.parametrize("k", range(len(DEEP)))
def test_every_honest_row_of_a_deep_sweep_is_within_its_machine(ref: Reference, k: int) -> None:
    a = _answer(ref, DEEP_SWEEP[k], DEEP_SWEEP, DEEP_SWEEP[k].record_id or "")
    assert a.status == "ok"
    assert a.figures["machine_peers"] == 10.0
    # the same weights at depth 0 … this row's: every row above it in the table
    assert a.figures.get("shallower_peers") == (k or None)


@pytest.mark.parametrize(("k", "typical", "median_row", "old_ratio"), [
    # x10 at 3072 is 2.7x the depth-0 row, within the most generous bound; the upper median of
    # the four shallower rows (4.33, 7.22, 10.46, 14.13) is 10.46, the row at 512: 3.7x
    (4, 10.46, 512, 38.6 / 14.13),
    # x10 at the deepest row is under the depth-0 row's speed; the upper median of the ten
    # shallower rows is 3.86, the row at 3072: 3.4x
    (10, 3.86, 3072, 13.2 / 14.13),
])
def test_a_deep_row_is_bounded_by_the_typical_shallower_row(
        ref: Reference, k: int, typical: float, median_row: int, old_ratio: float) -> None:
    fake = _scaled(DEEP_SWEEP[k], 10)
    value = fake.tok_s or 0.0
    a = _answer(ref, fake, DEEP_SWEEP, fake.record_id or "")
    assert (a.status, a.reason) == ("flag", "outlier_shallower")
    assert a.figures["ratio_to_bound"] == pytest.approx(old_ratio)
    assert a.figures["ratio_to_bound"] < MACHINE_FACTOR
    assert a.figures["typical_bound_tok_s"] == typical
    assert a.figures["ratio_to_typical"] == pytest.approx(value / typical)
    assert a.figures["shallower_peers"] == k
    assert a.lines()[-2:] == [
        f"peer L{median_row}: reports {typical:.1f} tok/s of Qwen3-235B-A22B, format unstated, KV depth "
        f"{median_row}: the upper median of the {k} record(s) of this machine with the same weights at a "
        f"shallower KV cache than this record's {DEEP[k][0]}",
        f"ratio = {value:.1f} tok/s ÷ {typical:.1f} tok/s = {value / typical:.2f}"]
    assert a.label == (f"{value / typical:.1f}× the typical of {k} rows of its machine with the "
                       "same weights at a shallower cache")


def test_one_slow_shallower_row_does_not_condemn_a_deep_one(ref: Reference) -> None:
    # a misread or throttled row at 512 (0.5 tok/s): the upper median of the deepest row's ten
    # shallower rows moves one place, from 3.86 to 3.42, and the honest deepest row stays ok
    rows = [*DEEP_SWEEP[:1], _deep(512, 0.5), *DEEP_SWEEP[2:]]
    a = _answer(ref, rows[-1], rows, "L15872")
    assert a.status == "ok"
    assert a.figures["typical_bound_tok_s"] == 3.42


def test_other_weights_at_a_shallower_depth_set_no_typical_bound(ref: Reference) -> None:
    # three Q8_0 rows of the same machine at shallower depths, at 1.25 tok/s: as the same weights
    # their median would put the 4-bit row at 3072 (3.86) at 3.1x; they read other weights
    others = [_deep(n, 1.25, weight_format="Q8_0", record_id=f"q8-{n}") for n in (0, 512, 1024)]
    a = _answer(ref, DEEP_SWEEP[4], [DEEP_SWEEP[4], *others], "L3072")
    assert a.status == "ok"
    assert a.figures["machine_peers"] == 3.0
    assert "shallower_peers" not in a.figures


def test_an_unknown_model_is_compared_per_byte_with_nothing(ref: Reference) -> None:
    # it may be a MoE, which reads memory at its own rate per byte: its machine has it, but no
    # other model of the machine bounds it
    claim = SUBMISSION[0].model_copy(update={"model": "Mystery 8B", "params_total_b": 8.0})
    key = machine_key(claim, ref)
    assert key is not None and key.moe is None
    a = _answer(ref, claim, SUBMISSION, "me")
    assert (a.status, a.figures) == ("n/a", {"machine_peers": 0.0})
    assert a.summary.endswith("to compare with per byte (its size, or whether it is a MoE, is unknown).")


# ikawrakow/ik_llama.cpp@8337e4cd github-data/discussions/491 (lines 166-169): a sweep-bench table
# whose post names neither the model nor the machine: one run of one model, S_TG t/s at N_KV 0 …
# 12288.
UNNAMED = [Claim(engine="ik_llama.cpp", batch=1, tok_s=t, tok_s_kind="decode", speculative=False,
                 kv_depth=n, record_id=f"L{line}", machine="discussion 491 | sweep-bench | from line 166")
           for line, n, t in ((166, 0, 14.83), (167, 4096, 14.25), (168, 8192, 13.39), (169, 12288, 12.74))]


@pytest.mark.parametrize(("k", "factor", "status", "typical"), [
    (0, 10, "n/a", None),  # the depth-0 row has no shallower row, and no size to compare per byte
    (1, 1, "ok", 14.83),
    (1, 10, "flag", 14.83),  # 142.5 tok/s at 4096 against the 14.83 of the same run at depth 0
    (3, 1, "ok", 14.25),  # the upper median of 14.83, 14.25, 13.39
    (3, 10, "flag", 14.25),
])
def test_a_sweep_of_an_unnamed_model_bounds_its_deeper_rows(
        ref: Reference, k: int, factor: float, status: str, typical: float | None) -> None:
    a = _answer(ref, _scaled(UNNAMED[k], factor), UNNAMED, f"L{166 + k}")
    assert a.status == status
    assert a.figures.get("typical_bound_tok_s") == typical
    assert "bound_tok_s" not in a.figures  # no bytes per token: the per-byte bound is not drawn
    if status == "flag":
        assert a.reason == "outlier_shallower"
        assert a.lines()[0] == ("machine: unnamed hardware, ik_llama.cpp, decode, MoE or dense unknown, "
                                "batch 1 on discussion 491 | sweep-bench | from line 166")


def test_rows_at_one_depth_are_no_sweep(ref: Reference) -> None:
    # discussion 18's shape: one model at 1 … 16 threads, no depth: the rows differ in threads,
    # which the record does not say, so none bounds another
    rows = [Claim(engine="ik_llama.cpp", batch=1, tok_s=t, tok_s_kind="decode", speculative=False,
                  record_id=f"t{n}", machine="discussion 18 | llama-bench | from line 10")
            for n, t in ((1, 40.0), (2, 78.0), (4, 150.0), (8, 260.0), (16, 410.0))]
    a = _answer(ref, rows[-1], rows, "t16")
    assert (a.status, a.figures) == ("n/a", {"machine_peers": 0.0})
