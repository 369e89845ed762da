"""The Textual recorder (``truclog record``): see :mod:`truclog.tui.record.app`."""
