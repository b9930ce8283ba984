"""The ``vigencia`` command line: ``main`` builds the parser; ``loading``, ``search``, ``serve``,
``evaluation`` and ``monitoring`` hold the commands."""
