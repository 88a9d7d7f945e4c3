"""Bot adapters for chatmatch. Every adapter implements :class:`bots.base.Bot`."""
