"""Doc snippets of the MCR fan modules run as tests (shared/STYLE.md)."""

import doctest

import replayer.rules.mcr.fans as fans


def test_fans_package_docstring_examples():
    result = doctest.testmod(fans)
    assert result.attempted > 0 and result.failed == 0
