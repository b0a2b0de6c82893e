"""Bind a syntax tree to the ModelConfig schema of one Triton release."""
