from sharpbits.cli import main

raise SystemExit(main())
