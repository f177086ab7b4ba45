"""Exceptions halgate raises; the CLI turns each into one clear line and an exit code."""

from __future__ import annotations


class HalgateError(Exception):
    """Base of every expected halgate error."""


class UsageError(HalgateError):
    """Bad options or arguments (exit code 4)."""


class SuiteError(HalgateError):
    """A suite folder has problems; every problem is listed as `path:line: field: message`."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s) in suite:\n" + "\n".join(problems))


class PolicyError(HalgateError):
    """A policy file is invalid."""


class ReportError(HalgateError):
    """A report file does not match the published schema."""


class StoreError(HalgateError):
    """The review database cannot be opened or used (wrong file, newer schema, locked)."""


class RunAlteredError(StoreError):
    """A stored run no longer matches the report hash recorded when it was stored or signed
    off: it was edited outside halgate (exit code 4; nothing is decided from it)."""


class NotFoundError(HalgateError):
    """A run, claim or other record named by the user does not exist in the store."""


class PermissionDeniedError(HalgateError):
    """The named person may not do this (e.g. sign off without being a release manager)."""


class EndpointError(HalgateError):
    """The LLM endpoint cannot be used at all (unreachable, key refused, model unknown): a
    configuration problem, found before anything was judged (exit code 4)."""


class IngestError(HalgateError):
    """A source being imported is unusable; the message names the file, the row or span and
    the field (exit code 4, nothing written)."""

    def __init__(self, source: str, where: str | None, field: str, message: str):
        self.source, self.where, self.field = source, where, field
        at = f"{source}:{where}" if where else source
        super().__init__(f"{at}: {field}: {message}")
