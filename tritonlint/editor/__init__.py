"""Editor features over tritonlint's own types: what a language server asks of a config.

Positions are 1-based lines and columns in code points, results plain named tuples; the
server converts them to its protocol's types.
"""
