"""The words the request parser knows, as plain tables.

Everything here is data: the parser builds its patterns from these tables, so teaching it a new
package, runtime or unit is a one-line change here and never a change to the grammar. Names on
the left of each mapping are the canonical spellings that go on the wire; they follow the
spellings the negotiation checks use (``openmpi``, ``intel-mpi``, ``apptainer``...), so a parsed
request needs no second round of normalisation at the site.

Multi-word aliases are written with single spaces or hyphens; the parser lets any run of spaces,
hyphens or underscores (or none at all) stand for that separator, so ``open mpi`` also matches
``openmpi``, ``open-mpi`` and ``open_mpi``.
"""

from __future__ import annotations

from providers.wire.requirements import Comparator, Fabric, StorageKind, Urgency

# -- software --------------------------------------------------------------------------------

SOFTWARE: dict[str, tuple[str, ...]] = {
    # languages, interpreters and toolchains
    "python": ("python", "cpython"),
    "julia": ("julia",),
    "r": ("r-base", "rstats", "gnu r"),
    "matlab": ("matlab",),
    "octave": ("octave", "gnu octave"),
    "java": ("java", "openjdk", "jdk", "jre"),
    "go": ("golang",),
    "rust": ("rustc",),
    "perl": ("perl",),
    "ruby": ("ruby",),
    "nodejs": ("nodejs", "node.js"),
    "lua": ("lua",),
    "mathematica": ("mathematica", "wolfram mathematica"),
    "gcc": ("gcc", "gnu compiler", "gnu compilers", "g++", "gfortran"),
    "llvm": ("llvm", "clang", "flang"),
    "intel-oneapi-compilers": (
        "intel compiler",
        "intel compilers",
        "oneapi compilers",
        "icc",
        "icx",
        "ifort",
        "ifx",
    ),
    "nvhpc": ("nvhpc", "nvidia hpc sdk", "hpc sdk", "pgi", "nvfortran"),
    "aocc": ("aocc",),
    "cmake": ("cmake",),
    "spack": ("spack",),
    "conda": ("conda", "anaconda", "miniconda", "miniforge", "mamba", "micromamba"),
    "git": ("git",),
    # GPU and accelerator stacks
    "cuda": ("cuda", "cuda toolkit", "nvcc"),
    "cudnn": ("cudnn",),
    "nccl": ("nccl",),
    "osu-micro-benchmarks": ("osu micro benchmarks", "osu benchmarks"),
    "rocm": ("rocm", "hip"),
    "opencl": ("opencl",),
    "tensorrt": ("tensorrt",),
    "kokkos": ("kokkos",),
    "sycl": ("sycl", "dpc++"),
    # numerical libraries
    "openblas": ("openblas",),
    "lapack": ("lapack",),
    "scalapack": ("scalapack",),
    "mkl": ("mkl", "intel mkl", "onemkl"),
    "fftw": ("fftw", "fftw3"),
    "petsc": ("petsc",),
    "slepc": ("slepc",),
    "trilinos": ("trilinos",),
    "hypre": ("hypre",),
    "p4est": ("p4est",),
    "mumps": ("mumps",),
    "superlu": ("superlu",),
    "metis": ("metis",),
    "parmetis": ("parmetis",),
    "scotch": ("scotch", "pt-scotch"),
    "eigen": ("eigen", "eigen3"),
    "boost": ("boost",),
    "gsl": ("gsl",),
    "arpack": ("arpack", "arpack-ng"),
    "magma": ("magma",),
    "suitesparse": ("suitesparse",),
    "sundials": ("sundials",),
    "elpa": ("elpa",),
    "libxc": ("libxc",),
    # I/O and data formats
    "hdf5": ("hdf5",),
    "netcdf": ("netcdf", "netcdf4"),
    "netcdf-fortran": ("netcdf-fortran",),
    "pnetcdf": ("pnetcdf", "parallel-netcdf"),
    "adios2": ("adios2", "adios"),
    # MPI-adjacent libraries and tools
    "mpi4py": ("mpi4py",),
    "ucx": ("ucx",),
    "libfabric": ("libfabric", "ofi"),
    "valgrind": ("valgrind",),
    "gdb": ("gdb",),
    "linaro-forge": ("linaro forge", "arm forge", "ddt"),
    "tau": ("tau",),
    "score-p": ("score-p", "scorep"),
    "hpctoolkit": ("hpctoolkit",),
    "nsight-systems": ("nsight", "nsight systems", "nsys"),
    # scientific Python
    "numpy": ("numpy",),
    "scipy": ("scipy",),
    "pandas": ("pandas",),
    "polars": ("polars",),
    "pyarrow": ("pyarrow",),
    "matplotlib": ("matplotlib",),
    "h5py": ("h5py",),
    "numba": ("numba",),
    "dask": ("dask",),
    "xarray": ("xarray",),
    "scikit-learn": ("scikit-learn", "sklearn"),
    "jupyter": ("jupyter", "jupyter notebook"),
    "jupyterlab": ("jupyterlab", "jupyter lab", "jupyter-lab"),
    "ipython": ("ipython",),
    "cython": ("cython",),
    "sympy": ("sympy",),
    "networkx": ("networkx",),
    "astropy": ("astropy",),
    "biopython": ("biopython",),
    "opencv": ("opencv", "cv2", "opencv-python"),
    "pillow": ("pillow", "pil"),
    "cupy": ("cupy",),
    # machine learning
    "pytorch": ("pytorch", "torch", "py-torch"),
    "torchvision": ("torchvision",),
    "tensorflow": ("tensorflow", "tf", "tensorflow-gpu"),
    "keras": ("keras",),
    "jax": ("jax", "jaxlib"),
    "transformers": ("hugging face transformers", "huggingface transformers"),
    "deepspeed": ("deepspeed",),
    "horovod": ("horovod",),
    "onnx": ("onnx",),
    "onnxruntime": ("onnxruntime", "onnx runtime"),
    "xgboost": ("xgboost",),
    "lightgbm": ("lightgbm",),
    "ray": ("ray",),
    "pytorch-lightning": ("pytorch lightning", "lightning"),
    "vllm": ("vllm",),
    "megatron-lm": ("megatron-lm", "megatron"),
    "llama.cpp": ("llama.cpp", "llamacpp"),
    "spacy": ("spacy",),
    # molecular dynamics and chemistry
    "lammps": ("lammps",),
    "gromacs": ("gromacs", "gmx"),
    "namd": ("namd",),
    "amber": ("amber", "ambertools", "pmemd"),
    "charmm": ("charmm",),
    "openmm": ("openmm",),
    "hoomd-blue": ("hoomd-blue", "hoomd"),
    "dl_poly": ("dl_poly", "dl-poly", "dlpoly"),
    "plumed": ("plumed",),
    "nwchem": ("nwchem",),
    "cp2k": ("cp2k",),
    "quantum-espresso": ("quantum espresso", "quantum-espresso", "qe", "pw.x"),
    "vasp": ("vasp",),
    "abinit": ("abinit",),
    "siesta": ("siesta",),
    "castep": ("castep",),
    "gaussian": ("gaussian", "g16", "g09"),
    "orca": ("orca",),
    "q-chem": ("q-chem", "qchem"),
    "gamess": ("gamess", "gamess-us"),
    "molpro": ("molpro",),
    "psi4": ("psi4",),
    "xtb": ("xtb",),
    "cpmd": ("cpmd",),
    "wannier90": ("wannier90",),
    "berkeleygw": ("berkeleygw",),
    "qmcpack": ("qmcpack",),
    "gpaw": ("gpaw",),
    "ase": ("ase",),
    "pymatgen": ("pymatgen",),
    "rdkit": ("rdkit",),
    "mdanalysis": ("mdanalysis",),
    "packmol": ("packmol",),
    "vmd": ("vmd",),
    "pymol": ("pymol",),
    "ovito": ("ovito",),
    # life sciences
    "blast": ("blast", "blast+", "ncbi blast"),
    "bwa": ("bwa",),
    "bowtie2": ("bowtie2", "bowtie"),
    "samtools": ("samtools",),
    "bcftools": ("bcftools",),
    "bedtools": ("bedtools",),
    "gatk": ("gatk",),
    "hmmer": ("hmmer",),
    "alphafold": ("alphafold", "alphafold2", "alphafold3"),
    "rosetta": ("rosetta",),
    "relion": ("relion",),
    "cryosparc": ("cryosparc",),
    "beast": ("beast",),
    "raxml": ("raxml",),
    "iq-tree": ("iq-tree", "iqtree", "iqtree2"),
    "mrbayes": ("mrbayes",),
    "spades": ("spades",),
    "minimap2": ("minimap2",),
    "hisat2": ("hisat2",),
    "star": ("star aligner", "rna-star"),
    "salmon": ("salmon",),
    "trinity": ("trinityrnaseq",),
    "kallisto": ("kallisto",),
    "fastqc": ("fastqc",),
    "trimmomatic": ("trimmomatic",),
    "cellranger": ("cellranger", "cell ranger"),
    "nextflow": ("nextflow",),
    "snakemake": ("snakemake",),
    # engineering and CFD
    "openfoam": ("openfoam", "open foam"),
    "su2": ("su2",),
    "ansys-fluent": ("ansys fluent", "fluent"),
    "ansys": ("ansys",),
    "star-ccm+": ("star-ccm+", "starccm+", "starccm"),
    "comsol": ("comsol",),
    "abaqus": ("abaqus",),
    "ls-dyna": ("ls-dyna", "lsdyna"),
    "nek5000": ("nek5000",),
    "nekrs": ("nekrs",),
    "code_saturne": ("code_saturne", "code saturne"),
    # weather, climate and earth science
    "wrf": ("wrf",),
    "wps": ("wps",),
    "mpas": ("mpas",),
    "cesm": ("cesm",),
    "e3sm": ("e3sm",),
    "mom6": ("mom6",),
    "esmf": ("esmf",),
    "cdo": ("cdo",),
    "nco": ("nco",),
    "ncl": ("ncl",),
    # physics and astronomy
    "geant4": ("geant4",),
    "root": ("cern root",),
    "gadget4": ("gadget4", "gadget-4"),
    "enzo": ("enzo",),
    "ramses": ("ramses",),
    # visualisation and media
    "paraview": ("paraview",),
    "visit": ("llnl visit",),
    "blender": ("blender",),
    "ffmpeg": ("ffmpeg",),
    "imagemagick": ("imagemagick",),
    # data platforms
    "spark": ("apache spark", "pyspark"),
    "hadoop": ("hadoop",),
    # statistics, optimisation, speech and imaging
    "stan": (),
    "gurobi": ("gurobi",),
    "kaldi": ("kaldi",),
    "fiji": ("fiji",),
}
"""Canonical software name -> the spellings that mean it (the canonical name need not repeat)."""

SOFTWARE_NEEDS_VERSION: frozenset[str] = frozenset(
    """
    go rust root r visit spark star arrow lightning fluent hip ray boost magma beast orca
    amber tau ase eigen salmon rosetta trinity stan fiji
    """.split()
)
"""Spellings that are also ordinary words: software only when a version follows.

"go 1.22" is the Go toolchain, "go ahead" is not; "boost 1.84" is the library, "a boost" is not.
A spelling here may still be a canonical name or alias in :data:`SOFTWARE`.
"""

VARIANT_WORDS: dict[str, str] = {
    "cuda": "cuda",
    "rocm": "rocm",
    "hip": "rocm",
    "kokkos": "kokkos",
    "sycl": "sycl",
    "opencl": "opencl",
    "openmp": "openmp",
    "plumed": "plumed",
    "mpi": "mpi",
    "elpa": "elpa",
    "hypre": "hypre",
    "fortran": "fortran",
    "python": "python",
    "hdf5": "hdf5",
    "netcdf": "netcdf",
    "scalapack": "scalapack",
    "mkl": "mkl",
    "egl": "egl",
    "osmesa": "osmesa",
    "openacc": "openacc",
    "libxc": "libxc",
    "pnetcdf": "pnetcdf",
    "adios2": "adios2",
    "mumps": "mumps",
    "metis": "metis",
    "parmetis": "parmetis",
    "ptscotch": "ptscotch",
    "beagle": "beagle",
    "libint": "libint",
    "p4est": "p4est",
    "trilinos": "trilinos",
    "double precision": "double",
    "64-bit indices": "int64",
    "64-bit index": "int64",
    "64-bit indexing": "int64",
    "64-bit integers": "int64",
    "64-bit ints": "int64",
    "complex scalars": "complex",
    "complex scalar": "complex",
}
"""Build options a request may tie to a package, to Spack's variant names (HIP is ROCm).

Beyond the GPU back ends, these are variants common across Spack's HPC packages: rendering back
ends (ParaView and VTK ``+egl``/``+osmesa``), I/O libraries (``+hdf5``, ``+netcdf``,
``+pnetcdf``, ``+adios2``), solvers and partitioners (``+mumps``, ``+metis``, ``+parmetis``,
``+ptscotch``), the electronic-structure add-ons (``+elpa``, ``+libxc``, ``+scalapack``), and
the BEAGLE likelihood library of the phylogenetics codes (MrBayes and BEAST ``+beagle``).
A few options are said in words, not a library's name: "double precision" (``+double``),
"64-bit indices" (PETSc's and hypre's ``+int64``), "complex scalars" (``+complex``); such a
phrase names no package, so tied to one it can only be how that package is built. Keys with
blanks or hyphens are looked up squashed (see ``software._variant``)."""

SOFTWARE_CASE_SENSITIVE: dict[str, str] = {"R": "r", "ROOT": "root"}
"""Spellings that are software even without a version, but only in this exact case: a lone
capital R is the language, a lone "r" is not."""

# -- version constraints ---------------------------------------------------------------------

VERSION_SYMBOLS: dict[str, Comparator] = {
    ">=": Comparator.GE,
    "=>": Comparator.GE,
    "\u2265": Comparator.GE,
    "~=": Comparator.GE,
    "<=": Comparator.LE,
    "=<": Comparator.LE,
    "\u2264": Comparator.LE,
    "==": Comparator.EQ,
    "=": Comparator.EQ,
    "!=": Comparator.NE,
    "\u2260": Comparator.NE,
    ">": Comparator.GT,
    "<": Comparator.LT,
}
"""Operator symbols. ``~=`` (compatible release) is read as its lower bound, ``>=``."""

VERSION_WORDS_BEFORE: dict[str, Comparator] = {
    "nothing older than": Comparator.GE,
    "nothing earlier than": Comparator.GE,
    "nothing before": Comparator.GE,
    "nothing below": Comparator.GE,
    "no earlier than": Comparator.GE,
    "no lower than": Comparator.GE,
    "not lower than": Comparator.GE,
    "not earlier than": Comparator.GE,
    "not before": Comparator.GE,
    "not below": Comparator.GE,
    "no less than": Comparator.GE,
    "greater than or equal to": Comparator.GE,
    "at minimum": Comparator.GE,
    "minimum of": Comparator.GE,
    "newer than or equal to": Comparator.GE,
    "at least": Comparator.GE,
    "minimum": Comparator.GE,
    "min": Comparator.GE,
    "no older than": Comparator.GE,
    "not older than": Comparator.GE,
    "newer than": Comparator.GT,
    "later than": Comparator.GT,
    "greater than": Comparator.GT,
    "higher than": Comparator.GT,
    "more recent than": Comparator.GT,
    "above": Comparator.GT,
    "over": Comparator.GT,
    "at most": Comparator.LE,
    "up to": Comparator.LE,
    "maximum": Comparator.LE,
    "max": Comparator.LE,
    "no newer than": Comparator.LE,
    "not newer than": Comparator.LE,
    "no later than": Comparator.LE,
    "older than": Comparator.LT,
    "earlier than": Comparator.LT,
    "lower than": Comparator.LT,
    "less than": Comparator.LT,
    "below": Comparator.LT,
    "under": Comparator.LT,
    "exactly": Comparator.EQ,
    "other than": Comparator.NE,
    "anything but": Comparator.NE,
    "anything except": Comparator.NE,
    "anything other than": Comparator.NE,
    "excluding": Comparator.NE,
    "except": Comparator.NE,
    "not": Comparator.NE,
}
"""Operator words written before a version ("at least 3.8", "older than 2.0")."""

VERSION_WORDS_AFTER: dict[str, Comparator] = {
    "or newer": Comparator.GE,
    "or later": Comparator.GE,
    "or above": Comparator.GE,
    "or higher": Comparator.GE,
    "or greater": Comparator.GE,
    "or more recent": Comparator.GE,
    "or better": Comparator.GE,
    "and newer": Comparator.GE,
    "and later": Comparator.GE,
    "and above": Comparator.GE,
    "and up": Comparator.GE,
    "onwards": Comparator.GE,
    "onward": Comparator.GE,
    "or newer releases": Comparator.GE,
    "or any later version": Comparator.GE,
    "or a later version": Comparator.GE,
    "or a newer version": Comparator.GE,
    "or newer versions": Comparator.GE,
    "or later versions": Comparator.GE,
    "at minimum": Comparator.GE,
    "minimum": Comparator.GE,
    "or more": Comparator.GE,
    "at the very least": Comparator.GE,
    "or beter": Comparator.GE,
    "or newr": Comparator.GE,
    "or latter": Comparator.GE,
    "or highr": Comparator.GE,
    "or more new": Comparator.GE,
    "or newest": Comparator.GE,
    "at least": Comparator.GE,
    "or older": Comparator.LE,
    "or earlier": Comparator.LE,
    "or below": Comparator.LE,
    "or lower": Comparator.LE,
    "and older": Comparator.LE,
    "and earlier": Comparator.LE,
    "and below": Comparator.LE,
}
"""Operator words written after a version ("3.8 or newer"). A trailing ``+`` means ``>=``."""

VERSION_PREFIXES: tuple[str, ...] = ("version", "release", "ver.", "ver", "rel.")
"""Words that introduce a version without comparing ("python version 3.11")."""

# -- containers, MPI, fabrics, storage --------------------------------------------------------

CONTAINER_RUNTIMES: dict[str, tuple[str, ...]] = {
    "apptainer": ("apptainer",),
    "singularity": ("singularity", "singularity-ce", "singularityce", "sylabs singularity"),
    "podman": ("podman",),
    "docker": ("docker", "docker engine"),
    "charliecloud": ("charliecloud", "charlie cloud", "ch-run"),
    "shifter": ("shifter",),
    "enroot": ("enroot", "pyxis"),
    "sarus": ("sarus",),
    "udocker": ("udocker",),
}

CONTAINER_WORDS: tuple[str, ...] = (
    "container image",
    "containers",
    "container",
    "containerised",
    "containerized",
    "oci image",
)
"""Words that ask for some container runtime without naming one (runtime ``any``)."""

ROOTLESS_WORDS: tuple[str, ...] = ("rootless", "unprivileged", "without root", "non-root")

MPI_IMPLEMENTATIONS: dict[str, tuple[str, ...]] = {
    "openmpi": ("open mpi", "ompi"),
    "mpich": ("mpich", "mpich2"),
    "intel-mpi": ("intel mpi", "impi", "intel oneapi mpi", "oneapi mpi"),
    "cray-mpich": ("cray mpich", "cray mpi"),
    "spectrum-mpi": ("spectrum mpi", "ibm spectrum mpi", "ibm mpi"),
    "mvapich": ("mvapich", "mvapich2", "mvapich2-gdr", "mvapich-plus"),
    "hpe-mpt": ("hpe mpt", "sgi mpt", "mpt"),
}

GENERIC_MPI_WORDS: tuple[str, ...] = ("message passing interface", "mpi")

FABRICS: dict[Fabric, tuple[str, ...]] = {
    Fabric.INFINIBAND: ("infiniband", "infini band", "ib", "mellanox infiniband"),
    Fabric.OMNIPATH: ("omni-path", "omnipath", "opa", "intel omni-path"),
    Fabric.SLINGSHOT: ("slingshot", "hpe slingshot", "cray slingshot", "slingshot-11"),
    Fabric.ETHERNET: ("ethernet", "gige", "gbe"),
}

RDMA_ETHERNET_WORDS: tuple[str, ...] = ("rocev2", "roce")
"""RDMA over Ethernet: an Ethernet fabric that is still low latency."""

LOW_LATENCY_WORDS: tuple[str, ...] = (
    "low latency interconnect",
    "low latency network",
    "low latency",
    "low lat interconnect",
    "low lat network",
    "low lat fabric",
    "high speed interconnect",
    "high speed network",
    "high bandwidth interconnect",
    "high performance interconnect",
    "high performance network",
    "fast interconnect",
    "fast networking",
    "fast network",
    "high speed networking",
    "low latency networking",
    "network must be fast",
    "network should be fast",
    "network has to be fast",
    "network needs to be fast",
    "interconnect must be fast",
    "interconnect should be fast",
    "hpc interconnect",
    "rdma",
)

NETWORK_NOUNS: tuple[str, ...] = ("interconnect", "network", "networking", "fabric", "links")
"""Nouns that may follow a fabric name and belong to it ("InfiniBand network")."""

STORAGE_KINDS: dict[StorageKind, tuple[str, ...]] = {
    StorageKind.LUSTRE: ("lustre",),
    StorageKind.GPFS: ("gpfs", "ibm spectrum scale", "spectrum scale", "ibm storage scale"),
    StorageKind.BEEGFS: ("beegfs", "fhgfs"),
    StorageKind.NFS: ("nfs", "network file system"),
    StorageKind.CIFS: ("cifs", "smb", "samba share", "windows share"),
    StorageKind.LOCAL: (
        "node local scratch",
        "node local storage",
        "node local disk",
        "local scratch",
        "local disk",
        "local ssd",
        "local nvme",
        "local storage",
        "local drive",
        "node local",
        "ssd",
        "nvme",
    ),
    StorageKind.S3: ("s3", "amazon s3", "object storage", "object store", "minio"),
    StorageKind.PARALLEL: (
        "parallel file system",
        "parallel filesystem",
        "parallel file-system",
        "parallel storage",
        "parallel fs",
        "parallel scratch",
        "pfs",
    ),
    StorageKind.ANY: (
        "shared file system",
        "shared filesystem",
        "shared storage",
        "scratch space",
        "scratch",
        "storage",
    ),
}

STORAGE_SIZE_NOUNS: tuple[str, ...] = (
    "disk space",
    "disk",
    "free space",
    "space",
    "free quota",
    "storage quota",
    "disk quota",
)
"""Nouns that mean storage only with a size in front ("500 GB of disk", "40 TB of free
quota"); a bare "quota" is not one, as it is also a compute-hour allowance."""

# -- compute ---------------------------------------------------------------------------------

GPU_MODELS: dict[str, tuple[str, ...]] = {
    "GH200": ("gh200",),
    "GB200": ("gb200",),
    "B200": ("b200",),
    "B100": ("b100",),
    "H200": ("h200",),
    "H100": ("h100",),
    "A100": ("a100",),
    "A40": ("a40",),
    "A30": ("a30",),
    "A10G": ("a10g",),
    "A10": ("a10",),
    "A6000": ("rtx a6000", "a6000"),
    "L40S": ("l40s",),
    "L40": ("l40",),
    "L4": ("l4",),
    "T4": ("t4",),
    "V100": ("v100",),
    "P100": ("p100",),
    "K80": ("k80",),
    "RTX 4090": ("rtx 4090", "geforce rtx 4090"),
    "RTX 3090": ("rtx 3090", "geforce rtx 3090"),
    "MI300X": ("mi300x",),
    "MI300A": ("mi300a",),
    "MI300": ("mi300",),
    "MI250X": ("mi250x",),
    "MI250": ("mi250",),
    "MI210": ("mi210",),
    "MI100": ("mi100",),
    "MI50": ("mi50",),
    "Max 1550": ("max 1550", "data center gpu max 1550", "ponte vecchio", "pvc"),
    "Max 1100": ("max 1100", "data center gpu max 1100"),
}
"""Canonical GPU model (as sites print it, matched as a substring there) -> spellings."""

GPU_VENDORS: tuple[str, ...] = ("nvidia", "amd", "intel", "tesla", "instinct", "radeon")

GPU_WORDS: tuple[str, ...] = (
    "graphics cards",
    "graphics card",
    "graphic cards",
    "graphic card",
    "gpu cards",
    "gpus",
    "gpu",
)
"""Nouns that count GPUs ("2 GPUs", "two graphics cards")."""

NODE_WORDS: tuple[str, ...] = (
    "compute nodes",
    "nodes",
    "node",
    "machines",
    "hosts",
    "servers",
    "server",
    "computers",
    "instances",
    "vms",
)
"""Nouns that count nodes. Singular "machine"/"host" are left out: "a big machine" is vague;
"one server" / "1 server with 8 GPUs" is as plain as "one node"."""

CORE_WORDS: tuple[str, ...] = (
    "cpu cores",
    "physical cores",
    "processor cores",
    "logical cores",
    "hardware threads",
    "cpu threads",
    "cores",
    "core",
    "vcpus",
    "vcpu",
    "cpus",
    "cpu",
    "processors",
    "threads",
)

RANK_WORDS: tuple[str, ...] = (
    "mpi ranks",
    "mpi processes",
    "mpi tasks",
    "mpi procs",
    "mpi process",
    "mpi rank",
    "ranks",
    "processes",
    "procs",
    "process",
    "tasks",
)
"""Nouns that count MPI ranks: one core each, in total across the nodes."""

MEMORY_WORDS: tuple[str, ...] = (
    "main memory",
    "system memory",
    "system ram",
    "host memory",
    "host ram",
    "memory",
    "ram",
    "mem",
)

CPU_ONLY_WORDS: tuple[str, ...] = (
    "cpu nodes only",
    "cpu only nodes",
    "only cpu nodes",
    "cpu only",
    "cpus only",
    "only cpus",
    "only cpu",
    "no gpus",
    "no gpu",
    "without gpus",
    "without a gpu",
    "without any gpus",
    "non gpu",
    "gpu less",
    "gpuless",
)

# -- quantities ------------------------------------------------------------------------------

NUMBER_WORDS: dict[str, int] = {
    "a single": 1,
    "single": 1,
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "a couple of": 2,
    "a pair of": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a dozen": 12,
    "sixteen": 16,
    "twenty": 20,
    "thirty-two": 32,
    "thirty two": 32,
    "sixty-four": 64,
    "sixty four": 64,
    "a hundred": 100,
    "one hundred": 100,
}

SIZE_UNITS_GB: dict[str, float] = {
    "kb": 1e-6,
    "kilobytes": 1e-6,
    "mb": 1e-3,
    "m": 1e-3,
    "megabytes": 1e-3,
    "megabyte": 1e-3,
    "megs": 1e-3,
    "gb": 1.0,
    "g": 1.0,
    "gigabytes": 1.0,
    "gigabyte": 1.0,
    "gigs": 1.0,
    "gig": 1.0,
    "tb": 1e3,
    "t": 1e3,
    "terabytes": 1e3,
    "terabyte": 1e3,
    "terrabytes": 1e3,
    "terrabyte": 1e3,
    "pb": 1e6,
    "p": 1e6,
    "petabytes": 1e6,
    "petabyte": 1e6,
    "kib": 1024 / 1e9,
    "mib": 1024**2 / 1e9,
    "gib": 1024**3 / 1e9,
    "gibibytes": 1024**3 / 1e9,
    "tib": 1024**4 / 1e9,
    "tebibytes": 1024**4 / 1e9,
    "pib": 1024**5 / 1e9,
    "mi": 1024**2 / 1e9,
    "gi": 1024**3 / 1e9,
    "ti": 1024**4 / 1e9,
}
"""Size units in decimal gigabytes (what the wire fields count). Binary units are converted."""

SPEED_UNITS_GBPS: dict[str, float] = {
    "gbps": 1.0,
    "gb/s": 1.0,
    "gbit/s": 1.0,
    "gbit": 1.0,
    "gbits": 1.0,
    "gigabit": 1.0,
    "gigabits": 1.0,
    "tbps": 1000.0,
    "tb/s": 1000.0,
    "mbps": 0.001,
    "mbit/s": 0.001,
}

DURATION_UNITS_S: dict[str, int] = {
    "seconds": 1,
    "second": 1,
    "secs": 1,
    "sec": 1,
    "minutes": 60,
    "minute": 60,
    "mins": 60,
    "min": 60,
    "hours": 3600,
    "hour": 3600,
    "hrs": 3600,
    "hr": 3600,
    "days": 86400,
    "day": 86400,
    "weeks": 604800,
    "week": 604800,
    "wks": 604800,
}
"""Duration units in seconds. One-letter units (``2h``, ``30m``) are handled by the grammar."""

SHORT_DURATION_UNITS_S: dict[str, int] = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}

DURATION_PHRASES_S: dict[str, int] = {
    "an hour and a half": 5400,
    "half an hour": 1800,
    "half a day": 43200,
    "a day and a half": 129600,
}
"""Durations written without a number."""

CURRENCY_WORDS: tuple[str, ...] = (
    "usd",
    "dollars",
    "dollar",
    "bucks",
    "us dollars",
    "us dollar",
    "u.s. dollars",
    "american dollars",
)

FREE_OF_CHARGE_WORDS: tuple[str, ...] = (
    "free of charge",
    "at no cost",
    "for free",
    "no cost",
    "zero cost",
)

# -- time ------------------------------------------------------------------------------------

WEEKDAYS: dict[str, int] = {
    "monday": 0,
    "mon": 0,
    "tuesday": 1,
    "tues": 1,
    "tue": 1,
    "wednesday": 2,
    "wed": 2,
    "thursday": 3,
    "thurs": 3,
    "thu": 3,
    "friday": 4,
    "fri": 4,
    "saturday": 5,
    "sat": 5,
    "sunday": 6,
    "sun": 6,
}

MONTHS: dict[str, int] = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sept": 9,
    "sep": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}

URGENCY_WORDS: dict[Urgency, tuple[str, ...]] = {
    Urgency.NO_RUSH: (
        "no rush",
        "no hurry",
        "not urgent",
        "not in a hurry",
        "not in hurry",
        "no urgency",
        "no particular hurry",
        "no particular rush",
        "no hurry at all",
        "not urgently",
        "whenever convenient",
        "whenever",
        "low priority",
        "at your leisure",
        "any time",
        "anytime",
        "eventually",
        "nothing urgent",
        "not anything urgent",
        "rather than anything urgent",
        "isn't urgent",
        "is not urgent",
        "not that urgent",
        "not very urgent",
        "not too urgent",
        "not super urgent",
        "no need to hurry",
        "no need to rush",
        "not time critical",
        "not time sensitive",
        "no deadline",
        "no time pressure",
        "when you get a chance",
        "when you get the chance",
        "when convenient",
    ),
    Urgency.NOW: (
        "as soon as possible",
        "as early as possible",
        "as soon as you can",
        "at the earliest opportunity",
        "without delay",
        "time critical",
        "time sensitive",
        "highest priority",
        "critical priority",
        "right now",
        "right away",
        "straight away",
        "immediately",
        "urgently",
        "urgent",
        "asap",
        "a.s.a.p.",
        "a.s.a.p",
        "at once",
        "high priority",
        "top priority",
        "now",
    ),
    Urgency.SOON: (
        "soon",
        "shortly",
        "today",
        "tonight",
        "this morning",
        "this afternoon",
        "this evening",
        "tonite",
        "later today",
    ),
}
"""Urgency phrases. No-rush phrases come first so "not urgent" is never read as "urgent"."""

DEADLINE_BY_WORDS: tuple[str, ...] = (
    "no later than",
    "not later than",
    "finished by",
    "finish by",
    "done by",
    "completed by",
    "complete by",
    "results by",
    "due by",
    "due on",
    "at the latest on",
    "at latest on",
    "latest on",
    "deadline is",
    "deadline of",
    "deadline",
    "due",
    "until",
    "till",
    "by",
)
"""Words before a date that mean "at the latest at the end of that day"."""

DEADLINE_BEFORE_WORDS: tuple[str, ...] = ("before", "befor", "prior to", "ahead of")
"""Words before a date that mean "before that day starts" ("befor": the usual misspelling)."""

DEADLINE_WITHIN_WORDS: tuple[str, ...] = (
    "hard deadline in",
    "deadline in",
    "deadline of",
    "deadline is in",
    "due in",
    "due within",
    "needed in",
    "needed back in",
    "results in",
    "ready in",
    "back in",
    "within the next",
    "within",
    "w/in",
    "in the next",
    "we need to finish in",
    "we must finish in",
    "we have to finish in",
    "i need to finish in",
    "i must finish in",
    "i have to finish in",
    "must be finished in",
    "must be done in",
    "need it done in",
    "need them done in",
    "need it finished in",
    "in less than",
    "in under",
)
"""Words before a duration that make it a deadline counted from now, not a run time ("w/in" is
"within" in a hurry)."""

WALLTIME_WORDS: tuple[str, ...] = (
    "wall clock time",
    "wall-clock time",
    "wallclock time",
    "wallclock",
    "wall clock",
    "walltime",
    "wall time",
    "time limit",
    "run time",
    "runtime",
    "duration",
)

# -- words with no meaning of their own ------------------------------------------------------

STOP_WORDS: frozenset[str] = frozenset(
    """
    a an the and or but nor either both of on in at to into onto with without for from by as
    via using use used uses i i'd i'm i'll we we'd we're you your me my our us it it's its
    this that these those there here run runs running ran execute executing launch launching
    submit start starting need needs needed want wants wanted would like please can could
    should will shall may might must is are be been being am was were do does did have has
    having get got give require requires required requiring requirement requirements job jobs
    workload simulation simulations calculation calculations computation analysis code
    program application app software installed available somewhere site cluster system
    resources also just some any all each per every so then than about around approximately
    roughly least most more less if possible ok okay thanks thank let let's lets what which
    where when how make sure inside within up total overall fine only preferably ideally over
    across spread among between go ahead
    """.split()
)
"""Function words and request verbs: never reported as unparsed, never taken as a name."""

DOMAIN_ACRONYMS: frozenset[str] = frozenset(
    """
    hpc md cfd dft ml ai nlp llm llms cnn gnn rnn dna rna seq gwas em qm mm qmmm fea fem hep pi phd
    msc bsc it ok eta tbd fyi btw pls thx asap eod cob utc est pst cet gmt eu us uk usa openmp
    hybrid simd fmri mri eeg meg ct les dns rans pic enkf gev tev mev kev dlc rl nn gan vae
    i.e e.g etc vs cf approx
    """.split()
)
"""Acronyms of science and of email that are never requirements (lower case)."""

RESERVED_WORDS: frozenset[str] = frozenset(
    """
    version versions ver v node nodes core cores cpu cpus gpu gpus memory ram mem storage disk
    space hours hour minutes minute mins min seconds second days day weeks week walltime
    budget dollars dollar usd cost costs gb tb mb gib tib mib pb network interconnect fabric
    container containers image images runtime no not free priority deadline date time
    month year per x latency bandwidth throughput exactly newer older later earlier minimum
    maximum low high fast slow threads thread capability speed fabric
    """.split()
)
"""Words that are never the name of an unknown package, even with a number after them."""


FILE_EXTENSIONS: frozenset[str] = frozenset(
    """
    py sh bash csh zsh pl r m f f90 f95 f03 cu cuh ipynb exe in inp data
    pbs slurm sbatch bsub lsf job
    yaml yml json toml ini cfg conf xml txt md rst log out err csv tsv tab dat npy npz pt pth
    ckpt safetensors onnx pkl gguf h5 h5ad hdf5 nc nc4 grib grb grb2 zarr parquet arrow fits
    root sav mat xlsx
    fa fasta fna faa fq fastq gz bz2 xz zip tar tgz bam sam cram vcf bcf bed gff gtf pdb pdbqt
    cif mol2 sdf xyz gro top tpr mdp itp psf dcd xtc trr lmp nii
    nex nexus phy tre nwk msh mesh vtk vtu stl pmap asdf upf psml fdf sw tersoff eam
    tif tiff png jpg mp4 wav flac pbf shp las laz
    sif img def qcow2 raw iso dll jar run
    nf smk wdl cwl nml prm par
    """.split()
)
"""File name extensions of scripts, code, configuration, data and container images: a word
ending in one ("train.py", "ds_zero3.json", "s1.bam", "image.sif") is a file, not a package.
Julia's ``.jl`` is not here: "Oceananigans.jl" names a package, "main.jl" a script. An
executable or an installer of a package ("MaxQuantCmd.dll", "case.run", "tool.jar") is a file
too: the package it belongs to is named on its own."""
