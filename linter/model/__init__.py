"""The semantic model every analysis queries: the project index of modules (`project`), names,
scopes and callees (`semantic`), which functions are tools (`tools`), which tools run together
(`groups`), and the one call-graph walk from a tool (`callgraph`).
"""
