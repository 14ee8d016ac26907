"""Floor 0: the records every layer speaks (`Diagnostic`, `Loc`) and careful file I/O (bounded reads,
safe writes, path patterns, escaping for output). Imports nothing else of siblint.
"""
