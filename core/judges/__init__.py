"""Judges: the offline judge (default) and the LLM judge, registered by name.

The public API of judges for the faces: build the judge a run asks for, list the registered
names, and the records a judge hands back.
"""

from .build import build_judge, judge_name
from .protocol import Judge, JudgeResult, JudgeTask
from .registry import create_judge, judge_names, register_judge

__all__ = [
    "Judge",
    "JudgeResult",
    "JudgeTask",
    "build_judge",
    "create_judge",
    "judge_name",
    "judge_names",
    "register_judge",
]
