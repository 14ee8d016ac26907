"""How users meet siblint: the click CLI, the flake8 plugin, the language server (and the analysis
session it keeps), baselines, `--add-noqa`, and the rule documentation renderer.
"""
