"""Speculative decoding, batch and offload in plain words, beyond `statements.py`.

Before the statement readers (`read_spec_words`):
- "no draft model", "without a draft", "no SD", "without speculation" are blanked (so the
  statement reader does not take "draft model" for a mention) and mean plain decode unless the
  text also speaks of a draft or a method;
- "with a llama-3.2-1B draft", "+ Qwen3-1.7B draft", "as draft" mean speculative decoding;
- llama.cpp's `--spec-type` names ("ngram-mod", "draft-mtp") name the method.

After them (`read_spec_after`), for what they left empty:
- windows, each with the rule that turned it into tokens per verify pass (k drafted tokens plus
  the one bonus token the target model always emits, as in vLLM's `num_speculative_tokens` and
  llama.cpp's `--draft-max`; SGLang's `num_draft_tokens` and DFlash's block size already count
  the whole window and are read by `statements.py`): "k=3", "γ=4" (the draft length γ of
  Leviathan et al. 2023, https://arxiv.org/abs/2211.17192), "3 speculative tokens",
  "draft length 5", "--draft 8", "n_max=4", TensorRT-LLM's "MTP=3" (next-n layers);
- "bsz=1", "single-batch", "10 concurrency"; llama-batched-bench's "B=32" / "-npl 32" (its S_TG
  sums the B sequences: an aggregate, and the tool cannot speculate);
- offload: "partial offload", "CPU offload", "+ 64GB RAM offload", "--cpu-moe", "-ngl 30" or "30
  GPU layers" (layers on the GPU; 99 or more means every layer), with the system RAM and its bandwidth when stated;
- MoE experts kept in system RAM are offload whatever the layer count says: llama.cpp's tensor
  override to the CPU ("-ot exps=CPU", "--override-tensor down_exps=CPU,gate_exps=CPU",
  `-ot "blk.1[0-9].ffn.*=CPU"`), "--cpu-moe" / "-cmoe" and "--n-cpu-moe N" / "-ncmoe N" with
  N > 0 (ggml-org/llama.cpp `common/arg.cpp`: "keep all Mixture of Experts (MoE) weights in the
  CPU", "keep the MoE weights of the first N layers in the CPU"). "-ngl 99" then only says every
  layer's *other* tensors are on the GPU, so the expert override wins over it;
- memory used on both sides ("VRAM: 17.5G, RAM: 228G", a run's footprint as ik_llama.cpp posts
  print it) is weights split between the card and system RAM: offload; so is a device column
  whose value names both ("CPU/GPU: GPU/CPU", "Device: CPU+GPU").
"""

from __future__ import annotations

import re

from extractors.text.flags import canonical_method
from extractors.text.lazyre import lazy
from extractors.text.scan import Scan
from extractors.text.units import NUM, parse_int, parse_positive

__all__ = ["read_spec_after", "read_spec_words"]

_NEG = lazy(r"(?i)\b(?:no|without(?:\s(?:a|any))?)\s(?:draft(?:er)?(?:\smodel)?|SD|"
                  r"speculation|spec(?:ulative)?[\s-]decod(?:e|ing))\b")
_POS = lazy(r"(?i)\bwith\s(?:an?\s)?(?:[\w.-]{1,40}\s){0,3}(?:as\s)?draft\b|\+\s?[\w.-]{1,40}"
                  r"(?:\s[\w.-]{1,20}){0,2}\sdraft\b|\bas\s(?:the\s)?draft\b|\bdraft(?:er|\smodel)\b|"
                  r"\bspec(?:ulative)?[- ]decod\w*|\b(?:EAGLE|DFlash|MTP|Medusa|n-?gram)")
_SPEC_TYPE = lazy(r"(?i)(?<![\w-])(?:--spec-type[ =])?(?P<t>ngram-(?:mod|cache|simple|map\w*)|"
                        r"draft-mtp|draft-eagle3?)(?![\w-])")
_SPEC_TYPES = {"draft-mtp": "MTP", "draft-eagle": "EAGLE", "draft-eagle3": "EAGLE-3"}
_WINDOWS: list[tuple[re.Pattern[str], str]] = [
    (lazy(r"(?i)(?<![\w-])k\s?=\s?(\d{1,3})(?![\d.])"),
     "k={n} drafted tokens + 1 bonus token = window {w}"),
    (lazy(r"(?:γ|(?i:\bgamma))\s?=\s?(\d{1,3})(?![\d.])"),
     "γ={n} drafted tokens + 1 bonus token = window {w}"),
    (lazy(r"(?i)(?<![\w.])(\d{1,3})\s(?:speculative|draft(?:ed)?)\stokens\b"),
     "{n} speculative tokens + 1 bonus token = window {w}"),
    (lazy(r"(?i)\bdraft\s(?:length|len)\s?(?:[:=]|of|is)?\s?(\d{1,3})(?![\d.])"),
     "draft length {n} + 1 bonus token = window {w}"),
    (lazy(r"(?i)(?<![\w-])--draft(?:-max|-n)?[ =](\d{1,3})\b"),
     "llama.cpp --draft {n} + 1 bonus token = window {w}"),
    (lazy(r"(?i)\bn_max\s?=\s?(\d{1,3})\b"),
     "n_max={n} drafted tokens + 1 bonus token = window {w}"),
    (lazy(r"(?i)\bMTP\s?=\s?(\d{1,2})\b"),
     "TensorRT-LLM MTP={n} next-n tokens + 1 = window {w}"),
]
_BATCH = lazy(r"(?i)\bbsz\s?[:=]?\s?(\d{1,5})(?![\d.])|\bsingle[- ]batch\b")
# llama-batched-bench decodes B sequences at once (`-npl N`, its table's "B" column), and its
# S_TG counts them all (ggml-org/llama.cpp tools/batched-bench/README.md). Named, its "B=32" or
# "-npl 32" is the batch, and an S_TG at no stated B is an aggregate; elsewhere a "b=256" is
# llama-bench's n_batch, the prompt's chunk, no stream count.
_BATCHED_BENCH = lazy(r"(?i)\bbatched[-_ ]bench\b")
_BATCHED_B = lazy(r"(?<![\w-])(?:B\s?[=:]\s?|-npl[ =])(\d{1,4})(?![\d.,])")
_CONC = lazy(r"(?i)(?<![\w.])(\d{1,5})\sconcurrency\b")
_NGL = lazy(r"(?i)(?<![\w-])(?:-ngl|--n-gpu-layers|--gpu-layers|ngl)[ =](\d{1,4})\b|"
                  r"(?<![\w.])(\d{1,4})\sGPU\slayers\b")
_OFFLOAD = lazy(r"(?i)\b(?:partial(?:ly)?\s(?:GPU\s)?offload\w*|(?:CPU|RAM)\soffload\w*|"
                      r"offload\w*\sto\s(?:the\s)?(?:CPU|system\sRAM|RAM)|spill\w*\sto\s(?:system\s)?"
                      r"RAM|hybrid\s(?:CPU|GPU)[/+ ](?:CPU|GPU))|(?<![\w-])--(?:n-)?cpu-moe\b|"
                      r"\+\s?\d{1,4}\s?GB\s(?:of\s)?(?:system\s)?RAM\b|"
                      # a device column whose value names both ("CPU/GPU: GPU/CPU", ollama-benchmark's
                      # README): the run was split between them; the column's own name is no value
                      r":\s?(?:GPU\s?[/+&]\s?CPU|CPU\s?[/+&]\s?GPU)\b(?!\s?:)")
# A tensor override to the CPU (any "…=CPU" after -ot), an expert-tensor name sent to the CPU
# without the flag ("exps=CPU" in a heading), or the MoE-on-CPU switches (N > 0).
_EXPERT_OFFLOAD = lazy(r"(?i)(?<![\w-])(?:-ot|--override-tensor)[ =][\"']?[^\s\"']{0,120}=CPU\b|"
                             r"\bexps[^\s=,]{0,40}=CPU\b|(?<![\w-])(?:--cpu-moe|-cmoe)(?![\w-])|"
                             r"(?<![\w-])(?:--n-cpu-moe|-ncmoe)[ =]0{0,3}[1-9]")
# Memory used on the card and in system RAM, side by side: "VRAM: 17.5G, RAM: 228G".
_SPLIT_USE = lazy(rf"(?i)\bVRAM:?\s?{NUM}\s?Gi?B?,?\s{{1,3}}(?:system\s)?RAM:?\s?{NUM}\s?Gi?B?\b")
_NO_OFFLOAD = lazy(r"(?i)\b(?:no\s(?:CPU\s)?offload\w*|fully\son\s(?:the\s)?GPU|fits\sfully|"
                         r"full\sGPU\soffload)\b")
_RAM = lazy(r"(?i)(?<![\w.])(\d{1,4})\s?GB\s(?:of\s)?(?:system\s)?(?:RAM|DDR\d\w*|memory)\b")
_SYS_BW = lazy(rf"(?i)(?P<v>{NUM})\s?GB/s\b(?=[^.\n]{{0,40}}(?:RAM|DDR|system\smemory))|"
                     rf"(?:RAM|DDR\d?|system\smemory)[^.\n]{{0,40}}?(?P<v2>{NUM})\s?GB/s\b")


def read_spec_words(s: Scan) -> None:
    """Negations and draft mentions the statement reader would misread; spec-type names."""
    negatives = list(s.finditer(_NEG))
    if negatives:  # one pass: blanking match by match would copy the text once per match
        s.text = _NEG.sub(lambda m: " " * len(m.group(0)), s.text)
    if positive := _POS.search(s.text):
        s.set("speculative", True, positive.group(0))
    elif negatives:
        s.set("speculative", False, negatives[0].group(0))
    if spec_type := _SPEC_TYPE.search(s.text):
        method = _SPEC_TYPES.get(spec_type.group("t").lower(), "n-gram")
        s.set("spec_method", canonical_method(method, s.ref), spec_type.group(0))
        s.set("speculative", True, spec_type.group(0))


def read_spec_after(s: Scan) -> None:
    _windows(s)
    if not s.b.has("batch") and (m := _BATCH.search(s.text)):
        s.set("batch", parse_int(m.group(1)) if m.group(1) else 1, m.group(0))
    if not s.b.has("batch") and (named := _BATCHED_BENCH.search(s.text)):
        if not s.b.has("speculative"):  # the tool has no draft option
            s.set("speculative", False, named.group(0))
        if m := _BATCHED_B.search(s.text):
            s.set("batch", parse_int(m.group(1)) or None, m.group(0))
        if s.b.values.get("batch", 0) != 1 and s.b.values.get("tok_s_kind") in (None, "decode"):
            s.b.set("tok_s_kind", "aggregate", span=f"{named.group(0)}: S_TG counts every sequence", overwrite=True)
    if not s.b.has("concurrency") and (m := _CONC.search(s.text)):
        s.set("concurrency", parse_int(m.group(1)) or None, m.group(0))
    _offload(s)


def _windows(s: Scan) -> None:
    if s.b.has("spec_window") or s.b.values.get("speculative") is False:
        return
    spoken_of = s.b.values.get("speculative") or s.b.has("spec_method")
    for pattern, convention in _WINDOWS:
        m = pattern.search(s.text)
        if m is None or (pattern is _WINDOWS[0][0] and not spoken_of):
            continue  # a bare "k=3" is a top-k unless the text speaks of speculation
        n = parse_int(m.group(1))
        if not n:
            continue
        span = " ".join(m.group(0).split())
        s.set("spec_window", n + 1, span)
        s.set("spec_window_convention", convention.format(n=n, w=n + 1), span)
        s.set("speculative", True, span)
        return


def _offload(s: Scan) -> None:
    # Experts in system RAM first: "-ngl 99 -ot exps=CPU" offloads although every layer is "on the GPU".
    if m := (_EXPERT_OFFLOAD.search(s.text) or _SPLIT_USE.search(s.text)):
        s.set("offload", True, m.group(0))
    if m := _NGL.search(s.text):
        layers = parse_int(m.group(1) or m.group(2))
        s.set("gpu_layers", layers, m.group(0))
        if layers is not None and layers >= 99:
            s.set("offload", False, m.group(0))  # llama.cpp's "every layer on the GPU"
    if m := _NO_OFFLOAD.search(s.text):
        s.set("offload", False, m.group(0))
    if m := _OFFLOAD.search(s.text):
        s.set("offload", True, m.group(0))
    if s.b.values.get("offload") is not True:
        return
    if m := _RAM.search(s.text):
        s.set("system_ram_gb", parse_positive(m.group(1)), m.group(0))
    if m := _SYS_BW.search(s.text):
        s.set("system_bandwidth_gbs", parse_positive(m.group("v") or m.group("v2")), m.group(0))
