"""HTTP to the OpenAI-compatible endpoints a user names: one client (client) on careful request helpers (safety)."""
