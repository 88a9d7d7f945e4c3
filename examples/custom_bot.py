"""A complete custom bot in a few lines.

Name it in a tournament YAML by import path (docs/bots.md, "A custom bot in a few lines")::

    bots:
      - name: curious
        adapter: examples.custom_bot:Curious
        params: {greeting: "Hi! What's new?"}
"""

from __future__ import annotations

import re

from chatmatch.bot import Bot, History


class Curious(Bot):
    """Asks about the longest word of the partner's last turn, never the same word twice."""

    description = "Asks a follow-up question about what the partner just said."
    thread_safe = True  # no state on self: safe to call from several games at once

    def __init__(self, name: str = "", *, greeting: str = "Hi! What's new with you?") -> None:
        super().__init__(name)
        self.greeting = greeting

    def reply(self, history: History) -> str:
        asked = " ".join(m.text for m in history.messages if m.role == "self").lower()
        words = re.findall(r"[A-Za-z']{4,}", history.last_partner_text)
        fresh = [w for w in sorted(words, key=len, reverse=True) if w.lower() not in asked]
        return f"Tell me more: what about {fresh[0].lower()}?" if fresh else self.greeting
