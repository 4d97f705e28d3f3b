"""Time in a request: deadlines, walltime and urgency.

Deadlines run first, so "within 3 hours" is a deadline and never a 3-hour walltime. Every date
is computed from the ``now`` handed to the parser (so tests and replays are reproducible) and
carries ``now``'s time zone unless the text gives one ("2026-12-01T09:00Z").

A date without a time is read by its word: "by Friday" / "until Friday" is the end of that day
(23:59:59); "before Friday" is its start (00:00).
"""

from __future__ import annotations

import calendar
import re
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from endpoint_plugins.parsing import lexicon
from endpoint_plugins.parsing.compute import unit_of_work_before
from endpoint_plugins.parsing.draft import Draft, Mention
from endpoint_plugins.parsing.english import english_word
from endpoint_plugins.parsing.history import DATA_LENGTH
from endpoint_plugins.parsing.scanner import (
    FLAGS,
    NUMBER_WORD,
    Scanner,
    alternation,
    letter_led,
    squash,
    starts_with,
    to_count,
)
from endpoint_plugins.parsing.vocabulary import typo_of
from providers.wire.requirements import Urgency

MAX_WALLTIME_S = 10 * 366 * 86400
MAX_RELATIVE_S = 100 * 366 * 86400

# -- durations -------------------------------------------------------------------------------

_LONG_UNIT = alternation(lexicon.DURATION_UNITS_S)
_SHORT_UNIT = rf"(?-i:[{''.join(lexicon.SHORT_DURATION_UNITS_S)}])"
_NOT_SIZE = rf"(?!\s*(?:of\s+)?(?:{alternation(lexicon.MEMORY_WORDS)}|b)(?!\w))"
_COMMA_DECIMAL = r",\d(?![\d,])"
"""A decimal comma, as much of Europe writes it: "1,5 days" is a day and a half. One digit
only, so "1,500 hours" (a thousands separator) and "1,2,3" (a list) are never read as it."""
_NOT_A_DECADE = (
    r"(?!(?<=the\s)(?:1[5-9]|20)\d0s(?!\w)"
    r"|(?:1[5-9]|20)\d0s\s*(?:-|\u2013|to|and|or|until|till)\s*(?:the\s+)?(?:1[5-9]|20)\d0s(?!\w)"
    r"|(?:(?<=\ds-)|(?<=\ds\u2013)|(?<=\ds to )|(?<=\ds and )|(?<=\ds or ))"
    r"(?:1[5-9]|20)\d0s(?!\w))"
)
"""A decade is no run time: "samba from the 1930s", "1950s-1970s" (the years a study covers).
Only after "the" or beside a second decade, so "--time 1800s" (half an hour) stays a walltime."""
_SEGMENT = (
    rf"(?:(?:\d{{1,6}}(?:\.\d{{1,3}}|{_COMMA_DECIMAL})?(?:-?ish)?|{NUMBER_WORD})\s*(?:-\s*)?"
    rf"{_LONG_UNIT}(?!\w)"
    # the digit first: the decade test's look-behinds are dear, and only numbers need it
    rf"|(?=\d){_NOT_A_DECADE}\d{{1,6}}{_SHORT_UNIT}(?![a-z]){_NOT_SIZE}"
    r"|\d{1,6}(?:\.\d)?\s(?-i:h)(?![\w-]))"
)
_HALF = r"(?:\s+and\s+(?:a\s+)?half(?!\w))?"
_ISO_DURATION_RE = re.compile(
    r"P(?:(?P<d>\d{1,3})D)?(?:T(?:(?P<h>\d{1,4})H)?(?:(?P<m>\d{1,5})M)?(?:(?P<s>\d{1,6})S)?)?"
)
_PHRASE_FIRST, _PHRASE_REST = letter_led(lexicon.DURATION_PHRASES_S)
_NUMBER_FIRST, _NUMBER_REST = letter_led(lexicon.NUMBER_WORDS)
_DECADE_AFTER_FIRST = r"(?:(?<=1)[5-9]|(?<=2)0)\d0s"
"""A decade ("1950s") after its first digit was read."""
_NOT_A_DECADE_AFTER_FIRST = (
    rf"(?!(?<=the\s\d){_DECADE_AFTER_FIRST}(?!\w)"
    rf"|{_DECADE_AFTER_FIRST}\s*(?:-|\u2013|to|and|or|until|till)\s*(?:the\s+)?"
    r"(?:1[5-9]|20)\d0s(?!\w)"
    r"|(?:(?<=\ds-\d)|(?<=\ds\u2013\d)|(?<=\ds to \d)|(?<=\ds and \d)|(?<=\ds or \d))"
    rf"{_DECADE_AFTER_FIRST}(?!\w))"
)
""":data:`_NOT_A_DECADE` checked one character later, after the first digit."""
_SEGMENT_AFTER_FIRST = (
    rf"(?:(?:(?<=\d)\d{{0,5}}(?:\.\d{{1,3}}|{_COMMA_DECIMAL})?(?:-?ish)?|{_NUMBER_REST}(?!\w))"
    rf"\s*(?:-\s*)?{_LONG_UNIT}(?!\w)"
    rf"|(?<=\d){_NOT_A_DECADE_AFTER_FIRST}\d{{0,5}}{_SHORT_UNIT}(?![a-z]){_NOT_SIZE}"
    r"|(?<=\d)\d{0,5}(?:\.\d)?\s(?-i:h)(?![\w-]))"
)
""":data:`_SEGMENT` after its first character was read."""
_DURATION_FIRST = rf"(?-i:[\d{_PHRASE_FIRST}{_NUMBER_FIRST}P])"
"""Every character a duration can start with: a digit, the first letter of a phrase or a
number word, and the "P" of ISO 8601."""
_DURATION_AFTER_FIRST = (
    # the look-behinds one character wider: the first character is read already
    r"(?<![\w.,$:].)(?<![\s(=:,~\[]-.)(?<!^-.)"
    rf"(?:{_PHRASE_REST}(?!\w)"
    # ISO 8601 as specs and APIs write it: "PT4H", "PT90M", "P1DT12H", "P2D"
    r"|(?-i:(?<=P)(?:(?:\d{1,3}D)?T(?=\d)(?:\d{1,4}H)?(?:\d{1,5}M)?(?:\d{1,6}S)?|\d{1,3}D))(?!\w)"
    r"|(?<=\d)\d{0,2}(?-i:h)[0-5]\d(?![\w:]|\.\d)"  # "6h30": hours and minutes, no minute unit
    rf"|{_SEGMENT_AFTER_FIRST}(?:\s*(?:,\s*|and\s+)?{_SEGMENT}){{0,3}}{_HALF})"
)
""":data:`DURATION` after its first character: for a pattern that reads that character
itself, because the words before a duration start with some of the same letters."""
DURATION = _DURATION_FIRST + _DURATION_AFTER_FIRST
"""A duration: "2 hours", "1.5 days", "an hour", "2h30m", "6h30", "PT4H", "1 day and 4 hours",
"half an hour"."""

_SEGMENT_RE = re.compile(
    rf"(?P<num>\d{{1,6}}(?:\.\d{{1,3}}|{_COMMA_DECIMAL})?|{NUMBER_WORD})(?:-?ish)?\s*(?:-\s*)?(?P<unit>{_LONG_UNIT})"
    r"(?!\w)"
    rf"|(?P<snum>\d{{1,6}})\s?(?P<short>{_SHORT_UNIT})",
    FLAGS,
)
_HALF_RE = re.compile(r"and\s+(?:a\s+)?half\s*$", FLAGS)
_HMS = r"(?:\d{1,3}-)?\d{1,3}:[0-5]\d(?::[0-5]\d)?(?![\d:])"
_HMS_RE = re.compile(r"(?:(?P<d>\d{1,3})-)?(?P<h>\d{1,3}):(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d))?")

_WALLTIME_RE = re.compile(
    rf"(?:(?<!\w){alternation(lexicon.WALLTIME_WORDS)}|(?<![\w-])--time)"
    r"\s*(?:of|:|=|is|limit|to)?\s*(?:\*\*|__)?\s*"
    r"(?:(?:about|around|approximately|roughly|up\s+to|at\s+most|~)\s*)?"
    rf"(?:(?P<hms>{_HMS})|(?P<dur>{DURATION}))",
    FLAGS,
)
_CATALOGUED_NAMES = alternation(
    s for name, spellings in lexicon.SOFTWARE.items() for s in (name, *spellings)
)
"""After "3 hours of", a catalogued package makes it run time ("3h of Blender rendering")."""
_RUN_FOR_WORDS = "for about around approximately roughly takes taking lasting lasts ~".split()
_RUN_FOR_FIRST = "FfAaRrTtLl~"
_RUN_FOR_RE = re.compile(
    # the first character read first (a duration's or an opening word's), so the engine skips
    # from one candidate character to the next; each branch checks it with a look-behind
    rf"(?-i:[{_RUN_FOR_FIRST}\d{_PHRASE_FIRST}{_NUMBER_FIRST}P])"
    r"(?<!\w.)(?:(?:(?<=[Ff])or|(?<=[Aa])(?:bout|round|pproximately)|(?<=[Rr])oughly"
    r"|(?<=[Tt])ak(?:es?|ing)|(?<=[Ll])ast(?:ing|s?)|(?<=~))\s+"
    r"(?:(?:about|around|approximately|roughly|up\s+to|at\s+most)\s+)?"
    rf"(?P<dur>{DURATION})"
    rf"|(?P<dur_rest>{_DURATION_AFTER_FIRST}))"
    rf"(?:\s+(?:of\s+)?{alternation(lexicon.WALLTIME_WORDS)}(?!\w))?"
    r"(?:\s+(?:max(?:imum)?|tops|at\s+most|or\s+less|or\s+so)(?!\w))?"
    r"(?!\s+of\s+(?!(?:wall|compute|computing|computations?|calculations?|runs?|running|"
    r"processing|cpu|gpu|work|time|"
    r"real[\s-]time(?=\s*(?:[.,;:!?)]|$|\s(?:on|in|for|and|with|per|or|so|each|max)(?!\w)))|"
    rf"simulation|training|{_CATALOGUED_NAMES})\b)"
    r"(?![\w.+-]+(?:\s+v?\d[\w.]*)?\s+(?:runs?|jobs?|simulations?|calculations?|computations?|"
    r"benchmarks?|benchmarking|rendering|training|processing|analysis|sampling)(?!\w))[a-z])",
    FLAGS,
)
"""A duration is a run time unless it measures something else: "800 hours of speech". "14
hours of real time" and "5h of runs" measure the run itself; "800 hours of real-time audio"
does not."""

_RESTATED_RE = re.compile(
    r"(?<!\w)(?:a\s+)?(?:couple|few|several|handful|number|pair)\s+(?:of\s+)?"
    rf"(?P<unit>{_LONG_UNIT})(?!\w)\s*(?:\(\s*|,\s*|\s[-–—]\s*)"
    r"(?:say|maybe|probably|perhaps|likely|about|around|roughly|approx\.?|i\.e\.,?|~)\s*"
    r"(?P<n>\d{1,3}(?:[.,]5)?)(?!\s*(?:[a-z%]|\d))(?:\s+or\s+so)?",
    FLAGS,
)
"""A vague run time restated by a bare number ("a couple of hours (say 3)", "a few days,
maybe 4", "several hours (~5)"): the number counts the unit just named and is what is asked.
A number with a unit of its own ("a few hours, say 3 hours") is read by the other patterns."""
_BARE_HMS_RE = re.compile(
    r"(?<![\w:./-])(?P<hms>\d{1,3}-\d{1,2}:[0-5]\d:[0-5]\d"
    r"|\d{1,3}:[0-5]\d:[0-5]\d(?=\s+(?:per|each|for\s+(?:each|every|the))\s+(?:run|job)s?(?!\w)))"
    r"(?![\d:])",
    FLAGS,
)
"""Slurm's time written in prose without the word walltime: "1-12:00:00 per run" (a day part
makes it a duration, never a clock time; "06:00:00" alone could be either)."""
_LISTED_HMS_RE = re.compile(
    r"(?<![\w:./-])(?P<hms>\d{1,3}:[0-5]\d:[0-5]\d)(?![\d:])"
    r"(?!\s*(?:am|pm|a\.m|p\.m|utc|gmt|cet|cest|est|edt|pst|pdt|local|o'?clock|h(?!\w)|"
    r"on|tomorrow|today|tonight|sharp)(?!\w))(?=\s*(?:[,;|]|$))",
    FLAGS | re.MULTILINE,
)
"""H:MM:SS as one item of a list of the job's amounts ("1 node x 40 cores, 160GB, 4:00:00"):
among sizes and counts it is Slurm's time limit. Only right after such an amount (see
:data:`_AMOUNT_ITEM_BEFORE_RE`); after "at", "by", "from" or alone it may be a clock time and
stays quoted."""
_AMOUNT_ITEM_BEFORE_RE = re.compile(
    r"(?<![\w.])\d{1,7}(?:\.\d{1,3})?\s*(?:gb|g|gib|tb|tib|mb|cores?|cpus?|nodes?|gpus?|tasks|"
    r"ranks|threads|procs|processes)(?!\w)\s*[,;|]\s*$",
    FLAGS,
)
"""The list item before a bare H:MM:SS: a memory size or a count of the job's units."""
_WALLTIME_AFTER_RE = re.compile(
    rf"(?P<dur>{DURATION})\s+(?:of\s+)?(?:{alternation(lexicon.WALLTIME_WORDS)})(?!\w)", FLAGS
)
"""A duration named as the walltime ("5 hours of wall time"): wins over a bare duration."""
_WALLTIME_WORD_HINT_RE = re.compile(rf"{alternation(lexicon.WALLTIME_WORDS)}|--time", FLAGS)
"""What every match of :data:`_WALLTIME_RE` and :data:`_WALLTIME_AFTER_RE` contains: a walltime
word or Slurm's ``--time``. Few requests name one, and both patterns try the duration grammar
at every number and number word of the text (their derived trigger, "me" of "time", holds in
most texts). Blanking only removes matches, so one search before both scans serves both."""

_ORDINAL_RE = re.compile(r"^\s*(?:a|an)\s+(?:second|sec|minute|min)\b", FLAGS)
"""The article before "second" or "minute" is rarely a duration ("a second buffer")."""
_REPEAT_RE = re.compile(r"(?<!\w)(?:every|each|per)\s*$", FLAGS)
_ASKED_FOR_RE = re.compile(
    r"(?:(?<!\w)(?:plan|request|ask|book|reserve|allocate|allow|budget|set\s+the\s+walltime)"
    r"(?:\s+(?:for|us|me))?|(?:[,(]|let'?s|i'?d)\s*say|i\.e\.,?|make\s+it)"
    r"\s*(?:about\s+|around\s+|roughly\s+|~\s*)?$",
    FLAGS,
)
"""Before a duration: the run time asked for ("please plan for 24 hours") or restated exactly
("a couple of hours, say 3 hours"), which outranks a run time described ("it took a bit under
20 hours")."""
_NOT_A_RUN_BEFORE_RE = re.compile(
    r"(?<!\w)(?:time[\s-]?steps?|steps?|intervals?|cadence|resolution|frequency|dt|lag|"
    r"checkpoint(?:ing)?\s+(?:interval|period)|output\s+interval|sampl(?:ed|ing)\s+(?:at|every))"
    r"\s*(?:of|=|:|is|at|size)?\s*(?:about\s+|around\s+|roughly\s+|~\s*)?$",
    FLAGS,
)
"""Before a duration, a step or an interval inside the computation ("a time step of 30
minutes", "output interval: 1 h"): never the job's run time."""
_AGE_AFTER_RE = re.compile(
    r"(?:-|\s+)(?:ago|old|earlier|later|time[\s-]?steps?|steps?|intervals?|cadence|lags?|"
    r"resolution)(?!\w)",
    FLAGS,
)
"""After a duration: an age ("2 years old", "3 days ago") or a step inside the computation
("a 5-minute time step", "at 1-hour resolution"), never the job's run time."""
_OTHER_MEASURE_AFTER_RE = re.compile(
    r"(?:-|\s+)(?:forecasts?|spin[\s-]?ups?|windows?|averages?|means)(?!\w)"
    r"|\s*(?:x|\u00d7|\*)\s*\d",
    FLAGS,
)
"""After a duration: a simulated period ("a 10-day forecast") or one side of a data size
("520 weeks x 3,100 counties"): kept only as the last resort, so a run time said anywhere else
wins ("12 hours x 8 nodes" alone is still read)."""
_CLAUSE_END = r"(?:[.!?;:]\s|\n\s*\n|\(|,\s*(?:so|therefore|thus|hence|but)\s)"
_CLAUSE_START_RE = re.compile(rf"(?:{_CLAUSE_END}|^)(?![\s\S]*{_CLAUSE_END})")
_ONE_ITEM_RE = re.compile(
    r"\W*(?:(?:and|but|so|then|since|because|as|while|where|here|now|currently|typically|"
    r"usually|normally)\s+)?(?:each|every|one|a\s+single|any\s+single)\s+"
    r"(?!(?:node|nodes|job|jobs|time|day|hour)(?!\w))(?:of\s+|one(?!\w)|[a-z])",
    FLAGS,
)
"""A clause about one item of many ("Each of the 200 models takes about 40 minutes", "each
one is a task of roughly 20 minutes"): its duration is the item's, which the job's own run
time ("... so 4 nodes for 30 hours") outranks."""
_HISTORY_BEFORE_RE = re.compile(
    r"(?<!\w)(?:was|were|been|had|took|lasted|used\s+to\s+take|waited|waiting|wait|queued|"
    r"pending|stuck|down|offline|past|last|previous|since|over\s+the\s+(?:last|past)|simulat\w*|"
    rf"spans?|spanning|covers?|covering|integrat\w*|followed|observed|collected|recorded|{DATA_LENGTH})"
    r"(?:\s+(?:in\s+the\s+queue|for|about|around|roughly|nearly|almost|over|up|the|a|an))*\s*$",
    FLAGS,
)
"""Before a duration: past events, waiting times and simulated or observed periods ("the job
has been waiting for 3 days", "we simulate 200 years", "it took 20 hours last time"), and the
length of the data ("LOFAR observations (8 hours, 2019 cycle)", "recordings of about 40
hours"). Such a duration is kept only when nothing else gives the run time."""
_MAX_LIKELY_WALLTIME_S = 30 * 86400
"""Longer than a month is rarely a run time ("about 520 weeks of counts")."""
_SMALL_TALK_RE = re.compile(r"(?<!\w)(?:got|spare|have\s+you)\s*$", FLAGS)
"""Before a duration, these make it an interval ("every 2 hours") or small talk ("got 2
minutes?"), not a run time."""

# -- dates -----------------------------------------------------------------------------------

_WEEKDAY = alternation(lexicon.WEEKDAYS)
_MONTH = alternation(lexicon.MONTHS)
_ORD = r"(?:st|nd|rd|th)?"
_TIME = r"(?:\d{1,2}(?::[0-5]\d)?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:[0-5]\d|noon|mid-?day|midnight)"
_RELDAY = (
    r"(?:(?:the\s+)?day\s+after\s+(?:tomorrow|tom+or+ow)|today|tonight|tomorrow|tom+or+ow|tmor+ow|tmrw|"
    r"eod|cob|end\s+of\s+(?:the\s+)?(?:day|week|month)|end\s+of\s+next\s+(?:week|month))"
)
"""Relative days, with the usual misspellings of tomorrow ("tommorow", "tomorow", "tmorrow")."""
_FIXED_ZONES_H = {
    "utc": 0, "gmt": 0, "z": 0, "wet": 0, "cet": 1, "cest": 2, "eet": 2, "eest": 3, "est": -5,
    "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7, "akst": -9,
    "hst": -10, "jst": 9, "kst": 9, "aest": 10, "aedt": 11, "nzst": 12, "nzdt": 13,
}  # fmt: skip
"""Zone abbreviations that name one offset from UTC, in hours."""
_REGION_ZONES = {
    "et": "America/New_York", "eastern": "America/New_York", "ct": "America/Chicago",
    "central": "America/Chicago", "mt": "America/Denver", "mountain": "America/Denver",
    "pt": "America/Los_Angeles", "pacific": "America/Los_Angeles", "german": "Europe/Berlin",
    "berlin": "Europe/Berlin", "central european": "Europe/Berlin", "paris": "Europe/Paris",
    "uk": "Europe/London", "london": "Europe/London", "japan": "Asia/Tokyo",
    "tokyo": "Asia/Tokyo", "japanese": "Asia/Tokyo", "new york": "America/New_York",
}  # fmt: skip
"""Zones named by region ("9:00 ET", "noon Pacific time", "12:00 (German time)"): summer time
or not depends on the day, so they are resolved through the time-zone database."""
_ABBREVIATED_ZONES = alternation(k for k in _FIXED_ZONES_H if k != "z")
_ZONE = (
    rf"(?:(?:{alternation(_REGION_ZONES)})\s+time|{_ABBREVIATED_ZONES}"
    rf"|(?-i:ET|CT|MT|PT))(?:\s*[+-]\s*\d{{1,2}}(?::?[0-5]\d)?)?(?!\w)"
)
"""A time zone after a time of day: "UTC", "CET", "9:00 ET" (the two-letter US forms only in
capitals, so "at 10 pt" stays a size), "UTC+1", "Pacific time"."""


def _tz(group: str) -> str:
    """The optional zone after a time, in parentheses or not: "10:00 UTC", "12:00 (German time)"."""
    return rf"(?:\s*o['’]?clock(?!\w))?(?:\s*\(?\s*(?P<{group}>{_ZONE})\)?)?"


_ISO = (
    r"(?P<y>\d{4})(?P<isep>[-/.])(?P<mo>\d{1,2})(?P=isep)(?P<d>\d{1,2})"
    r"(?:(?:t|\s+(?:at\s+)?)(?P<hh>\d{1,2}):(?P<mm>[0-5]\d)(?::(?P<ss>[0-5]\d))?)?"
    rf"(?:\s*(?P<tz>z(?!\w)|[+-]\d{{2}}:?\d{{2}}|\(?{_ZONE}\)?))?"
)
_NAMED_DAY = rf"(?:{_WEEKDAY})\.?,?\s+(?:the\s+)?"
"""A weekday before a date restates it ("Friday 11 December", "Friday the 11th")."""
_NUMERIC_DATE = (
    r"(?<![\d.,/-])(?P<n1>\d{1,2})(?P<nsep>[./])(?P<n2>\d{1,2})(?P=nsep)(?P<ny>20\d{2})"
    r"(?![\d.,/]\d)"
)
"""A date written with dots or slashes and the year last: "14.12.2026" (dots are always
day-first), "14/12/2026" (slashes: day-first when the first number is over 12, month-first when
the second is, and unreadable when both could be the month)."""
_SHORT_DATE = (
    r"(?<![\d.,/-])(?:(?P<dd>\d{1,2})\.(?P<dm>\d{1,2})\.(?!\d)"
    r"|(?P<sa>\d{1,2})/(?P<sb>\d{1,2})(?![\d/]|[.,]\d))"
    rf"(?:\s*\(\s*(?P<swd>{_WEEKDAY})\.?\s*\)|,?\s+(?P<swd2>{_WEEKDAY})(?!\w))?"
)
"""A date without its year: "15.12." (dots: day first, the closing dot makes it a date, not a
version), "12/15" or "15/12" (slashes: whichever number is over 12 is the day). "12/11" could
be either; a weekday beside it ("12/11 (Fri)") picks the reading that falls on that day, and
without one the date is quoted, never guessed."""
_AT_HOUR = (
    r"(?:,?\s+at\s+(?P<hour1>[01]?\d|2[0-3])(?:\s*(?:h|o['’]?clock))?"
    r"(?=\s*(?:[.,;!?)]|$|(?:sharp|latest|at\s+the\s+latest|local|utc|cet|gmt|please|so|and|"
    r"because|since|as)(?!\w)))"
    r"|,?\s+(?:at\s+)?(?P<hour2>[01]?\d|2[0-3])\s*o['’]?clock(?!\w))"
)
"""A bare hour after a day and "at": "on Thursday at 10", "Friday at 14". Only at the end of
the phrase, so "Friday at 10 nodes" is never a time. "o'clock" makes it an hour without "at"
("before Thursday 10 December, 9 o'clock")."""
_DATE_AFTER_TIME = (
    rf"\s+(?:on\s+)?(?:the\s+)?(?:{_NAMED_DAY})?"
    rf"(?:(?P<day5>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<mon5>{_MONTH})\.?"
    rf"|(?P<mon6>{_MONTH})\.?\s+(?P<day6>\d{{1,2}}){_ORD})(?:,?\s+(?P<year5>\d{{4}}))?"
)
"""A date after the time of day: "by 06:00 UTC on 3 December", "before 5pm on Dec 10"."""
_DAY_END = r"\s+(?P<rel3>cob|eod|close\s+of\s+business|end\s+of\s+(?:the\s+)?(?:business\s+)?day)"
"""A day followed by its end: "Friday COB", "Dec 8 EOD", "Thursday end of day"."""
_HOLIDAY = r"(?:christmas(?:\s+eve|\s+day)?|xmas|new\s+year'?s?(?:\s+eve|\s+day)?)"
_WHEN = (
    rf"(?:(?:{_NAMED_DAY})?{_ISO}"
    rf"|(?:(?P<rel>{_RELDAY})"
    rf"|(?:{_NAMED_DAY})?(?P<mon1>{_MONTH})\.?\s+(?P<day1>\d{{1,2}}){_ORD}"
    rf"(?:,?\s+(?P<year1>\d{{4}}))?"
    rf"|(?:{_NAMED_DAY})?(?P<day2>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<mon2>{_MONTH})\.?"
    rf"(?:,?\s+(?P<year2>\d{{4}}))?"
    rf"|(?:{_NAMED_DAY})?(?P<day3>\d{{1,2}})(?:st|nd|rd|th)(?!\w)"
    rf"|(?P<hol>{_HOLIDAY})"
    rf"|{_NUMERIC_DATE}|{_SHORT_DATE}"
    rf"|(?:(?P<wmod>next|this|coming)\s+)?(?P<wd>{_WEEKDAY})\.?(?P<nextweek>\s+(?:of\s+)?next\s+week)?)"
    rf"(?:['\u2019]s(?=\s+(?:at\s+)?{_TIME}))?"  # "before tomorrow's 9am telecon": that time
    rf"(?:(?:,?\s+(?P<dpart>morning|afternoon|evening)(?!\w))?"
    rf"(?:,?\s+(?:at\s+)?(?P<time1>{_TIME})|{_AT_HOUR}){_tz('tz1')}|{_DAY_END})?"
    rf"|(?P<time2>{_TIME}){_tz('tz2')}"
    rf"(?:\s+(?P<rel2>today|tonight|tomorrow|tom+or+ow|tmor+ow|tmrw)"
    rf"|{_DATE_AFTER_TIME}|\s+(?:on\s+)?(?:this\s+|next\s+)?(?P<wd2>{_WEEKDAY}))?"
    r")(?![\w:])"
)
_ON_DATE = rf"(?:(?:at|on)\s+)?(?:the\s+)?{_WHEN}"
"""A date after the word that introduces it: "by the 14th", "deadline: on Friday 5pm"."""
_DEADLINE_FIRST = starts_with(
    [*lexicon.DEADLINE_BEFORE_WORDS, *lexicon.DEADLINE_BY_WORDS, "within", "deadline"]
)
"""The first letters of the deadline words that open :data:`_DEADLINE_RE` and its kin: one
test turns away most positions before the look-behind and the word lists are tried. (Reading
the letter first, as the patterns with few first letters do, measured slower here: a dozen
common letters start these words.)"""
_DEAD_LINE = r"dead[\s-]+line(?:[\s_-]+is)?(?!\w)"
""""Deadline" written as two words ("dead line is friday", "dead-line: 10 Dec")."""
_DEADLINE_RE = re.compile(
    rf"{_DEADLINE_FIRST}(?<!\w)(?:(?P<before>{alternation(lexicon.DEADLINE_BEFORE_WORDS)})"
    rf"|{alternation(lexicon.DEADLINE_BY_WORDS)}|{_DEAD_LINE}|(?P<within>within))"
    rf"(?:[\"']\s*)?\s*:?\s*(?:\*\*|__|[\"'])?\s*{_ON_DATE}",
    FLAGS,
)
"""A deadline word before a date: "by Friday", "deadline: 2026-12-03", JSON's `"deadline":
"2026-12-03T18:00Z"`, and "within Thursday" (as non-native writers say "by Thursday"; "within"
before a duration is a relative deadline, read by :data:`_WITHIN_RE`)."""
_BEFORE_EVENT_RE = re.compile(
    r"(?P<before>(?-i:[BbAaPpIi\u0130\u0131])(?<!\w.)(?:(?<=[Bb])efore|(?<=[Aa])head\s+of"
    r"|(?<=[Pp])rior\s+to|(?-i:(?<=[Ii\u0130\u0131]))n\s+time\s+for))\s+"
    r"(?:the|our|my|his|her|their|your|a|an|this|next)\s+"
    rf"(?:(?P<event_time>{_TIME})\s+)?(?:(?!(?:on|at|by|and|or|but|so|because)\s)[a-z][\w'-]*\s+){{1,4}}?"
    rf"(?:(?:on|at)\s+)?(?:the\s+)?{_WHEN}",
    FLAGS,
)
"""A deadline set by an event on a day: "before the group meeting on Thursday at 10", "before
our 2 pm seminar on Wednesday", "ahead of the review on the 14th". Read only where the clause
asks for something (see :data:`_ASKED_BEFORE_RE`); "we ran it before the upgrade on 3 November"
is history."""
_ASKED_BEFORE_RE = re.compile(
    r"(?<!\w)(?:need|needs|needed|want|wants|wanted|must|have\s+to|has\s+to|should|results?|"
    r"outputs?|numbers|done|finish|finished|complete|completed|ready|deliver|present|submit|"
    r"deadline|required|requires?)(?!\w)(?:(?![.;!?]\s)(?!\n\s*\n)[\s\S])*$",
    FLAGS,
)
"""Before "before the <event> on <day>": the clause asks for something, on this line or the
line above when the sentence wraps ("I want to run HPCG ... across 64 nodes\nbefore the
acceptance test on Thursday"), never across a blank line."""
_NOT_BEFORE_DATE_RE = re.compile(
    r"(?<!\w)(?:not|never|(?:do|does|did|is|are|was|were|wo|ca|won|can|could|should|would|must|"
    r"has|have|had)n'?t)\s+(?:(?!(?:and|or|but|so|because)\s)[a-z]+\s+){0,3}$",
    FLAGS,
)
"""Before "before <date>": "not before Friday", "do not start before Monday", "won't be ready
before the 9th" give the earliest start, never a deadline."""
_EVENT_CLOCK_AFTER_RE = re.compile(
    r"(?P<own>['’]s(?:\s+(?!(?:and|or|but|so|because|we|i|it|at|on|the)(?!\w))"
    r"[a-z][a-z-]*){1,3})?"
    r"(?:\s*\(\s*(?:(?:it|that)\s*(?:['’]s|\s+is|\s+starts|\s+begins)\s+|"
    r"(?:starts|begins|starting|beginning)\s+)?(?:at\s+)?"
    r"|,?\s+(?:which|that|it)\s+(?:starts|begins|is|opens)\s+at\s+)"
    rf"(?P<clock>{_TIME}){_tz('zone')}\s*(?:\)|[.,;!?]|$)",
    FLAGS,
)
"""After "before <event> on <day>" or "before <day>'s <event>": the hour the event starts,
said in a clause or parentheses of its own ("before the meeting on 10.12., which starts at
9:00 CET", "before Friday's lab meeting (it's at 2pm)"). The results are needed by that hour,
not by the start of the day."""
_STATE_UNTIL_BEFORE_RE = re.compile(
    r"(?:(?<!\w)(?:is|are|was|were|be|been|stays?|remains?|keeps?)|['’](?:s|m|re))\s+"
    r"(?:(?:still|very|pretty|fairly|mostly|completely|fully|totally|quite|all)\s+)?"
    r"(?:quiet|busy|full|empty|down|closed|offline|online|open|away|out|off|idle|free|"
    r"available|unavailable|reserved|booked|congested|drained|frozen|paused|"
    r"in\s+maintenance|under\s+maintenance|on\s+(?:leave|holiday|vacation))\s*$",
    FLAGS,
)
"""Before "until <day>": how something stays until then ("the queue is quiet until
Thursday", "I'm away until Monday", "the file system is down until the 3rd"): a state that
lasts, never the day the results are needed. Left unread, so it stays quoted."""
_DEADLINE_IS_RE = re.compile(
    r"deadline\s+(?:for|from|set\s+by|given\s+by|imposed\s+by)\s+"
    r"(?:the\s+|our\s+|my\s+|their\s+|your\s+)?[a-z]+(?:\s+[a-z]+){0,2}\s+(?:is|will\s+be)"
    rf"\s+{_ON_DATE}",
    FLAGS,
)
"""A deadline named before its date: "the deadline for results is the 15 of December", "the
deadline from our programme manager is 31 December"."""
_FOR_DATE_RE = re.compile(rf"(?-i:[Ff])(?<!\w.)or\s+{_ON_DATE}", FLAGS)
_NEEDED_BEFORE_RE = re.compile(
    r"(?:(?:need|needs|needed|want|wants|wanted|require|required)\s+(?:it|them|this|these|"
    r"(?:the\s+)?results?|(?:the\s+)?output)"
    r"|(?:results?|outputs?)\s+(?:we\s+|i\s+|are\s+|is\s+)?(?:need|needed|want|required))\s+$",
    FLAGS,
)
"""Before "for <date>": the results are needed for that day ("we need the results for Monday",
"the result we need for Monday", "results are needed for the Thursday sync"): a deadline, by
that day. The pattern starts at "for", a word, so the costly date grammar runs only where a
"for" stands; it is led by its first letter in both cases, which the engine skips to (a leading
look-behind would be tried at every position), and the look-behind, one character wider,
follows it."""
_BEFORE_IT = r"|(?<=before\s)(?:it|that)(?=[ \t]*(?:[.,;!?)\n]|$))"
"""A pronoun for the day named before, after "before" and at the end of its clause ("the review
is the 15 of December and the results must be finished before it"). "before it starts" goes on
and points at no day."""
_BY_THEN_RE = re.compile(
    rf"(?<!\w){_WHEN}(?P<gap>(?:(?!\n\s*\n)\D){{0,100}}?)(?<!not\s)(?<!n't\s)"
    rf"(?:(?P<before>before)|by|until|till)\s+(?:then|that\s+(?:day|date){_BEFORE_IT})(?!\w)",
    FLAGS,
)
"""A day named first and pointed back at: "the briefing is on 7 December, so we need them
before then", "goes out on Monday 7 December at 08:00; the run must be finished by then". No
digit may stand between the two, so "then" points at the last date named, not an earlier
one, and no blank line (a wrapped line still counts). "before that day" points back alike
("the defence is the 9 December, the results are needed before that day"). "not before then"
is a start, not a deadline. Between them the writer must ask for something
(:data:`_ASKED_THEN_RE`): "we ran it on 3 November and by then it was fine" is history."""
_ASKED_THEN_RE = re.compile(
    r"(?<!\w)(?:need|needs|needed|want|wants|must|have\s+to|has\s+to|should|results?|"
    r"outputs?|done|finish|finished|complete|completed|ready|deliver|delivered|required|due)(?!\w)",
    FLAGS,
)
_THEN_WORD_RE = re.compile(
    r"(?-i:[BbTtUu])(?<!\w.)(?:(?<=b)y|(?<=b)efore|(?<=u)ntil|(?<=t)ill)"
    rf"\s+(?:then|that\s+(?:day|date){_BEFORE_IT})(?!\w)",
    FLAGS,
)
"""A gate for :data:`_BY_THEN_RE` ("by then", "until that day"). Led by a case-sensitive class
of the first letters, which the engine skips to, where a case-folded alternation after a
look-behind is tried at every position; a one-letter look-behind picks the word."""
_DEADLINE_TYPO_RE = re.compile(
    rf"(?P<typo>(?-i:[Dd])(?<!\w.)e[a-z]{{4,7}})(?P<is>['\u2019]s(?!\w)|\s+is(?!\w))?\s*:?\s*{_ON_DATE}",
    FLAGS,
)
"""A misspelt "deadline" before a date ("deadine: tomorow noon", "dedline friday noon", "deadlne
is thursday 5pm"), and the spoken contraction of the right word ("deadline's thursday 5pm"),
which :data:`_DEADLINE_RE`'s fixed phrases ("deadline is", "deadline:") do not hold."""
_LONG_WEEKDAYS = tuple(day for day in lexicon.WEEKDAYS if len(day) > 5)
_WEEKDAY_TYPO_RE = re.compile(
    rf"{_DEADLINE_FIRST}(?<!\w)(?:(?P<before>{alternation(lexicon.DEADLINE_BEFORE_WORDS)})"
    rf"|{alternation(lexicon.DEADLINE_BY_WORDS)}|deadline|{_DEAD_LINE})"
    r"\s*:?\s*(?:on\s+|this\s+|next\s+)?"
    rf"(?P<day>[a-z]{{5,10}})(?:\s+(?:at\s+)?(?P<clock>{_TIME}))?(?![\w:])",
    FLAGS,
)
"""A deadline on a misspelt weekday ("by wendesday", "results needed by frdiay noon")."""
_COB_DAY_RE = re.compile(
    rf"{_DEADLINE_FIRST}(?<!\w)(?:(?P<before>{alternation(lexicon.DEADLINE_BEFORE_WORDS)})"
    rf"|{alternation(lexicon.DEADLINE_BY_WORDS)})\s*:?\s*(?:\*\*|__)?\s+(?P<rel>cob|eod|"
    r"close\s+of\s+business|"
    rf"end\s+of\s+(?:the\s+)?(?:business\s+)?day)\s+(?:on\s+)?(?P<day>{_WEEKDAY})(?!\w)",
    FLAGS,
)
"""The end of a named working day: "by COB Thursday", "by end of day Friday"."""


def _weekday_deadline(m: re.Match[str], now: datetime) -> datetime | None:
    """The deadline a weekday phrase (exact or misspelt) gives, as :func:`_resolve` would."""
    word = m.group("day").lower()
    name = word if word in lexicon.WEEKDAYS else typo_of(word, _LONG_WEEKDAYS, 2)
    if name is None or (word not in lexicon.WEEKDAYS and english_word(word)):
        return None
    groups = m.groupdict()
    if groups.get("rel"):
        at = time(17, 0) if groups["rel"].lower() in ("cob", "close of business") else _END_OF_DAY
    elif groups.get("clock"):
        at = _clock(groups["clock"])
    else:
        at = time(0, 0) if m.group("before") else _END_OF_DAY
    if at is None:
        return None
    today = now.date()
    ahead = (lexicon.WEEKDAYS[name] - today.weekday()) % 7
    when = datetime.combine(today + timedelta(days=ahead), at, tzinfo=now.tzinfo)
    return when + timedelta(days=7) if when <= now else when


def _deadline_typo(m: re.Match[str]) -> bool:
    word = m.group("typo").lower()
    if word == "deadline":
        return bool(m.group("is")) and not m.group("is")[0].isspace()  # "deadline's Friday"
    return typo_of(word, ("deadline",), 1) is not None


_WITHIN_FIRST, _WITHIN_REST = letter_led(lexicon.DEADLINE_WITHIN_WORDS)
_WITHIN_RE = re.compile(
    rf"(?-i:[{_WITHIN_FIRST}])(?<!\w.){_WITHIN_REST}"
    r"\s+(?:about\s+|around\s+|~\s*)?"
    rf"(?P<dur>{DURATION})(?:\s+(?:from|after)\s+(?:now|today|this\s+message))?"
    r"(?:\s+(?:max(?:imum)?|at\s+most|tops)(?!\w))?",
    FLAGS,
)
"""A deadline within a duration; "within 10 days from today" counts from now, so "today" in
it is the start of the count, not urgency ``soon``."""
_NEXT_HOUR_RE = re.compile(
    r"(?-i:[WwIi\u0130\u0131])(?<!\w.)(?:(?<=[Ww])ithin|(?<![Ww])n)"
    r"\s+the\s+(?:next\s+|coming\s+)?hour(?!\w)",
    FLAGS,
)
"""A deadline of one hour written without a number: "done in the next hour". Led by the first
letters in every case ``re.IGNORECASE`` gives them (the dotted and dotless i), which the
engine skips to; a one-character look-behind then picks the word."""
_TIME_LEFT_RE = re.compile(
    r"(?<!\w)(?:(?:i|we)\s+(?:only\s+)?(?:have|got)\s+(?:only\s+|just\s+|about\s+)?"
    rf"(?P<dur>{DURATION})\s+(?:left\s+|remaining\s+)?"
    r"(?:to|until|before|for|till)(?!\w)"
    rf"|(?P<dur2>{DURATION})\s+(?:(?:left|remaining)\s+(?:to|until|before|till)|from\s+now)(?!\w))",
    FLAGS,
)
"""Time left to get results: "I have 12 hours to get results", "results 6 hours from now".
One duration before both endings, so the duration grammar is tried once per position (no
duration runs on into "left", "remaining" or "from", so the order of the endings is moot)."""
_TIME_RE = re.compile(
    r"(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ampm>am|pm|a\.m\.|p\.m\.)?|(?P<word>noon|mid-?day|midnight)",
    FLAGS,
)

# -- urgency ---------------------------------------------------------------------------------

_URGENCY_SPELLINGS = {s: u for u, spellings in lexicon.URGENCY_WORDS.items() for s in spellings}
_URGENCY_BY_SQUASHED = {squash(s): u for s, u in reversed(_URGENCY_SPELLINGS.items())}
"""Each urgency by its squashed spelling (the first spelling wins, hence reversed): one look-up
per match instead of squashing every spelling."""
_URGENCY_RE = re.compile(
    rf"{starts_with(_URGENCY_SPELLINGS)}(?<![\w.]){alternation(_URGENCY_SPELLINGS)}(?!\w)", FLAGS
)


_TODAY = frozenset(("today", "tonight", "Today", "Tonight"))
"""Needed "for today" is urgency (soon), as "today" is everywhere else."""


_REPLY_BEFORE_RE = re.compile(
    r"(?<!\w)(?:hear(?:ing)?\s+(?:back|from\s+(?:you|someone))|(?:a|an|your|the)\s+"
    r"(?:reply|response|quote|decision)|(?:a|an|your)\s+answer"
    r"|(?<!need\s)(?<!needs\s)(?<!needed\s)(?<!want\s)the\s+answer"
    r"|(?:to\s+)?(?:respond|reply|(?<!the\s)answer)"
    r"|get(?:ting)?\s+back\s+to\s+(?:me|us)|let(?:ting)?\s+(?:me|us)\s+know)"
    r"[^.;!?\n]{0,20}$",
    FLAGS,
)
"""Before a date: the writer asks when to hear back ("we'd appreciate hearing back by the end
of the week", "a reply within 2 days"): the time of an answer, never the job's deadline. "We
need the answer by the 10th" asks for the job's answer: the results."""


def extract_deadline(scanner: Scanner, draft: Draft, now: datetime) -> None:
    """Absolute ("by 2026-12-01", "before Friday 5pm") and relative ("within 3 hours")."""

    def about_reply(m: re.Match[str]) -> bool:
        return bool(_REPLY_BEFORE_RE.search(scanner.text, max(0, m.start() - 50), m.start()))

    def state_until(m: re.Match[str]) -> bool:
        return m.group(0)[:1].lower() in "ut" and bool(
            _STATE_UNTIL_BEFORE_RE.search(scanner.text, max(0, m.start() - 40), m.start())
        )

    def absolute(m: re.Match[str]) -> bool:
        if about_reply(m):
            return True  # "hearing back by Friday": read, and no deadline
        if state_until(m):
            return False  # "the queue is quiet until Thursday": a state, not a deadline
        try:
            when = _resolve(m, now, before=bool(m.groupdict().get("before")))
        except (ValueError, OverflowError):
            return False
        if m.groupdict().get("before") and _NOT_BEFORE_DATE_RE.search(
            scanner.text, max(0, m.start() - 40), m.start()
        ):
            draft.unresolved.append(" ".join(m.group(0).split()))  # "not before Friday"
            return True
        if when is None and (m.group("n1") or m.group("sa") or m.group("dd")):
            draft.unresolved.append(" ".join(m.group(0).split()))  # "by 03/04/2026": which?
            return True
        if when is not None and m.groupdict().get("before") and not _said_clock(m):
            when = _event_clock(m, when, now)  # "before Friday's meeting (it's at 2pm)"
        return _set_deadline(draft, when, m.group(0), earliest=True)

    def timed_event_follows(m: re.Match[str]) -> bool:
        """ "before the 16:00 review tomorrow": the hour is the event's, the day comes after
        it, so the event pattern reads the phrase whole rather than "before 16:00" today."""
        if not (m.group("time2") and m.groupdict().get("before")) or _day_said(m):
            return False
        event = _BEFORE_EVENT_RE.match(scanner.text, m.start())
        return bool(event and event.group("event_time") and _day_said(event))

    def relative(m: re.Match[str]) -> bool:
        if about_reply(m):
            return True  # "please reply within 2 days"
        said = next(m.group(g) for g in ("dur", "dur2") if m.groupdict().get(g))
        seconds = duration_seconds(said)
        if seconds is None or seconds > MAX_RELATIVE_S:
            return False
        try:
            when = now + timedelta(seconds=seconds)
        except OverflowError:
            return False
        if not _set_deadline(draft, when, m.group(0)):
            return False
        if draft.deadline is not None and draft.deadline.value == when:
            draft.deadline_within_s = seconds
        return True

    def next_hour(m: re.Match[str]) -> bool:
        when = now + timedelta(hours=1)
        if not _set_deadline(draft, when, m.group(0)):
            return False
        if draft.deadline is not None and draft.deadline.value == when:
            draft.deadline_within_s = 3600
        return True

    def weekday(m: re.Match[str]) -> bool:
        if about_reply(m):
            return True
        if state_until(m):
            return False
        return _set_deadline(draft, _weekday_deadline(m, now), m.group(0), earliest=True)

    scanner.take(_COB_DAY_RE, weekday)
    scanner.take(_DEADLINE_RE, lambda m: not timed_event_follows(m) and absolute(m))
    scanner.take(
        _BEFORE_EVENT_RE,
        lambda m: (
            bool(_ASKED_BEFORE_RE.search(scanner.text, max(0, m.start() - 80), m.start()))
            and absolute(m)
        ),
    )
    scanner.take(_DEADLINE_IS_RE, absolute)
    scanner.take(
        _FOR_DATE_RE,
        lambda m: (
            m.group("rel") not in _TODAY
            and bool(_NEEDED_BEFORE_RE.search(scanner.text, max(0, m.start() - 40), m.start()))
            and absolute(m)
        ),
    )
    if _THEN_WORD_RE.search(scanner.text):
        scanner.take(
            _BY_THEN_RE, lambda m: bool(_ASKED_THEN_RE.search(m.group("gap"))) and absolute(m)
        )
    scanner.take(_DEADLINE_TYPO_RE, lambda m: _deadline_typo(m) and absolute(m))
    scanner.take(_WEEKDAY_TYPO_RE, weekday)
    scanner.take(_WITHIN_RE, relative)
    scanner.take(_NEXT_HOUR_RE, next_hour)
    scanner.take(_TIME_LEFT_RE, relative)


def _duration_said(m: re.Match[str]) -> tuple[str, int]:
    """The duration a match holds and where it starts ("", -1 when it holds none). A pattern
    that reads a duration's first character itself captures only the rest (``dur_rest``): the
    duration then starts where the match does."""
    groups = m.groupdict()
    if groups.get("dur_rest") is not None:
        return m.string[m.start() : m.end("dur_rest")], m.start()
    if groups.get("dur") is not None:
        return m.group("dur"), m.start("dur")
    return "", -1


def extract_walltime(scanner: Scanner, draft: Draft) -> None:
    """ "walltime 04:00:00", "time limit of 2h", then any remaining duration ("for 2 hours")."""

    def handle(m: re.Match[str]) -> bool:
        said, said_at = _duration_said(m)
        if _ORDINAL_RE.match(said):
            return False  # "a second buffer", "a minute detail": not a run time
        starts_with_duration = bool(said) and m.group(0).startswith(said)
        if starts_with_duration and _REPEAT_RE.search(
            scanner.text, max(0, m.start() - 12), m.start()
        ):
            return False  # "every 2 hours"; but "4 GPUs each for 12 hours" is a walltime
        if (
            starts_with_duration
            and _SMALL_TALK_RE.search(scanner.text, max(0, m.start() - 12), m.start())
            and re.match(r"\s*\?", scanner.text[m.end() :])
        ):
            return False  # "got 2 minutes?"; but "got 3h of rendering" is a run time
        clause = _clause_start(scanner.text, m.start())
        if unit_of_work_before(scanner.original[clause:], m.start() - clause):
            draft.unresolved.append(" ".join(m.group(0).split()))  # one trajectory's time
            return True
        described = m.re is _RUN_FOR_RE  # no walltime word: the duration may measure another thing
        begin = said_at if described else m.start()
        if described and (
            _NOT_A_RUN_BEFORE_RE.search(scanner.text, max(0, begin - 40), begin)
            or _AGE_AFTER_RE.match(scanner.text, m.end())
        ):
            return True  # "a time step of 30 minutes", "3 days ago": read, and no run time
        hms = m.groupdict().get("hms")
        seconds = hms_seconds(hms) if hms else duration_seconds(said)
        if seconds is None or not 1 <= seconds <= MAX_WALLTIME_S:
            return False
        mention = Mention(seconds, m.group(0))
        if described and (
            seconds > _MAX_LIKELY_WALLTIME_S or _OTHER_MEASURE_AFTER_RE.match(scanner.text, m.end())
        ):
            unlikely.append(mention)  # "520 weeks x 3,100 counties": the last resort
        elif described and _weak(scanner.text, m.start()):
            weak.append(mention)  # one item's time, or history: any run time asked for wins
        elif _ASKED_FOR_RE.search(scanner.text, max(0, m.start() - 30), m.start()):
            draft.compute.walltime.insert(0, mention)  # asked for beats described
        else:
            draft.compute.walltime.append(mention)
        return True

    def restated(m: re.Match[str]) -> bool:
        seconds = duration_seconds(f"{m.group('n').replace(',', '.')} {m.group('unit')}")
        if seconds is None or not 1 <= seconds <= MAX_WALLTIME_S:
            return False
        if _weak(scanner.text, m.start()):
            weak.append(Mention(seconds, m.group(0)))  # "it took a few hours (about 3)"
        else:
            draft.compute.walltime.insert(0, Mention(seconds, m.group(0)))
        return True

    weak: list[Mention[int]] = []
    unlikely: list[Mention[int]] = []
    scanner.take(_RESTATED_RE, restated)
    if _WALLTIME_WORD_HINT_RE.search(scanner.text):
        scanner.take(_WALLTIME_RE, handle)
        scanner.take(_WALLTIME_AFTER_RE, handle)
    scanner.take(_RUN_FOR_RE, handle)
    scanner.take(_BARE_HMS_RE, handle)
    scanner.take(
        _LISTED_HMS_RE,
        lambda m: (
            bool(_AMOUNT_ITEM_BEFORE_RE.search(scanner.text, max(0, m.start() - 30), m.start()))
            and handle(m)
        ),
    )
    draft.compute.walltime.extend(weak + unlikely)


def _weak(text: str, start: int) -> bool:
    """Whether a duration at ``start`` is likely not the job's run time, though it may be
    the only time given: one item's time, a past or waiting time, a simulated period."""
    if _HISTORY_BEFORE_RE.search(text, max(0, start - 40), start):
        return True
    return bool(_ONE_ITEM_RE.match(text, _clause_start(text, start), start))


def _clause_start(text: str, start: int) -> int:
    """Where the clause holding ``start`` begins (a sentence, or after "; ", ": ", ", so")."""
    window = max(0, start - 200)
    found = _CLAUSE_START_RE.search(text, window, start)
    return found.end() if found else window


def extract_urgency(scanner: Scanner, draft: Draft) -> None:
    """The first urgency phrase wins; a different one later is reported as a conflict."""

    def handle(m: re.Match[str]) -> bool:
        found = squash(m.group(0))
        urgency = _URGENCY_BY_SQUASHED.get(found)
        if urgency is None:
            return False
        if urgency is Urgency.NOW and _negated_urgency(m.string, m.start()):
            _set_urgency(draft, Urgency.NO_RUSH, m.group(0))  # "nothign urgent"
        elif _urgency_meant(found, m):
            _set_urgency(draft, urgency, m.group(0))
        return True  # "now works with ROCm": read, and it is prose

    def misspelt(m: re.Match[str]) -> bool:
        word = m.group(0).lower()
        if english_word(word) or typo_of(word, _URGENT_WORDS, 1) is None:
            return False
        negated = _negated_urgency(m.string, m.start())  # "not urgnet" is no rush, as spelt
        _set_urgency(draft, Urgency.NO_RUSH if negated else Urgency.NOW, m.group(0))
        return True

    scanner.take(_URGENCY_RE, handle)
    scanner.take(_URGENT_TYPO_RE, misspelt)


_URGENT_WORDS = ("urgent", "urgently", "immediately")
_URGENT_TYPO_RE = re.compile(
    r"(?-i:[UuRrIi\u0130\u0131])(?<![\w.-].)"
    r"(?:(?<=[Uu])[rg]|(?<=[Rr])u|(?-i:(?<=[Ii\u0130\u0131]))m)[a-z]{3,10}(?![\w-])",
    FLAGS,
)
"""Candidates for a misspelt "urgent" ("urgnet", "imediately"); checked by edit distance."""
_CLAUSE_GOES_ON_RE = re.compile(
    r"\s+(?:works?|uses?|runs?|supports?|has|have|is|are|was|were|takes?|needs?|that|each|"
    r"every|we|our|the|it|its|i|this|these|they|there|on|in|at|want|ask|require|expect|plan|"
    r"look|seem|become|know|think|hope|allow|include|contain|live|sit|also|only|both)(?!\w)"
    r"|\s+(?!(?:thanks|thx|pls|plz|please|is|as|yes)(?!\w))[a-z]+(?:s|ed|ing)(?!\w)|\s+[\d\x00]",
    FLAGS,
)
"""After "now": the sentence goes on ("now contains", "now fixed", "now scaling up", "now 2
nodes", "the reviewers now want"), so "now" says "currently"."""
_STATE_BEFORE_NOW_RE = re.compile(
    r"(?<![\w'])(?:is|are|was|were|'s|'re|gets?|got|getting|became|becomes?|has\s+(?:become|grown)"
    r"|have\s+(?:become|grown))\s+(?:[\w.\u00d7]{1,12}\s+){0,2}"
    r"(?:more|less|bigger|larger|smaller|longer|shorter|faster|slower|higher|lower|heavier|"
    r"wider|deeper|finer|coarser|harder|easier|better|worse|greater|fewer|denser)\s+$",
    FLAGS,
)
"""Before "now": a state compared with an earlier one ("the mesh is 3x bigger now", "the
runs are much longer now"): "now" says "these days", and asks for no haste."""
_NOW_OPENS_RE = re.compile(
    r"(?:^|[.!?]\s+|\n\s*)$",
)
"""Before "now": the start of a sentence. "Now for production ...", "Now, the new runs ..."
open a topic; they ask for no haste."""
_OPENING_AFTER_RE = re.compile(
    r"\s*,(?!\s*(?:please|pls|plz|asap|if|thanks|thx)(?!\w))"
    r"|\s+(?:for|to|that|then|about|as|regarding|onto|back|here|comes)(?!\w)",
    FLAGS,
)
"""After a sentence-opening "now": a comma or a word that leads into the topic."""
_NOT_BEFORE_RE = re.compile(
    r"(?<![\w'])(?P<neg>[a-z']{3,8})\s+(?:(?:that|too|very|super|really|so|particularly|at\s+all)\s+)?$",
    FLAGS,
)
_NEGATORS = ("nothing", "isn't", "isnt", "wasn't", "never")


def _negated_urgency(text: str, start: int) -> bool:
    """ "not urgent" written loosely: "nothign urgent", "isnt super urgent"."""
    m = _NOT_BEFORE_RE.search(text, max(0, start - 24), start)
    if m is None:
        return False
    word = m.group("neg").lower()
    return word in ("not", *_NEGATORS) or (
        len(word) >= 5 and not english_word(word) and typo_of(word, _NEGATORS, 1) is not None
    )


_NOW_AS_TIME_RE = re.compile(
    r"(?:from|for|until|till|by|as\s+of|up\s+to|than|just|even|is|are|and|"
    r"(?<![\w'])(?:we|i|they|you|he|she|who|which)|(?:'ve|have|has|had)"
    r"|what\s+(?:i|we)\s+(?:\w+\s+)?(?:need|want|require|like|ask\s+for))\s+$",
    FLAGS,
)
"""Before "now": a time ("from now", "by now"), a subject ("we now ask for", "I've now
rebuilt") or "what I need now: ..." before a list: "currently"."""
_STOPS_BEFORE_RE = re.compile(
    r"(?<!\w)(?:stops?|stopped|dies|died|crash(?:es|ed)?|fails?|failed|exits?|exited|aborts?"
    r"|aborted|quits?|segfaults?|hangs?|terminates?|terminated)\s+$",
    FLAGS,
)
"""Before "immediately": what a program does ("without it the job stops immediately"), not
how soon the writer needs the run."""
_START_BEFORE_RE = re.compile(
    r"(?:start|starts|started|begin|begins|run\s+it|running|needed|need\s+it|do\s+it|go)\s+$",
    FLAGS,
)


def _urgency_meant(found: str, m: re.Match[str]) -> bool:
    """ "now" and "right now" are urgency only when they end the thought ("need it now",
    "free right now?"); "now works with ROCm", "right now each job is 36 hours" say
    "currently". "at once" is urgency after a start verb ("start at once"); "250 cores at
    once" means simultaneously."""
    before = m.string[max(0, m.start() - 30) : m.start()]
    if found == "immediately" and _STOPS_BEFORE_RE.search(before):
        return False
    if found == "now" and (
        _STATE_BEFORE_NOW_RE.search(before)
        or (_NOW_OPENS_RE.search(before) and _OPENING_AFTER_RE.match(m.string, m.end()))
    ):
        return False
    if found in ("now", "rightnow"):
        return not _CLAUSE_GOES_ON_RE.match(m.string, m.end()) and not (
            found == "now" and _NOW_AS_TIME_RE.search(before)
        )
    if found == "atonce":
        return bool(_START_BEFORE_RE.search(before))
    return True


def _set_urgency(draft: Draft, urgency: Urgency, text: str) -> None:
    """The first urgency wins, except that an explicit "urgent" outranks a time of day: "run
    today's cycle ... this is urgent" is urgent, not merely soon."""
    current = draft.urgency
    if current is None or (current.value is Urgency.SOON and urgency is Urgency.NOW):
        draft.urgency = Mention(urgency, text)
    elif current.value is not urgency and not (
        current.value is Urgency.NOW and urgency is Urgency.SOON
    ):
        draft.conflict(text, current.text)


def default_now() -> datetime:
    """The parser's clock when the caller gives none: aware, in UTC."""
    return datetime.now(UTC)


_H_MM_RE = re.compile(r"(\d{1,3})h([0-5]\d)")
_PHRASE_SECONDS = {squash(s): v for s, v in reversed(lexicon.DURATION_PHRASES_S.items())}
"""The seconds of each duration phrase by its squashed spelling ("halfanhour"; the first
spelling wins, hence reversed)."""


def duration_seconds(text: str) -> int | None:
    """Seconds in a duration matched by :data:`DURATION`; None when it has none."""
    stripped = text.strip()
    if iso := _ISO_DURATION_RE.fullmatch(stripped):
        d, h, m, s = (int(iso.group(k) or 0) for k in "dhms")
        return (((d * 24 + h) * 60 + m) * 60 + s) or None
    if hm := _H_MM_RE.fullmatch(stripped):
        return (int(hm.group(1)) * 60 + int(hm.group(2))) * 60 or None
    if (seconds := _PHRASE_SECONDS.get(squash(text))) is not None:
        return seconds
    total = 0.0
    last_unit = 0
    for m in _SEGMENT_RE.finditer(text):
        if m.group("short"):
            total += int(m.group("snum")) * lexicon.SHORT_DURATION_UNITS_S[m.group("short")]
            continue
        num = m.group("num")
        value = float(num.replace(",", ".")) if num[0].isdigit() else float(to_count(num) or 0)
        last_unit = lexicon.DURATION_UNITS_S.get(squash(m.group("unit")), 0)
        total += value * last_unit
    if _HALF_RE.search(text):
        total += last_unit / 2  # "2 days and a half"
    seconds = round(total)
    return seconds if seconds > 0 else None


def hms_seconds(text: str) -> int | None:
    """Seconds in ``[D-]H:MM[:SS]`` (Slurm's form; ``4:00`` is read as 4 hours, not minutes)."""
    m = _HMS_RE.fullmatch(text.strip())
    if m is None:
        return None
    days, hours, minutes = int(m.group("d") or 0), int(m.group("h")), int(m.group("m"))
    seconds = int(m.group("s") or 0)
    total = ((days * 24 + hours) * 60 + minutes) * 60 + seconds
    return total if total > 0 else None


def _set_deadline(
    draft: Draft, when: datetime | None, text: str, *, earliest: bool = False
) -> bool:
    """The first deadline wins, except that among dates the earliest does: "the paper is due
    on the 18th, so we need the results by the 14th" binds the job to the 14th. The other one
    is noted as a conflict. A relative deadline ("in under 3 hours") never displaces a date."""
    if when is None:
        return False
    current = draft.deadline
    if current is None:
        draft.deadline = Mention(when, text)
    elif current.value != when:
        if earliest and draft.deadline_within_s is None and when < current.value:
            draft.deadline = Mention(when, text)
            draft.conflict(current.text, text)
        else:
            draft.conflict(text, current.text)
    return True


def _resolve(m: re.Match[str], now: datetime, *, before: bool) -> datetime | None:
    """The instant a matched deadline phrase stands for (see module docstring)."""
    if m.group("y"):
        return _iso(m, now, before=before)
    clock = (
        m.group("time1")
        or m.group("time2")
        or m.group("hour1")
        or m.groupdict().get("hour2")
        or m.groupdict().get("event_time")
    )
    if m.groupdict().get("hour2"):
        clock += ":00"  # "9 o'clock"
    zone = _zone(m.groupdict().get("tz1") or m.groupdict().get("tz2")) or now.tzinfo
    at = _clock(clock) if clock else None
    if clock and at is None:
        return None
    if at is not None and at.hour < 12 and (m.groupdict().get("dpart") or "").lower() in _PM_PARTS:
        at = at.replace(hour=at.hour + 12)  # "Friday afternoon 3 o'clock" is 15:00
    if m.group("rel3"):
        at = _REL_TIMES["cob" if squash(m.group("rel3")).startswith(("cob", "close")) else "eod"]
    day = _day(m, now, before=before)
    if day is None:
        if at is None or m.group("n1") or m.group("sa") or m.group("dd"):
            return None
        rel = (m.group("rel2") or "today").lower()
        rel = "tomorrow" if rel.startswith(("tom", "tmr", "tmo")) else rel  # "tomorow", "tmrw"
        day = now.date() + timedelta(days=1 if rel == "tomorrow" else 0)
        when = datetime.combine(day, at, tzinfo=zone).astimezone(now.tzinfo)
        return when + timedelta(days=1) if when <= now and rel != "tomorrow" else when
    rel = squash(m.group("rel") or "")
    if at is None:
        at = _REL_TIMES.get(rel) or (time(0, 0) if before else time(23, 59, 59))
    when = datetime.combine(day, at, tzinfo=zone).astimezone(now.tzinfo)
    if when <= now and rel == "cob":
        return when + timedelta(days=1)
    if when <= now and (m.group("wd") or m.group("wd2")):
        return when + timedelta(days=7)
    return when


def _said_clock(m: re.Match[str]) -> bool:
    """Whether a matched deadline phrase names its time of day itself."""
    groups = m.groupdict()
    return any(
        groups.get(g) for g in ("time1", "time2", "hour1", "hour2", "event_time", "hh", "rel3")
    )


def _day_said(m: re.Match[str]) -> bool:
    """Whether a matched deadline phrase names a day (not only a time of day)."""
    groups = m.groupdict()
    return any(
        groups.get(g)
        for g in ("y", "rel", "rel2", "wd", "wd2", "hol", "day1", "day2", "day3", "day5", "day6")
        + ("n1", "dd", "sa")
    )


def _event_clock(m: re.Match[str], when: datetime, now: datetime) -> datetime:
    """The day of ``when`` at the hour its event starts, when the text says it right after the
    phrase (see :data:`_EVENT_CLOCK_AFTER_RE`); ``when`` itself otherwise. A bare possessive
    day ("before Friday (2pm)") is not an event: only "'s <event>" or a phrase that already
    named the event counts."""
    found = _EVENT_CLOCK_AFTER_RE.match(m.string, m.end())
    if found is None or not (found.group("own") or m.re is _BEFORE_EVENT_RE):
        return when
    at = _clock(found.group("clock"))
    if at is None:
        return when
    zone = _zone(found.group("zone")) or now.tzinfo
    return datetime.combine(when.date(), at, tzinfo=zone).astimezone(now.tzinfo)


_PM_PARTS = ("afternoon", "evening")
"""A part of the day between a day and its hour ("Monday morning 8 o'clock", "Thursday
afternoon at 3"): after noon for these two, so a bare hour is read on the 24-hour clock."""
_END_OF_DAY = time(23, 59, 59)
_REL_TIMES = {
    "cob": time(17, 0),
    "eod": _END_OF_DAY,
    "tonight": _END_OF_DAY,
    **{
        f"endof{the}{unit}": _END_OF_DAY
        for the in ("", "the", "next")
        for unit in ("day", "week", "month")
    },
}
"""Named times of day. "End of ..." is the end of that day even after "before"."""


def _day(m: re.Match[str], now: datetime, *, before: bool) -> date | None:
    """The calendar day of a deadline phrase, or None when it names only a time."""
    today = now.date()
    if m.group("rel"):
        rel = " ".join(m.group("rel").lower().split())
        if "after" in rel:
            return today + timedelta(days=2)  # "the day after tomorrow"
        if rel.startswith(("tom", "tmr", "tmo")):
            return today + timedelta(days=1)
        ahead = "next" in rel  # "end of next week", "end of next month"
        if rel.endswith("week"):
            return today + timedelta(days=(4 - today.weekday()) % 7 + 7 * ahead)
        if rel.endswith("month"):
            year, month = divmod(today.year * 12 + today.month - 1 + ahead, 12)
            return date(year, month + 1, calendar.monthrange(year, month + 1)[1])
        return today
    weekday = m.group("wd") or m.group("wd2")
    if weekday:
        target = lexicon.WEEKDAYS[weekday.lower()]
        if m.groupdict().get("nextweek"):  # "Friday next week": that day of the week to come
            return today + timedelta(days=7 - today.weekday() + target)
        ahead = (target - today.weekday()) % 7
        if ahead == 0 and (before or m.group("wmod")) and not m.group("time2"):
            ahead = 7
        return today + timedelta(days=ahead)
    if m.group("hol"):
        return _holiday(m.group("hol"), today)
    if m.group("day3"):
        return _day_of_month(int(m.group("day3")), today)
    if m.group("n1"):
        return _numeric_date(m)
    if m.group("dd"):
        return _next_date(today, int(m.group("dm")), int(m.group("dd")))
    if m.group("sa"):
        return _short_slashed_date(m, today)
    groups = m.groupdict()
    month_name = m.group("mon1") or m.group("mon2") or groups.get("mon5") or groups.get("mon6")
    if month_name:
        month = lexicon.MONTHS[month_name.lower()]
        day = int(m.group("day1") or m.group("day2") or groups.get("day5") or groups["day6"])
        year_text = m.group("year1") or m.group("year2") or groups.get("year5")
        year = int(year_text) if year_text else today.year
        found = date(year, month, day)
        if not year_text and found < today:
            found = date(year + 1, month, day)
        return found
    return None


def _numeric_date(m: re.Match[str]) -> date | None:
    """The day of "14.12.2026" or "14/12/2026" (see :data:`_NUMERIC_DATE`); None when a slashed
    date could be read either way ("03/04/2026") or names no real day."""
    first, second, year = int(m.group("n1")), int(m.group("n2")), int(m.group("ny"))
    if m.group("nsep") == "/" and first <= 12 and second <= 12 and first != second:
        return None
    day, month = (second, first) if m.group("nsep") == "/" and second > 12 else (first, second)
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _next_date(today: date, month: int, day: int) -> date | None:
    """That day and month this year, or next year once it has passed; None when not a day."""
    for year in (today.year, today.year + 1):
        try:
            found = date(year, month, day)
        except ValueError:
            return None
        if found >= today:
            return found
    return None


def _short_slashed_date(m: re.Match[str], today: date) -> date | None:
    """The day of "12/15" or "15/12" (see :data:`_SHORT_DATE`); None when both readings are
    days and no weekday beside it tells them apart."""
    first, second = int(m.group("sa")), int(m.group("sb"))
    readings = {_next_date(today, first, second), _next_date(today, second, first)} - {None}
    said = m.group("swd") or m.group("swd2")
    if said:
        target = lexicon.WEEKDAYS[said.lower()]
        readings = {day for day in readings if day is not None and day.weekday() == target}
    if said and readings:
        return min(readings)  # "12/11 (Fri)": both may be Fridays, a year apart; the nearer
    return readings.pop() if len(readings) == 1 else None


_HOLIDAYS = {"christmaseve": (12, 24), "newyearseve": (12, 31), "newyeareve": (12, 31)}


def _holiday(name: str, today: date) -> date:
    """The next date of a fixed holiday: Christmas (25 Dec), its eve, New Year (1 Jan)."""
    key = squash(name.replace("'", "")).removesuffix("day")
    month, day = _HOLIDAYS.get(key, (1, 1) if key.startswith("newyear") else (12, 25))
    found = date(today.year, month, day)
    return found if found >= today else date(today.year + 1, month, day)


def _day_of_month(day: int, today: date) -> date | None:
    """ "the 18th": that day of this month, or of next month once it has passed."""
    year, month = today.year, today.month
    if day < today.day:
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    if not 1 <= day <= calendar.monthrange(year, month)[1]:
        return None
    return date(year, month, day)


def _clock(text: str) -> time | None:
    """A time of day from "5pm", "17:00", "9:30 a.m.", "noon"; None when impossible."""
    m = _TIME_RE.fullmatch(text.strip())
    if m is None:
        return None
    if m.group("word"):
        return time(23, 59, 59) if m.group("word").lower() == "midnight" else time(12, 0)
    hour, minute = int(m.group("h")), int(m.group("m") or 0)
    ampm = (m.group("ampm") or "").lower().replace(".", "")
    if ampm:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if ampm == "pm" else 0)
    if hour > 23 or minute > 59:
        return None
    return time(hour, minute)


def _iso(m: re.Match[str], now: datetime, *, before: bool) -> datetime:
    """An ISO date, with optional time and zone; raises ValueError for impossible dates."""
    year, month, day = int(m.group("y")), int(m.group("mo")), int(m.group("d"))
    if m.group("hh"):
        at = time(int(m.group("hh")), int(m.group("mm")), int(m.group("ss") or 0))
    else:
        at = time(0, 0) if before else time(23, 59, 59)
    tz = _zone(m.group("tz")) or now.tzinfo
    when = datetime(year, month, day, at.hour, at.minute, at.second, tzinfo=tz)
    return when.astimezone(now.tzinfo)


_OFFSET_RE = re.compile(r"(?P<sign>[+-])\s*(?P<h>\d{1,2})(?::?(?P<m>[0-5]\d))?$")


def _zone(text: str | None) -> tzinfo | None:
    """The zone a deadline's time is written in ("+02:00", "Z", "CET", "UTC+1", "ET", "German
    time"). A deadline in another zone is converted to the request's zone, so that "9:00 CET"
    and "08:00 UTC" are the same instant written the same way."""
    if not text:
        return None
    text = " ".join(text.strip("() ").lower().split())
    offset = _OFFSET_RE.search(text)
    name = text[: offset.start()].strip() if offset else text
    extra = timedelta(0)
    if offset:
        sign = -1 if offset.group("sign") == "-" else 1
        extra = sign * timedelta(hours=int(offset.group("h")), minutes=int(offset.group("m") or 0))
    if not name:
        return timezone(extra) if abs(extra) < timedelta(hours=24) else None
    name = name.removesuffix(" time").strip()
    if name in _FIXED_ZONES_H:
        total = timedelta(hours=_FIXED_ZONES_H[name]) + extra
        return timezone(total) if abs(total) < timedelta(hours=24) else None
    region = _REGION_ZONES.get(name)
    if region is None or extra:
        return None  # "ET+1" is no zone anyone writes: left in the request's zone
    try:
        return ZoneInfo(region)
    except (ZoneInfoNotFoundError, ValueError):
        return None
