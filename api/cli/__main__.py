"""``python -m api.cli``: the same as the ``vigencia`` command."""

from api.cli.main import main

raise SystemExit(main())
