from .interfaces.cli import main

main()
