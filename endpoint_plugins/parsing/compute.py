"""The allocation shape: nodes, cores, GPUs (count, model, AND/OR) and memory.

Only mentions are recorded here; :meth:`Draft.build_compute` decides what they add up to once
the whole request has been read, because "8 GPUs" means something different with "on 2 nodes"
at the other end of the sentence.

Cores and GPUs are found in one pass each, then adjacent pairs are examined: "32 cores or
2 GPUs per node" joins them with OR and lets the trailing "per node" apply to both.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from endpoint_plugins.parsing import lexicon
from endpoint_plugins.parsing.draft import Count, Draft, Mention
from endpoint_plugins.parsing.history import demote_history
from endpoint_plugins.parsing.negation import in_condition, needed_without
from endpoint_plugins.parsing.scanner import (
    BARRIER,
    COUNT,
    COUNT_NO_ARTICLE,
    FLAGS,
    NOT_RATE,
    PER_CORE,
    PER_NODE,
    SIZE,
    TOTAL,
    Scanner,
    alternation,
    in_range,
    letter_led,
    lookup,
    sentence_around,
    size_in_gb,
    starts_with,
    to_count,
)
from providers.wire.requirements import Feature, GpuVendor

MAX_NODES = 1_000_000
MAX_CORES = 100_000_000
MAX_GPUS = 1_000_000
MAX_MEMORY_GB = 1e7


def _cases(letter: str) -> str:
    """Every case of ``letter`` that ``re.IGNORECASE`` matches, for a class written in a
    case-sensitive group ("i" is "Ii\u0130\u0131")."""
    return letter_led([letter])[0]


_MODEL_SPELLINGS = [s for spellings in lexicon.GPU_MODELS.values() for s in spellings]
_MODEL = alternation(_MODEL_SPELLINGS)
_VENDOR = alternation(lexicon.GPU_VENDORS)
_VARIANT = (
    r"(?:-(?:sxm\d?|pcie|nvl|\d{2,3}gb)|\s+(?:sxm\d?|pcie|nvl)"
    r"|\s\d{2,3}gb(?!\s*(?:of\s+)?(?:ram|memory|mem)\b))?"
)
"""Board variants ("A100-SXM4", "A100 80GB") belong to the model, not to memory."""
_MODEL_PHRASE = rf"(?:{_VENDOR}\s+){{0,2}}(?P<model>{_MODEL}){_VARIANT}s?"
_GPU_WORD = alternation(lexicon.GPU_WORDS)
_SCOPE = (
    rf"(?:(?P<aside>\s*\([^()\n\x00\d]{{1,24}}\))(?={PER_NODE}|{TOTAL}))?"
    rf"(?P<scope>{PER_NODE}|{TOTAL})?"
)
"""The scope of a count, also past a short aside: "8 GPUs (GCDs) per node"."""
_UNIT_END = rf"(?!\w|-[^\W\d_]){NOT_RATE}"

_CPU_ONLY_RE = re.compile(
    # the first-letter look-ahead rejects most positions before the costlier look-behind
    rf"{starts_with(lexicon.CPU_ONLY_WORDS)}(?<!\w){alternation(lexicon.CPU_ONLY_WORDS)}(?!\w)",
    FLAGS,
)
_CPU_KIND_BEFORE_RE = re.compile(
    r"(?<!\w)(?:amd|intel|arm(?:64)?|aarch64|x86(?:[_-]64)?|amd64|power\d*|ppc64le|epyc|xeon|"
    r"grace|a64fx|risc-?v|zen\s?\d|genoa|milan|rome|bergamo|turin|\w+\s+(?:lake|rapids)|"
    r"skylake|graviton\d*|neoverse|ampere|altra)[\s-]*$",
    FLAGS,
)
"""Before "CPUs only": a CPU kind ("AMD EPYC Genoa CPUs only", "Intel CPUs only"): the text
restricts the processor, which no field holds, and says nothing about GPUs."""
_PART_IS_RE = re.compile(
    r"(?<![\w-])(?:stage|step|phase|part|pass|preprocessing|pre-processing|postprocessing"
    r"|post-processing|pre-?step|alignment|analysis|setup|meshing|decomposition)s?"
    r"(?:\s+(?:with|of|in|using|for)\s+[^.;:!?\n]{1,30}?)?"
    r"\s+(?:is|are|was|runs?|stays?|remains?)(?:\s+(?:anyway|already|always|purely|entirely))?"
    r"[\s-]*$",
    FLAGS,
)
"""Before "CPU-only": a part of the job as its subject ("the MSA stage with MMseqs2 is
CPU-only", "preprocessing runs CPU only"): it says how one step runs, not that the whole job
needs no GPU; the words are left for the reader (unresolved) instead of excluding GPUs."""
_NODES_RE = re.compile(
    rf"(?P<n>{COUNT})\s*(?P<of>of\s+(?:the|your|our|their)\s+)?(?:-\s*)?(?:(?:x|\u00d7|\*)\s*)?"
    rf"(?:(?P<cpn>\d{{1,4}})[\s-]*(?:cores?|cpus?|cpu[\s-]cores?)[\s-]+"
    rf"|(?P<gpn>\d{{1,2}})[\s-]*(?P<gx>x\s*)?(?:(?P<gpnmodel>{_MODEL})[\s-]*)?"
    r"(?:gpus?[\s-]+|(?(gx)(?(gpnmodel)(?<=[\s-])|(?!))|(?!)))"
    rf"|(?P<mem>\d{{1,5}})\s*(?:gb|g|tb|gib)[\s-]+(?:ram[\s-]+|memory[\s-]+)?)?"
    rf"(?:(?:{_VENDOR}\s+)?(?P<gpu>{_GPU_WORD}|{_MODEL})(?:[\s-]+(?:accelerated|enabled|capable))?"
    r"[\s-]+"
    r"|(?:cpu|compute|worker|physical|whole|full|standard|regular|large[\s-]memory|big[\s-]memory|"
    r"(?:big|large|huge|hi|high)[\s-]?mem|"
    rf"high[\s-]memory|fat|exclusive|dedicated|bare[\s-]metal|multi[\s-]core)[\s-]+"
    r"|(?P<such>such|identical|similar|(?:of\s+)?(?:these|those))[\s-]+"
    r"|(?P<arch>arm(?:64)?|aarch64|x86(?:[_-]64)?|amd64|power(?:9|10)?|ppc64le|epyc|xeon|grace|"
    r"a64fx|risc-?v)[\s-]+)?"
    rf"{alternation(lexicon.NODE_WORDS)}{_UNIT_END}"
    r"(?(of)(?!\s+(?:(?:is|are|was|were|has|have|had|do|does|did)(?:n'?t)?|failed|fails|crashed|"
    r"crash(?:es)?|died|dies|went|go|goes|keeps?|kept|seems?|seemed|got|gets|showed|shows|"
    r"reported|returned|threw|throws|hung|hangs|ran|runs|hit|hits|will|would|can|could|"
    r"cannot|can't|should|might|may|must)(?!\w))|)",
    FLAGS,
)
"""Node counts: "4 nodes", "2 x 64-core nodes", "3 GPU nodes", "2 of these nodes". "4 of the
nodes" and "2 of your GPU nodes" pick nodes from the site's pool, which is a count too; but
"3 of the nodes failed", "2 of our nodes are down" say what the nodes did or are, so with
"of the" a verb after the node word keeps the count out."""
_HARDWARE_OF_A_NODE_RE = re.compile(
    r"(?<!\w)(?:the|all(?:\s+(?:of\s+)?the)?|both|(?:all|both)\s+of\s+the)\s+"
    r"(?:[^\W\d][\w-]*\s+){0,2}?(?:gpus|cores|cpus|cards|accelerators|devices|sockets|disks|ssds|nics)"
    r"\s+(?:in|on|of|within|inside)\s+$",
    FLAGS,
)
"""Before "a node": the parts of any one node ("the GPUs in a node must have NVLink", "all
the cores of a node share one memory"), a sentence about what a node is like; the node count,
if any, is said elsewhere. Not with a count of the parts: "all 8 GPUs of one node" asks for
that node."""
_WITH_AMOUNT_RE = re.compile(
    r"\s*,?\s*(?:with|w/|having|that\s+has|which\s+has|of)\s+(?:at\s+least\s+|about\s+)?"
    r"(?:\d|an?\s|one|two|three|four|six|eight|\x00)",
    FLAGS,
)
"""After "a GPU node": the amounts it has ("a GPU node with 4 A100s" is one node)."""
_SUCH_HINT_RE = re.compile(
    r"\w\s+(?:such|identical|similar|of\s+these|of\s+those|these|those)\s+\w", FLAGS
)
"""Cheap guard before looking for "6 such nodes" (see ``such_at`` below)."""
_SUCH_WORDS = ("such", "identical", "similar", "these", "those")
"""One of these is in every text :data:`_SUCH_HINT_RE` finds something in: a substring test
on the folded text rules most texts out before that pattern is tried at every position."""
_EACH_NODE_HAS_RE = re.compile(
    r"(?:one|1)\s+(?:node|machine|host|server|computer)\s+(?:has|have|having|with|gets?)\s+\d",
    FLAGS,
)
"""After a node count, "1 node have 64 cores" sizes each node; it is not a second count."""
_ONE_UNIT_WORDS = ("machine", "computer", "workstation", "host", "server", "box", "node")
"""Singular words for one node that :data:`lexicon.NODE_WORDS` leaves out as vague on their own
("a big machine"). Beginners and non-native writers use them for the node they ask for."""
_ONE_UNIT_RE = re.compile(
    # every match starts with "a", "o", "s" or "1": that character is consumed first and each
    # branch names it in a look-behind (see :func:`_counted`), so the engine skips to the next
    # candidate; a branch starting with the consumed character holds only what follows it
    rf"(?-i:[{_cases('a')}{_cases('o')}{_cases('s')}1])(?<![\w-].)"
    r"(?:(?P<one>(?<=[Oo])ne|(?<=1)|(?<=[Aa])\s+single|(?<=[Oo])ne\s+single|(?<=[Ss\u017f])ingle"
    r"|(?:(?<=[Aa])n?\s+(?P<single>s[a-z]{3,6})|(?<=[Ss\u017f])(?P<single_rest>[a-z]{3,6}))"
    r"(?=[\s-]+(?:node|machine|computer|server|host|box)(?![\w-])))"
    r"|(?P<article>(?<=[Aa])n?))\s+"
    r"(?:(?:(?:big|large|huge|fat|hi|high)[\s-]?mem(?:ory)?(?![a-z])|big|large|powerful|strong|beefy|fast|dedicated|linux|arm|x86|gpu|cpu|compute|fat|"
    r"(?:dual|two|quad|four)[\s-]socket|multi[\s-]core|many[\s-]core|"
    r"shared[\s-]memory|high[\s-]memory|bare[\s-]metal|physical|whole|\x00{3,})[\s-]+){0,2}"
    r"(?P<unit>[a-z]{3,11})(?![\w-])"
    r"(?![\s-]+(?:learning|scientists?|science|vision|names?|files?|keys?|languages?|codes?|"
    r"rooms?|memory|ram|labs?|programs?|models?|precision|time|readable|translation|"
    r"architecture|graphics|side|admins?|administrators?|operating)(?!\w))"
    r"(?:(?=(?P<with>\s*,?\s*(?:with|w/|having|that\s+has|which\s+has|equipped\s+with|"
    r"containing)\s+(?:at\s+least\s+|about\s+|around\s+|~\s*)?"
    r"(?:\d|two|three|four|six|eight|sixteen|twelve|a\s+(?:couple|pair)\s+of)))|)",
    FLAGS,
)
"""One node in words: "one machine", "a single host", "a computer with 48 cores", "a
workstation with 2 graphic cards", "a sever with 16 cpus" (one letter off), "a bigmem node
w/ 1 TB" (the big-memory node a site's partitions are named after). With only an
article the word must be followed by the amounts it has ("a machine with 4 processors");
"a computer scientist", "a machine learning model", "host memory" never count."""
_SAME_NODE_RE = re.compile(
    r"(?<!\w)(?:all\s+)?(?:on|in|onto|within|inside)\s+(?:the\s+)?same\s+(?:physical\s+)?"
    r"(?:node|machine|host|server|box)(?![\w-])"
    r"(?!\s+(?:types?|kinds?|models?|class|partition|pool|as|that|which|we|I|you)(?!\w))",
    FLAGS,
)
"""The job's amounts kept together: "2 GPUs on the same node", "all 64 ranks in the same
machine" is one node. Not "the same node type" nor "the same node as ..." (a node named
elsewhere), and only after an amount (see :func:`_amounts_before`)."""
_AMOUNT_THEN_RE = re.compile(
    r"(?<![\w.])(?:\d{1,4}|two|three|four|six|eight|all|both)[\s-]+(?:[\w.-]+\s+){0,2}?"
    r"(?:gpus?|cores?|cpus?|ranks|tasks|processes|threads|workers|cards|accelerators|devices|"
    rf"{_MODEL}s?)(?!\w)[^.;!?:\n\x00]{{0,40}}$",
    FLAGS,
)
"""Before "on the same node": the count of what goes on it ("2 GPU A100", "all the ranks")."""


def _amounts_before(m: re.Match[str]) -> bool:
    """Whether "on the same node" follows, in its clause, the amounts that share the node."""
    return bool(_AMOUNT_THEN_RE.search(m.string, max(0, m.start() - 90), m.start()))


_TERSE_SHAPE_RE = re.compile(
    r"(?P<n>\d(?<![\w.]\d)\d{0,4})\s*n\s*(?:x|\u00d7|\*)\s*(?P<cpn>\d{1,4})\s*c(?![\w.])", FLAGS
)
r"""The shorthand of users in a hurry: "8N x 128c" is 8 nodes of 128 cores.

Like the other patterns here that start with a count in digits, it starts with the digit and
looks behind it only then (``\d(?<![\w.]\d)`` is ``(?<![\w.])\d``): a pattern that starts
with a character class lets the regex engine skip to the next digit, one that starts with a
look-behind is tried at every position of the text."""
_SIZED_NODE_TYPO_RE = re.compile(
    r"(?<![\w.])(?P<n>an?|one|two|three|four|1|\d{1,4})\s+(?P<cpn>\d{1,4})[\s-]*(?:cores?|cpus?)"
    r"[\s-]+(?P<w>[a-z]{3,9})(?![\w-])",
    FLAGS,
)
"""Nodes sized by cores, the node word one edit off: "a 32 core nod", "2 64-core nodse"."""
_MULTI_GPU = {"dual": 2, "twin": 2, "quad": 4, "octo": 8}
_MULTI_GPU_RE = re.compile(
    rf"(?<![\w-])(?:(?P<n>\d{{1,4}}|an?|one|two|four)\s+)?(?P<w>dual|twin|quad|octo)[\s-]+"
    rf"(?:{_VENDOR}\s+)?(?:(?P<model>{_MODEL})s?|gpus?)(?![\w-])(?![\s-]*(?:sockets?|cpus?)(?!\w))"
    r"(?:[\s-]+(?P<node>nodes?|servers?|machines?|workstations?|boxes|box|systems?)(?!\w))?",
    FLAGS,
)
"""GPUs counted by a prefix: "dual A100", "a quad-GPU node", "2 octo-GPU servers"."""
_CLAUSE_BREAK_RE = re.compile(r"[.!?](?:\s|$)|\n")
"""Between a node count and "one node with ...": past a sentence end, a count of its own
("5 nodes; 1 node have 48 cores" stays the size of each node)."""
_BOXES_RE = re.compile(
    rf"(?<![\w.])(?P<n>{COUNT_NO_ARTICLE})\s+(?:(?P<cpn>\d{{1,4}})[\s-]*(?:cores?|cpus?)"
    rf"|(?P<gpu>{_MODEL}|{_GPU_WORD}))[\s-]+box(?:es)?(?!\w)",
    FLAGS,
)
"""Boxes sized by cores or GPUs are nodes ("one 32-core box", "the 3 H100 boxes"); a bare
"box" is often a simulation box and stays unread."""
_ENOUGH = (
    r"(?:\s*(?:is|will\s+be|would\s+be|should\s+be|seems)\s+(?:enough|plenty|fine|sufficient)"
    r"(?!\w))?"
)
"""After a node count, a verdict on it that leaves the list going on: "one node is enough, with
1 GPU and 16 cores" sizes that node, as "one node with 1 GPU and 16 cores" does."""
_AT_ONCE = (
    r"(?:\s+(?:at\s+once|at\s+a\s+time|at\s+the\s+same\s+time|in\s+parallel|simultaneously"
    r"|concurrently)(?!\w))?"
)
"""After a node count, how the nodes are used, before what each has: "20 nodes at once, each
with 32 cores" sizes each of the 20."""
_ATTACHED_RE = re.compile(
    _ENOUGH
    + _AT_ONCE
    + r"\s*(?:,\s*)?(?:(?:x|\u00d7|\*|\u00e0|with|w/|wiht|whith|wtih|of|having|each\s+with|"
    r"each\s+having|every\s+one\s+(?:with|has|having)|and|"
    r"(?:and\s+)?(?:(?:in|on|for)\s+)?each\s+(?:of\s+(?:them|those|these)|one)"
    r"(?:\s+(?:with|has|have|having))?|"
    r"and\s+each\s+with|\(|:|"
    r"(?:with\s+|and\s+)?(?:(?:in|on|for)\s+)?each(?:\s+(?:node|machine|server|host|computer))?"
    r"(?:\s+(?:with|has|have|having|gets?|runs?|:))?)"
    r"\s*(?:at\s+least\s+|about\s+|around\s+)?|\s)",
    FLAGS,
)
"""What may join a node count to the core or GPU count of each node: "4 nodes x 32 cores",
"4 nodes with 32 cores", "4 nodes of 2 GPUs", "2 nodes (64 cores)", "8 nodes à 32 cores"
(the French and German "à", one each)."""
_COMMA_ONLY_RE = re.compile(r"\s*[,;]\s*")
"""A rank count joined to the node count by a comma alone ("16 nodes, 1024 MPI ranks") counts
the whole job: ranks are per node only when the text attaches them ("with", "x", "each")."""
_UNCOUNTED_NODES_RE = re.compile(
    r"(?<![\w\x00-])(?:nodes|machines|servers)\s+(?:with|of|having|that\s+have|which\s+have)\s+"
    r"(?P<n>\d{1,4})[\s-]*(?:cpu[\s-]+)?(?:cores?|cpus?)(?!\w)",
    FLAGS,
)
"""Nodes sized but not counted: "on nodes of 128 cores", "nodes with 64 cores, so 8 nodes".
The cores are per node; the node count, if any, is read elsewhere."""
_SITE_DESCRIBED_RE = re.compile(
    r"(?<!\w)(?:has|have|had|there\s+(?:are|were)|our\s+cluster|your\s+cluster|offers?|"
    r"provides?|used\s+to|last\s+(?:year|time|month|week))(?!\w)[^.;!?\n]*$",
    FLAGS,
)
"""Before nodes sized but not counted: a description of a cluster or of a past run ("your
cluster has nodes with 128 cores"), which asks for nothing."""
_TOTAL_ASIDE_RE = re.compile(
    r"\s*\(\s*(?:=\s*)?(?P<n>\d{1,7})\s*(?:in\s+total|total|overall|altogether)\s*\)", FLAGS
)
"""After "4 GPUs per node on 4 nodes": the same unit counted over the job, "(16 total)"."""
_CPU_OR_GPU_RE = re.compile(
    r"(?<!\w)(?:(?:a|an|the)\s+)?(?:cpus?|cpu[\s-]only|cpu\s+nodes?|cpu\s+cores)"
    r"(?:\s+(?:alone|by\s+(?:itself|themselves)|on\s+(?:its|their)\s+own))?\s*"
    rf"(?:,\s*)?(?:or|/|and/or)\s*(?:(?:also|else|alternatively|even|maybe)\s+)?"
    rf"(?:,\s*if\s+[^,;.]{{1,40}},\s*)?(?:(?:on|with|a|an)\s+)?"
    rf"(?:(?P<gpu>{_GPU_WORD})"
    r"(?:[\s-]+(?:builds?|versions?|nodes?|jobs?|runs?|backends?|mode))?(?!\w)"
    rf"|(?=(?:{COUNT})\s*(?:x\s*)?(?:{_VENDOR}\s+)?(?:{_GPU_WORD}|{_MODEL})))",
    FLAGS,
)
"""GPUs as an option, not a must: "a CPU or GPU build", "on CPU or 2 GPUs per node", "on CPU
alone or on a single GPU", "on CPU or also on GPU" (an adverb after "or"). Read before "CPU
only", so "either CPU-only or with 2 GPUs" offers two options instead of excluding the GPUs it
asks for."""
_GPU_WORD_STEMS = ("gpu", "graphic")
"""In every spelling of :data:`lexicon.GPU_WORDS`."""
_CPU_WORD_STEMS = ("cpu", "processor")
"""In every CPU word :data:`_GPU_OR_CPU_RE` can end with."""
_RANK_WORD_STEMS = ("rank", "task", "proc")
"""In every spelling of :data:`lexicon.RANK_WORDS`."""


def _holds(folded: str, stems: tuple[str, ...]) -> bool:
    """Whether case-folded text holds one of ``stems``: a gate tighter than the triggers the
    scanner derives (they pick one short string per spelling, such as "ta" for "tasks")."""
    return any(map(folded.__contains__, stems))  # no generator to step through: run per gate


_OPTION_COUNT = r"(?:(?P<n>\d{1,3}|one|two|four|eight|a\s+single|a|an)\s+)?"
"""A count before the GPU word of an option ("on one GPU or on CPU"): still the count asked."""
_GPU_OR_CPU_RE = re.compile(
    rf"{_OPTION_COUNT}(?<!\w)(?:{_GPU_WORD})\s*,?\s*or\s+"
    r"(?:(?:also|else|alternatively|even|only|just)\s+)?"
    r"(?:on\s+)?(?:plain\s+|regular\s+|just\s+|normal\s+)?"
    r"(?:cpus?|cpu\s+nodes?|cpu[\s-]only(?:\s+nodes?)?"
    r"|(?:the\s+)?(?:plain|regular|normal|ordinary|usual|conventional)\s+(?:cpus?|processors?))"
    r"(?!\w)",
    FLAGS,
)
"""The same, GPUs first: "runs on GPUs, or on plain CPUs if nothing else is free", "on a
graphics card or on the normal processors", "on GPU or only on CPU, both are possible"."""
_GPU_THEN_OR_RE = re.compile(
    rf"(?<!\w)(?:{_GPU_WORD}|{_MODEL}s?)(?![\w-])[^.;!?\n]{{0,40}}?(?:,\s*|\s+)or\s+"
    r"(?:else\s+)?(?:(?:just|simply|plain|on|run|use)\s+){0,2}(?:the\s+)?$",
    FLAGS,
)
"""Before "CPU only": GPUs offered first and the CPU as the other option ("2 T4s, or CPU only if
that's all you have", "an A100 or else just CPU only"): a fallback, never an exclusion of the
GPUs just asked for."""
_GPU_OPTIONAL_RE = re.compile(
    rf"{_OPTION_COUNT}(?<!\w)(?:{_GPU_WORD}|gpu\s+acceleration|gpu\s+support)\s+(?:is\s+|are\s+)?"
    r"(?:optional|if\s+(?:one\s+is\s+|they\s+are\s+|it\s+is\s+)?available|nice\s+to\s+have|"
    r"would\s+be\s+(?:nice|faster|better|a\s+plus|welcome|a\s+bonus)|are\s+a\s+plus|"
    r"a\s+(?:nice\s+)?bonus|welcome\s+but\s+not\s+required|helps?\s+but\s+(?:is|are)n'?t\s+"
    r"required)(?!\w)",
    FLAGS,
)
_CPU_TOO_RE = re.compile(
    r"(?<!\w)(?:(?:plain|regular|normal|just)\s+)?(?:cpus?|cpu\s+nodes?)\s+"
    r"(?:would|will|could|should|can)\s+(?:also\s+)?(?:do|work|be\s+(?:fine|ok(?:ay)?))"
    r"(?:\s+too|\s+as\s+well)?"
    r"|(?<!\w)(?:works?|runs?|is\s+fine|also\s+works?|also\s+runs?)\s+on\s+(?:a\s+|the\s+)?"
    r"(?:plain\s+|regular\s+|normal\s+|just\s+)?(?:cpus?|cpu\s+nodes?)(?:\s+only)?"
    r"\s+(?:too(?!\s+(?:slow|slowly|long|much|little|weak)(?!\w))|as\s+well|also)"
    r"|(?<!\w)(?:cpus?|cpu\s+nodes?)\s+(?:is|are)\s+(?:also\s+)?(?:fine|ok(?:ay)?|acceptable)"
    r"(?:\s+too|\s+as\s+well)?"
    r"|(?<!\w)(?:falls?\s+back\s+to|or\s+else)\s+(?:the\s+)?cpus?(?!\w)"
    r"|(?<!\w)(?:(?:also|still)\s+)?(?:works?|runs?)(?:\s+(?:also|too))?(?:\s+fine)?(?:\s+on)?\s+"
    r"(?:a\s+|the\s+)?(?:plain\s+|regular\s+|normal\s+|just\s+)?(?:cpus?|cpu\s+nodes?)"
    r"(?:[\s-]+only)?(?:\s+too(?!\s+(?:slow|slowly|long|much|little|weak)(?!\w))|\s+as\s+well|\s*,?\s+(?:just|only|but)\s+(?:a\s+(?:lot|bit)\s+|much\s+|"
    r"very\s+|really\s+|quite\s+|(?:it\s+)?(?:is|will\s+be|would\s+be|gets?)\s+(?:very\s+|really\s+)?)?"
    r"(?:slower|slow|slowly))(?!\w)"
    r"|(?<!\w)(?:also|still)\s+(?:works?|runs?)(?:\s+fine)?\s+on\s+(?:a\s+|the\s+)?"
    r"(?:plain\s+|regular\s+|normal\s+)?(?:cpus?|cpu\s+nodes?)(?:[\s-]+only)?"
    r"(?=\s*(?:[.,;!)]|$|(?:if|when|but|just|though|although)(?!\w)))",
    FLAGS,
)
"""CPUs offered as the fallback, apart from the GPU phrase: "it works on CPU too", "cpu would
do too", "CPUs are fine as well", "works CPU-only too", "it also runs on CPU, just slower", "it
can run also on CPU but very slow". With a GPU mentioned, GPUs are an option, not a must. "It
runs on CPU too slowly to be useful" offers no fallback."""
_GPU_THEN_COUNT_RE = re.compile(
    rf"(?<!\w)(?:{_VENDOR}\s+)?(?:(?P<model>{_MODEL})(?:\s*(?:{_GPU_WORD}|cards?))?|{_GPU_WORD})s?"
    r"\s*[,:(]\s*(?P<n>\d{1,3})\s*(?P<scope>per\s+(?:node|server|machine|host|box)|each|"
    r"on\s+each\s+node|a\s+node)(?!\w)",
    FLAGS,
)
"""The count written after the GPU phrase: "MI250X GPUs, 4 per node", "A100s: 8 each"."""
_OF_THEM_RE = re.compile(
    rf"(?<![\w.,$])(?P<n>\d{{1,3}}|{alternation(['two', 'three', 'four', 'six', 'eight'])})"
    r"\s+of\s+(?:them|those|these)(?!\w)"
    r"|(?<!\w)(?:need|want|grab|take|get)\s+(?:like\s+|about\s+|maybe\s+|just\s+)?"
    r"(?P<bare>\d{1,2})(?=\s+for\s|\s*[,.;!?)]|\s*$)",
    FLAGS,
)
"""A count of GPUs named before: "Intel GPUs ... on 2 of them", "spare H200s? need 4 for 5h"."""
_NODE_WITH_RE = re.compile(
    rf"{alternation(lexicon.NODE_WORDS)}\s*,?\s*(?:with|w/|having|that\s+has|of|and)\s+", FLAGS
)
"""Between a node word and "8 of them": the GPUs named before, counted on that node."""
_WANT_HINT_RE = re.compile(r"(?:need|want|grab|take|get)\s+(?:\w+\s+)?\d")
_LAST_UNIT_RE = re.compile(
    rf"(?<!\w)(?:(?P<gpu>{_GPU_WORD}|{_MODEL})s?|{alternation(lexicon.NODE_WORDS)}|"
    rf"{alternation(lexicon.CORE_WORDS)})(?!\w)",
    FLAGS,
)
_TIMES_AFTER_RE = re.compile(
    rf"(?<![\w-])(?:(?<!per\s)(?<!each\s)(?<!/)(?P<node>{alternation(lexicon.NODE_WORDS)})"
    r"|(?P<vendor>nvidia|amd|intel)|"
    rf"(?P<model>{_MODEL})s?|{_GPU_WORD})(?:\s+(?:{_GPU_WORD}|cards?))?(?:\s*[x\u00d7]|[ \t]*\*)\s*"
    rf"(?P<n>\d{{1,4}})(?![\w.])(?P<scope>{PER_NODE})?",
    FLAGS,
)
"""A multiplier after the unit: "nvidia x2", "H100 x 8", "nodes x4", "GPUs x4 each". Never
after "per node": "16 ranks per node x 8 threads" multiplies the ranks, it counts no nodes; nor
a star that opens the next line ("on that node\n* 4 TB of NVMe" is a bullet)."""
_MULTIPLIER_HINT_RE = re.compile(r"[,:(x\u00d7*]\s*\d")
"""Present in every text :data:`_GPU_THEN_COUNT_RE` or :data:`_TIMES_AFTER_RE` can match."""
_VENDOR_CHOICE_RE = re.compile(
    r"(?<!\w)(?:either\s+)?(?:nvidia|amd|intel)"
    r"(?:\s*(?:,\s*)?(?:or|/|and/or|,)\s*(?:nvidia|amd|intel))+(?!\w)",
    FLAGS,
)
"""Two vendors offered as alternatives ("NVIDIA or AMD GPUs"): no vendor is required."""
_ALLOWED = r"(?:fine|ok|okay|acceptable|alright|all\s+right|no\s+problem)(?!\w)"
_ALSO = r"\s+(?:too|as\s+well|either)(?!\w)"
_VENDOR_ALLOWED_RE = re.compile(
    r"(?<!\w)(?<!\bany\s)(?<!\bor\s)(?<!\band\s)(?<!/)(?<!/\s)(?:nvidia|amd|intel)"
    r"(?:\s+(?:gpus?|cards?|ones?|hardware|accelerators?))?\s*"
    r"(?:(?:is|are|would\s+be|will\s+be|should\s+be|'s)\s+"
    rf"(?:also\s+{_ALLOWED}(?:{_ALSO})?|{_ALLOWED}{_ALSO})"
    r"|\s(?:would\s+|will\s+|should\s+)?(?:also\s+)?works?\s+(?:too|as\s+well|equally)(?!\w))"
    r"|(?<!\w)(?:happy|fine|ok|okay)\s+with\s+(?:an?\s+)?(?:nvidia|amd|intel)"
    r"(?:\s+(?:gpus?|cards?|ones?))?\s+(?:too|as\s+well)(?!\w)",
    FLAGS,
)
"""A vendor allowed besides others, not asked for ("any vendor, AMD is fine too", "NVIDIA works
as well", "happy with an Intel one too"): the writer says what else they would accept, so no
vendor is required. Only the additive forms count ("also", "too", "as well", "either"): "any
NVIDIA card is fine" and "NVIDIA or AMD is fine" are read as before (a vendor, a choice)."""
_VENDOR_ALLOWED_HINTS = ("fine", "ok", "acceptable", "right", "problem", "work", "happy")
"""One of these, and one of :data:`_VENDOR_NAMES`, is in every match of
:data:`_VENDOR_ALLOWED_RE` (folded text)."""
_VENDOR_NAMES = ("nvidia", "amd", "intel")


def _shape(named: bool) -> str:
    """One allocation shape, "4 nodes x 4", "2 node with 4 GPU", "1x128" (groups if named)."""
    n, m, unit = ("?P<n>", "?P<m>", "?P<unit>") if named else ("?:", "?:", "?:")
    return (
        rf"({n}\d{{1,4}})\s*(?:nodes?\s*)?(?:x|\u00d7|\*|with|of)\s*({m}\d{{1,4}})(?!\d|[.,]\d)"
        rf"(?:\s*({unit}{_GPU_WORD}|{_MODEL}|cores?|cpus?)(?:\s+each)?)?(?!\w)"
    )


_SHAPE_RE = re.compile(_shape(named=True), FLAGS)
_SHAPE_CHOICE_RE = re.compile(
    rf"(?<![\w.,]){_shape(named=False)}(?:\s*,?\s*(?:or|/)\s*{_shape(named=False)})+", FLAGS
)
"""Allocation shapes offered as alternatives ("2 node with 4 GPU or 1 node with 8 GPU")."""
_MODEL_CHOICE_RE = re.compile(
    rf"(?<!\w)(?P<a>{_MODEL})[^.;\n]{{0,30}}?\s(?:or|/|and/or)\s[^.;\n]{{0,20}}?"
    rf"(?<!\w)(?P<b>{_MODEL})(?!\w)",
    FLAGS,
)
"""Two GPU models offered as alternatives ("8 GPU H100 or 8 GPU A100, both is OK")."""
_NEWER = r"(?:newer|later|better|faster|above|higher|up|more\s+recent)"
_GENERATION = r"(?:[\s-]+(?:generation|gen|class|series|family|era|level))?"
_MIN_MODEL_RE = re.compile(
    # every match starts with a model, a vendor or one of the words below: the look-ahead
    # rejects most positions before the alternatives are tried
    starts_with(
        [*_MODEL_SPELLINGS, *lexicon.GPU_VENDORS, "anything", "any", "something"]
        + ["newer", "better", "faster", "more", "from"]
    )
    + r"(?<!\w)(?:(?:(?:anything|any\s+gpu|any\s+card|something)\s+)?(?:newer|better|faster|"
    rf"more\s+recent)\s+than\s+(?:an?\s+|the\s+)?(?:{_VENDOR}\s+)?{_MODEL}s?(?!\w)"
    r"|(?:(?:anything|any\s+gpu|any\s+card)\s+)?from\s+(?:an?\s+|the\s+)?"
    rf"(?:{_VENDOR}\s+)?{_MODEL}{_GENERATION}\s+(?:on(?:wards?)?|up(?:wards?)?)(?!\w)"
    rf"|(?:{_VENDOR}\s+)?{_MODEL}s?{_GENERATION}\s*(?:,\s*)?"
    rf"(?:or\s+(?:anything\s+|something\s+)?{_NEWER}|and\s+(?:newer|later|up|above))(?!\w)"
    rf"|(?:{_VENDOR}\s+)?{_MODEL}{_GENERATION}\s+onwards?(?!\w))",
    FLAGS,
)
"""A lowest GPU model, not one model: "A100 or newer", "anything newer than a V100", "from
the V100 generation onwards". No field holds a minimum model, so the phrase is quoted as
unresolved and no model is required (a site with only H100s must not be turned away)."""
_MIN_MODEL_HINTS = ("newer", "better", "faster", "recent", "above", "higher", "onward")
_UP_FROM_RE = re.compile(r"(?<!\w)(?:up(?!\w)|from\s)", FLAGS)
"""With :data:`_MIN_MODEL_HINTS`, the words without which :data:`_MIN_MODEL_RE` is not tried
(see :func:`_may_name_min_model`)."""


def _may_name_min_model(folded: str, text: str) -> bool:
    """Whether ``text`` holds a hint word for :data:`_MIN_MODEL_RE`: plain substrings first; the
    short words "up" and "from" count only as whole words, so the pattern for them is run only
    on a text that holds the letters."""
    return _holds(folded, _MIN_MODEL_HINTS) or (
        ("up" in folded or "from" in folded) and _UP_FROM_RE.search(text) is not None
    )


_LICENCE_COUNT_RE = re.compile(
    r"(?<!\w)li(?:c|s|sc)en[cs](?:es?|ed)(?:\s+(?:tokens?|seats?|keys?|units?))?\s+(?:for|covering|covers|of|"
    r"limited\s+to)\s+"
    r"(?:up\s+to\s+|at\s+least\s+)?\d{1,6}\s*(?:cores?|cpus?|processes|procs|ranks|gpus?|nodes?|"
    r"threads|tasks|users?|seats?)(?!\w)"
    r"|(?<![\w.])\d{1,6}[\s-]*(?:cores?|cpus?|gpus?|nodes?|process|seats?|users?)[\s-]+"
    r"li(?:c|s|sc)en[cs]es?(?:\s+(?:tokens?|seats?))?(?!\w)",
    FLAGS,
)
"""A licence sized in cores ("a licence for 8 cores", "licence tokens for 64 cores", "a 16-core
licence"): what the licence covers, not the cores the job asks for. No field holds a licence,
so the phrase is quoted as unresolved and its count is read as nothing else. The word is often
misspelt ("lisence", "liscence"); those spellings are read the same way."""
_CPU_GENERATION_RE = re.compile(
    r"(?<!\w)(?:amd\s+)?(?:zen|graviton)[\s-]?\d{1,2}\+?(?![\w.])"
    r"(?=(?P<what>\s*(?:cpus?|processors?|chips?|cores?|architecture|generation|microarchitecture)"
    r"(?!\w))?)",
    FLAGS,
)
"""A CPU generation ("Zen 4 CPUs", "Graviton3", "AMD Zen-5"): a name, not a count of CPUs. No
field holds it, so the phrase is quoted as unresolved; its number is read as nothing else."""
_VENDOR_GPU_RE = re.compile(
    rf"(?<!\w)(?P<vendor>nvidia|amd|intel|radeon|instinct|geforce|tesla)\s+"
    rf"(?:(?:data\s*cent(?:er|re)|datacenter|discrete)\s+)?(?:{_GPU_WORD}|cards?|accelerators?|"
    r"hardware)(?!\w)",
    FLAGS,
)
_VENDORS: dict[str, GpuVendor] = {
    "nvidia": GpuVendor.NVIDIA,
    "tesla": GpuVendor.NVIDIA,
    "geforce": GpuVendor.NVIDIA,
    "amd": GpuVendor.AMD,
    "radeon": GpuVendor.AMD,
    "instinct": GpuVendor.AMD,
    "intel": GpuVendor.INTEL,
}
_VENDOR_WORD_RE = re.compile(
    r"(?<!\w)(nvidia|amd|intel|radeon|instinct|geforce|tesla)(?!\w)", FLAGS
)
_NODES_KEY_RE = re.compile(
    r"(?<![\w-])(?<!each\s)(?<!every\s)(?<!per\s)-{0,2}(?:number\s+of\s+nodes|node\s+count|nodes?)\s*(?:(?:[:=|]|of)\s*\**)?\s*"
    r"(?P<n>\d{1,7})(?![\w.])"
    r"(?!\s*(?:-\s*)?(?:cores?|cpus?|gpus?|threads|ranks|tasks|mpi|processes|gb|tb|gib|g|x)(?!\w))",
    FLAGS,
)
"""``nodes: 4``, ``node count 4``; never "each node 64 cores" (the size of a node)."""


def _counted(count: str) -> str:
    """``count`` (:data:`COUNT` or :data:`COUNT_NO_ARTICLE`) as group ``n``, after an optional
    total or per-node phrase ("a total of 64 cores", "each node with 4 GPUs").

    Counts are looked for in every request, so the pattern starts by consuming its first
    character, a digit or one of a few letters, and each branch names the letter it starts
    with in a one-character look-behind: the regex engine then jumps from one candidate
    character to the next instead of trying every position of the text (see
    :func:`letter_led`); every phrase goes on with one of a few letters or a space, which one
    look-ahead tests before the branches are tried. A bare count has consumed its first
    character before its group, so it is group ``bare`` without that character (see
    :func:`_count_text`).
    """
    first, rest = count.split("])", 1)
    digits_and_words = first.removeprefix("(?-i:[")
    firsts = digits_and_words + "".join(_cases(c) for c in "atiepo")
    a, t, i, e, p, o = (f"(?<=[{_cases(c)}])" for c in "atiepo")
    return (
        rf"(?-i:[{firsts}])"
        # a phrase before the count goes on with one of these; most candidates stop here
        r"(?:(?=[\sognave])"
        rf"(?:(?P<pre>{a}(?:\s+total\s+of\s+|ggregate\s+)|{t}otal\s+(?:of\s+)?|{i}n\s+total\s+)"
        rf"|(?P<prenode>(?:{e}(?:ach|very)|{p}er|{o}ne|(?<=1))\s+"
        r"(?:node|machine|host|server|computer)\s*,?\s*"
        r"(?:(?:with|has|have|having|needs?|gets?|should\s+have|must\s+have|:)\s+)?"
        r"(?:at\s+least\s+|minimum\s+)?))"
        rf"(?P<n>{count})|(?P<bare>{rest}))"
    )


def _count_text(m: re.Match[str]) -> str:
    """The count a :func:`_counted` pattern read, whether after a phrase or bare."""
    n = m.group("n")
    return n if n is not None else m.string[m.start() : m.end("bare")]


_COUNTER = r"(?:(?:pieces?|pcs\.?|nos?\.|units?|numbers?)\s+(?:of\s+)?)"
"""A counter word between a count and its unit: "8 piece of A100", "2 nos. of V100 cards"."""
_GPU_ADJECTIVE = (
    r"(?:(?:data[\s-]*cent(?:er|re)|datacenter|discrete|dedicated|modern|recent|fast|powerful|"
    r"server[\s-]grade|consumer|high[\s-]end|physical|whole)[\s-]+)"
)
"""Words between a GPU count and the GPU noun: "4 Intel data-centre GPUs", "2 discrete GPUs"."""
_GPU_NOUN = rf"(?:{_GPU_WORD}|(?:gpu\s+)?accelerators?|cards?|boards?)"
"""After a model, any of these names the GPU: "V100 cards", "MI250X accelerators"."""
_GPUS_RE = re.compile(
    rf"{_counted(COUNT)}\s*(?:-\s*)?(?:x\s*|\u00d7\s*)?{_COUNTER}?"
    rf"(?:{_MODEL_PHRASE}(?:\s*{_GPU_NOUN})?"
    rf"|(?:{_VENDOR}\s+)?{_GPU_ADJECTIVE}?(?:{_GPU_WORD}|(?:gpu\s+)?accelerators?)){_UNIT_END}"
    rf"{_SCOPE}",
    FLAGS,
)
_GPUS_KEY_RE = re.compile(
    rf"(?<!\w){_GPU_WORD}(?P<scope>\s+per\s+node)?\s*[:=|]\s*\**\s*(?P<n>\d{{1,7}})(?![\w.])"
    rf"(?:(?P<pre>{TOTAL})|(?P<after>{PER_NODE}))?",
    FLAGS,
)
_CORES_RE = re.compile(
    rf"{_counted(COUNT_NO_ARTICLE)}\s*(?:-\s*)?(?:x\s*)?"
    rf"(?:{alternation(lexicon.CORE_WORDS)}){_UNIT_END}"
    rf"{_SCOPE}",
    FLAGS,
)
_CORES_KEY_RE = re.compile(
    r"(?<!\w)(?:cores?|cpus?)(?P<scope>\s+per\s+node)?\s*[:=|]\s*\**\s*(?P<n>\d{1,7})(?![\w.])"
    rf"(?:(?P<pre>{TOTAL})|(?P<after>{PER_NODE}))?",
    FLAGS,
)
_WORD_THEN_COUNT_RE = re.compile(
    r"(?:^|(?<=[,;:]))[ \t]*(?P<word>cores?|cpus?|gpus?)[ \t]+(?P<n>\d{1,7})"
    r"(?=[ \t]*(?:[,;]|\.?$))",
    FLAGS | re.M,
)
"""A terse list item, word first: "Memory 64GB, cores 8, no GPU"."""
_RANKS_RE = re.compile(
    rf"{_counted(COUNT_NO_ARTICLE)}\s*(?:-\s*)?(?P<word>{alternation(lexicon.RANK_WORDS)}){_UNIT_END}{_SCOPE}",
    FLAGS,
)
_MODEL_RE = re.compile(rf"(?<!\w){_MODEL_PHRASE}(?:\s+{_GPU_WORD})?(?!\w)", FLAGS)
_GPU_MENTION_RE = re.compile(
    rf"{starts_with(lexicon.GPU_WORDS)}(?<!\w){_GPU_WORD}(?:[\s-]+(?:accelerated|enabled|capable|partition|queue|support))?"
    r"(?!\w)",
    FLAGS,
)
_TOTAL_RE = re.compile(TOTAL, FLAGS)
_ALL_OF_RE = re.compile(r"(?<!\w)all\s+(?:of\s+)?(?:the\s+|its\s+|their\s+)?$", FLAGS)
"""Before a core count, "all": the whole of a node ("all 96 cores", "all of the 128 cores").
Read as per node, which never asks for fewer cores than the text does, and only up to
:data:`_NODE_CORES` ("all 4,096 cores" is a share of a cluster)."""
_NODE_CORES = 512
"""The most cores one node is taken to have."""
_PER_CORE_RE = re.compile(PER_CORE, FLAGS)
_JOIN_RE = re.compile(r"\s*,?\s*(?P<conn>or|and|plus|with|&|\+)?\s*(?:either\s+)?", FLAGS)

_MEMORY = alternation(lexicon.MEMORY_WORDS)
_MEMORY_SCOPE = rf"(?P<scope>{PER_CORE}|{PER_NODE}|{TOTAL})?"
"""Per core first: "2 GB each core" is per core, "2 GB each" per node."""
_MEMORY_AFTER_RE = re.compile(
    rf"{SIZE}\s*(?:of\s+)?(?P<tot>(?:total|aggregate|combined|overall)\s+)?(?:{_MEMORY})(?!\w)"
    rf"{_MEMORY_SCOPE}",
    FLAGS,
)
_MEMORY_BEFORE_RE = re.compile(
    starts_with([*lexicon.MEMORY_WORDS, "total", "aggregate", "combined", "overall"])
    + rf"(?<!\w)(?P<tot>(?:total|aggregate|combined|overall)\s+)?{_MEMORY}"
    r"(?P<pre>\s+(?:per|of|on|for|in)\s+(?:the\s+|each\s+|a\s+|every\s+)?node)?"
    r"(?:-?wise)?(?:\s*\(|\s+-|\s*,)?"
    r"(?:\s+(?:should|must|needs?\s+to|has\s+to|will|would|shall)\s+be"
    r"|\s+(?:requirement|needed|usage|footprint|need)\s+(?:is|of)|\s+(?:is|of|around|about))?"
    r"\s*(?:[:=]|>=|\u2265)?\s*"
    r"(?:(?:at\s+least|about|around|approximately|roughly|~|up\s+to|over|min(?:imum)?|"
    rf"no\s+less\s+than|not\s+less\s+than)\s*)?{SIZE}{_MEMORY_SCOPE}",
    FLAGS,
)
_GPU_MEM_WORD = r"(?:gpu|device|graphics\s+card|card|accelerator)s?"
_GPU_MEMORY_RE = re.compile(
    rf"{SIZE}\s*(?:of\s+)?(?:(?:{_GPU_MEM_WORD}|vram|hbm\d?e?)(?:\s*(?:{_MEMORY}))?"
    rf"|(?:{_MEMORY})\s+(?:of|on|per|for|in)\s+(?:the\s+|each\s+|a\s+|every\s+)?{_GPU_MEM_WORD})"
    rf"(?!\w)",
    FLAGS,
)
_GPU_MEMORY_FIRST_RE = re.compile(
    rf"(?<!\w)(?:{_GPU_MEM_WORD}\s+(?:{_MEMORY})|vram|hbm\d?e?)\s*(?:of|:|>=|is|at\s+least|"
    r"minimum|min)?\s*(?:at\s+least\s+|minimum\s+)?"
    rf"{SIZE}",
    FLAGS,
)
_GPU_MEMORY_PER_GPU_RE = re.compile(
    rf"{SIZE}\s*(?:(?:of\s+)?(?:{_MEMORY}|vram)\s+)?(?:per|/|for\s+each|on\s+each|each|a|every)"
    rf"\s*-?\s*{_GPU_MEM_WORD}(?!\w)",
    FLAGS,
)
"""A size counted per GPU ("48 GB per GPU", "80GB/gpu"): the GPU's memory, not the node's."""
_GPU_MEMORY_HAS_RE = re.compile(
    rf"(?<!\w)(?:(?:{_MODEL_PHRASE})\s*)?{_GPU_MEM_WORD}(?:\s+{_VENDOR})?\s*(?:each\s+)?"
    r"(?:(?:that|which)\s+(?=(?:must|should|will|would|needs?|has|have|having|requires?)\s))?"
    r"(?:\(\s*|with\s+|of\s+|(?:must|should|will|would)\s+(?:have|need)\s+|needs?\s+|has\s+"
    r"|have\s+|having\s+|requires?\s+)"
    r"(?:(?:at\s+least|min(?:imum)?|no\s+less\s+than|>=|\u2265|~|about|around)\s*)?"
    rf"{SIZE}(?:\s*(?:each|apiece|per\s+gpu|a\s+piece))?"
    rf"(?:\s*(?:of\s+)?(?:on[\s-]?board\s+|onboard\s+|device\s+)?(?:{_MEMORY}|vram|hbm\d?e?))?"
    r"(?:\s*(?:each|apiece))?(?:\s*\))?",
    FLAGS,
)
"""GPUs described by their memory: "GPUs with 80 GB", "each GPU needs 24 GB", "A100 GPUs (80
GB each)", "4 GPUs of 40 GB memory", "4 GPU NVIDIA of 24 GB" (the vendor after the noun). A
size that describes a GPU is never the node's memory."""
_PER_OTHER_UNIT_RE = re.compile(
    r"\s*(?:per|for\s+each|for\s+every|for\s+one|each|every|a)\s+(?:[a-z-]+\s+)?"
    r"(?!(?:node|host|machine|server|instance|vm|box|computer|worker\s+node|job|allocation|"
    r"request|gpu|device|card|socket|numa|thread|vcpu|hyperthread|minute|hour|day|week|month|"
    r"second|year|user|person|head|plus|more|lot|bit|few|total|maximum|minimum|max|min|peak|"
    r"most|least|piece|time|while|of|them|those|these|one|it|us)s?(?!\w))"
    r"(?P<unit>[a-z][a-z-]{2,24})(?!\w)(?!\s*(?:node|host|machine|server)s?(?!\w))",
    FLAGS,
)
"""After an unscoped memory size, another unit of work it sizes ("6 GB per realisation", "2 GB
for each sample"): the size of one piece of the job, not of a node. It is quoted as unresolved
rather than read as node memory."""


def _clause_before(text: str, start: int) -> str:
    """The clause before ``start``: "one node with 64 cores and 512 GB per chunk" sizes the
    node it describes, whatever the size is then said of."""
    window = text[max(0, start - 80) : start]
    return re.split(r"[.;!?\n]", window)[-1]


_MEMORY_SCOPED_RE = re.compile(rf"{SIZE}(?P<scope>{PER_NODE}|{PER_CORE})", FLAGS)
_STORAGE_WORD_BEFORE_RE = re.compile(
    r"(?<!\w)(?:scratch|disk|disks|storage|ssd|ssds|nvme|lustre|gpfs|beegfs|nfs|tmp)"
    r"\s*[:=]?\s*$",
    FLAGS,
)
"""A storage word right before a per-node size: the size is that storage's, not memory."""
_BARE_SIZE_RE = re.compile(
    rf"{SIZE}(?!\s*of\s+(?!(?:{_MEMORY})(?!\w)))(?!\s*(?:of\s+)?(?:[\w-]+\s+)?(?:scratch|disk|storage|space|ssd|nvme|lustre|gpfs|"
    r"beegfs|nfs|local|free|available|file|files|data|dataset|output|input|vram|gpu|hbm|"
    r"quota|archive|s3|bucket|infiniband|ib|ethernet|gbe|roce|slingshot|omni-?path|opa|link|"
    r"links|network|interconnect|nic|fabric)(?!\w))",
    FLAGS,
)
_MEMORY_WORD_RE = re.compile(r"(?-i:[MmRr])(?<!\w.)(?:(?<=[Mm])emory|(?<=[Rr])am)(?!\w)", FLAGS)
r"""The word "memory" or "ram". It starts with the first letter and looks behind it only then
(``(?<!\w.)`` after it is ``(?<!\w)`` before it): the regex engine skips to the next such letter
instead of trying the pattern at every position (see :data:`_TERSE_SHAPE_RE`)."""
_NOT_MEMORY_CONTEXT_RE = re.compile(
    r"(?<!\w)(?:gpus?|vram|cards?|devices?|accelerators?|scratch|disk|disks|storage|space|ssd|"
    r"nvme|quota|file|files|data|dataset|datasets|input|output|outputs|archive|database|"
    r"lustre|gpfs|beegfs|nfs|s3|bucket|download|upload|transfer|network|bandwidth)(?!\w)",
    FLAGS,
)
"""Words that make a size in the sentence something other than the node's memory."""
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s|$)|\n\s*\n|\n\s*[-*#]")
_COMPUTE_WORD_RE = re.compile(
    r"(?<![a-z])(?:cores?|cpus?|nodes?|gpus?|threads|ranks|vcpus?|process(?:es|ors)|procs|tasks)(?![a-z])",
    FLAGS,
)
_MEMORY_NAMES = ("memory",)
_MEMORY_TYPO_RE = re.compile(
    rf"(?P<word>(?-i:[Mm])(?<!\w.)[a-z]{{4,6}})\s*[:=]?\s*(?:of\s+)?"
    r"(?:(?:at\s+least|about|around|approximately|roughly|~|min(?:imum)?|maybe|perhaps|"
    r"probably|like)\s*)?"
    rf"{SIZE}{_MEMORY_SCOPE}",
    FLAGS,
)
"""A misspelt memory word, then a size and its scope, as for the word spelt right: "memmory at
least 512 GB", "Memery: 2 TB over the hole job" (the whole job's), "memroy 4 GB per core"."""
_MEMORY_TYPO_AFTER_RE = re.compile(
    rf"{SIZE}\s*(?:of\s+)?(?P<word>m[a-z]{{4,6}})(?!\w){_MEMORY_SCOPE}", FLAGS
)
"""The size first, then the misspelt word: "256 GB memroy each"."""
_SIZE_FIRST = r"(?-i:[\dAaOoHhQq])"
_SIZE_AT_WORD_START = SIZE.replace(_SIZE_FIRST, _SIZE_FIRST + r"(?<![\w.].)", 1)
"""A :data:`SIZE` not inside a word or a number: the check on what stood before it comes after
its first character, which the pattern consumes first (see :func:`_counted`)."""
if _SIZE_AT_WORD_START == SIZE:
    raise ValueError("SIZE no longer starts with its first character")
_SIZE_BEFORE_COMPUTE_RE = re.compile(
    rf"{_SIZE_AT_WORD_START}(?=\s*(?:,|and|&|\+|plus)\s*(?P<next>\x00+)(?:\s|$|[,.;?!]))", FLAGS
)
"""A bare size listed just before a compute amount already read ("16GB and 1 core"): memory
per node, as it is when listed after one ("1 core, 16GB")."""
_EACH_NODE_WITH_RE = re.compile(
    r"^\s*,?\s*(?:and\s+)?(?:each|every\s+one|each\s+one)\s*,?\s*(?:with|having|has|have|needs?|"
    r"gets?|of)\s+(?:at\s+least|about|around|approximately|roughly|min(?:imum)?|~)?\s*$",
    FLAGS,
)
"""After a node count, the size of each node: "32 nodes, each with at least 256 GB"."""
_NODE_WORD_RE = re.compile(r"(?<![a-z])(?:nodes?|machines?|servers?|hosts?)(?![a-z])", FLAGS)
_ONE_NODE_WORDS_RE = re.compile(
    r"\s*(?:one|1|a\s+single|single|a|an)\s+(?:[a-z-]+\s+)?(?:machine|server|host|box|node|"
    r"workstation|computer)\s*",
    FLAGS,
)
"""The one node just read ("64 cores on one machine and 256 GB"): a size listed after it is the
node's memory, as after "1 node, 256 GB"."""
_NEXT_TO_COMPUTE_RE = re.compile(
    r"^\s*(?:(?:is|are|should\s+be|would\s+be|will\s+be|seems?)\s+(?:enough|plenty|fine|"
    r"sufficient|ok|okay)\s*)?(?:,|;|and|with|w/|\+|/|&|plus|\x00)*\s*"
    r"(?:(?:like|maybe|perhaps)\s+)?$",
    FLAGS,
)
"""Between a compute amount and a bare size in the same list: "16 cores, 64 GB"; the amount
may carry a verdict ("4 cores is enough, 32 GB"), which leaves the list as it was, and the size
a casual hedge ("32 cores and like 128 GB", "16 cores, maybe 64 GB"). Not "roughly": "each
model uses 4 cores and roughly 3 GB" sizes a task, not the node."""


@dataclass(frozen=True)
class _Found:
    """A core or GPU count and where it sits in the text, for pairing."""

    kind: str
    start: int
    end: int
    count: Count
    scoped: bool


def extract_compute(scanner: Scanner, draft: Draft) -> None:
    """Every compute mention, most specific pattern first."""
    c = draft.compute

    node_spans: list[tuple[int, int]] = []
    such_at = (
        [m.start() for m in _NODES_RE.finditer(scanner.text) if m.group("such")]
        if _holds(scanner.folded, _SUCH_WORDS) and _SUCH_HINT_RE.search(scanner.text)
        else []
    )
    """Where a count of nodes described before starts ("6 such nodes", "4 of these nodes")."""

    def described(m: re.Match[str], n: int) -> bool:
        """ "a node with 32 cores ... 6 such nodes": the one node is the shape of each, so
        what it has is per node, but it is no count of nodes."""
        if n != 1 or not any(at > m.end() for at in such_at):
            return False
        node_spans.append(m.span())
        return True

    def cpu_only(m: re.Match[str]) -> bool:
        if m.group(0)[:1] in "cC" and _CPU_KIND_BEFORE_RE.search(
            scanner.original, max(0, m.start() - 30), m.start()
        ):
            return False  # "Xeon CPUs only": a processor kind, left unresolved
        if _PART_IS_RE.search(scanner.original, max(0, m.start() - 60), m.start()):
            return False  # "the MSA stage is CPU-only anyway": one step, not the whole job
        if needed_without(scanner.text, m) or in_condition(scanner.original, m.start()):
            return False  # "it can't run without a GPU", "if there are no GPUs, decline"
        if m.group(0)[:1] in "cC" and _GPU_THEN_OR_RE.search(
            scanner.original, max(0, m.start() - 80), m.start()
        ):
            return _cpu_fallback(draft)  # "on 2 T4s, or CPU only if that's all you have"
        c.cpu_only = c.cpu_only or Mention(True, m.group(0))
        draft.exclude(Feature.GPU)
        return True

    def cpu_or_gpu(m: re.Match[str]) -> bool:
        c.gpu_or = True
        c.gpu_mentioned = True
        n = to_count(m.groupdict().get("n") or "")
        if n is not None and in_range(n, 1, MAX_GPUS) and m.group("n").lower() not in ("a", "an"):
            c.gpus.append(Count(n, m.group(0), per_node=False))
        return True

    def nodes(m: re.Match[str]) -> bool:
        n = to_count(m.group("n"))
        if n is None or not in_range(n, 1, MAX_NODES):
            return False
        text = m.group(0)
        if described(m, n):
            return True
        if (
            n == 1
            and node_spans
            and _EACH_NODE_HAS_RE.match(m.string, m.start())
            and not _CLAUSE_BREAK_RE.search(m.string, node_spans[-1][1], m.start())
        ):
            return False  # "2 nodes, 1 node have 64 cores": the size of each node, read below
        if m.group("n").lower() in ("a", "an") and _HARDWARE_OF_A_NODE_RE.search(
            m.string, max(0, m.start() - 60), m.start()
        ):
            return False  # "the GPUs in a node must have NVLink": what a node is like, no count
        groups = m.groupdict()
        if (
            groups.get("gpu")
            and m.group("n").lower() in ("a", "an")
            and not re.search(r"accelerated|enabled|capable", text, FLAGS)
            and not _WITH_AMOUNT_RE.match(m.string, m.end())
        ):  # the README's "on a GPU node"; "a GPU-accelerated node" still names the node
            _record_model(draft, groups["gpu"], text)  # "on a GPU node": a GPU, not a count
            _record_vendor(draft, text)
            c.gpu_mentioned = True
            return True
        c.nodes.append(Mention(n, text))
        node_spans.append(m.span())
        if groups.get("cpn"):
            c.cores.append(Count(int(groups["cpn"]), text, per_node=True))
        if groups.get("gpn"):
            c.gpus.append(Count(int(groups["gpn"]), text, per_node=True))
            if groups.get("gpnmodel"):
                _record_model(draft, groups["gpnmodel"], text)
        if groups.get("mem"):
            unit = text.lower()
            factor = 1000.0 if re.search(r"\dtb|\d\s*tb", unit) else 1.0
            c.memory_per_node.append(Mention(float(groups["mem"]) * factor, text))
        if groups.get("arch"):
            draft.unresolved.append(groups["arch"])  # "2 ARM nodes": 2 nodes, and an ISA
        gpu = groups.get("gpu")
        if gpu:
            _record_model(draft, gpu, text)
            _record_vendor(draft, text)
            c.gpu_mentioned = True
        return True

    def multi_gpu(m: re.Match[str]) -> bool:
        """ "dual A100" (2 GPUs), "2 quad-GPU nodes" (2 nodes of 4 GPUs)."""
        n = to_count(m.group("n")) if m.group("n") else None
        if m.group("node"):
            c.nodes.append(Mention(n or 1, m.group(0)))
            node_spans.append(m.span())
        elif n is not None:
            return False  # "2 dual A100": unclear, left unread
        c.gpus.append(Count(_MULTI_GPU[m.group("w").lower()], m.group(0), per_node=True))
        if m.group("model"):
            _record_model(draft, m.group("model"), m.group(0))
        _record_vendor(draft, m.group(0))
        c.gpu_mentioned = True
        return True

    def one_node(m: re.Match[str]) -> bool:
        if described(m, 1):
            return True
        if node_spans and _CLAUSE_BREAK_RE.search(m.string, node_spans[-1][1], m.start()) is None:
            return False  # "2 nodes, one machine with 64 cores": the size of each node
        c.nodes.append(Mention(1, m.group(0)))
        node_spans.append(m.span())
        return True

    def gpu_memory(m: re.Match[str]) -> bool:
        """GPU memory ("80 GB of GPU memory", "24 GB memory of GPU") is no field of ours: it
        must never pass for node memory, so it is kept unresolved (and still means a GPU)."""
        draft.unresolved.append(" ".join(m.group(0).split())[:80])
        c.gpu_mentioned = True
        return True

    def gpu_memory_of(m: re.Match[str]) -> bool:
        """The GPU words before the size stay for the counts ("2 GPUs with 80 GB"): only the
        size and what follows it are quoted and blanked."""
        start = m.start("num")
        draft.unresolved.append(" ".join(m.group(0).split())[:80])
        c.gpu_mentioned = True
        scanner.blank(start, m.end())
        return False

    low = scanner.text.lower()  # cheap guards: most requests need none of the rarer forms
    if "zen" in low or "graviton" in low:
        scanner.take(_CPU_GENERATION_RE, lambda m: _cpu_generation(draft, m))
    if any(map(low.__contains__, ("licen", "lisen", "liscen"))):
        scanner.take(_LICENCE_COUNT_RE, lambda m: _quote(draft, m))
    if _may_name_min_model(scanner.folded, scanner.text):
        scanner.take(_MIN_MODEL_RE, lambda m: _min_model(scanner, draft, m))
    scanner.take(_GPU_MEMORY_RE, gpu_memory)
    scanner.take(_GPU_MEMORY_FIRST_RE, gpu_memory)
    scanner.take(_GPU_MEMORY_PER_GPU_RE, gpu_memory)
    scanner.take(_GPU_MEMORY_HAS_RE, gpu_memory_of)
    low = scanner.text.lower()  # again: what was read above is blanked now
    if "cpu" in low:  # first, so "works CPU-only too" is a fallback, not "CPU only"
        scanner.take(_CPU_TOO_RE, lambda m: _cpu_fallback(draft))
    scanner.take(_CPU_OR_GPU_RE, cpu_or_gpu)
    scanner.take(_CPU_ONLY_RE, cpu_only)
    scanner.take(_GPU_OPTIONAL_RE, cpu_or_gpu)
    folded = scanner.folded  # as the scanner's triggers see it, for the gates below
    if _holds(folded, _GPU_WORD_STEMS) and _holds(folded, _CPU_WORD_STEMS):
        scanner.take(_GPU_OR_CPU_RE, cpu_or_gpu)
    if _holds(folded, _VENDOR_NAMES) and _holds(folded, _VENDOR_ALLOWED_HINTS):
        scanner.take(_VENDOR_ALLOWED_RE, lambda m: _vendor_allowed(draft, m))
    if " or " in low or "/" in low:
        scanner.take(_VENDOR_CHOICE_RE, lambda m: _vendor_choice(draft, m))
        scanner.take(_MODEL_CHOICE_RE, lambda m: _model_choice(draft, m))
    if " or " in low or "/" in low:
        scanner.take(_SHAPE_CHOICE_RE, lambda m: _shape_choice(scanner, draft, m))
    if "dual" in low or "twin" in low or "quad" in low or "octo" in low:
        scanner.take(_MULTI_GPU_RE, multi_gpu)
    scanner.take(_NODES_RE, nodes)
    scanner.take(_NODES_KEY_RE, nodes)
    scanner.take(_TERSE_SHAPE_RE, nodes)
    scanner.take(_SIZED_NODE_TYPO_RE, lambda m: _node_typo(m.group("w")) and nodes(m))
    scanner.take(_ONE_UNIT_RE, lambda m: _one_unit(m) and one_node(m))
    if "same" in low:
        scanner.take(_SAME_NODE_RE, lambda m: _amounts_before(m) and one_node(m))
    if "box" in low:
        scanner.take(_BOXES_RE, nodes)
    if _MULTIPLIER_HINT_RE.search(low):
        scanner.take(_GPU_THEN_COUNT_RE, lambda m: _gpu_then_count(draft, m))
        scanner.take(_TIMES_AFTER_RE, lambda m: _times_after(draft, m, node_spans))
    scanner.take(_UNCOUNTED_NODES_RE, lambda m: _uncounted_nodes(scanner, draft, m))
    typos: dict[str, str | None] = {}

    def unit_typo(word: str) -> str | None:
        """:func:`_unit_typo`, worked out once per word: both passes of :data:`_FUZZY_UNIT_RE`
        below ask it of the same words."""
        if word not in typos:
            typos[word] = _unit_typo(word)
        return typos[word]

    scanner.take(
        _FUZZY_UNIT_RE,
        lambda m: (
            (unit_typo(m.group("w").lower()) or "").startswith("node")
            and _fuzzy_unit(draft, m, node_spans, scanner.original, unit_typo)
        ),
    )  # misspelt node counts first: "4 nodse with 32 cores" sizes each node
    _extract_counts(scanner, draft, node_spans)
    scanner.take(_SHORT_CORES_RE, lambda m: _short_cores(scanner, draft, m, node_spans))
    if "of" in low:
        scanner.take(_OF_THE_GPUS_RE, lambda m: _gpus_of_the(draft, m))
    if " of th" in low or _WANT_HINT_RE.search(low):
        scanner.take(_OF_THEM_RE, lambda m: _gpus_of_them(scanner, draft, m))
    scanner.take(
        _FUZZY_UNIT_RE, lambda m: _fuzzy_unit(draft, m, node_spans, scanner.original, unit_typo)
    )
    scanner.take(_MODEL_RE, lambda m: _record_model(draft, m.group("model"), m.group(0), True))
    scanner.take(_VENDOR_GPU_RE, lambda m: _vendor_mention(draft, m))
    scanner.take(_GPU_MENTION_RE, lambda m: _mention_gpu(draft))
    _extract_memory(scanner, draft)
    demote_history(scanner.original, draft)


def _extract_counts(scanner: Scanner, draft: Draft, node_spans: list[tuple[int, int]]) -> None:
    """Cores and GPUs, then the AND/OR pairing of neighbours."""
    found: list[_Found] = []
    per_rank: list[tuple[int, int, str]] = []

    def record(kind: str, limit: int) -> Callable[[re.Match[str]], bool]:
        def handle(m: re.Match[str]) -> bool:
            n = to_count(_count_text(m))
            if n is None or not in_range(n, 0 if kind == "gpu" else 1, limit):
                return False
            groups = m.groupdict()
            scope = (groups.get("scope") or groups.get("after") or "").strip().lower()
            if kind == "rank" and _PER_DEVICE_RE.match(scanner.original, m.end()):
                return False  # "one MPI rank per GPU": a layout, not a count
            if kind == "core" and _PER_RANK_RE.match(scanner.original, m.end()):
                per_rank.append((m.start(), n, m.group(0)))  # "2 threads per rank"
                return True
            bare_each = scope.split()[-1:] in (["each"], ["apiece"], ["one"])
            if bare_each and "node" not in scope and kind != "gpu" and not draft.compute.nodes:
                scope = ""  # "they are serial: 1 core each": each run, not each node
            total = bool(m.groupdict().get("pre")) or bool(scope and _TOTAL_RE.fullmatch(scope))
            per_node = (bool(scope) and not total) or bool(m.groupdict().get("prenode"))
            threads = m.group(0).lower().rstrip().endswith("threads")
            if (
                not scope
                and not total
                and _attached(scanner.text, node_spans, m.start(), threads)
                and not (kind == "rank" and _comma_only(scanner.text, node_spans, m.start()))
            ):
                per_node = True
            elif not scope and not total and _SHARED_SCOPE_RE.match(scanner.text, m.end()):
                per_node = True
            elif (
                kind == "core"
                and not scope
                and not total
                and n <= _NODE_CORES
                and _ALL_OF_RE.search(scanner.original, max(0, m.start() - 20), m.start())
            ):
                per_node = True  # "all 96 cores": every core of the node, so the node's count
            elif kind == "core" and not scope and not total and not per_node:
                if per_task(scanner.original, m.start(), m.end()):
                    draft.unresolved.append(_per_task_phrase(scanner.original, m))
                    return True
                per_node = bool(
                    _ONE_NODE_AFTER_RE.match(scanner.original, m.end())
                    or _ONE_NODE_LATER_RE.match(scanner.original, m.end())
                    or _on_a_node_after(scanner.original, m.end())
                )
            count = Count(n, m.group(0), per_node, total=total)
            found.append(_Found(kind, m.start(), m.end(), count, per_node or total))
            if kind == "gpu":
                _record_vendor(draft, m.group(0))
                model = m.groupdict().get("model")
                if model:
                    _record_model(draft, model, m.group(0))
            if kind == "rank" and _says_mpi(m.group("word")):
                draft.mpi_implied = True
            return True

        return handle

    scanner.take(_GPUS_RE, record("gpu", MAX_GPUS))
    scanner.take(_GPUS_KEY_RE, record("gpu", MAX_GPUS))

    def rank_threads(m: re.Match[str]) -> bool:
        n = to_count(m.group("n"))
        if n is None or not in_range(n, 1, MAX_CORES) or not _rank_threads(scanner.original, m):
            return False
        per_rank.append((m.start(), n, m.group(0)))
        return True

    scanner.take(_RANK_THREADS_RE, rank_threads)
    scanner.take(_CORES_RE, record("core", MAX_CORES))
    scanner.take(_CORES_KEY_RE, record("core", MAX_CORES))
    scanner.take(
        _WORD_THEN_COUNT_RE,
        lambda m: record("gpu" if m.group("word").lower().startswith("g") else "core", MAX_CORES)(
            m
        ),
    )
    if _holds(scanner.folded, _RANK_WORD_STEMS):
        scanner.take(_RANKS_RE, record("rank", MAX_CORES))
    if "per" in scanner.text or "each" in scanner.text:
        _split_per_node(scanner, found)
    if "(" in scanner.text:
        _total_aside(scanner, found)
    found.sort(key=lambda f: f.start)
    counts = _pair(scanner, draft, found)
    _threads_per_rank(draft, found, counts, per_rank)
    for f, count in zip(found, counts, strict=True):
        (draft.compute.gpus if f.kind == "gpu" else draft.compute.cores).append(count)


_SPLIT_PER_NODE_RE = re.compile(
    r"[ \t]*(?:,|;|with|and|i\.e\.|so|\(|:)?[ \t]*(?:with[ \t]+|that\s+is[ \t]+)?"
    r"(?:(?:as|at|(?:split|spread|laid\s+out|arranged|distributed|packed)(?:\s+(?:as|at|with))?)"
    r"[ \t]+)?"
    r"(?P<n>\d{1,4})[ \t]*(?:per|on\s+each|in\s+each|each|a|/)[ \t]*"
    r"(?:node|machine|server|host)(?!\w)",
    FLAGS,
)
"""After a total count, how it splits over the nodes, with no unit of its own: "32 A100 GPUs
in total with 4 per node", "256 cores, 64 per node", "1,024 cores in total, as 128 per node",
"48 GPUs, spread as 8 per node"."""


def _split_per_node(scanner: Scanner, found: list[_Found]) -> None:
    """Read :data:`_SPLIT_PER_NODE_RE` after each total count as that unit per node."""
    for f in list(found):
        if not f.count.total or f.kind == "rank":
            continue
        m = _SPLIT_PER_NODE_RE.match(scanner.text, f.end)
        if m is None or not in_range(n := int(m.group("n")), 1, f.count.value):
            continue
        count = Count(n, m.group(0).strip(), per_node=True)
        found.append(_Found(f.kind, m.start("n"), m.end(), count, True))
        scanner.blank(m.start("n"), m.end())


def _total_aside(scanner: Scanner, found: list[_Found]) -> None:
    """Read "(16 total)" right after a per-node count as that unit over the whole job."""
    for f in list(found):
        if not f.count.per_node:
            continue
        m = _TOTAL_ASIDE_RE.match(scanner.text, f.end)
        if m is None:
            later = _NODES_ASIDE_RE.match(scanner.text, f.end)
            m = later and _TOTAL_ASIDE_RE.match(scanner.text, later.end())
        if m is None or not in_range(n := int(m.group("n")), f.count.value, MAX_CORES):
            continue
        count = Count(n, m.group(0).strip(), per_node=False, total=True)
        found.append(_Found(f.kind, m.start("n"), m.end(), count, True))
        scanner.blank(m.start(), m.end())


_NODES_ASIDE_RE = re.compile(r"\s*(?:on|across|over|x)\s+\x00+", FLAGS)
"""Between a per-node count and "(16 total)": the node count, already read and blanked."""


def _comma_only(text: str, node_spans: list[tuple[int, int]], start: int) -> bool:
    """Whether only a comma joins the count to the last node count before it."""
    ends = [end for _, end in node_spans if end <= start]
    return bool(ends) and _COMMA_ONLY_RE.fullmatch(text[max(ends) : start]) is not None


def _threads_per_rank(
    draft: Draft, found: list[_Found], counts: list[Count], per_rank: list[tuple[int, int, str]]
) -> None:
    """ "32 MPI ranks per node, 2 threads per rank": each node runs 64 cores, as Slurm's
    ``--ntasks-per-node`` times ``--cpus-per-task``. Without a per-node rank count a per-rank
    count sizes one rank only: kept unresolved, never read as the job's cores."""
    for _, n, text in per_rank:
        ranks = [i for i, f in enumerate(found) if f.kind == "rank" and counts[i].per_node]
        if len(ranks) == 1 and in_range(counts[ranks[0]].value * n, 1, MAX_CORES):
            i = ranks[0]
            counts[i] = Count(counts[i].value * n, f"{counts[i].text} {text}", per_node=True)
        else:
            draft.unresolved.append(" ".join(text.split()))


def _pair(scanner: Scanner, draft: Draft, found: list[_Found]) -> list[Count]:
    """Join a core count and a GPU count that sit next to each other.

    "or" between them makes the GPU logic OR; a per-node scope on one of the pair, with none
    on the other, applies to both ("32 cores or 2 GPUs per node").

    Returns:
        The counts of ``found``, in order, with per-node scopes shared across each pair.
    """
    counts = [f.count for f in found]
    for i in range(len(found) - 1):
        a, b = found[i], found[i + 1]
        if "gpu" not in (a.kind, b.kind) or a.kind == b.kind:
            continue
        join = _JOIN_RE.fullmatch(scanner.text[a.end : b.start])
        if join is None:
            continue
        if (join.group("conn") or "").lower() == "or":
            draft.compute.gpu_or = True
        if a.scoped != b.scoped:
            scoped, other = (i, i + 1) if a.scoped else (i + 1, i)
            if counts[scoped].per_node:
                counts[other] = Count(counts[other].value, counts[other].text, per_node=True)
    return counts


_NOT_THE_JOB = r"(?!(?:of\s+(?:the\s+|these\s+|those\s+|our\s+)?(?:[\d,]+\s+)?)?jobs?(?!\w))"
"""After "each": the request's own jobs are the job, not a unit inside it."""
_UNIT_OF_WORK = (
    r"(?:chain|worker|trajectory|replica(?![\s-]+exchange)|walker|sample|pre-?processing|"
    r"post-?processing)"
)
"""Singular on purpose: "a chain runs on 8 cores" sizes one; "4 chains so 4 cores" counts all.
An ensemble member is left out: a member is a whole run ("each member uses 8 nodes").
"Replica exchange" is a method (REMD) the whole job runs, not one replica."""
_NOT_A_NODE = (
    r"(?!(?:with|having|has|in|on|and|or|plus|but|then)(?!\w))"
    r"(?![^.;!?,:\n\x00]*(?<!\w)(?:node|machine|host|server|box)s?(?!\w))"
)
"""After "each": not "each with ..." and no node word in the clause ("each run is one node
with 24 cores" sizes a node, not a task). Nor a conjunction: in "4 GPUs with 80 GB each and
64 cores" the "each" closes the amount before it and names no unit of work."""
_PER_TASK_BEFORE_RE = re.compile(
    rf"(?<!\w)(?:each|every)\s+{_NOT_A_NODE}{_NOT_THE_JOB}[a-z][\w-]*[^.;!?,:\n\x00]{{0,32}}$",
    FLAGS,
)
_TASK_SUBJECT_RE = re.compile(
    rf"(?<![\w-]){_UNIT_OF_WORK}(?![\w-])(?!\s*,)[^.;!?:\n\x00]{{0,60}}$"
    r"|(?<!\w)single[\s-]threaded[^.;!?:\n\x00]{0,40}$"
    r"|(?<![\w-])(?:a\s+single|one\s+single|a\s+lone|one|each\s+single)\s+"
    r"(?:subject|participant|patient|sample|specimen|case|scan|image|genome|structure|molecule"
    r"|ligand|frame|chunk|tile|scenario|realisation|realization|event|volume|file|task|item"
    r"|configuration|snapshot)\s+(?:takes|needs|uses|requires|is|runs|fits)(?!\w)"
    r"[^.;!?:\n\x00]{0,40}$",
    FLAGS,
)
"""A clause whose subject is one unit of work inside the job: "a chain runs on 8 cores", "the
pre-processing script runs on 1 core", "each member runs a post-processing step on a single
core", "a single subject takes 8 cores", "one image needs 2 cores". Such a count sizes the
unit, not the job."""
"""A clause about one unit of work: "each case is 1 core", "every subject uses 4 cores"; not
"each of the 1000 jobs is a single core", which sizes the job the request is about."""
_TASK_NOUNS = (
    r"(?:tasks?|samples?|cases?|subjects?|members?|replicas?|molecules?|workers?|scenarios?|"
    r"chains?|walkers?|trajector(?:y|ies)|"
    r"files?|chunks?|array\s+(?:tasks?|elements?|jobs?)|instances?\s+of\s+the\s+code)"
)
_PER_TASK_AFTER_RE = re.compile(
    rf"\s*(?:(?:per|each|for\s+each|for\s+every|a)\s+{_TASK_NOUNS}(?!\w)"
    r"|(?:\s+|-)?(?:independent\s+|serial\s+|separate\s+|small\s+)?"
    r"(?:tasks|jobs|runs|processes|simulations|samples|cases|workers)(?!\w))",
    FLAGS,
)
"""After a core count: "4 cores per sample", "single-core tasks", "8-core jobs" (plural)."""
_SHARED_SCOPE_RE = re.compile(
    r"\s*(?:,|and|&|\+|plus)\s*\d{1,5}(?:\.\d{1,3})?\s*(?:tb|gb|tib|gib|g)\s*(?:of\s+)?"
    r"(?:ram|memory|mem)?\s*(?:(?:per|/|each|every|on\s+each|on\s+every|in\s+each|for\s+each|a)"
    r"\s*-?\s*(?:node|host|machine|server)|per[\s-]node)(?!\w)",
    FLAGS,
)
"""After a core or GPU count, a memory size that carries a node scope for both: "32 cores and
384 GB per node" is 32 cores on each node ("32 cores and 128 GB each" names no node)."""
_PER_DEVICE_RE = re.compile(
    r"\s*(?:per|/|for\s+each|on\s+each|each)\s*(?:gpus?|gcds?|cores?|sockets?|numa|devices?|"
    r"cards?|tiles?)(?!\w)",
    FLAGS,
)
"""After a rank count: the ranks are laid out per device ("one MPI rank per GPU")."""
_PER_RANK_RE = re.compile(
    r"\s*(?:per|each|/|for\s+each|a)\s*(?:mpi\s+)?(?:rank|task|process)(?!\w)", FLAGS
)
"""After a core or thread count: it sizes one rank ("2 threads per rank", "4 cores/task")."""
_RANK_THREADS_RE = re.compile(
    rf"(?<![\w.])(?P<n>{COUNT_NO_ARTICLE})\s*(?P<omp>(?:openmp|omp)[\s-]+)?threads?"
    r"(?P<scope>\s+(?:each|apiece)(?!\w)|\s*(?:per|/|for\s+each|each|a)\s*(?:mpi\s+)?"
    r"(?:rank|task|process)(?!\w))?(?!\w)",
    FLAGS,
)
"""A thread count right after a per-node rank count (see :data:`_RANK_LAYOUT_BEFORE_RE`):
"32 MPI ranks per node with 4 OpenMP threads each", "16 ranks per node x 8 threads"."""
_RANK_LAYOUT_BEFORE_RE = re.compile(
    rf"(?<!\w)(?:mpi\s+)?(?:ranks|tasks|processes|procs){PER_NODE}"
    r"(?P<conn>(?:\s*(?:,|;|\(|with|and|x|\u00d7|\*|each|every|(?:mpi\s+)?(?:rank|task|process)|"
    r"has|having|runs?|running|using|uses|gets?)(?!\w))*)\s*$",
    FLAGS,
)
"""Before a thread count: a per-node rank count and the words that join the two. Only "each",
"apiece", "per rank" after the threads, or "each"/"x" between, make them threads of each rank;
"16 ranks per node and 8 threads" alone is left to the other rules."""


def _rank_threads(text: str, m: re.Match[str]) -> bool:
    """Whether the thread count ``m`` sizes each of the per-node ranks just before it."""
    before = _RANK_LAYOUT_BEFORE_RE.search(text, max(0, m.start() - 80), m.start())
    if before is None:
        return False
    conn = before.group("conn").lower()
    return bool(m.group("scope")) or any(w in conn for w in ("each", "every", "x", "\u00d7", "*"))


_ONE_NODE_LATER_RE = re.compile(
    r"(?:[^.;!?,\n]|\n(?![ \t]*\n)){0,50}?(?<!\w)(?:on|in|of|within)\s+"
    r"(?:a|one|the|that|a\s+single|one\s+single|"
    r"single|1)\s+(?:(?:big|large|fat|compute|cpu|dedicated|whole|full)\s+)?"
    r"(?:node|machine|host|server|box)(?!\w)",
    FLAGS,
)
"""Later in the clause, the one node the amounts are on ("64 cores and 500 GB on a single
node")."""
_ONE_NODE_AFTER_RE = re.compile(
    r"\s*(?:,\s*)?(?:all\s+)?(?:on|in|of|from|within)\s+(?:a|one|the|that|this|the\s+same|a\s+single|"
    r"one\s+single|single|1)\s+(?:(?:big|large|fat|shared[\s-]memory|compute|cpu|dedicated|"
    r"whole|full)\s+)?(?:node|machine|host|server|box)(?!\w)",
    FLAGS,
)
"""After a core count: "32 cores on a single node", "all 128 cores of that node": per node."""


_ONE_PER_JOB_RE = re.compile(
    r"(?<!\w)(?:(?:one|a\s+single|1|each|every)\s+(?P<unit>[a-z]{3,20}?)s?\s+(?:per|a|for\s+each|"
    r"is\s+(?:its\s+own|one|a\s+separate))\s+job"
    r"|(?:one|a|1)\s+job\s+(?:per|for\s+each|for\s+every|for\s+one)\s+(?P<unit2>[a-z]{3,20}?)s?)"
    r"(?!\w)",
    FLAGS,
)
"""The unit of work is the job itself: "one subject per job", "a job per sample", "each
sample is its own job". What each such unit needs is then what the job needs."""
_EACH_UNIT_RE = re.compile(r"(?<!\w)(?:each|every)\s+(?P<unit>[a-z]{3,20}?)s?(?!\w)", FLAGS)


def _unit_is_the_job(text: str, window: str) -> bool:
    """Whether the "each X" in ``window`` names a unit the text makes one job of."""
    each = [m.group("unit").lower() for m in _EACH_UNIT_RE.finditer(window)]
    if not each:
        return False
    jobs = {(m.group("unit") or m.group("unit2")).lower() for m in _ONE_PER_JOB_RE.finditer(text)}
    return each[-1] in jobs


def unit_of_work_before(text: str, start: int) -> bool:
    """Whether the clause before ``start`` is about one unit of work inside the job ("each
    trajectory is one core and about 30 minutes"): an amount there sizes the unit, not the job.
    """
    return bool(_TASK_SUBJECT_RE.search(text, max(0, start - 90), start))


def per_task(text: str, start: int, end: int) -> bool:
    """Whether the count at ``text[start:end]`` sizes one task of many, not the job.

    "each case is 1 core", "4 cores per sample" and "single-core tasks" say how big one unit
    of work is. Read as the job's total they would contradict the real total ("100 cores in
    total") or understate it, so such a count is kept unresolved instead.
    """
    window = text[max(0, start - 60) : start]
    if _ONE_NODE_LATER_RE.match(text, end):
        return False  # "each assembly needs 64 cores and 500 GB on a single node": a node's size
    if "job" in text and _unit_is_the_job(text, window):
        return False  # "one subject per job. Each subject needs 8 cores": the job's cores
    return bool(
        _PER_TASK_BEFORE_RE.search(window)
        or _PER_TASK_AFTER_RE.match(text, end)
        or unit_of_work_before(text, start)
    )


_PER_TASK_MEMORY_RE = re.compile(
    rf"(?<!\w)(?:each|every)\s+(?!(?:one|of)(?!\w)){_NOT_A_NODE}[a-z][\w-]*"
    r"[^.;!?,:\n\x00]{0,32}$",
    FLAGS,
)


def _per_task_memory(scanner: Scanner, start: int, end: int) -> bool:
    """Memory in a clause about one unit of work ("each case is 1 core and 2 GB"): per task.

    "each one" and "each of them" are left out: after a node count they mean each node.
    """
    if _ONE_NODE_LATER_RE.match(scanner.original, end):
        return False  # "each assembly needs 500 GB of RAM on a single node": the node's memory
    window = scanner.original[max(0, start - 60) : start]
    if "job" in scanner.original and _unit_is_the_job(scanner.original, window):
        return False  # "one sample per job; each sample needs 16 GB": the job's memory
    return bool(_PER_TASK_MEMORY_RE.search(window))


def _per_task_phrase(text: str, m: re.Match[str]) -> str:
    after = _PER_TASK_AFTER_RE.match(text, m.end())
    return " ".join(text[m.start() : after.end() if after else m.end()].split())[:80]


_ATTACHED_LATER_RE = re.compile(
    _ENOUGH + r"\s*(?:,\s*(?:(?:with|w/|having|of|each\s+with)\s*)?"
    r"|(?:with|w/|having|of|\(|:|each\s+with)\s*)"
    r"(?:(?:at\s+least|minimum|min)\s+)?"
    r"(?:(?:\x00++|\d{1,5}(?:\.\d{1,3})?\s*(?:tb|gb|tib|gib|g(?!\w))\s*(?:of\s+)?(?:ram|memory|mem)?"
    rf"|(?:of\s+(?:the\s+)?)?(?:type|model|kind)\s*:?\s*(?:{_VENDOR}\s+)?{_MODEL}s?(?!\w))"
    rf"(?:\s+(?:of|from|by)\s+{_VENDOR}(?!\w))?"
    r"(?:\s+(?:each|apiece)(?!\w))?"
    r"(?:\s*\([^()\n\d.;!?]{0,60}\)"
    r"|\s+(?:that|which)\s+(?:has|have|comes\s+with)\s+(?:(?:at\s+least|minimum)\s+)?\x00+)?"
    r"\s*(?:,|and|&|\+|plus|with)?\s*(?:(?:at\s+least|minimum|min)\s+)?)+",
    FLAGS,
)
"""Several amounts after one node phrase: "one node with minimum 2 TB of memory and 64 cores",
"1 node, 2 TB RAM, 64 cores", also past the model of the GPUs counted ("one node with 4 GPU of
type L40S and 64 cores") and past an aside on an amount with no number of its own left ("one
node with 1 GPU (a card with at least 24 GB of GPU memory), 16 cores", "one A100 that has at
least 80 GB of GPU memory, 32 cores") and past "with" and the GPU memory already read and
blanked ("one node: 4 GPUs with at least 24 GB each, 48 cores")."""


_FUZZY_UNIT_RE = re.compile(
    r"(?P<n>\d(?<![\w.,$-]\d)\d{0,6})\s*(?P<mpi>mpi\s+)?(?P<w>[a-z]{3,8})(?![\w-])"
    r"(?P<each>\s+each(?!\w))?",
    FLAGS,
)
_TIMES_BEFORE_RE = re.compile(r"(?:^|[\s(])[x\u00d7*]\s*$", FLAGS)
"""Just before a count: a multiplier ("8 nods x 64 cors"), so the count sizes each node."""
_FUZZY_UNITS = (
    "nodes",
    "node",
    "cores",
    "core",
    "gpus",
    "gpu",
    "hours",
    "minutes",
    "days",
    "tasks",
    "ranks",
)
_FUZZY_SECONDS = {"hours": 3600, "minutes": 60, "days": 86400}
_PER_NODE_AFTER_RE = re.compile(PER_NODE, FLAGS)
"""After a misspelt unit: its per-node scope ("96 cors on each node", "4 gpus per nod")."""
_SLASH_NODE_RE = re.compile(r"/\s*(?:node|host|machine|server)(?!\w)", FLAGS)
_PHYSICAL_UNITS = frozenset({"gpc", "kpc", "mpc", "pcs"})
_UNIT_STEMS = frozenset(u[:4] for u in _FUZZY_SECONDS)
_UNIT_LETTERS = frozenset("".join(sorted(u)) for u in _FUZZY_UNITS)
"""The first four letters of each time unit, and the letters of each unit in order: what a
word shares with a unit when its letters are only swapped or doubled (see :func:`_unit_typo`);
built once, not for each word tested."""
"""Units of science one letter from a unit of ours: gigaparsecs are no GPUs."""


def _unit_typo(word: str) -> str | None:
    """The unit of :data:`_FUZZY_UNITS` that a lower-case word after a count is one edit from
    ("cors", "nodse", "hourss"), or None. An English word of its own ("notes") is no typo,
    unless it holds a unit's letters ("corse", "dyas")."""
    from endpoint_plugins.parsing.english import english_word
    from endpoint_plugins.parsing.vocabulary import typo_of

    if word in _FUZZY_UNITS:
        return None
    if english_word(word) and not (
        # "hourss", "dyas", "512 corse" (two letters of "cores" swapped, though "corse" is an
        # old word): a unit's letters, whatever the dictionary says
        word[:4] in _UNIT_STEMS or "".join(sorted(word)) in _UNIT_LETTERS
    ):
        return None
    return typo_of(word, _FUZZY_UNITS, 1)


def _fuzzy_unit(
    draft: Draft,
    m: re.Match[str],
    node_spans: list[tuple[int, int]],
    original: str,
    unit_typo: Callable[[str], str | None],
) -> bool:
    """ "1024 cors", "8 nodse": a count whose unit word is one edit from a unit (see
    :func:`_unit_typo`, which ``unit_typo`` answers)."""
    word = m.group("w").lower()
    per_node = _SLASH_NODE_RE.match(m.string, m.end())
    if word in _PHYSICAL_UNITS or (m.string[m.end() : m.end() + 1] in ("/", "^") and not per_node):
        return False  # "a 2 Gpc/h box": a unit of its own ("Gpc/h", "km^2"), not a misspelt one
    unit = unit_typo(word) or _clipped_node(word, original, m.end())
    if unit is None:
        return False
    n, text = int(m.group("n")), m.group(0)
    if unit in _FUZZY_SECONDS:  # "8 hourss", "30 minuts"
        if 1 <= n * _FUZZY_SECONDS[unit] <= 10 * 366 * 86400:
            draft.compute.walltime.append(Mention(n * _FUZZY_SECONDS[unit], text))
            return True
        return False
    if unit.startswith("node"):
        draft.compute.nodes.append(Mention(n, text))
        node_spans.append(m.span())  # "3 nodez, 96 cores": a count attached to it is per node
        if word in ("nod", "nods"):
            _size_clipped_node(draft, original, m.end())
        return True
    each = (
        bool(m.group("each") or per_node)
        or bool(_PER_NODE_AFTER_RE.match(m.string, m.end()))
        or bool(_TIMES_BEFORE_RE.search(m.string, max(0, m.start() - 4), m.start()))
        or _attached(m.string, node_spans, m.start())
        or bool(_WITH_TYPO_RE.search(m.string, max(0, m.start() - 20), m.start()))
        or bool(_ONE_NODE_AFTER_RE.match(original, m.end()))
        or _on_a_node_after(original, m.end())
    )  # "8 nods x 64 cors", "a node whith 48 cors", "32 coers on one machne": each node's
    if m.group("mpi") and not unit.startswith(("core", "task", "rank")):
        return False
    if unit in ("tasks", "ranks") and m.group("w").isupper():
        return False  # "40 RANS cases": an acronym, not a misspelt unit
    if unit in ("tasks", "ranks") or m.group("mpi"):  # "720 MPI taks": ranks of the job
        draft.compute.cores.append(Count(n, text, per_node=each))
        if m.group("mpi") or unit == "ranks":
            draft.set_mpi(None, [], text)
    elif unit.startswith("core"):
        draft.compute.cores.append(Count(n, text, per_node=each))
    else:
        draft.compute.gpus.append(Count(n, text, per_node=each))
    return True


_SIZED_AFTER_RE = re.compile(
    r"\s*,?\s*(?:with|w/|whith|wiht|of|x|\u00d7|\*)\s*(?P<n>\d{1,5})\s*-?\s*(?P<w>[a-z]{3,8})(?![\w-])",
    FLAGS,
)


def _clipped_node(word: str, original: str, end: int) -> str | None:
    """ "1 nod with 64 cors": "nod" is an English word, so no typo of "node" by itself, but a
    count of them sized by cores or GPUs right after is a node count (read in the original
    text: the cores may have been read already)."""
    if word not in ("nod", "nods"):
        return None
    sized = _SIZED_AFTER_RE.match(original, end)
    if sized is None:
        return None
    unit = sized.group("w").lower()
    unit = unit if unit in _FUZZY_UNITS else _unit_typo(unit)
    return "nodes" if unit and unit.startswith(("core", "gpu")) else None


def _size_clipped_node(draft: Draft, original: str, end: int) -> None:
    """ "1 nod w/ 48 cores": the cores, read already as a count with no scope, size the node."""
    sized = _SIZED_AFTER_RE.match(original, end)
    if sized is None:
        return
    amount = " ".join(original[sized.start("n") : sized.end()].split())
    for counts in (draft.compute.cores, draft.compute.gpus):
        for i, count in enumerate(counts):
            if not count.per_node and not count.total and " ".join(count.text.split()) == amount:
                counts[i] = replace(count, per_node=True)


def _misspelt_compute(amounts: str) -> bool:
    """Whether read amounts end in a count whose unit is a core, GPU or node word one edit off
    ("24 cors", read by :func:`_fuzzy_unit`): a bare size after it ("24 cors and 96 GB") is
    memory per node, as after "24 cores"."""
    return any(
        _unit_typo(m.group("w").lower()) not in (None, *_FUZZY_SECONDS)
        for m in _FUZZY_UNIT_RE.finditer(amounts)
    )


_NODE_SPELLINGS = ("node", "nodes", "machine", "machines", "server", "servers")
_NODE_AFTER_FUZZY_RE = re.compile(
    r"\s*(?:(?:per|/|each|every|on\s+each|in\s+each|a)\s*-?\s*"
    r"|,?\s*(?:all\s+)?(?:on|in|of|within)\s+(?:a|one|the|a\s+single|single|1)\s+)"
    r"(?P<w>[a-z]{3,9})(?![\w-])",
    FLAGS,
)
"""After a count: the node it is on, in a spelling one edit off ("64 cores per nod", "32 coers
on one machne"); see :func:`_node_typo`."""
_WITH_TYPO_RE = re.compile(
    r"\s*(?:whith|wiht|wtih|wit|whit|witn)\s+(?:at\s+least\s+|about\s+)?$", FLAGS
)
"""Between one node and its cores: "with" one letter off ("a node whith 48 cors")."""


def _node_typo(word: str) -> bool:
    """Whether a word is a node word one edit off: not an English word of its own, except the
    clipped "nod", which nobody writes after "per" or "on one" for its own sense."""
    from endpoint_plugins.parsing.english import english_word
    from endpoint_plugins.parsing.vocabulary import typo_of

    lower = word.lower()
    if lower in _NODE_SPELLINGS or typo_of(lower, _NODE_SPELLINGS, 1) is None:
        return False
    return lower == "nod" or not english_word(lower)


def _on_a_node_after(text: str, end: int) -> bool:
    """Whether a count is followed by the node it sits on, in a misspelt node word."""
    m = _NODE_AFTER_FUZZY_RE.match(text, end)
    return bool(m and _node_typo(m.group("w")))


_SHORT_CORES_RE = re.compile(r"(?P<n>\d(?<![\w.,]\d)\d{0,3})\s?c(?![\w.\u00b0/-])", FLAGS)
"""Cores in shorthand, "64c": read only right after a node count ("1 node 64c", "4 nodes x
32c"), where nothing else is sized by a bare "c" (alone "64c" may be a temperature)."""


def _short_cores(
    scanner: Scanner, draft: Draft, m: re.Match[str], node_spans: list[tuple[int, int]]
) -> bool:
    if not _attached(scanner.text, node_spans, m.start()):
        return False
    n = int(m.group("n"))
    if not in_range(n, 1, MAX_CORES):
        return False
    draft.compute.cores.append(Count(n, m.group(0), per_node=True))
    return True


def _attached(
    text: str, node_spans: list[tuple[int, int]], start: int, threads: bool = False
) -> bool:
    """Whether a count follows a node count as the size of each node ("4 nodes x 32 cores").

    Past other amounts ("1 node, 2 TB RAM, 64 cores") only cores and GPUs size the node: a
    thread count there says how the program runs ("1 node, 1 TB RAM, 64 threads"), so it
    stays the job's total.
    """
    for _, end in node_spans:
        if end > start:
            continue
        between = text[end:start]
        if _ATTACHED_RE.fullmatch(between.replace("\x00", " ")):
            return True
        if len(between) < 140 and not threads and _ATTACHED_LATER_RE.fullmatch(between):
            return True
    return False


def _uncounted_nodes(scanner: Scanner, draft: Draft, m: re.Match[str]) -> bool:
    """ "on nodes of 128 cores": cores per node (see :data:`_UNCOUNTED_NODES_RE`)."""
    n = int(m.group("n"))
    if not in_range(n, 1, MAX_CORES) or _SITE_DESCRIBED_RE.search(
        scanner.original, max(0, m.start() - 80), m.start()
    ):
        return False
    if _PER_TASK_AFTER_RE.match(scanner.original, m.end()) or _TOTAL_RE.match(
        scanner.original, m.end()
    ):
        return False  # "nodes with 64 cores in total": not one node's size, left to the others
    draft.compute.cores.append(Count(n, m.group(0), per_node=True))
    return True


def _one_unit(m: re.Match[str]) -> bool:
    """Whether a singular "machine", "computer" ... is one node (see :data:`_ONE_UNIT_RE`)."""
    from endpoint_plugins.parsing.english import english_word
    from endpoint_plugins.parsing.vocabulary import typo_of

    word = m.group("unit").lower()
    single = m.group("single")
    if m.group("single_rest") is not None:
        single = m.string[m.start() : m.end("single_rest")]
    single = (single or "").lower()
    if single and (
        word not in _ONE_UNIT_WORDS
        or english_word(single)
        or typo_of(single, ("single",), 1) is None
    ):
        return False  # "a singel node" is one node; "a shared node", "a spare host" are not
    if word not in _ONE_UNIT_WORDS:
        if len(word) < 5 or typo_of(word, _ONE_UNIT_WORDS, 1) is None:
            return False
        if not m.group("with") and (m.group("one") is None or english_word(word)):
            return False  # "machne", "sever": misspelt, so only with a count or "one" before
    if m.group("article") is not None and not m.group("with"):
        return False  # "a machine" alone is vague
    if word == "box" and m.group("one") is None:
        return False  # "a box w/ 2 gpus" is loose talk; "one box" counts
    return True


def _cpu_fallback(draft: Draft) -> bool:
    """CPUs as the fallback: GPUs become an option (only once some GPU is mentioned)."""
    draft.compute.cpu_fallback = True
    return True


def _shape_choice(scanner: Scanner, draft: Draft, m: re.Match[str]) -> bool:
    """ "2 nodes x 8 or 4 nodes x 4", "1x128 or 2x64": the user offers shapes of one size, so
    neither shape is required, only the size they share: the total, of the unit the shapes
    name or, when they name none, of the last cores or GPUs named before them. Shapes of
    different sizes, or of no known unit, are quoted as unresolved."""
    shapes = list(_SHAPE_RE.finditer(m.group(0)))
    sizes = {int(s.group("n")) * int(s.group("m")) for s in shapes}
    units = {_unit_kind(s.group("unit")) for s in shapes if s.group("unit")}
    if not units:
        before = [
            u
            for u in _LAST_UNIT_RE.finditer(scanner.original, max(0, m.start() - 120), m.start())
            if _unit_kind(u.group(0))
        ]
        units = {_unit_kind(before[-1].group(0))} if before else set()
    if len(sizes) != 1 or len(units) != 1 or not 1 <= (size := sizes.pop()) <= MAX_CORES:
        draft.unresolved.append(" ".join(m.group(0).split()))
        return True
    target = draft.compute.gpus if units == {"gpu"} else draft.compute.cores
    target.append(Count(size, m.group(0), per_node=False, total=True))
    if units == {"gpu"}:
        draft.compute.gpu_mentioned = True
    return True


def _unit_kind(word: str) -> str | None:
    lower = word.lower()
    if lookup(lexicon.GPU_MODELS, lower) or lower.startswith(("gpu", "graphic")):
        return "gpu"
    if lower.startswith(("core", "cpu", "thread", "vcpu", "physical", "processor")):
        return "core"
    return None


def _model_choice(draft: Draft, m: re.Match[str]) -> bool:
    """ "8 H100 or 8 A100": either model will do, so neither alone is required. No field holds
    the choice, so it is also quoted as unresolved: no site answers READY on a model it was
    never asked about. The counts around the models are still read (nothing is blanked)."""
    a, b = lookup(lexicon.GPU_MODELS, m.group("a")), lookup(lexicon.GPU_MODELS, m.group("b"))
    if a is not None and b is not None and a != b:
        draft.compute.gpu_model_choice = True
        draft.unresolved.append(f"{m.group('a')} or {m.group('b')}")
    return False


def _quote(draft: Draft, m: re.Match[str]) -> bool:
    draft.unresolved.append(" ".join(m.group(0).split()))
    return True


_COUNT_BEFORE_RE = re.compile(r"(?<![\w.,])(?P<n>\d{1,4})\s*(?:x\s*)?$", FLAGS)


def _min_model(scanner: Scanner, draft: Draft, m: re.Match[str]) -> bool:
    """A lowest model ("A100 or newer"): a GPU is meant; the bound is quoted, never dropped. A
    count just before it ("4 A100s or newer") still counts the GPUs."""
    draft.unresolved.append(" ".join(m.group(0).split()))
    before = _COUNT_BEFORE_RE.search(m.string, max(0, m.start() - 8), m.start())
    if before and in_range(n := int(before.group("n")), 1, MAX_GPUS):
        draft.compute.gpus.append(Count(n, before.group(0) + m.group(0), per_node=False))
        scanner.blank(*before.span())
    _record_vendor(draft, m.group(0))
    draft.compute.gpu_mentioned = True
    return True


def _cpu_generation(draft: Draft, m: re.Match[str]) -> bool:
    """ "Zen 4 CPUs": quoted with the word after it, which stays for the count before it."""
    draft.unresolved.append(" ".join((m.group(0) + (m.group("what") or "")).split()))
    return True


def _vendor_allowed(draft: Draft, m: re.Match[str]) -> bool:
    """ "AMD is fine too": a vendor allowed is not required (see :data:`_VENDOR_ALLOWED_RE`)."""
    if re.search(rf"(?<!\w)(?:{_GPU_WORD}|cards?|accelerators?)(?!\w)", m.group(0), FLAGS):
        draft.compute.gpu_mentioned = True
    draft.notes.append(
        f"{' '.join(m.group(0).split())} (a vendor allowed, not asked for; not used)"
    )
    return True


def _vendor_choice(draft: Draft, m: re.Match[str]) -> bool:
    """ "NVIDIA or AMD": a GPU is meant, but neither vendor is required."""
    if len({v.lower() for v in _VENDOR_WORD_RE.findall(m.group(0))}) < 2:
        return False
    draft.compute.gpu_mentioned = True
    return True


def _gpu_then_count(draft: Draft, m: re.Match[str]) -> bool:
    n = int(m.group("n"))
    if not in_range(n, 1, MAX_GPUS):
        return False
    draft.compute.gpus.append(Count(n, m.group(0), per_node=True))
    if m.group("model"):
        _record_model(draft, m.group("model"), m.group(0))
    _record_vendor(draft, m.group(0))
    draft.compute.gpu_mentioned = True
    return True


def _times_after(draft: Draft, m: re.Match[str], node_spans: list[tuple[int, int]]) -> bool:
    n = int(m.group("n"))
    if m.group("node"):
        if not in_range(n, 1, MAX_NODES):
            return False
        draft.compute.nodes.append(Mention(n, m.group(0)))
        node_spans.append(m.span())
        return True
    if not in_range(n, 1, MAX_GPUS):
        return False
    draft.compute.gpus.append(Count(n, m.group(0), per_node=bool(m.group("scope"))))
    if m.group("model"):
        _record_model(draft, m.group("model"), m.group(0))
    _record_vendor(draft, m.group(0))
    draft.compute.gpu_mentioned = True
    return True


_OF_THE_GPUS_RE = re.compile(
    rf"(?<![\w.,$])(?P<n>\d{{1,3}}|{alternation(['two', 'three', 'four', 'six', 'eight'])})"
    r"\s+of\s+(?:the|your|those|these)\s+(?:(?:new|spare|free|idle|available)\s+)?"
    rf"(?:{_MODEL_PHRASE}(?:\s*{_GPU_NOUN})?|(?:{_VENDOR}\s+)?(?:{_GPU_WORD}|accelerators?))"
    rf"{_UNIT_END}"
    r"(?!\s+(?:(?:is|are|was|were|has|have|had|do|does|did)(?:n'?t)?|failed|fails|crashed|died|"
    r"went|keeps?|kept|seems?|seemed|showed|shows|reported|returned|threw|hung|hangs|ran|runs|"
    r"will|would|can|could|cannot|can't|should|might|may)(?!\w))",
    FLAGS,
)
"""GPUs picked from a site's pool: "2 of the L40S cards", "4 of your H100s", "8 of the GPUs".
With a verb after ("2 of the A100s failed") they say what the GPUs did, and stay unread."""


def _gpus_of_the(draft: Draft, m: re.Match[str]) -> bool:
    """A count of GPUs out of the site's pool (see :data:`_OF_THE_GPUS_RE`)."""
    n = to_count(m.group("n"))
    if n is None or not in_range(n, 1, MAX_GPUS):
        return False
    draft.compute.gpus.append(Count(n, m.group(0), per_node=False))
    return _gpu_details(draft, m)


def _gpu_details(draft: Draft, m: re.Match[str]) -> bool:
    """The model and vendor said with a GPU count, and the GPU mention itself."""
    if m.group("model"):
        _record_model(draft, m.group("model"), m.group(0))
    _record_vendor(draft, m.group(0))
    draft.compute.gpu_mentioned = True
    return True


def _gpus_of_them(scanner: Scanner, draft: Draft, m: re.Match[str]) -> bool:
    """ "a place with Intel GPUs ... on 2 of them": a count of the last unit named, when that
    unit is a GPU. Any other antecedent is left unread."""
    units = list(_LAST_UNIT_RE.finditer(scanner.original, max(0, m.start() - 200), m.start()))
    per_node = bool(
        m.group("n")
        and len(units) > 1
        and units[-2].group("gpu")
        and not units[-1].group("gpu")
        and _NODE_WITH_RE.fullmatch(scanner.original, units[-1].start(), m.start())
    )
    if per_node:
        units.pop()  # "MI300X free? ... 1 node with 8 of them": 8 GPUs on that node
    if not units or not units[-1].group("gpu"):
        return False
    n = to_count(m.group("n") or m.group("bare"))
    if n is None or not in_range(n, 1, MAX_GPUS):
        return False
    if per_node:
        draft.compute.gpus.append(Count(n, m.group(0), per_node=True))
        draft.compute.gpu_mentioned = True
        return True
    if m.group("bare"):
        scanner.blank(*m.span("bare"))  # "need 4": only the number is the count
        draft.compute.gpus.append(Count(n, m.group("bare"), per_node=False))
        draft.compute.gpu_mentioned = True
        return False
    draft.compute.gpus.append(Count(n, m.group(0), per_node=False))
    draft.compute.gpu_mentioned = True
    return True


def _record_vendor(draft: Draft, text: str) -> None:
    m = _VENDOR_WORD_RE.search(text)
    if m:
        draft.compute.gpu_vendor.append(Mention(_VENDORS[m.group(1).lower()], text))


def _vendor_mention(draft: Draft, m: re.Match[str]) -> bool:
    draft.compute.gpu_vendor.append(Mention(_VENDORS[m.group("vendor").lower()], m.group(0)))
    draft.compute.gpu_mentioned = True
    return True


def _says_mpi(word: str) -> bool:
    """Whether a rank word implies MPI: "MPI ranks" and "ranks" do, "tasks" alone does not."""
    word = word.lower()
    return "mpi" in word or word.startswith("rank")


def _record_model(draft: Draft, spelling: str, text: str, mention: bool = False) -> bool:
    model = lookup(lexicon.GPU_MODELS, spelling)
    if model is None:
        return False
    draft.compute.gpu_models.append(Mention(model, text))
    draft.compute.gpu_mentioned = True
    if mention:
        _record_vendor(draft, text)
    return True


def _mention_gpu(draft: Draft) -> bool:
    draft.compute.gpu_mentioned = True
    return True


_TOTAL_BEFORE_SIZE_RE = re.compile(
    r"(?<!\w)(?:(?:a|the|in)\s+)?(?:total|aggregate|combined|overall|altogether)"
    r"(?:\s+(?:of|is|:))?\s*:?\s*(?:(?:about|around|roughly|approximately|~)\s*)?$",
    FLAGS,
)
"""Just before a memory size with no scope after it: "total 512GB RAM", "in total 300 GB of
memory", "a total of 900 GB": the whole job's memory, not each node's."""


def _extract_memory(scanner: Scanner, draft: Draft) -> None:
    """Memory: "64 GB of RAM", "memory: 512GB", "4 GB per core", "64 GB per node"."""
    c = draft.compute

    def handle(m: re.Match[str], after: str = "") -> bool:
        size = size_in_gb(m)
        if size is None or not in_range(size, 1e-6, MAX_MEMORY_GB):
            return False
        scope = m.groupdict().get("pre") or ""
        scope = (scope + (m.groupdict().get("scope") or "") + after).strip()
        scope = scope.lower()
        mention = Mention(size, m.group(0))
        if (
            not scope
            and not m.groupdict().get("tot")
            and (
                _per_task_memory(scanner, m.start(), m.end())
                or (
                    _PER_OTHER_UNIT_RE.match(scanner.original, m.end())
                    and not _NODE_WORD_RE.search(_clause_before(scanner.original, m.start()))
                )
            )
        ):
            draft.unresolved.append(" ".join(m.group(0).split()))
            return True
        total_before = not scope and _TOTAL_BEFORE_SIZE_RE.search(
            scanner.original, max(0, m.start() - 30), m.start()
        )
        if _PER_CORE_RE.fullmatch(scope):
            c.memory_per_core.append(mention)
        elif m.groupdict().get("tot") or _TOTAL_RE.fullmatch(scope) or total_before:
            c.memory_total.append(mention)
        else:
            c.memory_per_node.append(mention)
        return True

    def beside_compute(m: re.Match[str]) -> bool:
        """ "16 cores, 64 GB", "1 node, 256 GB": a bare size in a list of compute amounts is
        memory per node, as ``--mem`` is. Anywhere else a bare size stays unread."""
        before = scanner.text[max(0, m.start() - 400) : m.start()]
        tail = re.search(r"\x00([^\x00]{0,32})$", before)
        if tail is None:
            return False
        each = _EACH_NODE_WITH_RE.match(tail.group(1))
        if not each and not _NEXT_TO_COMPUTE_RE.match(tail.group(1)):
            return False
        end = m.start() - len(tail.group(1))
        start = end
        while start > 0 and scanner.text[start - 1] == "\x00":
            start -= 1
        amounts = scanner.original[start:end]
        if not (
            _NODE_WORD_RE.search(amounts)
            if each
            else _COMPUTE_WORD_RE.search(amounts)
            or _ONE_NODE_WORDS_RE.fullmatch(amounts)
            or _misspelt_compute(amounts)
        ):
            return False
        return bare_scoped(m)

    def bare_scoped(m: re.Match[str]) -> bool:
        """A bare size read as memory keeps the whole-job scope written after it ("256 GB
        across the whole job", "1 TB in total"): that is the job's memory, not each node's."""
        after = _TOTAL_RE.match(scanner.text, m.end())
        if not handle(m, after.group(0) if after else ""):
            return False
        if after:
            scanner.blank(*after.span())
        return True

    def before_compute(m: re.Match[str]) -> bool:
        start, end = m.span("next")
        return bool(_COMPUTE_WORD_RE.search(scanner.original[start:end])) and handle(m)

    def misspelt(m: re.Match[str]) -> bool:
        """ "Memroy 64GB", "meory: 32 GB": a memory word one edit away, then a size."""
        from endpoint_plugins.parsing.vocabulary import typo_of

        word = m.group("word").lower()
        if word in _MEMORY_NAMES or typo_of(word, _MEMORY_NAMES, 1) is None:
            return False
        return handle(m)

    scanner.take(_MEMORY_AFTER_RE, handle)
    scanner.take(_MEMORY_BEFORE_RE, handle)
    scanner.take(_MEMORY_TYPO_RE, misspelt)
    scanner.take(_MEMORY_TYPO_AFTER_RE, misspelt)

    def scoped(m: re.Match[str]) -> bool:
        """ "64 GB per node" is memory, but "local SSD 400 GB on every node" is that disk's."""
        if _STORAGE_WORD_BEFORE_RE.search(scanner.text, max(0, m.start() - 24), m.start()):
            return False
        return handle(m)

    scanner.take(_MEMORY_SCOPED_RE, scoped)

    def memory_named_before(m: re.Match[str]) -> bool:
        """ "it needs lots of memory; I think 128 GB should be enough": the one size in a
        sentence that named memory earlier (and no GPU, storage or data) is that memory."""
        text = scanner.text
        ends, end = sentence_around(_SENTENCE_END_RE, text, m.start(), m.end())
        start = ends[-1] if ends else 0
        word = _MEMORY_WORD_RE.search(text, start, m.start())
        if word is None or _NOT_MEMORY_CONTEXT_RE.search(scanner.original, start, end):
            return False
        if len(_BARE_SIZE_RE.findall(text, start, end)) != 1:
            return False
        if not bare_scoped(m):
            return False
        scanner.blank(*word.span())
        return True

    if BARRIER in scanner.text:  # both read a size beside an amount already read (blanked)
        scanner.take(_BARE_SIZE_RE, beside_compute)
        scanner.take(_SIZE_BEFORE_COMPUTE_RE, before_compute)
    if _MEMORY_WORD_RE.search(scanner.text):
        scanner.take(_BARE_SIZE_RE, memory_named_before)
