"""The validity lab (``chatmatch validate``): how well chatmatch agrees with people.

``lab`` runs it (config, datasets, scoring, progress); ``stb`` reads Spot The Bot and
``human_stb`` derives its human rankings; ``cleaning`` strips model artefacts; ``games``
measures agreement on bot-bot games (STB, the ladder); ``fed_lab`` on FED dialogues;
``ladder`` plays the fault ladder; ``report`` prints the tables. See docs/validity.md.
"""
