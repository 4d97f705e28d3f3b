"""Write ``endpoint_plugins/parsing/common_words.txt``: the common words of English.

The request parser lets weak evidence (a word listed next to a package, "assemble with X and
polish with Y") make a package of a word no catalogue knows. That evidence is worth little for
a word every English text uses ("after", "polish", "stack"), so such words need a strong cue
(a version, an install line, a ``name==version`` pin) before they count as package names.

"Common" is measured, not guessed: the words whose frequency in wordfreq's English data is at
least :data:`MIN_ZIPF` on the Zipf scale (once per 100,000 words or more). The list is shipped
as text so the parser needs neither wordfreq nor its data at run time.

Run: ``.venv/bin/python scripts/parsing/common_words.py`` (needs ``pip install wordfreq``).
"""

from __future__ import annotations

from pathlib import Path

MIN_ZIPF = 4.0
OUT = Path(__file__).resolve().parents[2] / "endpoint_plugins" / "parsing" / "common_words.txt"


def main() -> None:
    from importlib.metadata import version

    import wordfreq

    words = sorted(
        {
            w
            for w in wordfreq.top_n_list("en", 50_000)
            if w.isascii() and w.isalpha() and len(w) >= 3
            and wordfreq.zipf_frequency(w, "en") >= MIN_ZIPF
        }
    )  # fmt: skip
    header = (
        f"# English words with a wordfreq {version('wordfreq')} Zipf frequency >= {MIN_ZIPF}.\n"
        "# Written by scripts/parsing/common_words.py; do not edit by hand.\n"
    )
    OUT.write_text(header + "\n".join(words) + "\n", encoding="utf-8")
    print(f"{len(words)} words -> {OUT}")


if __name__ == "__main__":
    main()
