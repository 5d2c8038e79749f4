"""`python -m gitcorrex` runs the same CLI as `git correx`."""

from gitcorrex.cli import main

main()
