from truclog.cli import main

main()
