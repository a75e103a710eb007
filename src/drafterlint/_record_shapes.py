"""The constructors' templates of the shapes the package's records have (drafterlint.records),
as the source dataclasses writes: compiled into this module's .pyc once, not at each run's first
record of each shape. Written by `python -m tests.helpers.record_shapes` (tests/test_records.py
requires it to be what records.shapes_module writes for the package's records); do not edit."""
# ruff: noqa
# mypy: ignore-errors

from __future__ import annotations

SHAPES = {}

# record shape FFF
def __init__(self, _p0, _p1, _p2):
    self._a0 = __dflt_0() if _p0 is __HAS_DEFAULT_FACTORY else _p0
    self._a1 = __dflt_1() if _p1 is __HAS_DEFAULT_FACTORY else _p1
    self._a2 = __dflt_2() if _p2 is __HAS_DEFAULT_FACTORY else _p2
SHAPES[(False, 'self', (('factory', False), ('factory', False), ('factory', False)), False)] = __init__.__code__

# record shape FP
def __init__(self, _p0, _p1):
    self._a0 = __dflt_0() if _p0 is __HAS_DEFAULT_FACTORY else _p0
    self._a1 = _p1
SHAPES[(False, 'self', (('factory', False), ('param', False)), False)] = __init__.__code__

# record shape FPFF
def __init__(self, _p0, _p1, _p2, _p3):
    self._a0 = __dflt_0() if _p0 is __HAS_DEFAULT_FACTORY else _p0
    self._a1 = _p1
    self._a2 = __dflt_2() if _p2 is __HAS_DEFAULT_FACTORY else _p2
    self._a3 = __dflt_3() if _p3 is __HAS_DEFAULT_FACTORY else _p3
SHAPES[(False, 'self', (('factory', False), ('param', False), ('factory', False), ('factory', False)), False)] = __init__.__code__

# record shape FPPPFF
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5):
    self._a0 = __dflt_0() if _p0 is __HAS_DEFAULT_FACTORY else _p0
    self._a1 = _p1
    self._a2 = _p2
    self._a3 = _p3
    self._a4 = __dflt_4() if _p4 is __HAS_DEFAULT_FACTORY else _p4
    self._a5 = __dflt_5() if _p5 is __HAS_DEFAULT_FACTORY else _p5
SHAPES[(False, 'self', (('factory', False), ('param', False), ('param', False), ('param', False), ('factory', False), ('factory', False)), False)] = __init__.__code__

# record shape PFFF
def __init__(self, _p0, _p1, _p2, _p3):
    self._a0 = _p0
    self._a1 = __dflt_1() if _p1 is __HAS_DEFAULT_FACTORY else _p1
    self._a2 = __dflt_2() if _p2 is __HAS_DEFAULT_FACTORY else _p2
    self._a3 = __dflt_3() if _p3 is __HAS_DEFAULT_FACTORY else _p3
SHAPES[(False, 'self', (('param', False), ('factory', False), ('factory', False), ('factory', False)), False)] = __init__.__code__

# record shape PFFFFP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5):
    self._a0 = _p0
    self._a1 = __dflt_1() if _p1 is __HAS_DEFAULT_FACTORY else _p1
    self._a2 = __dflt_2() if _p2 is __HAS_DEFAULT_FACTORY else _p2
    self._a3 = __dflt_3() if _p3 is __HAS_DEFAULT_FACTORY else _p3
    self._a4 = __dflt_4() if _p4 is __HAS_DEFAULT_FACTORY else _p4
    self._a5 = _p5
SHAPES[(False, 'self', (('param', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('param', False)), False)] = __init__.__code__

# record shape PFPP
def __init__(self, _p0, _p1, _p2, _p3):
    self._a0 = _p0
    self._a1 = __dflt_1() if _p1 is __HAS_DEFAULT_FACTORY else _p1
    self._a2 = _p2
    self._a3 = _p3
SHAPES[(False, 'self', (('param', False), ('factory', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape PP
def __init__(self, _p0, _p1):
    self._a0 = _p0
    self._a1 = _p1
SHAPES[(False, 'self', (('param', False), ('param', False)), False)] = __init__.__code__

# record shape PPF
def __init__(self, _p0, _p1, _p2):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = __dflt_2() if _p2 is __HAS_DEFAULT_FACTORY else _p2
SHAPES[(False, 'self', (('param', False), ('param', False), ('factory', False)), False)] = __init__.__code__

# record shape PPFF
def __init__(self, _p0, _p1, _p2, _p3):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = __dflt_2() if _p2 is __HAS_DEFAULT_FACTORY else _p2
    self._a3 = __dflt_3() if _p3 is __HAS_DEFAULT_FACTORY else _p3
SHAPES[(False, 'self', (('param', False), ('param', False), ('factory', False), ('factory', False)), False)] = __init__.__code__

# record shape PPFFFFFFFFFPF post_init
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8, _p9, _p10, _p11, _p12):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = __dflt_2() if _p2 is __HAS_DEFAULT_FACTORY else _p2
    self._a3 = __dflt_3() if _p3 is __HAS_DEFAULT_FACTORY else _p3
    self._a4 = __dflt_4() if _p4 is __HAS_DEFAULT_FACTORY else _p4
    self._a5 = __dflt_5() if _p5 is __HAS_DEFAULT_FACTORY else _p5
    self._a6 = __dflt_6() if _p6 is __HAS_DEFAULT_FACTORY else _p6
    self._a7 = __dflt_7() if _p7 is __HAS_DEFAULT_FACTORY else _p7
    self._a8 = __dflt_8() if _p8 is __HAS_DEFAULT_FACTORY else _p8
    self._a9 = __dflt_9() if _p9 is __HAS_DEFAULT_FACTORY else _p9
    self._a10 = __dflt_10() if _p10 is __HAS_DEFAULT_FACTORY else _p10
    self._a11 = _p11
    self._a12 = __dflt_12() if _p12 is __HAS_DEFAULT_FACTORY else _p12
    self.__post_init__()
SHAPES[(False, 'self', (('param', False), ('param', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('param', False), ('factory', False)), True)] = __init__.__code__

# record shape PPFFFFFFFPF
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8, _p9, _p10):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = __dflt_2() if _p2 is __HAS_DEFAULT_FACTORY else _p2
    self._a3 = __dflt_3() if _p3 is __HAS_DEFAULT_FACTORY else _p3
    self._a4 = __dflt_4() if _p4 is __HAS_DEFAULT_FACTORY else _p4
    self._a5 = __dflt_5() if _p5 is __HAS_DEFAULT_FACTORY else _p5
    self._a6 = __dflt_6() if _p6 is __HAS_DEFAULT_FACTORY else _p6
    self._a7 = __dflt_7() if _p7 is __HAS_DEFAULT_FACTORY else _p7
    self._a8 = __dflt_8() if _p8 is __HAS_DEFAULT_FACTORY else _p8
    self._a9 = _p9
    self._a10 = __dflt_10() if _p10 is __HAS_DEFAULT_FACTORY else _p10
SHAPES[(False, 'self', (('param', False), ('param', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('param', False), ('factory', False)), False)] = __init__.__code__

# record shape PPFFFFPPF
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = __dflt_2() if _p2 is __HAS_DEFAULT_FACTORY else _p2
    self._a3 = __dflt_3() if _p3 is __HAS_DEFAULT_FACTORY else _p3
    self._a4 = __dflt_4() if _p4 is __HAS_DEFAULT_FACTORY else _p4
    self._a5 = __dflt_5() if _p5 is __HAS_DEFAULT_FACTORY else _p5
    self._a6 = _p6
    self._a7 = _p7
    self._a8 = __dflt_8() if _p8 is __HAS_DEFAULT_FACTORY else _p8
SHAPES[(False, 'self', (('param', False), ('param', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('param', False), ('param', False), ('factory', False)), False)] = __init__.__code__

# record shape PPFFFPFFFFFFPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8, _p9, _p10, _p11, _p12, _p13, _p14, _p15):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = __dflt_2() if _p2 is __HAS_DEFAULT_FACTORY else _p2
    self._a3 = __dflt_3() if _p3 is __HAS_DEFAULT_FACTORY else _p3
    self._a4 = __dflt_4() if _p4 is __HAS_DEFAULT_FACTORY else _p4
    self._a5 = _p5
    self._a6 = __dflt_6() if _p6 is __HAS_DEFAULT_FACTORY else _p6
    self._a7 = __dflt_7() if _p7 is __HAS_DEFAULT_FACTORY else _p7
    self._a8 = __dflt_8() if _p8 is __HAS_DEFAULT_FACTORY else _p8
    self._a9 = __dflt_9() if _p9 is __HAS_DEFAULT_FACTORY else _p9
    self._a10 = __dflt_10() if _p10 is __HAS_DEFAULT_FACTORY else _p10
    self._a11 = __dflt_11() if _p11 is __HAS_DEFAULT_FACTORY else _p11
    self._a12 = _p12
    self._a13 = _p13
    self._a14 = _p14
    self._a15 = _p15
SHAPES[(False, 'self', (('param', False), ('param', False), ('factory', False), ('factory', False), ('factory', False), ('param', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape PPFFPPPPPPPPFPFPPPPFPPFPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8, _p9, _p10, _p11, _p12, _p13, _p14, _p15, _p16, _p17, _p18, _p19, _p20, _p21, _p22, _p23, _p24):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = __dflt_2() if _p2 is __HAS_DEFAULT_FACTORY else _p2
    self._a3 = __dflt_3() if _p3 is __HAS_DEFAULT_FACTORY else _p3
    self._a4 = _p4
    self._a5 = _p5
    self._a6 = _p6
    self._a7 = _p7
    self._a8 = _p8
    self._a9 = _p9
    self._a10 = _p10
    self._a11 = _p11
    self._a12 = __dflt_12() if _p12 is __HAS_DEFAULT_FACTORY else _p12
    self._a13 = _p13
    self._a14 = __dflt_14() if _p14 is __HAS_DEFAULT_FACTORY else _p14
    self._a15 = _p15
    self._a16 = _p16
    self._a17 = _p17
    self._a18 = _p18
    self._a19 = __dflt_19() if _p19 is __HAS_DEFAULT_FACTORY else _p19
    self._a20 = _p20
    self._a21 = _p21
    self._a22 = __dflt_22() if _p22 is __HAS_DEFAULT_FACTORY else _p22
    self._a23 = _p23
    self._a24 = _p24
SHAPES[(False, 'self', (('param', False), ('param', False), ('factory', False), ('factory', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('factory', False), ('param', False), ('factory', False), ('param', False), ('param', False), ('param', False), ('param', False), ('factory', False), ('param', False), ('param', False), ('factory', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape PPFP
def __init__(self, _p0, _p1, _p2, _p3):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = __dflt_2() if _p2 is __HAS_DEFAULT_FACTORY else _p2
    self._a3 = _p3
SHAPES[(False, 'self', (('param', False), ('param', False), ('factory', False), ('param', False)), False)] = __init__.__code__

# record shape PPP
def __init__(self, _p0, _p1, _p2):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = _p2
SHAPES[(False, 'self', (('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape PPPFFFFP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = _p2
    self._a3 = __dflt_3() if _p3 is __HAS_DEFAULT_FACTORY else _p3
    self._a4 = __dflt_4() if _p4 is __HAS_DEFAULT_FACTORY else _p4
    self._a5 = __dflt_5() if _p5 is __HAS_DEFAULT_FACTORY else _p5
    self._a6 = __dflt_6() if _p6 is __HAS_DEFAULT_FACTORY else _p6
    self._a7 = _p7
SHAPES[(False, 'self', (('param', False), ('param', False), ('param', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('param', False)), False)] = __init__.__code__

# record shape PPPPF
def __init__(self, _p0, _p1, _p2, _p3, _p4):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = _p2
    self._a3 = _p3
    self._a4 = __dflt_4() if _p4 is __HAS_DEFAULT_FACTORY else _p4
SHAPES[(False, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('factory', False)), False)] = __init__.__code__

# record shape PPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = _p2
    self._a3 = _p3
    self._a4 = _p4
SHAPES[(False, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape PPPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = _p2
    self._a3 = _p3
    self._a4 = _p4
    self._a5 = _p5
SHAPES[(False, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape PPPPPP post_init
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = _p2
    self._a3 = _p3
    self._a4 = _p4
    self._a5 = _p5
    self.__post_init__()
SHAPES[(False, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), True)] = __init__.__code__

# record shape PPPPPPF
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = _p2
    self._a3 = _p3
    self._a4 = _p4
    self._a5 = _p5
    self._a6 = __dflt_6() if _p6 is __HAS_DEFAULT_FACTORY else _p6
SHAPES[(False, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('factory', False)), False)] = __init__.__code__

# record shape PPPPPPFPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = _p2
    self._a3 = _p3
    self._a4 = _p4
    self._a5 = _p5
    self._a6 = __dflt_6() if _p6 is __HAS_DEFAULT_FACTORY else _p6
    self._a7 = _p7
    self._a8 = _p8
SHAPES[(False, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('factory', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape PPPPPPFPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8, _p9):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = _p2
    self._a3 = _p3
    self._a4 = _p4
    self._a5 = _p5
    self._a6 = __dflt_6() if _p6 is __HAS_DEFAULT_FACTORY else _p6
    self._a7 = _p7
    self._a8 = _p8
    self._a9 = _p9
SHAPES[(False, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('factory', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape PPPPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = _p2
    self._a3 = _p3
    self._a4 = _p4
    self._a5 = _p5
    self._a6 = _p6
SHAPES[(False, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape PPPPPPPPPF
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8, _p9):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = _p2
    self._a3 = _p3
    self._a4 = _p4
    self._a5 = _p5
    self._a6 = _p6
    self._a7 = _p7
    self._a8 = _p8
    self._a9 = __dflt_9() if _p9 is __HAS_DEFAULT_FACTORY else _p9
SHAPES[(False, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('factory', False)), False)] = __init__.__code__

# record shape PPPPPPPPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8, _p9, _p10):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = _p2
    self._a3 = _p3
    self._a4 = _p4
    self._a5 = _p5
    self._a6 = _p6
    self._a7 = _p7
    self._a8 = _p8
    self._a9 = _p9
    self._a10 = _p10
SHAPES[(False, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape P post_init
def __init__(self, _p0):
    self._a0 = _p0
    self.__post_init__()
SHAPES[(False, 'self', (('param', False),), True)] = __init__.__code__

# record shape pppp
def __init__(self, *, _p0, _p1, _p2, _p3):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = _p2
    self._a3 = _p3
SHAPES[(False, 'self', (('param', True), ('param', True), ('param', True), ('param', True)), False)] = __init__.__code__

# record shape ppppPPP
def __init__(self, _p4, _p5, _p6, *, _p0, _p1, _p2, _p3):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = _p2
    self._a3 = _p3
    self._a4 = _p4
    self._a5 = _p5
    self._a6 = _p6
SHAPES[(False, 'self', (('param', True), ('param', True), ('param', True), ('param', True), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape ppppPPPPPPFP
def __init__(self, _p4, _p5, _p6, _p7, _p8, _p9, _p10, _p11, *, _p0, _p1, _p2, _p3):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = _p2
    self._a3 = _p3
    self._a4 = _p4
    self._a5 = _p5
    self._a6 = _p6
    self._a7 = _p7
    self._a8 = _p8
    self._a9 = _p9
    self._a10 = __dflt_10() if _p10 is __HAS_DEFAULT_FACTORY else _p10
    self._a11 = _p11
SHAPES[(False, 'self', (('param', True), ('param', True), ('param', True), ('param', True), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('factory', False), ('param', False)), False)] = __init__.__code__

# record shape ppppPPPPPPPF
def __init__(self, _p4, _p5, _p6, _p7, _p8, _p9, _p10, _p11, *, _p0, _p1, _p2, _p3):
    self._a0 = _p0
    self._a1 = _p1
    self._a2 = _p2
    self._a3 = _p3
    self._a4 = _p4
    self._a5 = _p5
    self._a6 = _p6
    self._a7 = _p7
    self._a8 = _p8
    self._a9 = _p9
    self._a10 = _p10
    self._a11 = __dflt_11() if _p11 is __HAS_DEFAULT_FACTORY else _p11
SHAPES[(False, 'self', (('param', True), ('param', True), ('param', True), ('param', True), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('factory', False)), False)] = __init__.__code__

# record shape frozen FP
def __init__(self, _p0, _p1):
    __object_setattr(self, '_a0', __dflt_0() if _p0 is __HAS_DEFAULT_FACTORY else _p0)
    __object_setattr(self, '_a1', _p1)
SHAPES[(True, 'self', (('factory', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PFFFFPFPFPPPPPPPPPFPPPPPM
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8, _p9, _p10, _p11, _p12, _p13, _p14, _p15, _p16, _p17, _p18, _p19, _p20, _p21, _p22, _p23):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', __dflt_1() if _p1 is __HAS_DEFAULT_FACTORY else _p1)
    __object_setattr(self, '_a2', __dflt_2() if _p2 is __HAS_DEFAULT_FACTORY else _p2)
    __object_setattr(self, '_a3', __dflt_3() if _p3 is __HAS_DEFAULT_FACTORY else _p3)
    __object_setattr(self, '_a4', __dflt_4() if _p4 is __HAS_DEFAULT_FACTORY else _p4)
    __object_setattr(self, '_a5', _p5)
    __object_setattr(self, '_a6', __dflt_6() if _p6 is __HAS_DEFAULT_FACTORY else _p6)
    __object_setattr(self, '_a7', _p7)
    __object_setattr(self, '_a8', __dflt_8() if _p8 is __HAS_DEFAULT_FACTORY else _p8)
    __object_setattr(self, '_a9', _p9)
    __object_setattr(self, '_a10', _p10)
    __object_setattr(self, '_a11', _p11)
    __object_setattr(self, '_a12', _p12)
    __object_setattr(self, '_a13', _p13)
    __object_setattr(self, '_a14', _p14)
    __object_setattr(self, '_a15', _p15)
    __object_setattr(self, '_a16', _p16)
    __object_setattr(self, '_a17', _p17)
    __object_setattr(self, '_a18', __dflt_18() if _p18 is __HAS_DEFAULT_FACTORY else _p18)
    __object_setattr(self, '_a19', _p19)
    __object_setattr(self, '_a20', _p20)
    __object_setattr(self, '_a21', _p21)
    __object_setattr(self, '_a22', _p22)
    __object_setattr(self, '_a23', _p23)
    __object_setattr(self, '_a24', __dflt_24())
SHAPES[(True, 'self', (('param', False), ('factory', False), ('factory', False), ('factory', False), ('factory', False), ('param', False), ('factory', False), ('param', False), ('factory', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('factory', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('made', False)), False)] = __init__.__code__

# record shape frozen PP
def __init__(self, _p0, _p1):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
SHAPES[(True, 'self', (('param', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PPF
def __init__(self, _p0, _p1, _p2):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', __dflt_2() if _p2 is __HAS_DEFAULT_FACTORY else _p2)
SHAPES[(True, 'self', (('param', False), ('param', False), ('factory', False)), False)] = __init__.__code__

# record shape frozen PPFP
def __init__(self, _p0, _p1, _p2, _p3):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', __dflt_2() if _p2 is __HAS_DEFAULT_FACTORY else _p2)
    __object_setattr(self, '_a3', _p3)
SHAPES[(True, 'self', (('param', False), ('param', False), ('factory', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PPP
def __init__(self, _p0, _p1, _p2):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PPP post_init
def __init__(self, _p0, _p1, _p2):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    self.__post_init__()
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False)), True)] = __init__.__code__

# record shape frozen PPPF
def __init__(self, _p0, _p1, _p2, _p3):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', __dflt_3() if _p3 is __HAS_DEFAULT_FACTORY else _p3)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('factory', False)), False)] = __init__.__code__

# record shape frozen PPPP
def __init__(self, _p0, _p1, _p2, _p3):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', _p3)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PPPP post_init
def __init__(self, _p0, _p1, _p2, _p3):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', _p3)
    self.__post_init__()
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('param', False)), True)] = __init__.__code__

# record shape frozen PPPPF
def __init__(self, _p0, _p1, _p2, _p3, _p4):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', _p3)
    __object_setattr(self, '_a4', __dflt_4() if _p4 is __HAS_DEFAULT_FACTORY else _p4)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('factory', False)), False)] = __init__.__code__

# record shape frozen PPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', _p3)
    __object_setattr(self, '_a4', _p4)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PPPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', _p3)
    __object_setattr(self, '_a4', _p4)
    __object_setattr(self, '_a5', _p5)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PPPPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', _p3)
    __object_setattr(self, '_a4', _p4)
    __object_setattr(self, '_a5', _p5)
    __object_setattr(self, '_a6', _p6)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PPPPPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', _p3)
    __object_setattr(self, '_a4', _p4)
    __object_setattr(self, '_a5', _p5)
    __object_setattr(self, '_a6', _p6)
    __object_setattr(self, '_a7', _p7)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PPPPPPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', _p3)
    __object_setattr(self, '_a4', _p4)
    __object_setattr(self, '_a5', _p5)
    __object_setattr(self, '_a6', _p6)
    __object_setattr(self, '_a7', _p7)
    __object_setattr(self, '_a8', _p8)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PPPPPPPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8, _p9):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', _p3)
    __object_setattr(self, '_a4', _p4)
    __object_setattr(self, '_a5', _p5)
    __object_setattr(self, '_a6', _p6)
    __object_setattr(self, '_a7', _p7)
    __object_setattr(self, '_a8', _p8)
    __object_setattr(self, '_a9', _p9)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PPPPPPPPPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8, _p9, _p10, _p11):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', _p3)
    __object_setattr(self, '_a4', _p4)
    __object_setattr(self, '_a5', _p5)
    __object_setattr(self, '_a6', _p6)
    __object_setattr(self, '_a7', _p7)
    __object_setattr(self, '_a8', _p8)
    __object_setattr(self, '_a9', _p9)
    __object_setattr(self, '_a10', _p10)
    __object_setattr(self, '_a11', _p11)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PPPPPPPPPPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8, _p9, _p10, _p11, _p12):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', _p3)
    __object_setattr(self, '_a4', _p4)
    __object_setattr(self, '_a5', _p5)
    __object_setattr(self, '_a6', _p6)
    __object_setattr(self, '_a7', _p7)
    __object_setattr(self, '_a8', _p8)
    __object_setattr(self, '_a9', _p9)
    __object_setattr(self, '_a10', _p10)
    __object_setattr(self, '_a11', _p11)
    __object_setattr(self, '_a12', _p12)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PPPPPPPPPPPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8, _p9, _p10, _p11, _p12, _p13):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', _p3)
    __object_setattr(self, '_a4', _p4)
    __object_setattr(self, '_a5', _p5)
    __object_setattr(self, '_a6', _p6)
    __object_setattr(self, '_a7', _p7)
    __object_setattr(self, '_a8', _p8)
    __object_setattr(self, '_a9', _p9)
    __object_setattr(self, '_a10', _p10)
    __object_setattr(self, '_a11', _p11)
    __object_setattr(self, '_a12', _p12)
    __object_setattr(self, '_a13', _p13)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PPPPPPPPPPPPPPPPPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8, _p9, _p10, _p11, _p12, _p13, _p14, _p15, _p16, _p17, _p18, _p19):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', _p3)
    __object_setattr(self, '_a4', _p4)
    __object_setattr(self, '_a5', _p5)
    __object_setattr(self, '_a6', _p6)
    __object_setattr(self, '_a7', _p7)
    __object_setattr(self, '_a8', _p8)
    __object_setattr(self, '_a9', _p9)
    __object_setattr(self, '_a10', _p10)
    __object_setattr(self, '_a11', _p11)
    __object_setattr(self, '_a12', _p12)
    __object_setattr(self, '_a13', _p13)
    __object_setattr(self, '_a14', _p14)
    __object_setattr(self, '_a15', _p15)
    __object_setattr(self, '_a16', _p16)
    __object_setattr(self, '_a17', _p17)
    __object_setattr(self, '_a18', _p18)
    __object_setattr(self, '_a19', _p19)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PPPPPPPPPPPPPPPPPPPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8, _p9, _p10, _p11, _p12, _p13, _p14, _p15, _p16, _p17, _p18, _p19, _p20, _p21):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', _p3)
    __object_setattr(self, '_a4', _p4)
    __object_setattr(self, '_a5', _p5)
    __object_setattr(self, '_a6', _p6)
    __object_setattr(self, '_a7', _p7)
    __object_setattr(self, '_a8', _p8)
    __object_setattr(self, '_a9', _p9)
    __object_setattr(self, '_a10', _p10)
    __object_setattr(self, '_a11', _p11)
    __object_setattr(self, '_a12', _p12)
    __object_setattr(self, '_a13', _p13)
    __object_setattr(self, '_a14', _p14)
    __object_setattr(self, '_a15', _p15)
    __object_setattr(self, '_a16', _p16)
    __object_setattr(self, '_a17', _p17)
    __object_setattr(self, '_a18', _p18)
    __object_setattr(self, '_a19', _p19)
    __object_setattr(self, '_a20', _p20)
    __object_setattr(self, '_a21', _p21)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PPPPPPPPPPPPPPPPPPPPPPPP
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, _p8, _p9, _p10, _p11, _p12, _p13, _p14, _p15, _p16, _p17, _p18, _p19, _p20, _p21, _p22, _p23):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', _p3)
    __object_setattr(self, '_a4', _p4)
    __object_setattr(self, '_a5', _p5)
    __object_setattr(self, '_a6', _p6)
    __object_setattr(self, '_a7', _p7)
    __object_setattr(self, '_a8', _p8)
    __object_setattr(self, '_a9', _p9)
    __object_setattr(self, '_a10', _p10)
    __object_setattr(self, '_a11', _p11)
    __object_setattr(self, '_a12', _p12)
    __object_setattr(self, '_a13', _p13)
    __object_setattr(self, '_a14', _p14)
    __object_setattr(self, '_a15', _p15)
    __object_setattr(self, '_a16', _p16)
    __object_setattr(self, '_a17', _p17)
    __object_setattr(self, '_a18', _p18)
    __object_setattr(self, '_a19', _p19)
    __object_setattr(self, '_a20', _p20)
    __object_setattr(self, '_a21', _p21)
    __object_setattr(self, '_a22', _p22)
    __object_setattr(self, '_a23', _p23)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False)), False)] = __init__.__code__

# record shape frozen PPPPPPPPpppppffffpf
def __init__(self, _p0, _p1, _p2, _p3, _p4, _p5, _p6, _p7, *, _p8, _p9, _p10, _p11, _p12, _p13, _p14, _p15, _p16, _p17, _p18):
    __object_setattr(self, '_a0', _p0)
    __object_setattr(self, '_a1', _p1)
    __object_setattr(self, '_a2', _p2)
    __object_setattr(self, '_a3', _p3)
    __object_setattr(self, '_a4', _p4)
    __object_setattr(self, '_a5', _p5)
    __object_setattr(self, '_a6', _p6)
    __object_setattr(self, '_a7', _p7)
    __object_setattr(self, '_a8', _p8)
    __object_setattr(self, '_a9', _p9)
    __object_setattr(self, '_a10', _p10)
    __object_setattr(self, '_a11', _p11)
    __object_setattr(self, '_a12', _p12)
    __object_setattr(self, '_a13', __dflt_13() if _p13 is __HAS_DEFAULT_FACTORY else _p13)
    __object_setattr(self, '_a14', __dflt_14() if _p14 is __HAS_DEFAULT_FACTORY else _p14)
    __object_setattr(self, '_a15', __dflt_15() if _p15 is __HAS_DEFAULT_FACTORY else _p15)
    __object_setattr(self, '_a16', __dflt_16() if _p16 is __HAS_DEFAULT_FACTORY else _p16)
    __object_setattr(self, '_a17', _p17)
    __object_setattr(self, '_a18', __dflt_18() if _p18 is __HAS_DEFAULT_FACTORY else _p18)
SHAPES[(True, 'self', (('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', False), ('param', True), ('param', True), ('param', True), ('param', True), ('param', True), ('factory', True), ('factory', True), ('factory', True), ('factory', True), ('param', True), ('factory', True)), False)] = __init__.__code__

# record shape frozen P
def __init__(self, _p0):
    __object_setattr(self, '_a0', _p0)
SHAPES[(True, 'self', (('param', False),), False)] = __init__.__code__

# record shape frozen P post_init
def __init__(self, _p0):
    __object_setattr(self, '_a0', _p0)
    self.__post_init__()
SHAPES[(True, 'self', (('param', False),), True)] = __init__.__code__

del __init__
