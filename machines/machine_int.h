/*
 * machine_int.h - position-aware JSON walking for the machine loader
 * (only the .c files of machines/ include this file).
 *
 * cJSON keeps no source positions, so machine_json_parse() parses the text
 * with cJSON and then walks the same text once more with a small scanner
 * of our own, recording the line:col of every value (and, for object
 * members, of its key) in document order; walking the cJSON tree in the
 * same pre-order maps each cJSON item to its position.  Every error the
 * helpers below produce is one line "file:line:col: msg" (struct ppr_err
 * carries file, line, col and msg) naming the key it is about.
 *
 * Positions: an object member's errors point at its KEY (the quote that
 * opens it); an array element's errors point at the element; a missing
 * required key is reported at the '{' of the object that lacks it.
 * Lines and columns count from 1; a column counts bytes.
 *
 * Writing a section parser (e.g. machines/core_model.c for "core"):
 *
 *     static const char *const keys[] = { "issue_width", "ports", NULL };
 *     uint64_t width;
 *     const cJSON *ports;
 *     if ((rc = machine_json_check_keys(doc, obj, "core", keys, err)) ||
 *         (rc = machine_json_get_u64(doc, obj, "issue_width",
 *                                    MACHINE_JSON_REQUIRED, 0, 1, 64,
 *                                    &width, err)) ||
 *         (rc = machine_json_get_array(doc, obj, "ports",
 *                                      MACHINE_JSON_REQUIRED, &ports, err)))
 *             return rc;
 *
 * Ownership: struct machine_json owns the cJSON tree and the position
 * table; machine_json_release() frees both.  Items and strings returned by
 * the getters point into the tree and live until that release.  All
 * getters return 0 or a negative PPR_E* code (PPR_EFORMAT for bad input)
 * and leave *out untouched on error; an optional key that is absent (or
 * JSON null) yields the given default.
 */
#ifndef PPR_MACHINE_INT_H
#define PPR_MACHINE_INT_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "common/ppr_err.h"

/* Position of one cJSON item in the text it was parsed from. */
struct machine_json_pos {
	const cJSON *item;
	long line, col;          /* where the value starts */
	long key_line, key_col;  /* object members: where the key starts */
};

/* A parsed document with positions. */
struct machine_json {
	const char *file;        /* name used in errors (borrowed) */
	cJSON *root;
	struct machine_json_pos *pos;  /* sorted by item address */
	size_t npos;
};

/* Flags of the getters. */
#define MACHINE_JSON_REQUIRED 1u   /* absence is an error */
#define MACHINE_JSON_POSITIVE 2u   /* doubles: > 0 */
#define MACHINE_JSON_NONNEG 4u     /* doubles: >= 0 */

/* One accepted string of an enum-valued key. */
struct machine_json_enum {
	const char *name;
	int value;
};

/*
 * Parse text[0..len) (need not be NUL-terminated).  'file' names the input
 * in errors and must outlive doc.  Syntax errors are reported at the
 * line:col where cJSON stopped; an empty document is an error at 1:1.
 */
int machine_json_parse(struct machine_json *doc, const char *file,
		       const char *text, size_t len, struct ppr_err *err);
void machine_json_release(struct machine_json *doc);

/* Where an item is: its key for object members, else the value. */
void machine_json_where(const struct machine_json *doc, const cJSON *item,
			long *line, long *col);

/* Fill err as "file:line:col: <fmt>" at item; returns PPR_EFORMAT. */
int machine_json_fail(const struct machine_json *doc, const cJSON *item,
		      struct ppr_err *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * obj must be an object (else "'what' must be an object", at obj) whose
 * keys are all in allowed[] (NULL-terminated), each at most once: an
 * unknown key is "unknown key 'k' in 'what' (allowed: a, b, ...)", a
 * repeated one "duplicate key 'k'".
 */
int machine_json_check_keys(const struct machine_json *doc, const cJSON *obj,
			    const char *what, const char *const *allowed,
			    struct ppr_err *err);

/* Member 'key' of obj or NULL (JSON null counts as absent). */
const cJSON *machine_json_member(const cJSON *obj, const char *key);

/* An object / array member; *out = NULL when optional and absent. */
int machine_json_get_object(const struct machine_json *doc, const cJSON *obj,
			    const char *key, unsigned flags,
			    const cJSON **out, struct ppr_err *err);
int machine_json_get_array(const struct machine_json *doc, const cJSON *obj,
			   const char *key, unsigned flags,
			   const cJSON **out, struct ppr_err *err);

/*
 * An integer in [min, max] (a JSON number with no fraction, below 2^53).
 * The error says "'k' must be a positive integer" (min 1), "... a
 * non-negative integer" (min 0) or "... an integer in [min, max]", and
 * "'k' must be at most max" for an integer above max.
 */
int machine_json_get_u64(const struct machine_json *doc, const cJSON *obj,
			 const char *key, unsigned flags, uint64_t def,
			 uint64_t min, uint64_t max, uint64_t *out,
			 struct ppr_err *err);

/* A finite number; MACHINE_JSON_POSITIVE / _NONNEG restrict its sign. */
int machine_json_get_double(const struct machine_json *doc, const cJSON *obj,
			    const char *key, unsigned flags, double def,
			    double *out, struct ppr_err *err);

/* A string (pointer into the tree); def may be NULL. */
int machine_json_get_string(const struct machine_json *doc, const cJSON *obj,
			    const char *key, unsigned flags, const char *def,
			    const char **out, struct ppr_err *err);

/* true / false. */
int machine_json_get_bool(const struct machine_json *doc, const cJSON *obj,
			  const char *key, unsigned flags, int def, int *out,
			  struct ppr_err *err);

/*
 * A string that must be one of tab[] (terminated by a NULL name):
 * "'k' must be one of \"a\", \"b\"" otherwise.
 */
int machine_json_get_enum(const struct machine_json *doc, const cJSON *obj,
			  const char *key, unsigned flags,
			  const struct machine_json_enum *tab, int def,
			  int *out, struct ppr_err *err);

/* The same checks on an item already in hand (e.g. an array element);
 * 'what' names it in the message. */
int machine_json_item_u64(const struct machine_json *doc, const cJSON *item,
			  const char *what, uint64_t min, uint64_t max,
			  uint64_t *out, struct ppr_err *err);
int machine_json_item_double(const struct machine_json *doc,
			     const cJSON *item, const char *what,
			     unsigned flags, double *out, struct ppr_err *err);
int machine_json_item_string(const struct machine_json *doc,
			     const cJSON *item, const char *what,
			     const char **out, struct ppr_err *err);

/* The "core" section (machines/core_model.c): fills *c from obj. */
struct dag_core;
int machine_core_parse(const struct machine_json *doc, const cJSON *obj,
		       struct dag_core *c, struct ppr_err *err);

#endif
