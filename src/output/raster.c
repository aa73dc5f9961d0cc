/*
 * raster.c - an SVG picture as a PNG image or a one-page PDF, drawn by
 * librsvg on a cairo surface.
 *
 * Linked in, librsvg would add its start-up (glib's type system, cairo,
 * pango, fontconfig: about 18 ms) to every carc command, so it is opened
 * with dlopen() the first time a PNG or PDF is asked for, and cairo, gobject
 * and glib (which it needs, so they are loaded with it) are opened by name
 * beside it. The real headers give the types: each function pointer below
 * is declared from one list, and a static assertion per function checks
 * that its type is the one the header declares, so a mistake is a compile
 * error and not a crash. Nothing here prints; errors are sentences in why.
 */
#include "output/raster.h"

#include <cairo-pdf.h>
#include <cairo.h>
#include <dlfcn.h>
#include <librsvg/rsvg.h>
#include <stdlib.h>
#include <string.h>

/* Under AddressSanitizer: fontconfig (under pango, under librsvg) keeps its
 * font lists to the end of the process, which LeakSanitizer would report as
 * leaks at exit. They are not carc's, and one picture is drawn a process. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CARC_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(CARC_ASAN)
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}
#endif

/* A PDF's page is the picture's size at 96 pixels to the inch. */
#define POINTS_A_PIXEL 0.75

enum library { LIB_RSVG, LIB_CAIRO, LIB_GOBJECT, LIB_GLIB, LIB_COUNT };

/* The other libraries, by the names their Debian runtime packages install. */
static const char *const library_name[LIB_COUNT] = {CARC_RASTER_LIBRARY, "libcairo.so.2", "libgobject-2.0.so.0",
						    "libglib-2.0.so.0"};

/* Every function carc calls: the library, the name, the return type and the
 * parameter list, as in the header. librsvg 2.46 and cairo 1.16 have them. */
#define RASTER_FUNCTIONS(X)                                                                                           \
	X(LIB_RSVG, rsvg_handle_new_from_data, RsvgHandle *, (const guint8 *, gsize, GError **))                      \
	X(LIB_RSVG, rsvg_handle_get_intrinsic_dimensions, void,                                                         \
	  (RsvgHandle *, gboolean *, RsvgLength *, gboolean *, RsvgLength *, gboolean *, RsvgRectangle *))            \
	X(LIB_RSVG, rsvg_handle_render_document, gboolean, (RsvgHandle *, cairo_t *, const RsvgRectangle *, GError **)) \
	X(LIB_GOBJECT, g_object_unref, void, (gpointer))                                                               \
	X(LIB_GLIB, g_error_free, void, (GError *))                                                                    \
	X(LIB_CAIRO, cairo_image_surface_create, cairo_surface_t *, (cairo_format_t, int, int))                        \
	X(LIB_CAIRO, cairo_pdf_surface_create_for_stream, cairo_surface_t *,                                           \
	  (cairo_write_func_t, void *, double, double))                                                                \
	X(LIB_CAIRO, cairo_pdf_surface_set_metadata, void, (cairo_surface_t *, cairo_pdf_metadata_t, const char *))    \
	X(LIB_CAIRO, cairo_surface_status, cairo_status_t, (cairo_surface_t *))                                        \
	X(LIB_CAIRO, cairo_surface_flush, void, (cairo_surface_t *))                                                   \
	X(LIB_CAIRO, cairo_surface_finish, void, (cairo_surface_t *))                                                  \
	X(LIB_CAIRO, cairo_surface_destroy, void, (cairo_surface_t *))                                                 \
	X(LIB_CAIRO, cairo_surface_write_to_png_stream, cairo_status_t, (cairo_surface_t *, cairo_write_func_t, void *)) \
	X(LIB_CAIRO, cairo_create, cairo_t *, (cairo_surface_t *))                                                     \
	X(LIB_CAIRO, cairo_status, cairo_status_t, (cairo_t *))                                                        \
	X(LIB_CAIRO, cairo_show_page, void, (cairo_t *))                                                               \
	X(LIB_CAIRO, cairo_destroy, void, (cairo_t *))                                                                 \
	X(LIB_CAIRO, cairo_status_to_string, const char *, (cairo_status_t))

#define SAME_AS_HEADER(lib, name, ret, params)                                                                          \
	_Static_assert(_Generic(&name, ret(*) params: 1, default: 0), #name ": not the type its header declares");
RASTER_FUNCTIONS(SAME_AS_HEADER)
#undef SAME_AS_HEADER

static struct {
	bool loaded;
#define POINTER(lib, name, ret, params) ret(*name) params;
	RASTER_FUNCTIONS(POINTER)
#undef POINTER
} api;

bool carc_raster_load(struct carc_buf *why)
{
	if (api.loaded)
		return true;
	void *lib[LIB_COUNT];
	const char *name[LIB_COUNT];
	memcpy(name, library_name, sizeof name);
	const char *hook = getenv(CARC_RASTER_LIBRARY_ENV);
	if (hook && *hook)
		name[LIB_RSVG] = hook;
	/* The libraries stay loaded until carc exits: glib's cannot be unloaded. */
	for (int i = 0; i < LIB_COUNT; i++) {
		lib[i] = dlopen(name[i], RTLD_NOW | RTLD_LOCAL);
		if (!lib[i]) {
			const char *err = dlerror();
			carc_buf_printf(why, "PNG and PDF pictures need the librsvg library, which cannot be loaded (%s); "
					     "install it (Debian and Ubuntu: apt-get install librsvg2-2)",
					err ? err : name[i]);
			return false;
		}
	}
	(void)dlerror();
#define LOOK_UP(l, fn, ret, params)                                                                                     \
	if (!(api.fn = (ret(*) params)dlsym(lib[l], #fn))) {                                                            \
		carc_buf_printf(why, "PNG and PDF pictures need librsvg 2.46 and cairo 1.16 or later: %s has no %s",      \
				name[l], #fn);                                                                          \
		return false;                                                                                           \
	}
	RASTER_FUNCTIONS(LOOK_UP)
#undef LOOK_UP
	api.loaded = true;
	return true;
}

bool carc_raster_size(double w, double h, const struct carc_raster_options *o, int *pw, int *ph,
		      struct carc_buf *why)
{
	double scale = o->width > 0 ? o->width / w : o->scale > 0 ? o->scale : 1;
	double x = o->width > 0 ? o->width : w * scale, y = h * scale;
	/* rounded to whole pixels, at least one, once they are known to be small */
	long px = 0, py = 0;
	if (x < CARC_RASTER_MAX_SIDE + 0.5 && y < CARC_RASTER_MAX_SIDE + 0.5) {
		px = x < 1 ? 1 : (long)(x + 0.5);
		py = y < 1 ? 1 : (long)(y + 0.5);
	}
	if (!px || px * py > CARC_RASTER_MAX_PIXELS) {
		carc_buf_printf(why, "the picture would be %.0f x %.0f pixels; carc draws at most %d a side and %ld in "
				     "all: ask for less with --width or --scale",
				x, y, CARC_RASTER_MAX_SIDE, CARC_RASTER_MAX_PIXELS);
		return false;
	}
	*pw = (int)px;
	*ph = (int)py;
	return true;
}

/* cairo's writer: appends to a carc_buf (which cannot fail: it exits when
 * memory runs out). */
static cairo_status_t append(void *closure, const unsigned char *data, unsigned int length)
{
	carc_buf_add(closure, data, length);
	return CAIRO_STATUS_SUCCESS;
}

/* Sets why to "cannot draw the picture: REASON" and returns false. */
static bool cannot_draw(struct carc_buf *why, const char *reason)
{
	carc_buf_printf(why, "cannot draw the picture: %s", reason);
	return false;
}

/* Draws the document on a new surface of pw x ph pixels and writes the
 * file into out. */
static bool draw(RsvgHandle *doc, const struct carc_raster_options *o, int pw, int ph, struct carc_buf *out,
		 struct carc_buf *why)
{
	bool pdf = o->format == CARC_RASTER_PDF;
	double unit = pdf ? POINTS_A_PIXEL : 1; /* cairo's PDF surface counts in points */
	cairo_surface_t *surface = pdf ? api.cairo_pdf_surface_create_for_stream(append, out, pw * unit, ph * unit)
				       : api.cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph);
	cairo_status_t st = api.cairo_surface_status(surface);
	if (st != CAIRO_STATUS_SUCCESS) {
		api.cairo_surface_destroy(surface);
		return cannot_draw(why, api.cairo_status_to_string(st));
	}
	if (pdf) {
		api.cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "carc " CARC_VERSION);
		if (o->title)
			api.cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, o->title);
	}
	cairo_t *cr = api.cairo_create(surface);
	RsvgRectangle viewport = {0, 0, pw * unit, ph * unit};
	GError *err = NULL;
	bool ok = api.rsvg_handle_render_document(doc, cr, &viewport, &err);
	if (!ok) {
		cannot_draw(why, err ? err->message : "librsvg failed");
		if (err)
			api.g_error_free(err);
	}
	if (ok && pdf)
		api.cairo_show_page(cr);
	if (ok && (st = api.cairo_status(cr)) != CAIRO_STATUS_SUCCESS)
		ok = cannot_draw(why, api.cairo_status_to_string(st));
	api.cairo_destroy(cr);
	if (ok && !pdf) {
		api.cairo_surface_flush(surface);
		st = api.cairo_surface_write_to_png_stream(surface, append, out);
		if (st != CAIRO_STATUS_SUCCESS)
			ok = cannot_draw(why, api.cairo_status_to_string(st));
	}
	api.cairo_surface_finish(surface); /* a PDF is written now */
	if (ok && (st = api.cairo_surface_status(surface)) != CAIRO_STATUS_SUCCESS)
		ok = cannot_draw(why, api.cairo_status_to_string(st));
	api.cairo_surface_destroy(surface);
	return ok;
}

bool carc_raster(struct carc_buf *svg, const struct carc_raster_options *o, struct carc_buf *why)
{
	if (!carc_raster_load(why))
		return false;
	GError *err = NULL;
	RsvgHandle *doc = api.rsvg_handle_new_from_data((const guint8 *)svg->data, svg->len, &err);
	if (!doc) {
		cannot_draw(why, err ? err->message : "librsvg cannot read the SVG");
		if (err)
			api.g_error_free(err);
		return false;
	}
	gboolean has_w = false, has_h = false, has_box = false;
	RsvgLength w = {0, RSVG_UNIT_PX}, h = {0, RSVG_UNIT_PX};
	RsvgRectangle box;
	api.rsvg_handle_get_intrinsic_dimensions(doc, &has_w, &w, &has_h, &h, &has_box, &box);
	int pw = 0, ph = 0;
	bool ok;
	if (!has_w || !has_h || w.unit != RSVG_UNIT_PX || h.unit != RSVG_UNIT_PX || !(w.length > 0) || !(h.length > 0))
		ok = cannot_draw(why, "the SVG has no width and height in pixels");
	else
		ok = carc_raster_size(w.length, h.length, o, &pw, &ph, why);
	struct carc_buf out = {0};
	if (ok)
		ok = draw(doc, o, pw, ph, &out, why);
	api.g_object_unref(doc);
	if (!ok) {
		carc_buf_free(&out);
		return false;
	}
	carc_buf_free(svg);
	*svg = out;
	return true;
}
