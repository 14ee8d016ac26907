from .interfaces.cli import console

console()
