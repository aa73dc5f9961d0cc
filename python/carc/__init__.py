"""carc: the Carcassonne referee of the carc project, from Python.

A thin layer over libcarc (the C library the `carc` command is built on),
through ctypes and the standard library alone. The rules, the reader and
the writer are the command's own: a game read here gets the diagnostics
`carc check` prints for it and the figures `carc score` gives, and a move
played here is refused with the code and message `carc check` would give
its line in a record.

Reading records (plain, .gz or .zst)::

    import carc
    for game in carc.read("season.cgn.gz"):
        print(game.tags.get("Event"), game.valid, game.scores)
        for d in game.diagnostics:
            print(d)                      # file:line:column: error[E203]: ...
        for turn in game.turns:
            print(turn.number, turn.colour, turn.move, turn.scores)

Playing::

    g = carc.Game(players=["red", "green"], expansions=["river"], seed=7)
    while not g.over:
        g.draw()                          # or g.draw("U") to name the tile
        moves = g.legal_moves()
        g.play(moves[0])                  # carc.IllegalMove when illegal
    print(g.scores, g.cgn())

The library is found as carc._lib explains: CARC_LIBRARY, else the source
tree's build/ after `make`, else the installed libcarc.
"""

import collections.abc
import ctypes
import io
import os
import sys

from . import _lib
from ._lib import lib as _c

__all__ = [
    "read", "Game", "Move", "Turn", "Tile", "Feature", "Follower", "Diagnostic",
    "CarcError", "IllegalMove", "ReadError", "StateError", "NotCGN",
    "library_version", "library_path", "__version__",
]

__version__ = "0.1.0"


def library_version():
    """The version of the libcarc in use, as "0.1.0"."""
    return _c.carc_version().decode()


def library_path():
    """The file the library was loaded from."""
    return _lib.path


# ---- errors ---------------------------------------------------------------

class CarcError(Exception):
    """What libcarc refused. rc is its return code (a negative CARC_E*)."""

    def __init__(self, message, rc=None):
        super().__init__(message)
        self.rc = rc


class ReadError(CarcError, OSError):
    """A file or stream that cannot be opened, read or decompressed."""


class StateError(CarcError):
    """Not possible now: no tile drawn, a tile already drawn, the game over."""


class NotCGN(CarcError, ValueError):
    """Text that is not CGN where CGN was needed (a move, a record)."""


class InvalidArgument(CarcError, ValueError):
    """An argument libcarc does not know: a rule set, a tile, a colour."""


class IllegalMove(CarcError):
    """A move the rules refuse, with the code and message `carc check` gives.

    code is the diagnostic's code ("E203"), message its text, diagnostic the
    whole Diagnostic.
    """

    def __init__(self, code, message, diagnostic=None):
        super().__init__("%s: %s" % (code, message), _lib.EILLEGAL)
        self.code = code
        self.message = message
        self.diagnostic = diagnostic


def _error(rc, message):
    """The exception for a return code."""
    cls = {_lib.EIO: ReadError, _lib.ESTATE: StateError, _lib.ESYNTAX: NotCGN,
           _lib.EINVAL: InvalidArgument, _lib.ENOMEM: MemoryError}.get(rc, CarcError)
    if cls is MemoryError:
        return MemoryError(message)
    return cls(message, rc)


def _s(b):
    """A C string as str (None stays None)."""
    return None if b is None else b.decode("utf-8", "replace")


# ---- values ---------------------------------------------------------------

class Diagnostic:
    """A message about a game, as `carc check` prints it.

    code ("E203", "W001"), severity ("error", "warning" or "note"), message,
    file, line and column (from 1; 0 for a message about the file as a
    whole). str() gives check's first line: "file:line:column: error[E203]:
    message".
    """

    __slots__ = ("code", "severity", "message", "file", "line", "column")
    _SEVERITIES = ("error", "warning", "note")

    def __init__(self, code, severity, message, file=None, line=0, column=0):
        self.code = code
        self.severity = severity
        self.message = message
        self.file = file
        self.line = line
        self.column = column

    @classmethod
    def _from_c(cls, d):
        sev = cls._SEVERITIES[d.severity] if 0 <= d.severity < 3 else "error"
        return cls(d.code.decode(), sev, _s(d.message), _s(d.file), d.line, d.column)

    @property
    def is_error(self):
        return self.severity == "error"

    def __str__(self):
        where = self.file or ""
        if self.line:
            where += ":%d:%d" % (self.line, self.column)
        return "%s: %s[%s]: %s" % (where, self.severity, self.code, self.message)

    def __repr__(self):
        return "Diagnostic(%r, %r, %r, file=%r, line=%d, column=%d)" % (
            self.code, self.severity, self.message, self.file, self.line, self.column)

    def __eq__(self, other):
        return isinstance(other, Diagnostic) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def _key(self):
        return (self.code, self.severity, self.message, self.file, self.line, self.column)


class Move:
    """A move for the drawn tile, as a CGN turn line writes it after the colour.

    tile (its id), x, y, rotation (0, 90, 180, 270), and the deployment:
    role and spot ("knight", "N"), or recall (a role taken back instead:
    "abbot"), or neither; or discard (the tile fits nowhere). order is a
    solo game's scoring order. str(move) is its CGN text ("U 1,0 90 thief
    W"); Move.parse reads it back. Moves compare and hash by value.
    """

    __slots__ = ("_spec",)

    def __init__(self, tile, x=0, y=0, rotation=0, role=None, spot=None, recall=None, discard=False,
                 order=None):
        spec = _lib.MoveSpec()
        spec.tile = _enc(tile, "tile")
        spec.x, spec.y, spec.rotation = x, y, rotation
        spec.discard = 1 if discard else 0
        spec.role = _enc(role or "", "role")
        spec.spot = _enc(spot or "", "spot")
        spec.recall = _enc(recall or "", "recall")
        spec.order = _enc(order or "", "order")
        self._spec = spec

    @classmethod
    def _wrap(cls, spec):
        m = cls.__new__(cls)
        m._spec = spec
        return m

    @classmethod
    def parse(cls, text):
        """The move a CGN turn line writes after its colour ("U 1,0 90 thief W")."""
        spec = _lib.MoveSpec()
        rc = _c.carc_move_parse(text.encode(), ctypes.byref(spec))
        if rc != _lib.OK:
            raise NotCGN("not a move: %r" % text, rc)
        return cls._wrap(spec)

    tile = property(lambda self: self._spec.tile.decode(), doc="the tile's id")
    x = property(lambda self: self._spec.x)
    y = property(lambda self: self._spec.y)
    rotation = property(lambda self: self._spec.rotation, doc="degrees clockwise: 0, 90, 180, 270")
    discard = property(lambda self: bool(self._spec.discard), doc="the tile is discarded")
    role = property(lambda self: self._spec.role.decode() or None, doc="the role deployed, or None")
    spot = property(lambda self: self._spec.spot.decode() or None, doc="where on the tile, or None")
    recall = property(lambda self: self._spec.recall.decode() or None, doc="the role taken back, or None")
    order = property(lambda self: self._spec.order.decode() or None, doc="solo: the scoring order, or None")

    @property
    def position(self):
        """(x, y)."""
        return (self._spec.x, self._spec.y)

    def _key(self):
        s = self._spec
        return (s.tile, s.discard, s.x, s.y, s.rotation, s.role, s.spot, s.recall, s.order)

    def __eq__(self, other):
        return isinstance(other, Move) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __str__(self):
        buf = ctypes.create_string_buffer(160)
        n = _c.carc_move_format(ctypes.byref(self._spec), buf, len(buf))
        if n >= len(buf):
            buf = ctypes.create_string_buffer(n + 1)
            _c.carc_move_format(ctypes.byref(self._spec), buf, len(buf))
        return buf.value.decode()

    def __repr__(self):
        return "Move(%r)" % str(self)


def _enc(value, what):
    b = value.encode() if isinstance(value, str) else bytes(value)
    if b"\0" in b:
        raise ValueError("%s %r holds a NUL" % (what, value))
    return b


class Turn:
    """A turn of a record: its number as the referee numbers it, the colour
    that played it, the move, whether it was a bonus turn or illegal (an
    error on its line), its line in the file, and every player's score after
    it (a dict by colour, `carc score`'s table)."""

    __slots__ = ("number", "colour", "move", "bonus", "illegal", "line", "scores")

    def __init__(self, number, colour, move, bonus, illegal, line, scores):
        self.number = number
        self.colour = colour
        self.move = move
        self.bonus = bonus
        self.illegal = illegal
        self.line = line
        self.scores = scores

    def __repr__(self):
        return "Turn(%d%s, %r, %r%s)" % (self.number, "+" if self.bonus else "", self.colour, str(self.move),
                                         ", illegal" if self.illegal else "")


class Tile:
    """A tile on the map: its id, x, y, rotation, the turn that placed it
    (0: the start tile) and the colour that did (None for the start tile)."""

    __slots__ = ("id", "x", "y", "rotation", "turn", "colour")

    def __init__(self, id, x, y, rotation, turn, colour):
        self.id = id
        self.x = x
        self.y = y
        self.rotation = rotation
        self.turn = turn
        self.colour = colour

    def __repr__(self):
        return "Tile(%r, %d, %d, %d, turn=%d)" % (self.id, self.x, self.y, self.rotation, self.turn)


class Feature:
    """A road, city, field, cloister... on the map at the game's position.

    kind (the tile set's word), name (as messages name it), tiles (indexes
    into Game.tiles), complete, scored (it has been scored), points (what its
    scoring paid each winner; 0 until then), followers (how many figures
    stand on it) and owners (the colours with the majority on it now).
    """

    __slots__ = ("index", "kind", "name", "tiles", "complete", "scored", "points", "followers", "owners")

    def __init__(self, index, kind, name, tiles, complete, scored, points, followers, owners):
        self.index = index
        self.kind = kind
        self.name = name
        self.tiles = tiles
        self.complete = complete
        self.scored = scored
        self.points = points
        self.followers = followers
        self.owners = owners

    def __repr__(self):
        return "Feature(%r, tiles=%d%s)" % (self.name, len(self.tiles), ", complete" if self.complete else "")


class Follower:
    """A figure on the map: colour, role, the tile it stands on (an index
    into Game.tiles), its spot, its feature (an index into Game.features)
    and the turn it was deployed."""

    __slots__ = ("colour", "role", "tile", "spot", "feature", "turn")

    def __init__(self, colour, role, tile, spot, feature, turn):
        self.colour = colour
        self.role = role
        self.tile = tile
        self.spot = spot
        self.feature = feature
        self.turn = turn

    def __repr__(self):
        return "Follower(%r, %r, tile=%d, spot=%r)" % (self.colour, self.role, self.tile, self.spot)


# ---- reading --------------------------------------------------------------

def read(source, name=None):
    """The games of a record, one at a time: an iterator of Game.

    source is a path (str or os.PathLike; "-" is standard input), bytes
    (the record itself), or a binary file object. Plain text, gzip and zstd
    are told by their first bytes. name is what diagnostics call the input
    (default: the path, "<memory>" or "<stream>"). A file that cannot be
    opened raises ReadError at once; one that breaks off (damaged
    compressed data) raises ReadError after its last whole game.

    The iterator is also a context manager that closes the input::

        with carc.read("games.cgn.zst") as games:
            for game in games: ...
    """
    return Records(source, name)


class Records:
    """The games of an input (see read())."""

    def __init__(self, source, name=None):
        self._h = None
        self._file = None  # a FILE* of ours under a stream handle
        why = ctypes.create_string_buffer(512)
        if isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
            h = _c.carc_records_open_memory(data, len(data), _enc(name, "name") if name else None, why,
                                            len(why))
        elif isinstance(source, (str, os.PathLike)) and os.fspath(source) != "-":
            path = os.fsencode(source)
            if name is None:
                h = _c.carc_records_open(path, why, len(why))
            else:  # the file under another name: as a stream
                with open(path, "rb") as f:
                    h = self._open_file(f, name, why)
        else:
            f = sys.stdin.buffer if not hasattr(source, "read") else source
            h = self._open_file(f, name, why)
        if not h:
            raise ReadError(why.value.decode("utf-8", "replace"), _lib.EIO)
        self._h = h

    def _open_file(self, f, name, why):
        """A records handle over a binary file object."""
        label = _enc(name, "name") if name else None
        fd = None
        try:
            fd = f.fileno()
            pos = f.tell()
        except (AttributeError, OSError, io.UnsupportedOperation, ValueError):
            fd = None
        if fd is not None:
            dup = os.dup(fd)
            os.lseek(dup, pos, os.SEEK_SET)
            fp = _lib.fdopen(dup, b"rb")
            if not fp:
                os.close(dup)
                raise ReadError("cannot read %s" % (name or "<stream>"), _lib.EIO)
            h = _c.carc_records_open_stream(fp, label, why, len(why))
            if h:
                self._file = fp
            else:
                _lib.fclose(fp)
            return h
        # no file under it (a pipe already read from, io.BytesIO, a gzip
        # object): its bytes, read whole
        data = f.read()
        if isinstance(data, str):
            data = data.encode()
        return _c.carc_records_open_memory(data, len(data), label or b"<stream>", why, len(why))

    def __iter__(self):
        return self

    def __next__(self):
        if not self._h:
            raise StopIteration
        out = ctypes.c_void_p()
        rc = _c.carc_records_next(self._h, ctypes.byref(out))
        if rc == _lib.OK:
            return Game._adopt(out.value)
        message = _s(_c.carc_records_error(self._h))
        self.close()
        if rc == _lib.END:
            raise StopIteration
        raise _error(rc, message or _s(_c.carc_strerror(rc)))

    def close(self):
        """Closes the input (the games read stay usable)."""
        if self._h:
            _c.carc_records_close(self._h)
            self._h = None
        if self._file:
            _lib.fclose(self._file)
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


# ---- a game ---------------------------------------------------------------

class Game:
    """One game: read from a record (carc.read), or started here and played.

    Game(players=None, rules="base", expansions=(), seed=0, edition=0)
    starts a new game: players is a number (None: the rules' usual, 2, or 3
    in solo) or the colours in order of play (["red", "green"]; without
    them the colours are drawn from the seed); rules "base", "solo" or
    "hunters"; expansions
    names such as "river" and "abbot"; seed the shuffle of the supply
    (and of the colours, when not given); edition the farm scoring
    (1, 2, 3; 0: the rules' default).

    A game answers for its position: the end (the default, with the final
    scoring when the game has one), or after any turn (seek). The map
    (tiles, features, followers), the scores, the projected final and the
    supply are those of the position; tags, turns and diagnostics are the
    whole game's. Playing moves the position to the end.
    """

    __slots__ = ("_h", "_moves_cap", "_turns", "__weakref__")

    def __init__(self, players=None, rules="base", expansions=(), seed=0, edition=0, colours=None):
        setup = _lib.Setup()
        setup.rules = _enc(rules, "rules") if rules else None
        if isinstance(expansions, str):
            expansions = expansions.split()
        setup.expansions = _enc(" ".join(expansions), "expansions") if expansions else None
        if players is None:
            setup.players = 0
        elif isinstance(players, int):
            setup.players = players
        else:
            players = list(players)
            colours = colours or players
            setup.players = len(players)
        if colours:
            setup.colours = _enc(" ".join(colours), "colours")
        setup.edition = edition
        setup.seed = seed
        setup.deploy_rate = setup.claim_rate = -1.0
        why = ctypes.create_string_buffer(512)
        h = _c.carc_match_new(ctypes.byref(setup), why, len(why))
        if not h:
            raise InvalidArgument(why.value.decode("utf-8", "replace"), _lib.EINVAL)
        self._h = h
        self._moves_cap = 64
        self._turns = None

    @classmethod
    def _adopt(cls, handle):
        g = cls.__new__(cls)
        g._h = handle
        g._moves_cap = 64
        g._turns = None
        return g

    @classmethod
    def from_cgn(cls, text, name=None):
        """The first game of a CGN text (str or bytes)."""
        data = text.encode() if isinstance(text, str) else text
        with read(data, name) as games:
            for game in games:
                return game
        raise NotCGN("the text holds no game", _lib.ESYNTAX)

    def __del__(self):
        h = getattr(self, "_h", None)
        if h and _c is not None:
            self._h = None
            _c.carc_match_free(h)

    def _fail(self, rc):
        """The exception for rc, with the game's message."""
        return _error(rc, _s(_c.carc_match_error(self._h)) or _s(_c.carc_strerror(rc)))

    # -- the record --

    @property
    def tags(self):
        """The tags, in the order of the record: a dict of name to value."""
        h = self._h
        tags = {}
        buf = ctypes.create_string_buffer(64)
        for i in range(_c.carc_match_ntags(h)):
            n = _c.carc_match_tag_name(h, i, buf, len(buf))
            if n >= len(buf):
                buf = ctypes.create_string_buffer(n + 1)
                _c.carc_match_tag_name(h, i, buf, len(buf))
            tags[buf.value.decode("utf-8", "replace")] = _s(_c.carc_match_tag_value(h, i))
        return tags

    def tag(self, name, default=None):
        """The value of the tag named (in any case), or default."""
        v = _c.carc_match_tag(self._h, _enc(name, "tag"))
        return default if v is None else _s(v)

    @property
    def diagnostics(self):
        """The game's messages, `carc check`'s, in its order: a list of Diagnostic."""
        h = self._h
        d = _lib.Diagnostic()
        out = []
        for i in range(_c.carc_match_ndiagnostics(h)):
            if _c.carc_match_diagnostic(h, i, ctypes.byref(d)) == _lib.OK:
                out.append(Diagnostic._from_c(d))
        return out

    @property
    def valid(self):
        """True when no diagnostic is an error."""
        return bool(_c.carc_match_valid(self._h))

    @property
    def errors(self):
        """How many of the diagnostics are errors."""
        return sum(1 for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self):
        """How many of the diagnostics are warnings."""
        return sum(1 for d in self.diagnostics if d.severity == "warning")

    @property
    def players(self):
        """The colours in order of play (the first started)."""
        h = self._h
        return [_s(_c.carc_match_colour(h, s)) for s in range(_c.carc_match_nplayers(h))]

    @property
    def names(self):
        """Each colour's player, as the colour's tag names them (None when not)."""
        h = self._h
        return {_s(_c.carc_match_colour(h, s)): _s(_c.carc_match_player(h, s))
                for s in range(_c.carc_match_nplayers(h))}

    @property
    def turns(self):
        """The turns recorded or played: a list of Turn."""
        if self._turns is not None:
            return list(self._turns)
        h = self._h
        colours = self.players
        t = _lib.TurnInfo()
        out = []
        for i in range(_c.carc_match_nturns(h)):
            if _c.carc_match_turn(h, i, ctypes.byref(t)) != _lib.OK:
                break
            spec = _lib.MoveSpec.from_buffer_copy(t.move)
            out.append(Turn(t.number, t.colour.decode(), Move._wrap(spec), bool(t.bonus), bool(t.illegal),
                            t.line, {c: t.scores[s] for s, c in enumerate(colours) if s < 8}))
        self._turns = out
        return list(out)

    # -- the position --

    def seek(self, turns=None):
        """Moves the position: after the first `turns` turns (0: before any),
        or to the end (None). Returns the game, so that
        game.seek(10).scores reads."""
        rc = _c.carc_match_seek(self._h, _lib.POSITION_END if turns is None else turns)
        if rc != _lib.OK:
            if rc == _lib.ERANGE:
                raise IndexError(_s(_c.carc_match_error(self._h)) or "no such turn")
            raise self._fail(rc)
        return self

    @property
    def position(self):
        """Turns the position stands after, or None at the end."""
        p = _c.carc_match_position(self._h)
        return None if p == _lib.POSITION_END else p

    def positions(self):
        """Every position from the start to the last turn: yields the game
        after 0, 1, ... turns (the same object, moved), then leaves it at the
        end."""
        try:
            for k in range(len(self.turns) + 1):
                yield self.seek(k)
        finally:
            self.seek(None)

    def _by_colour(self, fn):
        h = self._h
        return {_s(_c.carc_match_colour(h, s)): fn(h, s) for s in range(_c.carc_match_nplayers(h))}

    @property
    def scores(self):
        """Each colour's score at the position: a dict."""
        return self._by_colour(_c.carc_match_score)

    @property
    def projected(self):
        """What each colour would have if the game ended at the position
        (`carc score --projected`): a dict."""
        return self._by_colour(_c.carc_match_projected)

    @property
    def followers_left(self):
        """Each colour's followers in its supply at the position: a dict."""
        return self._by_colour(_c.carc_match_followers_left)

    @property
    def supply_left(self):
        """Tiles left in the supply at the position."""
        return _c.carc_match_supply_left(self._h)

    @property
    def over(self):
        """Whether the game is over at the position (the supply used up, or
        ended by its rules)."""
        return bool(_c.carc_match_over(self._h))

    @property
    def final(self):
        """Whether the position is the end with its final scoring done."""
        return bool(_c.carc_match_final(self._h))

    @property
    def tiles(self):
        """The tiles on the map at the position, in the order placed: a list of Tile."""
        h = self._h
        t = _lib.TileInfo()
        out = []
        for i in range(_c.carc_match_ntiles(h)):
            if _c.carc_match_tile(h, i, ctypes.byref(t)) == _lib.OK:
                out.append(Tile(t.id.decode(), t.x, t.y, t.rotation, t.turn, t.colour.decode() or None))
        return out

    @property
    def features(self):
        """The features on the map at the position: a list of Feature."""
        h = self._h
        colours = self.players
        f = _lib.FeatureInfo()
        out = []
        cap = 64
        tiles = (ctypes.c_int * cap)()
        for i in range(_c.carc_match_nfeatures(h)):
            if _c.carc_match_feature(h, i, ctypes.byref(f)) != _lib.OK:
                break
            n = _c.carc_match_feature_tiles(h, i, tiles, cap)
            if n > cap:
                cap = n
                tiles = (ctypes.c_int * cap)()
                n = _c.carc_match_feature_tiles(h, i, tiles, cap)
            owners = [c for s, c in enumerate(colours) if f.owners >> s & 1]
            out.append(Feature(i, f.kind.decode(), f.name.decode("utf-8", "replace"), list(tiles[:max(n, 0)]),
                               bool(f.complete), bool(f.scored), f.points, f.followers, owners))
        return out

    @property
    def followers(self):
        """The figures on the map at the position: a list of Follower."""
        h = self._h
        f = _lib.FollowerInfo()
        out = []
        for i in range(_c.carc_match_nfollowers(h)):
            if _c.carc_match_follower(h, i, ctypes.byref(f)) == _lib.OK:
                out.append(Follower(f.colour.decode(), f.role.decode(), f.tile, f.spot.decode(), f.feature,
                                    f.turn))
        return out

    # -- playing --

    @property
    def to_move(self):
        """The colour whose turn it is, or None when the game is over."""
        s = _c.carc_match_to_move(self._h)
        return None if s < 0 else _s(_c.carc_match_colour(self._h, s))

    @property
    def drawn(self):
        """The tile drawn and not yet played, or None."""
        return _s(_c.carc_match_drawn(self._h))

    def draw(self, tile=None):
        """Draws the turn's tile and returns its id: the next of the shuffled
        supply, or the tile named (as when tiles are drawn by hand over a
        real board). StateError when a tile is already drawn or the game is
        over; InvalidArgument when none of the tile named is left."""
        rc = _c.carc_match_draw(self._h, None if tile is None else _enc(tile, "tile"))
        if rc != _lib.OK:
            raise self._fail(rc)
        return _s(_c.carc_match_drawn(self._h))

    def legal_moves(self):
        """Every legal move of the drawn tile: a list of Move (each placement
        with every deployment the rules allow, and without one; a single
        discard when the tile fits nowhere)."""
        h = self._h
        cap = self._moves_cap
        arr = (_lib.MoveSpec * cap)()
        n = _c.carc_match_legal_moves(h, arr, cap)
        if n > cap:
            cap = self._moves_cap = n
            arr = (_lib.MoveSpec * cap)()
            n = _c.carc_match_legal_moves(h, arr, cap)
        if n < 0:
            raise self._fail(n)
        return _MoveList(arr, n)

    def play(self, move):
        """Plays the drawn tile: a Move, or its CGN text ("U 1,0 90 thief
        W"). IllegalMove, the game unchanged, when the rules refuse it."""
        h = self._h
        if isinstance(move, Move):
            rc = _c.carc_match_play(h, ctypes.byref(move._spec))
        else:
            rc = _c.carc_match_play_text(h, _enc(move, "move"))
        if rc == _lib.OK:
            self._turns = None
            return
        if rc == _lib.EILLEGAL:
            d = _lib.Diagnostic()
            if _c.carc_match_last_diagnostic(h, ctypes.byref(d)) == _lib.OK:
                diag = Diagnostic._from_c(d)
                raise IllegalMove(diag.code, diag.message, diag)
            raise IllegalMove("", _s(_c.carc_match_error(h)))
        raise self._fail(rc)

    def clone(self):
        """A copy to play on, leaving this game as it is (for tree search)."""
        h = _c.carc_match_clone(self._h)
        if not h:
            raise MemoryError("carc: cannot clone the game")
        g = Game._adopt(h)
        g._moves_cap = self._moves_cap
        return g

    def cgn(self):
        """The game as canonical CGN text (as `carc fmt` writes it)."""
        n = _c.carc_match_cgn(self._h, None, 0)
        buf = ctypes.create_string_buffer(n + 1)
        _c.carc_match_cgn(self._h, buf, n + 1)
        return buf.value.decode("utf-8", "replace")

    def __repr__(self):
        event = self.tag("Event")
        return "<carc.Game%s %s, %d turns>" % (" " + repr(event) if event else "", " ".join(self.players),
                                               len(self.turns))


class _MoveList:
    """The legal moves of a turn: a read-only sequence of Move over the
    array libcarc wrote (a Move is made when asked for)."""

    __slots__ = ("_arr", "_n")

    def __init__(self, arr, n):
        self._arr = arr
        self._n = n

    def __len__(self):
        return self._n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("move index out of range")
        return Move._wrap(self._arr[i])

    def __iter__(self):
        arr = self._arr
        for i in range(self._n):
            yield Move._wrap(arr[i])

    def __bool__(self):
        return self._n > 0

    def __repr__(self):
        return "[%s]" % ", ".join(repr(m) for m in self)


collections.abc.Sequence.register(_MoveList)
