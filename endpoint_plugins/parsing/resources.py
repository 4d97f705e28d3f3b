"""Site resources other than the allocation: network fabric, storage and money.

Storage runs after memory (see :mod:`endpoint_plugins.parsing.compute`), so a size still in the
text next to a storage word is a storage size: "100 TB of Lustre", "lustre with 100 TB free".
A size with no word at all ("I need 64 GB") is left in ``unparsed``: it could be either.
"""

from __future__ import annotations

import re

from endpoint_plugins.parsing import lexicon
from endpoint_plugins.parsing.draft import Draft, Mention
from endpoint_plugins.parsing.english import english_word
from endpoint_plugins.parsing.scanner import (
    FLAGS,
    PER_NODE,
    SIZE,
    Scanner,
    alternation,
    in_range,
    letter_led,
    sentence_around,
    size_in_gb,
    squash,
)
from endpoint_plugins.parsing.vocabulary import common_word, typo_of
from providers.wire.requirements import Fabric, StorageKind

MAX_STORAGE_GB = 1e9
MAX_SPEED_GBPS = 1e5
MAX_BUDGET_USD = 1e9

# -- network ---------------------------------------------------------------------------------

_FABRIC_SPELLINGS = {s: f for f, spellings in lexicon.FABRICS.items() for s in spellings}
_FABRIC_SPELLINGS.update({f.value: f for f in Fabric})
_GENERATION_WORDS = ("hdr", "ndr", "edr", "fdr", "qdr", "xdr")
_GENERATION = rf"(?:{'|'.join(_GENERATION_WORDS)})\d{{0,3}}(?!\w)"
"""InfiniBand generations ("HDR200"): part of the fabric's name, not a separate word."""
_NOUN = rf"(?:\s+{alternation(lexicon.NETWORK_NOUNS)}(?!\w))?"
_FABRIC_WORD = alternation(_FABRIC_SPELLINGS)
_FABRIC_FIRSTS, _FABRIC_REST = letter_led(_FABRIC_SPELLINGS)
_FABRIC_RE = re.compile(
    rf"(?-i:[{letter_led(_GENERATION_WORDS)[0]}{_FABRIC_FIRSTS}])(?<![\w.-].)"
    rf"(?:{letter_led(_GENERATION_WORDS)[1]}\d{{0,3}}(?!\w)\s+(?P<fabric>{_FABRIC_WORD})"
    rf"|(?P<fabric_rest>{_FABRIC_REST}))(?:\s+{_GENERATION})?{_NOUN}(?![\w])",
    FLAGS,
)
"""A fabric by name, perhaps after its generation ("HDR InfiniBand"). Its first character is
read first (see :func:`letter_led`), so the engine jumps between the few characters that can
start a match; without a generation in front, the name is ``fabric_rest`` and the character
before it (:func:`_fabric_said`)."""
_FABRIC_BY_SQUASHED: dict[str, Fabric] = {}
for _spelling, _fabric in _FABRIC_SPELLINGS.items():
    _FABRIC_BY_SQUASHED.setdefault(squash(_spelling), _fabric)
"""Each fabric by its spelling with separators and case ignored (the first spelling wins)."""
_FABRIC_WORD_RE = re.compile(rf"(?<![\w.-]){_FABRIC_WORD}(?!\w)", FLAGS)
_FABRIC_CHOICE_RE = re.compile(
    rf"(?-i:[Ee{_FABRIC_FIRSTS}])(?<![\w.-].)(?:(?<=e)ither\s+{_FABRIC_WORD}|{_FABRIC_REST})(?:\s*(?:,\s*|/\s*|,?\s*or\s+)(?:an?\s+)?"
    rf"{_FABRIC_WORD}(?!\w))+{_NOUN}",
    FLAGS,
)
"""Fabrics offered as alternatives: "InfiniBand or Slingshot", "IB/OPA"."""
_GENERATION_SPEED_RE = re.compile(
    r"(?<=[a-z\s])(?:hdr|ndr|edr|fdr|xdr)\s+(?P<gbps>\d{2,3})"
    r"(?:\s*g(?:b|bit)?(?:/s|ps)?)?(?![\w.])",
    FLAGS,
)
_ROCE_RE = re.compile(rf"(?<!\w){alternation(lexicon.RDMA_ETHERNET_WORDS)}{_NOUN}(?!\w)", FLAGS)
_LOW_LATENCY_RE = re.compile(
    rf"(?<!\w)(?:{alternation(lexicon.LOW_LATENCY_WORDS)}){_NOUN}(?!\w)", FLAGS
)
_LEADING_DIGIT = r"\d(?<![\w.]\d)"
"""The first digit of a number not inside a word or after a dot. The digit leads, and the
look-behind, one character wider, follows it: the engine skips from digit to digit, where a
leading look-behind would be tried at every position of the text."""
_SPEED_RE = re.compile(
    rf"(?P<num>{_LEADING_DIGIT}\d{{0,5}}(?:\.\d{{1,3}})?)\s*"
    rf"(?:(?P<unit>{alternation(lexicon.SPEED_UNITS_GBPS)})|(?P<gbe>gbe))(?![\w/])",
    FLAGS,
)
_NOT_LINK_BEFORE_RE = re.compile(
    r"(?<![\w-])(?:stream|triad|memory|mem|hbm\w*|dram|ddr\d?|i/o|io|ior|io500|mdtest|"
    r"read|reads|write|writes|disk|disks|storage|file\s*system|filesystem|fs|lustre|gpfs|"
    r"beegfs|nvme|ssd|scratch|burst\s+buffer|pcie)(?!\w)"
    r"(?:(?!network|interconnect|links?|fabric|infiniband|ib|ethernet|nics?|mpi|roce)"
    r"[^.;!?\n]){0,30}$",
    FLAGS,
)
"""Before a rate: memory or storage bandwidth ("STREAM triad 380 GB/s", "the Lustre does 40
GB/s of reads"), not a network link's speed. Quoted, never read as a link speed nor dropped."""
_LINK_AFTER_RE = re.compile(
    r"\s*(?:\w+\s+)?(?:links?|network|interconnect|infiniband|ib|ethernet|nics?|fabric|"
    r"roce|slingshot|omni-?path|opa)(?!\w)",
    FLAGS,
)
"""After a rate: the link it measures ("a 25 Gb/s link", "100 Gb/s InfiniBand"), which
outranks a memory or storage word before it."""

_SPEED_BEFORE_FABRIC_RE = re.compile(
    rf"(?P<num>{_LEADING_DIGIT}\d{{0,3}})\s*g(?:b|bit)?(?!ib/)"
    r"(?=\s*(?:infiniband|ib|ethernet|gbe|roce|"
    r"slingshot|omni-?path|opa|links?|nics?|network|interconnect)(?!\w))",
    FLAGS,
)

"""A speed written before the fabric: "100G InfiniBand", "25G links"; never "210 GiB/s" (a
data rate in gibibytes, whose "iB" is no InfiniBand)."""
_SPEED_AFTER_FABRIC_RE = re.compile(
    rf"(?P<fabric>(?-i:[{_FABRIC_FIRSTS}])(?<![\w.-].){_FABRIC_REST})"
    r"\s*(?:at\s+|@\s*|,\s*)?(?P<num>\d{1,4})\s*"
    r"g(?:b|bit)?(?![\w/.])",
    FLAGS,
)
"""A speed written after the fabric: "IB 400G", "Ethernet 100G", "InfiniBand @ 200G"."""

# -- storage ---------------------------------------------------------------------------------

_KIND_SPELLINGS = {s: k for k, spellings in lexicon.STORAGE_KINDS.items() for s in spellings}
_KIND = rf"(?P<kind>{alternation(_KIND_SPELLINGS)})"
_KIND_FIRSTS, _KIND_REST = letter_led(_KIND_SPELLINGS)
_LED_KIND = rf"(?P<kind>(?-i:[{_KIND_FIRSTS}])(?<![\w.-].){_KIND_REST})"
""":data:`_KIND` not after a word, for a pattern that opens with it: its first character is
read first (see :func:`letter_led`), so the engine jumps between the few characters that can
start a kind instead of trying every position."""
_KIND_NOUN = r"(?:\s+(?:space|storage|file\s*system|filesystem|fs|mounts?)(?!\w))?"
_SIZE_NOUN = alternation(lexicon.STORAGE_SIZE_NOUNS)
_LOCAL_AFTER = r"(?P<local>\s+(?:node[\s-]?)?local(?!\w)(?!\s+to(?!\w)))"
""""local" written after the noun, as a Romance-language writer puts it ("400 GB disk local in
each node", "1 TB scratch node-local"): the storage is on the node. "local to our group" is
not."""
_STORAGE_SIZE_FIRST_RE = re.compile(
    rf"{SIZE}\s*(?:of\s+)?(?:free\s+)?(?:(?:on|in)\s+(?:an?\s+|the\s+)?)?"
    rf"(?:{_KIND}{_KIND_NOUN}|(?P<noun>{_SIZE_NOUN}))(?!\w)(?:{_LOCAL_AFTER})?"
    rf"(?:\s+(?:free|available))?(?:{PER_NODE})?",
    FLAGS,
)
_STORAGE_KIND_FIRST_RE = re.compile(
    rf"{_LED_KIND}{_KIND_NOUN}\s*(?:with|of|having|for|:|>=)?\s*(?:at\s+least\s+)?"
    rf"{SIZE}(?:\s+(?:of\s+)?(?:free\s+)?(?:space|free|available))?",
    FLAGS,
)
_STORAGE_ON_KIND_RE = re.compile(
    rf"{SIZE}\s*(?:of\s+)?(?:free\s+)?(?:scratch\s+space|scratch|storage|space|disk\s+space|disk|room)"
    rf"\s+(?:on|in)\s+(?:an?\s+|the\s+|our\s+|a\s+shared\s+)?{_KIND}{_KIND_NOUN}(?!\w)",
    FLAGS,
)
"""A size of scratch placed on a named kind: "20 TB of scratch on a parallel filesystem" is
20 TB of the parallel filesystem, not 20 TB of any storage plus a parallel one."""
_STORAGE_FREE_ON_KIND_RE = re.compile(
    rf"{SIZE}\s+(?:(?:is|are|be|must\s+be|should\s+be|to\s+be|left|still)\s+)?"
    r"(?:free|available|left|spare)\s+(?:on|in)\s+(?:an?\s+|the\s+|our\s+|your\s+)?"
    rf"{_KIND}{_KIND_NOUN}(?!\w)",
    FLAGS,
)
"""Free space stated as a clause: "make sure 10 TB is free on the parallel file system"."""
_ENOUGH_FOR_RE = re.compile(
    r"(?<!\w)(?:enough|sufficient|adequate)\s+(?:free\s+)?"
    rf"(?:{_KIND}{_KIND_NOUN}|(?P<noun>{_SIZE_NOUN}|room))\s+"
    r"(?:for|to\s+(?:hold|store|keep|fit|take))\s+(?P<the>(?:all\s+)?(?:the|my|our|these|those|this|that|its)\s+)?"
    rf"(?:data\s+|output\s+|files\s+|~\s*|about\s+|around\s+)?{SIZE}",
    FLAGS,
)
"""Space asked for by what it must hold: "enough disk for the 2 TB", "sufficient scratch to
hold 500 GB". With a determiner ("the 2 TB") the size points back at a size named earlier,
which is the same amount, so that earlier mention is read too."""
_STORAGE_KIND_TYPO_RE = re.compile(
    r"(?P<word>(?-i:[Ss\u017f])(?<![\w.-].)[a-z]{5,7})(?![\w-])", FLAGS
)
"""A misspelt "scratch" or "storage" standing alone ("I need that much scrach"). Led by "s" in
every case ``re.IGNORECASE`` matches (the long s too), which the engine skips to; the
look-behind, one character wider, follows."""
_STORAGE_TYPO_RE = re.compile(
    rf"{SIZE}\s*(?:of\s+)?(?P<local_before>(?:node[\s-]?)?local\s+)?(?P<word>[a-z]{{5,9}})(?!\w)"
    rf"(?:{_LOCAL_AFTER})?",
    FLAGS,
)
"""A size, then perhaps a misspelt storage noun ("500GB of scrach", "2 TB storgae"); "local"
before or after it puts it on the node ("250 GB of local scrach")."""
_OWN_STORAGE_BEFORE_RE = re.compile(
    r"(?<!\w)(?:our|my|the\s+(?:lab|group|department)'?s?)\s+(?:[a-z]+\s+){0,2}$", FLAGS
)
_COMPLAINT_AFTER_RE = re.compile(
    r"(?:\s+(?:home|share|mount|server|storage|disk|volume))?\s+"
    r"(?:chokes|choked|struggles|struggled|hangs|hung|crawls|stalls|"
    r"(?:is|was|gets|got)\s+(?:too\s+|very\s+|really\s+|so\s+|far\s+too\s+|painfully\s+)?"
    r"(?:slow|full|flaky|unreliable|overloaded|saturated)|"
    r"can(?:no|')?t\s+(?:handle|cope|keep\s+up)|keeps\s+(?:dying|failing|hanging|timing\s+out)|"
    r"falls\s+over|(?:is|was)\s+not\s+(?:fast|big|quick)\s+enough)(?!\w)",
    FLAGS,
)
"""A storage kind the writer owns, named by what goes wrong with it ("our lab NFS chokes on
small-file I/O", "since my NFS home is too slow"): the reason for the storage asked for, not a
kind the job needs. The words are quoted (unresolved), never read as a requirement."""
_STORAGE_NOUN_SPELLINGS = ("scratch", "storage")
_PARALLEL_TYPO_RE = re.compile(
    r"(?<![\w.-])(?P<word>p[a-z]{6,8})[\s-]+(?:file[\s-]*systems?|filesystems?|fs|storage)(?!\w)",
    FLAGS,
)
"""A misspelt "parallel" before a filesystem noun ("paralel filesystem", "parralel fs"): any
parallel filesystem, as the right spelling is."""
_STORAGE_QUALITY_RE = re.compile(
    r"(?<!\w)(?:encrypted|encryption[\s-]at[\s-]rest|immutable|backed[\s-]up|replicated|"
    r"redundant|raid\d{0,2}|archival|tape|worm|hipaa[\s-]compliant|gdpr[\s-]compliant|secure)"
    r"\s+(?:scratch\s+|disk\s+|data\s+)?(?:storage|scratch|disks?|file\s*systems?|volumes?|"
    r"drives?|space)(?!\w)",
    FLAGS,
)
"""Storage with a quality no field holds ("encrypted storage", "backed-up disk"): quoted, and
not read as plain storage that any site has."""
_EXAMPLE_KINDS = (StorageKind.LUSTRE, StorageKind.GPFS, StorageKind.BEEGFS)
_ALREADY_THERE_RE = re.compile(r"(?<!\w)already(?!\w)", FLAGS)
"""Data that is already on a filesystem ("the outputs (~9 TB) already sit on our NFS share"):
its size is the data's, not free space asked for."""
_STORAGE_FREE_RE = re.compile(rf"{SIZE}\s+(?:free|available)(?!\w)", FLAGS)
_STORAGE_KIND_RE = re.compile(rf"{_LED_KIND}{_KIND_NOUN}(?![\w])(?!\s+rings?(?!\w))", FLAGS)
"""A storage kind named alone; a "storage ring" is an accelerator, not a filesystem."""
_LOOSE_SIZE_RE = re.compile(rf"(?<![\w.]){SIZE}(?!\s*(?:/|per\s|each|a\s))", FLAGS)
_THAT_MUCH_RE = re.compile(r"(?<!\w)(?:that|this|the\s+same)\s+much(?!\w)", FLAGS)
_SENTENCE_END_RE = re.compile(r"[.!?;](?=\s|$)|\n\s*\n|\n\s*#")
_THAT_MUCH_SPACE_RE = re.compile(
    rf"(?<!\w)(?:that|this|the\s+same)\s+much\s+(?:free\s+)?(?:{_SIZE_NOUN})(?!\w)"
    r"(?:\s+(?:free|available))?",
    FLAGS,
)
"""Space sized by an amount named before it ("the output is about 2 TB, so I need that much
free disk space"): storage of any kind, with the size the sentence names."""
_SPACE_FOR_IT_RE = re.compile(
    r"(?=[aghmnrw])"  # the first letters of the verbs below: most words pass in one test
    r"(?<!\w)(?:need|needs|want|require|requires|ask\s+for|asking\s+for|have\s+to\s+have|"
    r"must\s+have|get)\s+(?:some\s+|enough\s+|the\s+|free\s+)?(?:free\s+)?"
    rf"(?:{_SIZE_NOUN}|storage|room|scratch)\s+"
    r"(?:for|to\s+(?:hold|store|keep|put|save|fit))\s+"
    r"(?:it|them|that|this|these|those|all\s+of\s+it|all\s+of\s+them|all\s+that|all\s+this)"
    r"(?!\w)",
    FLAGS,
)
"""Space asked for by pointing back at data sized before it ("the output is around 3 TB, we
need space for it", "it is 500 GB. We need room to store that"): storage of any kind with that
size. When no one size is found the phrase is quoted, never read as storage of any size."""
_ROOM_FOR_SIZE_RE = re.compile(
    r"(?<!\w)(?:room|space|capacity)\s+(?:for|to\s+(?:hold|store|keep|fit|write))\s+"
    r"(?:up\s+to\s+|at\s+least\s+|about\s+|around\s+|roughly\s+|some\s+|~\s*)?"
    rf"{SIZE}",
    FLAGS,
)
"""Space sized by what it must hold: "room for ~800 GB of checkpoints", "space to hold 2 TB".
The size is the free space asked for; the kind is whatever the sentence names (any storage
when it names none)."""
_MEMORY_BEFORE_RE = re.compile(r"(?<!\w)(?:ram|memory|mem|vram|hbm)\W+(?:\w+\W+){0,3}$", FLAGS)
"""A memory word just before "room for 40 GB": the room is in memory, not on a disk."""
_SIZE_THERE_RE = re.compile(
    r"(?<!\w)(?:(?:write|store|put|keep|dump|save|stage|need|have|reserve)\s+)?"
    r"(?:up\s+to\s+|at\s+least\s+|about\s+|around\s+|roughly\s+|~\s*)?"
    rf"{SIZE}\s+(?:of\s+)?(?:(?:free\s+)?(?:space|room)\s+|free\s+|available\s+)?"
    r"there(?!\w)",
    FLAGS,
)
"""A size said of a storage named before it, pointing back with "there": "the tiles are in an
S3 bucket and we need 800 GB free there", "Lustre scratch ... we will write about 1 TB
there". The size is the free space of the last kind named before it; with no kind named
before, "there" may be a node or a GPU, and the size is left unread."""
_DATA_HELD_BEFORE_RE = re.compile(
    r"(?<!\w)(?:has|have|had|holds?|held|keeps?|kept|stores?|stored|used|uses|consumed|"
    r"occupied|occupies|filled|produced|generated|wrote|archived)\s+"
    r"(?:(?:about|around|roughly|some|over|nearly|almost|only|just|~)\s*)?$",
    FLAGS,
)
"""A size owned, used or produced before now ("our group has 40 TB of ERA5 on /gpfs/proj",
"we used 310 TB of the object store last year"): the data's size, not free space asked for."""
_PAST_USE_BEFORE_RE = re.compile(
    r"(?<!\w)(?:used|consumed|occupied|filled|produced|generated|wrote|archived)\s+"
    r"(?:(?:about|around|roughly|some|over|nearly|almost|only|just|~)\s*)?$",
    FLAGS,
)
"""A size used or produced before now, right before a storage phrase ("we filled 30 TB of
Lustre"): past use, not free space asked for. Unlike :data:`_DATA_HELD_BEFORE_RE` it leaves
"have" and "keep" alone, which also ask ("we'd like to have 10 TB of scratch")."""
_URL_RE = re.compile(r"[a-z0-9]{2,5}://", FLAGS)
"""A sentence with a bucket or file URL ("s3://designs/ (PDB files, 40 GB)") sizes the data at
that address, not the free space asked for."""
_ALREADY_IN_KIND_RE = re.compile(
    r"(?<!\w)already\s+(?:\w+\s+){0,3}?(?:in|on|at|under)\s+"
    r"(?:(?:my|our|the|their|his|her|your|a|an)\s+)?(?:\w+\s+)?$",
    FLAGS,
)
"""Generic scratch named as where data already lives ("the parquet files are already in my
scratch"): where the data is, not a storage asked for. Only the generic kind is dropped so: a
named filesystem the data sits on ("already on our NFS share") stays a need, as the job must
reach it, and keeping it can only make a site less ready, never wrongly ready."""
_STILL_ASKED_AFTER_RE = re.compile(
    r"[^.;!?\n]{0,40}?(?<!\w)(?:(?:has|have|needs?)\s+to\s+be|must\s+be|should\s+be|"
    r"needs?\s+(?:it|access)|mounted|visible|accessible|reachable)(?!\w)",
    FLAGS,
)
"""After a kind where data already lives, words that ask for it still ("already sit on our
NFS share, which has to be mounted on the compute node"): the kind is a need after all."""
_PROJECT_AREA_SIZED_RE = re.compile(
    r"(?<!\w)(?:project|group|home|work)\s+(?:directory|dir|folder|area|space|quota|allocation)"
    r"\s*(?:with|of|having|for|:|=)?\s*(?:at\s+least\s+|about\s+|around\s+|~\s*)?"
    rf"{SIZE}",
    FLAGS,
)
"""A sized project or home area ("a project directory with at least 2 TiB", "home quota of
200 GB"): storage of any kind with that free space."""
_EXAMPLES_OF_PARALLEL_RE = re.compile(
    r"(?<!\w)(?:parallel|shared)\s+(?:file[\s-]*systems?|filesystems?|fs|storage|scratch)\s*"
    r"(?:\(\s*(?:e\.g\.,?\s*|such\s+as\s+|like\s+)?|,?\s*(?:e\.g\.,?|such\s+as|like)\s+)"
    r"(?:(?:lustre|gpfs|beegfs|spectrum\s+scale)\s*(?:,\s*|/\s*|,?\s*or\s+))*$",
    FLAGS,
)
"""Filesystems named as examples of the parallel one asked for ("a parallel filesystem (Lustre
or GPFS, both is ok)", "parallel storage such as BeeGFS"): any parallel filesystem is the need,
not each example."""

# -- budget ----------------------------------------------------------------------------------

_AMOUNT = (
    r"(?<!\d[ \u2009\u202f\u00a0'])"
    r"(?:\d{1,3}(?:,\d{3}){1,3}|\d{1,3}(?:[ \u2009\u202f\u00a0']\d{3}){1,3}(?!\d)|\d{1,9})"
    r"(?:\.\d{1,2})?"
)
"""An amount of money; thousands may be grouped with a comma, a space or an apostrophe ("2 000
US dollars"), and a group is never read alone as an amount."""
_CURRENCY = alternation(lexicon.CURRENCY_WORDS)
_LIMIT = (
    r"(?:under|below|less\s+than|at\s+most|max(?:imum)?|up\s+to|no\s+more\s+than|"
    r"not\s+more\s+than|within|<=?|\u2264)"
)
_BUDGET_WORD = (
    r"(?:(?:a|my|the|total)\s+)?budget(?:\s+(?:of|is|at|:|=))?(?:\s+" + _LIMIT + r")?"
    r"|(?:costs?|costing|spend|spending|pay|paying|price)(?:\s+" + _LIMIT + r")?"
)
_THOUSAND = r"(?:k|\s*thousand(?!\w))"
"""A thousands multiplier: "$1.5k", "2 thousand dollars", "a budget of 1.5 thousand"."""
_MONEY = (
    rf"(?:\$|us\$|usd\s*)\s*(?P<a1>{_AMOUNT})(?P<k1>{_THOUSAND})?(?!\w|[.,]\d)"
    rf"|(?<![\w.,])(?P<a2>{_AMOUNT})(?P<k2>{_THOUSAND})?\s*(?:{_CURRENCY}(?!\w)|\$)"
)
_AFTER_MONEY = r"(?:\s+(?:budget|max(?:imum)?|limit|tops|or\s+less|at\s+most)(?!\w))?"
_BUDGET_RE = re.compile(
    rf"(?<!\w)(?:(?:{_BUDGET_WORD}|{_LIMIT})\s*:?\s*)?(?:{_MONEY}){_AFTER_MONEY}"
    rf"|(?<!\w)budget(?:\s+(?:of|is))?\s*[:=]?\s*(?P<a3>{_AMOUNT})(?P<k3>{_THOUSAND})?(?!\w|[.,]\d)",
    FLAGS,
)
_BUDGET_HINT_RE = re.compile(
    rf"(?-i:[$\dUuBb])(?:(?<=\$)|(?<=u)sd|(?<=b)udget|(?<=\d){_THOUSAND}?\s*(?:{_CURRENCY}))",
    FLAGS,
)
"""What every match of :data:`_BUDGET_RE` contains: a dollar sign, "usd", "budget", or a
currency right after the amount. Most requests name no money, and the full pattern tries each
of its cost and limit words at every word. The hint is led by a case-sensitive class of the
first characters, which the engine skips to (a case-folded alternation would be tried at every
position); a one-character look-behind then picks the alternative."""
_PAID_BEFORE_RE = re.compile(
    r"(?<!\w)(?P<verb>cost|costs|costed|spent|paid|billed|charged|came\s+to|ran\s+(?:us\s+)?to)"
    r"\s+(?:(?:us|me|them|the\s+group|about|around|roughly|approximately|approx\.?|nearly|"
    r"almost|over|just|only|some|~)\s*)*(?:\$|us\$|usd\s*)?$",
    FLAGS,
)
"""Before an amount: a price already paid ("a run of this size cost about $3k last year",
"we spent $800 on it"). Not a cap on spending: a limit word ("under", "at most") in the
same phrase makes it one."""
_PAST_MARK_RE = re.compile(
    r"(?<!\w)(?:last\s+(?:year|time|month|week|run|round|spring|summer|autumn|fall|winter)|"
    r"previous(?:ly)?|ago|earlier|back\s+then|in\s+20\d\d|was|were|had|did)(?!\w)",
    FLAGS,
)
"""A past time near "cost" ("cost $3k last year"): "cost" alone could be a present price."""
_CARDINALS = {
    "a": 1,
    **{w: 1 + i for i, w in enumerate("one two three four five six seven eight nine".split())},
    **{w: 10 + i for i, w in enumerate("ten eleven twelve thirteen fourteen fifteen".split())},
    **{w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty".split(), 2)},
    **{w: 10 * i for i, w in enumerate("seventy eighty ninety".split(), 7)},
}
_WORD_MONEY_RE = re.compile(
    rf"(?<![\w-])(?:(?:{_BUDGET_WORD}|{_LIMIT})\s*:?\s*)?"
    rf"(?P<n>{alternation(_CARDINALS)})(?:[\s-]+(?P<scale>hundred|thousand))?"
    r"\s+(?:(?:us|u\.s\.|american)\s+)?(?:dollars|usd|bucks)(?!\w)",
    FLAGS,
)
"""An amount of money in words: "two thousand dollars", "five hundred USD", "fifty bucks"."""
_FREE_FIRSTS, _FREE_REST = letter_led(lexicon.FREE_OF_CHARGE_WORDS)
_FREE_RE = re.compile(
    rf"(?-i:[{_FREE_FIRSTS}])(?<!\w.){_FREE_REST}(?!\w)",
    FLAGS,
)


def _fabric_said(m: re.Match[str]) -> str:
    """The fabric's name in a match of :data:`_FABRIC_RE` or :data:`_SPEED_AFTER_FABRIC_RE`."""
    said = m.group("fabric")
    if said is None:
        said = m.string[m.start() : m.end("fabric_rest")]  # its first character leads the match
    return said


def extract_network(scanner: Scanner, draft: Draft) -> None:
    """Fabric names, RoCE (Ethernet, low latency), "low latency" alone, and link speeds."""

    def fabric(m: re.Match[str]) -> bool:
        chosen = _FABRIC_BY_SQUASHED.get(squash(_fabric_said(m)))
        if chosen is None:
            return False
        draft.set_fabric(chosen, m.group(0))
        return True

    def speed_before_fabric(m: re.Match[str]) -> bool:
        """ "100G InfiniBand", "25G Ethernet": a G on a link is gigabits per second."""
        value = float(m.group("num"))
        if not in_range(value, 1e-6, MAX_SPEED_GBPS):
            return False
        draft.set_speed(value, m.group(0))
        return True

    def roce(m: re.Match[str]) -> bool:
        draft.set_fabric(Fabric.ETHERNET, m.group(0))
        draft.low_latency = True
        return True

    def low_latency(_: re.Match[str]) -> bool:
        draft.low_latency = True
        return True

    def speed(m: re.Match[str]) -> bool:
        if _NOT_LINK_BEFORE_RE.search(
            scanner.original, max(0, m.start() - 60), m.start()
        ) and not _LINK_AFTER_RE.match(scanner.original, m.end()):
            draft.unresolved.append(" ".join(m.group(0).split()))  # memory or disk bandwidth
            return True
        factor = 1.0 if m.group("gbe") else lexicon.SPEED_UNITS_GBPS[_unit_key(m.group("unit"))]
        value = round(float(m.group("num")) * factor, 6)
        if not in_range(value, 1e-6, MAX_SPEED_GBPS):
            return False
        draft.set_speed(value, m.group(0))
        if m.group("gbe"):
            draft.set_fabric(Fabric.ETHERNET, m.group(0))
        return True

    def choice(m: re.Match[str]) -> bool:
        """ "InfiniBand or Slingshot, either is fine": no one fabric is required; when every
        one offered is a low-latency fabric, low latency is."""
        offered = {_FABRIC_SPELLINGS.get(squash(f)) for f in _FABRIC_WORD_RE.findall(m.group(0))}
        offered.discard(None)
        if len(offered) < 2:
            return False
        if Fabric.ETHERNET not in offered:
            draft.low_latency = True
        return True

    def generation_speed(m: re.Match[str]) -> bool:
        """ "InfiniBand NDR 400": the number after the generation is the link speed."""
        draft.set_speed(float(m.group("gbps")), m.group(0))
        return True

    def speed_after_fabric(m: re.Match[str]) -> bool:
        value = float(m.group("num"))
        if not in_range(value, 1e-6, MAX_SPEED_GBPS) or not fabric(m):
            return False
        draft.set_speed(value, m.group(0))
        return True

    scanner.take(_SPEED_RE, speed)
    scanner.take(_SPEED_AFTER_FABRIC_RE, speed_after_fabric)
    scanner.take(_SPEED_BEFORE_FABRIC_RE, speed_before_fabric)
    scanner.take(_ROCE_RE, roce)
    if " or " in scanner.text or "/" in scanner.text:
        scanner.take(_FABRIC_CHOICE_RE, choice)
    scanner.take(_GENERATION_SPEED_RE, generation_speed)

    def avoided(m: re.Match[str]) -> bool:
        """ "Not on the Ethernet-only racks": refusing a fast fabric excludes low latency (as
        "no Slingshot" does); refusing Ethernet asks for better, which no field holds unless
        another fabric is named, so the phrase is quoted then."""
        said = _FABRIC_WORD_RE.search(m.group(0))
        if said and _FABRIC_SPELLINGS.get(squash(said.group(0))) is Fabric.ETHERNET:
            rest = scanner.text[: m.start()] + scanner.text[m.end() :]
            if not any(
                _FABRIC_SPELLINGS.get(squash(f)) not in (None, Fabric.ETHERNET)
                for f in _FABRIC_WORD_RE.findall(rest)
            ):
                draft.unresolved.append(" ".join(m.group(0).split()))
            return True
        draft.refused_fabrics.append(m.group(0))
        return True

    if _AVOID_HINT_RE.search(scanner.text):
        scanner.take(_AVOID_FABRIC_RE, avoided)
    scanner.take(_FABRIC_RE, fabric)
    scanner.take(_LOW_LATENCY_RE, low_latency)


_AVOID_HINT_RE = re.compile(
    r"(?-i:[AaNn])(?<!\w.)(?:(?<=n)ot|(?<=a)void|(?<=a)way\s+from|(?<=n)ever)\s", FLAGS
)
"""What every match of :data:`_AVOID_FABRIC_RE` contains ("not ", "avoid "): most requests
avoid no hardware. Led by a class the engine skips to, as :data:`_BUDGET_HINT_RE` is."""
_AVOID_FABRIC_RE = re.compile(
    r"(?<!\w)(?:not|avoid|away\s+from|never)\s+(?:(?:on|in|to|onto|use)\s+)?"
    r"(?:the\s+|any\s+|our\s+|those\s+)?(?:old\s+|slow\s+)?"
    rf"(?:{_FABRIC_WORD})(?:[\s-]+only)?(?:[\s-]+(?:connected|based))?\s+"
    r"(?:racks?|nodes?|partitions?|machines?|islands?|queues?|clusters?|boxes|servers?|hosts?)"
    r"(?!\w)",
    FLAGS,
)
"""Nodes to stay off, named by their fabric ("not on the ethernet-only racks", "avoid the
Omni-Path partition"): the fabric is refused, not asked for (see
:meth:`Draft.build_excluded`), so "it needs InfiniBand" after it is the fabric asked."""


def extract_storage(scanner: Scanner, draft: Draft) -> None:
    """Sized storage ("100 TB of Lustre", "scratch with 2 TB"), then kinds named alone."""

    sized_at: list[int] = []

    def sized(m: re.Match[str]) -> bool:
        if _PAST_USE_BEFORE_RE.search(scanner.text, max(0, m.start() - 30), m.start()):
            return False  # "we filled 30 TB of Lustre last year": past use, left unread
        size = size_in_gb(m)
        if size is None or not in_range(size, 1e-6, MAX_STORAGE_GB):
            return False
        kind = m.groupdict().get("kind")
        found = _kind(kind) if kind else StorageKind.ANY
        if found is StorageKind.ANY and (
            m.groupdict().get("local") or m.groupdict().get("local_before")
        ):
            found = StorageKind.LOCAL  # "400 GB disk local", "250 GB of local scrach"
        draft.add_storage(found, size)
        if re.search(r"scratch|disk", (kind or m.groupdict().get("noun") or ""), FLAGS):
            draft.scratch_sized = True
        sized_at.append(m.start())
        return True

    named: list[tuple[StorageKind, int]] = []

    def kind_alone(m: re.Match[str]) -> bool:
        if _OWN_STORAGE_BEFORE_RE.search(scanner.original, max(0, m.start() - 30), m.start()) and (
            complaint := _COMPLAINT_AFTER_RE.match(scanner.original, m.end())
        ):
            draft.unresolved.append(" ".join(scanner.original[m.start() : complaint.end()].split()))
            return True  # "our lab NFS chokes on small files": the reason, not the ask
        found = _kind(m.group("kind"))
        if (
            found is StorageKind.ANY
            and _ALREADY_IN_KIND_RE.search(scanner.original, max(0, m.start() - 60), m.start())
            and not _STILL_ASKED_AFTER_RE.match(scanner.original, m.end())
        ):
            return True  # "the files are already in my scratch": where data is, not a need
        if found in _EXAMPLE_KINDS and _EXAMPLES_OF_PARALLEL_RE.search(
            scanner.original, max(0, m.start() - 80), m.start()
        ):
            return True  # "a parallel filesystem (Lustre or GPFS)": examples of the need
        if found is not StorageKind.ANY and _only_preferred(scanner.original, m):
            return True  # "BeeGFS would be nice, but any scratch will do"
        named.append((found, m.start()))
        return True

    def quality(m: re.Match[str]) -> bool:
        draft.unresolved.append(" ".join(m.group(0).split()))
        return True

    def misspelt(m: re.Match[str]) -> bool:
        # After a size only an everyday word is kept out: the dictionary also lists archaic
        # words one letter off ("scrath", "scatch"), which here are a misspelt "scratch".
        word = m.group("word").lower()
        if common_word(word) or typo_of(word, _STORAGE_NOUN_SPELLINGS, 1) is None:
            return False
        return sized(m)

    def enough_for(m: re.Match[str]) -> bool:
        if not sized(m):
            return False
        if m.group("the"):
            _blank_same_size(scanner, m, size_in_gb(m))
        return True

    def room_for(m: re.Match[str]) -> bool:
        if _MEMORY_BEFORE_RE.search(scanner.text, max(0, m.start() - 40), m.start()):
            return False
        return sized(m)

    def size_there(m: re.Match[str]) -> bool:
        size = size_in_gb(m)
        if size is None or not in_range(size, 1e-6, MAX_STORAGE_GB):
            return False
        before = list(_STORAGE_KIND_RE.finditer(scanner.text, 0, m.start()))
        if not before:
            return False  # "a node with 256 GB there": no storage to point back at
        kind = _kind(before[-1].group("kind"))
        draft.add_storage(kind, size)
        sized_at.append(m.start())
        return True

    def misspelt_kind(m: re.Match[str]) -> bool:
        word = m.group("word").lower()
        if english_word(word) or typo_of(word, _STORAGE_NOUN_SPELLINGS, 1) is None:
            return False
        named.append((StorageKind.ANY, m.start()))
        return True

    scanner.take(_STORAGE_QUALITY_RE, quality)
    scanner.take(_SIZE_THERE_RE, size_there)  # skipped by its trigger, "there", on most texts
    scanner.take(_ROOM_FOR_SIZE_RE, room_for)
    scanner.take(_PROJECT_AREA_SIZED_RE, sized)
    scanner.take(_STORAGE_ON_KIND_RE, sized)
    scanner.take(_STORAGE_FREE_ON_KIND_RE, sized)
    scanner.take(_ENOUGH_FOR_RE, enough_for)
    scanner.take(_STORAGE_SIZE_FIRST_RE, sized)
    scanner.take(_STORAGE_KIND_FIRST_RE, sized)
    scanner.take(_STORAGE_FREE_RE, sized)
    scanner.take(_STORAGE_TYPO_RE, misspelt)

    def that_much(m: re.Match[str]) -> bool:
        size = _size_in_sentence(scanner, m.start(), sized_at)
        if size is None:
            draft.unresolved.append(" ".join(m.group(0).split()))  # how much is "that much"?
        else:
            draft.add_storage(StorageKind.ANY, size)
        return True

    if "much" in scanner.text.lower():
        scanner.take(_THAT_MUCH_SPACE_RE, that_much)
    scanner.take(_SPACE_FOR_IT_RE, that_much)

    def misspelt_parallel(m: re.Match[str]) -> bool:
        word = m.group("word").lower()
        if english_word(word) or typo_of(word, ("parallel",), 1) is None:
            return False
        named.append((StorageKind.PARALLEL, m.start()))
        return True

    scanner.take(_STORAGE_KIND_RE, kind_alone)
    scanner.take(_PARALLEL_TYPO_RE, misspelt_parallel)
    scanner.take(_STORAGE_KIND_TYPO_RE, misspelt_kind)
    for kind, at in named:
        draft.add_storage(kind, _size_in_sentence(scanner, at, sized_at))


_STORAGE_NOUNS = r"(?:scratch|storage|file\s*system|filesystem|fs|disk|space|volume)"
_PREFERRED_AROUND_RE = re.compile(
    r"(?:(?:preferably|ideally|if\s+possible)\s*,?\s*(?:on\s+|in\s+)?(?:a\s+|an\s+)?$)"
    r"|^(?:[\s,]+(?:if\s+possible|preferably|ideally))?\s*(?:\(|,)?\s*(?:would\s+be|is|'d\s+be"
    r"|would)\s+(?:nice|preferred|a\s+plus|ideal|better|great|good|welcome|lovely|my\s+preference)",
    FLAGS,
)
_ANY_WILL_DO_RE = re.compile(
    rf"(?<!\w)any(?:\s+other)?\s+(?:kind\s+of\s+|sort\s+of\s+|parallel\s+|shared\s+)?"
    rf"{_STORAGE_NOUNS}s?\s+(?:will|would|should|is|works|can)(?:\s+(?:do|be\s+fine|fine|ok|okay|"
    r"work|be\s+ok(?:ay)?|be\s+acceptable|acceptable))?(?!\w)",
    FLAGS,
)
"""Any storage accepted in so many words ("but any scratch will do", "any filesystem is
fine"): a kind named beside it only as a preference is no requirement (see
:func:`_only_preferred`)."""


def _only_preferred(text: str, m: re.Match[str]) -> bool:
    """Whether a storage kind is named only as a preference that the same sentence waives.

    "BeeGFS would be nice, as on our old cluster, but any scratch will do" asks for scratch;
    requiring BeeGFS would turn away every site that has Lustre. Both the preference word
    beside the kind and the "any ... will do" in its sentence are needed: "Lustre, and any
    scratch will do for the logs" still asks for Lustre."""
    if "any" not in text.lower():
        return False
    begin = max(text.rfind(".", 0, m.start()), text.rfind("\n\n", 0, m.start())) + 1
    stop = text.find(".", m.end())
    stop = len(text) if stop < 0 else stop
    before = text[max(begin, m.start() - 30) : m.start()]
    after = text[m.end() : min(stop, m.end() + 40)]
    if not (_PREFERRED_AROUND_RE.search(before) or _PREFERRED_AROUND_RE.search(after)):
        return False
    return bool(_ANY_WILL_DO_RE.search(text, begin, stop))


def _blank_same_size(scanner: Scanner, m: re.Match[str], size: float | None) -> None:
    """Read an earlier mention of the size "the 2 TB" points back at ("The files are 2 TB in
    total. ... enough disk for the 2 TB"): the same amount, not a second requirement."""
    for earlier in _LOOSE_SIZE_RE.finditer(scanner.text, 0, m.start()):
        if size is not None and size_in_gb(earlier) == size:
            scanner.blank(*_with_total(scanner.text, earlier))


_TOTAL_AFTER_RE = re.compile(r"\s+in\s+total(?!\w)", FLAGS)


def _with_total(text: str, m: re.Match[str]) -> tuple[int, int]:
    after = _TOTAL_AFTER_RE.match(text, m.end())
    return m.start(), after.end() if after else m.end()


def _size_in_sentence(scanner: Scanner, at: int, sized_at: list[int]) -> float | None:
    """The one size left unread in the sentence that names a storage kind, taken as its size.

    People name the amount and the filesystem in different clauses: "the output, about 12 TB,
    has to go to GPFS", "Lustre, 500 GB", "the archive is 40 TB, so GPFS with that much free".
    Memory and per-node sizes were read before storage, so a size still here in the same
    sentence is the data's. Two or more candidates are ambiguous and stay unread, and so does
    a size in a sentence that already sized its storage ("4 TB of input on Lustre with 6 TB
    free, scratch too": the 4 TB describes the data, not a second filesystem).
    """
    text = scanner.text
    ends, end = sentence_around(_SENTENCE_END_RE, text, at, at)
    start = ends[-1] if ends else 0
    if (
        any(start <= s < end for s in sized_at)
        or _ALREADY_THERE_RE.search(text, start, end)
        or _URL_RE.search(scanner.original, start, end)
    ):
        return None
    points_back = _THAT_MUCH_RE.search(text, start, end) or _SPACE_FOR_IT_RE.search(
        text, start, end
    )
    if points_back and not _LOOSE_SIZE_RE.search(text, start, end):
        start = ends[-2] if len(ends) > 1 else 0  # "... is 40 TB. GPFS with that much free"
    found = list(_LOOSE_SIZE_RE.finditer(text, start, end))
    if len(found) != 1 or _DATA_HELD_BEFORE_RE.search(
        text, max(start, found[0].start() - 30), found[0].start()
    ):
        return None
    size = size_in_gb(found[0])
    if size is None or not in_range(size, 1e-6, MAX_STORAGE_GB):
        return None
    scanner.blank(*found[0].span())
    return size


def extract_budget(scanner: Scanner, draft: Draft) -> None:
    """A spending limit in US dollars: "under $50", "budget of 100 dollars", "for free"."""

    def money(m: re.Match[str]) -> bool:
        amount = next((m.group(f"a{i}") for i in (1, 2, 3) if m.group(f"a{i}")), None)
        kilo = any(m.group(f"k{i}") for i in (1, 2, 3))
        if amount is None:
            return False
        if _paid(scanner.text, m):
            return False  # "it cost $3k last year": a past price, left quoted
        digits = re.sub(r"[,'\s\u2009\u202f\u00a0]", "", amount)
        value = round(float(digits) * (1000 if kilo else 1), 2)
        if not in_range(value, 0, MAX_BUDGET_USD):
            return False
        _set_budget(draft, value, m.group(0))
        return True

    def free(m: re.Match[str]) -> bool:
        _set_budget(draft, 0.0, m.group(0))
        return True

    def money_in_words(m: re.Match[str]) -> bool:
        scale = {"hundred": 100, "thousand": 1000}.get((m.group("scale") or "").lower(), 1)
        if m.group("n").lower() == "a" and scale == 1:
            return False  # "a dollars" is no amount
        _set_budget(draft, float(_CARDINALS[m.group("n").lower()] * scale), m.group(0))
        return True

    if _BUDGET_HINT_RE.search(scanner.text):
        scanner.take(_BUDGET_RE, money)
    lowered = scanner.text.lower()
    if "dollars" in lowered or "usd" in lowered or "bucks" in lowered:
        scanner.take(_WORD_MONEY_RE, money_in_words)
    scanner.take(_FREE_RE, free)


_LIMIT_WORD_RE = re.compile(rf"(?<!\w){_LIMIT}(?!\w)|budget|max|limit|tops|or\s+less", FLAGS)
"""A word that makes an amount a limit, wherever it stands in the money match."""


def _paid(text: str, m: re.Match[str]) -> bool:
    """Whether a money match is a price already paid, not a limit (see
    :data:`_PAID_BEFORE_RE`): a cost verb right before the amount, no limit word, and a
    verb of the past or a past time in the same sentence."""
    if _LIMIT_WORD_RE.search(m.group(0)):
        return False
    start = next(m.start(f"a{i}") for i in (1, 2, 3) if m.group(f"a{i}"))
    paid = _PAID_BEFORE_RE.search(text, max(0, start - 60), start)
    if paid is None:
        return False
    if not paid.group("verb").lower().startswith("cost"):
        return True  # "spent", "paid", "billed": always past
    sentence = re.split(r"[.;!?]\s|\n\s*\n", text[max(0, start - 120) : m.end() + 80])
    near = next((part for part in sentence if m.group(0) in part), "")
    return bool(_PAST_MARK_RE.search(near))


def _set_budget(draft: Draft, value: float, text: str) -> None:
    if draft.budget is None:
        draft.budget = Mention(value, text)
    elif draft.budget.value != value:
        draft.conflict(text, draft.budget.text)


def _kind(spelling: str) -> StorageKind:
    found = squash(spelling)
    return next((k for s, k in _KIND_SPELLINGS.items() if squash(s) == found), StorageKind.ANY)


def _unit_key(unit: str) -> str:
    unit = unit.lower()
    return next((u for u in lexicon.SPEED_UNITS_GBPS if squash(u) == squash(unit)), "gbps")
