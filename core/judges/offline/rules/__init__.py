"""The offline judge's rules, one module each (every module defines ``RULE``).

table.py discovers them by listing this package, so a new rule is one new module here
plus its tests; no module of this package imports another (import-linter contract).
"""
