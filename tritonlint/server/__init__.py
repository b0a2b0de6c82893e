"""Run the real Triton Inference Server: provision it, stub missing backends, load models."""
