"""`dataclass` as the package declares its records, without compiling anything as a class is made.

On Python 3.10 and 3.11, `dataclasses.dataclass` compiles each method it generates from source
when the class is created (`__init__`, `__repr__`, `__eq__`, `__hash__`, a frozen class's
`__setattr__` and `__delattr__`): 0.6 to 1.1 ms a class, about 90 ms for the 115 classes a run
imports, a quarter of a run with one document changed and an eighth of a cold one, paid before
any document is read. This decorator takes the same arguments and gives each class the same
behaviour for what the package uses, and the stdlib still makes the fields (so `fields`,
`replace`, `is_dataclass` and `__match_args__` are the stdlib's own), but:

- `__eq__`, `__hash__`, `__repr__`, the order methods and a frozen class's `__setattr__` and
  `__delattr__` are closures over the class's field names, made without compiling: each does
  what the generated one does (the fields compared as a tuple, the same class required);
- `__init__` is made on the class's first instantiation, from the source `dataclasses` would
  write, so a class a run never builds through its constructor costs nothing (68 of 115 in a run
  with one document changed), and one it builds runs the same code as before; that source is
  compiled once per shape of constructor (`init_function`), not once per class, and the shapes
  of the package's records are compiled when it is installed: `drafterlint._record_shapes`
  holds their templates as source, so its .pyc holds them compiled.

mypy reads the stdlib decorator (below, `TYPE_CHECKING`), so it checks every record as the
dataclass it is. `tests/test_records.py` builds each record of the package again with
`dataclasses.dataclass` and requires the same signature, fields, equality, hash, order, repr and
frozenness; `tests/test_code_shape.py` refuses the stdlib decorator in the package. Not carried
over, because no record uses them: `InitVar` pseudo-fields (refused), `unsafe_hash`, `weakref_slot`.
"""

from __future__ import annotations

import dataclasses
import operator
import reprlib
import types
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

__all__ = ["dataclass"]


def _record(cls: type | None = None, /, *, init: bool = True, repr: bool = True, eq: bool = True,
            order: bool = False, unsafe_hash: bool = False, frozen: bool = False,
            match_args: bool = True, kw_only: bool = False, slots: bool = False) -> Any:
    if unsafe_hash:
        raise TypeError("records: unsafe_hash is not supported (use dataclasses.dataclass)")
    if order and not eq:
        raise ValueError("eq must be true if order is true")

    def wrap(cls: type) -> type:
        return _make(cls, init, repr, eq, order, frozen, match_args, kw_only, slots)

    return wrap if cls is None else wrap(cls)


if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
else:
    dataclass = _record


# Default of a parameter whose field has a default factory: the factory is called when it is
# the value given (the stdlib's own marker is private, and a copy of it behaves the same).
class _Factory:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


HAS_DEFAULT_FACTORY = _Factory()


def _make(cls: type, init: bool, repr_: bool, eq: bool, order: bool, frozen: bool,
          match_args: bool, kw_only: bool, slots: bool) -> type:
    own = vars(cls)
    explicit_hash = not ("__hash__" not in own or (own["__hash__"] is None and "__eq__" in own))
    if frozen and ("__setattr__" in own or "__delattr__" in own):
        raise TypeError(f"Cannot overwrite attribute __setattr__ or __delattr__ in class {cls.__name__}")
    cls = _stdlib_fields(cls, match_args, kw_only, slots)
    every = cls.__dataclass_fields__  # type: ignore[attr-defined]
    fields = dataclasses.fields(cls)
    if len(every) != len(fields) and any(type(f.type) is dataclasses.InitVar or "InitVar" in str(f.type)
                                         for f in every.values()):
        raise TypeError(f"{cls.__name__}: records do not carry InitVar fields")
    _inherit_frozenness(cls, frozen)
    own = vars(cls)
    if init and "__init__" not in own:
        _check_defaults(fields)
        cls.__init__ = _lazy_init(cls, frozen, slots)  # type: ignore[misc]
    if repr_ and "__repr__" not in own:
        cls.__repr__ = _repr([f.name for f in fields if f.repr])  # type: ignore[assignment]
    compared = _getter([f.name for f in fields if f.compare])
    if eq and "__eq__" not in own:
        cls.__eq__ = _eq(compared)  # type: ignore[assignment]
    if order:
        for name, op in (("__lt__", operator.lt), ("__le__", operator.le),
                         ("__gt__", operator.gt), ("__ge__", operator.ge)):
            if name in own:
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}. "
                                "Consider using functools.total_ordering")
            setattr(cls, name, _cmp(name, op, compared))
    if eq and not explicit_hash:
        # As dataclasses' table for unsafe_hash=False: frozen and compared, hashed by the
        # same fields (a field's `hash` overriding its `compare`); compared but mutable, unhashable.
        cls.__hash__ = (_hash(_getter([f.name for f in fields if (f.compare if f.hash is None else f.hash)]))  # type: ignore[assignment]
                        if frozen else None)
    if frozen:
        names = frozenset(f.name for f in fields)
        cls.__setattr__, cls.__delattr__ = _frozen(cls, names)  # type: ignore[method-assign]
        if slots:
            cls.__getstate__ = _getstate  # type: ignore[attr-defined]
            cls.__setstate__ = _setstate  # type: ignore[attr-defined]
    cls.__record_params__ = _Params(init, repr_, eq, order, frozen)  # type: ignore[attr-defined]
    return cls


class _Plain:
    """What a field's annotation stands for while the stdlib reads it (`_stdlib_fields`)."""

    __slots__ = ()


_PLAIN = _Plain()


def _stdlib_fields(cls: type, match_args: bool, kw_only: bool, slots: bool) -> type:
    """`dataclasses.dataclass` making only the fields. The package's annotations are strings
    (`from __future__ import annotations`), which the stdlib matches against `ClassVar`,
    `InitVar` and `KW_ONLY` by a pattern and module lookups, three times a field (a third of
    making a record's fields); one that names none of them (as a name or through a module:
    `dataclasses.KW_ONLY`) is shown to it as an object that is none of them, and given back to
    the class and its field after."""
    own: dict[str, Any] = cls.__dict__.get("__annotations__") or {}
    shown: dict[str, Any] = {}
    for name, a in own.items():
        if type(a) is not str:
            shown = {}
            break
        shown[name] = a if "ClassVar" in a or "InitVar" in a or "KW_ONLY" in a else _PLAIN
    if shown:
        cls.__annotations__ = shown
    try:
        made: type = dataclasses.dataclass(cls, init=False, repr=False, eq=False, order=False, frozen=False,
                                           match_args=match_args, kw_only=kw_only, slots=slots)
    finally:
        if shown:
            cls.__annotations__ = own
    if shown:
        if made is not cls:  # a slotted record is a new class, made with the shown ones
            made.__annotations__ = own
        for f in made.__dataclass_fields__.values():  # type: ignore[attr-defined]
            if f.type is _PLAIN:
                f.type = own[f.name]
    return made


class _Params:
    """What a record was declared with (the stdlib's `__dataclass_params__` says init, repr and
    eq are off, since the stdlib made none of them)."""

    __slots__ = ("init", "repr", "eq", "order", "frozen")

    def __init__(self, init: bool, repr_: bool, eq: bool, order: bool, frozen: bool) -> None:
        self.init, self.repr, self.eq, self.order, self.frozen = init, repr_, eq, order, frozen


def _inherit_frozenness(cls: type, frozen: bool) -> None:
    """The stdlib's rule between a record and the records it derives from, which it can no longer
    see (it was told every record is mutable)."""
    for base in cls.__mro__[1:]:
        params = getattr(base, "__record_params__", None)
        if params is None:
            continue
        if params.frozen and not frozen:
            raise TypeError("cannot inherit non-frozen dataclass from a frozen one")
        if frozen and not params.frozen:
            raise TypeError("cannot inherit frozen dataclass from a non-frozen one")


def _check_defaults(fields: tuple[dataclasses.Field, ...]) -> None:
    seen_default = False
    for f in fields:
        if not f.init or f.kw_only:
            continue
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")


def _getter(names: list[str]) -> Callable[[Any], tuple]:
    if not names:
        return lambda self: ()
    if len(names) == 1:
        get = operator.attrgetter(names[0])
        return lambda self: (get(self),)
    return operator.attrgetter(*names)


def _eq(key: Callable[[Any], tuple]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented
    return __eq__


def _cmp(name: str, op: Callable[[Any, Any], Any], key: Callable[[Any], tuple]) -> Callable[[Any, Any], Any]:
    def compare(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return op(key(self), key(other))
        return NotImplemented
    compare.__name__ = name
    return compare


def _hash(key: Callable[[Any], tuple]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(key(self))
    return __hash__


def _repr(names: list[str]) -> Callable[[Any], str]:
    @reprlib.recursive_repr("...")
    def __repr__(self: Any) -> str:
        return f"{self.__class__.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in names)})"
    return __repr__


def _frozen(cls: Any, names: frozenset[str]) -> tuple[Callable[..., None], Callable[..., None]]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)
    return __setattr__, __delattr__


def _getstate(self: Any) -> list:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def _setstate(self: Any, state: list) -> None:
    for f, value in zip(dataclasses.fields(self), state):
        object.__setattr__(self, f.name, value)


def _lazy_init(cls: type, frozen: bool, slots: bool) -> Callable[..., None]:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        real = init_function(cls, frozen, slots)
        cls.__init__ = real  # type: ignore[misc]
        real(self, *args, **kwargs)
    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


# A constructor's code depends only on its shape: whether the record is frozen, each field's kind
# (a parameter, a parameter with a factory, a value a factory or a slot's default gives outside
# the parameters) and whether it is keyword-only, the instance's name and `__post_init__`.
# `compile` costs some 140 us a constructor, and a run with one document changed builds 64
# records of 36 shapes: so each shape has one template, and each record's constructor is that
# template's code with the record's names put in (CodeType.replace: the same bytecode as the
# source dataclasses writes for it, so each call costs what it did). The package's shapes are
# shipped compiled (drafterlint._record_shapes, written by `shapes_module`); another shape (a
# record declared elsewhere) is compiled on its first use.
_TEMPLATES: dict[tuple, types.CodeType] = {}
_KINDS = {"param": "P", "factory": "F", "made": "M", "slot default": "S"}


def init_function(cls: type, frozen: bool, slots: bool) -> Callable[..., None]:
    """The `__init__` dataclasses would write for `cls` (its `_init_fn`, line for line: each
    parameter, its default or factory marker, each field set in order, `__post_init__` last),
    made from its shape's template."""
    key, scope, names, defaults, kw_defaults = _shape(cls, frozen, slots)
    template = _TEMPLATES.get(key)
    if template is None:
        template = _TEMPLATES[key] = _template(key)
    code = template.replace(
        co_varnames=tuple(names.get(n, n) for n in template.co_varnames),
        co_names=tuple(names.get(n, n) for n in template.co_names),
        co_consts=tuple(names.get(c, c) if type(c) is str else c for c in template.co_consts),
        co_filename=f"<record {cls.__qualname__}>", co_firstlineno=1)
    made: Callable[..., None] = types.FunctionType(code, scope, "__init__", tuple(defaults) or None)
    made.__kwdefaults__ = kw_defaults or None
    made.__qualname__ = f"{cls.__qualname__}.__init__"
    made.__module__ = cls.__module__
    return made


def shape_of(cls: type) -> tuple:
    """The key of the template a record's constructor is made from."""
    params = cls.__record_params__  # type: ignore[attr-defined]
    return _shape(cls, params.frozen, "__slots__" in vars(cls))[0]


def _shape(cls: type, frozen: bool, slots: bool) -> tuple[tuple, dict[str, Any], dict[str, str], list[Any], dict[str, Any]]:
    """The key of the constructor's template, and what the record puts in it: the function's
    globals, each placeholder's name, the positional and the keyword-only defaults."""
    fields = dataclasses.fields(cls)
    me = "__dataclass_self__" if any(f.name == "self" for f in fields) else "self"
    scope: dict[str, Any] = {"__HAS_DEFAULT_FACTORY": HAS_DEFAULT_FACTORY, "__object_setattr": object.__setattr__}
    shape: list[tuple[str, bool]] = []
    names: dict[str, str] = {}  # a template's placeholder: the field's name
    defaults: list[Any] = []  # the positional parameters' defaults, in order
    kw_defaults: dict[str, Any] = {}
    for f in fields:
        i = len(shape)  # the field's number among those the constructor sets
        if f.default_factory is not dataclasses.MISSING:
            scope[f"__dflt_{i}"] = f.default_factory
            kind = "factory" if f.init else "made"
        elif f.init:
            kind = "param"
        elif slots and f.default is not dataclasses.MISSING:
            scope[f"__dflt_{i}"] = f.default
            kind = "slot default"
        else:
            continue  # read from the class attribute that holds the default
        shape.append((kind, bool(f.init and f.kw_only)))
        names[f"_p{i}"] = names[f"_a{i}"] = f.name
        if f.init:
            default = HAS_DEFAULT_FACTORY if kind == "factory" else f.default
            if f.kw_only:
                if default is not dataclasses.MISSING:
                    kw_defaults[f.name] = default
            elif default is not dataclasses.MISSING or defaults:
                defaults.append(default)  # (_check_defaults: none missing after the first)
    key = (frozen, me, tuple(shape), hasattr(cls, "__post_init__"))
    return key, scope, names, defaults, kw_defaults


def _template(key: tuple) -> types.CodeType:
    from drafterlint._record_shapes import SHAPES

    shipped = SHAPES.get(key)
    if shipped is not None:
        return shipped
    source, name = template_source(key)
    scope: dict[str, Any] = {}
    exec(compile(source, name, "exec"), scope)
    # (taken out of its globals, which it holds: a reference cycle the collector, off in a run, never frees)
    return scope.pop("__init__").__code__


def template_source(key: tuple) -> tuple[str, str]:
    """The constructor of a shape as the source dataclasses writes, with placeholders (_p1,
    _a1: the parameter and attribute of the second field it sets) where a record's names go,
    and the name it is compiled under. A field's default or factory is the function's (its
    defaults) or its global (__dflt_1), never a name."""
    frozen, me, shape, post_init = key
    params: list[str] = []
    kw_params: list[str] = []
    body: list[str] = []
    for i, (kind, kw_only) in enumerate(shape):
        param, default = f"_p{i}", f"__dflt_{i}"
        value = {"param": param, "factory": f"{default}() if {param} is __HAS_DEFAULT_FACTORY else {param}",
                 "made": f"{default}()", "slot default": default}[kind]
        if kind in ("param", "factory"):
            (kw_params if kw_only else params).append(param)
        body.append(f"__object_setattr({me}, '_a{i}', {value})" if frozen else f"{me}._a{i} = {value}")
    if post_init:
        body.append(f"{me}.__post_init__()")
    signature = ", ".join([me, *params, *(["*", *kw_params] if kw_params else [])])
    source = f"def __init__({signature}):\n" + "".join(f"    {line}\n" for line in body or ["pass"])
    described = "".join(_KINDS[kind].lower() if kw_only else _KINDS[kind] for kind, kw_only in shape)
    return source, (f"<record shape {'frozen ' if frozen else ''}{described or '-'}"
                    f"{' self field' if me != 'self' else ''}{' post_init' if post_init else ''}>")


SHAPES_HEADER = '''"""The constructors' templates of the shapes the package's records have (drafterlint.records),
as the source dataclasses writes: compiled into this module's .pyc once, not at each run's first
record of each shape. Written by `python -m tests.helpers.record_shapes` (tests/test_records.py
requires it to be what records.shapes_module writes for the package's records); do not edit."""
# ruff: noqa
# mypy: ignore-errors

from __future__ import annotations

SHAPES = {}
'''


def shapes_module(keys: "Iterable[tuple]") -> str:
    """The source of drafterlint._record_shapes for these shapes (its future import is records',
    which the templates compiled here inherit: the same code flags)."""
    out = [SHAPES_HEADER]
    for key in sorted(set(keys), key=repr):
        source, name = template_source(key)
        out.append(f"\n# {name[1:-1]}\n{source}SHAPES[{key!r}] = __init__.__code__\n")
    if len(out) > 1:
        out.append("\ndel __init__\n")
    return "".join(out)
