"""Bot adapters for chatmatch. Every adapter implements :class:`chatmatch.bot.Bot`."""
