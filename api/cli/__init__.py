"""The ``vigencia`` command line: ``main`` builds the parser, ``monitoring`` adds its commands."""
