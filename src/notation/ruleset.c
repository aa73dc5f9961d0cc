/*
 * ruleset.c - lookups in the rule sets a reader was given (ruleset.h):
 * plain reads of their data, calling no hook and no registry.
 */
#include "notation/ruleset.h"

#include "common/util.h"

#include <stdio.h>
#include <string.h>

const struct carc_ruleset *carc_rulesets_find(const struct carc_rulesets *v, const char *name, size_t len)
{
	for (int i = 0; i < v->count; i++)
		if (carc_slice_ieq(name, len, v->sets[i]->name))
			return v->sets[i];
	return NULL;
}

void carc_rulesets_names(const struct carc_rulesets *v, bool expansions, char *names, size_t size)
{
	size_t at = 0;
	int n = 0, k = 0;
	if (size)
		names[0] = '\0';
	for (int i = 0; i < v->count; i++)
		n += v->sets[i]->expansion == expansions;
	for (int i = 0; i < v->count && at < size; i++) {
		if (v->sets[i]->expansion != expansions)
			continue;
		k++;
		at += (size_t)snprintf(names + at, size - at, "%s%s", k == 1 ? "" : k == n ? " or " : ", ",
				       v->sets[i]->name);
	}
}

const struct carc_ruleset *carc_rulesets_expansion_with_role(const struct carc_rulesets *v, const char *name,
							     size_t len)
{
	for (int i = 0; i < v->count; i++)
		if (v->sets[i]->expansion && carc_ruleset_role(v->sets[i], name, len) >= 0)
			return v->sets[i];
	return NULL;
}

int carc_rulesets_read_expansions(const struct carc_rulesets *v, const struct carc_ruleset *base, const char *words,
				  size_t len, const struct carc_ruleset **out, int *names, carc_expansion_fault_fn fault,
				  void *ctx)
{
	bool named[CARC_MAX_RULESETS] = {false};
	char msg[400], list[256];
	*names = 0;
	for (size_t i = 0; i < len;) {
		size_t n = 0;
		while (i + n < len && words[i + n] != ' ' && words[i + n] != ',' && words[i + n] != '\t')
			n++;
		if (!n) {
			i++;
			continue;
		}
		++*names;
		const struct carc_ruleset *x = carc_rulesets_find(v, words + i, n);
		msg[0] = '\0';
		if (!x || !x->expansion) {
			carc_rulesets_names(v, true, list, sizeof list);
			snprintf(msg, sizeof msg, "'%.*s' is not an expansion: %s", (int)n, words + i, list);
		} else if (named[x->id]) {
			snprintf(msg, sizeof msg, "the expansion %s is named twice", x->name);
		} else if (base && !carc_ruleset_joins(x, base)) {
			snprintf(msg, sizeof msg, "the expansion %s does not go with the rules %s (it goes with: %s)", x->name,
				 base->name, x->joins);
		} else {
			named[x->id] = true;
		}
		if (msg[0])
			fault(ctx, i, n, msg);
		i += n;
	}
	int count = 0;
	for (int id = 0; id < v->count && id < CARC_MAX_RULESETS && count < CARC_MAX_EXPANSIONS; id++)
		if (named[id])
			out[count++] = v->sets[id];
	return count;
}

bool carc_ruleset_joins(const struct carc_ruleset *expansion, const struct carc_ruleset *base)
{
	const char *p = expansion->joins;
	size_t n = strlen(base->name);
	while (p && *p) {
		while (*p == ' ')
			p++;
		size_t len = strcspn(p, " ");
		if (len == n && !strncmp(p, base->name, n))
			return true;
		p += len;
	}
	return false;
}

int carc_ruleset_role(const struct carc_ruleset *rs, const char *name, size_t len)
{
	for (int i = 0; i < rs->nroles; i++)
		if (carc_slice_ieq(name, len, rs->roles[i].name))
			return i;
	return -1;
}

bool carc_rulesets_role_word_before(const struct carc_rulesets *v, const char *word, size_t len)
{
	for (int i = 0; i < v->count; i++) {
		const struct carc_ruleset *rs = v->sets[i];
		for (int r = 0; r < rs->nroles; r++) {
			const char *blank = strchr(rs->roles[r].name, ' ');
			if (blank && (size_t)(blank - rs->roles[r].name) == len) {
				char first[32];
				if (len >= sizeof first)
					continue;
				memcpy(first, rs->roles[r].name, len);
				first[len] = '\0';
				if (carc_slice_ieq(word, len, first))
					return true;
			}
		}
	}
	return false;
}

const char *carc_role_supply_name(const struct carc_ruleset *rs, int r)
{
	const struct carc_role *role = &rs->roles[r];
	if (!role->own)
		return NULL;
	for (int q = 0; q < r && role->pool; q++)
		if (carc_roles_share_supply(role, &rs->roles[q]))
			return NULL;
	return role->pool ? role->pool : role->name;
}

bool carc_roles_share_supply(const struct carc_role *a, const struct carc_role *b)
{
	return a == b || (a->pool && b->pool && !strcmp(a->pool, b->pool));
}

void carc_role_letters(const struct carc_ruleset *rs, char *letters)
{
	for (int r = 0; r < rs->nroles; r++) {
		const char *name = rs->roles[r].name;
		letters[r] = '?';
		const char *blank = strchr(name, ' ');
		int like = blank ? carc_ruleset_role(rs, blank + 1, strlen(blank + 1)) : -1;
		if (like >= 0 && like < r) {
			letters[r] = letters[like];
			continue;
		}
		for (const char *p = name; *p; p++) {
			char up = (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
			bool taken = false;
			for (int q = 0; q < r; q++)
				taken |= letters[q] == up;
			if (!taken) {
				letters[r] = up;
				break;
			}
		}
	}
}
