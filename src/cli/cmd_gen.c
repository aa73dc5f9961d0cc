/*
 * cmd_gen.c - carc gen: write random complete legal games as CGN.
 *
 * A thin shell over gen.h: options, the output file, and a loop writing the
 * games one after another (a blank line between two games), flushing the
 * text in large blocks so that a corpus of 100,000 games streams out.
 */
#include "cli/cli.h"
#include "import/gen.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void help(void)
{
	printf("usage: carc gen [OPTIONS]\n\n"
	       "Write random complete legal games in canonical CGN: the supply shuffled,\n"
	       "each tile placed at a uniformly chosen legal position and rotation (or\n"
	       "discarded when it fits nowhere), followers deployed at random among the\n"
	       "legal choices, claims on some turns, and the final scores in [Result].\n"
	       "The same options and seed always give the same output.\n\n"
	       "options:\n"
	       "  -r, --rules RULES        base (default), solo or hunters\n"
	       "  -p, --players N          seats, each a distinct random colour (default 2;\n"
	       "                           solo: 3, or 4)\n"
	       "  -n, --games K            how many games (default 1)\n"
	       "  -s, --seed S             seed of the random choices (default 1)\n"
	       "  -d, --deploy-rate P      chance of deploying when a deployment is legal,\n"
	       "                           0 to 1 (default 0.5)\n"
	       "  -c, --claim-rate P       chance that a turn carries claims, 0 to 1 (default 0.1)\n"
	       "  -e, --edition N          write [Edition \"N\"] and score by it (1, 2 or 3;\n"
	       "                           default: no tag, the 3rd edition)\n"
	       "  -x, --expansions LIST    play with these expansions (blank- or comma-\n"
	       "                           separated) and write them in [Expansions]:\n"
	       "                           river (with base or solo), abbot (with base),\n"
	       "                           inns-cathedrals, traders-builders (with base)\n"
	       "  -o, --output FILE        write to FILE instead of standard output\n"
	       "  -h, --help               show this help\n"
	       "  -V, --version            show the version\n\n"
	       "exit status: 0 written, 2 could not run (usage, unsupported rules, output error).\n");
}

static bool parse_rate(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || errno || !(v >= 0 && v <= 1))
		return false;
	*out = v;
	return true;
}

static bool parse_count(const char *s, unsigned long long lo, unsigned long long hi, unsigned long long *out)
{
	char *end;
	errno = 0;
	if (*s == '-' || *s == '+' || !*s)
		return false;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end || errno || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* The first problem of an --expansions list, for its usage message. */
static void first_fault(void *ctx, size_t off, size_t len, const char *msg)
{
	(void)off, (void)len;
	char *first = ctx;
	if (!first[0])
		snprintf(first, 400, "%s", msg);
}

/* The expansions named in words (blank- or comma-separated, any case),
 * each once and each one that goes with the rules, into opt; false after a
 * usage message (the checks of a record's Expansions tag). */
static bool take_expansions(struct carc_gen_opts *opt, const char *words)
{
	char first[400] = "";
	int names;
	opt->nexpansions = carc_rules_read_expansions(opt->rules, words, strlen(words), opt->expansions, &names,
						      first_fault, first);
	if (first[0]) {
		carc_usage_error("gen", "--expansions: %s", first);
		return false;
	}
	if (!names) {
		carc_usage_error("gen", "--expansions names no expansion: %s", carc_ruleset_expansion_names());
		return false;
	}
	return true;
}

int cmd_gen(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"rules", required_argument, NULL, 'r'},   {"players", required_argument, NULL, 'p'},
		{"games", required_argument, NULL, 'n'},   {"seed", required_argument, NULL, 's'},
		{"deploy-rate", required_argument, NULL, 'd'}, {"claim-rate", required_argument, NULL, 'c'},
		{"edition", required_argument, NULL, 'e'}, {"output", required_argument, NULL, 'o'},
		{"expansions", required_argument, NULL, 'x'},
		{"help", no_argument, NULL, 'h'},          {"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	struct carc_gen_opts opt = {.rules = carc_ruleset_default(), .deploy_rate = 0.5,
				    .claim_rate = 0.1, .seed = 1};
	unsigned long long games = 1, v;
	const char *output = NULL, *expansions = NULL;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":r:p:n:s:d:c:e:o:x:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			opt.rules = carc_ruleset_find(optarg, strlen(optarg));
			if (!opt.rules)
				return carc_usage_error("gen", "--rules is %s, not '%s'", carc_ruleset_names(), optarg);
			break;
		case 'p':
			if (!parse_count(optarg, 1, CARC_COLOURS, &v))
				return carc_usage_error("gen", "--players takes a number from 1 to %d, not '%s'",
							CARC_COLOURS, optarg);
			opt.players = (int)v;
			break;
		case 'n':
			if (!parse_count(optarg, 0, 1000000000ull, &games))
				return carc_usage_error("gen", "--games takes a whole number, not '%s'", optarg);
			break;
		case 's':
			if (!parse_count(optarg, 0, UINT64_MAX, &v))
				return carc_usage_error("gen", "--seed takes a whole number from 0 to %" PRIu64 ", not '%s'",
							UINT64_MAX, optarg);
			opt.seed = v;
			break;
		case 'd':
			if (!parse_rate(optarg, &opt.deploy_rate))
				return carc_usage_error("gen", "--deploy-rate takes a number from 0 to 1, not '%s'", optarg);
			break;
		case 'c':
			if (!parse_rate(optarg, &opt.claim_rate))
				return carc_usage_error("gen", "--claim-rate takes a number from 0 to 1, not '%s'", optarg);
			break;
		case 'e':
			if (!parse_count(optarg, 1, 3, &v))
				return carc_usage_error("gen", "--edition is 1, 2 or 3, not '%s'", optarg);
			opt.edition = (int)v;
			break;
		case 'o':
			output = optarg;
			break;
		case 'x':
			expansions = optarg;
			break;
		case 'h':
			help();
			return CARC_EXIT_OK;
		case 'V':
			return carc_print_version();
		default:
			return carc_option_error("gen", c, argv);
		}
	}
	if (optind < argc)
		return carc_usage_error("gen", "unexpected argument '%s'", argv[optind]);
	if (opt.players &&
	    (opt.players < opt.rules->min_seats || opt.players > opt.rules->max_seats))
		return carc_usage_error("gen", "--players: %s games have %d to %d players", opt.rules->name,
					opt.rules->min_seats, opt.rules->max_seats);

	if (expansions && !take_expansions(&opt, expansions))
		return CARC_EXIT_TROUBLE;
	const char *why = NULL;
	struct carc_gen *gen = carc_gen_new(&opt, &why);
	if (!gen) {
		fprintf(stderr, "carc gen: %s\n", why);
		return CARC_EXIT_TROUBLE;
	}
	struct carc_output to;
	if (!carc_output_open(&to, "gen", output)) {
		carc_gen_free(gen);
		return CARC_EXIT_TROUBLE;
	}
	FILE *out = to.f;
	struct carc_buf text = {0};
	bool ok = true;
	for (unsigned long long k = 0; k < games && ok; k++) {
		if (k)
			carc_buf_addc(&text, '\n');
		carc_gen_game(gen, k, &text);
		if (text.len >= (1u << 16) || k + 1 == games) {
			ok = fwrite(text.data, 1, text.len, out) == text.len;
			carc_buf_reset(&text);
		}
	}
	carc_buf_free(&text);
	carc_gen_free(gen);
	/* (a failed fwrite leaves the error flag, which close reports) */
	bool closed = carc_output_close(&to, ok);
	return closed && ok ? CARC_EXIT_OK : CARC_EXIT_TROUBLE;
}
