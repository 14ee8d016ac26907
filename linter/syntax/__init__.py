"""The Python front end: bytes to a libcst tree under guards (`source`), one walk of that tree into
`ModuleFacts` (`collector`, `facts`), and the cheap pre-filter that decides whether to parse at all.
"""
