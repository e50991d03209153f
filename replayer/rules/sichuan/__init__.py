"""Sichuan / Chengdu 血战到底 (blood battle) ruleset: docs/reference/rules/sichuan.md, seed 002
(second half).

Modules, one per concept: :mod:`.options` (the §9 options), :mod:`.evaluate` (shapes through the
shared decomposition, base patterns, 根 and additions, waits of a ready hand), :mod:`.settlement`
(the hand's ledger: kong payments, win payments, 呼叫转移, 查花猪 / 查大叫, 退税, 过水不胡 and
后4张必胡, next dealer), :mod:`.vectors` (the settlement-vector format of
tests/data/sichuan/README.md). Glossary in README.md beside this file.
"""
