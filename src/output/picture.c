/*
 * picture.c - the shapes of a tile's features, and terminal pictures of
 * tiles and of the map.
 *
 * Shapes come from the tile set alone (see picture.h for the rules), as
 * polygons in the unit square: a curve is flattened into short segments, so
 * the SVG writer can print polygons and the terminal can sample points with
 * a point-in-polygon test. A feature's label point (where its pennant, fish
 * or follower goes) is found by sampling the tile on a grid and taking the
 * visible point of the feature farthest from anything else.
 */
#include "output/picture.h"

#include <stdlib.h>
#include <string.h>

/* Path ends, in the order of the tile-set loader's list. */
enum { END_CLOISTER, END_CITY, END_JUNCTION, END_CROSSROADS, END_SPRING, END_LAKE, END_VOLCANO };

#define PATH_HALF_WIDTH 0.075f
#define CURVE_STEPS 10
#define LABEL_GRID 24

static const struct carc_pt corner[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
static const struct carc_pt mid[4] = {{0.5f, 0}, {1, 0.5f}, {0.5f, 1}, {0, 0.5f}};
static const struct carc_pt centre = {0.5f, 0.5f};

/* ---- small geometry (no libm needed) ---- */

static float root(float v)
{
	if (v <= 0)
		return 0;
	float r = v > 1 ? v : 1;
	for (int i = 0; i < 30; i++)
		r = 0.5f * (r + v / r);
	return r;
}

static float dist(struct carc_pt a, struct carc_pt b)
{
	return root((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y));
}

static float minf(float a, float b)
{
	return a < b ? a : b;
}

struct carc_pt carc_pt_turn(struct carc_pt p, int rot)
{
	for (int i = 0; i < (rot & 3); i++)
		p = (struct carc_pt){1 - p.y, p.x};
	return p;
}

static void add(struct carc_poly *poly, struct carc_pt p)
{
	if (poly->n < CARC_POLY_MAX)
		poly->p[poly->n++] = p;
}

/* Appends the quadratic curve from a (excluded) through control c to b. */
static void add_curve(struct carc_poly *poly, struct carc_pt a, struct carc_pt c, struct carc_pt b)
{
	for (int i = 1; i <= CURVE_STEPS; i++) {
		float t = (float)i / CURVE_STEPS, u = 1 - t;
		add(poly, (struct carc_pt){u * u * a.x + 2 * u * t * c.x + t * t * b.x,
					   u * u * a.y + 2 * u * t * c.y + t * t * b.y});
	}
}

static void turn_poly(struct carc_poly *poly, int rot)
{
	for (int i = 0; i < poly->n; i++)
		poly->p[i] = carc_pt_turn(poly->p[i], rot);
}

static bool inside(const struct carc_poly *poly, struct carc_pt p)
{
	bool in = false;
	for (int i = 0, j = poly->n - 1; i < poly->n; j = i++) {
		struct carc_pt a = poly->p[i], b = poly->p[j];
		if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x)
			in = !in;
	}
	return in;
}

static float dist_to_line(const struct carc_poly *line, struct carc_pt p)
{
	float best = 1e9f;
	for (int i = 0; i + 1 < line->n; i++) {
		struct carc_pt a = line->p[i], b = line->p[i + 1];
		float dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
		float t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
		t = t < 0 ? 0 : t > 1 ? 1 : t;
		float ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y;
		float d = root(ex * ex + ey * ey);
		if (d < best)
			best = d;
	}
	return best;
}

static uint8_t klass_of(const struct carc_tileset *ts, const struct carc_tile *t, int f)
{
	return ts->kinds[t->features[f].kind].klass;
}

static int popcount4(uint8_t m)
{
	return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1);
}

/* ---- shapes of each class ---- */

/* A circle about the centre, as 28 points (turned by a fixed step). */
static void disc(struct carc_poly *r, float radius)
{
	const float c = 0.974927912f, s = 0.222520934f; /* cos and sin of 360/28 degrees */
	float x = radius, y = 0;
	for (int i = 0; i < 28; i++) {
		add(r, (struct carc_pt){0.5f + x, 0.5f + y});
		float nx = x * c - y * s;
		y = x * s + y * c;
		x = nx;
	}
}

/* walled: on a tile with an area that touches no edge (spot I), 0x10 and
 * the edges of the tile's other enclosures (0 on every other tile). Then halves
 * are drawn slimmer, and a band's side that faces another enclosure's edge
 * is drawn nearer its middle, so that the walled-in area shows between. */
static void enclosure_shape(uint8_t edges, uint8_t walled, struct carc_feature_shape *fs)
{
	struct carc_poly *r = &fs->region[0], *w = &fs->line[0];
	int n = popcount4(edges), rot = 0;
	uint8_t canonical = n == 1 ? 0x1 : n == 3 ? 0xb : n == 2 && (edges == 0x5 || edges == 0xa) ? 0xa : 0x3;
	for (int q = 0; q < 4; q++)
		if (carc_rot_edges(canonical, q) == edges)
			rot = q;
	fs->nregions = 1;
	fs->nlines = 1;
	switch (n) {
	case 0: /* wholly inside the tile: a round patch */
		disc(r, 0.2f);
		*w = *r;
		add(w, r->p[0]);
		return;
	case 1: /* a cap on the north edge */
		add(w, corner[1]);
		add_curve(w, corner[1], (struct carc_pt){0.5f, 0.6f}, corner[0]);
		add(r, corner[0]);
		for (int i = 0; i < w->n - 1; i++)
			add(r, w->p[i]);
		break;
	case 2:
		if (canonical == 0xa) { /* a band from west to east */
			float north = walled & carc_rot_edges(0x1, rot) ? 1.1f : 0.42f;
			float south = walled & carc_rot_edges(0x4, rot) ? -0.1f : 0.58f;
			add(r, corner[0]);
			add_curve(r, corner[0], (struct carc_pt){0.5f, north}, corner[1]);
			add(r, corner[2]);
			add_curve(r, corner[2], (struct carc_pt){0.5f, south}, corner[3]);
			add(w, corner[0]);
			add_curve(w, corner[0], (struct carc_pt){0.5f, north}, corner[1]);
			fs->nlines = 2;
			add(&fs->line[1], corner[2]);
			add_curve(&fs->line[1], corner[2], (struct carc_pt){0.5f, south}, corner[3]);
			turn_poly(&fs->line[1], rot);
		} else { /* the north-east half */
			add(w, corner[2]);
			add_curve(w, corner[2], walled ? (struct carc_pt){0.72f, 0.28f} : (struct carc_pt){0.62f, 0.38f},
				  corner[0]);
			add(r, corner[0]);
			add(r, corner[1]);
			for (int i = 0; i < w->n - 1; i++)
				add(r, w->p[i]);
		}
		break;
	case 3: /* all but a cap on the south edge */
		add(w, corner[2]);
		add_curve(w, corner[2], (struct carc_pt){0.5f, 0.5f}, corner[3]);
		add(r, corner[0]);
		add(r, corner[1]);
		for (int i = 0; i < w->n; i++)
			add(r, w->p[i]);
		break;
	default: /* the whole tile */
		for (int i = 0; i < 4; i++)
			add(r, corner[i]);
		fs->nlines = 0;
		w->n = 0;
		return;
	}
	turn_poly(r, rot);
	turn_poly(w, rot);
}

static void path_shape(const struct carc_feature *f, struct carc_feature_shape *fs, int *arms_at_centre)
{
	int n = popcount4(f->edges);
	int e1 = -1, e2 = -1;
	for (int e = 0; e < 4; e++)
		if (f->edges & (1u << e)) {
			if (e1 < 0)
				e1 = e;
			else if (e2 < 0)
				e2 = e;
		}
	if (n == 2) {
		struct carc_poly *l = &fs->line[fs->nlines++];
		add(l, mid[e1]);
		if ((e1 ^ e2) == 2) { /* opposite: straight through the centre */
			add(l, centre);
			add(l, mid[e2]);
		} else {
			add_curve(l, mid[e1], centre, mid[e2]);
		}
		return;
	}
	for (int e = 0; e < 4; e++) {
		if (!(f->edges & (1u << e)))
			continue;
		struct carc_poly *l = &fs->line[fs->nlines++];
		add(l, mid[e]);
		add(l, (struct carc_pt){(mid[e].x + centre.x) / 2, (mid[e].y + centre.y) / 2});
		add(l, centre);
		++*arms_at_centre;
	}
}

/* Areas: each non-area half-edge (under a wall) is given to the nearest
 * area along the border, not across a path; then each run of half-edges of
 * one area is closed through the tile, along the path that separates it
 * from the next area when one does, or else through the centre. */
static void area_shapes(const struct carc_tileset *ts, const struct carc_tile *t, struct carc_tile_shape *out)
{
	int owner[8];
	bool any = false;
	for (int h = 0; h < 8; h++) {
		int f = t->half_feature[h];
		owner[h] = f != CARC_NO_FEATURE && klass_of(ts, t, f) == CARC_CLASS_AREA ? f : -1;
		any |= owner[h] >= 0;
	}
	/* an area that touches no edge (spot I, a field walled in by cities)
	 * is the whole tile under everything else: what shows of it is what
	 * the enclosures and the other areas leave (drawn first, hit last) */
	for (int f = 0; f < t->nfeatures; f++)
		if (t->features[f].inner && klass_of(ts, t, f) == CARC_CLASS_AREA) {
			out->f[f].nregions = 1;
			for (int i = 0; i < 4; i++)
				add(&out->f[f].region[0], corner[i]);
		}
	if (!any)
		return;
	/* blocked[h]: a path crosses between half h and half h+1 (at a mid-edge) */
	bool blocked[8] = {false};
	for (int e = 0; e < 4; e++) {
		int f = t->edge_feature[e];
		if (f != CARC_NO_FEATURE && klass_of(ts, t, f) == CARC_CLASS_PATH)
			blocked[2 * e] = true;
	}
	/* (not on a tile with a field walled in: the walls are its) */
	for (bool changed = t->inner_feature == CARC_NO_FEATURE; changed;) {
		changed = false;
		int next[8];
		memcpy(next, owner, sizeof next);
		for (int h = 0; h < 8; h++) {
			if (owner[h] >= 0)
				continue;
			int left = (h + 7) & 7, right = (h + 1) & 7;
			if (!blocked[left] && owner[left] >= 0)
				next[h] = owner[left];
			else if (!blocked[h] && owner[right] >= 0)
				next[h] = owner[right];
			changed |= next[h] >= 0;
		}
		memcpy(owner, next, sizeof owner);
	}
	for (int f = 0; f < t->nfeatures; f++) {
		if (klass_of(ts, t, f) != CARC_CLASS_AREA || t->features[f].inner)
			continue;
		struct carc_feature_shape *fs = &out->f[f];
		int count = 0;
		for (int h = 0; h < 8; h++)
			count += owner[h] == f;
		if (count == 8) {
			fs->nregions = 1;
			for (int i = 0; i < 4; i++)
				add(&fs->region[0], corner[i]);
			continue;
		}
		for (int s = 0; s < 8; s++) {
			/* a run starts at s when s is f's and the half before is not, or a path cuts between them */
			int before = (s + 7) & 7;
			if (owner[s] != f || (owner[before] == f && !blocked[before]))
				continue;
			if (fs->nregions == 4)
				break;
			struct carc_poly *r = &fs->region[fs->nregions++];
			int e = s / 2;
			struct carc_pt begin = s & 1 ? mid[e] : corner[e];
			add(r, begin);
			int h = s, last;
			do {
				last = h;
				int he = h / 2;
				add(r, h & 1 ? corner[(he + 1) & 3] : mid[he]);
				h = (h + 1) & 7;
			} while (h != s && owner[h] == f && !blocked[last]);
			/* back from the end of half last to begin */
			int ea = last / 2, pa = t->edge_feature[ea], pb = t->edge_feature[e];
			bool along = !(last & 1) && (s & 1) && pa == pb && pa != CARC_NO_FEATURE &&
				     klass_of(ts, t, pa) == CARC_CLASS_PATH && popcount4(t->features[pa].edges) == 2;
			if (along) {
				const struct carc_poly *l = &out->f[pa].line[0];
				bool forward = l->p[0].x == mid[ea].x && l->p[0].y == mid[ea].y;
				for (int i = 1; i + 1 < l->n; i++)
					add(r, l->p[forward ? i : l->n - 1 - i]);
			} else if (t->inner_feature != CARC_NO_FEATURE) {
				/* not over the field walled in the middle: through a
				 * point between the centre and the run's middle */
				struct carc_pt m = {0, 0};
				for (int i = 0; i < r->n; i++) {
					m.x += r->p[i].x / (float)r->n;
					m.y += r->p[i].y / (float)r->n;
				}
				add(r, (struct carc_pt){centre.x + 0.6f * (m.x - centre.x), centre.y + 0.6f * (m.y - centre.y)});
			} else {
				add(r, centre);
			}
		}
	}
}

/* ---- hit test and labels ---- */

int carc_shape_hit(const struct carc_tileset *ts, const struct carc_tile_shape *s, struct carc_pt p,
		   bool no_paths)
{
	const struct carc_tile *t = &ts->tiles[s->tile];
	/* the last layer: areas that touch no edge, under the other areas */
	static const uint8_t layers[5][2] = {
		{CARC_CLASS_SITE, CARC_CLASS_LAKE}, {CARC_CLASS_ENCLOSURE, CARC_CLASS_ENCLOSURE},
		{CARC_CLASS_PATH, CARC_CLASS_PATH}, {CARC_CLASS_AREA, CARC_CLASS_AREA}, {CARC_CLASS_AREA, CARC_CLASS_AREA}};
	for (int layer = 0; layer < 5; layer++) {
		for (int f = t->nfeatures - 1; f >= 0; f--) {
			uint8_t k = klass_of(ts, t, f);
			if (k != layers[layer][0] && k != layers[layer][1])
				continue;
			if (k == CARC_CLASS_AREA && t->features[f].inner != (layer == 4))
				continue;
			if (no_paths && (k == CARC_CLASS_PATH || k == CARC_CLASS_SITE))
				continue;
			const struct carc_feature_shape *fs = &s->f[f];
			if (k == CARC_CLASS_PATH) {
				for (int i = 0; i < fs->nlines; i++)
					if (dist_to_line(&fs->line[i], p) <= PATH_HALF_WIDTH)
						return f;
				continue;
			}
			for (int i = 0; i < fs->nregions; i++)
				if (inside(&fs->region[i], p))
					return f;
		}
	}
	return CARC_NO_FEATURE;
}

static struct carc_pt line_middle(const struct carc_poly *l)
{
	float total = 0;
	for (int i = 0; i + 1 < l->n; i++)
		total += dist(l->p[i + 1], l->p[i]);
	float want = total / 2;
	for (int i = 0; i + 1 < l->n; i++) {
		float seg = dist(l->p[i + 1], l->p[i]);
		if (seg >= want && seg > 0) {
			float t = want / seg;
			return (struct carc_pt){l->p[i].x + t * (l->p[i + 1].x - l->p[i].x),
						l->p[i].y + t * (l->p[i + 1].y - l->p[i].y)};
		}
		want -= seg;
	}
	return l->n ? l->p[0] : centre;
}

static void find_labels(const struct carc_tileset *ts, struct carc_tile_shape *s)
{
	const struct carc_tile *t = &ts->tiles[s->tile];
	enum { N = LABEL_GRID * LABEL_GRID };
	uint8_t *hit = xmalloc(N);
	struct carc_pt *pt = xmalloc(N * sizeof *pt);
	for (int j = 0; j < LABEL_GRID; j++)
		for (int i = 0; i < LABEL_GRID; i++) {
			int k = j * LABEL_GRID + i;
			pt[k] = (struct carc_pt){(i + 0.5f) / LABEL_GRID, (j + 0.5f) / LABEL_GRID};
			hit[k] = (uint8_t)carc_shape_hit(ts, s, pt[k], false);
		}
	for (int f = 0; f < t->nfeatures; f++) {
		struct carc_feature_shape *fs = &s->f[f];
		uint8_t k = klass_of(ts, t, f);
		/* where it would be best: the middle of a path, the centre of what shows */
		struct carc_pt pref = centre;
		float sx = 0, sy = 0;
		int nvis = 0;
		for (int i = 0; i < N; i++)
			if (hit[i] == f) {
				sx += pt[i].x;
				sy += pt[i].y;
				nvis++;
			}
		if (k == CARC_CLASS_PATH && fs->nlines)
			pref = line_middle(&fs->line[0]);
		else if (nvis)
			pref = (struct carc_pt){sx / (float)nvis, sy / (float)nvis};
		if (k == CARC_CLASS_SITE) { /* the middle of its square */
			fs->label = (struct carc_pt){(fs->region[0].p[0].x + fs->region[0].p[2].x) / 2,
						     (fs->region[0].p[0].y + fs->region[0].p[2].y) / 2};
			continue;
		}
		if (k == CARC_CLASS_LAKE || !nvis) {
			fs->label = k == CARC_CLASS_LAKE ? centre : pref;
			continue;
		}
		float best = -1, best_d = 0;
		for (int i = 0; i < N; i++) {
			if (hit[i] != f)
				continue;
			float x = pt[i].x, y = pt[i].y;
			float clear = minf(minf(x, 1 - x), minf(y, 1 - y)) + 0.5f / LABEL_GRID;
			for (int j = 0; j < N; j++)
				if (hit[j] != f) {
					float d = dist(pt[j], pt[i]);
					if (d < clear)
						clear = d;
				}
			float d = dist(pt[i], pref);
			if (clear > best + 0.02f || (clear > best - 0.02f && d < best_d)) {
				if (clear > best)
					best = clear;
				best_d = d;
				fs->label = pt[i];
			}
		}
	}
	free(hit);
	free(pt);
}

/* A path that ends at a city gate or a cloister on a tile that another
 * path crosses straight through the centre (RB's and RH's roads over the
 * river) goes on past the centre, over the other, to the city's wall or the
 * cloister pushed aside. Done after the areas, whose shapes it leaves as
 * they were. */
static void bridge_roads(const struct carc_tileset *ts, const struct carc_tile *t, struct carc_tile_shape *out)
{
	for (int f = 0; f < t->nfeatures; f++) {
		const struct carc_feature *feat = &t->features[f];
		if (klass_of(ts, t, f) != CARC_CLASS_PATH || popcount4(feat->edges) != 1 ||
		    (feat->end != END_CITY && feat->end != END_CLOISTER) || out->f[f].nlines != 1)
			continue;
		int e = 0;
		while (!(feat->edges & (1u << e)))
			e++;
		bool crossed = false;
		for (int g = 0; g < t->nfeatures; g++)
			crossed |= g != f && klass_of(ts, t, g) == CARC_CLASS_PATH &&
				   t->features[g].edges == (0xf & ~(1u << e) & ~(1u << ((e + 2) & 3)));
		if (crossed)
			add(&out->f[f].line[0], (struct carc_pt){centre.x + (centre.x - mid[e].x) * 0.44f,
								 centre.y + (centre.y - mid[e].y) * 0.44f});
	}
}

void carc_tile_shape(const struct carc_tileset *ts, int tile, struct carc_tile_shape *out)
{
	const struct carc_tile *t = &ts->tiles[tile];
	memset(out, 0, sizeof *out);
	out->tile = tile;
	out->nfeatures = t->nfeatures;
	int arms = 0;
	uint8_t walled = 0, enclosed = 0; /* (see enclosure_shape) */
	for (int f = 0; f < t->nfeatures; f++) {
		if (klass_of(ts, t, f) == CARC_CLASS_ENCLOSURE)
			enclosed |= t->features[f].edges;
		if (klass_of(ts, t, f) == CARC_CLASS_AREA && t->features[f].inner)
			walled = 1;
	}
	walled = walled ? enclosed : 0;
	for (int f = 0; f < t->nfeatures; f++) {
		const struct carc_feature *feat = &t->features[f];
		struct carc_feature_shape *fs = &out->f[f];
		switch (klass_of(ts, t, f)) {
		case CARC_CLASS_ENCLOSURE:
			/* the other enclosures' edges, and 0x10: slim */
			enclosure_shape(feat->edges, (uint8_t)(walled ? (walled & ~feat->edges) | 0x10 : 0), fs);
			break;
		case CARC_CLASS_PATH:
			path_shape(feat, fs, &arms);
			if (feat->end == END_JUNCTION || feat->end == END_CROSSROADS)
				out->hub = true;
			break;
		case CARC_CLASS_SITE: {
			/* paths through the centre push the site aside: a bend
			 * (the river of RJ) to the far corner, a straight one (the
			 * river past the cloister of RH) to one side, away from a
			 * path that ends at the site, else north or east */
			static const float ux[4] = {0, 1, 0, -1}, uy[4] = {-1, 0, 1, 0};
			float dx = 0, dy = 0;
			for (int g = 0; g < t->nfeatures; g++) {
				uint8_t e = t->features[g].edges;
				if (klass_of(ts, t, g) != CARC_CLASS_PATH || t->features[g].end == END_CLOISTER)
					continue;
				if (e == 0x5 || e == 0xa) {
					int side = e == 0xa ? CARC_N : CARC_E;
					for (int h = 0; h < t->nfeatures; h++)
						if (klass_of(ts, t, h) == CARC_CLASS_PATH && t->features[h].end == END_CLOISTER &&
						    (t->features[h].edges & (1u << side)))
							side = (side + 2) & 3;
					dx += 0.22f * ux[side];
					dy += 0.22f * uy[side];
				} else if (e == 0x3 || e == 0x6 || e == 0xc || e == 0x9) {
					for (int d = 0; d < 4; d++)
						if (e & (1u << d)) {
							dx -= 0.22f * ux[d];
							dy -= 0.22f * uy[d];
						}
				}
			}
			dx = dx > 0.22f ? 0.22f : dx < -0.22f ? -0.22f : dx;
			dy = dy > 0.22f ? 0.22f : dy < -0.22f ? -0.22f : dy;
			fs->nregions = 1;
			add(&fs->region[0], (struct carc_pt){0.32f + dx, 0.32f + dy});
			add(&fs->region[0], (struct carc_pt){0.68f + dx, 0.32f + dy});
			add(&fs->region[0], (struct carc_pt){0.68f + dx, 0.68f + dy});
			add(&fs->region[0], (struct carc_pt){0.32f + dx, 0.68f + dy});
			break;
		}
		case CARC_CLASS_LAKE:
			fs->nregions = 1;
			disc(&fs->region[0], 0.22f);
			break;
		default:
			break;
		}
	}
	if (arms >= 3)
		out->hub = true;
	if (t->centre_feature != CARC_NO_FEATURE)
		out->hub = false; /* the paths end at the cloister or lake */
	area_shapes(ts, t, out);
	bridge_roads(ts, t, out);
	find_labels(ts, out);
}

struct carc_shape_cache {
	const struct carc_tileset *ts;
	struct carc_tile_shape **shape;
};

struct carc_shape_cache *carc_shape_cache_new(const struct carc_tileset *ts)
{
	struct carc_shape_cache *c = xcalloc(1, sizeof *c);
	c->ts = ts;
	c->shape = xcalloc((size_t)ts->ntiles, sizeof *c->shape);
	return c;
}

const struct carc_tile_shape *carc_shape_get(struct carc_shape_cache *c, int tile)
{
	if (!c->shape[tile]) {
		c->shape[tile] = xmalloc(sizeof *c->shape[tile]);
		carc_tile_shape(c->ts, tile, c->shape[tile]);
	}
	return c->shape[tile];
}

void carc_shape_cache_free(struct carc_shape_cache *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->ts->ntiles; i++)
		free(c->shape[i]);
	free(c->shape);
	free(c);
}

/* ---- looks ---- */

static const struct {
	const char *name;
	uint8_t klass;
	struct carc_kind_look look;
} known_looks[] = {
	{"road", CARC_CLASS_PATH, {"#f4ecd9", "#6b5a3e", "═", "-", 97, false, false}},
	{"river", CARC_CLASS_PATH, {"#4c8fd6", "#2a5c96", "≈", "~", 34, true, false}},
	{"city", CARC_CLASS_ENCLOSURE, {"#cf9a5c", "#6e4525", "▓", "#", 33, false, false}},
	{"forest", CARC_CLASS_ENCLOSURE, {"#3f7d3a", "#214a1f", "♣", "%", 32, false, true}},
	{"cloister", CARC_CLASS_SITE, {"#efe3c8", "#9b2d20", "†", "@", 31, false, false}},
	{"garden", CARC_CLASS_SITE, {"#f3c6e0", "#3f7a2a", "✿", "%", 35, false, false, true}},
	{"field", CARC_CLASS_AREA, {"#93c45a", "#5d8a2f", "·", ".", 32, false, false}},
	{"meadow", CARC_CLASS_AREA, {"#b7d36a", "#738f2c", "·", ".", 32, false, false}},
	{"lake", CARC_CLASS_LAKE, {"#3d84d0", "#22589a", "○", "o", 34, false, false}},
};

/* Unknown kinds: by class, then by rank among the kinds of that class. */
static const struct carc_kind_look class_looks[CARC_CLASS_COUNT][2] = {
	[CARC_CLASS_PATH] = {{"#f4ecd9", "#6b5a3e", "─", "-", 97, false, false},
			     {"#4c8fd6", "#2a5c96", "≈", "~", 34, true, false}},
	[CARC_CLASS_ENCLOSURE] = {{"#cf9a5c", "#6e4525", "▓", "#", 33, false, false},
				  {"#3f7d3a", "#214a1f", "♣", "%", 32, false, true}},
	[CARC_CLASS_SITE] = {{"#efe3c8", "#9b2d20", "†", "@", 31, false, false},
			     {"#e0d0f0", "#5a3d80", "¤", "&", 35, false, false}},
	[CARC_CLASS_AREA] = {{"#93c45a", "#5d8a2f", "·", ".", 32, false, false},
			     {"#c9d67a", "#7d8a35", ",", ",", 33, false, false}},
	[CARC_CLASS_LAKE] = {{"#3d84d0", "#22589a", "○", "o", 34, false, false},
			     {"#5fa0e0", "#22589a", "◎", "O", 36, false, false}},
};

const struct carc_kind_look *carc_kind_look(const struct carc_tileset *ts, int kind)
{
	const struct carc_kind *k = &ts->kinds[kind];
	for (size_t i = 0; i < CARC_ARRAY_LEN(known_looks); i++)
		if (known_looks[i].klass == k->klass && !strcmp(known_looks[i].name, k->name))
			return &known_looks[i].look;
	int rank = 0;
	for (int i = 0; i < kind; i++)
		rank += ts->kinds[i].klass == k->klass;
	return &class_looks[k->klass][rank > 1 ? 1 : rank];
}

const char *carc_attr_glyph(const struct carc_tileset *ts, int attr, bool ascii)
{
	static const char *const glyph[CARC_ATTR_COUNT][2] = {
		[CARC_ATTR_PENNANT] = {"♦", "*"}, [CARC_ATTR_FISH] = {"∝", "<"},
		[CARC_ATTR_GOLD] = {"$", "$"},    [CARC_ATTR_DEER] = {"d", "d"},
		[CARC_ATTR_MAMMOTH] = {"m", "m"}, [CARC_ATTR_TIGER] = {"t", "t"},
		[CARC_ATTR_AUROCHS] = {"a", "a"}, [CARC_ATTR_MUSHROOM] = {"♠", "&"},
		[CARC_ATTR_FIRE] = {"^", "^"},    [CARC_ATTR_SHRINE] = {"∩", "n"},
		[CARC_ATTR_VOLCANO] = {"▲", "A"},
	};
	/* a set's own attributes, by name: Inns & Cathedrals', Traders & Builders' goods
	 * (grain a sack, s: g is green's letter; the cathedral % in ASCII, # being the city) */
	static const struct { const char *name, *glyph[2]; } named[] = {
		{"inn", {"⌂", "i"}}, {"cathedral", {"‡", "%"}}, {"wine", {"w", "w"}}, {"grain", {"s", "s"}},
		{"cloth", {"c", "c"}},
	};
	if (attr >= 0 && attr < CARC_ATTR_COUNT)
		return glyph[attr][ascii];
	if (!ts || attr < 0 || attr >= ts->nattrs)
		return "?";
	for (size_t i = 0; i < CARC_ARRAY_LEN(named); i++)
		if (!strcmp(ts->attrs[attr], named[i].name))
			return named[i].glyph[ascii];
	/* another: the first letter of its name (a lowercase one), else "?" */
	static const char letters[] = "a\0b\0c\0d\0e\0f\0g\0h\0i\0j\0k\0l\0m\0n\0o\0p\0q\0r\0s\0t\0u\0v\0w\0x\0y\0z";
	char c = ts->attrs[attr][0];
	return c >= 'a' && c <= 'z' ? letters + 2 * (c - 'a') : "?";
}

char carc_colour_letter(int colour)
{
	static const char letters[] = "rgbykap";
	return colour >= 0 && colour < (int)sizeof letters - 1 ? letters[colour] : '?';
}

/* ---- the canvas ---- */

void carc_canvas_init(struct carc_canvas *cv, int w, int h)
{
	cv->w = w;
	cv->h = h;
	cv->cell = xcalloc((size_t)w * (size_t)h + 1, sizeof *cv->cell);
	for (int i = 0; i < w * h; i++)
		cv->cell[i].glyph[0] = ' ';
}

void carc_canvas_free(struct carc_canvas *cv)
{
	free(cv->cell);
	cv->cell = NULL;
}

void carc_canvas_put(struct carc_canvas *cv, int x, int y, const char *glyph, int sgr)
{
	if (x < 0 || y < 0 || x >= cv->w || y >= cv->h)
		return;
	struct carc_canvas_cell *c = &cv->cell[y * cv->w + x];
	size_t n = strlen(glyph);
	if (n > 4)
		n = 4;
	memcpy(c->glyph, glyph, n);
	c->glyph[n] = '\0';
	c->sgr = (int16_t)sgr;
}

void carc_canvas_text(struct carc_canvas *cv, int x, int y, const char *s, int sgr)
{
	while (*s) {
		/* one UTF-8 character */
		int n = 1;
		while (s[n] && (s[n] & 0xc0) == 0x80)
			n++;
		char g[5] = {0};
		memcpy(g, s, (size_t)(n > 4 ? 4 : n));
		carc_canvas_put(cv, x++, y, g, sgr);
		s += n;
	}
}

static const char *sgr_code(int sgr, char *buf, size_t size)
{
	static const char *const follower[CARC_MAX_TERRAINS] = {
		"1;97;41", "1;97;42", "1;97;44", "1;30;43", "1;97;40", "1;97;100", "1;97;45", "1;97;46"};
	if (sgr < 0)
		return follower[(-sgr - 1) & 7];
	snprintf(buf, size, "%d", sgr);
	return buf;
}

void carc_canvas_render(const struct carc_canvas *cv, struct carc_buf *out, bool color)
{
	for (int y = 0; y < cv->h; y++) {
		const struct carc_canvas_cell *row = &cv->cell[y * cv->w];
		int end = cv->w;
		while (end > 0 && !strcmp(row[end - 1].glyph, " "))
			end--;
		int cur = 0;
		for (int x = 0; x < end; x++) {
			int want = strcmp(row[x].glyph, " ") ? row[x].sgr : 0;
			if (color && want != cur) {
				char buf[16];
				if (cur)
					carc_buf_adds(out, "\033[0m");
				if (want)
					carc_buf_printf(out, "\033[%sm", sgr_code(want, buf, sizeof buf));
				cur = want;
			}
			carc_buf_adds(out, row[x].glyph);
		}
		if (color && cur)
			carc_buf_adds(out, "\033[0m");
		carc_buf_addc(out, '\n');
	}
}

/* ---- terminal pictures ---- */

static const char *path_glyph(const struct carc_kind_look *look, bool road, unsigned mask, bool ascii)
{
	static const char *const dbl[16] = {" ", "║", "═", "╚", "║", "║", "╔", "╠",
					    "═", "╝", "═", "╩", "╗", "╣", "╦", "╬"};
	static const char *const sgl[16] = {" ", "│", "─", "└", "│", "│", "┌", "├",
					    "─", "┘", "─", "┴", "┐", "┤", "┬", "┼"};
	if (look->water)
		return ascii ? look->ascii : look->glyph;
	if (ascii)
		return mask == 1 || mask == 4 || mask == 5 ? "|" : mask == 2 || mask == 8 || mask == 10 ? "-" : "+";
	return road ? dbl[mask & 15] : sgl[mask & 15];
}

/* The first path kind that is not water is drawn with double lines. */
static int road_kind(const struct carc_tileset *ts)
{
	for (int k = 0; k < ts->nkinds; k++)
		if (ts->kinds[k].klass == CARC_CLASS_PATH && !carc_kind_look(ts, k)->water)
			return k;
	return -1;
}

struct tile_follower {
	int feature;
	char text[4]; /* "Kr"; a large follower's letter twice, "KKr" */
	int sgr;
};

/* The character cell where a feature's symbols go: of the cells that show
 * the feature, the one nearest its label point; else the label's own cell. */
static void label_cell(const struct carc_tile_shape *s, int f, int rot, int w, int h, const uint8_t *shown, int *cx,
		       int *cy)
{
	struct carc_pt p = carc_pt_turn(s->f[f].label, rot);
	*cx = (int)(p.x * (float)w);
	*cy = (int)(p.y * (float)h);
	*cx = *cx < 0 ? 0 : *cx >= w ? w - 1 : *cx;
	*cy = *cy < 0 ? 0 : *cy >= h ? h - 1 : *cy;
	float best = 1e9f;
	for (int r = 0; r < h; r++)
		for (int c = 0; c < w; c++) {
			if (shown[r * w + c] != f)
				continue;
			float dx = ((float)c + 0.5f) / (float)w - p.x, dy = ((float)r + 0.5f) / (float)h - p.y;
			if (dx * dx + dy * dy < best) {
				best = dx * dx + dy * dy;
				*cx = c;
				*cy = r;
			}
		}
}

static void draw_tile(struct carc_canvas *cv, int x0, int y0, int w, int h, const struct carc_tileset *ts,
		      const struct carc_tile_shape *s, int rot, bool ascii, const struct tile_follower *fl, int nfl)
{
	const struct carc_tile *t = &ts->tiles[s->tile];
	int back = (4 - (rot & 3)) & 3;
	uint8_t *under = xmalloc((size_t)(w * h)); /* the feature each cell shows */
	for (int r = 0; r < h; r++)
		for (int c = 0; c < w; c++) {
			struct carc_pt p = carc_pt_turn((struct carc_pt){(c + 0.5f) / (float)w, (r + 0.5f) / (float)h}, back);
			int f = carc_shape_hit(ts, s, p, true);
			under[r * w + c] = (uint8_t)f;
			if (f == CARC_NO_FEATURE) {
				carc_canvas_put(cv, x0 + c, y0 + r, " ", 0);
				continue;
			}
			const struct carc_kind_look *look = carc_kind_look(ts, t->features[f].kind);
			carc_canvas_put(cv, x0 + c, y0 + r, ascii ? look->ascii : look->glyph, look->ansi);
		}
	/* paths: arms along the middle row and column, from each edge to the centre */
	int cx = w / 2, cy = h / 2;
	unsigned *mask = xcalloc((size_t)(w * h), sizeof *mask);
	int *kind_at = xcalloc((size_t)(w * h), sizeof *kind_at);
	int *feature_at = xcalloc((size_t)(w * h), sizeof *feature_at);
	for (int f = 0; f < t->nfeatures; f++) {
		if (klass_of(ts, t, f) != CARC_CLASS_PATH)
			continue;
		for (int e = 0; e < 4; e++) {
			if (!(t->features[f].edges & (1u << e)))
				continue;
			int be = (e + rot) & 3;
			static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
			unsigned through = be & 1 ? 2 | 8 : 1 | 4;
			int c = cx, r = cy;
			/* a path of another kind drawn over it (a road on a bridge
			 * over the river) shows only its own arms there */
			if (kind_at[r * w + c] != t->features[f].kind + 1)
				mask[r * w + c] = 0;
			mask[r * w + c] |= 1u << be;
			kind_at[r * w + c] = t->features[f].kind + 1;
			feature_at[r * w + c] = f + 1;
			for (c += dx[be], r += dy[be]; c >= 0 && r >= 0 && c < w && r < h; c += dx[be], r += dy[be]) {
				if (kind_at[r * w + c] != t->features[f].kind + 1)
					mask[r * w + c] = 0;
				mask[r * w + c] |= through;
				kind_at[r * w + c] = t->features[f].kind + 1;
				feature_at[r * w + c] = f + 1;
			}
		}
	}
	int road = road_kind(ts);
	for (int i = 0; i < w * h; i++) {
		if (!mask[i])
			continue;
		int u = under[i];
		if (u != CARC_NO_FEATURE && klass_of(ts, t, u) != CARC_CLASS_AREA)
			continue;
		under[i] = (uint8_t)(feature_at[i] - 1);
		int kind = kind_at[i] - 1;
		const struct carc_kind_look *look = carc_kind_look(ts, kind);
		carc_canvas_put(cv, x0 + i % w, y0 + i / w, path_glyph(look, kind == road, mask[i], ascii), look->ansi);
	}
	for (int f = 0; f < t->nfeatures; f++) /* a spring where a river starts */
		if (klass_of(ts, t, f) == CARC_CLASS_PATH && t->features[f].end == END_SPRING && mask[cy * w + cx] &&
		    (under[cy * w + cx] == CARC_NO_FEATURE || klass_of(ts, t, under[cy * w + cx]) == CARC_CLASS_PATH))
			carc_canvas_put(cv, x0 + cx, y0 + cy, ascii ? "+" : "•", carc_kind_look(ts, t->features[f].kind)->ansi);
	free(mask);
	free(kind_at);
	free(feature_at);
	/* sites, attributes and followers, at their labels */
	for (int f = 0; f < t->nfeatures; f++) {
		const struct carc_feature *feat = &t->features[f];
		int lx, ly;
		label_cell(s, f, rot, w, h, under, &lx, &ly);
		char attrs[64] = "";
		int nattr = 0;
		if (klass_of(ts, t, f) == CARC_CLASS_SITE) {
			const struct carc_kind_look *look = carc_kind_look(ts, feat->kind);
			strcat(attrs, ascii ? look->ascii : look->glyph);
			nattr++;
		}
		for (int a = 0; a < ts->nattrs; a++) {
			int n = feat->attr[a];
			if (n > 2 && nattr + 2 <= w) { /* "3∝" */
				char num[4];
				snprintf(num, sizeof num, "%d", n > 9 ? 9 : n);
				strcat(attrs, num);
				strcat(attrs, carc_attr_glyph(ts, a, ascii));
				nattr += 2;
				continue;
			}
			for (int i = 0; i < n && nattr < w && strlen(attrs) + 4 < sizeof attrs; i++, nattr++)
				strcat(attrs, carc_attr_glyph(ts, a, ascii));
		}
		const struct tile_follower *who = NULL;
		for (int i = 0; i < nfl; i++)
			if (fl[i].feature == f)
				who = &fl[i];
		int total = nattr + (who ? (int)strlen(who->text) : 0);
		if (!total)
			continue;
		int start = who ? lx - nattr : lx - (nattr - 1) / 2;
		if (start + total > w)
			start = w - total;
		if (start < 0)
			start = 0;
		if (nattr) {
			const struct carc_kind_look *look = carc_kind_look(ts, feat->kind);
			int sgr = klass_of(ts, t, f) == CARC_CLASS_SITE ? look->ansi : 1;
			carc_canvas_text(cv, x0 + start, y0 + ly, attrs, sgr);
		}
		if (who)
			carc_canvas_text(cv, x0 + start + nattr, y0 + ly, who->text, who->sgr);
	}
	free(under);
}

void carc_picture_tile(struct carc_canvas *cv, int x, int y, int w, int h, const struct carc_tileset *ts,
		       const struct carc_tile_shape *s, int rot, bool ascii)
{
	draw_tile(cv, x, y, w, h, ts, s, rot, ascii, NULL, 0);
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

void carc_view_axis(const struct carc_view *v, bool rows, struct carc_axis *out)
{
	size_t n = v->ntiles + (size_t)v->ncells;
	int32_t *val = xcalloc(n + 1, sizeof *val);
	for (size_t i = 0; i < n; i++) {
		if (i < v->ntiles)
			val[i] = rows ? v->tiles[i].y : v->tiles[i].x;
		else
			val[i] = rows ? v->cells[i - v->ntiles].y : v->cells[i - v->ntiles].x;
	}
	qsort(val, n, sizeof *val, cmp_i32);
	out->n = 0;
	out->slot = xcalloc(n * (CARC_AXIS_GAP) + 1, sizeof *out->slot);
	for (size_t i = 0; i < n; i++) {
		if (i && val[i] == val[i - 1])
			continue;
		if (i) {
			int64_t empty = (int64_t)val[i] - val[i - 1] - 1;
			if (empty >= CARC_AXIS_GAP) {
				out->slot[out->n++] = (struct carc_axis_slot){val[i], true};
				continue;
			}
			for (int64_t k = 1; k <= empty; k++)
				out->slot[out->n++] = (struct carc_axis_slot){(int32_t)(val[i - 1] + k), false};
		}
		out->slot[out->n++] = (struct carc_axis_slot){val[i], false};
	}
	free(val);
}

int carc_axis_find(const struct carc_axis *a, int32_t value)
{
	int lo = 0, hi = a->n - 1;
	while (lo <= hi) {
		int m = (lo + hi) / 2;
		if (a->slot[m].value == value)
			return m;
		if (a->slot[m].value < value)
			lo = m + 1;
		else
			hi = m - 1;
	}
	return -1;
}

void carc_axis_free(struct carc_axis *a)
{
	free(a->slot);
	a->slot = NULL;
	a->n = 0;
}

static void frame(struct carc_canvas *cv, int left, int top, int w, int h, int mark, bool ascii)
{
	/* corners, horizontal, vertical */
	static const char *const uni[4][6] = {
		[CARC_MARK_LAST] = {"┌", "┐", "└", "┘", "─", "│"},
		[CARC_MARK_HIGHLIGHT] = {"╔", "╗", "╚", "╝", "═", "║"},
		[CARC_MARK_ILLEGAL] = {"┏", "┓", "┗", "┛", "━", "┃"},
	};
	static const char *const asc[4][6] = {
		[CARC_MARK_LAST] = {"+", "+", "+", "+", "-", "|"},
		[CARC_MARK_HIGHLIGHT] = {"*", "*", "*", "*", "*", "*"},
		[CARC_MARK_ILLEGAL] = {"!", "!", "!", "!", "!", "!"},
	};
	static const int sgr[4] = {0, 93, 95, 91};
	const char *const *g = ascii ? asc[mark] : uni[mark];
	carc_canvas_put(cv, left - 1, top - 1, g[0], sgr[mark]);
	carc_canvas_put(cv, left + w, top - 1, g[1], sgr[mark]);
	carc_canvas_put(cv, left - 1, top + h, g[2], sgr[mark]);
	carc_canvas_put(cv, left + w, top + h, g[3], sgr[mark]);
	for (int c = 0; c < w; c++) {
		carc_canvas_put(cv, left + c, top - 1, g[4], sgr[mark]);
		carc_canvas_put(cv, left + c, top + h, g[4], sgr[mark]);
	}
	for (int r = 0; r < h; r++) {
		carc_canvas_put(cv, left - 1, top + r, g[5], sgr[mark]);
		carc_canvas_put(cv, left + w, top + r, g[5], sgr[mark]);
	}
}

void carc_picture_map(struct carc_buf *out, const struct carc_view *v, struct carc_shape_cache *shapes, bool ascii,
		      bool color)
{
	if (!v->ntiles && !v->ncells)
		return;
	const int TW = CARC_MAP_TILE_W, TH = CARC_MAP_TILE_H, GAP_W = 4, GAP_H = 2;
	struct carc_axis xs, ys;
	carc_view_axis(v, false, &xs);
	carc_view_axis(v, true, &ys);
	/* where each column and row starts; rows run from north (the greatest y) down */
	int lm = 0;
	for (int i = 0; i < ys.n; i++) {
		char num[16];
		int n = snprintf(num, sizeof num, "%d", (int)ys.slot[i].value);
		if (n > lm)
			lm = n;
	}
	int *left = xcalloc((size_t)xs.n + 1, sizeof *left), *top = xcalloc((size_t)ys.n + 1, sizeof *top);
	int col = lm + 2;
	for (int i = 0; i < xs.n; i++) {
		col += xs.slot[i].gap ? GAP_W : 0;
		left[i] = col;
		col += TW + 1;
	}
	int row = 2;
	for (int i = ys.n - 1; i >= 0; i--) {
		top[i] = row;
		row += TH + 1 + (ys.slot[i].gap ? GAP_H : 0);
	}
	struct carc_canvas cv;
	carc_canvas_init(&cv, col + 1, row);
	const char *dots = ascii ? "..." : "…";
	for (int i = 0; i < xs.n; i++) {
		char num[16];
		int n = snprintf(num, sizeof num, "%d", (int)xs.slot[i].value);
		carc_canvas_text(&cv, left[i] + (TW - n + 1) / 2, 0, num, 0);
		if (xs.slot[i].gap)
			carc_canvas_text(&cv, left[i] - GAP_W + (ascii ? 0 : 1), 0, dots, 0);
	}
	for (int i = 0; i < ys.n; i++) {
		char num[16];
		int n = snprintf(num, sizeof num, "%d", (int)ys.slot[i].value);
		carc_canvas_text(&cv, lm - n, top[i] + TH / 2, num, 0);
		if (ys.slot[i].gap)
			carc_canvas_text(&cv, lm - (ascii ? 3 : 1), top[i] + TH + 1, dots, 0);
	}
#define LEFT(x) left[carc_axis_find(&xs, (x))]
#define TOP(y) top[carc_axis_find(&ys, (y))]
	for (size_t i = 0; i < v->ntiles; i++) {
		const struct carc_view_tile *vt = &v->tiles[i];
		struct tile_follower fl[4];
		int nfl = 0;
		for (size_t j = 0; j < v->nfollowers && nfl < 4; j++) {
			const struct carc_view_follower *f = &v->followers[j];
			if (f->tile != i)
				continue;
			fl[nfl].feature = f->feature;
			int k = 0;
			fl[nfl].text[k++] = f->letter;
			if (f->large) /* drawn larger: its letter twice */
				fl[nfl].text[k++] = f->letter;
			fl[nfl].text[k++] = carc_colour_letter(f->colour);
			fl[nfl].text[k] = '\0';
			fl[nfl].sgr = -(f->colour + 1);
			nfl++;
		}
		draw_tile(&cv, LEFT(vt->x), TOP(vt->y), TW, TH, v->ts, carc_shape_get(shapes, vt->tile), vt->rot, ascii,
			  fl, nfl);
	}
	/* frames, weakest first so that an illegal move's frame wins */
	for (int mark = CARC_MARK_LAST; mark <= CARC_MARK_ILLEGAL; mark++) {
		for (size_t i = 0; i < v->ntiles; i++)
			if (v->tiles[i].mark == mark)
				frame(&cv, LEFT(v->tiles[i].x), TOP(v->tiles[i].y), TW, TH, mark, ascii);
		for (int i = 0; i < v->ncells; i++)
			if (v->cells[i].mark == mark)
				frame(&cv, LEFT(v->cells[i].x), TOP(v->cells[i].y), TW, TH, mark, ascii);
	}
#undef LEFT
#undef TOP
	carc_canvas_render(&cv, out, color);
	while (out->len >= 2 && out->data[out->len - 1] == '\n' && out->data[out->len - 2] == '\n')
		out->len--; /* the gutter under the last row, when no frame is drawn in it */
	carc_canvas_free(&cv);
	free(left);
	free(top);
	carc_axis_free(&xs);
	carc_axis_free(&ys);
}

void carc_picture_key(struct carc_buf *out, const struct carc_tileset *ts, bool ascii)
{
	int n = 0;
	for (int k = 0; k < ts->nkinds; k++) {
		if (carc_kind_aside(ts, k))
			continue;
		const struct carc_kind_look *look = carc_kind_look(ts, k);
		const char *g = ascii ? look->ascii : look->glyph;
		if (ts->kinds[k].klass == CARC_CLASS_PATH && !look->water)
			g = path_glyph(look, k == road_kind(ts), 2 | 8, ascii);
		carc_buf_printf(out, "%s%s %s", n++ ? "  " : "", g, ts->kinds[k].name);
	}
	bool used[CARC_MAX_ATTRS] = {false};
	for (int i = 0; i < ts->ntiles; i++)
		for (int f = 0; f < ts->tiles[i].nfeatures; f++)
			for (int a = 0; a < ts->nattrs; a++)
				used[a] |= ts->tiles[i].features[f].attr[a] != 0;
	for (int a = 0; a < ts->nattrs; a++)
		if (used[a])
			carc_buf_printf(out, "%s%s %s", n++ ? "  " : "", carc_attr_glyph(ts, a, ascii), ts->attrs[a]);
	carc_buf_addc(out, '\n');
}
