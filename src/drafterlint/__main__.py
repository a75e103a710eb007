from drafterlint.cli import main

raise SystemExit(main())
