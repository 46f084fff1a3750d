"""Reproducible speed measurements: each ``python -m benchmarks.X`` writes its own section of RESULTS.md.

Speed targets are measured here and reported, never asserted in tests, so a
slow machine or a busy CI runner cannot fail the test suite.
"""
