"""The truclog/1 line format: the game line (:mod:`~truclog.format.header`), the events
(:mod:`~truclog.format.events`), reading logs (:mod:`~truclog.format.reader`, with
:mod:`~truclog.format.shapes`, :mod:`~truclog.format.copies` and
:mod:`~truclog.format.remote`), writing them (:mod:`~truclog.format.writer`,
:mod:`~truclog.format.atomic`) and the lines a table writes once the engine has
decided (:mod:`~truclog.format.scorekeeper`)."""
