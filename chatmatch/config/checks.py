"""What a tournament file is checked for beyond its schema, with the file and line of the
problem: a bot name given twice (alike once folded), a secret written in a bot's params or
anywhere else in the file, and seed utterances too long to be opening lines.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

from chatmatch.common.yamlloc import LocatedYaml
from chatmatch.endpoints.safety import credential_header, names_a_secret, redact
from chatmatch.config.names import name_key
from chatmatch.errors import ConfigError

#: longest seed utterance accepted, in characters
MAX_SEED_CHARS = 10_000


def check_seed_lengths(seeds: Sequence[str], many: bool, located: LocatedYaml) -> None:
    """A seed utterance is an opening line: at most :data:`MAX_SEED_CHARS` characters, so a
    pasted book cannot make every turn slow (ELIZA's matcher is quadratic in its input)."""
    for i, seed in enumerate(seeds):
        if len(seed) > MAX_SEED_CHARS:
            raise ConfigError(
                f"seed utterance has {len(seed):,} characters, more than the {MAX_SEED_CHARS:,} "
                "chatmatch accepts (an opening line, not a document); shorten it, or give a "
                "long context to the bots through their params", file=located.file,
                line=located.line_of(("seed_utterance", i) if many else ("seed_utterance",)),
                path=f"seed_utterance.{i}" if many else "seed_utterance")


def check_duplicate_bots(located: LocatedYaml, data: dict[str, Any]) -> None:
    bots = data.get("bots")
    if not isinstance(bots, list):
        return
    seen: dict[str, tuple[int, str]] = {}
    for i, b in enumerate(bots):
        name = b if isinstance(b, str) else (b.get("name") if isinstance(b, dict) else None)
        if not isinstance(name, str):
            continue
        key = name_key(name)
        if key in seen:
            first, first_name = seen[key]
            alike = ("" if first_name == name else f" (it looks like {first_name!r} but is "
                     f"spelled with other characters: {ascii(name)})")
            raise ConfigError(f"duplicate bot name '{name}'{alike} (first defined as bots.{first}); "
                              "give every bot a unique name", file=located.file,
                              line=located.line_of(("bots", i)), path=f"bots.{i}.name")
        seen[key] = (i, name)


#: bot parameters that would hold a secret written literally in the YAML
_SECRET_PARAMS = frozenset({"api_key", "apikey", "key", "token", "access_token", "secret",
                            "password", "authorization", "auth", "bearer"})
_SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "api-key", "x-api-key"})


#: parameters whose every word is checked for a credential (short identifiers, not prose)
_WORD_CHECKED = frozenset({"model", "model_name", "deployment", "organization", "project", "user"})


def holds_secret(text: str) -> bool:
    """A key or password in free text: a key-shaped word ("sk-...", "key=..."), or a named
    credential with its value written apart ("password: hunter2", "api_key = ...")."""
    return names_a_secret(text) or any(redact(w) != w for w in text.split())


def _key_shaped(name: object, value: object) -> bool:
    """A parameter value that looks like a credential: a one-word value (``model: sk-...``),
    or any word of an identifier-like parameter (``model: "gpt-4o sk-..."``). The base URL
    has its own check (chatmatch.endpoints.safety.check_base_url); free text (a persona)
    is not searched."""
    if name == "base_url" or not isinstance(value, str):
        return False
    if not any(c.isspace() for c in value) or str(name).lower() in _WORD_CHECKED:
        return any(redact(word) != word for word in value.split())
    return False


def check_no_literal_secrets(located: LocatedYaml, data: dict[str, Any]) -> None:
    """API keys come only from the environment: the resolved config is copied into the run
    directory, so a key written in the YAML would leak into every run."""
    bots = data.get("bots")
    for i, b in enumerate(bots if isinstance(bots, list) else []):
        params = b.get("params") if isinstance(b, dict) else None
        if not isinstance(params, dict):
            continue
        bad = [f"params.{k}" for k in params if str(k).lower().replace("-", "_") in _SECRET_PARAMS]
        bad += [f"params.{k}" for k, v in params.items() if _key_shaped(k, v)]
        headers = params.get("extra_headers")
        if isinstance(headers, dict):
            # a header named for a credential (Cookie, X-Api-Key) is refused by the endpoint's
            # own check with its own message; any other header must not hold a key either
            bad += [f"params.extra_headers.{h}" for h, v in headers.items()
                    if str(h).lower() in _SECRET_HEADERS
                    or (not credential_header(h) and isinstance(v, str)
                        and any(redact(w) != w for w in v.split()))]
        if bad:
            key = bad[0].split(".", 1)[1].split(".")
            raise ConfigError(
                "a secret written in the YAML is refused (it would be copied into the run "
                "directory); export it in an environment variable and name that variable "
                "with params.api_key_env, e.g. `api_key_env: OPENAI_API_KEY`",
                file=located.file, line=located.line_of(("bots", i, "params", *key)),
                path=f"bots.{i}.{bad[0]}")
    for where, text in _strings(data, ()):
        if not _own_check(where) and holds_secret(text):
            raise ConfigError(
                "holds a word that looks like an API key or password (sk-..., key=..., "
                "user:password@...), and the whole file is copied into the run directory's "
                "config.yaml; remove it: a key comes only from an environment variable, named "
                "with params.api_key_env", file=located.file, line=located.line_of(where),
                path=".".join(map(str, where)))


def _own_check(where: tuple[Any, ...]) -> bool:
    """A bot's or an HTTP judge's ``base_url`` and ``extra_headers`` have their own checks
    and messages (chatmatch.endpoints.safety)."""
    bot = len(where) >= 4 and where[0] == "bots" and where[2] == "params" \
        and where[3] in ("base_url", "extra_headers")
    judge = len(where) >= 4 and where[:2] == ("scoring", "params") \
        and where[3] in ("base_url", "extra_headers")
    return bot or judge


def _strings(node: Any, where: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every text of the file (keys included) with its path: free text (a persona, a
    description, a stop word, a seed utterance, a bot name) is copied to config.yaml too."""
    if isinstance(node, str):
        yield where, node
    elif isinstance(node, dict):
        for k, v in node.items():
            if isinstance(k, str):
                yield where, k
            yield from _strings(v, (*where, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _strings(v, (*where, i))
