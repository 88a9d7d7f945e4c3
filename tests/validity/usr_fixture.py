"""A tiny file in USR's pc_usr_data.json format (made-up text, not USR's)."""

import json
from pathlib import Path

RESPONDERS = ("Original Ground Truth", "New Human Generated", "KV-MemNN", "Seq2Seq",
              "Language Model")


def build(folder: Path, contexts: int = 4) -> Path:
    """Responder k's replies get Natural 3 - k/2 and Overall 5 - k (mean over annotators)."""
    folder.mkdir(parents=True, exist_ok=True)
    items = []
    for i in range(contexts):
        responses = []
        for k, model in enumerate(RESPONDERS):
            responses.append({"model": model, "response": f"reply {i} of {model.lower()}, with "
                              f"{'some ' * k}words\n",
                              "Natural": [3 - k // 2, 3 - (k + 1) // 2, 3 - k // 2],
                              "Overall": [5 - k, 5 - k, 5 - k], "Understandable": [1, 1, 1],
                              "Maintains Context": [3, 2, 3], "Engaging": [2, 2, 2],
                              "Uses Knowledge": [0, 1, 0]})
        items.append({"context": f"hello there {i}\nhi , how are you ?\nfine , and you {i} ?\n",
                      "fact": "your persona: i like tests.\n", "annotators": ["a", "b", "c"],
                      "responses": responses})
    path = folder / "pc_usr_data.json"
    path.write_text(json.dumps(items))
    return path
