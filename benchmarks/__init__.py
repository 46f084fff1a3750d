"""Reproducible speed measurements: ``python -m benchmarks.run`` writes RESULTS.md.

Speed targets are measured here and reported, never asserted in tests, so a
slow machine or a busy CI runner cannot fail the test suite.
"""
