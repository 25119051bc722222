"""llama.cpp `llama-server` responses carrying `timings` (`/completion`, `/v1/completions`,
`/v1/chat/completions`, and the final chunk of a stream), or a bare `timings` object.

Documented in ggml-org/llama.cpp `tools/server/README.md`;
real responses seen in public scripts. `timings`: `cache_n`, `prompt_n`, `prompt_ms`,
`prompt_per_token_ms`, `prompt_per_second`, `predicted_n`, `predicted_ms`,
`predicted_per_token_ms`, `predicted_per_second`, and with a draft model `draft_n`,
`draft_n_accepted`. Around it: `model`, `system_fingerprint` ("b9251-e2b129e1b", build number
and commit), `usage` (OpenAI routes), and on `/completion` `tokens_predicted`,
`tokens_evaluated`, `tokens_cached` and `generation_settings` (with `temperature` and the flat
keys `speculative.n_max`, `speculative.n_min`, `speculative.p_min`).

Mapping, each with its reason:
- `predicted_per_second` is generation time only (prompt processing is timed separately):
  tok_s kind "decode"; `predicted_n` / `predicted_ms` are tokens_generated / wall_seconds.
- `prompt_ms` is the server-side prompt processing time, the TTFT less network and the first
  sample; it is used as ttft_ms and the notes say so.
- `cache_n` tokens came from the prompt cache: `cache_n` > `prompt_n` means most of the prompt
  was never processed in this request (prefill_cached True); `cache_n` 0 means nothing was.
- `draft_n` / `draft_n_accepted` give drafted / accepted tokens, the acceptance rate and the
  ratio; the number of draft rounds is not reported, so the acceptance length stays unknown.
  The window is `speculative.n_max` + 1 (llama.cpp draft max + 1), set only when drafting
  happened: `generation_settings` lists `speculative.n_max` (default 16) even with no draft model.
- No `draft_n` key: `speculative` stays unknown (older builds omit it).
- One response is one request; other slots may have run beside it, so batch is not set.
"""

from __future__ import annotations

from typing import Any, ClassVar

from checks.models import Claim
from extractors.builder import ClaimBuilder
from extractors.document import RawDocument
from extractors.errors import InvalidInput
from extractors.formats.base import ToolOutputFormat
from extractors.formats.common import (
    MISSING,
    Notes,
    count,
    dig,
    fmt,
    number,
    positive,
    text,
)

__all__ = ["LlamaServerTimings"]

_TIMING_KEYS = ("predicted_per_second", "predicted_n", "predicted_ms")


class LlamaServerTimings(ToolOutputFormat):
    name: ClassVar[str] = "llama_server"
    label: ClassVar[str] = "llama-server"
    not_ours: ClassVar[str] = "not a llama-server response with timings"

    def _find(self, data: Any) -> tuple[dict[str, Any], str] | None:
        """The timings object and its key path prefix ("timings." or "" for a bare one)."""
        if not isinstance(data, dict):
            return None
        inner = data.get("timings")
        if isinstance(inner, dict) and any(k in inner for k in _TIMING_KEYS):
            return inner, "timings."
        if "predicted_per_second" in data and any(k in data for k in ("predicted_n", "prompt_n")):
            return data, ""
        return None

    def _claims(self, doc: RawDocument, data: Any, found: Any) -> list[Claim]:
        t, pre = found
        top: dict[str, Any] = data if pre else {}
        b = ClaimBuilder(doc.source)
        notes = Notes()

        n_out = count(t.get("predicted_n"))
        ms_out = positive(t.get("predicted_ms"))
        raw = t.get("predicted_per_second")
        tok_s = positive(raw)
        if tok_s is not None:
            b.set("tok_s", tok_s, field=pre + "predicted_per_second")
        elif raw is None and n_out and ms_out:
            b.set("tok_s", n_out / ms_out * 1000.0,
                  field=f"{pre}predicted_n/{pre}predicted_ms")
        else:
            raise InvalidInput(f"{doc.source}: llama-server timings have no usable "
                               f"predicted_per_second (got {raw!r})")
        b.set("tok_s_kind", "decode", field=pre + "predicted_per_second")
        b.set("tokens_generated", n_out, field=pre + "predicted_n")
        b.set("output_tokens", n_out, field=pre + "predicted_n")
        if ms_out is not None:
            b.set("wall_seconds", ms_out / 1000.0, field=pre + "predicted_ms")

        self._prompt(b, t, pre, notes)
        self._draft(b, t, top, pre, notes)

        b.set("engine", "llama.cpp", field=f"({self.name})")
        b.set("engine_version", text(top.get("system_fingerprint")), field="system_fingerprint")
        b.set("model", text(top.get("model")), field="model")
        temp = number(dig(top, "generation_settings", "temperature"))
        b.set("temperature", temp, field="generation_settings.temperature")
        notes.apply(b)
        return [b.build()]

    @staticmethod
    def _prompt(b: ClaimBuilder, t: dict[str, Any], pre: str, notes: Notes) -> None:
        prompt_n = count(t.get("prompt_n"))
        cache_n = count(t.get("cache_n"))
        prompt_ms = number(t.get("prompt_ms"))
        if prompt_n is not None:
            total = prompt_n + (cache_n or 0)
            field = f"{pre}prompt_n+{pre}cache_n" if cache_n else pre + "prompt_n"
            b.set("input_tokens", total, field=field)
        if prompt_ms is not None:
            b.set("ttft_ms", prompt_ms, field=pre + "prompt_ms")
            b.set("ttft_empty", False, field=pre + "prompt_ms")
            notes.add("TTFT is the server-side prompt_ms (prompt processing time)",
                      pre + "prompt_ms")
        elif "prompt_ms" in t and t["prompt_ms"] is None:
            b.set("ttft_empty", True, field=pre + "prompt_ms")
        pps = positive(t.get("prompt_per_second"))
        if pps is not None:
            notes.add(f"prompt processing {fmt(pps)} tok/s over {prompt_n} tokens",
                      pre + "prompt_per_second")
        if cache_n is not None and prompt_n is not None:
            if cache_n == 0:
                b.set("prefill_cached", False, field=pre + "cache_n")
            elif cache_n > prompt_n:
                b.set("prefill_cached", True, field=f"{pre}cache_n, {pre}prompt_n")
                notes.add(f"{cache_n} of {cache_n + prompt_n} prompt tokens came from the "
                          f"prompt cache; only {prompt_n} were processed", pre + "cache_n")
            else:
                notes.add(f"{cache_n} prompt tokens came from the prompt cache",
                          pre + "cache_n")

    @staticmethod
    def _draft(b: ClaimBuilder, t: dict[str, Any], top: dict[str, Any], pre: str,
               notes: Notes) -> None:
        if "draft_n" not in t:
            return
        drafted = count(t.get("draft_n"))
        accepted = count(t.get("draft_n_accepted"))
        if not drafted:
            if drafted == 0:
                notes.add("draft_n 0: no draft tokens proposed", pre + "draft_n")
            return
        b.set("speculative", True, field=pre + "draft_n")
        b.set("drafted_tokens", drafted, field=pre + "draft_n")
        if accepted is not None:
            b.set("accepted_tokens", accepted, field=pre + "draft_n_accepted")
            b.set("acceptance_rate", accepted / drafted,
                  field=f"{pre}draft_n_accepted/{pre}draft_n")
            b.set("ratios", [(accepted, drafted)], field=f"{pre}draft_n_accepted/{pre}draft_n")
        n_max = count(dig(top, "generation_settings", "speculative.n_max"), allow_zero=False)
        if n_max is not None:
            b.set("spec_window", n_max + 1, field="generation_settings.speculative.n_max")
            b.set("spec_window_convention", "llama.cpp draft max + 1",
                  field="generation_settings.speculative.n_max")
        notes.add("draft rounds not reported: acceptance length unknown", pre + "draft_n")
        if dig(top, "generation_settings", "speculative.p_min") is not MISSING:
            p_min = number(dig(top, "generation_settings", "speculative.p_min"))
            if p_min is not None:
                notes.add(f"speculative.p_min {fmt(p_min)}",
                          "generation_settings.speculative.p_min")
