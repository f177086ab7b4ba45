"""The LLM judge: any OpenAI-compatible endpoint, validated, cached, concurrent, cheap.

Registered as ``llm``. The pipeline per case: plan requests (``llm_requests``), ask them
concurrently through the cache (``llm_ask``), then post-check the parsed replies against the
answer and the sources (``llm_post``). A failure in one case is caught here, in exactly one
place, and recorded as that case's harness error; the run goes on.

With a ``prefetch`` (the Batch API, ``halgate.judges.llm_batch``), every planned call the
cache cannot answer is first handed to it; it returns their replies, or raises while they
are still pending (nothing is judged then). The cases are then settled as usual, the replies
standing between the cache and the model.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar, cast

from ...database import parse_target, target_exists
from ...errors import EndpointError, UsageError
from ...inputs.policy import Policy, SeverityRules
from ...models import (
    SHOULD_ABSTAIN_TAG,
    ClaimJudgement,
    JudgeSpec,
    Mode,
    PairwiseJudgement,
    Preference,
)
from ..pairwise import OrderVerdict, combine_swapped, failed_pair, prefer_by_claims
from ..protocol import JudgeResult, JudgeTask, ProgressCallback
from ..registry import register_judge
from .ask import Asker, Outcome, PlannedCall, Prefetch, Prefetched
from .batch import Batch, batch_prompt_version, pack_batches
from .batch_ask import Batcher
from .cache import JudgeCache, NoCache
from .client import ChatClient
from .config import LLMSettings, public_url, redact, resolve_settings
from .estimate import CostEstimate, estimate_requests
from .post import PostContext, judge_answer
from .reply_schemas import ClaimsOutput, PairwiseOutput
from .requests import Request, claim_requests, pairwise_requests, task_mode
from .samples import by_case, merge_samples, resampled

T = TypeVar("T")


Planner = Callable[[JudgeTask], list[Request]]
Finisher = Callable[[JudgeTask, list[Request], list[Outcome]], JudgeResult]


class LLMJudge:
    """Judges claims (compare, gate, consistency) and pairs (pairwise) with a chat model."""

    def __init__(
        self,
        settings: LLMSettings,
        severity_rules: SeverityRules | None = None,
        mode: Mode | None = None,
        cache: bool = True,
        prefetch: Prefetch | None = None,
        samples: int = 1,
    ) -> None:
        self.settings = settings
        self.samples = samples
        self.rules = severity_rules or SeverityRules()
        self.mode = mode
        self.use_cache = cache and bool(settings.db)
        self.prefetch = prefetch
        stem = f"{mode.value}-{settings.prompt_version}" if mode else settings.prompt_version
        batch_version = batch_prompt_version(mode, settings)
        options: dict[str, Any] = {
            "base_url": public_url(settings.base_url),
            "temperature": 0,
            "context_budget": settings.context_budget,
            "max_repairs": settings.max_repairs,
            "severity_from": settings.severity_from,
        }
        if batch_version:  # the batch prompt judges too: it is part of the judge id
            stem = f"{stem}+{batch_version}"
            options |= {"batch_tokens": settings.batch_tokens, "max_batch": settings.max_batch}
        if samples > 1:  # repeated judging: the report's figures read every sample
            options["samples"] = samples
        if prefetch is not None:
            options["batch_api"] = True  # replies come from the Batch API (not in the judge id)
        self.spec = JudgeSpec(
            name="llm", model=settings.model, prompt_version=stem, options=options
        )

    # ------------------------------------------------------------------ public API

    def judge(
        self, tasks: Sequence[JudgeTask], progress: ProgressCallback | None = None
    ) -> list[JudgeResult]:
        """Judge the claims of every task; results in task order."""

        def plan(task: JudgeTask) -> list[Request]:
            return claim_requests(task, task_mode(task, self.mode), self.settings)

        if self.samples == 1:
            return _run_sync(lambda: self._run(tasks, plan, self._claims_result, progress))
        others = [by_case(self._sample(tasks, s)) for s in range(2, self.samples + 1)]

        def finish(task: JudgeTask, reqs: list[Request], outs: list[Outcome]) -> JudgeResult:
            first = self._claims_result(task, reqs, outs)
            cid = task.case.case_id
            return merge_samples(first, [o[cid] for o in others if cid in o])

        return _run_sync(lambda: self._run(tasks, plan, finish, progress))

    def _sample(self, tasks: Sequence[JudgeTask], sample: int) -> list[JudgeResult]:
        """Sample ``sample`` (2..k) of every task's claims, one case per request
        (``samples``)."""
        alone = self.settings.model_copy(update={"batch_tokens": 0})
        judge = LLMJudge(alone, self.rules, self.mode, self.use_cache)

        def plan(task: JudgeTask) -> list[Request]:
            planned = claim_requests(task, task_mode(task, self.mode), alone)
            return [resampled(r, sample, self.samples, alone) for r in planned]

        return _run_sync(lambda: judge._run(tasks, plan, judge._claims_result, None))

    def judge_pairwise(
        self,
        tasks: Sequence[JudgeTask],
        systems: Sequence[str],
        progress: ProgressCallback | None = None,
    ) -> tuple[list[JudgeResult], list[PairwiseJudgement]]:
        """Judge each pair twice with the positions swapped (engine's pairwise hook)."""
        pair = (systems[0], systems[1])
        verdicts: dict[str, PairwiseJudgement] = {}

        def plan(task: JudgeTask) -> list[Request]:
            return pairwise_requests(task, pair, self.settings) if len(task.answers) == 2 else []

        def finish(task: JudgeTask, _: list[Request], outcomes: list[Outcome]) -> JudgeResult:
            result, judgement = self._pair_result(task, outcomes, pair)
            verdicts[task.case.case_id] = judgement
            return result

        results = _run_sync(lambda: self._run(tasks, plan, finish, progress))
        pairs = [
            verdicts.get(r.case_id) or failed_pair(r.case_id, *pair, "; ".join(r.errors.values()))
            for r in results
        ]
        return results, pairs

    def estimate(
        self, tasks: Sequence[JudgeTask], mode: Mode, systems: Sequence[str]
    ) -> CostEstimate:
        """Calls, tokens and cost a run would take, without calling anything (dry run)."""
        if mode == Mode.PAIRWISE:
            pair = (systems[0], systems[1])
            reqs = [
                r
                for t in tasks
                if len(t.answers) == 2
                for r in pairwise_requests(t, pair, self.settings)
            ]
            batches: list[Batch] = []
        else:
            plans = [claim_requests(t, task_mode(t, mode), self.settings) for t in tasks]
            batches = pack_batches(plans, self.settings)
            reqs = [r for plan in plans for r in plan]
        known = self.use_cache and target_exists(parse_target(self.settings.db or ""))
        db = self.settings.db if known else None
        return estimate_requests(reqs, len(tasks), self.settings, db, batches)

    # ------------------------------------------------------------------ orchestration

    async def _run(
        self,
        tasks: Sequence[JudgeTask],
        plan: Planner,
        finish: Finisher,
        progress: ProgressCallback | None,
    ) -> list[JudgeResult]:
        if self.settings.api_key is None and not self.settings.base_url:
            raise UsageError(
                "the llm judge needs an API key for the OpenAI API: set OPENAI_API_KEY, pass "
                "--api-key, or set api_key in the [llm] section of halgate.toml"
            )
        if self.prefetch is not None and not self.use_cache:
            raise UsageError(
                "--batch-api needs the review database (--db): batches and their replies are "
                "kept there until the run is finished"
            )
        plans = [_plan(task, plan) for task in tasks]
        batches = pack_batches([p for p in plans if isinstance(p, list)], self.settings)
        db = self.settings.db if self.use_cache else None  # use_cache implies a db path
        cache = JudgeCache(db) if db else NoCache()
        client = ChatClient(self.settings)
        prefetched: dict[str, Prefetched] = {}
        try:
            if self.prefetch is not None:
                calls = _calls(plans, batches)
                prefetched = dict(await self.prefetch.prefetch(calls, cache, self.settings))
        except BaseException:
            await client.aclose()
            cache.close()
            raise
        batcher = Batcher(Asker(self.settings, client, cache, prefetched), batches)
        try:

            async def one(task: JudgeTask, planned: list[Request] | Exception) -> JudgeResult:
                result = await self._one_case(task, planned, batcher, finish)
                if progress is not None:
                    progress(result)
                return result

            running = [asyncio.ensure_future(one(t, p)) for t, p in zip(tasks, plans, strict=True)]
            try:
                results = list(await asyncio.gather(*running))
                if self.prefetch is not None:
                    self.prefetch.finish()
                return results
            except BaseException:  # e.g. the endpoint is unusable: stop every case now
                for job in running:
                    job.cancel()
                await asyncio.gather(*running, return_exceptions=True)
                raise
        finally:
            await batcher.aclose()
            await client.aclose()
            cache.close()

    async def _one_case(
        self,
        task: JudgeTask,
        planned: list[Request] | Exception,
        batcher: Batcher,
        finish: Finisher,
    ) -> JudgeResult:
        """The one place a case's unexpected failure is caught and recorded."""
        try:
            if isinstance(planned, Exception):
                raise planned  # planning failed before the run started: record it here
            requests = planned
            outcomes = list(await asyncio.gather(*(batcher.ask(r) for r in requests)))
            return finish(task, requests, outcomes)
        except (UsageError, EndpointError):
            raise  # a bad option, prompt file or endpoint: the whole run is wrong, say so once
        except Exception as exc:  # noqa: BLE001 - recorded as the case's harness error
            secret = self.settings.api_key.get_secret_value() if self.settings.api_key else None
            msg = redact(f"internal error while judging: {type(exc).__name__}: {exc}", secret)
            return JudgeResult(case_id=task.case.case_id, errors={s: msg for s in task.answers})

    # ------------------------------------------------------------------ assembling

    def _claims_result(
        self, task: JudgeTask, requests: list[Request], outcomes: list[Outcome]
    ) -> JudgeResult:
        result = JudgeResult(case_id=task.case.case_id)
        usage: Counter[str] = Counter()
        for req, out in zip(requests, outcomes, strict=True):
            usage.update(out.usage)
            if out.parsed is None:
                for system in req.labels.values():
                    result.errors[system] = out.error or "no reply"
                    result.raw[system] = out.raw
                continue
            parsed = cast(ClaimsOutput, out.parsed)  # claims requests parse to ClaimsOutput
            ctx = PostContext(
                task.case, task.documents, self.rules, self.settings.severity_from, req.windowed
            )
            for answer_id, answer_out in parsed.answers.items():
                system = req.labels[answer_id]
                result.claims[system] = judge_answer(answer_out, system, task.answers[system], ctx)
            usage.update({f"checks_{k}": v for k, v in ctx.checks.items()})
            usage["evidence_windowed"] += int(req.windowed)
        result.usage = {k: v for k, v in usage.items() if v or k in ("calls", "cached")}
        result.usage.setdefault("calls", 0)
        return result

    def _pair_result(
        self, task: JudgeTask, outcomes: list[Outcome], pair: tuple[str, str]
    ) -> tuple[JudgeResult, PairwiseJudgement]:
        cid = task.case.case_id
        result = JudgeResult(case_id=cid, usage={"calls": 0})
        for out in outcomes:
            for k, v in out.usage.items():
                result.usage[k] = result.usage.get(k, 0) + v
        if not outcomes:  # an answer is empty or nonsense: decided without the model
            a: list[ClaimJudgement] | None = [] if pair[0] in task.answers else None
            b: list[ClaimJudgement] | None = [] if pair[1] in task.answers else None
            abstain = SHOULD_ABSTAIN_TAG in task.case.tags
            first = prefer_by_claims(a, b, Policy(), should_abstain=abstain)
            back = prefer_by_claims(b, a, Policy(), should_abstain=abstain)
            return result, combine_swapped(cid, *pair, first, back)
        errors = [o.error or "no reply" for o in outcomes if o.parsed is None]
        if errors:
            result.errors = {s: errors[0] for s in pair}
            result.raw = {s: "\n".join(o.raw for o in outcomes) for s in pair}
            return result, failed_pair(cid, *pair, errors[0])
        first, swapped = (_order_verdict(o.parsed) for o in outcomes)
        judgement = combine_swapped(
            cid, *pair, first, swapped, self.settings.pairwise_min_confidence
        )
        return result, judgement


def _calls(
    plans: Sequence[list[Request] | Exception], batches: Sequence[Batch]
) -> list[PlannedCall]:
    """Every call a run plans: its batches of small cases, and the requests sent alone."""
    batched = {id(r) for b in batches for r in b.requests}
    alone = [r for p in plans if isinstance(p, list) for r in p if id(r) not in batched]
    return [*batches, *alone]


def _plan(task: JudgeTask, plan: Planner) -> list[Request] | Exception:
    """A case's requests, planned up front so small cases can be batched together.

    An unexpected failure is returned, not raised, so that ``_one_case`` records it as that
    case's harness error; a usage error (bad option, missing prompt) stops the run at once.
    """
    try:
        return plan(task)
    except UsageError:
        raise
    except Exception as exc:  # noqa: BLE001 - recorded by _one_case
        return exc


def _order_verdict(parsed: Any) -> OrderVerdict:
    """One order's reply (a PairwiseOutput) as the pairwise module's record."""
    parsed = cast(PairwiseOutput, parsed)
    return OrderVerdict(
        Preference(parsed.preference), parsed.justification, parsed.confidence, parsed.tie_breaker
    )


def _run_sync(make: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine from sync code, even when the caller already runs an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())  # type: ignore[arg-type]
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()  # type: ignore[arg-type]


@register_judge("llm")
def make_llm_judge(
    *,
    severity_rules: SeverityRules | None = None,
    mode: Mode | str | None = None,
    cache: bool = True,
    prefetch: Prefetch | None = None,
    samples: int = 1,
    **options: Any,
) -> LLMJudge:
    """Build the LLM judge from options, OPENAI_* / HALGATE_MODEL variables and config;
    ``prefetch`` (e.g. ``halgate.judges.llm_batch.BatchAPI``) fetches replies before the
    live calls."""
    try:
        import openai  # noqa: F401 - only to fail early with a helpful message
    except ImportError:  # pragma: no cover
        raise UsageError("the llm judge needs the openai package: pip install openai") from None
    settings = resolve_settings(options)
    return LLMJudge(
        settings, severity_rules, Mode(mode) if mode else None, cache, prefetch, samples
    )
