/*
 * svg.c - a small SVG writer: a growing text buffer, escaped text and line
 * charts with axes, ticks, a legend and marked points.
 */
#include "svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Colours of series without their own, in order (Tableau 10). */
static const char *const PALETTE[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                      "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};
#define N_PALETTE (sizeof PALETTE / sizeof PALETTE[0])

/* Margins of the plot area inside a chart's box, pixels. */
#define MARGIN_LEFT_PX 72.0
#define MARGIN_RIGHT_PX 24.0
#define MARGIN_TOP_PX 46.0
#define MARGIN_BOTTOM_PX 52.0
#define LEGEND_GAP_PX 12.0 /* between the plot and an outside legend */
#define FONT_PX 12.0
#define MAX_TICKS 40
#define GP_SVG_MAX(a, b) ((a) > (b) ? (a) : (b))

/* Make room for `more` bytes; remembers a failure. */
static int reserve(gp_svg_t *s, size_t more)
{
    size_t cap;
    char *nb;
    if (s->failed)
        return -1;
    if (s->len + more + 1 <= s->cap)
        return 0;
    cap = s->cap ? s->cap : 4096;
    while (cap < s->len + more + 1)
        cap *= 2;
    nb = realloc(s->buf, cap);
    if (!nb) {
        s->failed = 1;
        return -1;
    }
    s->buf = nb;
    s->cap = cap;
    return 0;
}

/* Append formatted text as is (markup). */
static void put(gp_svg_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(gp_svg_t *s, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || reserve(s, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(s->buf + s->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    s->len += (size_t)n;
}

/* Append text with &, <, >, " and ' escaped. */
static void put_escaped(gp_svg_t *s, const char *text)
{
    for (; text && *text; text++) {
        switch (*text) {
        case '&': put(s, "&amp;"); break;
        case '<': put(s, "&lt;"); break;
        case '>': put(s, "&gt;"); break;
        case '"': put(s, "&quot;"); break;
        case '\'': put(s, "&apos;"); break;
        default:
            if ((unsigned char)*text >= 0x20 || *text == '\t')
                put(s, "%c", *text); /* control characters are not XML */
            break;
        }
    }
}

void gp_svg_begin(gp_svg_t *s, double width_px, double height_px)
{
    memset(s, 0, sizeof *s);
    put(s,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
        "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Helvetica, Arial, "
        "sans-serif\">\n"
        "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
        width_px, height_px, width_px, height_px, width_px, height_px);
}

/* Text element with an already formatted, unescaped string. */
static void text_at(gp_svg_t *s, double x, double y, gp_svg_anchor_t anchor, double size_px,
                    const char *weight, const char *extra, const char *text)
{
    static const char *const anchors[] = {"start", "middle", "end"};
    put(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%.1f\"", x, y,
        anchors[anchor <= GP_SVG_END ? anchor : 0], size_px);
    if (weight && strcmp(weight, "normal") != 0)
        put(s, " font-weight=\"%s\"", strcmp(weight, "bold") == 0 ? "bold" : "normal");
    if (extra)
        put(s, " %s", extra);
    put(s, ">");
    put_escaped(s, text);
    put(s, "</text>\n");
}

void gp_svg_text(gp_svg_t *s, double x, double y, gp_svg_anchor_t anchor, double size_px,
                 const char *weight, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    text_at(s, x, y, anchor, size_px, weight, NULL, text);
}

/* A 1-2-5 step giving about eight ticks over `range`. */
static double nice_step(double range)
{
    double raw = range / 8, mag = pow(10, floor(log10(raw))), f = raw / mag;
    if (f <= 1)
        return mag;
    if (f <= 2)
        return 2 * mag;
    if (f <= 5)
        return 5 * mag;
    return 10 * mag;
}

/* The ticks of an axis: multiples of the step inside [min, max]. */
static int ticks_of(const gp_svg_axis_t *a, double *t, int max)
{
    double step = a->tick_step > 0 ? a->tick_step : nice_step(a->max - a->min), v;
    int n = 0;
    if (!(step > 0) || (a->max - a->min) / step > MAX_TICKS)
        step = nice_step(a->max - a->min);
    for (v = ceil(a->min / step - 1e-9) * step; v <= a->max + step * 1e-9 && n < max; v += step)
        t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
    return n;
}

/* Tick label text. */
static void tick_text(char *out, size_t size, const gp_svg_axis_t *a, double v)
{
    snprintf(out, size, a->tick_format ? a->tick_format : "%g", v);
}

/* Box of the plot area and the mapping from data to pixels. */
typedef struct plot {
    double left, top, width, height;
    const gp_svg_axis_t *x, *y;
} plot_t;

/* Pixel column of x value v. */
static double px_x(const plot_t *p, double v)
{
    return p->left + (v - p->x->min) / (p->x->max - p->x->min) * p->width;
}

/* Pixel row of y value v (y grows downwards). */
static double px_y(const plot_t *p, double v)
{
    return p->top + p->height - (v - p->y->min) / (p->y->max - p->y->min) * p->height;
}

/* Axes, grid lines, ticks and their labels. */
static void draw_axes(gp_svg_t *s, const plot_t *p)
{
    double t[MAX_TICKS + 1];
    char label[64];
    int n, i;
    n = ticks_of(p->y, t, MAX_TICKS + 1);
    for (i = 0; i < n; i++) {
        double y = px_y(p, t[i]);
        put(s,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\" "
            "stroke-width=\"1\"/>\n",
            p->left, y, p->left + p->width, y);
        tick_text(label, sizeof label, p->y, t[i]);
        text_at(s, p->left - 8, y + 4, GP_SVG_END, FONT_PX, "normal", NULL, label);
    }
    n = ticks_of(p->x, t, MAX_TICKS + 1);
    for (i = 0; i < n; i++) {
        double x = px_x(p, t[i]);
        put(s,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\" "
            "stroke-width=\"1\"/>\n",
            x, p->top, x, p->top + p->height);
        put(s,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\" "
            "stroke-width=\"1\"/>\n",
            x, p->top + p->height, x, p->top + p->height + 5);
        tick_text(label, sizeof label, p->x, t[i]);
        text_at(s, x, p->top + p->height + 18, GP_SVG_MIDDLE, FONT_PX, "normal", NULL, label);
    }
    put(s,
        "<path d=\"M%.1f %.1f V%.1f H%.1f\" fill=\"none\" stroke=\"#333333\" "
        "stroke-width=\"1.2\"/>\n",
        p->left, p->top, p->top + p->height, p->left + p->width);
    if (p->x->label)
        text_at(s, p->left + p->width / 2, p->top + p->height + 40, GP_SVG_MIDDLE, FONT_PX + 1,
                "normal", NULL, p->x->label);
    if (p->y->label) {
        char rot[96];
        double cx = p->left - 54, cy = p->top + p->height / 2;
        snprintf(rot, sizeof rot, "transform=\"rotate(-90 %.1f %.1f)\"", cx, cy);
        text_at(s, cx, cy, GP_SVG_MIDDLE, FONT_PX + 1, "normal", rot, p->y->label);
    }
}

/* One series as a polyline, clipped to the plot area by a clip path. */
static void draw_series(gp_svg_t *s, const plot_t *p, const gp_svg_series_t *ser,
                        const char *color, const char *clip_id)
{
    size_t i;
    put(s,
        "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
        "stroke-linejoin=\"round\" clip-path=\"url(#%s)\" points=\"",
        color, clip_id);
    for (i = 0; i < ser->n; i++) {
        if (!isfinite(ser->x[i]) || !isfinite(ser->y[i]))
            continue;
        put(s, "%s%.2f,%.2f", i ? " " : "", px_x(p, ser->x[i]), px_y(p, ser->y[i]));
    }
    put(s, "\"/>\n");
}

/* A marked point: a dashed drop line, a circle and its label. */
static void draw_mark(gp_svg_t *s, const plot_t *p, const gp_svg_mark_t *m)
{
    const char *color = m->color ? m->color : "#d62728";
    double x, y;
    if (!(m->x >= p->x->min && m->x <= p->x->max && isfinite(m->y)))
        return;
    x = px_x(p, m->x);
    y = px_y(p, m->y < p->y->min ? p->y->min : m->y > p->y->max ? p->y->max : m->y);
    put(s,
        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
        "stroke-width=\"1\" stroke-dasharray=\"4 3\"/>\n",
        x, y, x, p->top + p->height, color);
    put(s,
        "<circle class=\"marker\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\" "
        "stroke=\"#ffffff\" stroke-width=\"1.5\"/>\n",
        x, y, color);
    if (m->label && *m->label) {
        /* left of the point when it sits in the right third, so it stays inside */
        int right = x > p->left + p->width * 2 / 3;
        double ly = y - 10 < p->top + 12 ? y + 20 : y - 10;
        char fill[128];
        /* a white outline under the glyphs keeps the label readable over lines */
        snprintf(fill, sizeof fill,
                 "fill=\"%s\" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\"",
                 color);
        text_at(s, right ? x - 8 : x + 8, ly, right ? GP_SVG_END : GP_SVG_START, FONT_PX,
                "bold", fill, m->label);
    }
}

/* Legend in the top right corner of the plot, for labelled series, on a
   white box sized from the longest label. */
/* Width of the legend box and its number of rows. */
static double legend_box(const gp_svg_chart_t *c, size_t *rows)
{
    const double char_px = 0.6 * (FONT_PX - 1), line_px = 22;
    size_t i, longest = 0;
    *rows = 0;
    for (i = 0; i < c->n_series; i++)
        if (c->series[i].label && *c->series[i].label) {
            (*rows)++;
            longest = GP_SVG_MAX(longest, strlen(c->series[i].label));
        }
    return *rows ? line_px + 16 + char_px * (double)longest : 0;
}

double gp_svg_legend_width(const gp_svg_chart_t *c)
{
    size_t rows;
    double w = legend_box(c, &rows);
    return rows ? w + LEGEND_GAP_PX : 0;
}

static void draw_legend(gp_svg_t *s, const plot_t *p, const gp_svg_chart_t *c,
                        const char *const *colors)
{
    const double line_px = 22, row_px = 16;
    size_t i, row = 0, rows;
    double box_w = legend_box(c, &rows), left;
    if (!rows)
        return;
    left = c->legend_outside ? p->left + p->width + LEGEND_GAP_PX
                             : p->left + p->width - box_w - 6;
    put(s,
        "<rect class=\"legend\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
        "fill=\"#ffffff\" fill-opacity=\"0.85\" stroke=\"#cccccc\"/>\n",
        left, p->top + 4, box_w, row_px * (double)rows + 8);
    for (i = 0; i < c->n_series; i++) {
        const char *label = c->series[i].label;
        double y = p->top + 18 + row_px * (double)row;
        if (!label || !*label)
            continue;
        put(s,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
            "stroke-width=\"2\"/>\n",
            left + 6, y - 4, left + 6 + line_px, y - 4, colors[i]);
        text_at(s, left + line_px + 12, y, GP_SVG_START, FONT_PX - 1, "normal", NULL, label);
        row++;
    }
}

int gp_svg_line_chart(gp_svg_t *s, double x, double y, double w, double h,
                      const gp_svg_chart_t *c)
{
    const char *colors[64];
    char clip_id[32];
    plot_t p;
    size_t i;
    if (!(c->x.max > c->x.min) || !(c->y.max > c->y.min) || !isfinite(c->x.max - c->x.min) ||
        !isfinite(c->y.max - c->y.min) || c->n_series > 64)
        return -1;
    p.left = x + MARGIN_LEFT_PX;
    p.top = y + MARGIN_TOP_PX;
    p.width = w - MARGIN_LEFT_PX - MARGIN_RIGHT_PX -
              (c->legend_outside ? gp_svg_legend_width(c) : 0);
    p.height = h - MARGIN_TOP_PX - MARGIN_BOTTOM_PX;
    p.x = &c->x;
    p.y = &c->y;
    if (p.width < 10 || p.height < 10)
        return -1;
    snprintf(clip_id, sizeof clip_id, "gp-clip-%u", ++s->charts);
    put(s, "<g class=\"chart\">\n");
    put(s,
        "<clipPath id=\"%s\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>"
        "</clipPath>\n",
        clip_id, p.left - 2, p.top - 2, p.width + 4, p.height + 4);
    if (c->title)
        text_at(s, x + w / 2, y + 18, GP_SVG_MIDDLE, FONT_PX + 2, "bold", NULL, c->title);
    if (c->note)
        text_at(s, x + w / 2, y + 34, GP_SVG_MIDDLE, FONT_PX - 1, "normal", "fill=\"#555555\"",
                c->note);
    draw_axes(s, &p);
    for (i = 0; i < c->n_series; i++) {
        colors[i] = c->series[i].color ? c->series[i].color : PALETTE[i % N_PALETTE];
        draw_series(s, &p, &c->series[i], colors[i], clip_id);
    }
    draw_legend(s, &p, c, colors);
    for (i = 0; i < c->n_marks; i++)
        draw_mark(s, &p, &c->marks[i]);
    put(s, "</g>\n");
    return 0;
}

int gp_svg_end(gp_svg_t *s, char **out, size_t *len)
{
    put(s, "</svg>\n");
    if (s->failed) {
        gp_svg_free(s);
        return -1;
    }
    *out = s->buf;
    *len = s->len;
    memset(s, 0, sizeof *s);
    return 0;
}

void gp_svg_free(gp_svg_t *s)
{
    free(s->buf);
    memset(s, 0, sizeof *s);
}
