"""Bot adapters for chatmatch. Every adapter implements :class:`chatmatch_bots.base.Bot`."""
