"""Front ends that turn diagnostics into something to read: text, JSON."""
