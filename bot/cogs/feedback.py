"""The report as a conversation: the compact reply and its buttons, edits and deletes, disputes,
the "Audit this message" menu and help.

- **Posting** (`post_report`, used by watching chat): permissions are checked before a thread
  is created — a thread needs Create Public Threads and Send Messages in Threads, a plain reply
  Send Messages — so no thread is left empty; a thread whose first send fails anyway is deleted
  and the report goes in a reply. Every send goes through `safe_send`/`safe_edit`: a
  `Forbidden` or `HTTPException` becomes one log line, never an exception out of a listener.
- **The reply** is `compact_embed` (verdict, the headline's first clause, the deciding
  questions, the sources, the chart) with `bot.views.ReportView`'s buttons. Each posted report is
  a row of `bot.store.replies` (which message it answers, where it is, the audit it shows, the
  request that produced it), so buttons, edits and deletes work the same after a restart.
- **Edits**: an edited message is re-audited (through the app, like any audit) and its report
  edited in place — embed, chart, thread name — with a note that it was updated and from what.
  The re-audit counts against the member's rate limit like a new message (a limited edit gets
  the one quiet hint, and the report says it shows the earlier text). A report made with "Audit
  this message" follows its message's edits too: the member asked about that message, and a
  report of text no longer there would mislead; `/audit` has no message to follow.
- **Deletes**: a deleted message takes its reports with it (the watched one and any "Audit this
  message" one): the thread (or the reply) is deleted, or, with `discord.on_delete =
  "archive"`, archived and locked after a note; the store's row is kept, marked. The raw events
  need no message cache. A delete while the bot was offline sends no event at all (the gateway
  does not replay them to a new session), so at each READY the messages of the live reports of
  the last `RECHECK_DAYS` days (at most `RECHECK_LIMIT`, newest first) are fetched once — no
  channel history is read — and one that is gone (404) takes its report as the event would have.
- **Buttons**: Full report (the eight questions, ephemeral, with the Markdown report as a file);
  Add details (a form: hardware, count, batch, weight format, engine — re-audited with them as
  facts stated by the member, bot/facts.py; the poster or a moderator only); False alarm? (a
  dispute with who and why, `bot.store.disputes`; `/disputes list` and `/disputes resolve` for
  moderators); Re-run (a fresh audit, not the stored one).
- `/help`, and `@claimcheck help`: what the bot does, its commands and settings, in one message.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Sequence
from datetime import timedelta
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import chart_file, claimbot, error_sentence
from bot.core import Request
from bot.facts import parse_facts
from bot.render.discord import compact_embed, report_embed, thread_name
from bot.render.escape import escape_untrusted
from bot.render.labels import format_figure
from bot.render.markdown import render_markdown
from bot.service import AuditOutcome
from bot.store.audits import AuditPlace
from bot.store.disputes import add_dispute, list_disputes, resolve_dispute
from bot.store.replies import (
    Reply,
    StoredRequest,
    live_replies_since,
    replies_for_message,
    reply_for_report,
    save_reply,
    set_reply_audit,
    set_reply_state,
)
from bot.views import DetailsModal, DisputeModal, ReportButton, report_view
from checks.models import Report
from extractors.document import RawDocument
from extractors.errors import ExtractError, UsageError

__all__ = ["EDIT_LIMITED", "HELP_TEXT", "NOT_YOURS", "RECHECK_DAYS", "RECHECK_LIMIT", "FeedbackCog", "guarded", "post_report", "report_kwargs",
           "request_of", "safe_edit", "safe_send", "setup", "stored_request", "subject_of"]

log = logging.getLogger("claimcheck.bot")
T = TypeVar("T")

HELP_TEXT = (
    "**claimcheck** audits LLM-inference speed claims (tok/s) with the eight questions: "
    "evidence, config, which cell, private fork, AL / window, power, roofline, what to measure.\n"
    "• Post a claim or a link in a watched channel: a thread opens with a short verdict. "
    "Buttons: **Full report** (all eight questions), **Add details** (hardware, batch, format, "
    "engine), **False alarm?** (tell the moderators why), **Re-run**. Edit your message and the "
    "report follows; delete it and the report goes.\n"
    "• `/audit input: [file:] [facts:]` audits a link, text or a tool's file; "
    "`/compare a: b:` sets two claims side by side; right-click a message → Apps → "
    "**Audit this message**.\n"
    "• Moderators (Manage Server): `/claimcheck watch` (off, react, thread per channel), "
    "`/claimcheck digest` (daily digest channel and hour), `/claimcheck source-add` / "
    "`source-remove` (leaderboards for the digest), `/disputes list` and `/disputes resolve`."
)
NOT_YOURS = ("Only the member who posted the claim or a moderator can add details here; "
             "`/audit` with `facts:` audits it with yours.")
GONE = "That report is no longer in my records."
EDIT_LIMITED = ("The message was edited while its author was over the rate limit; this report is "
                "of its earlier text (Re-run reads it again).")
NO_CLAIM_NOW = ("The message was edited and no longer states a speed claim; this report is of "
                "its earlier text.")
RECHECK_DAYS = 14  # a start checks that the messages of the live reports this recent still exist
RECHECK_LIMIT = 200  # ... at most this many (one fetch each), newest first


# ---- sending that never raises --------------------------------------------------------------

async def guarded(what: str, call: Awaitable[T]) -> T | None:
    """`call`, or None with one log line when Discord refuses it (Forbidden, NotFound, 5xx)."""
    try:
        return await call
    except discord.Forbidden as exc:
        log.warning("%s: forbidden (%s %s)", what, exc.status, exc.code)
    except discord.HTTPException as exc:
        log.warning("%s: Discord answered %s (%s)", what, exc.status, exc.text[:200])
    return None


async def safe_send(target: discord.abc.Messageable, what: str,
                    **kwargs: Any) -> discord.Message | None:
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    return await guarded(what, target.send(**kwargs))


async def safe_edit(message: discord.PartialMessage | discord.Message, what: str,
                    **kwargs: Any) -> discord.Message | None:
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    return await guarded(what, message.edit(**kwargs))


# ---- requests as stored ------------------------------------------------------------------------

def stored_request(request: Request) -> StoredRequest:
    return StoredRequest.of([(d.source, d.data) for d in request.docs], request.urls,
                            request.facts.given)


def request_of(stored: StoredRequest, extra_facts: list[str] | None = None) -> Request:
    """The stored request again; `extra_facts` (key=value) replace the stored ones by key."""
    given = {item.partition("=")[0]: item for item in stored.facts}
    given.update({item.partition("=")[0]: item for item in extra_facts or []})
    return Request(docs=tuple(RawDocument(data, source=source)
                              for source, data in stored.documents()),
                   urls=stored.urls, facts=parse_facts(given.values()))


def subject_of(request: Request) -> str:
    """As watching chat names it: a link is its own subject, text its hash."""
    return request.urls[0] if request.urls else Request(docs=request.docs).subject()


async def report_kwargs(outcome: AuditOutcome, view: discord.ui.View, *, note: str | None,
                        chart: bool, editing: bool = False) -> dict[str, Any]:
    """The compact reply: embed, chart (shown in the embed), buttons; no pings."""
    embed = compact_embed(outcome.report, note=note)
    kwargs: dict[str, Any] = {"embed": embed, "view": view,
                              "allowed_mentions": discord.AllowedMentions.none()}
    file = await chart_file(outcome) if chart else None
    if file is not None:
        embed.set_image(url="attachment://claimcheck.png")
    if editing:
        kwargs["attachments"] = [file] if file is not None else []
    elif file is not None:
        kwargs["file"] = file
    return kwargs


def _was(report: Report) -> str:
    figure = report.claim.tok_s
    return report.verdict + (f", {format_figure(figure)} tok/s" if figure is not None else "")


# ---- posting a watched message's report ---------------------------------------------------------

async def post_report(bot: commands.Bot, message: discord.Message, outcome: AuditOutcome,
                      request: Request, *, note: str | None = None,
                      extra: Sequence[Report] = ()) -> discord.Message | None:
    """The report of a watched message: in a thread on it when the bot may open one and write
    in it, else as a reply, else nothing (logged). Recorded in the store for edits, deletes and
    buttons. `note` opens the reply; `extra`: the message's further claims, one embed each."""

    async def kwargs() -> dict[str, Any]:  # a discord.File is consumed by one send: build anew
        out = await report_kwargs(outcome, report_view(), note=note, chart=charts)
        if extra:
            out["embeds"] = [out.pop("embed"), *(compact_embed(r) for r in extra)]
        return out

    cb = claimbot(bot)
    assert message.guild is not None
    channel = message.channel
    perms = channel.permissions_for(message.guild.me)
    charts = cb.settings.discord.charts
    may_thread = (isinstance(channel, discord.TextChannel) and perms.create_public_threads
                  and perms.send_messages_in_threads)
    sent: discord.Message | None = None
    thread: discord.Thread | None = None
    if may_thread:
        thread = await guarded(f"thread on message {message.id}", message.create_thread(
            name=thread_name(outcome.report), auto_archive_duration=1440))
        if thread is not None:
            sent = await safe_send(thread, f"report in thread {thread.id}", **await kwargs())
            if sent is None:  # never leave an empty thread behind
                await guarded(f"deleting empty thread {thread.id}", thread.delete())
                thread = None
    if sent is None:
        if not perms.send_messages:
            log.warning("watch: no permission to answer in channel %s (message %s)",
                        channel.id, message.id)
            return None
        sent = await guarded(f"reply to message {message.id}", message.reply(**await kwargs()))
        if sent is None:
            return None
    await save_reply(cb.store, Reply(
        source_id=message.id, guild_id=message.guild.id, channel_id=channel.id,
        reply_channel_id=sent.channel.id, reply_message_id=sent.id,
        thread_id=thread.id if thread else None, audit_id=outcome.record.id,
        asked_by=message.author.id, request=stored_request(request), state="live", edits=0,
        message_id=message.id))
    return sent


# ---- the cog ---------------------------------------------------------------------------------------

class FeedbackCog(commands.Cog):
    disputes = app_commands.Group(name="disputes", description="Members' disputes of reports",
                                  guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = claimbot(bot)
        self.menu = app_commands.ContextMenu(name="Audit this message",
                                             callback=self.audit_this_message)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ReportButton)  # persistent: buttons of past runs' reports work
        self.bot.tree.add_command(self.menu)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ReportButton)
        self.bot.tree.remove_command(self.menu.name, type=self.menu.type)

    async def _channel(self, channel_id: int) -> Any:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await guarded(f"fetching channel {channel_id}",
                                     self.bot.fetch_channel(channel_id))
        return channel

    # ---- re-auditing in place --------------------------------------------------------------

    async def _reaudit(self, reply: Reply, request: Request, key: str, note: str, *,
                       edited: bool = False) -> AuditOutcome | None:
        """Audit `request` afresh and show it in the reply's message, noting why."""
        place = AuditPlace(subject=subject_of(request), guild_id=reply.guild_id,
                           channel_id=reply.channel_id, message_id=reply.reply_message_id,
                           thread_id=reply.thread_id, asked_by=reply.asked_by)
        outcome = await self.bot.auditor.audit(key, request, place, redo=True)
        channel = await self._channel(reply.reply_channel_id)
        if channel is None:
            return outcome
        kwargs = await report_kwargs(outcome, report_view(), note=note,
                                     chart=self.bot.settings.discord.charts, editing=True)
        await safe_edit(channel.get_partial_message(reply.reply_message_id),
                        f"report {reply.reply_message_id}", **kwargs)
        if isinstance(channel, discord.Thread):
            name = thread_name(outcome.report)
            if channel.name != name:
                await guarded(f"renaming thread {channel.id}", channel.edit(name=name))
        await set_reply_audit(self.bot.store, reply.source_id, outcome.record.id,
                              request=stored_request(request), edited=edited)
        return outcome

    async def _report_of(self, reply: Reply) -> Report | None:
        row = await self.bot.store.read_one("SELECT report_json FROM audits WHERE id = ?",
                                            (reply.audit_id,))
        return None if row is None else Report.model_validate_json(row["report_json"])

    # ---- edits and deletes ----------------------------------------------------------------

    @commands.Cog.listener()
    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        content = payload.data.get("content")
        if content is None:  # an embed unfurled, a pin: the text did not change
            return
        replies = [r for r in await replies_for_message(self.bot.store, payload.message_id)
                   if r.state == "live"]
        redo: list[tuple[Reply, Request]] = []
        for reply in replies:
            request = await self._edited_request(reply, payload.message, content)
            if request is None:
                await self._note_on(reply, NO_CLAIM_NOW)
            elif stored_request(request) != reply.request:  # same text and links: nothing to redo
                redo.append((reply, request))
        if not redo:
            return
        if not await self._admitted(payload.message):
            for reply, _ in redo:
                await self._note_on(reply, EDIT_LIMITED)
            return
        for reply, request in redo:
            before = await self._report_of(reply)
            note = "Updated: the message was edited" + (
                f" (this report was {_was(before)})." if before is not None else ".")
            try:
                await self._reaudit(reply, request, f"edit:{reply.source_id}:{reply.edits + 1}",
                                    note, edited=True)
            except ExtractError as exc:
                log.info("edit of message %s: nothing to audit: %s", payload.message_id, exc)

    async def _edited_request(self, reply: Reply, message: discord.Message,
                              content: str) -> Request | None:
        """What an edited message now asks for one of its reports (None: it states no claim):
        read as the report's door read it — "Audit this message" the whole message with its
        files, watching chat the claim the pre-filter finds — with the facts given before."""
        facts = request_of(reply.request).facts
        if reply.source_id != message.id:  # the context menu's report of this message
            request = await self._message_request(message)
            return request.with_facts(facts) if request.docs or request.urls else None
        from bot.cogs.watch import prefilter

        candidate = prefilter(content)
        if candidate is None:
            return None
        return Request(docs=(RawDocument.from_text(candidate.text),) if candidate.text else (),
                       urls=candidate.urls, facts=facts)

    async def _admitted(self, message: discord.Message) -> bool:
        """The watcher's rate limits, for an edit as for a new message (bot.cogs.watch)."""
        from bot.cogs.watch import WatchCog

        watch = self.bot.get_cog("WatchCog")
        return not isinstance(watch, WatchCog) or await watch.admit(message)

    async def _note_on(self, reply: Reply, text: str) -> None:
        channel = await self._channel(reply.reply_channel_id)
        if channel is not None:
            await safe_edit(channel.get_partial_message(reply.reply_message_id),
                            f"report {reply.reply_message_id}", content=text)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        await self._deleted(payload.message_id)

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        for message_id in payload.message_ids:
            await self._deleted(message_id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.recheck_deleted()

    async def recheck_deleted(self) -> int:
        """Deletes while the bot was away: each recent live report's message fetched once; the
        reports of the messages that are gone are taken down. Returns how many."""
        since = discord.utils.time_snowflake(self.bot.clock() - timedelta(days=RECHECK_DAYS))
        gone = 0
        for reply in await live_replies_since(self.bot.store, since, RECHECK_LIMIT):
            assert reply.message_id is not None
            channel = await self._channel(reply.channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                continue
            try:
                await channel.fetch_message(reply.message_id)
            except discord.NotFound:
                await self._deleted(reply.message_id)
                gone += 1
            except discord.HTTPException as exc:  # no access any more: left as it is
                log.info("recheck: message %s not fetched: %s", reply.message_id, exc)
        if gone:
            log.info("recheck: %d report(s) of messages deleted while offline taken down", gone)
        return gone

    async def _deleted(self, message_id: int) -> None:
        for reply in await replies_for_message(self.bot.store, message_id):
            if reply.state == "live":
                await self._take_down(reply)

    async def _take_down(self, reply: Reply) -> None:
        channel = await self._channel(reply.reply_channel_id)
        archive = self.bot.settings.discord.on_delete == "archive"
        if channel is None:
            pass
        elif isinstance(channel, discord.Thread) and reply.thread_id == channel.id:
            if archive:
                await safe_send(channel, f"note in thread {channel.id}",
                                content="The message this audit answered was deleted; the "
                                        "thread is archived and locked.")
                await guarded(f"archiving thread {channel.id}",
                               channel.edit(archived=True, locked=True))
            else:
                await guarded(f"deleting thread {channel.id}", channel.delete())
        else:
            message = channel.get_partial_message(reply.reply_message_id)
            if archive:
                await safe_edit(message, f"report {reply.reply_message_id}", embeds=[],
                                attachments=[], view=None,
                                content="The message this audit answered was deleted.")
            else:
                await guarded(f"deleting report {reply.reply_message_id}", message.delete())
        await set_reply_state(self.bot.store, reply.source_id,
                              "archived" if archive else "deleted")

    # ---- the buttons -----------------------------------------------------------------------

    async def _reply_of(self, interaction: discord.Interaction,
                        message_id: int | None = None) -> Reply | None:
        mid = message_id or (interaction.message.id if interaction.message else None)
        reply = None if mid is None else await reply_for_report(self.bot.store, mid)
        if reply is None:
            await interaction.response.send_message(GONE, ephemeral=True)
        return reply

    async def full_report(self, interaction: discord.Interaction) -> None:
        reply = await self._reply_of(interaction)
        if reply is None:
            return
        report = await self._report_of(reply)
        if report is None:
            await interaction.response.send_message(GONE, ephemeral=True)
            return
        markdown = discord.File(io.BytesIO(render_markdown(report).encode("utf-8")),
                                filename="claimcheck-report.md")
        await interaction.response.send_message(embed=report_embed(report), file=markdown,
                                                ephemeral=True)

    def _may_change(self, interaction: discord.Interaction, reply: Reply) -> bool:
        perms = interaction.permissions  # a moderator: Manage Messages or Manage Server
        return interaction.user.id == reply.asked_by or perms.manage_messages or perms.manage_guild

    async def ask_details(self, interaction: discord.Interaction) -> None:
        reply = await self._reply_of(interaction)
        if reply is None:
            return
        if not self._may_change(interaction, reply):
            await interaction.response.send_message(NOT_YOURS, ephemeral=True)
            return
        await interaction.response.send_modal(DetailsModal(self, reply.reply_message_id))

    async def add_details(self, interaction: discord.Interaction, report_message_id: int,
                          facts: list[str]) -> None:
        reply = await self._reply_of(interaction, report_message_id)
        if reply is None:
            return
        if not facts:
            await interaction.response.send_message("Nothing was filled in; the report is "
                                                    "unchanged.", ephemeral=True)
            return
        try:
            request = request_of(reply.request, facts)
        except UsageError as exc:
            await interaction.response.send_message(f"Those details cannot be read: {exc}",
                                                    ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        who = escape_untrusted(interaction.user.display_name, limit=40)
        stated = escape_untrusted("; ".join(facts), limit=300)
        note = f"Updated with details stated by {who}: {stated}."
        try:
            outcome = await self._reaudit(reply, request, f"details:{interaction.id}", note)
        except Exception as exc:
            await interaction.followup.send(error_sentence(exc), ephemeral=True)
            return
        verdict = outcome.report.verdict if outcome else "unchanged"
        await interaction.followup.send(f"Re-audited with your details: {verdict}.",
                                        ephemeral=True)

    async def ask_dispute(self, interaction: discord.Interaction) -> None:
        reply = await self._reply_of(interaction)
        if reply is not None:
            await interaction.response.send_modal(DisputeModal(self, reply.reply_message_id))

    async def record_dispute(self, interaction: discord.Interaction, report_message_id: int,
                             reason: str) -> None:
        reply = await self._reply_of(interaction, report_message_id)
        if reply is None:
            return
        number = await add_dispute(self.bot.store, guild_id=reply.guild_id,
                                   audit_id=reply.audit_id,
                                   reply_channel_id=reply.reply_channel_id,
                                   reply_message_id=reply.reply_message_id,
                                   raised_by=interaction.user.id, reason=reason,
                                   now=self.bot.clock())
        await interaction.response.send_message(
            f"Dispute #{number} recorded; the moderators see it in the digest and in "
            "`/disputes list`.", ephemeral=True)

    async def rerun(self, interaction: discord.Interaction) -> None:
        reply = await self._reply_of(interaction)
        if reply is None:
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            outcome = await self._reaudit(reply, request_of(reply.request),
                                          f"rerun:{interaction.id}",
                                          f"Re-run by {escape_untrusted(interaction.user.display_name, limit=40)}.")
        except Exception as exc:
            await interaction.followup.send(error_sentence(exc), ephemeral=True)
            return
        verdict = outcome.report.verdict if outcome else "unchanged"
        await interaction.followup.send(f"Re-run: {verdict}.", ephemeral=True)

    # ---- moderators: disputes ---------------------------------------------------------------

    @disputes.command(name="list", description="Open disputes in this server")
    async def disputes_list(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            await interaction.response.send_message(
                "Only members with Manage Server can see the disputes.", ephemeral=True)
            return
        found = await list_disputes(self.bot.store, interaction.guild_id, state="open")
        lines = [f"#{d.id} by <@{d.raised_by}>: {escape_untrusted(d.reason, limit=150)}"
                 + (f" — [report]({d.jump_url()})" if d.jump_url() else "") for d in found[:20]]
        text = "\n".join(lines) if lines else "No open disputes."
        await interaction.response.send_message(text[:1900], ephemeral=True)

    @disputes.command(name="resolve", description="Resolve a dispute, with a note")
    @app_commands.describe(number="the dispute's number", note="what was decided")
    async def disputes_resolve(self, interaction: discord.Interaction, number: int,
                               note: str) -> None:
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            await interaction.response.send_message(
                "Only members with Manage Server can resolve disputes.", ephemeral=True)
            return
        done = await resolve_dispute(self.bot.store, number, guild_id=interaction.guild_id,
                                     by=interaction.user.id, note=note, now=self.bot.clock())
        text = (f"Dispute #{number} resolved." if done
                else f"There is no open dispute #{number} in this server.")
        await interaction.response.send_message(text, ephemeral=True)

    # ---- the context menu, /help ----------------------------------------------------------------

    async def audit_this_message(self, interaction: discord.Interaction,
                                 message: discord.Message) -> None:
        await interaction.response.defer(thinking=True)
        request = await self._message_request(message)
        if not request.docs and not request.urls:
            await interaction.followup.send("That message has no text, link or file to audit.")
            return
        outcome = await self.audit_for(interaction, f"menu:{interaction.id}", request)
        if outcome is not None:
            await self.answer_interaction(interaction, outcome, request, note=None,
                                          message_id=message.id)

    async def audit_for(self, interaction: discord.Interaction, key: str,
                        request: Request) -> AuditOutcome | None:
        """The audit a member asked for by command or menu, placed in the interaction's channel;
        None once a failure has been told as the followup (the command and the menu must fail
        with the same sentence)."""
        place = AuditPlace(guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                           asked_by=interaction.user.id, subject=request.subject())
        try:
            return await self.bot.auditor.audit(key, request, place)
        except Exception as exc:
            await interaction.followup.send(error_sentence(exc))
            return None

    async def _message_request(self, message: discord.Message) -> Request:
        """A whole message as "Audit this message" reads it: its text, links and files."""
        cap = self.bot.settings.limits.attachment_max_bytes
        files = [RawDocument(await a.read(), source=a.filename[:100])
                 for a in message.attachments[:4] if a.size <= cap]
        return Request.from_message(message.content, files=files)

    async def answer_interaction(self, interaction: discord.Interaction, outcome: AuditOutcome,
                                 request: Request, *, note: str | None,
                                 message_id: int | None = None) -> None:
        """The compact report as the interaction's followup, recorded for the buttons (and,
        with `message_id`, for that message's edits and deletes)."""
        kwargs = await report_kwargs(outcome, report_view(), note=note,
                                     chart=self.bot.settings.discord.charts)
        sent = await guarded(f"followup to interaction {interaction.id}",
                              interaction.followup.send(**kwargs, wait=True))
        if sent is None or interaction.channel_id is None:
            return
        await save_reply(self.bot.store, Reply(
            source_id=interaction.id, guild_id=interaction.guild_id,
            channel_id=interaction.channel_id, reply_channel_id=interaction.channel_id,
            reply_message_id=sent.id, thread_id=None, audit_id=outcome.record.id,
            asked_by=interaction.user.id, request=stored_request(request), state="live",
            edits=0, message_id=message_id), answered=not outcome.reused)

    @app_commands.command(name="help", description="What claimcheck does, its commands and settings")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(HELP_TEXT, ephemeral=True)

    @commands.command(name="help")
    async def mention_help(self, ctx: commands.Context[commands.Bot]) -> None:
        """`@claimcheck help`."""
        await safe_send(ctx.channel, f"help in channel {ctx.channel.id}", content=HELP_TEXT)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(FeedbackCog(bot))


