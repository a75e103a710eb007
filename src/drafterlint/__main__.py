from drafterlint.front import main

raise SystemExit(main())
