// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nscheck - a growable array of strings
 */

#include <stdlib.h>

#include "strv.h"
#include "util.h"

void strv_push(struct strv *s, const char *str)
{
	*VEC_PUSH(s->v, s->n, s->cap) = str;
}

void strv_free(struct strv *s)
{
	free(s->v);
	*s = (struct strv){ 0 };
}
