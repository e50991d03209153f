"""Changsha (长沙麻将) ruleset plug-in (docs/reference/rules/changsha.md).

Modules, one per concept: :mod:`.options` (the §6 options, each with its rule source),
:mod:`.units` (opening small wins, the small win and the big wins with English and Chinese
names), :mod:`.evaluate` (opening declarations, a win's units with the 2-5-8 pair rule through
the shared decomposition), :mod:`.settlement` (§5 payments, birds, kong money, component by
component), :mod:`.dealer` (§2 rules A–G), :mod:`.vectors` (the settlement-vector format of
tests/data/changsha/README.md)."""
