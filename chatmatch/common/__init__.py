"""Shared low-level helpers that know nothing of the stages: bounded file reads, located YAML, strict config models, terminal tables, the registry pattern."""
