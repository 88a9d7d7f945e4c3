"""Versioned judge prompts. Every template has a name and a version; the exact text, its
version and its sha256 are written to ``RUN/judges/`` so a ranking can be reproduced.

Placeholders are ``{{name}}`` (G-EVAL's convention). ``answer_prefix`` is the start of the
judge's answer: a local model and a completions endpoint continue it (so the next token is
the score or the letter); a chat endpoint cannot be made to, and is only asked.

Sources: PairEval (Park et al. 2024) pairwise prompt; G-EVAL (Liu et al. 2023) evaluation
form as used in the FED/TopicalChat analysis (naturalness, coherence, engagingness,
groundedness, 1-5, evaluation steps); the AMR + SLM paper's Table 1 / Appendix A prompts;
the adversarial paper's Figure 3 template with the level definitions of its Appendix A.1.
Change a text -> bump its version.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from chatmatch.judges.backends import JudgeError

_FIELD = re.compile(r"\{\{(\w+)\}\}")


@dataclass(frozen=True)
class PromptTemplate:
    name: str
    version: str
    text: str
    answer_prefix: str = ""

    @property
    def fields(self) -> list[str]:
        return sorted(set(_FIELD.findall(self.text + self.answer_prefix)))

    @property
    def sha256(self) -> str:
        return hashlib.sha256((self.text + "\x00" + self.answer_prefix).encode()).hexdigest()

    def _fill(self, text: str, values: dict[str, Any]) -> str:
        return _FIELD.sub(lambda m: str(values[m.group(1)]), text)

    def render(self, **values: Any) -> tuple[str, str]:
        """(prompt, answer prefix) with every placeholder filled."""
        missing = [f for f in self.fields if f not in values]
        if missing:
            raise JudgeError(f"prompt {self.name} v{self.version}: no value for {', '.join(missing)}")
        return self._fill(self.text, values), self._fill(self.answer_prefix, values)

    def record(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "sha256": self.sha256,
                "text": self.text, "answer_prefix": self.answer_prefix}


PAIREVAL_TURN = PromptTemplate("paireval-turn", "1", """\
Below are two conversations. Each ends with a response. Compare the two responses and \
choose the one of higher quality: the better follow-up to its own conversation (appropriate, \
coherent, specific and engaging).

Conversation A:
{{context_a}}
Response A: {{response_a}}

Conversation B:
{{context_b}}
Response B: {{response_b}}

Which response is better? Answer with a single letter, A or B.""", "The better response is")

PAIREVAL_GAME = PromptTemplate("paireval-game", "1", """\
Below is a conversation between two speakers, A and B. Compare the two speakers and choose \
the better conversational partner: the one whose turns are more appropriate, coherent, \
specific and engaging.

{{dialogue}}

Which speaker is better? Answer with a single letter, A or B.""", "The better speaker is")

GEVAL_TURN = PromptTemplate("geval-turn", "1", """\
You will be given a dialogue context, a related fact and a response.
Your task is to rate the response on one metric: {{criterion}}.
Please respond ONLY with the score.

Evaluation Criteria:
{{criterion}} ({{low}}-{{high}}): {{definition}}

Evaluation Steps:
{{steps}}

Dialogue Context:
{{context}}

Fact:
{{fact}}

Response:
{{response}}

Evaluation Form (scores ONLY):
- {{criterion}}:""", "{{criterion}}:")

GEVAL_DIALOGUE = PromptTemplate("geval-dialogue", "1", """\
You will be given a dialogue between speakers {{speakers}} and a related fact.
Your task is to rate the turns of speaker {{speaker}} on one metric: {{criterion}}.
Please respond ONLY with the score.

Evaluation Criteria:
{{criterion}} ({{low}}-{{high}}): {{definition}}

Evaluation Steps:
{{steps}}

Dialogue:
{{dialogue}}

Fact:
{{fact}}

Evaluation Form (scores ONLY):
- {{criterion}} of speaker {{speaker}}:""", "{{criterion}}:")

GEVAL_STEPS = PromptTemplate("geval-steps", "1", """\
You will be given {{unit}}. Your task is to rate it on one metric: {{criterion}}.

Evaluation Criteria:
{{criterion}} ({{low}}-{{high}}): {{definition}}

Write the evaluation steps: a short numbered list of what a careful rater checks, one \
step per line.""", "Evaluation Steps:\n1.")

AMR_TURN = PromptTemplate("amr-turn", "1", """\
Rate the dialogue response.
Use the prediction probability from the SLMs and {{graph_kind}} of the conversation pair \
to aid your judgment.

Note: Please take the time to fully read and understand the dialogue response.

{{question}} (on a scale of 1-5, with 1 being the lowest)

Input:

Conversation Context:
{{context}}
Response:
{{response}}

{{graph_kind}}:
{{graph}}

SLM score:
{{slm_score}}

Evaluation Form (Score ONLY):
{{criterion}}:""", "{{criterion}}:")

ASPECT_TURN = PromptTemplate("aspect-turn", "1", """\
You act as a scoring system to rate response according to specified aspect.
###
Define {{aspect}} : {{definition}}
Levels:
{{levels}}
###
Dialogue history : {{context}}
###
corresponding response: {{response}}
###
the fact : {{fact}}
Rate the response from {{aspect}}. The score is from 0 to 1. Please output a score.""",
                             "The score is")

TEMPLATES = {t.name: t for t in (PAIREVAL_TURN, PAIREVAL_GAME, GEVAL_TURN, GEVAL_DIALOGUE,
                                 GEVAL_STEPS, AMR_TURN, ASPECT_TURN)}

#: G-EVAL criteria as in the FED/TopicalChat analysis (1-5).
GEVAL_CRITERIA = {
    "naturalness": "Is the response human-like, natural, and conversational in tone?",
    "coherence": "Does the response logically follow the dialogue context, maintaining the "
                 "flow of the conversation?",
    "engagingness": "Is the response interesting and engaging for the user? Does it "
                    "encourage continued interaction?",
    "groundedness": "Does the response provide accurate and factual information that aligns "
                    "with the dialogue context and the provided fact? Does it avoid "
                    "unsupported statements?",
}

#: The hand-written evaluation steps of the analysis paper (used unless auto_steps).
GEVAL_DEFAULT_STEPS = """\
1. Carefully read the dialogue context to understand its tone, key points, and overall structure.
2. Review the provided fact and use it to verify the accuracy of the response.
3. Analyze the response to determine if it aligns with the dialogue context and maintains \
engagement based on the evaluation criteria.
4. Assign a score for the criterion on a scale of 1 to 5, where 1 indicates the lowest \
quality and 5 the highest quality."""

#: The AMR paper's questions (Appendix A).
AMR_QUESTIONS = {
    "engagingness": "How dull/interest is the text of the dialogue response?",
    "naturalness": "To what extent the response is naturally written",
    "coherence": "To what extent the response is well-structured, logical, and meaningful",
    "groundedness": "To what extent the response is grounded in facts present in the context",
}
