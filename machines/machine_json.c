/*
 * machine_json.c - cJSON with source positions, and the typed getters the
 * machine file sections are parsed with (see machine_int.h).
 *
 * Notes:
 *   - cJSON parses; this file then re-reads the (already valid) text with
 *     a scanner that follows the JSON grammar just far enough to know where
 *     each value and each object key starts, in document order.  A
 *     pre-order walk of the cJSON tree visits the items in the same order,
 *     which pairs every item with its position.  The scanner trusts that
 *     cJSON accepted the text; if the two walks ever disagree (a cJSON
 *     extension we do not know about) positions fall back to 0:0 rather
 *     than being wrong.
 *   - Nesting depth is bounded by cJSON's own limit (CJSON_NESTING_LIMIT),
 *     so the recursive scanner cannot overflow the stack on hostile input.
 */
#include "machines/machine_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* ---- the position scanner --------------------------------------------- */

struct spos {
	long line, col, key_line, key_col;
};

struct scan {
	const char *s;
	size_t n, i;
	long line, col;
	struct spos *out;
	size_t nout, cap;
	int bad;
};

static int sc_peek(const struct scan *sc)
{
	return sc->i < sc->n ? (unsigned char)sc->s[sc->i] : -1;
}

static void sc_adv(struct scan *sc)
{
	if (sc->i >= sc->n)
		return;
	if (sc->s[sc->i] == '\n') {
		sc->line++;
		sc->col = 1;
	} else {
		sc->col++;
	}
	sc->i++;
}

static void sc_ws(struct scan *sc)
{
	int c;

	while ((c = sc_peek(sc)) == ' ' || c == '\t' || c == '\n' ||
	       c == '\r' || (c > 0 && c <= 32))
		sc_adv(sc);
}

static void sc_string(struct scan *sc)
{
	int c;

	sc_adv(sc);  /* opening quote */
	while ((c = sc_peek(sc)) >= 0 && c != '"') {
		if (c == '\\')
			sc_adv(sc);
		sc_adv(sc);
	}
	sc_adv(sc);  /* closing quote */
}

static struct spos *sc_push(struct scan *sc)
{
	struct spos *p;

	if (sc->nout == sc->cap) {
		sc->cap = sc->cap ? 2 * sc->cap : 64;
		sc->out = xrealloc(sc->out, sc->cap * sizeof(*sc->out));
	}
	p = &sc->out[sc->nout++];
	p->line = sc->line;
	p->col = sc->col;
	p->key_line = p->key_col = 0;
	return p;
}

static void sc_value(struct scan *sc, long key_line, long key_col);

static void sc_value(struct scan *sc, long key_line, long key_col)
{
	struct spos *p;
	int c;

	sc_ws(sc);
	p = sc_push(sc);
	p->key_line = key_line;
	p->key_col = key_col;
	c = sc_peek(sc);
	if (c == '{' || c == '[') {
		int close = c == '{' ? '}' : ']';

		sc_adv(sc);
		sc_ws(sc);
		if (sc_peek(sc) == close) {
			sc_adv(sc);
			return;
		}
		for (;;) {
			long kl = 0, kc = 0;

			sc_ws(sc);
			if (close == '}') {
				if (sc_peek(sc) != '"') {
					sc->bad = 1;
					return;
				}
				kl = sc->line;
				kc = sc->col;
				sc_string(sc);
				sc_ws(sc);
				if (sc_peek(sc) != ':') {
					sc->bad = 1;
					return;
				}
				sc_adv(sc);
			}
			sc_value(sc, kl, kc);
			if (sc->bad)
				return;
			sc_ws(sc);
			c = sc_peek(sc);
			sc_adv(sc);
			if (c == close)
				return;
			if (c != ',') {
				sc->bad = 1;
				return;
			}
		}
	} else if (c == '"') {
		sc_string(sc);
	} else if (c < 0) {
		sc->bad = 1;
	} else {
		/* number, true, false, null */
		while ((c = sc_peek(sc)) >= 0 && c != ',' && c != '}' &&
		       c != ']' && c != ' ' && c != '\t' && c != '\n' &&
		       c != '\r')
			sc_adv(sc);
	}
}

static void tree_count(const cJSON *it, size_t *n)
{
	const cJSON *c;

	(*n)++;
	for (c = it->child; c; c = c->next)
		tree_count(c, n);
}

static void tree_pair(const cJSON *it, const struct spos *sp, size_t *k,
		      struct machine_json_pos *out)
{
	const cJSON *c;

	out[*k].item = it;
	out[*k].line = sp[*k].line;
	out[*k].col = sp[*k].col;
	out[*k].key_line = sp[*k].key_line;
	out[*k].key_col = sp[*k].key_col;
	(*k)++;
	for (c = it->child; c; c = c->next)
		tree_pair(c, sp, k, out);
}

static int pos_cmp(const void *a, const void *b)
{
	const struct machine_json_pos *x = a, *y = b;
	uintptr_t p = (uintptr_t)x->item, q = (uintptr_t)y->item;

	return p < q ? -1 : p > q;
}

static void line_col_of(const char *s, size_t off, long *line, long *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off; i++) {
		if (s[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

int machine_json_parse(struct machine_json *doc, const char *file,
		       const char *text, size_t len, struct ppr_err *err)
{
	struct scan sc = { 0 };
	const char *end = NULL;
	char *buf = NULL;
	size_t i, n = 0, k = 0;

	memset(doc, 0, sizeof(*doc));
	doc->file = file;
	for (i = 0; i < len; i++)
		if (!strchr(" \t\r\n", text[i]))
			break;
	if (i == len)
		return ppr_err_set(err, PPR_EFORMAT, file, 1, 1,
				   "empty file: expected a JSON object");
	if (memchr(text, '\0', len)) {
		long l, c;

		line_col_of(text, (size_t)((const char *)memchr(text, '\0', len)
					   - text), &l, &c);
		return ppr_err_set(err, PPR_EFORMAT, file, l, c,
				   "syntax error: NUL byte in JSON text");
	}
	/* cJSON reads one byte past a number at the end without a NUL:
	 * give it a terminated copy. */
	buf = xmalloc(len + 1);
	memcpy(buf, text, len);
	buf[len] = '\0';
	doc->root = cJSON_ParseWithLengthOpts(buf, len + 1, &end, 1);
	if (!doc->root) {
		long l, c;
		size_t off = end && end >= buf && end <= buf + len
			     ? (size_t)(end - buf) : len;

		line_col_of(buf, off, &l, &c);
		if (off >= len)
			ppr_err_set(err, PPR_EFORMAT, file, l, c,
				    "syntax error: unexpected end of file");
		else
			ppr_err_set(err, PPR_EFORMAT, file, l, c,
				    "syntax error near '%c'",
				    buf[off] >= 32 && buf[off] < 127
				    ? buf[off] : '?');
		free(buf);
		return PPR_EFORMAT;
	}

	sc.s = buf;
	sc.n = len;
	sc.line = 1;
	sc.col = 1;
	if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3)) {
		sc.i = 3;  /* UTF-8 byte order mark, skipped by cJSON too */
	}
	sc_value(&sc, 0, 0);
	tree_count(doc->root, &n);
	doc->pos = xcalloc(n, sizeof(*doc->pos));
	doc->npos = n;
	if (!sc.bad && sc.nout == n) {
		tree_pair(doc->root, sc.out, &k, doc->pos);
	} else {
		/* should not happen: keep the items, lose the positions */
		doc->npos = 0;
	}
	qsort(doc->pos, doc->npos, sizeof(*doc->pos), pos_cmp);
	free(sc.out);
	free(buf);
	return 0;
}

void machine_json_release(struct machine_json *doc)
{
	if (!doc)
		return;
	cJSON_Delete(doc->root);
	free(doc->pos);
	doc->root = NULL;
	doc->pos = NULL;
	doc->npos = 0;
}

void machine_json_where(const struct machine_json *doc, const cJSON *item,
			long *line, long *col)
{
	struct machine_json_pos key = { .item = item }, *p;

	*line = *col = 0;
	if (!item || !doc->npos)
		return;
	p = bsearch(&key, doc->pos, doc->npos, sizeof(*doc->pos), pos_cmp);
	if (!p)
		return;
	if (p->key_line) {
		*line = p->key_line;
		*col = p->key_col;
	} else {
		*line = p->line;
		*col = p->col;
	}
}

int machine_json_fail(const struct machine_json *doc, const cJSON *item,
		      struct ppr_err *err, const char *fmt, ...)
{
	char msg[sizeof(err->msg)];
	long line, col;
	va_list ap;

	machine_json_where(doc, item, &line, &col);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ppr_err_set(err, PPR_EFORMAT, doc->file, line, col, "%s", msg);
}

/* ---- getters ------------------------------------------------------------ */

/* A key as it may appear in a one-line message: control and non-ASCII
 * bytes as \xNN, at most 48 bytes of it. */
static const char *printable(const char *s, char *buf, size_t n)
{
	size_t o = 0, i;

	for (i = 0; s[i] && o + 5 < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (i == 48) {
			snprintf(buf + o, n - o, "...");
			return buf;
		}
		if (c < 32 || c >= 127)
			o += (size_t)snprintf(buf + o, n - o, "\\x%02x", c);
		else
			buf[o++] = (char)c;
	}
	buf[o] = '\0';
	return buf;
}

int machine_json_check_keys(const struct machine_json *doc, const cJSON *obj,
			    const char *what, const char *const *allowed,
			    struct ppr_err *err)
{
	const cJSON *c, *d;
	char kb[256];
	size_t i;

	if (!cJSON_IsObject(obj))
		return machine_json_fail(doc, obj, err,
					 "'%s' must be an object", what);
	for (c = obj->child; c; c = c->next) {
		for (i = 0; allowed[i]; i++)
			if (!strcmp(allowed[i], c->string))
				break;
		if (!allowed[i]) {
			char list[896];
			size_t off = 0;

			list[0] = '\0';
			for (i = 0; allowed[i] && off < sizeof(list); i++) {
				int w = snprintf(list + off, sizeof(list) - off,
						 "%s%s", i ? ", " : "",
						 allowed[i]);
				if (w < 0)
					break;
				off += (size_t)w;
			}
			return machine_json_fail(doc, c, err,
						 "unknown key '%s' in '%s' "
						 "(allowed: %s)",
						 printable(c->string, kb,
							   sizeof(kb)),
						 what, list);
		}
		for (d = obj->child; d != c; d = d->next)
			if (!strcmp(d->string, c->string))
				return machine_json_fail(doc, c, err,
							 "duplicate key '%s'",
							 printable(c->string,
								   kb,
								   sizeof(kb)));
	}
	return 0;
}

const cJSON *machine_json_member(const cJSON *obj, const char *key)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(obj, key);

	return c && !cJSON_IsNull(c) ? c : NULL;
}

/* The member, or NULL; a missing required member is an error (rc < 0). */
static int member(const struct machine_json *doc, const cJSON *obj,
		  const char *key, unsigned flags, const cJSON **out,
		  struct ppr_err *err)
{
	*out = machine_json_member(obj, key);
	if (!*out && (flags & MACHINE_JSON_REQUIRED)) {
		long line, col;
		struct machine_json_pos k = { .item = obj }, *p = NULL;

		/* at the object's '{', not at the key it sits under */
		if (doc->npos)
			p = bsearch(&k, doc->pos, doc->npos, sizeof(*doc->pos),
				    pos_cmp);
		line = p ? p->line : 0;
		col = p ? p->col : 0;
		return ppr_err_set(err, PPR_EFORMAT, doc->file, line, col,
				   "missing required key '%s'", key);
	}
	return 0;
}

int machine_json_get_object(const struct machine_json *doc, const cJSON *obj,
			    const char *key, unsigned flags,
			    const cJSON **out, struct ppr_err *err)
{
	const cJSON *c;
	int rc = member(doc, obj, key, flags, &c, err);

	if (rc)
		return rc;
	if (c && !cJSON_IsObject(c))
		return machine_json_fail(doc, c, err,
					 "'%s' must be an object", key);
	*out = c;
	return 0;
}

int machine_json_get_array(const struct machine_json *doc, const cJSON *obj,
			   const char *key, unsigned flags,
			   const cJSON **out, struct ppr_err *err)
{
	const cJSON *c;
	int rc = member(doc, obj, key, flags, &c, err);

	if (rc)
		return rc;
	if (c && !cJSON_IsArray(c))
		return machine_json_fail(doc, c, err,
					 "'%s' must be an array", key);
	*out = c;
	return 0;
}

int machine_json_item_u64(const struct machine_json *doc, const cJSON *item,
			  const char *what, uint64_t min, uint64_t max,
			  uint64_t *out, struct ppr_err *err)
{
	double v;
	uint64_t u;

	/* Integers are exact in a double up to 2^53: larger are refused. */
	if (cJSON_IsNumber(item)) {
		v = item->valuedouble;
		if (isfinite(v) && v == floor(v) && v >= 0 &&
		    v <= 9007199254740992.0) {
			u = (uint64_t)v;
			if (u >= min && u <= max) {
				*out = u;
				return 0;
			}
			if (u > max)
				return machine_json_fail(doc, item, err,
					"'%s' must be at most %llu", what,
					(unsigned long long)max);
		}
	}
	if (min == 1)
		return machine_json_fail(doc, item, err,
					 "'%s' must be a positive integer",
					 what);
	if (min == 0)
		return machine_json_fail(doc, item, err,
					 "'%s' must be a non-negative integer",
					 what);
	return machine_json_fail(doc, item, err,
				 "'%s' must be an integer in [%llu, %llu]",
				 what, (unsigned long long)min,
				 (unsigned long long)max);
}

int machine_json_get_u64(const struct machine_json *doc, const cJSON *obj,
			 const char *key, unsigned flags, uint64_t def,
			 uint64_t min, uint64_t max, uint64_t *out,
			 struct ppr_err *err)
{
	const cJSON *c;
	int rc = member(doc, obj, key, flags, &c, err);

	if (rc)
		return rc;
	if (!c) {
		*out = def;
		return 0;
	}
	return machine_json_item_u64(doc, c, key, min, max, out, err);
}

int machine_json_item_double(const struct machine_json *doc,
			     const cJSON *item, const char *what,
			     unsigned flags, double *out, struct ppr_err *err)
{
	double v;

	if (cJSON_IsNumber(item)) {
		v = item->valuedouble;
		if (isfinite(v) && (!(flags & MACHINE_JSON_POSITIVE) || v > 0) &&
		    (!(flags & MACHINE_JSON_NONNEG) || v >= 0)) {
			*out = v;
			return 0;
		}
	}
	if (flags & MACHINE_JSON_POSITIVE)
		return machine_json_fail(doc, item, err,
					 "'%s' must be a positive number", what);
	if (flags & MACHINE_JSON_NONNEG)
		return machine_json_fail(doc, item, err,
					 "'%s' must be a non-negative number",
					 what);
	return machine_json_fail(doc, item, err, "'%s' must be a number",
				 what);
}

int machine_json_get_double(const struct machine_json *doc, const cJSON *obj,
			    const char *key, unsigned flags, double def,
			    double *out, struct ppr_err *err)
{
	const cJSON *c;
	int rc = member(doc, obj, key, flags, &c, err);

	if (rc)
		return rc;
	if (!c) {
		*out = def;
		return 0;
	}
	return machine_json_item_double(doc, c, key, flags, out, err);
}

int machine_json_item_string(const struct machine_json *doc,
			     const cJSON *item, const char *what,
			     const char **out, struct ppr_err *err)
{
	if (!cJSON_IsString(item) || !item->valuestring)
		return machine_json_fail(doc, item, err,
					 "'%s' must be a string", what);
	*out = item->valuestring;
	return 0;
}

int machine_json_get_string(const struct machine_json *doc, const cJSON *obj,
			    const char *key, unsigned flags, const char *def,
			    const char **out, struct ppr_err *err)
{
	const cJSON *c;
	int rc = member(doc, obj, key, flags, &c, err);

	if (rc)
		return rc;
	if (!c) {
		*out = def;
		return 0;
	}
	return machine_json_item_string(doc, c, key, out, err);
}

int machine_json_get_bool(const struct machine_json *doc, const cJSON *obj,
			  const char *key, unsigned flags, int def, int *out,
			  struct ppr_err *err)
{
	const cJSON *c;
	int rc = member(doc, obj, key, flags, &c, err);

	if (rc)
		return rc;
	if (!c) {
		*out = def;
		return 0;
	}
	if (!cJSON_IsBool(c))
		return machine_json_fail(doc, c, err,
					 "'%s' must be true or false", key);
	*out = cJSON_IsTrue(c) ? 1 : 0;
	return 0;
}

int machine_json_get_enum(const struct machine_json *doc, const cJSON *obj,
			  const char *key, unsigned flags,
			  const struct machine_json_enum *tab, int def,
			  int *out, struct ppr_err *err)
{
	const cJSON *c;
	char list[896];
	size_t i, off = 0;
	int rc = member(doc, obj, key, flags, &c, err);

	if (rc)
		return rc;
	if (!c) {
		*out = def;
		return 0;
	}
	if (cJSON_IsString(c))
		for (i = 0; tab[i].name; i++)
			if (!strcmp(tab[i].name, c->valuestring)) {
				*out = tab[i].value;
				return 0;
			}
	list[0] = '\0';
	for (i = 0; tab[i].name && off < sizeof(list); i++) {
		int w = snprintf(list + off, sizeof(list) - off, "%s\"%s\"",
				 i ? ", " : "", tab[i].name);
		if (w < 0)
			break;
		off += (size_t)w;
	}
	return machine_json_fail(doc, c, err, "'%s' must be one of %s", key,
				 list);
}
