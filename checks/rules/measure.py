"""Q8 measure: the experiment plan (documented on `measure`)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from checks.basis import answer, difference, note, row, step
from checks.models import Answer, Basis, Claim, Difference, Evidence, Step
from checks.parsing import join_words, parsed
from checks.reference import Reference
from checks.render import reason_text
from checks.rules.fork import canonical_engine, split_engine

__all__ = ["measure"]

DISCIPLINE = "an inferred candidate list is an experiment plan, not a conclusion"  # seed §7
# z-lab's DFlash drafters ship trained at block 16 (z-lab/Qwen3.5-4B-DFlash model card; NVIDIA's
# ModelOpt drafter uses block 8, NVIDIA/Model-Optimizer PR #1211); used when the method row lists
# no published windows.
DEFAULT_PUBLISHED_WINDOW = 16
# Q7's figures copied into the plan (names as checks/rules/roofline.py writes them).
ROOFLINE_FIGURES = (
    "ceiling_tok_s",
    "realistic_ceiling_tok_s",
    "honest_low_tok_s",
    "honest_high_tok_s",
)
# KV-cache dtypes that are the engines' defaults: not a difference from the baseline.
DEFAULT_KV = ("auto", "bf16", "bfloat16", "fp16", "float16", "f16")
# Power loggers per vendor, sampling every 100 ms during each run.
POWER_NVIDIA = "nvidia-smi --query-gpu=power.draw --format=csv -lms 100"
POWER_AMD = "rocm-smi --showpower"  # poll in a loop alongside the run
POWER_APPLE = "sudo powermetrics --samplers gpu_power -i 100"
# Real tasks with published AL (seed §2: GSM8K, MATH-500, MBPP, HumanEval).
DFLASH_TASK = "python -m dflash.benchmark --dataset gsm8k"
# llama.cpp flags that only exist for speculative decoding.
LLAMA_DRAFT_FLAGS = {
    "-md",
    "--model-draft",
    "--draft-max",
    "--draft",
    "--draft-min",
    "--draft-p-min",
    "-ngld",
    "--gpu-layers-draft",
    "-devd",
    "--device-draft",
    "-cd",
    "--ctx-size-draft",
}
WINDOW_FLAGS = ("--speculative-num-draft-tokens", "--speculative-dflash-block-size")


def _strip_speculative(tokens: Sequence[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for i, tok in enumerate(tokens):
        if skip:
            skip = False
            continue
        flag = tok.split("=", 1)[0]
        if flag.startswith("--speculative") or flag in LLAMA_DRAFT_FLAGS:
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            skip = "=" not in tok and nxt is not None and not nxt.startswith("-")
            continue
        out.append(tok)
    return out


def _set_window(tokens: Sequence[str], window: int) -> list[str]:
    out = list(tokens)
    for i, tok in enumerate(out):
        if tok in WINDOW_FLAGS and i + 1 < len(out):
            out[i + 1] = str(window)
        elif tok.split("=", 1)[0] in WINDOW_FLAGS:
            out[i] = f"{tok.split('=', 1)[0]}={window}"
        elif tok in ("--draft-max",) and i + 1 < len(out):
            out[i + 1] = str(window - 1)  # llama.cpp: window = draft max + 1 (the bonus token)
        elif tok.startswith("{") and "num_speculative_tokens" in tok:
            try:
                cfg = json.loads(tok)
            except ValueError:
                continue
            cfg["num_speculative_tokens"] = window - 1  # vLLM: window = num_speculative_tokens + 1
            out[i] = json.dumps(cfg)
    return out


# A board repeats its launch templates, and quoting a command back is most of Q8's time.
@lru_cache(maxsize=1024)
def _plain_line(tokens: tuple[str, ...]) -> str:
    """The launch command without its speculative flags, as one shell line."""
    return join_words(_strip_speculative(tokens))


@lru_cache(maxsize=1024)
def _window_line(tokens: tuple[str, ...], window: int) -> str:
    """The launch command at draft window `window`, as one shell line."""
    return join_words(_set_window(tokens, window))


def _model_arg(c: Claim, tokens: Sequence[str] | None) -> str:
    if tokens:
        for flag in ("--model-path", "--model", "-m"):
            if flag in tokens[:-1]:
                return tokens[tokens.index(flag) + 1]
        if "serve" in tokens[:-1]:
            return tokens[tokens.index("serve") + 1]
    return c.model or "<model>"


def _engine_in(tokens: Sequence[str] | None) -> str | None:
    """The engine a launch command runs, when the claim does not name it."""
    head = " ".join((tokens or [])[:4]).lower()
    for stem, engine in (("sglang", "SGLang"), ("vllm", "vLLM"), ("llama-", "llama.cpp")):
        if stem in head:
            return engine
    return None


def _commands(c: Claim, window: int | None,
              tokens: Sequence[str] | None) -> tuple[str, str | None, str]:
    """(plain-decode server/bench command, speculative command at `window`, benchmark command);
    `tokens`: the launch command's words (None: no command, or quotes unbalanced: templates)."""
    engine = canonical_engine(c.engine) if c.engine else _engine_in(tokens)
    model = _model_arg(c, tokens)
    drafter = c.drafter_model or "<drafter>"
    batch = c.concurrency or c.batch or 1
    if tokens and engine in ("SGLang", "vLLM", "llama.cpp"):
        base = _plain_line(tuple(tokens))
        spec = _window_line(tuple(tokens), window) if window and c.speculative else None
    elif engine == "vLLM":
        base = f"vllm serve {model}"
        spec = None
        if window:
            cfg = json.dumps(
                {
                    "method": (c.spec_method or "<method>").lower(),
                    "model": drafter,
                    "num_speculative_tokens": window - 1,
                }
            )
            spec = f"vllm serve {model} --speculative-config '{cfg}'"
    elif engine == "llama.cpp":
        base = f"llama-bench -m {model} -p 0 -n 128"
        spec = f"llama-server -m {model} -md {drafter} --draft-max {window - 1}" if window else None
    else:
        base = f"python -m sglang.launch_server --model-path {model}"
        spec = None
        if window:
            spec = (
                f"{base} --speculative-algorithm {(c.spec_method or '<METHOD>').upper()} "
                f"--speculative-draft-model-path {drafter} --speculative-num-draft-tokens {window}"
            )
    if engine == "vLLM":
        bench = f"vllm bench serve --model {model} --dataset-name sharegpt --max-concurrency {batch} --num-prompts 64"
    elif engine == "llama.cpp":
        bench = f"llama-bench -m {model} -p 0 -n 128"
    else:
        bench = (
            f"python -m sglang.bench_serving --backend sglang --dataset-name sharegpt "
            f"--max-concurrency {batch} --num-prompts 64"
        )
    return base, spec, bench


_APPLE = re.compile(r"\b(m[1-5]|apple)\b")
_AMD = re.compile(r"\b(mi\d{3}|radeon|rx ?\d{4}|amd|strix)")


def _power_cmd(ev: Evidence, ref: Reference) -> str:
    hw = ref.gpu(ev.claim.hardware)
    name = (ev.claim.hardware or "").lower()
    if (hw is not None and hw.kind == "unified") or _APPLE.search(name):
        return POWER_APPLE
    if _AMD.search(name):
        return POWER_AMD
    return POWER_NVIDIA


def measure(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """Q8 measure: once the first seven pass, go measure.

    Seed, section 8: "Eight, once the first seven pass, go measure. A difference list is an
    experiment plan, and the measured ledger rarely looks like the list." Section 7: "An inferred
    candidate list is an experiment plan, not a conclusion."

    - `plan`, always. The nearest trusted reference is plain autoregressive decode of the same model
      and weight format on the same box (the seed's 79 tok/s control), bounded by Q7's realistic
      ceiling when the roofline computed one. The claim is compared with it knob by knob (the knob
      names of `checks.compare`); each difference becomes one single-variable experiment with the
      command to run it. When any earlier answer is `stop`, the summary says the number is dead and
      what to measure instead: the real baseline, then the method at its published window on a real
      task.

    Where the plan lives (a decision): `differences` holds the typed difference list (knob, the
    claim's setting, the reference's) and `steps` the experiments in run order (the knob each
    changes, what to run), rendered as "difference: …" then "experiment N: …" lines
    (checks.render.plan_lines); `basis` holds what stopped the number, the published windows and
    the discipline line; `figures` holds `experiments`, `differences`,
    `published_window` and, copied from Q7, `ceiling_tok_s`, `realistic_ceiling_tok_s` and the honest
    range `honest_low_tok_s` / `honest_high_tok_s` when Q7 computed them; `missing`
    names what the commands had to leave as placeholders (model, hardware, drafter).

    Reads the speculative-method row (`published_windows`) and the hardware row (`kind`, to choose
    the power logger); reads `prior["roofline"].figures` and every prior status.
    """
    c = ev.claim
    dead = [k for k, a in prior.items() if a.status == "stop"]
    roof = prior.get("roofline")
    from_q7 = {
        k: roof.figures[k] for k in ROOFLINE_FIGURES if roof is not None and k in roof.figures
    }
    realistic = from_q7.get("realistic_ceiling_tok_s")
    method = ref.method(c.spec_method) if c.spec_method else None
    method_name = method.name if method else (c.spec_method or "the speculative method")
    is_spec = bool(c.speculative or c.spec_method)
    windows = method.published_windows if method and method.published_windows else []
    published = (
        DEFAULT_PUBLISHED_WINDOW
        if DEFAULT_PUBLISHED_WINDOW in windows or not windows
        else max(windows)
    )
    published_w = published if is_spec else None
    words = parsed(ev).words
    base, spec_published, bench = _commands(c, published_w, words)
    power = _power_cmd(ev, ref)
    streams = max([n for n in (c.batch, c.concurrency) if n is not None], default=None)
    where = " on ".join(x for x in (c.model, c.hardware) if x) or "the same model on the same box"
    fmt = f" {c.weight_format}" if c.weight_format else ""

    # Each step and difference is built from strings chosen here, already valid (checks.basis.step, difference).
    differences: list[Difference] = []
    experiments: list[Step] = []
    ceiling = (
        f"; expect at most the realistic ceiling of {realistic:.0f} tok/s (Q7)" if realistic else ""
    )
    experiments.append(step(knob=None, run=
        f"plain decode of {where}{fmt}, batch 1, no speculative flags: `{base}`, measured with "
        f"`{bench}`; log power with `{power}`{ceiling}"
    ))
    if is_spec:
        differences.append(difference(knob="spec_method", claimed=method_name, reference="none (plain decode)"))
        if method is not None and method.name == "DFlash":
            task = f"`{DFLASH_TASK}`"
        else:
            task = f"`{bench}` on real prompts (GSM8K, MT-Bench)"
        experiments.append(step(knob="spec_method", run=
            f"{method_name} at its published window {published} on a real task: "
            f"`{spec_published or base}`, then {task}; record AL, tok/s and power"
            + (
                f"; expect inside the honest range {from_q7['honest_low_tok_s']:.0f}–"
                f"{from_q7['honest_high_tok_s']:.0f} tok/s (Q7)"
                if "honest_low_tok_s" in from_q7 and "honest_high_tok_s" in from_q7
                else ""
            ))
        )
        if c.spec_window is not None and c.spec_window != published:
            differences.append(difference(knob="spec_window", claimed=str(c.spec_window), reference=f"published {published}"))
            experiments.append(step(knob="spec_window", run=
                f"only the window changes, {published} -> {c.spec_window}, same real task: "
                f"`{_commands(c, c.spec_window, words)[1] or base}`"  # the claimed window's command: only here
            ))
    if c.prefix_caching or c.prefill_cached or c.ttft_empty:
        differences.append(difference(knob="prefix_caching", claimed="prefill cached / TTFT empty", reference="prefill counted"))
        experiments.append(step(knob="prefix_caching", run=
            "same config with prefix caching off (SGLang --disable-radix-cache, "
            "vLLM --no-enable-prefix-caching), fresh prompts, report TTFT and end-to-end tok/s"
        ))
    if c.kv_dtype and c.kv_dtype.lower() not in DEFAULT_KV:
        differences.append(difference(knob="kv_dtype", claimed=c.kv_dtype, reference="the engine default"))
        experiments.append(step(knob="kv_dtype", run=f"only --kv-cache-dtype changes, default -> {c.kv_dtype}"))
    fork = prior.get("fork")
    if fork is not None and fork.status == "flag":
        differences.append(difference(knob="engine_version", claimed=str(c.engine_version or c.engine), reference="the official release"))
        experiments.append(step(knob="engine_version", run=
            f"the same config on the official release of {split_engine(c.engine)[0] or 'the engine'} "
            f"(not {c.engine_version or 'the fork'}); the fork's share is the difference"
        ))
    if (streams is not None and streams > 1) or c.serving_claim:
        differences.append(difference(knob="batch", claimed=str(streams or 1), reference="1"))
        experiments.append(step(knob="batch", run=
            "concurrency sweep 1, 8, 32 with and without speculative decoding "
            "(the same draft model can flip from speedup to net loss under high concurrency)"
        ))
    if c.power_profile:
        differences.append(difference(knob="power_profile", claimed=c.power_profile, reference="default board power"))
        experiments.append(step(knob="power_profile", run=
            f"only the power limit changes, default -> {c.power_profile}"
        ))
    if c.tok_s_kind in ("total", "aggregate", "per_gpu", "prefill"):
        differences.append(difference(knob="tok_s_kind", claimed=c.tok_s_kind, reference="decode"))
        experiments.append(step(knob="tok_s_kind", run=
            f"report output-token decode tok/s beside the {c.tok_s_kind} figure"
        ))

    figures: dict[str, float] = {"experiments": len(experiments), "differences": len(differences)}
    if published_w:
        figures["published_window"] = published_w
    figures.update(from_q7)
    missing = [
        m for m, v in (("model", c.model or c.launch_command), ("hardware", c.hardware)) if not v
    ]
    if is_spec and not c.drafter_model and not c.launch_command:
        missing.append("drafter model")

    if dead:
        then = f", then {method_name} at block {published} on a real task" if is_spec else ""
        summary = (
            f"the number is dead ({', '.join(dead)}: stop); measure instead plain decode on the same box{then}; "
            f"{DISCIPLINE}."
        )
    else:
        knobs = ", ".join(d.knob for d in differences)
        expect = f", expect at most the realistic {realistic:.0f} tok/s" if realistic else ""
        summary = (
            f"{len(experiments)} single-variable experiments against plain decode on the same box "
            f"(differences: {knobs}); {DISCIPLINE}."
            if differences
            else f"no knob departs from plain decode: reproduce it on the same box{expect}; {DISCIPLINE}."
        )
    # The plan is data (`differences`, `steps`); its lines are rendered from it
    # (checks.render.plan_lines), so the basis holds only what the plan rests on.
    basis: list[Basis | str] = []
    if dead:
        basis.append(note(f"stopped by: {', '.join(f'{k} ({reason_text(prior[k])})' for k in dead)}"))
    if method is not None:
        basis.append(row(method, f"published windows {'/'.join(str(w) for w in windows) or 'none'}"))
    basis.append(note(f"discipline: {DISCIPLINE} (seed §7)"))
    return answer(
        key="measure", status="plan", summary=summary, figures=figures, missing=missing, basis=basis,
        reason="dead" if dead else "plan", differences=differences, steps=experiments,
    )
