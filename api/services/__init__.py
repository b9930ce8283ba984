"""The use cases: search, chat and answers, timelines, notes, corpus, evaluation, tuning and
monitoring. The GraphQL API and the CLI call these; the ranking math lives in ``api.core``.

``container.Services`` wires them from settings, through ``factory``.
"""
