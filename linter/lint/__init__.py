"""Linting one file: bytes to facts to every enabled rule to findings (`engine`), and suppression
with `# noqa` (`noqa`).
"""
