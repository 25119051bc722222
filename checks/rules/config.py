"""Q2 config: the check for the page with the real config (documented on `config`)."""

from __future__ import annotations

from collections.abc import Mapping

from checks.basis import answer, field
from checks.models import Answer, Basis, Evidence
from checks.reference import Reference

__all__ = ["config"]

# Sources that can hold a config (models.SourceKind); a post or a page is not one.
CONFIG_SOURCE_KINDS = ("record", "config", "tool-output", "log")
# Settings a tool output or log records about itself (llama-bench JSON, vLLM bench JSON).
SETTING_FIELDS = (
    "engine_version",
    "weight_format",
    "kv_dtype",
    "spec_method",
    "spec_window",
    "prefix_caching",
    "container_image",
    "temperature",
    "power_profile",
)
# A tool output needs this many recorded settings to count as its own config.
MIN_SETTINGS = 2
# What a full config would hold: the seed's author published all of these (seed §1).
FULL_CONFIG = ("launch command", "runtime notes", "engine version", "record URL")


def _where(ev: Evidence) -> str | None:
    src = next((s for s in ev.sources if s.kind in CONFIG_SOURCE_KINDS), None)
    if src is not None:
        label = src.format or src.kind
        return f"{label}: {src.final_url or src.url}"
    c = ev.claim
    if c.source_url:
        return c.source_url
    for name in ("launch_command", "notes", "env"):
        p = c.provenance.get(name)
        if p is not None:
            return p.source
    return None


def config(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """Q2 config: which page has the real config?

    Seed, section 8: "Two, which page has the real config. Viral posts are often just traffic for
    some leaderboard, and the real config lives over there."

    - `ok`: the record behind the claim holds a launch command, runtime notes or env vars; the
      summary says which and where ("launch command + runtime notes (https://board…/r-56)"). A tool
      output or log that records its own settings (engine version, weight format, …) without a launch
      command is also `ok`, saying so.
    - `unanswerable`: links were followed (or a record was found) but no config was in it — the summary
      and `missing` list what was searched (`ev.not_found`); or a pasted claim with no config at all
      ("no launch command, engine flags or record found").

    Reads no reference rows.
    """
    c = ev.claim
    where = _where(ev)
    held = [
        name
        for name, present in (
            ("launch command", c.launch_command),
            ("runtime notes", c.notes),
            ("env vars", c.env),
        )
        if present
    ]
    settings = [f for f in SETTING_FIELDS if getattr(c, f) is not None]
    basis: list[Basis | str] = [field(c, f) for f in ("launch_command", "notes", "env") if getattr(c, f)]
    if where:
        basis.insert(0, f"record: {where}")

    if held:
        lacking = [x for x in ("launch command", "runtime notes") if x not in held]
        return answer(
            key="config",
            status="ok",
            summary=" + ".join(held)
            + (f" ({where})" if where else " (in the input)")
            + (f"; no {' or '.join(lacking)}" if lacking else "")
            + ".",
            missing=lacking,
            basis=basis,
        )
    if ev.kind in ("tool-output", "log", "config") and len(settings) >= MIN_SETTINGS:
        return answer(
            key="config",
            status="ok",
            summary=f"the {ev.kind} records its own settings ({', '.join(s.replace('_', ' ') for s in settings)}) "
            "but no launch command.",
            missing=["launch command"],
            basis=[*basis, *(field(c, s) for s in settings)],
        )
    searched = list(ev.not_found)
    followed = [s.final_url or s.url for s in ev.sources if s.kind != "text"]
    if followed or where:
        return answer(
            key="config",
            status="unanswerable",
            summary=f"followed {len(followed) or 1} source(s) but found no launch command or runtime notes"
            + (f"; searched for: {', '.join(searched)}" if searched else "")
            + ".",
            missing=["launch command", "runtime notes", *searched],
            basis=[*basis, *(f"followed: {u}" for u in followed if u not in (where or ""))],
        )
    missing = [x for x in FULL_CONFIG if not (x == "engine version" and c.engine_version)]
    return answer(
        key="config",
        status="unanswerable",
        summary="no launch command, engine flags or record found: the claim arrived without its config.",
        missing=missing,
        basis=[f"searched for and not found: {x}" for x in searched]
        or ["no source beyond the pasted claim"],
    )
