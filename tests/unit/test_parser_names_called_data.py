"""Names the text itself calls data, a reference, a method's parameters or a place of the site.

A request names many things shaped like packages that are no software to install: the data a
model is trained or evaluated on, the reference reads are aligned against, a force field, a
file format, a partition or an account. The parser sets such a word aside only on evidence in
the text: a cue noun after it ("the Quorvex treebank", "Zentil files"), a cue noun or a
scheduler option before it ("checkpoint 'mytune-v2'", "-p gpu_long"), or a verb of training,
evaluating or aligning whose object it is after "on" or "against" ("trained on Vextra 2023 and
Plomo-5"). The names below are made up, so that no list of famous data sets can pass them.

Fail-safe: a word set aside is quoted in ``unresolved`` (no site answers READY on it), never
dropped; a package named beside the cue, or a tool that owns the noun ("the Kraken2 database"),
stays a package.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from endpoint_plugins.parsing.parser import parse_requirements

NOW = datetime(2026, 12, 1, 9, tzinfo=UTC)


def _names(text: str) -> set[str]:
    return {s.name for s in parse_requirements(text, now=NOW).software}


def _quoted(text: str, word: str) -> bool:
    req = parse_requirements(text, now=NOW)
    return any(word.lower() in u.lower() for u in (*req.unresolved, *req.unparsed))


SET_ASIDE = [
    # a cue noun after the name, alone or ending a list of names
    ("We parse the Quorvex and Talmiro treebanks with spaCy 3.7 on 1 node.", "quorvex"),
    ("We parse the Quorvex and Talmiro treebanks with spaCy 3.7 on 1 node.", "talmiro"),
    ("The inputs are Zentil files, about 2 TB, for astropy 6.1 on one node.", "zentil"),
    ("Fine-tune with PyTorch 2.3 on the brindle7 split, 4 GPUs for 6 hours.", "brindle7"),
    ("Catalogues come as Varnex and Columbo tables; we need healpy and 8 hours.", "varnex"),
    ("Spike protein in the Marwick36x force field, GROMACS 2024 on 2 GPUs.", "marwick36x"),
    ("Please use the Plenor-9 data set with scikit-learn on 1 node for 3 hours.", "plenor-9"),
    ("Reads go to the Tessaly reference genome with bwa, 24 cores.", "tessaly"),
    # a cue noun or a scheduler option before the name
    ("Score our SFT checkpoint 'mytune-v2' with vLLM 0.6 on 8 H100 GPUs.", "mytune-v2"),
    ("-p gpu_verylong -A prj_quasar7 ; GROMACS 2024 on 2 nodes, 2 GPUs", "gpu_verylong"),
    ("-p gpu_verylong -A prj_quasar7 ; GROMACS 2024 on 2 nodes, 2 GPUs", "prj_quasar7"),
    ("Bill it to account zk-photon9, LAMMPS on 4 nodes for 12 hours.", "zk-photon9"),
    # the object of a verb of training, evaluating, aligning after "on"/"against"
    ("nnUNet 2.4 + torch 2.2, training on Vextra 2023 and Plomo-5, 1 node, 2 GPUs", "vextra"),
    ("nnUNet 2.4 + torch 2.2, training on Vextra 2023 and Plomo-5, 1 node, 2 GPUs", "plomo-5"),
    ("We evaluate three models on Krellbench, QuanSum and Ogalo-QA with lm-eval.", "krellbench"),
    ("We evaluate three models on Krellbench, QuanSum and Ogalo-QA with lm-eval.", "quansum"),
    ("We evaluate three models on Krellbench, QuanSum and Ogalo-QA with lm-eval.", "ogalo-qa"),
    (
        "im traning a graph net on the zubra-graph200m graph using DGL 2.1, 2 GPUs",
        "zubra-graph200m",
    ),
    ("Aligns sample 7 against Horvath38 with bwa 0.7.17 and samtools 1.19, 24 cores", "horvath38"),
    ("We quantify all tissues against Lindqvist 44 with Salmon, 32 cores.", "lindqvist"),
    ("Our GNN scored 71.3 on Peltrix after tuning; now retrain with PyTorch on 4 GPUs.", "peltrix"),
    ("MOM6 in a regional setup, forced by Ravenna-do and validated later, 10 nodes.", "ravenna-do"),
]


@pytest.mark.parametrize(
    "text",
    [
        "-p gpu_verylong -A prj_quasar7 -N 2 --time=4:00:00 ; GROMACS 2024, 2 GPUs",
        "sbatch -p gpu_verylong -A prj_quasar7 --nodes=2 --time=4:00:00 run.sh",
    ],
)
def test_a_partition_or_account_read_as_scheduler_flags_is_no_package(text: str) -> None:
    """Among Slurm flags, ``-p``/``-A`` values are bookkeeping, read and ignored like
    ``--partition``/``--account`` (docs/requirements.md), never package names."""
    names = _names(text)
    assert not {"gpu_verylong", "gpu-verylong", "prj_quasar7", "prj-quasar7"} & names
    assert "gromacs" in names or "GROMACS" not in text


@pytest.mark.parametrize(("text", "word"), SET_ASIDE)
def test_a_name_the_text_calls_data_is_quoted_not_a_package(text: str, word: str) -> None:
    assert not {word, word.replace("_", "-")} & _names(text)
    assert _quoted(text, word)  # never dropped: quoted, so no site answers READY on it


KEPT = [
    # the package beside the cue words stays
    ("Train with PyTorch on the ImageNet data set, 8 GPUs for a day.", "pytorch"),
    ("Fine-tune with Zarkflow 1.4 on the brindle7 split, 4 GPUs.", "zarkflow"),
    ("We evaluate with lm-eval 0.4 on 1 node, 8 GPUs.", "lm-eval"),
    ("Aligned against GRCh38 with bwa 0.7.17 on 24 cores.", "bwa"),
    ("Trained on 4 nodes using Horovod 0.28 and TensorFlow 2.15.", "horovod"),
    # a tool that owns the noun is named as well as its data
    ("The standard Kraken2 database plus Bracken needs 700 GB of RAM.", "kraken2"),
    ("The standard Kraken2 database plus Bracken needs 700 GB of RAM.", "bracken"),
    ("Please stage the AlphaFold weights on local NVMe; AlphaFold 3.0.1 on 1 A100.", "alphafold"),
    # "on" or "against" without a verb of data: a place to run or a dependency
    ("Run Quorvex 2.1 on 4 nodes, 6 hours.", "quorvex"),
    ("Compile Zentilcode 3.2 against OpenBLAS, 2 nodes.", "openblas"),
    ("We run tests with pytest on 1 node.", "pytest"),
    ("Our solver is tested against libzorpack 2.3 and linked against it, 2 nodes.", "libzorpack"),
    ("Validation runs on Quorvex 2.1 over 4 nodes.", "quorvex"),
    ("Our ensembles are driven by the zephyrcore framework, 2 nodes.", "zephyrcore"),
]


def test_a_package_beside_the_cue_words_stays_a_package() -> None:
    """The cue words mark only the name they point at; the tool named beside them, a tool that
    owns the noun, and a package after "on" or "against" with no verb of data all stay."""
    lost = [(text, package) for text, package in KEPT if package not in _names(text)]
    assert lost == []
