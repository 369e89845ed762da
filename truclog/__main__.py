from truclog.cli import run

run()
