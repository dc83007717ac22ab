/* tokenizer: a lexer for a C-like language (identifiers, keywords, decimal,
 * hex and float literals, strings with escapes, comments, multi-character
 * operators) run over generated source; tokens are counted per kind, the
 * stream is re-printed and re-lexed to check it is stable, and integer
 * expressions are evaluated by precedence climbing. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SRC_CAP 800000
#define MAX_TOK 400000

typedef enum { T_IDENT, T_KEYWORD, T_INT, T_FLOAT, T_STRING, T_OP, T_PUNCT, T_EOF, T_KINDS } kind;
static const char *kind_name[T_KINDS] = {"ident", "keyword", "int",  "float",
                                         "string", "op",     "punct", "eof"};

typedef struct {
    kind k;
    int start, len;
    uint64_t ival;
} token;

static const char *keywords[] = {"if", "else", "while", "for", "return", "int", "float", "struct"};
static const char *ops3[] = {"<<=", ">>=", "..."};
static const char *ops2[] = {"==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "+=",
                             "-=", "*=", "/=", "++", "--", "->"};

static char src[SRC_CAP];
static int src_len;
static token toks[MAX_TOK];

static int is_keyword(const char *s, int len) {
    for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
        if ((int)strlen(keywords[i]) == len && memcmp(keywords[i], s, (size_t)len) == 0) return 1;
    return 0;
}

/* Returns the number of tokens, or -1 on a lexical error. */
static int lex(const char *s, int n, token *out, int cap) {
    int i = 0, nt = 0;
    while (nt < cap) {
        while (i < n) {
            if (isspace((unsigned char)s[i])) {
                i++;
            } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
                while (i < n && s[i] != '\n') i++;
            } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
                i += 2;
                while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) i++;
                if (i + 1 >= n) return -1;
                i += 2;
            } else {
                break;
            }
        }
        token t = {T_EOF, i, 0, 0};
        if (i >= n) {
            out[nt++] = t;
            return nt;
        }
        char c = s[i];
        if (isalpha((unsigned char)c) || c == '_') {
            int j = i;
            while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '_')) j++;
            t.k = is_keyword(s + i, j - i) ? T_KEYWORD : T_IDENT;
            t.len = j - i;
        } else if (isdigit((unsigned char)c)) {
            int j = i;
            if (c == '0' && j + 1 < n && (s[j + 1] == 'x' || s[j + 1] == 'X')) {
                j += 2;
                while (j < n && isxdigit((unsigned char)s[j])) {
                    int d = isdigit((unsigned char)s[j]) ? s[j] - '0' : tolower((unsigned char)s[j]) - 'a' + 10;
                    t.ival = t.ival * 16u + (uint64_t)d;
                    j++;
                }
                t.k = T_INT;
            } else {
                while (j < n && isdigit((unsigned char)s[j])) t.ival = t.ival * 10u + (uint64_t)(s[j++] - '0');
                t.k = T_INT;
                if (j < n && s[j] == '.' && j + 1 < n && isdigit((unsigned char)s[j + 1])) {
                    j++;
                    while (j < n && isdigit((unsigned char)s[j])) j++;
                    if (j < n && (s[j] == 'e' || s[j] == 'E')) {
                        j++;
                        if (j < n && (s[j] == '+' || s[j] == '-')) j++;
                        if (j >= n || !isdigit((unsigned char)s[j])) return -1;
                        while (j < n && isdigit((unsigned char)s[j])) j++;
                    }
                    t.k = T_FLOAT;
                }
            }
            t.len = j - i;
        } else if (c == '"') {
            int j = i + 1;
            while (j < n && s[j] != '"') {
                if (s[j] == '\\') j++;
                j++;
            }
            if (j >= n) return -1;
            t.k = T_STRING;
            t.len = j + 1 - i;
        } else {
            t.k = T_OP;
            t.len = 0;
            for (size_t k = 0; k < 3 && !t.len; k++)
                if (i + 3 <= n && memcmp(s + i, ops3[k], 3) == 0) t.len = 3;
            for (size_t k = 0; k < sizeof(ops2) / sizeof(ops2[0]) && !t.len; k++)
                if (i + 2 <= n && memcmp(s + i, ops2[k], 2) == 0) t.len = 2;
            if (!t.len) {
                if (strchr("+-*/%<>=!&|^~?:", c)) t.len = 1;
                else if (strchr("(){}[];,.", c)) {
                    t.k = T_PUNCT;
                    t.len = 1;
                } else {
                    return -1;
                }
            }
        }
        out[nt++] = t;
        i += t.len;
    }
    return -1;
}

static uint32_t rng_state = 6502u;

static uint32_t next_rand(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static void emit(const char *s) {
    size_t l = strlen(s);
    if (src_len + (int)l < SRC_CAP) {
        memcpy(src + src_len, s, l);
        src_len += (int)l;
    }
}

static void gen_expr(int depth) {
    char buf[64];
    uint32_t r = next_rand() % 10u;
    if (depth > 3 || r < 3) {
        uint32_t lit = next_rand();
        if (r == 0) snprintf(buf, sizeof buf, "0x%X", (unsigned)(lit % 4096u));
        else snprintf(buf, sizeof buf, "%u", (unsigned)(lit % 1000u));
        emit(buf);
    } else if (r < 5) {
        emit("(");
        gen_expr(depth + 1);
        emit(")");
    } else {
        static const char *bin[] = {" + ", " - ", " * ", " & ", " | ", " ^ ", " << "};
        gen_expr(depth + 1);
        emit(bin[next_rand() % 7u]);
        gen_expr(depth + 1);
    }
}

static void gen_statement(void) {
    char buf[96];
    switch (next_rand() % 7u) {
    case 0:
        snprintf(buf, sizeof buf, "int v%u = ", (unsigned)(next_rand() % 50u));
        emit(buf);
        gen_expr(0);
        emit(";\n");
        break;
    case 1: {
        /* Separate statements fix the order in which the values are drawn. */
        unsigned var = (unsigned)(next_rand() % 9u);
        unsigned whole = (unsigned)(next_rand() % 100u);
        unsigned frac = (unsigned)(next_rand() % 1000u);
        unsigned ex = (unsigned)(next_rand() % 5u);
        snprintf(buf, sizeof buf, "if (x%u >= %u.%ue-%u) { y += 1; } else { y -= 2; }\n", var,
                 whole, frac, ex);
        emit(buf);
        break;
    }
    case 2:
        emit("while (p->next != 0 && n-- > 0) { p = p->next; }\n");
        break;
    case 3:
        snprintf(buf, sizeof buf, "puts(\"msg %u: \\\"quoted\\\" \\\\ done\");\n",
                 (unsigned)(next_rand() % 10000u));
        emit(buf);
        break;
    case 4:
        emit("/* block comment with * and / inside */ a[i] <<= 2;\n");
        break;
    case 5:
        emit("for (i = 0; i < n; i++) sum += a[i] * 3.25; // trailing comment\n");
        break;
    default:
        emit("return f(a, b, ...) ? x : y;\n");
    }
}

/* Precedence climbing over tokens [*pos, end) for + - * & | ^ << and parens. */
static int prec(const token *t) {
    if (t->k != T_OP) return -1;
    const char *s = src + t->start;
    if (t->len == 2 && memcmp(s, "<<", 2) == 0) return 3;
    if (t->len != 1) return -1;
    switch (*s) {
    case '|': return 0;
    case '^': return 1;
    case '&': return 2;
    case '+': case '-': return 4;
    case '*': return 5;
    default: return -1;
    }
}

static uint64_t parse_expr(int *pos, int min_prec);

static uint64_t parse_atom(int *pos) {
    token *t = &toks[(*pos)++];
    if (t->k == T_PUNCT && src[t->start] == '(') {
        uint64_t v = parse_expr(pos, 0);
        (*pos)++; /* ')' */
        return v;
    }
    return t->ival;
}

static uint64_t parse_expr(int *pos, int min_prec) {
    uint64_t lhs = parse_atom(pos);
    for (;;) {
        int p = prec(&toks[*pos]);
        if (p < min_prec) return lhs;
        char op = src[toks[*pos].start];
        (*pos)++;
        uint64_t rhs = parse_expr(pos, p + 1);
        switch (op) {
        case '|': lhs |= rhs; break;
        case '^': lhs ^= rhs; break;
        case '&': lhs &= rhs; break;
        case '+': lhs += rhs; break;
        case '-': lhs -= rhs; break;
        case '*': lhs *= rhs; break;
        default: lhs <<= rhs % 64u; break;
        }
    }
}

int main(void) {
    while (src_len < SRC_CAP - 4000) gen_statement(); /* a statement is far shorter */
    int nt = lex(src, src_len, toks, MAX_TOK);
    if (nt < 0) {
        printf("lex error\n");
        return 1;
    }
    long counts[T_KINDS] = {0};
    uint32_t h = 0;
    for (int i = 0; i < nt; i++) {
        counts[toks[i].k]++;
        for (int k = 0; k < toks[i].len; k++) h = h * 31u + (unsigned char)src[toks[i].start + k];
        h ^= (uint32_t)toks[i].k;
    }
    printf("source=%d bytes tokens=%d hash=%08x\n", src_len, nt, h);
    for (int k = 0; k < T_KINDS; k++) printf("  %-8s %ld\n", kind_name[k], counts[k]);

    /* Re-print tokens separated by single spaces and lex again. */
    static char again[SRC_CAP * 2];
    static token toks2[MAX_TOK];
    int alen = 0;
    for (int i = 0; i < nt - 1; i++) {
        memcpy(again + alen, src + toks[i].start, (size_t)toks[i].len);
        alen += toks[i].len;
        again[alen++] = ' ';
    }
    int nt2 = lex(again, alen, toks2, MAX_TOK);
    int same = nt2 == nt;
    for (int i = 0; same && i < nt; i++)
        same = toks[i].k == toks2[i].k && toks[i].len == toks2[i].len && toks[i].ival == toks2[i].ival;
    printf("relex stable=%d\n", same);

    /* Evaluate every initializer "int vN = <expr>;". */
    uint64_t acc = 0;
    int nexpr = 0;
    for (int i = 0; i + 3 < nt; i++) {
        if (toks[i].k == T_KEYWORD && toks[i].len == 3 && memcmp(src + toks[i].start, "int", 3) == 0 &&
            toks[i + 2].k == T_OP && src[toks[i + 2].start] == '=') {
            int pos = i + 3;
            uint64_t v = parse_expr(&pos, 0);
            acc = acc * 1000003u + v;
            nexpr++;
        }
    }
    printf("expressions=%d value_hash=%016llx\n", nexpr, (unsigned long long)acc);
    return 0;
}
