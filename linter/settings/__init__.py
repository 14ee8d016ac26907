"""Configuration: `[tool.siblint]` in `pyproject.toml` / `siblint.toml` loaded and validated
(`config`), and the nearest configuration for each file (`resolver`).
"""
