"""One guard for every judge: an exception in one case becomes that case's failure record.

A judge's ``judge`` should report a failing task as errors, not raise; a plug-in may not.
The engine calls judges only through :func:`guarded_judge`, so whatever a judge raises on
one task turns that task's answers into HARNESS_ERROR with a typed
:class:`~halgate.models.JudgeFailure` (judge id, exception type, message, raw reply), and
every other task is still judged. Errors a judge reports itself get the same record.
halgate's own errors (:class:`~halgate.errors.HalgateError`: bad usage or configuration, an
unreachable endpoint, a batch the provider has not finished) concern the whole run, not a
case, and stop it as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import HalgateError
from ..judges.protocol import Judge, JudgeResult, JudgeTask, ProgressCallback
from ..models import JudgeFailure


def guarded_judge(
    judge: Judge, tasks: Sequence[JudgeTask], progress: ProgressCallback | None = None
) -> list[JudgeResult]:
    """Judge every task; when the judge raises, judge the tasks it had not reported one by
    one, and a task that raises alone becomes a failure record."""
    reported: dict[str, JudgeResult] = {}

    def tick(result: JudgeResult) -> None:
        reported[result.case_id] = result
        if progress:
            progress(result)

    try:
        results = judge.judge(tasks, tick)
    except HalgateError:
        raise
    except Exception:  # the guard: one bad case must not sink the run
        results = [reported.get(t.case.case_id) or _alone(judge, t, progress) for t in tasks]
    judge_id = judge.spec.judge_id
    for r in results:
        _type_errors(r, judge_id)
    return results


def _alone(judge: Judge, task: JudgeTask, progress: ProgressCallback | None) -> JudgeResult:
    try:
        return judge.judge([task], progress)[0]
    except HalgateError:
        raise
    except Exception as exc:
        result = failed_result(task, judge.spec.judge_id, exc)
        if progress:
            progress(result)
        return result


def failed_result(task: JudgeTask, judge_id: str, exc: BaseException) -> JudgeResult:
    """The result of a task the judge raised on: every answer a harness error."""
    failure = JudgeFailure(
        judge_id=judge_id,
        exception_type=type(exc).__name__,
        message=str(exc),
        raw_reply=getattr(exc, "raw_reply", None),
    )
    text = f"{judge_id} raised {failure.exception_type}: {failure.message}"
    return JudgeResult(
        task.case.case_id,
        errors=dict.fromkeys(task.answers, text),
        failures=dict.fromkeys(task.answers, failure),
    )


def _type_errors(result: JudgeResult, judge_id: str) -> None:
    """A typed record for each error the judge reported without one."""
    for system, message in result.errors.items():
        if system not in result.failures:
            result.failures[system] = JudgeFailure(
                judge_id=judge_id, message=message, raw_reply=result.raw.get(system)
            )
