from permitdesk.cli import main

raise SystemExit(main())
