"""drafterlint.records.dataclass against the stdlib's: every record of the package, built again
with `dataclasses.dataclass` from the same fields and options, must have the same constructor
(signature, defaults, factories, `__post_init__`), fields, equality, hash, order, repr and
frozenness; and so must a set of small classes that use each option the decorator takes."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import json
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any, ClassVar, Generic

import pytest

from drafterlint import records
from drafterlint.records import dataclass as record
from tests.helpers.package import package_records


def _twin(cls: type) -> type:
    """`cls` declared again with the stdlib's decorator: the same fields, in order, with the
    same options, and its own __post_init__ (what the generated methods call)."""
    params = cls.__record_params__  # type: ignore[attr-defined]
    specs = []
    for f in dataclasses.fields(cls):
        kw: dict[str, Any] = {"init": f.init, "repr": f.repr, "compare": f.compare, "hash": f.hash,
                              "kw_only": f.kw_only}
        if f.default is not dataclasses.MISSING:
            kw["default"] = f.default
        if f.default_factory is not dataclasses.MISSING:
            kw["default_factory"] = f.default_factory
        specs.append((f.name, f.type, dataclasses.field(**kw)))
    namespace: dict[str, Any] = {"__qualname__": cls.__qualname__, "__module__": cls.__module__}
    for name in ("__post_init__", "__eq__", "__hash__", "__repr__"):
        method = _own(cls, name)
        if method is not None:
            namespace[name] = method
    plain = tuple(b for b in cls.__bases__ if not dataclasses.is_dataclass(b) and b not in (object, Generic))
    return dataclasses.make_dataclass(
        cls.__name__, specs, bases=plain, namespace=namespace, init=params.init, repr=params.repr, eq=params.eq,
        order=params.order, frozen=params.frozen, slots="__slots__" in vars(cls))


def _own(cls: type, name: str) -> Any:
    """`__post_init__` wherever it is defined; `__eq__`, `__hash__` or `__repr__` only where the
    class body defined it (not one the decorator made)."""
    if name == "__post_init__":
        return getattr(cls, name, None)
    value = vars(cls).get(name)
    return value if getattr(value, "__qualname__", "").startswith(f"{cls.__qualname__}.") else None


def _signature(init: Any) -> list[tuple[str, Any, str]]:
    out = []
    for p in inspect.signature(init).parameters.values():
        d = p.default
        shown = ("-" if d is inspect.Parameter.empty else "<factory>" if repr(d) == "<factory>" else f"id {id(d)}")
        out.append((p.name, p.kind, shown))
    return out


def _build(cls: type, args: dict[str, Any]) -> tuple[Any, str | None]:
    try:
        return cls(**args), None
    except Exception as e:  # the same refusal is required of both, with the same message
        return None, f"{type(e).__name__}: {e}"


def _fields(obj: Any, cls: type) -> list[tuple[str, Any]]:
    out = []
    for f in dataclasses.fields(cls):
        value = getattr(obj, f.name, "<unset>")
        if f.default_factory is not dataclasses.MISSING:  # each made anew: the same kind, equal if values
            value = (type(value), value if type(value).__eq__ is not object.__eq__ else None)
        out.append((f.name, value))
    return out


def _same_behaviour(cls: type) -> None:
    twin = _twin(cls)
    params = cls.__record_params__  # type: ignore[attr-defined]
    assert [f.name for f in dataclasses.fields(cls)] == [f.name for f in dataclasses.fields(twin)]
    assert getattr(cls, "__match_args__", None) == getattr(twin, "__match_args__", None)
    if params.init and "__init__" in vars(cls):
        made = records.init_function(cls, params.frozen, "__slots__" in vars(cls))
        assert _signature(made) == _signature(twin.__init__), cls
    # one distinct object per parameter; then each compared field given another in turn
    wanted = [p for p in inspect.signature(twin.__init__).parameters.values()
              if p.name != "self" and p.default is inspect.Parameter.empty]
    base = {p.name: object() for p in wanted}
    a, a_err = _build(cls, base)
    t, t_err = _build(twin, base)
    assert a_err == t_err, cls
    if a is None:
        return
    a2, _ = _build(cls, dict(base))
    t2, _ = _build(twin, dict(base))
    assert _fields(a, cls) == _fields(t, twin)
    assert (a == a2) == (t == t2) and (a != a2) == (t != t2)
    assert (a == object()) == (t == object())
    assert repr(a) == repr(t) if params.repr else True
    for p in wanted:
        b, b_err = _build(cls, {**base, p.name: object()})
        u, u_err = _build(twin, {**base, p.name: object()})
        assert b_err == u_err
        if b is not None:
            assert (a == b) == (t == u), (cls, p.name)
    try:
        h = hash(a) == hash(a2)
    except TypeError as e:
        with pytest.raises(TypeError, match=str(e).split(":")[0]):
            hash(t)
    else:
        assert h == (hash(t) == hash(t2)), cls
        assert (cls.__hash__ is None) == (twin.__hash__ is None)
    if dataclasses.fields(cls):
        name = dataclasses.fields(cls)[0].name
        for obj in (a, t):
            try:
                setattr(obj, name, getattr(obj, name))
            except dataclasses.FrozenInstanceError as e:
                assert params.frozen and str(e) == f"cannot assign to field {name!r}"
            else:
                assert not params.frozen


PACKAGE_RECORDS = package_records()


def test_the_package_declares_its_records_with_drafterlint_records():
    assert len(PACKAGE_RECORDS) > 100  # every module was walked


@pytest.mark.parametrize("cls", PACKAGE_RECORDS, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_each_record_behaves_as_the_stdlib_dataclass_would(cls):
    _same_behaviour(cls)


# In a fresh interpreter (an audit hook stays for the process's life): what each step compiled.
COMPILES = """
import os, sys
compiled = []
# (Python 3.13's dataclasses compile one builder a class even when it adds no method: `def
# __create_fn__(): return ()`, the stdlib's own and no method of the record's)
EMPTY = (b"def __create_fn__():\\n\\n return ()", "def __create_fn__():\\n\\n return ()")
# (and a module imported without its .pyc, as under PYTHONDONTWRITEBYTECODE: an installed one has it)
sys.addaudithook(lambda event, args: compiled.append(str(args[1]))
                 if event == "compile" and args[0] not in EMPTY and not os.path.isfile(str(args[1])) else None)
from dataclasses import field
from drafterlint.records import dataclass
seen = len(compiled)

@dataclass(frozen=True)
class Point:
    "A point (without a docstring the stdlib makes one from inspect.signature, which compiles)."
    x: int
    y: int = 0

@dataclass(frozen=True)
class Pair:
    "Another record of the same shape: two parameters, frozen."
    first: object
    second: object = None

@dataclass(frozen=True)
class Odd:
    "A shape no record of the package has (a field named self, a keyword-only one)."
    self: object
    other: object = None
    last: object = field(default=None, kw_only=True)

def step():
    global seen
    made = compiled[seen:]
    seen = len(compiled)
    return made

made = step()
Point(1)
Point(2, 3)
print(made, step(), sep="\\n")
assert Pair("a").second is None and Pair("a", "b").second == "b"
print(step())
from drafterlint._record_shapes import SHAPES
from drafterlint.records import shape_of
assert shape_of(Point) in SHAPES and shape_of(Odd) not in SHAPES
assert Odd(1).self == 1 and Odd(2, 3, last=4).last == 4 and Odd(5).other is None
print(step())
"""


def test_making_a_record_compiles_nothing_nor_does_its_first_instance_of_a_shipped_shape():
    proc = subprocess.run([sys.executable, "-c", COMPILES], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    # Point's and Pair's shape is the package's, shipped compiled (drafterlint._record_shapes);
    # Odd's is compiled on its first instance, once
    assert proc.stdout.splitlines() == ["[]", "[]", "[]", "['<record shape frozen PPp self field>']"]


# Every record of the package built once: the constructors compiled, by name, in a fresh interpreter.
EVERY_CONSTRUCTOR = """
import json, os, sys
sys.path.insert(0, sys.argv[1])
from tests.helpers.package import package_records
from drafterlint import records
classes = package_records()
compiled = []
# (Python 3.13's dataclasses compile one builder a class even when it adds no method: `def
# __create_fn__(): return ()`, the stdlib's own and no method of the record's)
EMPTY = (b"def __create_fn__():\\n\\n return ()", "def __create_fn__():\\n\\n return ()")
# (and a module imported without its .pyc, as under PYTHONDONTWRITEBYTECODE: an installed one has it)
sys.addaudithook(lambda event, args: compiled.append(str(args[1]))
                 if event == "compile" and args[0] not in EMPTY and not os.path.isfile(str(args[1])) else None)
built = 0
for cls in classes:
    params = cls.__record_params__
    if params.init and "__init__" in vars(cls):
        records.init_function(cls, params.frozen, "__slots__" in vars(cls))
        built += 1
print(json.dumps([built, len(records._TEMPLATES), compiled]))
"""


def test_the_packages_constructors_compile_nothing():
    """Each shape's template is made once, whatever the number of records of that shape (the
    package's records have fewer than half as many shapes), and every shape of the package's
    is shipped compiled; each constructor is compared with the stdlib's above."""
    root = str(Path(__file__).resolve().parent.parent)
    proc = subprocess.run([sys.executable, "-c", EVERY_CONSTRUCTOR, root], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    built, shapes, compiled = json.loads(proc.stdout)
    assert compiled == [] and 0 < shapes < built * 0.6, (built, shapes, compiled)


def test_the_shipped_shapes_are_the_packages_as_records_writes_them():
    """drafterlint._record_shapes is what records.shapes_module writes for the shapes of the
    package's records, no more, no fewer (regenerate: `python -m tests.helpers.record_shapes`),
    and each template it holds is the code its source compiles to in drafterlint.records."""
    import __future__

    from drafterlint import _record_shapes
    from tests.helpers.record_shapes import package_shapes

    shapes = package_shapes()
    assert set(_record_shapes.SHAPES) == shapes
    text = Path(_record_shapes.__file__).read_text(encoding="utf-8")
    assert text == records.shapes_module(shapes), "stale: run `python -m tests.helpers.record_shapes`"
    for key, shipped in _record_shapes.SHAPES.items():
        source, name = records.template_source(key)
        scope: dict[str, Any] = {}
        exec(compile(source, name, "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True), scope)
        assert shipped.replace(co_firstlineno=1) == scope["__init__"].__code__, name


# Small classes that use each option and field kind the decorator takes, each compared with
# the stdlib's decorator through the same comparison as the package's records.

@record(frozen=True, slots=True)
class _FrozenSlots:
    """Frozen, slotted, a default and a factory."""

    a: object
    b: object = 5
    c: list = dataclasses.field(default_factory=list)


@record(frozen=True, order=True)
class _Ordered:
    """Ordered by all but the last field."""

    a: object
    b: int = 0
    c: object = dataclasses.field(default=None, compare=False)


@record(eq=False, repr=False, kw_only=True)
class _KwOnly:
    """Keyword-only fields, compared by identity."""

    a: object
    b: object = None


@record
class _Mutable:
    """Mutable, compared by value: unhashable. A field out of the constructor, with a default
    and with a factory; a ClassVar is not a field."""

    a: object
    b: object = dataclasses.field(default=1, init=False)
    c: dict = dataclasses.field(default_factory=dict, init=False)
    d: object = dataclasses.field(default=2, repr=False, hash=False)
    tally: ClassVar[int] = 0


@record(slots=True)
class _SlotsInitFalse:
    """A slotted field out of the constructor with a plain default."""

    a: object
    b: int = dataclasses.field(default=7, init=False)


@record(frozen=True)
class _PostInit:
    """A __post_init__ that checks and derives."""

    a: object
    b: object = dataclasses.field(default=None, init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "b", ("derived", self.a))


@record(frozen=True)
class _OwnHash:
    """A hash of its own, kept."""

    a: object

    def __hash__(self) -> int:
        return 42


@record(frozen=True)
class _Self:
    """A field named self."""

    self: object
    other: object = None


@record(frozen=True)
class _Base:
    """A frozen base."""

    a: object


@record(frozen=True)
class _Derived(_Base):
    """Its fields follow the base's."""

    b: object = 3


@pytest.mark.parametrize("cls", [_FrozenSlots, _Ordered, _KwOnly, _Mutable, _SlotsInitFalse, _PostInit,
                                 _OwnHash, _Self, _Base, _Derived], ids=lambda c: c.__name__)
def test_each_option_behaves_as_the_stdlib_dataclass_would(cls):
    _same_behaviour(cls)


def test_order_hash_repr_and_copies():
    a, b = _Ordered(1, 2, "x"), _Ordered(1, 3, "y")
    assert a < b and a <= b and b > a and b >= a and not a < _Ordered(1, 2, "z")
    assert a == _Ordered(1, 2, "other") and hash(a) == hash(_Ordered(1, 2, "other"))
    assert (_Ordered.__lt__(a, 1), _Ordered.__eq__(a, 1)) == (NotImplemented, NotImplemented)
    assert repr(_Derived(1)) == "_Derived(a=1, b=3)"
    with pytest.raises(TypeError, match="unhashable"):
        hash(_Mutable(1))
    assert hash(_OwnHash(1)) == 42
    frozen = _FrozenSlots(1)
    twin = copy.copy(frozen)
    assert twin == frozen and twin is not frozen and copy.deepcopy(frozen) == frozen
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'a'"):
        del frozen.a
    assert _PostInit(4).b == ("derived", 4)
    assert dataclasses.replace(_Derived(1), b=9) == _Derived(1, 9)
    assert _KwOnly(a=1) != _KwOnly(a=1)


def test_recursive_repr_stops():
    m = _Mutable([])
    m.a.append(m)
    assert repr(m) == "_Mutable(a=[...], b=1, c={})"


def test_what_the_stdlib_refuses_is_refused():
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        @record
        class _Bad:
            """b without a default after a."""

            a: int = 0
            b: int  # type: ignore[misc]

    with pytest.raises(TypeError, match="cannot inherit non-frozen dataclass from a frozen one"):
        @record
        class _Thawed(_Base):
            """Mutable over frozen."""

            c: int = 0

    with pytest.raises(TypeError, match="Cannot overwrite attribute __setattr__"):
        @record(frozen=True)
        class _Own:
            """Its own __setattr__."""

            a: int

            def __setattr__(self, name: str, value: object) -> None:
                pass

    with pytest.raises(TypeError, match="InitVar"):
        @record
        class _Init:
            """An InitVar."""

            a: dataclasses.InitVar[int]


def _annotations_along(cls: type) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        merged.update(klass.__dict__.get("__annotations__", {}))
    return merged


@pytest.mark.parametrize("cls", package_records(), ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_each_records_fields_and_annotations_are_as_written(cls):
    """The stdlib is shown a plain object for an annotation that cannot be ClassVar, InitVar or
    KW_ONLY (records._stdlib_fields); the class and each field get the written string back."""
    written = _annotations_along(cls)
    assert all(type(a) is str for a in cls.__dict__.get("__annotations__", {}).values()), cls
    assert {f.name: f.type for f in dataclasses.fields(cls)} == {f.name: written[f.name] for f in dataclasses.fields(cls)}


def test_classvar_initvar_and_kw_only_are_read_from_the_written_annotations():
    @record(frozen=True)
    class _Special:
        """Each annotation the stdlib treats specially, by name and through a module."""

        shared: ClassVar[int] = 3
        also_shared: typing.ClassVar[str] = "s"
        a: int
        _: dataclasses.KW_ONLY
        b: str = "b"

    twin = dataclasses.make_dataclass("_Special", [("a", "int"), ("b", "str", dataclasses.field(default="b", kw_only=True))],
                                      frozen=True)
    assert [(f.name, f.type, f.kw_only) for f in dataclasses.fields(_Special)] == \
        [(f.name, f.type, f.kw_only) for f in dataclasses.fields(twin)] == [("a", "int", False), ("b", "str", True)]
    assert _Special.__annotations__ == {"shared": "ClassVar[int]", "also_shared": "typing.ClassVar[str]", "a": "int",
                                        "_": "dataclasses.KW_ONLY", "b": "str"}
    assert _Special.shared == 3 and _Special(1, b="x") == _Special(1, b="x")
    with pytest.raises(TypeError):
        _Special(1, "x")  # type: ignore[misc]  # b is keyword-only
