"""Agent memory stores: what a tool adds, changes or deletes there outlives the run (mem0)."""

from __future__ import annotations

from .rows import Row, methods

_VERBS = "add update delete delete_all batch_update batch_delete reset"

ROWS: tuple[Row, ...] = (
    *methods("mem0.MemoryClient mem0.client.main.MemoryClient mem0.Memory mem0.memory.main.Memory mem0.Memory.from_config",
             _VERBS, "{name} (memory store)", True, "memory"),
    *methods("mem0.AsyncMemoryClient mem0.client.main.AsyncMemoryClient mem0.AsyncMemory "
             "mem0.memory.main.AsyncMemory mem0.AsyncMemory.from_config", _VERBS, "{name} (memory store)", False,
             "memory"),
)
