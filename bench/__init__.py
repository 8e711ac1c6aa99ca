"""Benchmarks: each script measures and writes JSON to bench/results/."""
