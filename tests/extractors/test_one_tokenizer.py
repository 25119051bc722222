"""One tokenizer of launch commands: checks.parsing.shell_words (strict POSIX shlex, memoised);
the launch reader's lenient split_command calls it and adds line continuations, a quote left
open and shell comments."""

from __future__ import annotations

import shlex

import pytest

from checks.parsing import shell_words
from extractors.text.launch import split_command


@pytest.mark.parametrize(("command", "words", "lenient"), [
    ("vllm serve Qwen/Qwen3-8B --max-num-seqs 1", ["vllm", "serve", "Qwen/Qwen3-8B", "--max-num-seqs", "1"], False),
    ("llama-server -m 'my model.gguf' -ngl 99", ["llama-server", "-m", "my model.gguf", "-ngl", "99"], False),
    ("python -m sglang.launch_server \\\n  --tp 2", ["python", "-m", "sglang.launch_server", "--tp", "2"], False),
    ("vllm serve m --dtype fp8  # fastest so far", ["vllm", "serve", "m", "--dtype", "fp8"], False),
    ('vllm serve "Qwen/Qwen3-8B --tp 2', ["vllm", "serve", "Qwen/Qwen3-8B --tp 2"], True),
    ("vllm serve 'its model", ["vllm", "serve", "its model"], True),
])
def test_split_command(command: str, words: list[str], lenient: bool) -> None:
    assert split_command(command) == (words, lenient)


@pytest.mark.parametrize("command", [
    "vllm serve m --tp 2", "a 'b c' \"d e\" f\\ g", "x=1 y='2 3' cmd", "", "   ",
])
def test_shell_words_is_shlex(command: str) -> None:
    assert shell_words(command) == tuple(shlex.split(command))


@pytest.mark.parametrize("command", ['vllm serve "open', "a 'b", "trailing \\"])
def test_shell_words_of_unbalanced_quotes_is_none(command: str) -> None:
    assert shell_words(command) is None


def test_split_command_answers_are_not_shared() -> None:
    # The tokenizer is memoised; a caller changing its list must not change the next answer.
    first, _ = split_command("vllm serve m --tp 2")
    first.append("--mutated")
    assert split_command("vllm serve m --tp 2") == (["vllm", "serve", "m", "--tp", "2"], False)
