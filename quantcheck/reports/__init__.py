"""Presenting verdicts to people: summary lines, tables, charts and result files."""
