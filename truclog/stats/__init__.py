"""Statistics: logs flattened into polars tables, and per-player statistics from them.

:mod:`truclog.stats.tables` builds the ``games``, ``hands`` and ``actions``
tables; :mod:`truclog.stats.players` counts per player and team in polars, and
:mod:`truclog.stats.counts` adds the counts up and takes the rates (without polars);
:mod:`truclog.stats.run` streams a corpus through both;
:mod:`truclog.stats.export` writes the tables as Parquet datasets that never mix.
"""
