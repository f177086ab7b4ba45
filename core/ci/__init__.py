"""What halgate does inside a CI job beyond judging: the pull-request comment."""

from .github_comment import MARKER, CommentResult, GitHubError, PullRequest, upsert_comment

__all__ = ["MARKER", "CommentResult", "GitHubError", "PullRequest", "upsert_comment"]
