"""Variant presets as data: each TOML table names a base ruleset and its options
(shared/DESIGN.md §6). Read by :func:`replayer.rules.base.presets`."""
