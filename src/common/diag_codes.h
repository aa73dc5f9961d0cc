/*
 * diag_codes.h - every diagnostic carc can print, in one table.
 *
 * X(CODE, SEVERITY, name, summary). The notation spec (notation/cgn.md,
 * "Diagnostic codes") has one row per entry and tests/diag/ one input that
 * triggers it; tests/unit/test_diag.c proves both. Codes are never reused.
 *   E0xx  reading and syntax          E1xx  tile sets
 *   E2xx  rules of play (referee)     E3xx  solo variant
 *   E4xx  Hunters and Gatherers       E5xx  import and export (.jcz, BGA,
 *                                           CarcassonneLab)
 *   W0xx  warnings
 */
#define CARC_DIAG_LIST(X)                                                                 \
	X(E001, ERROR, "unreadable-file", "a file cannot be opened or read")                  \
	X(E002, ERROR, "binary-data", "a NUL byte or malformed UTF-8 in the input")           \
	X(E003, ERROR, "line-too-long", "a line longer than 65536 bytes")                     \
	X(E004, ERROR, "unterminated-comment", "a { comment is not closed before the end")    \
	X(E005, ERROR, "bad-tag", "a tag line is not [Name \"value\"]")                       \
	X(E006, ERROR, "duplicate-tag", "a tag appears twice in one game")                    \
	X(E007, ERROR, "bad-rules", "the Rules tag names no rule set")                        \
	X(E008, ERROR, "bad-edition", "the Edition tag is not 1, 2 or 3")                     \
	X(E009, ERROR, "bad-date", "the Date tag is not a YYYY-MM-DD date")                   \
	X(E010, ERROR, "bad-seats", "the Seats tag has an unknown or repeated colour")        \
	X(E011, ERROR, "bad-number-tag", "a numeric tag (Followers, Huts, Table) is out of range")   \
	X(E012, ERROR, "bad-result", "the Result tag is not a list of colour and score")      \
	X(E013, ERROR, "bad-start", "the Start tag is not a tile and a rotation")             \
	X(E014, ERROR, "bad-expansions", "the Expansions tag names an unknown expansion, one twice, or one the Rules do not take") \
	X(E015, ERROR, "expansion-tileset", "the Tileset tag names a set of an expansion's own tiles") \
	X(E016, ERROR, "bad-board", "the Board tag is not a whole number from 1 to 99999")   \
	X(E017, ERROR, "bad-time", "the Time tag is not a time of day HH:MM:SS")               \
	X(E018, ERROR, "bad-match", "the Match tag is empty")                                  \
	X(E019, ERROR, "bad-format", "the Format tag is not BoN, or is given without a Match") \
	X(E020, ERROR, "bad-turn-number", "a turn number is malformed")                       \
	X(E021, ERROR, "unknown-colour", "a word where a colour is expected is not one")      \
	X(E022, ERROR, "unknown-tile", "the tile is not in the game's tile set")              \
	X(E023, ERROR, "bad-coordinate", "a coordinate is not x,y with whole numbers")        \
	X(E024, ERROR, "bad-rotation", "a rotation is not 0, 90, 180 or 270")                 \
	X(E025, ERROR, "unknown-role", "the role is not one of the rule set's roles")         \
	X(E026, ERROR, "bad-spot", "a spot is not a compass point, an edge or C")             \
	X(E027, ERROR, "bad-claim", "a claim is not = colour points, ...")                    \
	X(E028, ERROR, "unexpected-token", "a word that has no place in a turn line")         \
	X(E029, ERROR, "incomplete-turn", "a turn line ends before its placement is given")   \
	X(E030, ERROR, "bad-end-order", "the EndOrder tag is not a list of x,y:SPOT (solo)")  \
	X(E031, ERROR, "game-too-long", "a game longer than 1 MiB; the rest of the input is skipped") \
	X(E032, ERROR, "too-many-turns", "a game of more than 8192 turn lines")             \
	X(E033, ERROR, "too-many-tags", "a game of more than 1000 tag lines")                \
	X(E034, ERROR, "too-many-comments", "a game of more than 10000 comments")            \
	X(E035, ERROR, "bad-termination", "the Termination tag names no kind of result")      \
	X(E036, ERROR, "bad-winner", "the Winner tag is not a seated colour, or the scores say otherwise") \
	X(E037, ERROR, "bad-bye", "a bye is not a record of one seat without turns, Result or Winner") \
	X(E038, ERROR, "technical-result", "a result decided off the board lacks its Winner, or has scores it cannot have") \
	X(E039, ERROR, "partial-result", "a game without turns whose Result does not name every seat") \
	X(E101, ERROR, "tileset-not-found", "no bundled tile set and no file by that name")   \
	X(E102, ERROR, "tileset-yaml", "the tile-set file is not well-formed YAML")           \
	X(E103, ERROR, "tileset-schema", "a key is unknown, missing or of the wrong type")    \
	X(E104, ERROR, "tileset-value", "a value names no terrain, kind, edge or attribute")  \
	X(E105, ERROR, "tileset-coverage", "a tile's edges and half-edges are not covered once") \
	X(E106, ERROR, "tileset-edges", "a tile's edges line disagrees with its features")    \
	X(E107, ERROR, "tileset-start", "the tile set has no start tile, or several")         \
	X(E108, ERROR, "tileset-duplicate", "two tile types share an id")                     \
	X(E109, ERROR, "tileset-size", "too many tiles, types, kinds or features")            \
	X(E110, ERROR, "tileset-path-refused", "a record names a tile-set file outside the folders it may use") \
	X(E201, ERROR, "cell-taken", "the cell already holds a tile")                         \
	X(E202, ERROR, "not-adjacent", "the tile shares no edge with a placed tile")          \
	X(E203, ERROR, "edge-mismatch", "a shared edge joins different terrains")             \
	X(E204, ERROR, "not-in-supply", "every tile of that type has already been drawn")     \
	X(E205, ERROR, "illegal-discard", "a discarded tile fits somewhere on the map")       \
	X(E206, ERROR, "out-of-turn", "the colour is not the one whose turn it is")           \
	X(E207, ERROR, "wrong-turn-number", "the turn number is not the turn being played")   \
	X(E208, ERROR, "no-follower-left", "a follower is deployed from an empty supply")     \
	X(E209, ERROR, "feature-occupied", "the feature already holds a follower")            \
	X(E210, ERROR, "role-mismatch", "the role does not match the feature at the spot")    \
	X(E211, ERROR, "spot-not-on-tile", "no feature of the tile lies at the spot")         \
	X(E212, ERROR, "claim-mismatch", "a claimed score differs from the computed one")     \
	X(E213, ERROR, "result-mismatch", "the Result tag differs from the final scores")     \
	X(E214, ERROR, "colour-not-seated", "the colour does not play in this game")          \
	X(E215, ERROR, "game-over", "a turn after the last tile was placed")                  \
	X(E216, ERROR, "off-the-table", "the tile would lie beyond the Table size")            \
	X(E260, ERROR, "river-not-continued", "river: a river tile whose river meets no placed tile") \
	X(E261, ERROR, "river-u-turn", "river: a bend placed onto a bend that turns the river the same way") \
	X(E262, ERROR, "lake-too-early", "river: the lake before the other river tiles")        \
	X(E263, ERROR, "land-before-river-ends", "river: a land tile drawn while river tiles remain") \
	X(E264, ERROR, "follower-on-river", "river: a follower deployed on the river")          \
	X(E270, ERROR, "abbot-not-on-site", "The Abbot: an abbot goes elsewhere than a cloister or a garden") \
	X(E271, ERROR, "follower-on-garden", "The Abbot: a figure other than the abbot goes onto a garden") \
	X(E272, ERROR, "second-abbot", "The Abbot: an abbot is deployed while the colour's abbot is on the map") \
	X(E273, ERROR, "return-no-abbot", "The Abbot: return abbot when the colour has no abbot on the map") \
	X(E274, ERROR, "return-completed", "The Abbot: return abbot from a feature that the turn completes") \
	X(E275, ERROR, "abbot-not-in-play", "The Abbot: an abbot or return abbot in a game without The Abbot") \
	X(E280, ERROR, "large-on-garden", "Inns & Cathedrals: the large follower goes onto a garden") \
	X(E281, ERROR, "second-large-follower", "Inns & Cathedrals: a large follower is deployed while the colour's is on the map") \
	X(E282, ERROR, "inns-not-in-play", "Inns & Cathedrals: a large follower in a game without Inns & Cathedrals") \
	X(E290, ERROR, "builder-without-follower", "Traders & Builders: a builder on a road or city where its colour has no follower") \
	X(E291, ERROR, "builder-not-on-road-or-city", "Traders & Builders: a builder elsewhere than a road or a city") \
	X(E292, ERROR, "second-builder", "Traders & Builders: a builder while the colour's builder is on the map") \
	X(E293, ERROR, "pig-not-on-field", "Traders & Builders: a pig elsewhere than a field") \
	X(E294, ERROR, "pig-without-farmer", "Traders & Builders: a pig on a field where its colour has no farmer") \
	X(E295, ERROR, "second-pig", "Traders & Builders: a pig while the colour's pig is on the map") \
	X(E296, ERROR, "bonus-not-owed", "Traders & Builders: a bonus turn N+ after a turn that extended no feature of its builder") \
	X(E297, ERROR, "bonus-chained", "Traders & Builders: a bonus turn after a bonus turn (no chain)") \
	X(E298, ERROR, "traders-not-in-play", "Traders & Builders: a builder or pig in a game without Traders & Builders") \
	X(E301, ERROR, "must-deploy", "solo: no follower deployed although the tile has a free feature") \
	X(E302, ERROR, "stack-used-up", "solo: a colour draws more tiles than its stack holds") \
	X(E303, ERROR, "solo-game-over", "solo: a turn after a follower had to be deployed and none was left") \
	X(E304, ERROR, "order-not-completed", "solo: the order names a feature the tile did not complete") \
	X(E305, ERROR, "order-names-nothing", "solo: an order entry names no tile or no feature") \
	X(E306, ERROR, "order-repeated", "solo: the order names one feature twice")              \
	X(E307, NOTE, "order-chosen", "solo: no order was given where it matters; carc chose one") \
	X(E308, ERROR, "endorder-no-follower", "solo: an EndOrder entry names no follower on the map") \
	X(E309, ERROR, "endorder-repeated", "solo: EndOrder names one follower twice")            \
	X(E310, ERROR, "result-not-last", "solo: a Result naming only some colours names none that is last") \
	X(E401, ERROR, "hunters-tileset", "the tile set does not fit the Hunters and Gatherers rules") \
	X(E402, ERROR, "bonus-not-earned", "a bonus turn that no gold forest earned")          \
	X(E403, ERROR, "bonus-skipped", "an earned bonus turn is not played")                 \
	X(E404, ERROR, "bonus-tile-in-land-turn", "a regular turn draws a bonus tile")        \
	X(E405, ERROR, "land-tile-in-bonus-turn", "a bonus turn draws a land tile")           \
	X(E406, ERROR, "river-system-has-hut", "a hut goes onto a river system that has one") \
	X(E501, ERROR, "jcz-not-json", "a .jcz file is not one well-formed JSON object")      \
	X(E502, ERROR, "jcz-schema", "a .jcz key is missing or its value has the wrong type") \
	X(E503, ERROR, "jcz-expansion", "the .jcz setup names an expansion set or figure carc does not convert")    \
	X(E504, ERROR, "jcz-rule", "a .jcz setup rule has no CGN equivalent")                 \
	X(E505, ERROR, "jcz-unknown-tile", "a .jcz tile id is not a tile of the base game or The River I")          \
	X(E506, ERROR, "jcz-unknown-message", "a .jcz replay message type cannot be converted") \
	X(E507, ERROR, "jcz-message-order", "a .jcz replay message comes out of turn order")  \
	X(E508, ERROR, "jcz-location", "a .jcz follower pointer names no feature of the tile placed, or one its figure may not take") \
	X(E509, ERROR, "jcz-figure", "a .jcz deployment is of an expansion figure")          \
	X(E510, ERROR, "jcz-players", "the .jcz players list is empty, too long or repeats a slot") \
	X(E511, ERROR, "jcz-draw-order", "a placed tile contradicts the .jcz drawOrder")      \
	X(E512, ERROR, "jcz-farm-edition", "tiny-city-scoring 2 with farms no CGN edition scores as JCZ does") \
	X(E513, ERROR, "jcz-abbot-return", "a .jcz abbot return names no abbot of the player where it stands") \
	X(E520, ERROR, "bga-not-json", "a BGA replay log is not well-formed JSON")          \
	X(E521, ERROR, "bga-schema", "a BGA log key is missing or its value has the wrong type") \
	X(E522, ERROR, "bga-expansion", "a BGA tile type beyond the base 24, or an expansion figure") \
	X(E523, ERROR, "bga-position", "a BGA meeple position the tile type lacks, or of another kind") \
	X(E524, ERROR, "bga-event-order", "a BGA event out of order: a meeple elsewhere, a player out of turn") \
	X(E525, ERROR, "bga-players", "the BGA result's players or colours do not fit the game") \
	X(E530, ERROR, "clab-url", "a CarcassonneLab URL is not of the replay form")       \
	X(E531, ERROR, "clab-tiles", "a CarcassonneLab tile stack is not base tiles, one per move") \
	X(E532, ERROR, "clab-move", "a CarcassonneLab move has a bad character or meeple position") \
	X(E533, ERROR, "clab-players", "the CarcassonneLab players or colors do not fit the game") \
	X(E540, ERROR, "clab-export", "the record holds what a CarcassonneLab URL cannot carry") \
	X(W001, WARNING, "unfinished-game", "the record stops before the supply is used up")  \
	X(W002, WARNING, "seats-inferred", "no Seats tag: the order of play was inferred")  \
	X(W003, WARNING, "tag-misspelt", "an unknown tag's name is close to a known one (Seat, Rot)")

enum carc_code {
#define CARC_X(code, sev, name, summary) CARC_##code,
	CARC_DIAG_LIST(CARC_X)
#undef CARC_X
	CARC_CODE_COUNT
};
