"""Data shipped with halgate: schemas, prompts, calibration and example suites."""
