"""Rendering a Report for people: terminal text, Markdown. Renderers format; they never compute."""

from bot.render.markdown import render_markdown
from bot.render.terminal import render_terminal

__all__ = ["render_markdown", "render_terminal"]
