"""`python -m drafterlint.docs`: the generator's flags are parsed where every command line is."""

from drafterlint.cli import docs_main

raise SystemExit(docs_main())
