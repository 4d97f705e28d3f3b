"""What a request says the job does *not* need: "no GPUs", "don't need MPI", "no containers".

This stage runs before every extractor that could read the same words as a demand, and blanks
the negated phrase, so "no need for a low-latency network" can never become a low-latency
requirement. An exclusion never fails a site (a site with GPUs can run a CPU job); it is kept in
``Requirements.excluded`` so that people and agents see it was read. "No GPU" also makes the job
CPU-only (zero GPUs per node), which prices it on CPU nodes.
"""

from __future__ import annotations

import re

from endpoint_plugins.parsing.draft import Count, Draft, Mention
from endpoint_plugins.parsing.scanner import FLAGS, Scanner, alternation, starts_with
from providers.wire.requirements import Feature

_FEATURE_WORDS: dict[Feature, tuple[str, ...]] = {
    Feature.GPU: (
        "gpus",
        "gpu",
        "graphics cards",
        "graphics card",
        "graphic cards",
        "graphic card",
        "accelerators",
        "accelerator",
        "gpu nodes",
        "gpu node",
        "gpu acceleration",
        "gpu support",
    ),
    Feature.MPI: ("mpi", "message passing interface", "mpi library", "multi node mpi"),
    Feature.CONTAINER: (
        "containers",
        "container",
        "container images",
        "container image",
        "containerization",
        "containerisation",
        "docker",
        "singularity",
        "apptainer",
    ),
    Feature.LOW_LATENCY: (
        "low latency networking",
        "low latency network",
        "low latency interconnect",
        "low latency fabric",
        "low latency",
        "network fast",
        "fast networking",
        "fast network",
        "fast interconnect",
        "high speed networking",
        "high speed network",
        "high speed interconnect",
        "high performance interconnect",
        "high performance network",
        "special network",
        "special networking",
        "fancy network",
        "fancy networking",
        "fancy interconnect",
        "special interconnect",
        "interconnect requirements",
        "interconnect requirement",
        "network requirements",
        "network requirement",
        "interconnect needs",
        "rdma",
        "infiniband",
        "omni path",
        "omnipath",
        "slingshot",
    ),
}
_SPELLING = {s: f for f, spellings in _FEATURE_WORDS.items() for s in spellings}
_NAMED_FABRICS = frozenset({"infiniband", "omni path", "omnipath", "slingshot"})
"""Fabrics by name: refusing one refuses low latency only where no other fast fabric is asked
for (:meth:`Draft.build_excluded <endpoint_plugins.parsing.draft.Draft.build_excluded>`)."""
_FEATURE = alternation(_SPELLING)
_ARTICLE = r"(?:(?:a|an|any|the|some)\s+)?"
_NEED = r"(?:need|needs|require|requires|use|uses|using|want|rely\s+on|depend\s+on)"
_NOT = (
    r"(?:(?-i:[Dd])(?:(?-i:[Oo])(?:n'?t|\s+not|esn'?t|es\s+not)|idn'?t)|(?-i:[Ww])(?:on'?t|ill\s+not)"
    r"|(?-i:[Ss\u017f])hould(?:n'?t|\s+not)|(?-i:[Cc])an(?:'?t|not|\s+not)"
    r"|(?-i:[Mm])(?:ust(?:\s+not|n'?t)|ay\s+not)|(?-i:[Nn])(?:ot|ever))"
)
"""The negating words ("don't", "do not", "cannot", "must not", "never"), factored by their
first letters, each written in both cases (and "\u017f", the long s that ``re.IGNORECASE``
matches to "s"): the regex engine skips a branch whose first class rejects the character
without entering it, which it never does for case-folded letters. No two words start the same
string, so the order of the branches is free."""
_MORE = (
    rf"(?:\s*(?:,\s*(?:or|nor|and)?|or|nor|and|/)\s*(?:not\s+|no\s+)?(?:(?:of|for)\s+)?"
    rf"(?:(?:a|an|any|the|other|any\s+other|some\s+other)\s+)?"
    rf"{_FEATURE})*"
)
"""Further features under the same negation: "no MPI or a fast network", "no MPI and not the
container", "no need of MPI nor of a fast network" (the need's "of" or "for" repeated).
"Nothing needs GPUs" and "none of it uses MPI" negate with the subject."""
_NOT_WANTED = (
    r"(?:(?:is|are|was|were|will\s+be|would\s+be)\s+not|isn'?t|aren'?t|wasn'?t|weren'?t|"
    r"won'?t\s+be|will\s+not\s+be|not)\s+(?:really\s+|strictly\s+|actually\s+)?"
    r"(?:needed|required|necessary|essential|mandatory|wanted|used|an\s+option|allowed|permitted"
    r"|a\s+must)"
)
"""After a feature: "MPI isn't required", "GPUs are not necessary", "MPI won't be needed", "GPU
is not a must"."""
_BOTH = r"(?:(?:are\s+)?(?:both|all)\s+(?:(?:of\s+them|three|two)\s+)?)?"
"""Between the features and their negation: "GPU and MPI both not required", "MPI and
containers are both not needed"."""
_NEGATED_FIRST = starts_with(
    [*_SPELLING, *"no without w/o zero non neither not nothing none never is are isn't".split()]
    + "aren't don't do doesn't does won't will shouldn't should didn't can't cannot".split()
    + "have has had haven't hasn't".split()
)
"""The first letters of every alternative below (the feature names and the words of
:data:`_NOT`): most words start with none of them, and are passed over in one test."""
_NOT_WORDS = (
    "don't do doesn't does won't will shouldn't should didn't can't cannot can must".split()
)
_AT_NOT = starts_with([*_NOT_WORDS, "mustn't", "may", "not", "never"])
_AT_HAVE_NOT = starts_with(["have", "has", "had", "haven't", "hasn't", *_NOT_WORDS, "not"])
_AT_FEATURE = starts_with(_SPELLING)
_AT_LISTED_FEATURE = starts_with(["and", "but", "also", *_SPELLING])
"""The first letters of :data:`_NOT`, of a feature, and of the other openings below. Each
alternative of :data:`_NEGATED_RE` starts with the look-ahead of its own first letters: the
regex engine tries every alternative at every word that passes :data:`_NEGATED_FIRST`, and one
character test turns most of them away before they try their word lists and look-behinds."""
_NEGATED_RE = re.compile(
    rf"(?<![\w-]){_NEGATED_FIRST}(?:"
    rf"(?=[nwz])(?:"
    rf"(?:no|without|w/o|zero|non)[\s-]+(?:need\s+(?:(?:for|of)\s+)?)?{_ARTICLE}{_FEATURE}{_MORE}"
    rf"|neither\s+{_ARTICLE}{_FEATURE}{_MORE}"
    rf"|neither\s+(?:of\s+(?:them|these|those|the\s+\w+)|\w+)\s+(?:really\s+)?{_NEED}\s+"
    rf"{_ARTICLE}{_FEATURE}{_MORE}"
    rf"|(?:nothing|none\s+of\s+(?:it|them|this|the\s+\w+))\s+(?:here\s+|really\s+)?{_NEED}\s+"
    rf"{_ARTICLE}{_FEATURE}{_MORE}"
    rf"(?:\s+at\s+all)?)"
    rf"|{_AT_HAVE_NOT}(?:"
    rf"(?=not\s)(?:(?<=[.,;:!?(]\s)|(?<=[.,;:!?(])|(?<=^)|(?<=please\s)|(?<=pls\s)|(?<=but\s)|(?<=and\s))"
    rf"not\s+(?:(?:necessary|needed|required|need)\s+)?{_ARTICLE}{_FEATURE}{_MORE}"
    rf"(?!\s+(?:is|are|was|were|would|will|can|could|available|only)(?!\w))"
    rf"|{_AT_NOT}{_NOT}\s+(?:"
    r"(?:place|put|run|schedule|send|land|allocate)\s+(?:(?:it|this|them|us|"
    r"anything|(?:the|my|our|this)\s+(?:job|run|jobs|runs))\s+)?(?:on|onto|to)\s+(?:any\s+)?"
    rf"(?:nodes?|machines?|hosts?|servers?|partitions?)\s+(?:with|that\s+have|having)\s+"
    rf"{_ARTICLE}{_FEATURE}{_MORE}"
    rf"|(?:really\s+|even\s+|actually\s+)?{_NEED}\s+{_ARTICLE}{_FEATURE}{_MORE}"
    rf"|(?:allow|allows|permit|permits|accept|accepts)\s+(?:(?:the\s+)?use\s+of\s+)?"
    rf"{_ARTICLE}{_FEATURE}{_MORE}"
    rf"|(?:be\s+)?(?:run|ran|executed|launched|started|deployed|packaged|put|go)\s+"
    rf"(?:in|inside|within|from|under|through|via|with|into)\s+{_ARTICLE}{_FEATURE}{_MORE})"
    # "we have not need of MPI": the non-native calque of "we have no need of MPI"
    rf"|(?:(?:have|has|had)\s+not|haven'?t|hasn'?t|{_NOT}\s+have)\s+(?:any\s+|the\s+|a\s+)?"
    rf"needs?\s+(?:of|for)\s+{_ARTICLE}{_FEATURE}{_MORE})"
    rf"|{_AT_LISTED_FEATURE}(?:(?={_FEATURE})(?:"
    rf"{_FEATURE}\s*[:=]\s*(?:no|none|n/?a|not\s+(?:needed|required|necessary|applicable)|"
    r"unnecessary|no\s+need)(?![\w-])"
    rf"|{_FEATURE}{_MORE}\s+{_BOTH}{_NOT_WANTED}"
    rf"|{_FEATURE}{_MORE}\s+{_BOTH}(?:is|are|isn'?t|aren'?t)?\s*(?:not\s+)?"
    rf"(?:not\s+needed|not\s+required|not\s+necessary|unnecessary|unneeded|not\s+wanted|"
    rf"isn'?t\s+needed|aren'?t\s+needed|not\s+used|not\s+an\s+option|not\s+allowed|"
    rf"(?:are\s+|is\s+)?(?:forbidden|prohibited|banned|disallowed))"
    rf"|{_FEATURE}-?(?:less|free))"
    rf"|(?:(?<=[.,;:!?(]\s)|(?<=[.,;:!?(])|(?<=^)|(?<=\n))(?:(?:and|but|also)\s+)?{_FEATURE}{_MORE}"
    rf"\s+(?:we|i|they|you|it|the\s+(?:job|code|run|model|program|solver))\s+{_NOT}\s+"
    rf"(?:really\s+|even\s+|actually\s+)?{_NEED}(?=\s*(?:[.,;:!?)]|$|at\s+all|here|for\s+)))"
    rf"|(?=[ai])(?:(?:is|are)\s+not|isn'?t|aren'?t)\s+(?:"
    r"(?:an?\s+)?"
    rf"{_FEATURE}\s+(?:code|codes|job|jobs|program|application|app|workload)"
    r"|(?:really\s+|strictly\s+)?"
    r"(?:necessary|needed|required|essential)\s+(?:(?:to|for\s+(?:me|us|it)\s+to)\s+(?:use|have)\s+"
    r"|(?:to\s+)?(?:run|parallel\w*)\s+(?:with|via|using|in|on|inside)\s+)?"
    rf"{_ARTICLE}{_FEATURE}{_MORE})"
    rf")(?![\w-])",
    FLAGS,
)
"""A negated feature. The alternatives are grouped by the first letters of their opening
words, each group behind one look-ahead, so a word is tried against a handful of groups rather
than every alternative. Alternatives that open with different words can never match at the
same place, so grouping them changes no match; those that share an opening word ("not")
keep their order within the group. The four alternatives that open with a feature sit behind
one look-ahead for it: most words start with a feature's first letter but are no feature, and
are turned away after one walk of the spellings instead of four (measured 15-25 % faster on
the dev corpus than trying each alternative; reading the first letter as a consumed class
measured slower here, since most letters can start a match)."""
_ONE_FEATURE_RE = re.compile(rf"(?<![\w-]){_FEATURE}(?!\w)", FLAGS)
_GPU_WORDS = r"(?:gpus?|graphics?\s+cards?|accelerators?|cuda)"
_GPU_HELPS_BUT_RE = re.compile(
    rf"(?<![\w-])(?:(?P<one>a|one|a\s+single|single)\s+|the\s+)?{_GPU_WORDS}\s+(?:would\s+|will\s+|could\s+|can\s+|might\s+)?"
    r"(?:help|helps|speed|speeds|accelerate|accelerates|be\s+(?:nice|faster|better|welcome|useful))"
    r"(?:[^.;!?\n]|\n(?![ \t]*[#>*\n-])){0,40}?\s(?:but|though|although|yet)\s+"
    r"(?:(?:they|it|one|is|are|it's|that's|that)\s+)*"
    rf"(?:not\s+|n'?t\s+|never\s+)?(?:{_NOT_WANTED}|needed|required|necessary|essential)(?!\w)",
    FLAGS,
)
"""GPUs offered as a help, not a must: "GPUs help a lot but are not needed", "a GPU would speed
it up, but it isn't required". "A GPU" counts one (the README's article rule), still optional.
The phrase may run on over a wrapped line of prose, not into a quoted, commented or listed one."""
_GPU_IF_ANY_RE = re.compile(
    r"(?<!\w)(?:can|could|may|might|will|would)\s+(?:also\s+)?(?:use|benefit\s+from|"
    rf"take\s+advantage\s+of)\s+(?:a\s+|an\s+|the\s+|some\s+|one\s+)?{_GPU_WORDS}\s+"
    r"(?:if|when|where)\s+(?:there\s+is\s+one|there\s+are\s+(?:some|any)|one\s+is\s+(?:available|"
    r"there)|(?:they\s+are\s+|it\s+is\s+)?(?:available|present)|any)(?!\w)",
    FLAGS,
)
"""GPUs used when present: "can use a GPU if there is one": an option, and no GPU count."""
_GPU_ELSE_CPU_RE = re.compile(
    rf"(?<!\w)if\s+(?:there\s+(?:is|are)\s+no|no)\s+{_GPU_WORDS}(?:\s+(?:is|are))?"
    r"(?:\s+(?:available|free|left))?\s*,?\s*(?:then\s+)?(?:(?:the\s+|a\s+|plain\s+)?"
    r"(?:cpus?|cpu\s+nodes?|cpu\s+only)(?:\s+(?:is|are|will\s+be|would\s+be))?"
    r"(?:\s+(?:also|too|still|equally))?\s+(?:ok|okay|fine|acceptable|good|enough|works?)"
    r"|(?:we\s+|i\s+|it\s+)?(?:can\s+|will\s+)?(?:run|use|fall\s+back\s+to)\s+(?:on\s+)?"
    r"(?:the\s+)?(?:cpus?|cpu\s+nodes?))(?!\w)",
    FLAGS,
)
"""CPU as the fallback when no GPU is there ("if there is no GPU, CPU is also OK"): the GPU is
an option, never an exclusion."""
_GPU_IF_ONE_ELSE_CPU_RE = re.compile(
    rf"(?<![\w-])(?:(?P<one>a|one|a\s+single|single)\s+|the\s+)?{_GPU_WORDS}(?![\w-])"
    r"[^.;!?]{0,50}?\s(?:if|when|where)\s+(?:there'?s|there\s+is|ther'?s|theres|there\s+are"
    r"|the\s+(?:node|machine|host|box)\s+has|it\s+has|one\s+is|they\s+are|it\s+is|you\s+have|"
    r"available|any)(?!\w)[^.;!?]{0,50}?(?:otherwise|else|but|or|and\s+if\s+not|if\s+not)(?!\w)"
    r"[^.;!?]{0,40}?(?<![\w-])(?:cpus?|cpu[\s-]only|processors?)(?![\w-])",
    FLAGS,
)
"""A GPU used when the node has one, the CPU otherwise: "it uses one GPU if there's one on the
node, otherwise it runs on CPU", "one GPU speeds up the step if the node has one, but the CPU
path works too". The GPU is an option ("one GPU" still counts one), never a must."""
_OPTIONAL_HEADING_RE = re.compile(
    r"^[ \t#>*_-]*(?:nice[\s-]+to[\s-]+haves?|optional(?:\s+(?:extras|items|requirements))?|"
    r"(?:if|when)\s+available|wish[\s-]*list|bonus|should\s+have|could\s+have|preferred|"
    r"would\s+be\s+nice)[ \t*_]*:?[ \t*_]*$",
    FLAGS | re.M,
)
"""A heading over optional items ("### Nice to have", "NICE TO HAVE:", "Optional:")."""
_OPTIONAL_LINE_RE = re.compile(
    r"^[ \t#>*_+\u2022-]*(?:nice[\s-]+to[\s-]+haves?|wish[\s-]*list|would\s+be\s+nice)"
    r"[ \t*_]*:[ \t*_]*(?=\S)[^\n]*$",
    FLAGS | re.M,
)
"""A line that is one optional item ("* Nice to have: Score-P for profiling")."""
_NICE_NOT_NEEDED_RE = re.compile(
    rf"(?<![\w-]){_ARTICLE}{_FEATURE}{_MORE}\s+(?:would\s+be|is|are|would\s+help)\s+"
    r"(?:(?:nice|good|great|welcome|helpful|useful|a\s+plus|nice\s+to\s+have)\s*,?\s*)?"
    r"but\s+(?:(?:is|are|it'?s|it\s+is)\s+)?(?:not|isn'?t|aren'?t)\s+(?:strictly\s+|really\s+)?"
    r"(?:required|needed|necessary|essential|mandatory|a\s+must)(?!\w)",
    FLAGS,
)
"""A feature wanted but said not to be needed in one breath ("InfiniBand would be nice but
isn't required"): an optional item, neither a requirement nor an exclusion."""
_ITEM_RE = re.compile(r"[ \t]*(?:[-*+\u2022]|\d{1,2}[.)])[ \t]+(?:\[[ x]\][ \t]+)?[^\n]*(?:\n|$)")
_GPU_ITEM_RE = re.compile(rf"(?<![\w-]){_GPU_WORDS}(?![\w-])", FLAGS)
_GPU_WELCOME_RE = re.compile(
    rf"(?<!\w)(?:(?:can|could|may|might|will|would)\s+(?:also\s+)?(?:use|benefit\s+from|"
    rf"take\s+advantage\s+of|exploit)\s+(?:a\s+|an\s+|the\s+|some\s+)?{_GPU_WORDS}"
    rf"|{_GPU_WORDS}\s+(?:would|will|could|can|might)\s+(?:help|speed|accelerate|be\s+(?:nice|"
    r"faster|better|welcome|useful))"
    r"|if\s+(?:there\s+is\s+one|there\s+are\s+(?:some|any)|one\s+is\s+available|"
    r"(?:they\s+are\s+|it\s+is\s+)?available|any)"
    rf"|faster\s+(?:with|on)\s+(?:a\s+)?{_GPU_WORDS}|(?:runs?|is|be)\s+(?:just\s+|only\s+)?slower"
    r"|(?:they|it|that)\s+(?:would|will|could|might)\s+(?:help|speed)"
    r"|(?:becomes?|became|gets?|goes|would\s+be|will\s+be)\s+(?:much\s+|a\s+lot\s+|a\s+bit\s+)?"
    r"faster"
    r"|nice\s+to\s+have|a\s+(?:nice\s+)?(?:bonus|plus)|welcome|optional)(?!\w)",
    FLAGS,
)
"""In the same sentence as "GPUs are not required": GPUs are an option, not excluded ("the
policy can use a GPU if there is one, but GPUs are not required", "GPU is not a must, but with
one A100 the search becomes faster")."""
_CPU_SUBJECT = (
    r"(?:(?:a\s+|the\s+)?cpu[\s-]*only(?:\s+(?:runs?|mode|execution|version|build))?"
    r"|(?:the\s+)?(?:cpus?|cpu\s+(?:nodes?|mode|version|build)))"
)
_SLOW_TAIL = (
    r"(?:\s*,?\s*(?:(?:it'?s|it\s+is|that'?s|but|just|only|though|although)\s+)+"
    r"(?:(?:it|that)\s+)?(?:(?:becomes?|gets?|is|runs?|will\s+be|would\s+be)\s+)?"
    r"(?:just\s+|much\s+|a\s+lot\s+|a\s+bit\s+|very\s+|really\s+|quite\s+)?(?:slower|slow|slowly))?"
)
_CPU_FALLBACK_RE = re.compile(
    rf"(?<![\w-]){_CPU_SUBJECT}\s+(?:(?:would|will|could|can|should|might|is|are)\s+)?"
    r"(?:also|still|equally)\s+(?:be\s+)?(?:work|works|do|does|run|runs|fine|ok|okay|possible|"
    rf"acceptable|feasible|an\s+option)(?!\w){_SLOW_TAIL}"
    rf"|(?<![\w-]){_CPU_SUBJECT}\s+(?:(?:would|will|could|can|should|might)\s+(?:be\s+)?"
    r"|(?:is|are)\s+)?(?:work|works|do|fine|ok|okay|possible|acceptable|feasible|an\s+option)"
    r"(?:\s+(?:too|as\s+well)(?!\w)|(?=\s*,?\s*(?:it'?s|it\s+is|but|just|only)\s)"
    rf"{_SLOW_TAIL.removesuffix('?')})"
    r"|(?<!\w)(?:(?:it'?s|it\s+is|that'?s|that\s+is|would\s+be|is)\s+(?:also\s+)?"
    r"(?:fine|ok|okay|acceptable|possible|alright|no\s+problem)|(?:we\s+|i\s+)?(?:are\s+|am\s+)?"
    r"happy|(?:we|i)\s+(?:can|could)(?:\s+also)?)\s+(?:(?:for\s+(?:me|us)\s+)?to\s+)?"
    r"(?:go|run|fall\s+back\s+to|switch\s+to|drop\s+to)\s+(?:on\s+)?"
    r"(?:cpu[\s-]*only|(?:the\s+)?cpus?|cpu\s+nodes?)(?![\w-])",
    FLAGS,
)
"""CPU-only offered as the fallback, never as a restriction: "CPU-only would also work, it's
just slower", "CPU only is also possible but it becomes slow", "CPU nodes are fine too", "it's
fine to go CPU-only if the GPU queue is long", "we can fall back to CPU only". Read before
"CPU only" is, so the GPUs asked for elsewhere become an option rather than being excluded."""
_NO_INTERNET_RE = re.compile(
    r"(?<![\w-])(?:(?:nodes?|machines?|hosts?|servers?)\s+)?(?:without|with\s+no|no|w/o)\s+"
    r"(?:(?:any|outbound|outgoing|external|public)\s+)?(?:internet|web|outside[\s-]+world)"
    r"(?:\s+(?:access|connection|connectivity))?(?![\w-])",
    FLAGS,
)
"""Nodes cut off from the internet ("must run on nodes without internet access"): a need no
field holds, quoted; "internet" is no network fabric, and its absence no exclusion of a fast
network."""
_CANNOT_DO_RE = re.compile(
    r"(?<!\w)(?:can'?t|cannot|can\s+not|won'?t|will\s+not|doesn'?t|does\s+not|don'?t|do\s+not|"
    r"isn'?t\s+possible\s+to|is\s+not\s+possible\s+to|impossible\s+to|unable\s+to)\s+"
    r"(?:[a-z]+\s+){0,3}$",
    FLAGS,
)
"""Before "without": "it can't run without a GPU", "won't work without MPI" ask for the feature;
the double negative is a need, never an exclusion."""


def needed_without(text: str, m: re.Match[str]) -> bool:
    """Whether a "without <feature>" match follows "can't run" and so asks for the feature."""
    return m.group(0)[:1] in "wW" and bool(
        _CANNOT_DO_RE.search(text, max(0, m.start() - 40), m.start())
    )


_CONDITION_RE = re.compile(
    r"(?<![\w'\u2019])(?:if|in\s+case|when|whenever)(?:\s+[^\W\d_][\w'\u2019-]*){0,5}\s*$", FLAGS
)
"""A condition opened in the same clause, up to five words before: "if there is no", "in case
the site has no", "if you do not have", "if not"."""


def in_condition(text: str, start: int) -> bool:
    """Whether the negation at ``start`` is the condition of an "if" ("if there is no MPI,
    abort"; "if the site has no Singularity we cannot run"). Absence as a condition asks for
    the feature: read as "not needed", it would send the job to a site that lacks it."""
    return bool(_CONDITION_RE.search(text, max(0, start - 60), start))


_HARD_NO_RE = re.compile(r"(?:no|without|w/o|zero|non|neither)[\s-]", FLAGS)
_SENTENCE_END_RE = re.compile(r"[.!?]\s|\n\s*\n|$")


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence around ``text[start:end]``."""
    begin = max(text.rfind(". ", 0, start), text.rfind("\n\n", 0, start), -1) + 1
    stop = _SENTENCE_END_RE.search(text, end)
    return text[begin : stop.start() if stop else len(text)]


def extract_exclusions(scanner: Scanner, draft: Draft) -> None:
    """Negated features become exclusions; their words are never read as demands."""

    def optional_gpu(m: re.Match[str]) -> bool:
        draft.compute.gpu_or = True
        draft.compute.gpu_mentioned = True
        return True

    def cpu_fallback(m: re.Match[str]) -> bool:
        if in_condition(scanner.original, m.start()):
            return False  # "if CPU-only would also work, say so": a question, not an offer
        draft.compute.cpu_fallback = True  # GPUs named elsewhere become an option
        return True

    def quoted(m: re.Match[str]) -> bool:
        draft.unresolved.append(" ".join(m.group(0).split()))
        return True

    def one_gpu(m: re.Match[str]) -> bool:
        if m.group("one"):
            draft.compute.gpus.append(Count(1, m.group(0), per_node=False))
        return True

    def handle(m: re.Match[str]) -> bool:
        if needed_without(scanner.text, m):
            return False  # "it can't run without a GPU": the GPU is needed
        if in_condition(scanner.original, m.start()):
            return False  # "if there is no MPI, abort": MPI is needed
        if (
            not _HARD_NO_RE.match(m.group(0))
            and _SPELLING.get(_words(m.group(0))) is Feature.GPU
            and _GPU_WELCOME_RE.search(_sentence(scanner.original, m.start(), m.end()))
        ):
            return optional_gpu(m)  # "can use a GPU if there is one, but GPUs are not required"
        found = False
        for said in _ONE_FEATURE_RE.finditer(m.group(0)):
            feature = _SPELLING.get(_words(said.group(0)))
            if feature is None:
                continue
            found = True
            if _words(said.group(0)) in _NAMED_FABRICS:
                draft.refused_fabrics.append(said.group(0))  # "but not Slingshot"
                continue
            draft.exclude(feature)
            if feature is Feature.GPU and draft.compute.cpu_only is None:
                draft.compute.cpu_only = Mention(True, m.group(0))
        return found

    def optional_item(start: int, end: int) -> None:
        """An item that is wanted, not needed: a GPU in it makes GPUs an option; nothing else
        in it is a requirement, so a site is never judged on it ("- a node-local NVMe cache",
        "- a fast interconnect" under "Nice to have")."""
        for gpu in _GPU_ITEM_RE.finditer(scanner.text, start, end):
            optional_gpu(gpu)  # "- GPU acceleration" under "Nice to have"
        scanner.blank(start, end)

    for heading in list(_OPTIONAL_HEADING_RE.finditer(scanner.text)):
        at = heading.end() + 1
        while item := _ITEM_RE.match(scanner.text, at):  # the bullets under the heading
            optional_item(item.start(), item.end())
            at = item.end()
        if at > heading.end() + 1:
            scanner.blank(*heading.span())  # the heading is structure, not a requirement
    if "nice" in scanner.text.lower() or "wish" in scanner.text.lower():
        for line in list(_OPTIONAL_LINE_RE.finditer(scanner.text)):
            optional_item(*line.span())
    if "but" in scanner.text.lower():
        scanner.take(_NICE_NOT_NEEDED_RE, lambda m: optional_item(*m.span()) or True)
    scanner.take(_GPU_ELSE_CPU_RE, optional_gpu)
    if "cpu" in scanner.text.lower():  # after the "if there is no GPU, CPU is fine" above
        scanner.take(_CPU_FALLBACK_RE, cpu_fallback)
    scanner.take(_NO_INTERNET_RE, quoted)
    scanner.take(_GPU_HELPS_BUT_RE, lambda m: optional_gpu(m) and one_gpu(m))
    scanner.take(_GPU_IF_ANY_RE, optional_gpu)
    if "cpu" in scanner.text.lower() or "processor" in scanner.text.lower():
        scanner.take(_GPU_IF_ONE_ELSE_CPU_RE, lambda m: optional_gpu(m) and one_gpu(m))
    scanner.take(_NEGATED_RE, handle)


def _words(said: str) -> str:
    """A feature's spelling as :data:`_SPELLING` keys it, or for a phrase its first feature."""
    first = _ONE_FEATURE_RE.search(said)
    found = first.group(0) if first else said
    return " ".join(found.lower().replace("-", " ").split())
