"""A docs tree checks in time linear in its size (issue 39, item 4), held by counting, never by
timing: the calls of every function a check makes at three sizes of one tree, and the cyclic
collector's collections. Each file of the tree is written alike at every size (numbers of one
width, links to other files' sections, some broken so that the did-you-mean suggestions run),
so a linear check makes, for each function, as many calls for the files added from N to 2N as
for those added from 2N to 4N, twice over. A did-you-mean that compared a broken link with
every file or every anchor of the tree would not."""

from __future__ import annotations

import cProfile
import gc
import pstats
from pathlib import Path

from drafterlint.cli import main

PER_FOLDER = 10
SIZES = (20, 40, 80)


def _tree(root: Path, files: int) -> None:
    """`files` pages, ten to a folder, each linking to others' sections and to its own; one
    fragment gone a page, and every fifth page a link to a file that is not there."""
    for i in range(files):
        folder = root / "docs" / f"part{i // PER_FOLDER:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        lines = [f"# Page {i:05d}", ""]
        for s in (1, 2):
            lines += [f"## {s}. Section {s} of page {i:05d}", ""]
            for k in (1, 2, 3):
                j = (i * 7 + k * 11 + s) % files
                where = f"../part{j // PER_FOLDER:03d}/page{j:05d}.md"
                anchor = f"{s}-gone-{j:05d}" if (i + k) % 3 == 0 and s == 1 else f"{s}-section-{s}-of-page-{j:05d}"
                lines += [f"Words about the model and its drafter, see [page {j:05d}]({where}#{anchor}) "
                          f"and [here](#{s}-section-{s}-of-page-{i:05d}).", ""]
            if i % 5 == 0 and s == 2:
                lines += [f"A [missing page](../part{i // PER_FOLDER:03d}/pages{i:05d}.md).", ""]
            lines += ["| a | b |", "|---|---|", f"| {s} | `x` |", ""]
        (folder / f"page{i:05d}.md").write_text("\n".join(lines), encoding="utf-8")
    (root / "endpoints_rules.md").write_text("# Rules\n\nThe pages: [the first](docs/part000/page00000.md).\n",
                                           encoding="utf-8")


def _counted(root: Path, capsys) -> tuple[dict[str, int], dict[int, int], str]:
    """Calls per function, collections per generation and the report of one check of `root`,
    with the collector off as the command line runs (cli.main)."""
    collections = {0: 0, 1: 0, 2: 0}

    def counting(phase: str, info: dict) -> None:
        if phase == "start":
            collections[info["generation"]] += 1

    profile = cProfile.Profile()
    gc.disable()
    gc.callbacks.append(counting)
    try:
        profile.enable()
        main(["check", "--no-cache", "--exit-zero", "--rules-repo", str(root)])
        profile.disable()
    finally:
        gc.callbacks.remove(counting)
        gc.enable()
    calls = {pstats.func_std_string(f): row[1] for f, row in pstats.Stats(profile).stats.items()}  # type: ignore[attr-defined]
    return calls, collections, capsys.readouterr().out


def test_a_docs_tree_costs_the_same_calls_for_each_file_added(tmp_path, capsys):
    counted = {}
    for files in (SIZES[0], *SIZES):  # the first, untimed, imports and fills the process's caches
        root = tmp_path / f"tree{files}"
        if not root.exists():
            _tree(root, files)
        counted[files] = _counted(root, capsys)
    (small, _, small_out), (middle, _, middle_out), (big, _, big_out) = (counted[n] for n in SIZES)
    # The tree is checked: its broken fragments and files are found, with their suggestions.
    for files, out in zip(SIZES, (small_out, middle_out, big_out)):
        assert out.count(" DL203 ") == files  # one fragment gone a page
        assert out.count(" DL202 ") == files // 5
        assert "`#1-gone-00000` in docs/part000/page00000.md (did you mean `docs/part000/page00000.md#page-00000`?)" in out
        assert "`../part000/pages00005.md` does not exist in the repository (did you mean `docs/part000/page00005.md`?)" in out
    grown = []
    for name in set(small) | set(middle) | set(big):
        first = middle.get(name, 0) - small.get(name, 0)  # for 20 files added
        second = big.get(name, 0) - middle.get(name, 0)  # for 40 files added
        # (a few calls of slack: the did-you-mean's comparisons depend on the digits compared)
        if second > 2 * first * 1.05 + 12:
            grown.append(f"{name}: {small.get(name, 0)}, {middle.get(name, 0)}, {big.get(name, 0)} calls")
    assert not grown, "calls growing faster than the files:\n" + "\n".join(sorted(grown))


def test_the_collector_never_scans_the_whole_heap_at_any_size(tmp_path, capsys):
    counted = {}
    for files in SIZES[:2]:
        _tree(tmp_path / f"tree{files}", files)
        counted[files] = _counted(tmp_path / f"tree{files}", capsys)[1]
    small, big = (counted[n] for n in SIZES[:2])
    # The command line turns the cyclic collector off (cli.main): a document parsed, whole or
    # in sections, leaves no reference cycles (PosState.release), and nothing is collected
    # after it. The oldest generation, the outlines of every file
    # kept for the links between them, is never scanned, whatever the size of the tree.
    assert small[2] == big[2] == 0
    assert big[1] - small[1] <= SIZES[1] - SIZES[0]
