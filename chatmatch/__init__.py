"""chatmatch: rank chatbots by making them talk to each other (ChatMatch, Yang et al. 2022)."""

__version__ = "0.1.0"
