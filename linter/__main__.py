from siblint.cli import main

main()
