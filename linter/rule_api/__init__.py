"""The contract rules are written against (`Rule`, `Context`, VALID/INVALID examples) and the
registry that finds them. The rules themselves are plugins in `siblint.rules`, found by name.
"""
