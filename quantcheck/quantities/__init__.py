"""Quantity language: finding numbers, units, dates, bounds and ranges in text (pure)."""
