"""The recorder's screens: start a game, record it, and the dialogs and help on top."""
