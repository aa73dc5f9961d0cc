/*
 * svg.c - SVG pictures of tiles and of the map.
 *
 * A tile is 100 units square. Its features are drawn from their shapes
 * (picture.c) in the tile's pictured orientation inside a group turned to
 * the board: areas first, then paths, then enclosures with their walls, then
 * lakes. What must stay upright (cloisters, attribute symbols, followers,
 * text) is drawn afterwards in board coordinates. Colours come from the
 * feature kind's look (carc_kind_look), so an unknown kind still draws.
 */
#include "output/svg.h"

#include <stdlib.h>
#include <string.h>

#define T 100 /* a tile, in SVG units */

static const char *const colour_fill[CARC_COLOURS] = {"#d7263d", "#2e9e44", "#1f5fd1", "#f2c500",
						       "#262626", "#8c8c8c", "#ee6fb5"};

const char *carc_svg_colour(int colour)
{
	return colour >= 0 && colour < CARC_COLOURS ? colour_fill[colour] : "#777777";
}

/* Text on a follower of this colour. */
static const char *ink_on(int colour)
{
	return colour == CARC_YELLOW ? "#222222" : "#ffffff";
}

void carc_svg_escape(struct carc_buf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '&':
			carc_buf_adds(out, "&amp;");
			break;
		case '<':
			carc_buf_adds(out, "&lt;");
			break;
		case '>':
			carc_buf_adds(out, "&gt;");
			break;
		case '"':
			carc_buf_adds(out, "&quot;");
			break;
		case '\'':
			carc_buf_adds(out, "&apos;");
			break;
		default:
			if (c >= 0x80) { /* a UTF-8 character that XML 1.0 allows, or U+FFFD */
				size_t n = carc_utf8_len(s, strnlen(s, 4));
				bool nonchar = n == 3 && c == 0xef && (unsigned char)s[1] == 0xbf &&
					       (unsigned char)s[2] >= 0xbe; /* U+FFFE, U+FFFF */
				if (n && !nonchar)
					carc_buf_add(out, s, n);
				else
					carc_buf_adds(out, "\xef\xbf\xbd");
				s += n ? n - 1 : 0;
			} else if (c >= 0x20 || c == '\t' || c == '\n') {
				carc_buf_addc(out, (char)c);
			}
			break;
		}
	}
}

static void header(struct carc_buf *out, double w, double h, const char *title)
{
	carc_buf_printf(out,
			"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" height=\"%.0f\" "
			"viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n",
			w * 0.8, h * 0.8, w, h);
	if (title) {
		carc_buf_adds(out, "<title>");
		carc_svg_escape(out, title);
		carc_buf_adds(out, "</title>\n");
	}
	carc_buf_printf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#f6f1e6\"/>\n", w, h);
}

static void points(struct carc_buf *out, const struct carc_poly *p)
{
	for (int i = 0; i < p->n; i++)
		carc_buf_printf(out, "%s%.1f,%.1f", i ? " " : "", p->p[i].x * T, p->p[i].y * T);
}

/* ---- symbols, drawn upright about (x, y) ---- */

/* A set's own attribute drawn by its name (Inns & Cathedrals', Traders &
 * Builders' goods), or false. */
static bool named_symbol(struct carc_buf *out, const char *name)
{
	if (!strcmp(name, "inn")) /* a house with a hanging sign */
		carc_buf_adds(out, "<path d=\"M-8,9V-1L0,-8L8,-1V9Z\" fill=\"#d9b77e\" stroke=\"#4a2f12\" stroke-width=\"1.2\"/>"
				   "<path d=\"M-10,0L0,-9L10,0\" fill=\"none\" stroke=\"#8c2a1a\" stroke-width=\"2.2\"/>"
				   "<rect x=\"-2.5\" y=\"3\" width=\"5\" height=\"6\" fill=\"#4a2f12\"/>"
				   "<path d=\"M8,1H12V4\" fill=\"none\" stroke=\"#4a2f12\" stroke-width=\"1\"/>"
				   "<rect x=\"10\" y=\"4\" width=\"4\" height=\"4\" fill=\"#f2c431\" stroke=\"#4a2f12\" "
				   "stroke-width=\"0.8\"/>");
	else if (!strcmp(name, "cathedral")) /* a front with two towers and a cross */
		carc_buf_adds(out, "<path d=\"M-10,10V-5L-7.5,-10L-5,-5V-1L0,-5L5,-1V-5L7.5,-10L10,-5V10Z\" fill=\"#efe8d8\" "
				   "stroke=\"#4a4438\" stroke-width=\"1.2\" stroke-linejoin=\"round\"/>"
				   "<path d=\"M0,-12V-6M-2,-10H2\" stroke=\"#4a4438\" stroke-width=\"1.2\"/>"
				   "<path d=\"M-2.5,10V4Q0,1 2.5,4V10Z\" fill=\"#4a4438\"/>");
	else if (!strcmp(name, "wine")) /* a bottle */
		carc_buf_adds(out, "<path d=\"M-2,-10H2V-5Q5,-3 5,1V9H-5V1Q-5,-3 -2,-5Z\" fill=\"#7a1f4a\" stroke=\"#2e0818\" "
				   "stroke-width=\"1.2\"/><rect x=\"-3\" y=\"1\" width=\"6\" height=\"4\" fill=\"#f4ead2\"/>");
	else if (!strcmp(name, "grain")) /* a tied sack */
		carc_buf_adds(out, "<path d=\"M-6,9Q-10,2 -4,-4L-6,-9H6L4,-4Q10,2 6,9Z\" fill=\"#e6c36a\" stroke=\"#6b4c0a\" "
				   "stroke-width=\"1.2\"/><path d=\"M-4,-4H4\" stroke=\"#6b4c0a\" stroke-width=\"1.4\"/>");
	else if (!strcmp(name, "cloth")) /* a bolt of cloth */
		carc_buf_adds(out, "<rect x=\"-8\" y=\"-6\" width=\"16\" height=\"12\" rx=\"2\" fill=\"#4f7fc9\" "
				   "stroke=\"#1d3b6b\" stroke-width=\"1.2\"/><path d=\"M-8,-2H8M-8,2H8\" stroke=\"#c4d7f5\" "
				   "stroke-width=\"1\"/><ellipse cx=\"8\" cy=\"0\" rx=\"2\" ry=\"6\" fill=\"#3a66ad\" "
				   "stroke=\"#1d3b6b\" stroke-width=\"1\"/>");
	else
		return false;
	return true;
}

static void symbol(struct carc_buf *out, const struct carc_tileset *ts, int attr, double x, double y)
{
	carc_buf_printf(out, "<g transform=\"translate(%.1f,%.1f)\"><title>", x, y);
	carc_svg_escape(out, attr < CARC_ATTR_COUNT ? carc_attr_name(attr) : ts->attrs[attr]);
	carc_buf_adds(out, "</title>");
	if (attr >= CARC_ATTR_COUNT) { /* the set's own */
		if (!named_symbol(out, ts->attrs[attr])) {
			carc_buf_adds(out, "<circle r=\"6\" fill=\"#ffffff\" stroke=\"#333333\"/><text y=\"3.5\" "
					   "font-size=\"9\" text-anchor=\"middle\" fill=\"#333333\">");
			carc_svg_escape(out, carc_attr_glyph(ts, attr, true));
			carc_buf_adds(out, "</text>");
		}
		carc_buf_adds(out, "</g>\n");
		return;
	}
	switch (attr) {
	case CARC_ATTR_PENNANT:
		carc_buf_adds(out, "<path d=\"M-7,-8H7V1Q7,6 0,9Q-7,6 -7,1Z\" fill=\"#2456b8\" stroke=\"#ffffff\" "
				   "stroke-width=\"1.6\"/><path d=\"M-4,-4L0,1L4,-4\" fill=\"none\" stroke=\"#ffffff\" "
				   "stroke-width=\"1.6\"/>");
		break;
	case CARC_ATTR_FISH:
		carc_buf_adds(out, "<path d=\"M-8,0Q-2,-6 5,0Q-2,6 -8,0ZM5,0L9,-4V4Z\" fill=\"#f0f6ff\" stroke=\"#163f6e\" "
				   "stroke-width=\"1.2\"/><circle cx=\"-4\" cy=\"-0.8\" r=\"0.9\" fill=\"#163f6e\"/>");
		break;
	case CARC_ATTR_GOLD:
		carc_buf_adds(out, "<path d=\"M-6,3L-4,-4L2,-6L7,-1L5,5L-2,6Z\" fill=\"#f2c431\" stroke=\"#7d5d00\" "
				   "stroke-width=\"1.2\"/><path d=\"M-2,-2L2,-3\" stroke=\"#fff6c0\" stroke-width=\"1.2\"/>");
		break;
	case CARC_ATTR_DEER:
		carc_buf_adds(out, "<path d=\"M-7,4V-1Q-7,-3 -4,-3H3L5,-7H8L7,-2L5,-1V4\" fill=\"#a8672e\" stroke=\"#4d2a0c\" "
				   "stroke-width=\"1.1\"/><path d=\"M5,-7L3,-10M7,-7L9,-10M6,-8L6,-11\" stroke=\"#4d2a0c\" "
				   "stroke-width=\"1.1\"/><path d=\"M-6,4V8M-3,4V8M3,4V8M5,4V8\" stroke=\"#4d2a0c\" "
				   "stroke-width=\"1.2\"/>");
		break;
	case CARC_ATTR_MAMMOTH:
		carc_buf_adds(out, "<path d=\"M-9,5V-1Q-9,-7 -1,-7Q7,-7 8,-1L9,7H7L6,2V5\" fill=\"#6e5846\" "
				   "stroke=\"#2d2218\" stroke-width=\"1.1\"/><path d=\"M7,1Q5,6 1,5\" fill=\"none\" "
				   "stroke=\"#fffbe8\" stroke-width=\"1.6\"/><path d=\"M-7,5V9M-4,5V9M1,5V9M4,5V9\" "
				   "stroke=\"#2d2218\" stroke-width=\"1.8\"/>");
		break;
	case CARC_ATTR_TIGER:
		carc_buf_adds(out, "<path d=\"M-8,4V-1Q-8,-3 -5,-3H3L4,-6H8L9,-2L6,0V4\" fill=\"#e8871e\" stroke=\"#3a1e00\" "
				   "stroke-width=\"1.1\"/><path d=\"M-4,-3V1M-1,-3V1M2,-3V1M8,-2L8,2\" stroke=\"#1a1a1a\" "
				   "stroke-width=\"1.2\"/><path d=\"M-7,4V8M-4,4V8M3,4V8M5,4V8\" stroke=\"#3a1e00\" "
				   "stroke-width=\"1.2\"/>");
		break;
	case CARC_ATTR_AUROCHS:
		carc_buf_adds(out, "<path d=\"M-8,4V-2Q-8,-5 -4,-5H3L5,-6H8L9,-1L6,0V4\" fill=\"#3b2a20\" stroke=\"#140c06\" "
				   "stroke-width=\"1.1\"/><path d=\"M5,-6Q4,-10 7,-10M8,-6Q10,-9 11,-7\" fill=\"none\" "
				   "stroke=\"#f4ead2\" stroke-width=\"1.3\"/><path d=\"M-7,4V8M-4,4V8M3,4V8M5,4V8\" "
				   "stroke=\"#140c06\" stroke-width=\"1.3\"/>");
		break;
	case CARC_ATTR_MUSHROOM:
		carc_buf_adds(out, "<path d=\"M-8,0Q-8,-8 0,-8Q8,-8 8,0Z\" fill=\"#c8372d\" stroke=\"#5c1410\" "
				   "stroke-width=\"1.1\"/><rect x=\"-2.5\" y=\"0\" width=\"5\" height=\"7\" fill=\"#f7efdc\" "
				   "stroke=\"#5c1410\" stroke-width=\"1\"/><circle cx=\"-3\" cy=\"-4\" r=\"1.3\" fill=\"#ffffff\"/>"
				   "<circle cx=\"3\" cy=\"-5\" r=\"1.1\" fill=\"#ffffff\"/>");
		break;
	case CARC_ATTR_FIRE:
		carc_buf_adds(out, "<path d=\"M0,-10Q7,-3 5,3Q4,8 0,8Q-5,8 -6,3Q-7,-2 -2,-5Q-1,-1 1,0Q2,-5 0,-10Z\" "
				   "fill=\"#f06a1c\" stroke=\"#8c2500\" stroke-width=\"1.1\"/><path d=\"M0,7Q-3,5 -1,1Q2,3 "
				   "0,7Z\" fill=\"#ffd23f\"/>");
		break;
	case CARC_ATTR_SHRINE:
		carc_buf_adds(out, "<path d=\"M-8,8V-2Q-8,-9 0,-9Q8,-9 8,-2V8H4V-1Q4,-4 0,-4Q-4,-4 -4,-1V8Z\" "
				   "fill=\"#b9b2a4\" stroke=\"#4a4438\" stroke-width=\"1.1\"/>");
		break;
	case CARC_ATTR_VOLCANO:
		carc_buf_adds(out, "<path d=\"M-12,9L-4,-6H4L12,9Z\" fill=\"#6b4b3a\" stroke=\"#2e1d13\" stroke-width=\"1.2\"/>"
				   "<path d=\"M-4,-6H4L2,-1L0,1L-2,-2Z\" fill=\"#e0341e\"/><path d=\"M-2,-8Q0,-13 3,-10\" "
				   "fill=\"none\" stroke=\"#8a8a8a\" stroke-width=\"1.5\"/>");
		break;
	default:
		carc_buf_adds(out, "<circle r=\"5\" fill=\"#ffffff\" stroke=\"#333333\"/>");
		break;
	}
	carc_buf_adds(out, "</g>\n");
}

/* The figures that are not meeples, known by their role's name as the
 * rules know them (Traders & Builders' builder and pig). */
enum figure { FIGURE_MEEPLE, FIGURE_HUT, FIGURE_BUILDER, FIGURE_PIG };

static enum figure figure_of(const struct carc_view_follower *f)
{
	if (f->hut)
		return FIGURE_HUT;
	if (f->role && !strcmp(f->role, "builder"))
		return FIGURE_BUILDER;
	if (f->role && !strcmp(f->role, "pig"))
		return FIGURE_PIG;
	return FIGURE_MEEPLE;
}

#define MEEPLE_PATH "M10,1C12.5,1 13.5,3 13.2,5C16,6 19,7 19.5,9C19.8,10.5 17.5,10.5 15,10.5L16.5,19L11.5,19" \
		    "L10,15.5L8.5,19L3.5,19L5,10.5C2.5,10.5 0.2,10.5 0.5,9C1,7 4,6 6.8,5C6.5,3 7.5,1 10,1Z"
/* the builder: a standing figure taller and narrower than a meeple, arms at its sides */
#define BUILDER_PATH "M0,-17C3,-17 4.2,-14.8 3.4,-12C6,-11.2 7.4,-9.6 7.4,-7L7,3C7,4.5 5,4.5 5,3L5,-2L6,16H1.4" \
		     "L0,8L-1.4,16H-6L-5,-2L-5,3C-5,4.5 -7,4.5 -7,3L-7.4,-7C-7.4,-9.6 -6,-11.2 -3.4,-12C-4.2,-14.8 -3,-17 0,-17Z"
/* A follower: a meeple of its colour with its role letter, lying down on an
 * area (farmers), a hut, a builder (a tall standing figure) or a pig; a
 * large follower drawn a third larger. Every figure has a halo of the other
 * brightness and, on the map, a badge with its colour's letter. */
static void follower(struct carc_buf *out, const struct carc_view_follower *f, double x, double y, bool lying)
{
	const char *fill = carc_svg_colour(f->colour), *ink = ink_on(f->colour);
	const char *edge = f->colour == CARC_BLACK ? "#f0f0f0" : "#1a1a1a";
	enum figure fig = figure_of(f);
	static const char *const figure_class[] = {"meeple", "hut", "builder", "pig"};
	if (fig == FIGURE_PIG) /* a pig stands on its four legs in a field */
		lying = false;
	/* a large follower (it counts 2 in a majority) a third larger */
	carc_buf_adds(out, "<g");
	if (fig == FIGURE_BUILDER || fig == FIGURE_PIG || f->large) /* for tests and style sheets */
		carc_buf_printf(out, " class=\"%s%s%s\"", f->large ? "large" : "",
				f->large && fig != FIGURE_MEEPLE ? " " : "", fig != FIGURE_MEEPLE ? figure_class[fig] : "");
	carc_buf_printf(out, " transform=\"translate(%.1f,%.1f)%s%s\"><title>%s %s</title>", x, y,
			f->large ? " scale(1.35)" : "", lying ? " rotate(-90)" : "", carc_colour_name(f->colour),
			f->role ? f->role : "follower");
	/* a halo of the other brightness under the outline, so that the figure
	 * stands out of every ground whatever its colour */
	const char *halo = f->colour == CARC_BLACK ? "#1a1a1a" : "#ffffff";
	const char *letter_y = "4.5", *letter_size = "10";
	switch (fig) {
	case FIGURE_HUT:
		carc_buf_printf(out, "<path d=\"M-13,-1L0,-13L13,-1V13H-13Z\" fill=\"none\" stroke=\"%s\" "
				     "stroke-width=\"5\"/><path d=\"M-13,-1L0,-13L13,-1V13H-13Z\" fill=\"%s\" stroke=\"%s\" "
				     "stroke-width=\"2\"/>", halo, fill, edge);
		letter_y = "9";
		break;
	case FIGURE_BUILDER:
		carc_buf_printf(out, "<path d=\"" BUILDER_PATH "\" fill=\"%s\" stroke=\"%s\" stroke-width=\"5\" "
				     "stroke-linejoin=\"round\"/><path d=\"" BUILDER_PATH "\" fill=\"%s\" stroke=\"%s\" "
				     "stroke-width=\"1.6\" stroke-linejoin=\"round\"/>", halo, halo, fill, edge);
		letter_y = "3", letter_size = "8";
		break;
	case FIGURE_PIG: /* facing east: legs, the body, the head with its ear and snout */
		carc_buf_printf(out, "<path d=\"M-10,3V10M-5,4V10M5,4V10M10,3V10\" "
				     "fill=\"none\" stroke=\"%s\" stroke-width=\"6\" stroke-linecap=\"round\"/>"
				     "<path d=\"M-14,0A13,8 0 0 1 8,-6.5A6.5,6.5 0 0 1 10,-13L11.5,-10A6.5,6.5 0 0 1 16.5,-5"
				     "A2.6,3.2 0 0 1 16.5,1.8A6.5,6.5 0 0 1 10,3.5A13,8 0 0 1 -14,0Z\" fill=\"%s\" "
				     "stroke=\"%s\" stroke-width=\"5\" stroke-linejoin=\"round\"/>",
				halo, halo, halo);
		carc_buf_printf(out, "<path d=\"M-10,3V10M-5,4V10M5,4V10M10,3V10\" stroke=\"%s\" stroke-width=\"4.4\" "
				     "stroke-linecap=\"round\"/><path d=\"M-10,3V10M-5,4V10M5,4V10M10,3V10\" stroke=\"%s\" "
				     "stroke-width=\"2.2\" stroke-linecap=\"round\"/>", edge, fill);
		carc_buf_printf(out, "<ellipse cx=\"-1\" cy=\"0\" rx=\"13\" ry=\"8\" fill=\"%s\" stroke=\"%s\" "
				     "stroke-width=\"1.5\"/><circle cx=\"11\" cy=\"-3\" r=\"6.5\" fill=\"%s\" stroke=\"%s\" "
				     "stroke-width=\"1.5\"/><path d=\"M8,-8L9.5,-14L14,-9Z\" fill=\"%s\" stroke=\"%s\" "
				     "stroke-width=\"1.5\" stroke-linejoin=\"round\"/><ellipse cx=\"17.5\" cy=\"-1.5\" "
				     "rx=\"2.6\" ry=\"3.2\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"/>"
				     "<circle cx=\"12.5\" cy=\"-4.5\" r=\"1.1\" fill=\"%s\"/>"
				     "<path d=\"M16.7,-2.6V-0.6M18.3,-2.6V-0.6\" stroke=\"%s\" stroke-width=\"0.9\"/>",
				fill, edge, fill, edge, fill, edge, fill, edge, edge, edge);
		letter_y = "3.5", letter_size = "9";
		break;
	case FIGURE_MEEPLE:
		carc_buf_printf(out, "<path transform=\"scale(1.45) translate(-10,-10)\" d=\"" MEEPLE_PATH "\" fill=\"%s\" "
				     "stroke=\"%s\" stroke-width=\"3.6\" stroke-linejoin=\"round\"/>"
				     "<path transform=\"scale(1.45) translate(-10,-10)\" d=\"" MEEPLE_PATH "\" fill=\"%s\" "
				     "stroke=\"%s\" stroke-width=\"1.3\"/>", halo, halo, fill, edge);
		break;
	}
	carc_buf_printf(out, "<text x=\"%s\" y=\"%s\" font-size=\"%s\" font-weight=\"bold\" text-anchor=\"middle\" "
			     "fill=\"%s\"%s>%c</text>", fig == FIGURE_PIG ? "-1" : "0", letter_y, letter_size, ink,
			lying ? " transform=\"rotate(90)\"" : "", f->letter);
	/* the colour's letter on a badge: the colour read without telling colours apart */
	static const char *const badge_at[] = {"12,-12", "12,-11", "10,-15", "-14,-6"};
	if (f->role) /* not in the legend, where the letter is the colour's */
		carc_buf_printf(out, "<g class=\"badge\" transform=\"translate(%s)%s\"><circle r=\"6\" fill=\"#ffffff\" "
				     "stroke=\"#1a1a1a\" stroke-width=\"1\"/><text y=\"3\" font-size=\"9\" "
				     "font-weight=\"bold\" text-anchor=\"middle\" fill=\"#1a1a1a\">%c</text></g>",
				badge_at[fig], lying ? " rotate(90)" : "", carc_colour_letter(f->colour));
	carc_buf_adds(out, "</g>\n");
}

/* Points inside a region on a grid, for scattering trees. */
static int scatter(const struct carc_poly *r, struct carc_pt *pts, int max)
{
	int n = 0;
	for (int j = 0; j < 5 && n < max; j++)
		for (int i = 0; i < 5 && n < max; i++) {
			struct carc_pt p = {(i + 0.5f + (j & 1) * 0.4f) / 5.0f, (j + 0.55f) / 5.0f};
			bool in = false;
			for (int a = 0, b = r->n - 1; a < r->n; b = a++) {
				struct carc_pt pa = r->p[a], pb = r->p[b];
				if ((pa.y > p.y) != (pb.y > p.y) &&
				    p.x < (pb.x - pa.x) * (p.y - pa.y) / (pb.y - pa.y) + pa.x)
					in = !in;
			}
			if (in)
				pts[n++] = p;
		}
	return n;
}

/* Fill for a feature: its look, or in features mode its owners' colour
 * (a striped pattern when several colours tie). */
static void owner_fill(struct carc_buf *out, uint8_t owners)
{
	int n = 0, only = -1;
	for (int c = 0; c < CARC_COLOURS; c++)
		if (owners & (1u << c)) {
			n++;
			only = c;
		}
	if (n == 1)
		carc_buf_printf(out, "%s", carc_svg_colour(only));
	else
		carc_buf_printf(out, "url(#own%u)", owners);
}

/* Opens an upright site symbol (a cloister's building, a garden's bed) at
 * (x, y): the group, its title and the base rect up to its fill colour,
 * the owners' colour or fill; the caller goes on with the stroke. */
static void site_start(struct carc_buf *out, double x, double y, const char *title, const char *rect, uint8_t own,
		       const char *fill)
{
	carc_buf_printf(out, "<g transform=\"translate(%.1f,%.1f)\"><title>%s</title><rect %s fill=\"", x, y, title, rect);
	if (own)
		owner_fill(out, own);
	else
		carc_buf_adds(out, fill);
}

static void patterns(struct carc_buf *out, const struct carc_view *v)
{
	bool done[256] = {false};
	carc_buf_adds(out, "<defs>\n");
	for (size_t i = 0; i < v->ntiles; i++)
		for (int f = 0; f < CARC_MAX_FEATURES; f++) {
			uint8_t o = v->tiles[i].owners[f];
			int n = 0;
			for (int c = 0; c < CARC_COLOURS; c++)
				n += (o >> c) & 1;
			if (n < 2 || done[o])
				continue;
			done[o] = true;
			carc_buf_printf(out, "<pattern id=\"own%u\" width=\"%d\" height=\"%d\" patternUnits=\"userSpaceOnUse\" "
					     "patternTransform=\"rotate(45)\">", o, 8 * n, 8 * n);
			int k = 0;
			for (int c = 0; c < CARC_COLOURS; c++)
				if (o & (1u << c))
					carc_buf_printf(out, "<rect x=\"%d\" y=\"0\" width=\"8\" height=\"%d\" fill=\"%s\"/>", 8 * k++,
							8 * n, carc_svg_colour(c));
			carc_buf_adds(out, "</pattern>\n");
		}
	carc_buf_adds(out, "</defs>\n");
}

/* Draws one tile with its north-west corner at (x, y), turned rot quarter
 * turns; owners (may be NULL) colours its features by owner. */
static void draw_tile(struct carc_buf *out, const struct carc_tileset *ts, const struct carc_tile_shape *s, double x,
		      double y, int rot, const uint8_t *owners, const struct carc_view_follower *const *fl, int nfl)
{
	const struct carc_tile *t = &ts->tiles[s->tile];
	carc_buf_adds(out, "<g><title>tile ");
	carc_svg_escape(out, t->id);
	if (t->name) {
		carc_buf_adds(out, ": ");
		carc_svg_escape(out, t->name);
	}
	carc_buf_adds(out, "</title>\n");
	carc_buf_printf(out, "<g transform=\"translate(%.1f,%.1f) rotate(%d 50 50)\">\n", x, y, 90 * rot);
	/* the ground: the first area kind, or the first enclosure's colour */
	const char *ground = "#d8d0bc";
	for (int k = ts->nkinds - 1; k >= 0; k--)
		if (ts->kinds[k].klass == CARC_CLASS_AREA)
			ground = carc_kind_look(ts, k)->fill;
	carc_buf_printf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", T, T, ground);
	/* areas that touch no edge (the whole tile, spot I) first, under the others */
	static const uint8_t order[] = {CARC_CLASS_AREA, CARC_CLASS_AREA, CARC_CLASS_PATH, CARC_CLASS_ENCLOSURE,
					CARC_CLASS_LAKE};
	for (size_t o = 0; o < sizeof order; o++) {
		for (int f = 0; f < t->nfeatures; f++) {
			const struct carc_kind *kind = &ts->kinds[t->features[f].kind];
			if (kind->klass != order[o] || (kind->klass == CARC_CLASS_AREA && t->features[f].inner != (o == 0)))
				continue;
			const struct carc_kind_look *look = carc_kind_look(ts, t->features[f].kind);
			const struct carc_feature_shape *fs = &s->f[f];
			uint8_t own = owners ? owners[f] : 0;
			if (kind->klass == CARC_CLASS_PATH) {
				for (int i = 0; i < fs->nlines; i++) {
					carc_buf_adds(out, "<polyline points=\"");
					points(out, &fs->line[i]);
					carc_buf_printf(out, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"%d\" "
							     "stroke-linejoin=\"round\"/>\n", look->edge, look->water ? 17 : 15);
					carc_buf_adds(out, "<polyline points=\"");
					points(out, &fs->line[i]);
					carc_buf_adds(out, "\" fill=\"none\" stroke=\"");
					if (own)
						owner_fill(out, own);
					else
						carc_buf_adds(out, look->fill);
					carc_buf_printf(out, "\" stroke-width=\"%d\" stroke-linejoin=\"round\"/>\n",
							look->water ? 13 : 10);
				}
				continue;
			}
			for (int i = 0; i < fs->nregions; i++) {
				carc_buf_adds(out, "<polygon points=\"");
				points(out, &fs->region[i]);
				carc_buf_printf(out, "\" fill=\"%s\"%s/>\n", look->fill,
						kind->klass == CARC_CLASS_LAKE ? " stroke=\"#22589a\" stroke-width=\"2\"" : "");
				if (own) {
					carc_buf_adds(out, "<polygon points=\"");
					points(out, &fs->region[i]);
					carc_buf_adds(out, "\" fill=\"");
					owner_fill(out, own);
					/* more than a shade: a dashed border of the owners' colour
					 * (not round a walled-in field: its region is the whole tile) */
					carc_buf_adds(out, "\" fill-opacity=\"0.6\"");
					if (!t->features[f].inner) {
						carc_buf_adds(out, " stroke=\"");
						owner_fill(out, own);
						carc_buf_adds(out, "\" stroke-width=\"5\" stroke-dasharray=\"8 4\"");
					}
					carc_buf_adds(out, "/>\n");
				}
				if (look->trees) {
					struct carc_pt pts[25];
					int n = scatter(&fs->region[i], pts, 25);
					for (int k = 0; k < n; k++)
						carc_buf_printf(out, "<path d=\"M%.1f,%.1fl-6,10h12z\" fill=\"#1f4d1c\" "
								     "stroke=\"#143312\" stroke-width=\"1\"/>\n",
								pts[k].x * T, pts[k].y * T - 6);
				}
			}
			for (int i = 0; kind->klass == CARC_CLASS_ENCLOSURE && i < fs->nlines; i++) {
				carc_buf_adds(out, "<polyline points=\"");
				points(out, &fs->line[i]);
				carc_buf_printf(out, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"4\" "
						     "stroke-linejoin=\"round\"/>\n", look->edge);
			}
		}
	}
	/* where paths meet, and where they end */
	if (s->hub)
		carc_buf_adds(out, "<rect x=\"42\" y=\"42\" width=\"16\" height=\"16\" fill=\"#c4ac86\" stroke=\"#5a4630\" "
				   "stroke-width=\"2\"/>\n");
	for (int f = 0; f < t->nfeatures; f++) {
		const struct carc_feature *feat = &t->features[f];
		if (ts->kinds[feat->kind].klass != CARC_CLASS_PATH)
			continue;
		if (feat->end == 4) /* spring */
			carc_buf_adds(out, "<circle cx=\"50\" cy=\"50\" r=\"9\" fill=\"#bfe3ff\" stroke=\"#2a5c96\" "
					   "stroke-width=\"2\"/>\n");
	}
	carc_buf_printf(out, "<rect x=\"0.5\" y=\"0.5\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000000\" "
			     "stroke-opacity=\"0.25\" stroke-width=\"1\"/>\n", T - 1, T - 1);
	carc_buf_adds(out, "</g>\n");
	/* upright: cloisters, symbols, followers */
	for (int f = 0; f < t->nfeatures; f++) {
		const struct carc_feature *feat = &t->features[f];
		const struct carc_kind_look *look = carc_kind_look(ts, feat->kind);
		struct carc_pt l = carc_pt_turn(s->f[f].label, rot);
		double lx = x + l.x * T, ly = y + l.y * T;
		if (ts->kinds[feat->kind].klass == CARC_CLASS_SITE && look->flowers) {
			/* a garden: a hedged bed with a flower, its owner's colour as the bed */
			site_start(out, lx, ly, ts->kinds[feat->kind].name,
				   "x=\"-15\" y=\"-15\" width=\"30\" height=\"30\" rx=\"8\"", owners ? owners[f] : 0,
				   "#7fb85a");
			carc_buf_printf(out, "\" stroke=\"%s\" stroke-width=\"2.5\"/>", look->edge);
			for (int p = 0; p < 5; p++) {
				static const int px[5] = {0, 7, 4, -4, -7}, py[5] = {-7, -2, 6, 6, -2};
				carc_buf_printf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"4.5\" fill=\"%s\"/>", px[p], py[p],
						look->fill);
			}
			carc_buf_adds(out, "<circle cx=\"0\" cy=\"0\" r=\"3.5\" fill=\"#f2c12e\"/></g>\n");
		} else if (ts->kinds[feat->kind].klass == CARC_CLASS_SITE) {
			site_start(out, lx, ly, ts->kinds[feat->kind].name, "x=\"-14\" y=\"-8\" width=\"28\" height=\"24\"",
				   owners ? owners[f] : 0, look->fill);
			carc_buf_printf(out, "\" stroke=\"#4a3a2a\" stroke-width=\"1.5\"/>"
					     "<path d=\"M-18,-6L0,-22L18,-6Z\" fill=\"%s\" stroke=\"#4a1a10\" stroke-width=\"1.5\"/>"
					     "<rect x=\"-4\" y=\"4\" width=\"8\" height=\"12\" fill=\"#4a3a2a\"/>"
					     "<path d=\"M0,-30V-20M-4,-26H4\" stroke=\"#4a1a10\" stroke-width=\"2\"/></g>\n",
					look->edge);
		}
		bool volcano = false;
		for (int g = 0; g < t->nfeatures; g++)
			volcano |= t->features[g].attr[CARC_ATTR_VOLCANO] != 0;
		if (feat->end == 6 && !volcano) /* a river from a volcano, not drawn elsewhere */
			symbol(out, ts, CARC_ATTR_VOLCANO, x + 50, y + 50);
		int nsym = 0;
		for (int a = 0; a < ts->nattrs; a++)
			nsym += feat->attr[a];
		const struct carc_view_follower *who = NULL;
		for (int i = 0; i < nfl; i++)
			if (fl[i]->feature == f)
				who = fl[i];
		double sx = lx - (nsym - 1) * 9.0 - (who ? 16 : 0);
		if (sx < x + 10)
			sx = x + 10;
		for (int a = 0; a < ts->nattrs; a++)
			for (int k = 0; k < feat->attr[a]; k++, sx += 18)
				symbol(out, ts, a, sx, ly);
		if (who) {
			double fx = nsym ? sx + 4 : lx;
			if (fx > x + T - 14)
				fx = x + T - 14;
			follower(out, who, fx, ly, ts->kinds[feat->kind].klass == CARC_CLASS_AREA);
		}
	}
	carc_buf_adds(out, "</g>\n");
}

/* Splits text into lines of at most width characters, at spaces. */
static int wrap_lines(struct carc_buf *out, const char *text, int width, double x, double y, double step,
		      const char *attrs)
{
	int lines = 0;
	while (*text) {
		size_t n = strlen(text);
		if ((int)n > width) {
			n = (size_t)width;
			while (n > 0 && text[n] != ' ')
				n--;
			if (n == 0)
				n = (size_t)width;
		}
		char *line = xstrndup(text, n);
		carc_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" %s>", x, y + lines * step, attrs);
		carc_svg_escape(out, line);
		carc_buf_adds(out, "</text>\n");
		free(line);
		lines++;
		text += n;
		while (*text == ' ')
			text++;
	}
	return lines;
}

/* ---- the tile sheet ---- */

void carc_svg_tile_sheet(struct carc_buf *out, const struct carc_tileset *ts, const int *tiles, int ntiles)
{
	const int per_row = ntiles < 6 ? (ntiles > 0 ? ntiles : 1) : 6;
	const int cw = T + 24, ch = T + 44;
	int rows = (ntiles + per_row - 1) / per_row;
	double w = 20 + per_row * cw;
	if (w < 520)
		w = 520;
	struct carc_buf note = {0}, note_svg = {0};
	int note_lines = 0;
	if (ts->provisional || ts->note) {
		if (ts->provisional)
			carc_buf_adds(&note, "Provisional: not the printed distribution. ");
		if (ts->note)
			carc_buf_adds(&note, ts->note);
		note_lines = wrap_lines(&note_svg, carc_buf_cstr(&note), (int)(w / 6.2) - 6, 20, 66, 14,
					"font-size=\"11\" fill=\"#9b2d20\"");
	}
	int top = 60 + (note_lines ? 14 * note_lines + 4 : 0);
	double h = top + rows * ch + 10;
	struct carc_buf title = {0};
	carc_buf_printf(&title, "%s: %s", ts->name, ts->title ? ts->title : ts->name);
	header(out, w, h, carc_buf_cstr(&title));
	carc_buf_adds(out, "<text x=\"20\" y=\"28\" font-size=\"18\" font-weight=\"bold\" fill=\"#222222\">");
	carc_svg_escape(out, carc_buf_cstr(&title));
	carc_buf_adds(out, "</text>\n");
	carc_buf_printf(out, "<text x=\"20\" y=\"48\" font-size=\"12\" fill=\"#444444\">%d tiles in %d types, ",
			ts->total, ts->ntiles);
	if (ts->start_tile >= 0) {
		carc_buf_adds(out, "the start tile (");
		carc_svg_escape(out, ts->tiles[ts->start_tile].id);
		carc_buf_adds(out, ") included");
	} else { /* an expansion's tiles for the base supply (inns) */
		carc_buf_adds(out, "no start tile (the base set's starts the game)");
	}
	if (ts->bonus_total)
		carc_buf_printf(out, ", and %d bonus tile%s", ts->bonus_total, ts->bonus_total == 1 ? "" : "s");
	carc_buf_adds(out, ".</text>\n");
	if (note_svg.len)
		carc_buf_add(out, note_svg.data, note_svg.len);
	carc_buf_free(&note);
	carc_buf_free(&note_svg);
	struct carc_shape_cache *shapes = carc_shape_cache_new(ts);
	for (int k = 0; k < ntiles; k++) {
		int i = tiles[k];
		const struct carc_tile *t = &ts->tiles[i];
		double x = 20 + (k % per_row) * cw, y = top + (k / per_row) * ch;
		draw_tile(out, ts, carc_shape_get(shapes, i), x, y, 0, NULL, NULL, 0);
		carc_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"20\" font-weight=\"bold\" "
				     "text-anchor=\"middle\" fill=\"#111111\">", x + T / 2.0, y + T + 22);
		carc_svg_escape(out, t->id);
		carc_buf_printf(out, "</text>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\" "
				     "fill=\"#444444\">&#215;%u%s</text>\n", x + T / 2.0, y + T + 37, (unsigned)t->count,
				i == ts->start_tile ? " incl. start" : t->bonus ? " bonus" : "");
	}
	carc_shape_cache_free(shapes);
	carc_buf_free(&title);
	carc_buf_adds(out, "</svg>\n");
}

void carc_svg_tile(struct carc_buf *out, const struct carc_tileset *ts, struct carc_shape_cache *shapes, int tile)
{
	draw_tile(out, ts, carc_shape_get(shapes, tile), 0, 0, 0, NULL, NULL, 0);
}

/* ---- the map ---- */

static void mark(struct carc_buf *out, double x, double y, int kind)
{
	switch (kind) {
	case CARC_MARK_LAST:
		carc_buf_printf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"none\" "
				     "stroke=\"#ff9800\" stroke-width=\"5\"><title>the last tile placed</title></rect>\n",
				x + 2.5, y + 2.5, T - 5, T - 5);
		break;
	case CARC_MARK_HIGHLIGHT:
		carc_buf_printf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#d000d0\" "
				     "fill-opacity=\"0.12\" stroke=\"#c000c0\" stroke-width=\"5\" stroke-dasharray=\"12 6\">"
				     "<title>highlighted cell</title></rect>\n", x + 2.5, y + 2.5, T - 5, T - 5);
		break;
	case CARC_MARK_ILLEGAL:
		carc_buf_printf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"none\" "
				     "stroke=\"#e00000\" stroke-width=\"6\"><title>an illegal move</title></rect>\n"
				     "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"10\" fill=\"#e00000\"/><text x=\"%.1f\" y=\"%.1f\" "
				     "font-size=\"15\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#ffffff\">!</text>\n",
				x + 3, y + 3, T - 6, T - 6, x + T - 10, y + 10, x + T - 10, y + 15.5);
		break;
	default:
		break;
	}
}

/* Where a map's columns and rows go: gaps for left-out coordinates,
 * coordinates in the margins. */
struct board_layout {
	struct carc_axis xs, ys;
	double *left, *top;      /* where each column and row starts */
	double ML, mapw, maph;   /* the left margin; the map's size */
};
static const double M = 36, GAP = 40;

static void board_layout(const struct carc_view *v, struct board_layout *L)
{
	carc_view_axis(v, false, &L->xs);
	carc_view_axis(v, true, &L->ys);
	/* where each column and row starts; rows run from north (the greatest y) down */
	L->left = xcalloc((size_t)L->xs.n + 1, sizeof *L->left);
	L->top = xcalloc((size_t)L->ys.n + 1, sizeof *L->top);
	L->ML = M; /* the left margin fits the longest y coordinate */
	for (int i = 0; i < L->ys.n; i++) {
		char num[16];
		double need = 14 + 8.5 * snprintf(num, sizeof num, "%d", (int)L->ys.slot[i].value);
		if (need > L->ML)
			L->ML = need;
	}
	double pos = L->ML;
	for (int i = 0; i < L->xs.n; i++) {
		pos += L->xs.slot[i].gap ? GAP : 0;
		L->left[i] = pos;
		pos += T;
	}
	L->mapw = pos - L->ML;
	pos = M;
	for (int i = L->ys.n - 1; i >= 0; i--) {
		L->top[i] = pos;
		pos += T + (L->ys.slot[i].gap ? GAP : 0);
	}
	L->maph = pos - M;
}

static void board_layout_free(struct board_layout *L)
{
	free(L->left);
	free(L->top);
	carc_axis_free(&L->xs);
	carc_axis_free(&L->ys);
}

/* The map's ground, and the coordinates around it. */
static void board_ground(struct carc_buf *out, const struct board_layout *L)
{
	const double ML = L->ML, mapw = L->mapw, maph = L->maph;
	carc_buf_printf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#e4dccb\"/>\n", ML, M, mapw,
			maph);
	for (int i = 0; i < L->xs.n; i++) {
		carc_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\" text-anchor=\"middle\" fill=\"#555555\">"
				     "%d</text>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\" text-anchor=\"middle\" "
				     "fill=\"#555555\">%d</text>\n", L->left[i] + T / 2.0, M - 12, (int)L->xs.slot[i].value,
				L->left[i] + T / 2.0, M + maph + 22, (int)L->xs.slot[i].value);
		if (L->xs.slot[i].gap)
			carc_buf_printf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f6f1e6\"/>"
					     "<text x=\"%.1f\" y=\"%.1f\" font-size=\"16\" text-anchor=\"middle\" fill=\"#555555\">"
					     "&#8230;<title>columns without tiles left out</title></text>\n", L->left[i] - GAP, M, GAP,
					maph, L->left[i] - GAP / 2, M - 12);
	}
	for (int i = 0; i < L->ys.n; i++) {
		carc_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\" text-anchor=\"end\" fill=\"#555555\">"
				     "%d</text>\n", ML - 8, L->top[i] + T / 2.0 + 5, (int)L->ys.slot[i].value);
		if (L->ys.slot[i].gap)
			carc_buf_printf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f6f1e6\"/>"
					     "<text x=\"%.1f\" y=\"%.1f\" font-size=\"16\" text-anchor=\"end\" fill=\"#555555\">"
					     "&#8230;<title>rows without tiles left out</title></text>\n", ML, L->top[i] + T, mapw, GAP,
					ML - 8, L->top[i] + T + GAP / 2 + 5);
	}
}

void carc_svg_map(struct carc_buf *out, const struct carc_view *v, struct carc_shape_cache *shapes,
		  const struct carc_svg_legend *legend)
{
	struct board_layout L;
	board_layout(v, &L);
	const double ML = L.ML, mapw = L.mapw, maph = L.maph;
	const double *left = L.left, *top = L.top;
	const struct carc_axis xs = L.xs, ys = L.ys;
	double lw = 330;
	double w = ML + mapw + M + lw;
	struct carc_buf whole = {0};
	struct carc_buf *final_out = out;
	out = &whole; /* the body first: the legend's height decides the picture's */
	patterns(out, v);
	board_ground(out, &L);
#define PX(x) left[carc_axis_find(&xs, (x))]
#define PY(y) top[carc_axis_find(&ys, (y))]
	const struct carc_view_follower **fl = xcalloc(v->nfollowers + 1, sizeof *fl);
	for (size_t i = 0; i < v->ntiles; i++) {
		const struct carc_view_tile *vt = &v->tiles[i];
		int nfl = 0;
		for (size_t j = 0; j < v->nfollowers; j++)
			if (v->followers[j].tile == i)
				fl[nfl++] = &v->followers[j];
		draw_tile(out, v->ts, carc_shape_get(shapes, vt->tile), PX(vt->x), PY(vt->y), vt->rot,
			  v->features ? vt->owners : NULL, fl, nfl);
	}
	free(fl);
	for (int m = CARC_MARK_LAST; m <= CARC_MARK_ILLEGAL; m++) {
		for (size_t i = 0; i < v->ntiles; i++)
			if (v->tiles[i].mark == m)
				mark(out, PX(v->tiles[i].x), PY(v->tiles[i].y), m);
		for (int i = 0; i < v->ncells; i++)
			if (v->cells[i].mark == m)
				mark(out, PX(v->cells[i].x), PY(v->cells[i].y), m);
	}
#undef PX
#undef PY
	board_layout_free(&L);
	double x = ML + mapw + M, y = M + 6;
	if (!legend)
		goto done;
	if (legend->title)
		y += 22 * wrap_lines(out, legend->title, 30, x, y + 12, 22,
				     "font-size=\"17\" font-weight=\"bold\" fill=\"#222222\"");
	if (legend->subtitle)
		y += 17 * wrap_lines(out, legend->subtitle, 44, x, y + 10, 17, "font-size=\"13\" fill=\"#333333\"");
	if (legend->rules)
		y += 17 * wrap_lines(out, legend->rules, 44, x, y + 10, 17, "font-size=\"13\" fill=\"#333333\"");
	y += 18;
	if (legend->score_label) {
		carc_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\" font-weight=\"bold\" fill=\"#222222\">",
				x, y);
		carc_svg_escape(out, legend->score_label);
		carc_buf_adds(out, "</text>\n");
		y += 10;
	}
	for (int i = 0; i < legend->nplayers; i++) {
		const struct carc_svg_player *p = &legend->players[i];
		y += 26;
		struct carc_view_follower who = {0, 0, p->colour, carc_colour_letter(p->colour), false, NULL};
		who.letter = (char)(who.letter - 'a' + 'A');
		follower(out, &who, x + 12, y - 5, false);
		carc_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\" fill=\"#222222\">%s", x + 32, y,
				carc_colour_name(p->colour));
		if (p->name) {
			carc_buf_adds(out, " (");
			carc_svg_escape(out, p->name);
			carc_buf_adds(out, ")");
		}
		carc_buf_printf(out, "</text>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"16\" font-weight=\"bold\" "
				     "text-anchor=\"end\" fill=\"#222222\">%d</text>\n", x + lw - 40, y, p->score);
		if (p->supply) {
			carc_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#666666\">", x + 32, y + 12);
			carc_svg_escape(out, p->supply);
			carc_buf_adds(out, "</text>\n");
		}
		y += 6;
	}
	y += 30;
	if (legend->nroles) {
		struct carc_buf key = {0};
		for (int r = 0; r < legend->nroles; r++)
			carc_buf_printf(&key, "%s%s", r ? ", " : "", legend->role_names[r]);
		y += 15 * wrap_lines(out, carc_buf_cstr(&key), 48, x, y, 15, "font-size=\"11\" fill=\"#444444\"");
		carc_buf_free(&key);
	}
	if (legend->note) {
		y += 8;
		y += 14 * wrap_lines(out, legend->note, 50, x, y, 14, "font-size=\"11\" fill=\"#b00000\"");
	}
done:;
	double h = M + maph + M;
	if (y + M > h)
		h = y + M;
	header(final_out, w, h, legend ? legend->title : NULL);
	carc_buf_add(final_out, whole.data, whole.len);
	carc_buf_adds(final_out, "</svg>\n");
	carc_buf_free(&whole);
}

/* ---- the replay board ---- */

/* Where a follower on feature f of a tile goes when the tile is drawn
 * without followers (its symbols unshifted): right of the symbols. */
static struct carc_pt follower_spot(const struct carc_tileset *ts, const struct carc_tile_shape *s, double x,
				    double y, int rot, int f)
{
	const struct carc_feature *feat = &ts->tiles[s->tile].features[f];
	struct carc_pt l = carc_pt_turn(s->f[f].label, rot);
	double lx = x + l.x * T, ly = y + l.y * T;
	int nsym = 0;
	for (int a = 0; a < ts->nattrs; a++)
		nsym += feat->attr[a];
	double fx = nsym ? lx + (nsym - 1) * 9.0 + 20 : lx;
	if (fx > x + T - 14)
		fx = x + T - 14;
	return (struct carc_pt){(float)fx, (float)ly};
}

void carc_svg_replay_board(struct carc_buf *out, const struct carc_view *v, struct carc_shape_cache *shapes,
			   const int *tile_step, const int (*follower_steps)[2], const struct carc_svg_timed_mark *marks,
			   size_t nmarks)
{
	struct board_layout L;
	board_layout(v, &L);
	double w = L.ML + L.mapw + M, h = M + L.maph + M;
	carc_buf_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" viewBox=\"0 0 %.0f %.0f\" "
			     "font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n", w, h);
	board_ground(out, &L);
#define PX(x) L.left[carc_axis_find(&L.xs, (x))]
#define PY(y) L.top[carc_axis_find(&L.ys, (y))]
	for (size_t i = 0; i < v->ntiles; i++) {
		const struct carc_view_tile *vt = &v->tiles[i];
		carc_buf_printf(out, "<g class=\"tile\" data-s=\"%d\">", tile_step[i]);
		draw_tile(out, v->ts, carc_shape_get(shapes, vt->tile), PX(vt->x), PY(vt->y), vt->rot, NULL, NULL, 0);
		carc_buf_adds(out, "</g>\n");
	}
	for (size_t i = 0; i < v->nfollowers; i++) {
		const struct carc_view_follower *f = &v->followers[i];
		const struct carc_view_tile *vt = &v->tiles[f->tile];
		const struct carc_tile_shape *s = carc_shape_get(shapes, vt->tile);
		struct carc_pt at = follower_spot(v->ts, s, PX(vt->x), PY(vt->y), vt->rot, f->feature);
		carc_buf_printf(out, "<g class=\"follower\" data-s=\"%d\"", follower_steps[i][0]);
		if (follower_steps[i][1] >= 0)
			carc_buf_printf(out, " data-e=\"%d\"", follower_steps[i][1]);
		carc_buf_adds(out, ">");
		follower(out, f, at.x, at.y, v->ts->kinds[v->ts->tiles[vt->tile].features[f->feature].kind].klass ==
							 CARC_CLASS_AREA);
		carc_buf_adds(out, "</g>\n");
	}
	for (size_t i = 0; i < nmarks; i++) {
		const struct carc_svg_timed_mark *m = &marks[i];
		if (carc_axis_find(&L.xs, m->x) < 0 || carc_axis_find(&L.ys, m->y) < 0)
			continue;
		/* the last tile's frame shows at its step; an illegal move's from then on */
		carc_buf_printf(out, "<g class=\"mark\" data-%c=\"%d\">", m->mark == CARC_MARK_ILLEGAL ? 's' : 'm', m->step);
		if (m->title) {
			carc_buf_adds(out, "<title>");
			carc_svg_escape(out, m->title);
			carc_buf_adds(out, "</title>");
		}
		mark(out, PX(m->x), PY(m->y), m->mark);
		carc_buf_adds(out, "</g>\n");
	}
#undef PX
#undef PY
	board_layout_free(&L);
	carc_buf_adds(out, "</svg>\n");
}
