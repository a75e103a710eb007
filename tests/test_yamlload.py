
import pytest

from drafterlint.findings import UnreadableFile
from drafterlint.registry.yamlload import load_yaml_text


def test_positions_of_keys_and_items():
    doc = load_yaml_text("a:\n  items:\n    - x: 1\n      y: 2\n    - z\n", "f.yaml")
    assert doc.position(("a",)) == (1, 1)
    assert doc.position(("a", "items", 0)) == (3, 7)
    assert doc.position(("a", "items", 0, "y")) == (4, 7)
    assert doc.position(("a", "items", 1)) == (5, 7)
    assert doc.line_of(["a", "items", 1]) == 5
    assert doc.line_of(["a", "missing"]) == 1  # nearest ancestor


def test_timestamps_stay_strings_and_scalars_are_plain():
    doc = load_yaml_text("d: 2026-10-12\nt: 2026-10-12T10:00:00Z\nn: 3\nf: 1.5\nb: true\nz: ~\n", "f")
    assert doc.value == {"d": "2026-10-12", "t": "2026-10-12T10:00:00Z", "n": 3, "f": 1.5,
                         "b": True, "z": None}


def test_duplicates_both_positions():
    doc = load_yaml_text("a: 1\nb:\n  c: 2\n  c: 3\n", "f")
    (dup,) = doc.duplicates
    assert dup.path == ("b", "c") and dup.first == (3, 3) and dup.second == (4, 3)
    assert doc.value["b"]["c"] == 3


@pytest.mark.parametrize("text,line,col,word", [
    ("a: !!python/object:os.system x\n", 1, 4, "tag"),
    ("a:\n  b: !foo 1\n", 2, 6, "tag"),
    ("a: [1, 2\nb: 3\n", 2, 2, "invalid YAML"),
    ("a: &a [*a]\n", 1, 8, "recursive"),
    ("a: 1\n---\nb: 2\n", 2, 1, "document"),
    ("<<: {a: 1}\n", 1, 1, "merge"),
    ("? [a]\n: 1\n", 1, 3, "key"),
])
def test_refused(text, line, col, word):
    with pytest.raises(UnreadableFile) as exc:
        load_yaml_text(text, "f.yaml")
    loc = exc.value.location
    assert (loc.path, loc.line, loc.column) == ("f.yaml", line, col)
    assert word in exc.value.message


def test_non_string_keys_recorded():
    doc = load_yaml_text("1: a\n", "f")
    assert doc.value == {"1": "a"} and "quote" in doc.problems[0].message


def test_alias_bomb_fails_fast():
    lines = ["x0: &x0 [lol, lol]"]
    size, i = len(lines[0]), 1
    while size < 2_000_000:  # a running total: re-summing the list each time was quadratic
        lines.append(f"x{i}: &x{i} [*x{i-1}, *x{i-1}]")
        size += len(lines[-1])
        i += 1
    text = "\n".join(lines)
    # Refused before expanding: an expansion would not end (nor fit in memory) for the test to
    # see its result, so reaching the assertion is the bound; no wall-clock assertion.
    with pytest.raises(UnreadableFile, match="alias"):
        load_yaml_text(text, "bomb.yaml")


def test_many_aliases_limited():
    text = "x: &x [1]\n" + "".join(f"k{i}: *x\n" for i in range(50))
    with pytest.raises(UnreadableFile, match="aliases"):
        load_yaml_text(text, "f", max_aliases=10)


def test_size_and_depth_limits():
    with pytest.raises(UnreadableFile, match="limit"):
        load_yaml_text("a: " + "x" * 2000, "f", max_bytes=1000)
    with pytest.raises(UnreadableFile, match="nested"):
        load_yaml_text("a: " + "[" * 300 + "]" * 300, "f")


def test_empty_file():
    assert load_yaml_text("", "f").value is None
