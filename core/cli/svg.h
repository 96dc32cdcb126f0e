/*
 * svg.h - a small SVG writer for the gpuperf command's charts: a document
 * built in memory, text, and line charts of one or more series with
 * labelled axes, ticks, a legend and marked points.
 *
 * Usage:
 *     gp_svg_t s;
 *     gp_svg_begin(&s, 900, 600);
 *     gp_svg_text(&s, 450, 24, GP_SVG_MIDDLE, 16, "bold", "%s", title);
 *     gp_svg_line_chart(&s, 0, 40, 900, 280, &chart);
 *     if (gp_svg_end(&s, &text, &len) == 0) { ...write text...; free(text); }
 *
 * Every string is XML-escaped on the way out. Allocation failures are
 * remembered and reported by gp_svg_end; the other calls cannot fail.
 */
#ifndef GP_SVG_H
#define GP_SVG_H

#include <stddef.h>

/* A document being written. Fields are private. */
typedef struct gp_svg {
    char *buf;
    size_t len, cap;
    int failed;      /* an allocation failed: gp_svg_end reports it */
    unsigned charts; /* charts drawn, for unique clip-path ids */
} gp_svg_t;

/* Text anchors. */
typedef enum gp_svg_anchor {
    GP_SVG_START = 0,
    GP_SVG_MIDDLE,
    GP_SVG_END
} gp_svg_anchor_t;

/* One axis of a chart. */
typedef struct gp_svg_axis {
    const char *label;       /* under the x axis / beside the y axis */
    double min, max;         /* the range drawn (max > min) */
    double tick_step;        /* distance between ticks; 0: a 1-2-5 step for about 8 ticks */
    const char *tick_format; /* printf format of one double, e.g. "%.0f%%"; NULL: "%g" */
} gp_svg_axis_t;

/* A series: n points joined by a line, in the order given. */
typedef struct gp_svg_series {
    const char *label;  /* legend entry; NULL or "" leaves it out of the legend */
    const double *x, *y;
    size_t n;
    const char *color;  /* CSS colour; NULL: the next colour of the palette */
} gp_svg_series_t;

/* A marked point: a circle, a dashed line down to the x axis and a label. */
typedef struct gp_svg_mark {
    double x, y;
    const char *label;  /* beside the circle; may be NULL */
    const char *color;  /* NULL: red */
} gp_svg_mark_t;

/* A line chart. Points outside the axes' ranges are clipped. */
typedef struct gp_svg_chart {
    const char *title;  /* above the plot area */
    const char *note;   /* a smaller line under the title; may be NULL */
    gp_svg_axis_t x, y;
    const gp_svg_series_t *series;
    size_t n_series;
    const gp_svg_mark_t *marks;
    size_t n_marks;
    int legend_outside; /* 0: legend in the plot's top right corner; 1: right of
                           the plot, which narrows by gp_svg_legend_width */
} gp_svg_chart_t;

/* Pixels the legend of a legend_outside chart takes beside the plot (0 when
   no series is labelled). */
double gp_svg_legend_width(const gp_svg_chart_t *c);

/* Start a document of width x height pixels with a white background. */
void gp_svg_begin(gp_svg_t *s, double width_px, double height_px);

/* Text at (x, y) (baseline), size in pixels, weight "normal" or "bold". */
void gp_svg_text(gp_svg_t *s, double x, double y, gp_svg_anchor_t anchor, double size_px,
                 const char *weight, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/*
 * Draw a chart into the box at (x, y) of w x h pixels: title, axes with
 * ticks, grid lines and labels, the series, the legend and the marks, all in
 * one <g class="chart"> element; each series is a <polyline class="series">
 * and each mark a <circle class="marker">. Returns 0, or -1 (drawing
 * nothing) when an axis range is empty or not finite.
 */
int gp_svg_line_chart(gp_svg_t *s, double x, double y, double w, double h,
                      const gp_svg_chart_t *c);

/*
 * Close the document. On success *out is the NUL-terminated SVG text (the
 * caller frees it) and *len its length; returns -1 if memory ran out (the
 * document is freed either way).
 */
int gp_svg_end(gp_svg_t *s, char **out, size_t *len);

/* Drop an unfinished document. */
void gp_svg_free(gp_svg_t *s);

#endif /* GP_SVG_H */
