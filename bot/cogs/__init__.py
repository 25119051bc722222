"""One Cog per feature: /audit and /compare, watching chat, the moderators' commands, the daily
digest, the owner's sync. Each module ends with `async def setup(bot)`."""

__all__: list[str] = []
