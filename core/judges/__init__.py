"""Judges: the offline judge (default) and the LLM judge, registered by name."""
