from spec_debug.cli import main

main()
