"""The frame of a message: its greeting and its signature, which carry names, never needs.

Support tickets and mailing-list posts open with "Hi Marta," and close with "Thanks, Priya /
Genomics Core, Dept. of Biology". Those lines hold names of people and places that no
vocabulary can list, and that would otherwise be quoted as unread phrases. Only the frame is
taken: a short greeting line at the start, and a sign-off near the end followed by at most a
few short lines. A sign-off followed by more request ("Thanks, and it also needs AVX-512") is
not a frame, and is read like any other text.
"""

from __future__ import annotations

import re

from endpoint_plugins.parsing.draft import Draft
from endpoint_plugins.parsing.scanner import FLAGS, Scanner

MAX_SIGNATURE_LINES = 4
MAX_FRAME_WORDS = 8

_GREETING_RE = re.compile(
    r"\s*(?:(?P<word>hi|hello|hey|hiya|dear|good\s+(?:morning|afternoon|evening)|greetings|"
    r"hallo|bonjour|hola|ciao)\b[^\n]{0,60}?(?:[,!:]|$)|(?P<subject>subject:[^\n]*?\b(?:re|fwd?):))",
    FLAGS | re.M,
)
_ADDRESSEE_RE = re.compile(r"[A-Za-z][\w.'&/-]*")
_FOREIGN_SIGN_OFFS = (
    r"gracias|muchas\s+gracias|saludos|un\s+saludo|atentamente|obrigad[oa]|abra[c\u00e7]os|"
    r"grazie(?:\s+mille)?|saluti|cordiali\s+saluti|ciao|merci(?:\s+beaucoup)?|cordialement|"
    r"bien\s+[\u00e0a]\s+vous|amicalement|danke(?:\s+sch[\u00f6o]n)?|vielen\s+dank|"
    r"(?:viele|beste|liebe)\s+gr[\u00fcu](?:\u00df|ss)e|mit\s+freundlichen\s+gr[\u00fcu](?:\u00df|ss)en|"
    r"mfg|groet(?:en|jes)?|met\s+vriendelijke\s+groet|bedankt|dank\s+je(?:\s+wel)?|"
    r"takk|kiitos|hilsen|dzi[\u0119e]kuj[\u0119e]|pozdrawiam|pozdrav|d[\u011be]kuji|"
    r"arigato|arigatou|xie\s*xie|shukran|spasibo|te\s+[s\u015f]ekk[\u00fcu]rler"
)
"""Thanks and sign-offs in the languages of Europe and beyond that writers of English keep
("Gracias,", "Ciao,", "Danke,", "Pozdrawiam,", "Groetjes,"), from the closing formulas of
letter-writing guides: alone on a line after the request, before a name, they close it."""
_SIGN_OFF_RE = re.compile(
    r"^[ \t]*(?:(?:many\s+thanks|thanks(?:\s+(?:a\s+lot|in\s+advance|again))?|thank\s+you|thx|"
    r"thanx|thnx|ty|cheers|regards|best(?:\s+(?:regards|wishes))?|kind\s+regards|"
    r"warm\s+regards|sincerely|yours|all\s+the\s+best|br|--+)\b[ \t]*[,.!]*"
    rf"|(?P<foreign>{_FOREIGN_SIGN_OFFS})[ \t]*[,.!]*(?=[ \t]*(?:\n|$)))",
    FLAGS | re.M,
)


_LIST_TAG_RE = re.compile(r"^[ \t]*subject:[ \t]*(?:\[[^\]\n]{1,40}\][ \t]*)+", FLAGS | re.M)
"""The mailing list's tag in a subject line ("[lqcd-users]")."""


def extract_frame(scanner: Scanner, draft: Draft) -> None:
    """Blank the greeting line and the signature block (see module docstring)."""
    scanner.take(_LIST_TAG_RE, lambda m: True)
    text = scanner.text
    greeting = _GREETING_RE.match(text)
    if greeting is not None and greeting.group("subject"):
        end = text.find("\n", greeting.end())  # the greeting may follow a reply's subject
        scanner.blank(*greeting.span())
        greeting = _GREETING_RE.match(text, end) if end >= 0 else None
    short = greeting is not None and (
        len(greeting.group(0).split()) <= 4 or greeting.group(0).rstrip().endswith((",", "!", ":"))
    )
    if (
        greeting
        and short
        and len(greeting.group(0).split()) <= MAX_FRAME_WORDS
        and _only_addressees(greeting)
    ):
        scanner.blank(*greeting.span())
    for sign_off in _SIGN_OFF_RE.finditer(scanner.text):
        if sign_off.group("foreign") and not scanner.text[: sign_off.start()].strip("\x00 \t\n"):
            continue  # "Ciao" that opens the message greets; it closes nothing
        tail = scanner.text[sign_off.end() :]
        lines = [line for line in tail.splitlines() if line.strip()]
        if len(lines) <= MAX_SIGNATURE_LINES and all(
            len(line.split()) <= MAX_FRAME_WORDS for line in lines
        ):
            scanner.blank(sign_off.start(), len(scanner.text))
            break


def _only_addressees(greeting: re.Match[str]) -> bool:
    """Whether a greeting holds only whom it greets ("Dear HPC helpdesk", "Hi Marta and all").

    A number or a word that is neither a name (capitalised) nor ordinary prose means the
    request began on the greeting's line ("hi i need cellranger 8.0 for 16 cores,"): that line
    is read like the rest, never dropped.
    """
    from endpoint_plugins.parsing.vocabulary import is_prose

    if greeting.group("subject"):
        return True
    rest = greeting.group(0)[greeting.end("word") - greeting.start() :]
    if any(ch.isdigit() for ch in rest):
        return False
    return all(w[:1].isupper() or is_prose(w) for w in _ADDRESSEE_RE.findall(rest))
