"""Readers for the files quantcheck takes as input, validated row by row."""
