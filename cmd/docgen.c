/*
 * The manual page and the shell completion scripts, written from what
 * --help is written from: the subcommand table, each subcommand's option
 * rows (reached through its help function, common/options.h's hook) and the
 * registries its --impl, --algo, --loop, --workload and --compare pick from.
 * `gpubench help --man [DOCDIR]` and `gpubench help --completion bash|zsh`
 * print them; make install installs them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "common/docs.h"
#include "common/error.h"
#include "common/options.h"
#include "common/registry.h"
#include "common/version.h"

static const gb_opt_spec *captured;

static void capture(const gb_opt_spec *spec, void *arg)
{
	(void)arg;
	captured = spec;
}

/* The option spec of subcommand c, as its help shows it. */
static const gb_opt_spec *spec_of(const gb_command *c)
{
	captured = NULL;
	gb_opts_help_hook = capture;
	c->help(stdout);
	gb_opts_help_hook = NULL;
	if (!captured)
		gb_die(GB_EXIT_RUNTIME, "%s: its help shows no option rows", c->name);
	return captured;
}

/* ---------------------------------------------------------------- the manual page */

/* text as roff: backslashes and hyphens escaped, a control character at a line's start guarded,
 * slashes places to break a long path. */
static void roff(FILE *out, const char *text)
{
	char docs[4096];
	const char *p = gb_docs_text(text, docs, sizeof(docs));
	int bol = 1;

	for (; *p; p++) {
		if (bol && (*p == '.' || *p == '\''))
			fputs("\\&", out);
		if (*p == '\\')
			fputs("\\e", out);
		else if (*p == '-')
			fputs("\\-", out);
		else if (*p == '/')
			fputs("/\\:", out); /* a path may break after a slash */
		else
			fputc(*p, out);
		bol = *p == '\n';
	}
}

/* Text a function prints (an extra_help), kept as it is laid out. */
static void roff_verbatim(FILE *out, void (*fn)(FILE *))
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		gb_die(GB_EXIT_RUNTIME, "out of host memory");
	fn(mem);
	fclose(mem);
	while (len && text[len - 1] == '\n')
		text[--len] = '\0';
	fputs(".PP\n.nf\n", out);
	roff(out, text[0] == '\n' ? text + 1 : text);
	fputs("\n.fi\n", out);
	free(text);
}

static void man_rows(FILE *out, const gb_opt_spec *spec, size_t from, size_t to)
{
	char text[1024];
	size_t i;

	for (i = from; i < to; i++) {
		const gb_opt_row *r = gb_opts_row(spec, i);
		if (!gb_opts_row_help(spec, i, text, sizeof(text)))
			continue;
		fputs(r->metavar ? ".TP\n.BI \"\\-\\-" : ".TP\n.B \\-\\-", out);
		roff(out, r->name);
		if (r->metavar) {
			fputs(" \" \"", out);
			roff(out, r->metavar);
			fputc('"', out);
		}
		fputc('\n', out);
		roff(out, text);
		fputc('\n', out);
	}
}

static void man_subcommand(FILE *out, const gb_command *c)
{
	const gb_opt_spec *spec = spec_of(c);

	fputs(".SS \"gpubench ", out);
	roff(out, c->name);
	fputs("\"\n.B gpubench ", out);
	roff(out, c->name);
	fputs("\n[\\fIoptions\\fR]", out);
	if (spec->operands) {
		fputs(" \\fI", out);
		roff(out, spec->operands);
		fputs("\\fR", out);
	}
	fputs("\n.PP\n", out);
	roff(out, spec->intro);
	fputc('\n', out);
	man_rows(out, spec, 0, spec->nrows);
	if (spec->extra_help)
		roff_verbatim(out, spec->extra_help);
	fputs(".PP\nCommon options (the same meaning in every subcommand that has them):\n", out);
	man_rows(out, spec, spec->nrows, gb_opts_count(spec));
	if (spec->example) {
		fputs(".PP\n", out);
		roff(out, spec->example);
		fputc('\n', out);
	}
}

void gb_write_man(FILE *out, const char *docdir)
{
	const char *docs;
	int i;

	if (docdir)
		gb_docs_dir_set(docdir);
	docs = gb_docs_dir();
	fprintf(out, ".\\\" The manual page of gpubench, written by `gpubench help --man` from its option rows.\n");
	fprintf(out, ".TH GPUBENCH 1 \"\" \"gpubench %s\" \"gpubench manual\"\n", GB_VERSION);
	fputs(".SH NAME\ngpubench \\- a benchmark harness for synchronization on GPUs\n", out);
	fputs(".SH SYNOPSIS\n.B gpubench\n.I subcommand\n[\\fIoptions\\fR]\n.br\n"
	      ".B gpubench help\n[\\fIsubcommand\\fR]\n.br\n"
	      ".B gpubench help \\-\\-man\n[\\fIdocdir\\fR]\n.br\n"
	      ".B gpubench help \\-\\-completion\n\\fBbash\\fR|\\fBzsh\\fR\n.br\n"
	      ".B gpubench \\-\\-version\n", out);
	fputs(".SH DESCRIPTION\n", out);
	roff(out, gb_about);
	fputs("\n.PP\nThe subcommands, with their options as \\fBgpubench\\fR \\fIsubcommand\\fR "
	      "\\fB\\-\\-help\\fR shows them:\n", out);
	for (i = 0; gb_commands[i]; i++) {
		fputs(".TP\n.B ", out);
		roff(out, gb_commands[i]->name);
		fputc('\n', out);
		roff(out, gb_commands[i]->summary);
		fputc('\n', out);
	}
	fputs(".SH SUBCOMMANDS\n", out);
	for (i = 0; gb_commands[i]; i++)
		man_subcommand(out, gb_commands[i]);
	fputs(".SH \"EXIT STATUS\"\n", out);
	roff(out, gb_exit_statuses);
	fputs("\n.SH ENVIRONMENT\n.TP\n.B CUDA_VISIBLE_DEVICES\n", out);
	roff(out, "Which GPUs the CUDA runtime shows, and in what order (indices or UUIDs, as nvidia-smi lists "
		  "them): --device counts among those, and reports record the variable as it was.");
	fputs("\n.SH FILES\n", out);
	if (docs) {
		fputs(".TP\n.I ", out);
		roff(out, docs);
		fputs("\n", out);
		roff(out, "README.md and the documentation the help texts name: report-schema.md (every report "
			  "field), harness.md, compare.md, ci.md, and one page a subcommand.");
		fputc('\n', out);
	} else {
		roff(out, "The documentation the help texts name is in docs/ of the source tree.");
		fputc('\n', out);
	}
	fputs(".SH \"SEE ALSO\"\n.BR nvidia\\-smi (1),\n.BR taskset (1),\n.BR sbatch (1)\n", out);
}

/* ---------------------------------------------------------------- shell completion */

/* The names of registry r's entries, space-separated (detect's appear in two groups: once). */
static void entry_names(const gb_registry *r, char *buf, size_t len)
{
	size_t used = 0;
	int i, j;

	buf[0] = '\0';
	for (i = 0; r->entries[i]; i++) {
		const char *name = gb_head(r->entries[i])->name;
		for (j = 0; j < i && strcmp(gb_head(r->entries[j])->name, name) != 0; j++)
			;
		if (j == i && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "", name);
	}
}

/* Whether registry r is picked by option name (its picked_by names "--NAME"). */
static int picks(const gb_registry *r, const char *name)
{
	char want[64];
	const char *p;
	size_t n;

	if (!r)
		return 0;
	n = (size_t)snprintf(want, sizeof(want), "--%s", name);
	for (p = strstr(r->picked_by, want); p; p = strstr(p + 1, want))
		if (!((p[n] >= 'a' && p[n] <= 'z') || p[n] == '-'))
			return 1;
	return 0;
}

/* The registry of c that names option name's values, or NULL. */
static const gb_registry *values_of(const gb_command *c, const char *name)
{
	const gb_registry *const rs[] = {c->registry, c->workloads, c->baselines};
	for (int k = 0; k < 3; k++)
		if (picks(rs[k], name))
			return rs[k];
	return NULL;
}

static int is_path(const gb_opt_row *r)
{
	return r->metavar && (strcmp(r->metavar, "PATH") == 0 || strcmp(r->metavar, "FILE") == 0 ||
			      strcmp(r->metavar, "DIR") == 0);
}

/* Row r's values as words (a choice's, or a registry's); "" when free. */
static void row_values(const gb_command *c, const gb_opt_row *r, char *buf, size_t len)
{
	const gb_registry *reg = values_of(c, r->name);
	size_t used = 0;

	buf[0] = '\0';
	if (r->kind == GB_OPT_CHOICE)
		for (const char *const *ch = r->choices; *ch && used < len; ch++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "", *ch);
	else if (reg)
		entry_names(reg, buf, len);
}

static void bash_subcommand(FILE *out, const gb_command *c)
{
	const gb_opt_spec *spec = spec_of(c);
	char text[1024], values[2048];
	size_t i, n = gb_opts_count(spec);

	fprintf(out, "\t%s)\n\t\tcase $prev in\n", c->name);
	for (i = 0; i < n; i++) {
		const gb_opt_row *r = gb_opts_row(spec, i);
		if (!gb_opts_row_help(spec, i, text, sizeof(text)) || r->kind == GB_OPT_FLAG)
			continue;
		row_values(c, r, values, sizeof(values));
		if (*values && strcmp(r->name, "compare") == 0)
			fprintf(out, "\t\t--%s) _gpubench_list \"%s\" \"$cur\"; return ;;\n", r->name, values);
		else if (*values)
			fprintf(out, "\t\t--%s) COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); return ;;\n", r->name, values);
		else if (is_path(r))
			fprintf(out, "\t\t--%s) _gpubench_files; return ;;\n", r->name);
		else
			fprintf(out, "\t\t--%s) return ;;\n", r->name);
	}
	fputs("\t\tesac\n\t\tif [[ $cur == -* ]]; then\n\t\t\tCOMPREPLY=($(compgen -W \"", out);
	for (i = 0; i < n; i++)
		if (gb_opts_row_help(spec, i, text, sizeof(text)))
			fprintf(out, "--%s ", gb_opts_row(spec, i)->name);
	fputs("--help\" -- \"$cur\"))\n", out);
	if (spec->operands)
		fputs("\t\telse\n\t\t\t_gpubench_files\n", out);
	fputs("\t\tfi\n\t\t;;\n", out);
}

static void write_bash(FILE *out)
{
	int i;

	fprintf(out, "# bash completion for gpubench %s, written by `gpubench help --completion bash`\n"
		     "# from its option rows and registries. Source it, or install it (make install).\n\n",
		GB_VERSION);
	fputs("# The last item of a comma-separated list (--compare a,b), from the words in $1.\n"
	      "_gpubench_list() {\n"
	      "\tlocal pre=\n"
	      "\t[[ $2 == *,* ]] && pre=${2%,*},\n"
	      "\tCOMPREPLY=($(compgen -P \"$pre\" -W \"$1\" -- \"${2##*,}\"))\n"
	      "\tcompopt -o nospace 2>/dev/null\n"
	      "}\n\n"
	      "_gpubench_files() {\n"
	      "\tcompopt -o filenames 2>/dev/null\n"
	      "\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	      "}\n\n"
	      "_gpubench() {\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
	      "\tCOMPREPLY=()\n"
	      "\tif [[ $COMP_CWORD -eq 1 ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"",
	      out);
	for (i = 0; gb_commands[i]; i++)
		fprintf(out, "%s ", gb_commands[i]->name);
	fputs("help --help --version\" -- \"$cur\"))\n\t\treturn\n\tfi\n\tcase ${COMP_WORDS[1]} in\n", out);
	fputs("\thelp)\n\t\tif [[ $prev == --completion ]]; then\n"
	      "\t\t\tCOMPREPLY=($(compgen -W \"bash zsh\" -- \"$cur\"))\n"
	      "\t\telif [[ $prev == --man ]]; then\n\t\t\t_gpubench_files\n"
	      "\t\telif [[ $COMP_CWORD -eq 2 ]]; then\n\t\t\tCOMPREPLY=($(compgen -W \"",
	      out);
	for (i = 0; gb_commands[i]; i++)
		fprintf(out, "%s ", gb_commands[i]->name);
	fputs("--man --completion\" -- \"$cur\"))\n\t\tfi\n\t\t;;\n", out);
	for (i = 0; gb_commands[i]; i++)
		bash_subcommand(out, gb_commands[i]);
	fputs("\tesac\n}\n\ncomplete -F _gpubench gpubench\n", out);
}

/* A help text as a zsh _arguments description: its first clause, no brackets, colons or quotes. */
static void zsh_words(FILE *out, const char *text, size_t max)
{
	size_t n = 0, len;

	for (len = 0; text[len] && len < max; len++)
		if (len > 20 && (text[len] == ';' || text[len] == '(' || text[len] == ':'))
			break;
	while (len && text[len - 1] == ' ')
		len--;
	for (; n < len; n++) {
		char ch = text[n];
		if (ch == '[' || ch == '(')
			fputc('{', out);
		else if (ch == ']' || ch == ')')
			fputc('}', out);
		else if (ch == ':')
			fputc(',', out);
		else if (ch == '\'')
			fputs("'\\''", out);
		else if (ch != '\\' && ch != '`' && ch != '$')
			fputc(ch, out);
	}
}

static void zsh_subcommand(FILE *out, const gb_command *c)
{
	const gb_opt_spec *spec = spec_of(c);
	char text[1024], values[2048];
	size_t i, n = gb_opts_count(spec);

	fprintf(out, "\t%s)\n\t\t_arguments -s \\\n", c->name);
	for (i = 0; i < n; i++) {
		const gb_opt_row *r = gb_opts_row(spec, i);
		if (!gb_opts_row_help(spec, i, text, sizeof(text)))
			continue;
		fprintf(out, "\t\t\t'%s--%s[", r->kind == GB_OPT_TEXTS ? "*" : "", r->name);
		zsh_words(out, text, 72);
		fputc(']', out);
		if (r->kind != GB_OPT_FLAG) {
			row_values(c, r, values, sizeof(values));
			fprintf(out, ":%s:", r->metavar ? r->metavar : "value");
			if (*values && strcmp(r->name, "compare") == 0)
				fprintf(out, "_sequence compadd - %s", values);
			else if (*values)
				fprintf(out, "(%s)", values);
			else if (is_path(r))
				fputs("_files", out);
			else
				fputs(" ", out);
		}
		fputs("' \\\n", out);
	}
	if (spec->operands)
		fputs("\t\t\t'*:path:_files' \\\n", out);
	fputs("\t\t\t'(- *)--help[this text]'\n\t\t;;\n", out);
}

static void write_zsh(FILE *out)
{
	int i;

	fprintf(out, "#compdef gpubench\n# zsh completion for gpubench %s, written by `gpubench help --completion zsh`\n"
		     "# from its option rows and registries. Put it on $fpath as _gpubench (make install does).\n\n",
		GB_VERSION);
	fputs("_gpubench() {\n\tlocal -a subcommands\n\tsubcommands=(\n", out);
	for (i = 0; gb_commands[i]; i++) {
		fprintf(out, "\t\t'%s:", gb_commands[i]->name);
		zsh_words(out, gb_commands[i]->summary, 200);
		fputs("'\n", out);
	}
	fputs("\t\t'help:a subcommand'\\''s help, the manual page or a completion script'\n\t)\n"
	      "\tif (( CURRENT == 2 )); then\n"
	      "\t\t_describe -t subcommands 'gpubench subcommand' subcommands\n"
	      "\t\treturn\n\tfi\n"
	      "\tlocal sub=${words[2]}\n"
	      "\tshift words\n\t(( CURRENT-- ))\n"
	      "\tcase $sub in\n"
	      "\thelp)\n\t\t_arguments -s '1:subcommand:(",
	      out);
	for (i = 0; gb_commands[i]; i++)
		fprintf(out, "%s%s", i ? " " : "", gb_commands[i]->name);
	fputs(")' '--man[the manual page]:docdir:_files -/' '--completion[a completion script]:shell:(bash zsh)'\n"
	      "\t\t;;\n",
	      out);
	for (i = 0; gb_commands[i]; i++)
		zsh_subcommand(out, gb_commands[i]);
	fputs("\tesac\n}\n\n_gpubench \"$@\"\n", out);
}

int gb_write_completion(FILE *out, const char *shell)
{
	if (strcmp(shell, "bash") == 0)
		write_bash(out);
	else if (strcmp(shell, "zsh") == 0)
		write_zsh(out);
	else
		return -1;
	return 0;
}
