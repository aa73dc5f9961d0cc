"""The C library under the package: finding libcarc, its structs and prototypes.

Nothing here is public. The structs mirror <carc.h> field for field; the
prototypes give ctypes the argument and result types of every function the
package calls, so that a wrong call is a TypeError rather than a crash.

Where the library is looked for, first match wins:

1. the file named by the environment variable CARC_LIBRARY;
2. the source tree this package sits in, after `make`: build/lib/libcarc.so.N
   beside the python/ folder;
3. the installed library (`make install`): libcarc.so.N through the
   dynamic loader's search path, then ctypes.util.find_library("carc").
"""

import ctypes
import ctypes.util
import glob
import os

# the soname's number: the library's major version (carc.h's
# CARC_VERSION_MAJOR); an installed library of another major version is not
# taken, since its structs may differ
SONAME_MAJOR = 0

OK = 0
END = 1
EINVAL = -1
ENOMEM = -2
EIO = -3
ESYNTAX = -4
EILLEGAL = -5
ESTATE = -6
ERANGE = -7

POSITION_END = -1

SEVERITY_ERROR = 0
SEVERITY_WARNING = 1
SEVERITY_NOTE = 2


class Diagnostic(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_char * 8),
        ("severity", ctypes.c_int),
        ("message", ctypes.c_char_p),
        ("file", ctypes.c_char_p),
        ("line", ctypes.c_uint),
        ("column", ctypes.c_uint),
    ]


class MoveSpec(ctypes.Structure):
    _fields_ = [
        ("tile", ctypes.c_char * 16),
        ("discard", ctypes.c_int),
        ("x", ctypes.c_int),
        ("y", ctypes.c_int),
        ("rotation", ctypes.c_int),
        ("role", ctypes.c_char * 16),
        ("spot", ctypes.c_char * 4),
        ("recall", ctypes.c_char * 16),
        ("order", ctypes.c_char * 64),
    ]


class TurnInfo(ctypes.Structure):
    _fields_ = [
        ("number", ctypes.c_int),
        ("bonus", ctypes.c_int),
        ("colour", ctypes.c_char * 8),
        ("move", MoveSpec),
        ("illegal", ctypes.c_int),
        ("line", ctypes.c_uint),
        ("scores", ctypes.c_int * 8),
    ]


class TileInfo(ctypes.Structure):
    _fields_ = [
        ("id", ctypes.c_char * 16),
        ("x", ctypes.c_int),
        ("y", ctypes.c_int),
        ("rotation", ctypes.c_int),
        ("turn", ctypes.c_int),
        ("colour", ctypes.c_char * 8),
    ]


class FeatureInfo(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_char * 16),
        ("name", ctypes.c_char * 64),
        ("ntiles", ctypes.c_int),
        ("complete", ctypes.c_int),
        ("scored", ctypes.c_int),
        ("points", ctypes.c_int),
        ("followers", ctypes.c_int),
        ("owners", ctypes.c_uint8),
    ]


class FollowerInfo(ctypes.Structure):
    _fields_ = [
        ("colour", ctypes.c_char * 8),
        ("role", ctypes.c_char * 16),
        ("tile", ctypes.c_int),
        ("spot", ctypes.c_char * 4),
        ("feature", ctypes.c_int),
        ("turn", ctypes.c_int),
    ]


class Setup(ctypes.Structure):
    _fields_ = [
        ("rules", ctypes.c_char_p),
        ("expansions", ctypes.c_char_p),
        ("players", ctypes.c_int),
        ("colours", ctypes.c_char_p),
        ("edition", ctypes.c_int),
        ("seed", ctypes.c_uint64),
        ("deploy_rate", ctypes.c_double),
        ("claim_rate", ctypes.c_double),
    ]


_P = ctypes.c_void_p  # every handle: opaque
_S = ctypes.c_char_p
_I = ctypes.c_int
_Z = ctypes.c_size_t

# name: (result type, argument types)
_PROTOTYPES = {
    "carc_version": (_S, []),
    "carc_version_number": (_I, []),
    "carc_strerror": (_S, [_I]),
    "carc_move_format": (_Z, [ctypes.POINTER(MoveSpec), ctypes.c_char_p, _Z]),
    "carc_move_parse": (_I, [_S, ctypes.POINTER(MoveSpec)]),
    "carc_match_free": (None, [_P]),
    "carc_match_error": (_S, [_P]),
    # read
    "carc_records_open": (_P, [_S, ctypes.c_char_p, _Z]),
    "carc_records_open_memory": (_P, [ctypes.c_char_p, _Z, _S, ctypes.c_char_p, _Z]),
    "carc_records_open_stream": (_P, [_P, _S, ctypes.c_char_p, _Z]),
    "carc_records_close": (None, [_P]),
    "carc_records_next": (_I, [_P, ctypes.POINTER(_P)]),
    "carc_records_error": (_S, [_P]),
    "carc_match_ntags": (_I, [_P]),
    "carc_match_tag_name": (_Z, [_P, _I, ctypes.c_char_p, _Z]),
    "carc_match_tag_value": (_S, [_P, _I]),
    "carc_match_tag": (_S, [_P, _S]),
    "carc_match_ndiagnostics": (_I, [_P]),
    "carc_match_diagnostic": (_I, [_P, _I, ctypes.POINTER(Diagnostic)]),
    "carc_match_valid": (_I, [_P]),
    "carc_match_nturns": (_I, [_P]),
    "carc_match_turn": (_I, [_P, _I, ctypes.POINTER(TurnInfo)]),
    # state
    "carc_match_seek": (_I, [_P, _I]),
    "carc_match_position": (_I, [_P]),
    "carc_match_nplayers": (_I, [_P]),
    "carc_match_colour": (_S, [_P, _I]),
    "carc_match_player": (_S, [_P, _I]),
    "carc_match_score": (_I, [_P, _I]),
    "carc_match_projected": (_I, [_P, _I]),
    "carc_match_followers_left": (_I, [_P, _I]),
    "carc_match_supply_left": (_I, [_P]),
    "carc_match_over": (_I, [_P]),
    "carc_match_final": (_I, [_P]),
    "carc_match_ntiles": (_I, [_P]),
    "carc_match_tile": (_I, [_P, _I, ctypes.POINTER(TileInfo)]),
    "carc_match_nfeatures": (_I, [_P]),
    "carc_match_feature": (_I, [_P, _I, ctypes.POINTER(FeatureInfo)]),
    "carc_match_feature_tiles": (_I, [_P, _I, ctypes.POINTER(_I), _I]),
    "carc_match_nfollowers": (_I, [_P]),
    "carc_match_follower": (_I, [_P, _I, ctypes.POINTER(FollowerInfo)]),
    # play
    "carc_match_new": (_P, [ctypes.POINTER(Setup), ctypes.c_char_p, _Z]),
    "carc_match_clone": (_P, [_P]),
    "carc_match_to_move": (_I, [_P]),
    "carc_match_draw": (_I, [_P, _S]),
    "carc_match_drawn": (_S, [_P]),
    "carc_match_legal_moves": (_I, [_P, ctypes.POINTER(MoveSpec), _I]),
    "carc_match_play": (_I, [_P, ctypes.POINTER(MoveSpec)]),
    "carc_match_play_text": (_I, [_P, _S]),
    "carc_match_last_diagnostic": (_I, [_P, ctypes.POINTER(Diagnostic)]),
    "carc_match_cgn": (_Z, [_P, ctypes.c_char_p, _Z]),
}


def _candidates():
    """The files to try, in order (see the module's docstring)."""
    env = os.environ.get("CARC_LIBRARY")
    if env:
        yield env
        return  # asked for by name: nothing else is taken in its place
    here = os.path.dirname(os.path.abspath(__file__))
    tree = os.path.join(os.path.dirname(os.path.dirname(here)), "build")
    for folder in (os.path.join(tree, "lib"), tree):
        found = sorted(glob.glob(os.path.join(folder, "libcarc.so.*")), key=len)
        if found:
            yield found[0]  # the soname's link, libcarc.so.N: the shortest name
            break
    yield "libcarc.so.%d" % SONAME_MAJOR
    other = ctypes.util.find_library("carc")
    if other:
        yield other


def _load():
    tried = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
            continue
        for name, (restype, argtypes) in _PROTOTYPES.items():
            fn = getattr(lib, name)
            fn.restype = restype
            fn.argtypes = argtypes
        return lib, path
    raise ImportError(
        "carc: cannot load libcarc: tried %s. Build it with `make` in the carc source tree, "
        "install it with `make install`, or name the file in CARC_LIBRARY." % (", ".join(tried) or "nothing"))


lib, path = _load()

# the C library's fdopen and fclose, for records from an open file
_libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
fdopen = _libc.fdopen
fdopen.restype = ctypes.c_void_p
fdopen.argtypes = [ctypes.c_int, ctypes.c_char_p]
fclose = _libc.fclose
fclose.restype = ctypes.c_int
fclose.argtypes = [ctypes.c_void_p]
