"""Which machine a table in a discussion ran on: the hardware sentences of the post around it.

In a discussion (a GitHub discussion or issue export, a forum thread) a comment's prose names the
machine ("My rig: EPYC 9355, 12x DDR5-6400, RTX 5090") and the tables under it carry only
model / test / t/s. Each table inherits the sentences of *its own post* that name hardware:

- a post starts at a "#### Description" heading or at a comment's "👤 **name** replied …" line
  (quoted "> " for a reply to a reply); a table belongs to the post whose start is the last one
  above it, and never reads another person's comment;
- a hardware sentence is one of the post's prose sentences (code blocks, tables and HTML left
  out) in which the GPU-name reader (`extractors.text.names.find_gpus`) finds a device; a
  sentence stating a speed is left out, so only the row's own figure is read, and so is one
  holding a pasted command (two flags, "-mla 2 -ngl 0"), which is no description of the rig;
- the post must name one machine: at most one CPU or SoC (the host; an Apple M-series or a
  Strix Halo is a machine of its own) and at most one kind of card,
  several cards counting as one rig only where they are joined by "+" ("3090 + 2x 3060").
  Two CPUs, or two different cards named apart ("on my 3090 and on the 4090"), are a comparison:
  the rows get nothing, as they do when the post names no hardware. No guessing.
- one exception to that: a post that says which of its sections ran where, clause by clause
  ("`AVX2/Zen4` performance is on a Ryzen-7950X, `ARM` is on `M2-Max`": a label, "is/are on",
  one device), gives a table the one clause whose label is a word of the table's own heading
  ("### AVX2", "### ARM_NEON"); no clause or two clauses matching give nothing.

A table with no model column of its own (a sweep-bench table: PP, TG, N_KV, S_PP t/s, …) inherits
the post's model sentences the same way: one model named in the post, or nothing. A post whose
prose names no model but whose pasted commands load one model file (`-m` / `--model` / a shell
`model=` holding a `.gguf` path: the command that printed the table under it) inherits that file's
name, by the same one-or-none rule.

Linear in the text: one pass over the lines, one sentence split, and `find_gpus` (itself linear)
per sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from checks.reference import CONSUMER_GPU, Reference
from extractors.text.models import find_models
from extractors.text.names import Name, find_gpus

__all__ = ["MAX_HOST_SHARE", "MAX_RIG_SENTENCES", "MAX_SENTENCE", "Post", "labelled_rig", "log_rig",
           "model_sentences", "post_models", "post_rigs", "posts", "rig_sentences"]

MAX_SENTENCE = 300  # a longer "sentence" is a list or a log line, not the post's description of its rig
MAX_RIG_SENTENCES = 3
_POST_START = re.compile(r"^(?P<quote>(?:> ?)*)(?:👤 \*\*(?P<who>[^*\n]{1,80})\*\* replied|#### Description\b)")
# The discussion's own author, in the export's header table: "| **Author** | `ikawrakow` |".
_THREAD_AUTHOR = re.compile(r"^\|\s*\*\*Author\*\*\s*\|\s*`?(?P<who>[^`|\n]{1,80}?)`?\s*\|")
# Words saying a post's run was on some machine other than the one its author describes: then the
# author's rig is not the run's.
_OTHER_MACHINE = re.compile(r"(?i)\b(?:another|other|second|different|new|old|friend'?s?|work|remote|rented|cloud)\s+"
                            r"(?:machine|rig|system|box|server|computer|pc|laptop|node|workstation|gpu|card)s?\b"
                            r"|\b(?:runpod|vast\.ai|lambda ?labs|colab|aws|azure|gcp)\b")
# Signs in a post's own lines (prose, commands, logs) that a card took part: an author's rig that
# names only a CPU is no bound for such a run (the card's share streams faster than the host's).
_CARD_USE = re.compile(r"(?i)\b(?:cuda\d{0,2}|rocm|vulkan|metal|gpus?|vram|ngl|n-gpu-layers)\b"
                       r"|n_gpu_layers\s{0,3}=\s{0,3}[1-9]")
_QUOTE = re.compile(r"^(?:> ?)+")
MAX_SPEC_LINE = 120  # a spec list's item is one short line; a longer one is a log or a command
# What a program prints, not what the post says: "llm_load_tensors: ...", "ggml_cuda_init: ...",
# "Device 0: ...", "INFO [ main] ...", a timestamp.
_LOG_LINE = re.compile(r"^(?:[\w.]*_[\w.]*\s*:|(?i:device)\s*\d+\s*:|[A-Z]{3,8}\s*\[|\d{2,4}[-:/]\d{2}[-:/])")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Z(*`])")
_SPEED = re.compile(r"(?i)(?:\b(?:t|toks?|tokens?)\s?/\s?s(?:ec)?\b|tokens? per second|\btps\b|ms/tok)")
# Two command-line flags ("-mla 2 -ngl 0", "--ctx-size 8192 --threads 32"): a command pasted inline,
# not the post's prose; its flags would be read as the row's configuration.
_FLAGS = re.compile(r"(?:^|\s)--?[A-Za-z][\w-]{0,30}(?:[ =]\S{1,60})?\s{1,3}--?[A-Za-z]")
# A clause saying where one labelled part of the post ran: "AVX2/Zen4 performance is on a
# Ryzen-7950X", "ARM is on M2-Max", "the CUDA results are from an RTX 4080". The label is the
# clause's words before the verb (a few words, no sentence); the device follows the preposition.
_LABELLED = re.compile(r"^(?:(?i:the)\s)?(?P<label>[\w/+.-]{2,40}(?:\s[\w/+.-]{2,40}){0,2}?)"
                       r"(?:\s(?i:performance|results|numbers|figures|timings|runs|benchmarks|tests))?"
                       r"\s(?i:is|are|was|were)\s(?:(?i:measured|run|obtained|done|taken|tested)\s)?"
                       r"(?i:on|from|with)\s")
_CLAUSE_SPLIT = re.compile(r"[,;]|\band\b")  # no \s* around it: split runs stay linear
_LABEL_WORD = re.compile(r"[^\W_]+")
# Words of a label too common to tell one section from another.
_GENERIC = frozenset({"the", "all", "my", "our", "this", "these", "that", "other", "cpu", "gpu", "model",
                      "performance", "results", "numbers", "tests", "runs", "benchmarks", "here"})
_BULLET = re.compile(r"^(?:[*+-]|\d{1,3}[.)])\s")
_MARKUP = re.compile(r"<[^<>\n]{0,80}>|\*\*|`|!?\[([^\]\n]{0,200})\]\([^)\n]{0,300}\)")
# The model file a pasted command loads: "-m /models/Qwen3-235B-A22B-Q8_0.gguf", "--model x.gguf",
# "model=/mnt/.../DeepSeek-V3-0324-IQ2_K_R4.gguf" (a shell variable the command then uses).
_MODEL_FILE = re.compile(r"(?:(?<![\w-])(?:-m|--model)[ =]|(?<![\w-])model=)[\"']?(?:[^\s\"']{0,300}/)?"
                         r"(?P<f>[^\s\"'/]{1,200}\.gguf)\b")
# Between two cards of one rig: "3090 + 2x 3060", "RTX 4090 + RTX 3090 Ti".
_RIG_JOIN = re.compile(r"\s{0,3}\+\s{0,3}(?:\d{1,2}\s?[x×]\s?)?(?:(?:NVIDIA|AMD|RTX|GeForce)\s)?")


@dataclass(frozen=True)
class Post:
    """One post of a discussion: its first and last line (1-based, inclusive) and its prose."""

    first: int
    last: int
    prose: str
    model_files: tuple[str, ...] = ()  # the .gguf files its pasted commands load, in order
    author: str | None = None  # who wrote it: the comment's "👤 **name**", the thread's author for its description
    # The lines of its code blocks that read as a spec list ("56 threads of a AMD EPYC 9355 (64t
    # total)", "2x 24GB Nvidia 3090"), one per line: the post's own description of its machine,
    # read for the rig (never for the model: a block listing the quants compared names several)
    spec: str = ""

    @property
    def rig_text(self) -> str:
        """What the rig is read from: the prose, then the spec lines, each its own paragraph."""
        return f"{self.prose}\n{self.spec}" if self.spec else self.prose


def posts(text: str) -> list[Post]:
    """The posts of a discussion export, in order; text before the first post is its own post."""
    lines = text.splitlines()
    starts = [0] + [i for i, line in enumerate(lines) if i and _POST_START.match(line)]
    thread = next((m.group("who").strip() for line in lines[:starts[1] if len(starts) > 1 else len(lines)]
                   if (m := _THREAD_AUTHOR.match(line))), None)
    out = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        files = tuple(m.group("f") for line in lines[start:end] for m in _MODEL_FILE.finditer(line))
        opened = _POST_START.match(lines[start]) if start else None
        author = opened.group("who") if opened is not None and opened.group("who") else thread
        out.append(Post(start + 1, end, _prose(lines[start:end]), files, spec=_spec(lines[start:end]), author=author))
    return out


def _unquoted(lines: list[str]) -> Iterator[tuple[str, bool | None]]:
    """Each line without its quote marks, and whether it is inside a code block (None for a
    fence line itself)."""
    fenced = False
    for raw in lines:
        line = _QUOTE.sub("", raw).strip()
        if line.startswith("```"):
            fenced = not fenced
            yield line, None
        else:
            yield line, fenced


def _prose(lines: list[str]) -> str:
    """The post's sentences as written: no code blocks, tables, headings or HTML-only lines."""
    kept: list[str] = []
    for line, fenced in _unquoted(lines):
        if fenced is None:
            continue
        # A line of three cell bars is a table row even where its opening bar is missing
        # ("llama 8B Q8_K_R8 | 7.56 GiB | 8.03 B | ARM_NEON | ..."), never the post's prose.
        if fenced or line.startswith(("|", "#", "👤")) or not line or line.count("|") >= 3:
            kept.append("")
            continue
        if _BULLET.match(line):  # a list item is its own sentence, not part of the one above
            kept.append("")
        kept.append(_MARKUP.sub(lambda m: m.group(1) or " ", line))
    paragraphs = " ".join(x if x else "\n" for x in kept)
    return "\n".join(" ".join(p.split()) for p in paragraphs.split("\n") if p.strip())


def _spec(lines: list[str]) -> str:
    """The spec-list lines of the post's code blocks, one per line, each ending its sentence."""
    kept: list[str] = []
    for line, fenced in _unquoted(lines):
        if fenced and _spec_line(line):
            kept.append(line.rstrip(".") + ".")
    return "\n".join(kept)


def _spec_line(line: str) -> bool:
    """A line of a code block that reads as a spec list's item, not output or a command: short,
    no log prefix ("llm_load_tensors:", "ggml_cuda_init:", "Device 0:" — what a program printed
    about devices it saw, not the machine the post describes), no table cell, assignment, shell
    prompt or flag, and no speed (only the row's own figure is read)."""
    return (0 < len(line) <= MAX_SPEC_LINE and not _LOG_LINE.match(line)
            and not any(c in line for c in "|=\\$<>{}") and not line.startswith(("-", "./", "#", "[", "/"))
            and not _SPEED.search(line) and not _FLAGS.search(line))


def _devices(sentence: str, ref: Reference) -> list[Name]:
    return find_gpus(sentence, ref)


def _is_cpu(name: Name, ref: Reference) -> bool:
    """A machine of its own: a CPU (the host of any card beside it) or a unified-memory SoC (an
    Apple M-series, a Strix Halo, a Jetson), which is a whole machine, never a card in a host."""
    row = ref.gpu(name.name)
    return row is not None and row.kind in ("cpu", "unified")


def _sentences(prose: str) -> list[str]:
    """The prose's sentences a table may inherit: not too long, and stating no speed (only the
    row's own figure is to be read)."""
    out = []
    for paragraph in prose.split("\n"):
        for sentence in _SENTENCE_END.split(paragraph):
            sentence = sentence.strip()
            if flags := _FLAGS.search(sentence):
                # A command pasted inline ("... via batched bench ( with arguments -pps -fa -t 32
                # ...)"): the words before it are still the post's prose, the command is not.
                sentence = sentence[:flags.start()].rstrip(" ([{,;:").strip()
                sentence = _unclosed_cut(sentence)
            if sentence and len(sentence) <= MAX_SENTENCE and not _SPEED.search(sentence):
                out.append(sentence)
    return out


def _unclosed_cut(sentence: str) -> str:
    """The sentence without a bracket left open where a pasted command was cut off ("via batched
    bench ( with arguments" -> "via batched bench"): a closed bracket is the post's own words."""
    opened = max(sentence.rfind(c) for c in "([{")
    if opened < 0 or any(c in sentence[opened:] for c in ")]}"):
        return sentence
    return sentence[:opened].rstrip(" ,;:")


def _joined(sentences: list[str]) -> str:
    return " ".join(s if s.endswith((".", "!", "?", ";")) else s + "." for s in sentences[:MAX_RIG_SENTENCES])


def model_sentences(prose: str, ref: Reference, model_files: tuple[str, ...] = ()) -> str:
    """The post's sentences naming its model, or "" where it names none or more than one model
    (a table with no model column of its own inherits them, by the same one-or-none rule); a
    post naming none in its prose falls back on the model files its commands load."""
    kept = [(s, {m.name for m in find_models(s, ref)}) for s in _sentences(prose)]
    kept = [(s, names) for s, names in kept if names]
    if not kept and model_files:
        found = {m.name for f in model_files for m in find_models(f, ref)}
        unique = list(dict.fromkeys(model_files))
        return f"model file loaded by the post's command: {unique[0]}." if len(found) == 1 and len(unique) == 1 else ""
    if len({n for _, names in kept for n in names}) != 1:
        return ""
    return _joined([s for s, _ in kept])


def rig_sentences(prose: str, ref: Reference) -> str:
    """The post's hardware sentences (at most MAX_RIG_SENTENCES, joined), or "" where it names no
    machine or more than one."""
    kept: list[tuple[str, list[Name]]] = []
    for sentence in _sentences(prose):
        names = _devices(sentence, ref)
        if names:
            kept.append((sentence, names))
    if not kept:
        return ""
    cpus = {n.name for _, names in kept for n in names if _is_cpu(n, ref)}
    cards = {n.name for _, names in kept for n in names if not _is_cpu(n, ref)}
    if len(cards) > 1:  # "Gaming rig … + 3090TI": a card by its class only where none is named
        cards.discard(CONSUMER_GPU)
    if len(cpus) > 1 or (len(cards) > 1 and not _one_rig(kept, ref)):
        return ""
    return _joined([s for s, _ in kept])


def labelled_rig(prose: str, heading: str, ref: Reference) -> str:
    """The one clause of the post's prose that says where its part labelled by a word of the
    table's `heading` ran ("AVX2/Zen4 performance is on a Ryzen-7950X" for a table under "###
    AVX2"), or "": no such clause, or two matching the heading. A clause names exactly one device."""
    words = {w.casefold() for w in _LABEL_WORD.findall(heading)} - _GENERIC
    if not words:
        return ""
    found: list[str] = []
    for sentence in _sentences(prose):
        if not _devices(sentence, ref):
            continue
        for part in _CLAUSE_SPLIT.split(_BULLET.sub("", sentence).rstrip(".!?;")):
            clause = part.strip()
            m = _LABELLED.match(clause)
            if m is None or len(_devices(clause, ref)) != 1:
                continue
            label = {w.casefold() for w in _LABEL_WORD.findall(m.group("label"))} - _GENERIC
            if label & words:
                found.append(clause)
    return found[0] + "." if len(found) == 1 else ""


def _one_rig(kept: list[tuple[str, list[Name]]], ref: Reference) -> bool:
    """Several different cards are one rig only where one sentence joins them all by "+"."""
    every = {n.name for _, names in kept for n in names if not _is_cpu(n, ref)}
    for sentence, names in kept:
        cards = [n for n in names if not _is_cpu(n, ref)]
        if {n.name for n in cards} != every:
            continue
        if all(_RIG_JOIN.fullmatch(sentence[a.end:b.start]) for a, b in zip(cards, cards[1:], strict=False)):
            return True
    return False


def post_rigs(text: str, ref: Reference) -> Callable[..., str]:
    """`(line number (1-based), the table's own heading) -> the hardware sentences of the post
    holding that line` ("" for none): what a table starting at that line inherits. A post naming
    several machines gives the one clause labelled by a word of the table's heading
    (`labelled_rig`). A post whose words name no machine gives what llama.cpp's own log above
    the table says (`log_rig`), when it says the weights sat on its cards."""
    prose = _by_line(text, ref, rig_sentences)
    found = posts(text)
    lines = text.splitlines()
    authors = _authors_rigs(found, ref)

    def at(lineno: int, heading: str = "") -> str:
        rig = prose(lineno)
        if rig:
            return rig
        post = next((p for p in found if p.first <= lineno <= p.last), None)
        if post is None:
            return ""
        if heading and (labelled := labelled_rig(post.rig_text, heading, ref)):
            return labelled
        log = log_rig(lines[post.first - 1:lineno - 1])
        if log:
            return log
        own = authors.get(post.author or "")
        if own and _names_nothing_else(post, lines[post.first - 1:lineno - 1], own, ref):
            return f"{post.author}'s machine, named by them in this thread: {own}"
        return ""

    return at


def _authors_rigs(found: list[Post], ref: Reference) -> dict[str, str]:
    """`author -> their rig sentences` for each author of the thread who names exactly one machine
    across all their posts (by `rig_sentences`' one-machine rule over all of them together) and
    no post of whom names another: a post of theirs that names no machine ran on it."""
    by_author: dict[str, list[Post]] = {}
    for p in found:
        if p.author:
            by_author.setdefault(p.author, []).append(p)
    out: dict[str, str] = {}
    for author, theirs in by_author.items():
        texts = [p.rig_text for p in theirs]
        if any(_OTHER_MACHINE.search(t) for t in texts):
            continue
        named = [t for t in texts if any(_devices(x, ref) for x in _sentences(t))]
        if not named or any(not rig_sentences(t, ref) for t in named):
            continue  # one of their posts names two machines: a comparison, no rig to carry
        rig = rig_sentences("\n".join(named), ref)
        if rig:
            out[author] = rig
    return out


def _names_nothing_else(post: Post, above: list[str], rig: str, ref: Reference) -> bool:
    """The post names no machine of its own and does not say it ran somewhere else, every device
    a llama.cpp log above the table lists is a card of the author's `rig`, and a rig of a CPU
    alone is carried only to a post that shows no card at work (`_CARD_USE`)."""
    if _OTHER_MACHINE.search(post.rig_text) or any(_devices(x, ref) for x in _sentences(post.rig_text)):
        return False
    cards = {row.name for n in _devices(rig, ref) if (row := ref.gpu(n.name)) is not None
             and row.kind not in ("cpu", "unified")}
    if not cards and any(_CARD_USE.search(line) for line in above):
        return False  # the author names only a CPU, and a card took part in this post's run
    listed = [m.group("name") for line in above if (m := _DEVICE.match(line))]
    return all((row := ref.gpu(name)) is not None and row.name in cards for name in listed)


# What llama.cpp prints (ikawrakow/ik_llama.cpp@8337e4cd3861; ggml-org/llama.cpp prints the same
# lines): ggml/src/ggml-cuda.cu ggml_cuda_init "found %d CUDA devices:" then one "  Device %d: %s,
# compute capability %d.%d, ..." per device it sees; src/llama.cpp llm_load_tensors "%10s buffer
# size = %8.2f MiB" per buffer of the model's weights (`model.bufs`; KV and compute buffers are
# other lines), the buffer named by its backend: CUDA0, CUDA1, ... on the cards, CPU, CPU_Mapped
# or CUDA_Host in system memory. Mainline llama.cpp writes "load_tensors: CUDA0 model buffer size".
_CUDA_INIT = re.compile(r"\bggml_cuda_init:\s+found\s+\d{1,2}\s+(?:CUDA|ROCm)\s+devices")
_DEVICE = re.compile(r"^\s*Device\s+(?P<i>\d{1,2}):\s+(?P<name>[^,\n]{2,80}),\s+compute capability\b")
_WEIGHTS_BUFFER = re.compile(r"^\s*(?:llm_)?load_tensors:\s+(?P<buf>[A-Za-z_]{2,20}\d{0,2})\s+(?:model\s+)?"
                             r"buffer size\s*=\s*(?P<mib>\d{1,9}(?:\.\d{1,4})?)\s*MiB")
_CARD_BUFFER = re.compile(r"(?:CUDA|ROCm)(\d{1,2})")
# The share of the weights that may sit in system memory for the cards to be where they were
# read: the input embedding table llama.cpp keeps on the CPU (one row read per token) is about
# this size for the largest vocabularies; reading it at the cards' speed only favours the claim.
MAX_HOST_SHARE = 0.05


def log_rig(lines: list[str]) -> str:
    """The cards llama.cpp's log (the last one above a table, in that post) says held the weights:
    "llama.cpp's log above the table: 2x NVIDIA RTX PRO 6000 Blackwell Workstation Edition hold
    135608 MiB of the weights, 497 MiB in system memory", or "" where the log lists no devices or
    buffers, the weights' cards are not all one kind, or more than `MAX_HOST_SHARE` of the weights
    sat in system memory (then the host, which the log does not name, read them)."""
    devices: dict[int, str] = {}
    buffers: dict[str, float] = {}
    for line in lines:
        if _CUDA_INIT.search(line):
            devices, buffers = {}, {}
        elif m := _DEVICE.match(line):
            devices[int(m.group("i"))] = " ".join(m.group("name").split())
        elif m := _WEIGHTS_BUFFER.match(line):
            buffers[m.group("buf")] = buffers.get(m.group("buf"), 0.0) + float(m.group("mib"))
    cards = {int(c.group(1)): mib for name, mib in buffers.items() if (c := _CARD_BUFFER.fullmatch(name))}
    host = sum(mib for name, mib in buffers.items() if not _CARD_BUFFER.fullmatch(name))
    on_cards = sum(cards.values())
    names = {devices.get(i) for i, mib in cards.items() if mib > 0}
    if not on_cards or None in names or len(names) != 1 or host > MAX_HOST_SHARE * (host + on_cards):
        return ""
    name = names.pop()
    n = sum(1 for mib in cards.values() if mib > 0)
    held = f"{n}x {name}" if n > 1 else f"one {name}"
    return (f"llama.cpp's log above the table: {held} hold {on_cards:.0f} MiB of the weights, "
            f"{host:.0f} MiB in system memory.")


def post_models(text: str, ref: Reference) -> Callable[[int], str]:
    """`line number (1-based) -> the model sentences of the post holding that line` ("" for
    none): what a table with no model column inherits."""
    return _by_line(text, ref, model_sentences, files=True)


def _by_line(text: str, ref: Reference, read: Callable[..., str], files: bool = False) -> Callable[[int], str]:
    found = posts(text)
    rigs = [read(p.prose, ref, p.model_files) if files else read(p.rig_text, ref) for p in found]

    def at(lineno: int) -> str:
        for post, rig in zip(found, rigs, strict=True):
            if post.first <= lineno <= post.last:
                return rig
        return ""

    return at
