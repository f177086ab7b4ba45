"""Run the fake by hand: ``python -m tests.fake_openai --port 8765 [--mode M]``."""

from __future__ import annotations

import argparse

from . import FakeOpenAI


def main() -> None:
    """Run the fake by hand for demos."""
    parser = argparse.ArgumentParser(description="A local fake of the OpenAI chat-completions API.")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--mode",
        default="overlap",
        choices=["overlap", "echo-supported", "prefer-a", "flaky", "gullible", "strict-schema"],
    )
    parser.add_argument("--latency", type=float, default=0.0, help="Seconds per reply.")
    args = parser.parse_args()
    fake = FakeOpenAI(args.port, args.mode, args.latency)
    print(f"fake OpenAI server on {fake.url} (mode {args.mode}); Ctrl-C stops it", flush=True)
    try:
        fake._server.serve_forever()
    except KeyboardInterrupt:
        fake.stop()


main()
