"""Benchmarks: `python -m benchmarks` runs them all and writes benchmarks/results.json."""
