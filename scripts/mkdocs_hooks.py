"""MkDocs hooks of the documentation site (``mkdocs.yml`` -> ``hooks``).

The site's home page is the repository's README.md, so the quick start is written once. The
README links to the other pages as ``docs/NAME.md`` (correct on GitHub, where it sits at the
root); on the site it is ``docs/index.md``, so those links lose their ``docs/`` prefix.

The API reference renders docstrings written with Sphinx roles (``:class:`Provider```); the
role prefix is dropped from the rendered page, leaving the name as code.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

HOME_PAGE = "index.md"
README = "README.md"

_DOCS_LINK = re.compile(r"\]\(docs/([^)\s]+)\)")
_SPHINX_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|mod|data|exc|obj|const):<code>~?")


def readme_as_home_page(text: str) -> str:
    """The README's Markdown with its ``docs/...`` links made relative to the docs folder."""
    return _DOCS_LINK.sub(r"](\1)", text)


def on_page_markdown(markdown: str, *, page: Any, config: Any, files: Any) -> str:
    """Replace the home page's placeholder with the README (MkDocs calls this for every page)."""
    if page.file.src_uri != HOME_PAGE:
        return markdown
    root = Path(config.config_file_path).parent
    return readme_as_home_page((root / README).read_text(encoding="utf-8"))


def on_page_content(html: str, *, page: Any, config: Any, files: Any) -> str:
    """Drop Sphinx role prefixes (``:class:``, and a ``~``) of code in the rendered page."""
    return _SPHINX_ROLE.sub("<code>", html)
