"""siblint: finds agent tools whose side effects outlive a sibling's fatal failure."""

__version__ = "0.1.0"
