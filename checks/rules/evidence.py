"""Q1 evidence: the check for evidence in the original post (documented on `evidence`)."""

from __future__ import annotations

from collections.abc import Mapping

from checks.basis import answer, doc, field
from checks.models import Answer, Basis, Evidence, Screenshot, Source
from checks.reference import Reference

__all__ = ["evidence"]

# Input kinds that are themselves the measurement's record: the record is the evidence.
RECORD_KINDS = ("record", "tool-output", "log", "config")
# Claim fields only a real record, log or config carries; the headline number, its tokens and
# seconds do not count (the seed's viral post itself said "2048 tokens in 0.969 seconds").
EVIDENCE_FIELDS = ("launch_command", "env", "record_id", "accepted_tokens", "drafted_tokens")


def _source_for(url: str, sources: list[Source]) -> Source | None:
    return next((s for s in sources if url in (s.url, s.final_url)), None)


def _describe_links(links: list[str], sources: list[Source]) -> str:
    if len(links) == 1:
        src = _source_for(links[0], sources)
        what = {
            "record": "the record",
            "config": "the config",
            "log": "a log",
            "tool-output": "the tool output",
        }
        return f"{what.get(src.kind, 'its evidence') if src else 'its evidence'}: {links[0]}"
    return (
        f"{len(links)} pieces of evidence: {', '.join(links[:3])}{' …' if len(links) > 3 else ''}"
    )


def _screenshots(ev: Evidence) -> tuple[list[Screenshot], list[Screenshot]]:
    """The images read by OCR: (printouts with figures, pictures without any)."""
    shots = [s.screenshot for s in ev.sources if s.screenshot is not None]
    return [s for s in shots if s.figures > 0], [s for s in shots if s.figures == 0]


def _printout_summary(printouts: list[Screenshot]) -> str:
    first = printouts[0]
    more = f" (and {len(printouts) - 1} more)" if len(printouts) > 1 else ""
    return (f"the image is a printout with figures: {first.name}{more}, {first.lines} line"
            f"{'s' if first.lines != 1 else ''} read by OCR, {first.figures} figure"
            f"{'s' if first.figures != 1 else ''} taken from it.")


def _photo_phrase(photos: list[Screenshot]) -> str:
    names = ", ".join(p.name for p in photos[:3]) + (" …" if len(photos) > 3 else "")
    what = "the image is a photo" if len(photos) == 1 else f"the {len(photos)} images are photos"
    return f"{what} without figures (OCR read none in {names})"


def _shot_basis(shots: list[Screenshot]) -> list[str]:
    return [f"screenshot {s.name}: {s.lines} line(s) read by OCR, {s.figures} figure(s)"
            + (f", read as {s.format}" if s.format else "") for s in shots]


def evidence(ev: Evidence, ref: Reference, prior: Mapping[str, Answer]) -> Answer:
    """Q1 evidence: is there evidence in the original post?

    Seed, section 8: "One, is there evidence in the original post. Usually not — the body has a
    number, the image is a photo of a GPU. Cheapest step, and the easiest to skip."

    - `ok`: the post links a record, config, log, repo or gist (`post.evidence_links`), or quotes
      the launch command; or there is no post and the input is itself a record, tool output, log or
      config — the record is the evidence.
    - `flag`: the post holds a number and maybe pictures, nothing else ("no evidence in the post").
      When the record was found some other way, the post is still flagged: the question is about
      the original post, and a provenance answer never changes the verdict (checks/verdict.py).
    - With `kind == "post"` but no post details at all, the claim is judged instead: a launch command,
      env vars, a record id or accepted/drafted counts are evidence (`ok`); a bare number is `flag`.
    - Images read by OCR (`Source.screenshot`) say what the picture was: a printout with figures
      (a tool's table or result block, its numbers read) is evidence in the post (`ok`: "the image
      is a printout with figures"); a picture from which OCR read no figures is named in the flag
      ("the image is a photo without figures": the seed's photo of a GPU).

    Reads no reference rows.
    """
    c = ev.claim
    post = ev.post
    printouts, photos = _screenshots(ev)
    if post is None and ev.kind in RECORD_KINDS:
        where = next((s.final_url or s.url for s in ev.sources), None) or c.source_url
        return answer(
            key="evidence",
            status="ok",
            summary=f"the input is itself a {ev.kind}: the record is the evidence.",
            basis=[f"input kind {ev.kind}" + (f" ({where})" if where else "")],
        )
    if post is None and printouts:
        return answer(key="evidence", status="ok", summary=_printout_summary(printouts),
                      basis=_shot_basis(printouts))
    if post is None:
        present = [f for f in EVIDENCE_FIELDS if getattr(c, f)]
        if present:
            return answer(
                key="evidence",
                status="ok",
                summary=f"the claim carries its own evidence ({', '.join(present).replace('_', ' ')}).",
                basis=[field(c, f) for f in present],
            )
        photo = f"; {_photo_phrase(photos)}" if photos else ""
        return answer(
            key="evidence",
            status="flag",
            reason="no_evidence",
            summary=f"no evidence in the post: a number with no launch command, log or record behind it{photo}.",
            basis=[f"no post details; claim has none of {', '.join(EVIDENCE_FIELDS)}",
                   *_shot_basis(photos)],
        )

    figures = {"images": post.image_count, "evidence_links": len(post.evidence_links)}
    if printouts or photos:
        figures["screenshots_with_figures"] = len(printouts)
        figures["screenshots_without_figures"] = len(photos)
    basis: list[Basis | str] = [doc(u, "post link", url=u) for u in post.links[:5]] or ["post has no links"]
    if post.evidence_links:
        return answer(
            key="evidence",
            status="ok",
            summary=f"the post links {_describe_links(post.evidence_links, ev.sources)}.",
            figures=figures,
            basis=[doc(u, "evidence link", url=u) for u in post.evidence_links],
        )
    if post.quotes_launch_command or (ev.kind == "post" and c.launch_command):
        return answer(
            key="evidence",
            status="ok",
            summary="the post quotes the launch command.",
            figures=figures,
            basis=[*basis, field(c, "launch_command")],
        )
    if printouts:
        return answer(key="evidence", status="ok", summary=_printout_summary(printouts),
                      figures=figures, basis=[*basis, *_shot_basis(printouts)])
    pictures = (
        f" and {post.image_count} picture{'s' if post.image_count != 1 else ''}"
        if post.image_count
        else ""
    )
    links = (
        f"; its {len(post.links)} link{'s' if len(post.links) != 1 else ''} lead to no record, config or log"
        if post.links
        else ""
    )
    found_elsewhere = ""
    if ev.kind in RECORD_KINDS:
        where = (
            next((s.final_url or s.url for s in ev.sources if s.kind in RECORD_KINDS), None)
            or c.source_url
        )
        found_elsewhere = f" (the {ev.kind} was found separately{': ' + where if where else ''})"
    photo = f"; {_photo_phrase(photos)}" if photos else ""
    return answer(
        key="evidence",
        status="flag",
        reason="no_evidence",
        summary=f"no evidence in the post: a number{pictures}{links}{found_elsewhere}{photo}.",
        figures=figures,
        basis=[*basis, *_shot_basis(photos)],
    )
