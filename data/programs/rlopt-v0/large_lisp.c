/* large_lisp: a small Scheme-like Lisp interpreter together with a Lisp
 * program that exercises it. The interpreter has a reader, a printer, a
 * mark-and-sweep garbage collector, lexical environments, proper tail calls
 * in the evaluator, quasiquote, non-hygienic macros, promises, strings,
 * vectors, hash tables and error recovery. The embedded program runs
 * classic benchmarks (fib, tak, queens, sieve, sorting, symbolic
 * differentiation, streams, a small meta-interpreter) and prints results.
 *
 * Integers are 64-bit and wrap on overflow (arithmetic is done unsigned).
 * Garbage collection only runs between top-level forms, when the only
 * roots are the interned symbols and their global values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Object representation                                               */
/* ------------------------------------------------------------------ */

typedef struct Obj Obj;
typedef Obj *(*PrimFn)(Obj *args);

enum {
    T_FREE,
    T_NIL,
    T_TRUE,
    T_FALSE,
    T_UNSPEC,
    T_INT,
    T_SYM,
    T_CONS,
    T_STR,
    T_VEC,
    T_PRIM,
    T_CLOSURE,
    T_MACRO,
    T_ENV,
    T_TABLE,
    T_PROMISE
};

enum {
    SF_NONE,
    SF_QUOTE,
    SF_QUASIQUOTE,
    SF_UNQUOTE,
    SF_UNQUOTE_SPLICING,
    SF_IF,
    SF_DEFINE,
    SF_SET,
    SF_LAMBDA,
    SF_BEGIN,
    SF_LET,
    SF_LETSTAR,
    SF_LETREC,
    SF_COND,
    SF_CASE,
    SF_AND,
    SF_OR,
    SF_WHEN,
    SF_UNLESS,
    SF_DO,
    SF_WHILE,
    SF_DEFINE_MACRO,
    SF_DELAY,
    SF_ASSERT
};

struct Obj {
    unsigned char type;
    unsigned char mark;
    union {
        int64_t num;
        struct {
            Obj *car, *cdr;
        } pair;
        struct {
            char *name;
            Obj *value; /* global binding, NULL when unbound */
            uint32_t hash;
            int special;
        } sym;
        struct {
            char *data;
            size_t len;
        } str;
        struct {
            Obj **items;
            size_t len;
        } vec;
        struct {
            PrimFn fn;
            const char *name;
            int min_args, max_args; /* max_args < 0: variadic */
        } prim;
        struct {
            Obj *params, *body, *env, *name;
        } clo;
        struct {
            Obj *names, *vals, *parent;
        } env;
        struct {
            Obj **buckets; /* each bucket is an alist of (key . value) */
            size_t nbuckets, count;
        } table;
        struct {
            Obj *expr, *env, *value;
            int forced;
        } promise;
        Obj *next_free;
    } u;
};

static Obj nil_obj = {T_NIL, 0, {0}};
static Obj true_obj = {T_TRUE, 0, {0}};
static Obj false_obj = {T_FALSE, 0, {0}};
static Obj unspec_obj = {T_UNSPEC, 0, {0}};
#define NIL (&nil_obj)
#define TRUE_V (&true_obj)
#define FALSE_V (&false_obj)
#define UNSPEC (&unspec_obj)

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

static jmp_buf *error_handler;
static char error_message[256];
static int eval_depth;

static void lisp_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error_message, sizeof error_message, fmt, ap);
    va_end(ap);
    if (error_handler) longjmp(*error_handler, 1);
    fflush(stdout);
    printf("fatal error: %s\n", error_message);
    exit(1);
}

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        printf("out of memory\n");
        exit(2);
    }
    return p;
}

/* ------------------------------------------------------------------ */
/* Heap: objects live in fixed-size chunks threaded on a free list     */
/* ------------------------------------------------------------------ */

#define CHUNK_OBJS 8192
#define GC_THRESHOLD 300000

typedef struct Chunk {
    struct Chunk *next;
    Obj objs[CHUNK_OBJS];
} Chunk;

static Chunk *chunks;
static Obj *free_list;
static size_t chunk_count;
static size_t allocs_since_gc;
static unsigned long total_allocs;
static unsigned long gc_count;
static size_t live_after_gc;

static void add_chunk(void) {
    Chunk *c = xmalloc(sizeof(Chunk));
    c->next = chunks;
    chunks = c;
    chunk_count++;
    for (int i = CHUNK_OBJS - 1; i >= 0; i--) {
        c->objs[i].type = T_FREE;
        c->objs[i].mark = 0;
        c->objs[i].u.next_free = free_list;
        free_list = &c->objs[i];
    }
}

static Obj *alloc_obj(int type) {
    if (!free_list) add_chunk();
    Obj *o = free_list;
    free_list = o->u.next_free;
    memset(o, 0, sizeof *o);
    o->type = (unsigned char)type;
    allocs_since_gc++;
    total_allocs++;
    return o;
}

/* ------------------------------------------------------------------ */
/* Constructors and accessors                                          */
/* ------------------------------------------------------------------ */

static Obj *small_ints[272]; /* cached -16 .. 255 */

static Obj *make_int(int64_t v) {
    if (v >= -16 && v < 256 && small_ints[v + 16]) return small_ints[v + 16];
    Obj *o = alloc_obj(T_INT);
    o->u.num = v;
    return o;
}

static Obj *cons(Obj *a, Obj *d) {
    Obj *o = alloc_obj(T_CONS);
    o->u.pair.car = a;
    o->u.pair.cdr = d;
    return o;
}

static Obj *make_string_len(const char *s, size_t len) {
    Obj *o = alloc_obj(T_STR);
    o->u.str.data = xmalloc(len + 1);
    if (len) memcpy(o->u.str.data, s, len);
    o->u.str.data[len] = '\0';
    o->u.str.len = len;
    return o;
}

static Obj *make_string(const char *s) { return make_string_len(s, strlen(s)); }

static Obj *make_vector(size_t len, Obj *fill) {
    Obj *o = alloc_obj(T_VEC);
    o->u.vec.items = xmalloc(sizeof(Obj *) * (len ? len : 1));
    for (size_t i = 0; i < len; i++) o->u.vec.items[i] = fill;
    o->u.vec.len = len;
    return o;
}

static Obj *make_closure(int type, Obj *params, Obj *body, Obj *env, Obj *name) {
    Obj *o = alloc_obj(type);
    o->u.clo.params = params;
    o->u.clo.body = body;
    o->u.clo.env = env;
    o->u.clo.name = name;
    return o;
}

static Obj *make_env(Obj *names, Obj *vals, Obj *parent) {
    Obj *o = alloc_obj(T_ENV);
    o->u.env.names = names;
    o->u.env.vals = vals;
    o->u.env.parent = parent;
    return o;
}

static Obj *make_table(size_t nbuckets) {
    Obj *o = alloc_obj(T_TABLE);
    o->u.table.buckets = xmalloc(sizeof(Obj *) * nbuckets);
    for (size_t i = 0; i < nbuckets; i++) o->u.table.buckets[i] = NIL;
    o->u.table.nbuckets = nbuckets;
    o->u.table.count = 0;
    return o;
}

static Obj *make_bool(int b) { return b ? TRUE_V : FALSE_V; }
static int is_true(Obj *o) { return o != FALSE_V; }

static Obj *car(Obj *o) {
    if (o->type != T_CONS) lisp_error("car: not a pair");
    return o->u.pair.car;
}

static Obj *cdr(Obj *o) {
    if (o->type != T_CONS) lisp_error("cdr: not a pair");
    return o->u.pair.cdr;
}

static Obj *cadr(Obj *o) { return car(cdr(o)); }
static Obj *cddr(Obj *o) { return cdr(cdr(o)); }
static Obj *caddr(Obj *o) { return car(cddr(o)); }

static long list_length(Obj *o) {
    long n = 0;
    while (o->type == T_CONS) {
        n++;
        o = o->u.pair.cdr;
    }
    return o == NIL ? n : -1;
}

static Obj *list_reverse(Obj *o) {
    Obj *r = NIL;
    for (; o->type == T_CONS; o = o->u.pair.cdr) r = cons(o->u.pair.car, r);
    return r;
}

static Obj *list_copy(Obj *o) {
    Obj *head = NIL, *tail = NIL;
    for (; o->type == T_CONS; o = o->u.pair.cdr) {
        Obj *c = cons(o->u.pair.car, NIL);
        if (head == NIL) head = c;
        else tail->u.pair.cdr = c;
        tail = c;
    }
    return head;
}

static Obj *list2(Obj *a, Obj *b) { return cons(a, cons(b, NIL)); }

/* ------------------------------------------------------------------ */
/* Symbols                                                             */
/* ------------------------------------------------------------------ */

#define SYMTAB_SIZE 4096 /* power of two, open addressing */

static Obj *symtab[SYMTAB_SIZE];
static size_t symbol_count;

static uint32_t hash_bytes(const char *s, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static Obj *intern_len(const char *name, size_t len) {
    uint32_t h = hash_bytes(name, len);
    size_t i = h & (SYMTAB_SIZE - 1);
    while (symtab[i]) {
        Obj *s = symtab[i];
        if (s->u.sym.hash == h && strlen(s->u.sym.name) == len &&
            memcmp(s->u.sym.name, name, len) == 0)
            return s;
        i = (i + 1) & (SYMTAB_SIZE - 1);
    }
    if (symbol_count + 1 >= SYMTAB_SIZE * 3 / 4) lisp_error("symbol table full");
    Obj *s = alloc_obj(T_SYM);
    s->u.sym.name = xmalloc(len + 1);
    memcpy(s->u.sym.name, name, len);
    s->u.sym.name[len] = '\0';
    s->u.sym.hash = h;
    s->u.sym.value = NULL;
    s->u.sym.special = SF_NONE;
    symtab[i] = s;
    symbol_count++;
    return s;
}

static Obj *intern(const char *name) { return intern_len(name, strlen(name)); }

static Obj *S_QUOTE, *S_QUASIQUOTE, *S_UNQUOTE, *S_UNQUOTE_SPLICING, *S_ELSE, *S_ARROW,
    *S_ERROR;

static unsigned long gensym_counter;

/* ------------------------------------------------------------------ */
/* Garbage collector (mark and sweep, explicit mark stack)             */
/* ------------------------------------------------------------------ */

static Obj **mark_stack;
static size_t mark_top, mark_cap;

static void mark_push(Obj *o) {
    if (!o || o->mark) return;
    if (mark_top == mark_cap) {
        size_t ncap = mark_cap ? mark_cap * 2 : 1024;
        Obj **n = realloc(mark_stack, sizeof(Obj *) * ncap);
        if (!n) {
            printf("out of memory in gc\n");
            exit(2);
        }
        mark_stack = n;
        mark_cap = ncap;
    }
    mark_stack[mark_top++] = o;
}

static void mark_children(Obj *o) {
    switch (o->type) {
    case T_CONS:
        mark_push(o->u.pair.car);
        mark_push(o->u.pair.cdr);
        break;
    case T_SYM:
        mark_push(o->u.sym.value);
        break;
    case T_VEC:
        for (size_t i = 0; i < o->u.vec.len; i++) mark_push(o->u.vec.items[i]);
        break;
    case T_CLOSURE:
    case T_MACRO:
        mark_push(o->u.clo.params);
        mark_push(o->u.clo.body);
        mark_push(o->u.clo.env);
        mark_push(o->u.clo.name);
        break;
    case T_ENV:
        mark_push(o->u.env.names);
        mark_push(o->u.env.vals);
        mark_push(o->u.env.parent);
        break;
    case T_TABLE:
        for (size_t i = 0; i < o->u.table.nbuckets; i++) mark_push(o->u.table.buckets[i]);
        break;
    case T_PROMISE:
        mark_push(o->u.promise.expr);
        mark_push(o->u.promise.env);
        mark_push(o->u.promise.value);
        break;
    default:
        break;
    }
}

static void mark_all(void) {
    while (mark_top > 0) {
        Obj *o = mark_stack[--mark_top];
        if (o->mark) continue;
        o->mark = 1;
        mark_children(o);
    }
}

static void free_payload(Obj *o) {
    switch (o->type) {
    case T_STR:
        free(o->u.str.data);
        break;
    case T_VEC:
        free(o->u.vec.items);
        break;
    case T_TABLE:
        free(o->u.table.buckets);
        break;
    case T_SYM:
        free(o->u.sym.name);
        break;
    default:
        break;
    }
}

static void collect_garbage(void) {
    for (size_t i = 0; i < SYMTAB_SIZE; i++)
        if (symtab[i]) mark_push(symtab[i]);
    for (size_t i = 0; i < sizeof(small_ints) / sizeof(small_ints[0]); i++) mark_push(small_ints[i]);
    mark_all();
    free_list = NULL;
    size_t live = 0;
    for (Chunk *c = chunks; c; c = c->next) {
        for (int i = CHUNK_OBJS - 1; i >= 0; i--) {
            Obj *o = &c->objs[i];
            if (o->type != T_FREE && o->mark) {
                o->mark = 0;
                live++;
                continue;
            }
            if (o->type != T_FREE) free_payload(o);
            o->type = T_FREE;
            o->u.next_free = free_list;
            free_list = o;
        }
    }
    /* The static constants are never swept, only unmarked. */
    nil_obj.mark = true_obj.mark = false_obj.mark = unspec_obj.mark = 0;
    live_after_gc = live;
    allocs_since_gc = 0;
    gc_count++;
}

static void maybe_collect(void) {
    if (allocs_since_gc >= GC_THRESHOLD) collect_garbage();
}

static void free_heap(void) {
    for (Chunk *c = chunks; c;) {
        for (int i = 0; i < CHUNK_OBJS; i++)
            if (c->objs[i].type != T_FREE) free_payload(&c->objs[i]);
        Chunk *n = c->next;
        free(c);
        c = n;
    }
    chunks = NULL;
    free(mark_stack);
    mark_stack = NULL;
}

/* ------------------------------------------------------------------ */
/* Growable string buffer                                              */
/* ------------------------------------------------------------------ */

typedef struct {
    char *data;
    size_t len, cap;
} StrBuf;

static void sb_reserve(StrBuf *b, size_t extra) {
    if (b->len + extra + 1 <= b->cap) return;
    size_t ncap = b->cap ? b->cap : 64;
    while (ncap < b->len + extra + 1) ncap *= 2;
    char *n = realloc(b->data, ncap);
    if (!n) {
        printf("out of memory\n");
        exit(2);
    }
    b->data = n;
    b->cap = ncap;
}

static void sb_putc(StrBuf *b, char c) {
    sb_reserve(b, 1);
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}

static void sb_putn(StrBuf *b, const char *s, size_t n) {
    sb_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static void sb_puts(StrBuf *b, const char *s) { sb_putn(b, s, strlen(s)); }

static void sb_free(StrBuf *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* Formats an integer in the given radix (2..36). */
static void format_int(char *out, size_t cap, int64_t v, int radix) {
    char tmp[72];
    int n = 0;
    uint64_t mag = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
    do {
        unsigned d = (unsigned)(mag % (uint64_t)radix);
        tmp[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
        mag /= (uint64_t)radix;
    } while (mag);
    size_t k = 0;
    if (v < 0 && k + 1 < cap) out[k++] = '-';
    while (n > 0 && k + 1 < cap) out[k++] = tmp[--n];
    out[k] = '\0';
}

/* ------------------------------------------------------------------ */
/* Printer                                                             */
/* ------------------------------------------------------------------ */

static void print_obj(StrBuf *b, Obj *o, int write_mode, int depth);

static void print_string_literal(StrBuf *b, Obj *s) {
    sb_putc(b, '"');
    for (size_t i = 0; i < s->u.str.len; i++) {
        char c = s->u.str.data[i];
        switch (c) {
        case '"': sb_puts(b, "\\\""); break;
        case '\\': sb_puts(b, "\\\\"); break;
        case '\n': sb_puts(b, "\\n"); break;
        case '\t': sb_puts(b, "\\t"); break;
        default: sb_putc(b, c); break;
        }
    }
    sb_putc(b, '"');
}

static int print_quote_form(StrBuf *b, Obj *o, int write_mode, int depth) {
    Obj *head = o->u.pair.car, *rest = o->u.pair.cdr;
    if (head->type != T_SYM || rest->type != T_CONS || rest->u.pair.cdr != NIL) return 0;
    const char *prefix = NULL;
    if (head == S_QUOTE) prefix = "'";
    else if (head == S_QUASIQUOTE) prefix = "`";
    else if (head == S_UNQUOTE) prefix = ",";
    else if (head == S_UNQUOTE_SPLICING) prefix = ",@";
    if (!prefix) return 0;
    sb_puts(b, prefix);
    print_obj(b, rest->u.pair.car, write_mode, depth + 1);
    return 1;
}

static void print_list(StrBuf *b, Obj *o, int write_mode, int depth) {
    if (print_quote_form(b, o, write_mode, depth)) return;
    sb_putc(b, '(');
    long count = 0;
    for (;;) {
        print_obj(b, o->u.pair.car, write_mode, depth + 1);
        o = o->u.pair.cdr;
        if (o == NIL) break;
        if (++count > 100000) {
            sb_puts(b, " ...");
            break;
        }
        if (o->type != T_CONS) {
            sb_puts(b, " . ");
            print_obj(b, o, write_mode, depth + 1);
            break;
        }
        sb_putc(b, ' ');
    }
    sb_putc(b, ')');
}

static void print_obj(StrBuf *b, Obj *o, int write_mode, int depth) {
    char num[80];
    if (depth > 200) {
        sb_puts(b, "...");
        return;
    }
    switch (o->type) {
    case T_NIL: sb_puts(b, "()"); break;
    case T_TRUE: sb_puts(b, "#t"); break;
    case T_FALSE: sb_puts(b, "#f"); break;
    case T_UNSPEC: sb_puts(b, "#<unspecified>"); break;
    case T_INT:
        format_int(num, sizeof num, o->u.num, 10);
        sb_puts(b, num);
        break;
    case T_SYM: sb_puts(b, o->u.sym.name); break;
    case T_STR:
        if (write_mode) print_string_literal(b, o);
        else sb_putn(b, o->u.str.data, o->u.str.len);
        break;
    case T_CONS: print_list(b, o, write_mode, depth); break;
    case T_VEC:
        sb_puts(b, "#(");
        for (size_t i = 0; i < o->u.vec.len; i++) {
            if (i) sb_putc(b, ' ');
            print_obj(b, o->u.vec.items[i], write_mode, depth + 1);
        }
        sb_putc(b, ')');
        break;
    case T_PRIM:
        sb_puts(b, "#<primitive ");
        sb_puts(b, o->u.prim.name);
        sb_putc(b, '>');
        break;
    case T_CLOSURE:
    case T_MACRO:
        sb_puts(b, o->type == T_MACRO ? "#<macro" : "#<procedure");
        if (o->u.clo.name && o->u.clo.name->type == T_SYM) {
            sb_putc(b, ' ');
            sb_puts(b, o->u.clo.name->u.sym.name);
        }
        sb_putc(b, '>');
        break;
    case T_ENV: sb_puts(b, "#<environment>"); break;
    case T_TABLE:
        snprintf(num, sizeof num, "#<table %zu>", o->u.table.count);
        sb_puts(b, num);
        break;
    case T_PROMISE: sb_puts(b, "#<promise>"); break;
    default: sb_puts(b, "#<free>"); break;
    }
}

static unsigned long output_bytes;
static uint32_t output_hash = 2166136261u;

static void emit_text(const char *s, size_t n) {
    fwrite(s, 1, n, stdout);
    output_bytes += n;
    for (size_t i = 0; i < n; i++) output_hash = (output_hash ^ (unsigned char)s[i]) * 16777619u;
}

static void emit_obj(Obj *o, int write_mode) {
    StrBuf b = {0};
    print_obj(&b, o, write_mode, 0);
    emit_text(b.data ? b.data : "", b.len);
    sb_free(&b);
}

/* ------------------------------------------------------------------ */
/* Reader                                                              */
/* ------------------------------------------------------------------ */

typedef struct {
    const char *src;
    size_t pos, len;
    int line;
} Reader;

static Obj eof_obj = {T_UNSPEC, 0, {0}};
#define EOF_V (&eof_obj)

static int reader_peek(Reader *r) { return r->pos < r->len ? (unsigned char)r->src[r->pos] : -1; }

static int reader_next(Reader *r) {
    if (r->pos >= r->len) return -1;
    int c = (unsigned char)r->src[r->pos++];
    if (c == '\n') r->line++;
    return c;
}

static int is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static int is_delimiter(int c) {
    return c < 0 || is_space(c) || c == '(' || c == ')' || c == '"' || c == ';' || c == '\'';
}

static void skip_space(Reader *r) {
    for (;;) {
        int c = reader_peek(r);
        if (c < 0) return;
        if (is_space(c)) {
            reader_next(r);
        } else if (c == ';') {
            while (c >= 0 && c != '\n') c = reader_next(r);
        } else if (c == '#' && r->pos + 1 < r->len && r->src[r->pos + 1] == '|') {
            /* block comment #| ... |# */
            reader_next(r);
            reader_next(r);
            for (;;) {
                c = reader_next(r);
                if (c < 0) lisp_error("line %d: unterminated block comment", r->line);
                if (c == '|' && reader_peek(r) == '#') {
                    reader_next(r);
                    break;
                }
            }
        } else {
            return;
        }
    }
}

static Obj *read_form(Reader *r);

static Obj *read_list_tail(Reader *r) {
    Obj *head = NIL, *tail = NIL;
    for (;;) {
        skip_space(r);
        int c = reader_peek(r);
        if (c < 0) lisp_error("line %d: unexpected end of input in list", r->line);
        if (c == ')') {
            reader_next(r);
            return head;
        }
        if (c == '.' && r->pos + 1 < r->len && is_delimiter((unsigned char)r->src[r->pos + 1])) {
            reader_next(r);
            if (head == NIL) lisp_error("line %d: dot at start of list", r->line);
            tail->u.pair.cdr = read_form(r);
            skip_space(r);
            if (reader_next(r) != ')') lisp_error("line %d: expected ) after dotted tail", r->line);
            return head;
        }
        Obj *item = read_form(r);
        if (item == EOF_V) lisp_error("line %d: unexpected end of input", r->line);
        Obj *cell = cons(item, NIL);
        if (head == NIL) head = cell;
        else tail->u.pair.cdr = cell;
        tail = cell;
    }
}

static Obj *read_string_literal(Reader *r) {
    StrBuf b = {0};
    for (;;) {
        int c = reader_next(r);
        if (c < 0) lisp_error("line %d: unterminated string", r->line);
        if (c == '"') break;
        if (c == '\\') {
            c = reader_next(r);
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case '\\': case '"': break;
            default: lisp_error("line %d: bad escape in string", r->line);
            }
        }
        sb_putc(&b, (char)c);
    }
    Obj *s = make_string_len(b.data ? b.data : "", b.len);
    sb_free(&b);
    return s;
}

/* Parses a decimal integer with optional sign; returns 0 if not a number. */
static int parse_integer(const char *s, size_t n, int64_t *out) {
    size_t i = 0;
    int neg = 0;
    if (n == 0) return 0;
    if (s[0] == '+' || s[0] == '-') {
        neg = s[0] == '-';
        i = 1;
    }
    if (i == n) return 0;
    uint64_t v = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        v = v * 10u + (uint64_t)(s[i] - '0');
    }
    *out = (int64_t)(neg ? 0u - v : v);
    return 1;
}

static Obj *read_atom(Reader *r) {
    size_t start = r->pos;
    while (!is_delimiter(reader_peek(r))) reader_next(r);
    const char *tok = r->src + start;
    size_t n = r->pos - start;
    int64_t v;
    if (parse_integer(tok, n, &v)) return make_int(v);
    if (n == 2 && tok[0] == '#' && (tok[1] == 't' || tok[1] == 'f')) return make_bool(tok[1] == 't');
    if (n >= 3 && tok[0] == '#' && tok[1] == '\\') {
        /* Characters are read as their integer codes. */
        if (n == 3) return make_int((unsigned char)tok[2]);
        if (n == 7 && memcmp(tok + 2, "space", 5) == 0) return make_int(' ');
        if (n == 9 && memcmp(tok + 2, "newline", 7) == 0) return make_int('\n');
        lisp_error("line %d: unknown character name", r->line);
    }
    return intern_len(tok, n);
}

static Obj *read_form(Reader *r) {
    skip_space(r);
    int c = reader_peek(r);
    if (c < 0) return EOF_V;
    if (c == '(') {
        reader_next(r);
        return read_list_tail(r);
    }
    if (c == ')') lisp_error("line %d: unexpected )", r->line);
    if (c == '"') {
        reader_next(r);
        return read_string_literal(r);
    }
    if (c == '\'' || c == '`' || c == ',') {
        reader_next(r);
        Obj *sym = c == '\'' ? S_QUOTE : c == '`' ? S_QUASIQUOTE : S_UNQUOTE;
        if (c == ',' && reader_peek(r) == '@') {
            reader_next(r);
            sym = S_UNQUOTE_SPLICING;
        }
        Obj *x = read_form(r);
        if (x == EOF_V) lisp_error("line %d: end of input after quote", r->line);
        return list2(sym, x);
    }
    if (c == '#' && r->pos + 1 < r->len && r->src[r->pos + 1] == '(') {
        reader_next(r);
        reader_next(r);
        Obj *items = read_list_tail(r);
        long n = list_length(items);
        if (n < 0) lisp_error("line %d: dotted vector literal", r->line);
        Obj *v = make_vector((size_t)n, NIL);
        for (long i = 0; i < n; i++, items = items->u.pair.cdr) v->u.vec.items[i] = items->u.pair.car;
        return v;
    }
    return read_atom(r);
}

/* ------------------------------------------------------------------ */
/* Environments                                                        */
/* ------------------------------------------------------------------ */

/* The global environment is represented by NIL; globals live in symbols. */
static Obj **lookup_slot(Obj *sym, Obj *env) {
    for (Obj *e = env; e != NIL; e = e->u.env.parent) {
        Obj *n = e->u.env.names, *v = e->u.env.vals;
        while (n->type == T_CONS) {
            if (n->u.pair.car == sym) return &v->u.pair.car;
            n = n->u.pair.cdr;
            v = v->u.pair.cdr;
        }
    }
    if (sym->u.sym.value) return &sym->u.sym.value;
    return NULL;
}

static Obj *lookup(Obj *sym, Obj *env) {
    Obj **slot = lookup_slot(sym, env);
    if (!slot) lisp_error("unbound variable: %s", sym->u.sym.name);
    return *slot;
}

static void define_var(Obj *sym, Obj *value, Obj *env) {
    if (sym->type != T_SYM) lisp_error("define: not a symbol");
    if (env == NIL) {
        sym->u.sym.value = value;
        return;
    }
    for (Obj *n = env->u.env.names, *v = env->u.env.vals; n->type == T_CONS;
         n = n->u.pair.cdr, v = v->u.pair.cdr)
        if (n->u.pair.car == sym) {
            v->u.pair.car = value;
            return;
        }
    env->u.env.names = cons(sym, env->u.env.names);
    env->u.env.vals = cons(value, env->u.env.vals);
}

/* Binds a parameter list (proper, dotted or a single rest symbol). The
 * argument list is consumed and reused as the value list. */
static Obj *bind_params(Obj *params, Obj *args, Obj *parent, Obj *who) {
    const char *name = who && who->type == T_SYM ? who->u.sym.name : "lambda";
    Obj *p = params, *a = args;
    while (p->type == T_CONS) {
        if (a->type != T_CONS) lisp_error("%s: too few arguments", name);
        p = p->u.pair.cdr;
        a = a->u.pair.cdr;
    }
    if (p == NIL) {
        if (a != NIL) lisp_error("%s: too many arguments", name);
        return make_env(params, args, parent);
    }
    /* Rest parameter: build explicit name and value lists. */
    Obj *names = NIL, *vals = NIL;
    p = params;
    a = args;
    while (p->type == T_CONS) {
        names = cons(p->u.pair.car, names);
        vals = cons(a->u.pair.car, vals);
        p = p->u.pair.cdr;
        a = a->u.pair.cdr;
    }
    names = cons(p, names);
    vals = cons(a, vals);
    return make_env(names, vals, parent);
}

/* ------------------------------------------------------------------ */
/* Evaluator                                                           */
/* ------------------------------------------------------------------ */

#define MAX_EVAL_DEPTH 1000

static Obj *eval(Obj *x, Obj *env);
static Obj *apply_proc(Obj *f, Obj *args);

static Obj *eval_sequence_but_last(Obj *body, Obj *env) {
    if (body == NIL) return UNSPEC;
    while (body->type == T_CONS && body->u.pair.cdr != NIL) {
        eval(body->u.pair.car, env);
        body = body->u.pair.cdr;
    }
    if (body->type != T_CONS) lisp_error("malformed body");
    return body->u.pair.car;
}

static Obj *eval_args(Obj *args, Obj *env) {
    Obj *head = NIL, *tail = NIL;
    for (; args->type == T_CONS; args = args->u.pair.cdr) {
        Obj *cell = cons(eval(args->u.pair.car, env), NIL);
        if (head == NIL) head = cell;
        else tail->u.pair.cdr = cell;
        tail = cell;
    }
    if (args != NIL) lisp_error("malformed argument list");
    return head;
}

static int eqv(Obj *a, Obj *b) {
    if (a == b) return 1;
    if (a->type == T_INT && b->type == T_INT) return a->u.num == b->u.num;
    return 0;
}

static int equal(Obj *a, Obj *b) {
    for (;;) {
        if (eqv(a, b)) return 1;
        if (a->type != b->type) return 0;
        switch (a->type) {
        case T_STR:
            return a->u.str.len == b->u.str.len &&
                   memcmp(a->u.str.data, b->u.str.data, a->u.str.len) == 0;
        case T_VEC:
            if (a->u.vec.len != b->u.vec.len) return 0;
            for (size_t i = 0; i < a->u.vec.len; i++)
                if (!equal(a->u.vec.items[i], b->u.vec.items[i])) return 0;
            return 1;
        case T_CONS:
            if (!equal(a->u.pair.car, b->u.pair.car)) return 0;
            a = a->u.pair.cdr;
            b = b->u.pair.cdr;
            break;
        default:
            return 0;
        }
    }
}

/* Quasiquote expansion performed directly as evaluation. */
static Obj *quasi(Obj *x, Obj *env, int depth) {
    if (x->type == T_VEC) {
        Obj *lst = NIL;
        for (size_t i = x->u.vec.len; i > 0; i--) lst = cons(x->u.vec.items[i - 1], lst);
        Obj *r = quasi(lst, env, depth);
        long n = list_length(r);
        Obj *v = make_vector((size_t)n, NIL);
        for (long i = 0; i < n; i++, r = r->u.pair.cdr) v->u.vec.items[i] = r->u.pair.car;
        return v;
    }
    if (x->type != T_CONS) return x;
    Obj *head = x->u.pair.car;
    if (head == S_UNQUOTE) {
        if (depth == 1) return eval(cadr(x), env);
        return list2(S_UNQUOTE, quasi(cadr(x), env, depth - 1));
    }
    if (head == S_QUASIQUOTE) return list2(S_QUASIQUOTE, quasi(cadr(x), env, depth + 1));
    Obj *out = NIL, *tail = NIL;
    while (x->type == T_CONS) {
        Obj *item = x->u.pair.car;
        if (item == S_UNQUOTE && depth == 1) {
            /* dotted unquote: `(a . ,b) */
            Obj *rest = eval(cadr(x), env);
            if (out == NIL) return rest;
            tail->u.pair.cdr = rest;
            return out;
        }
        if (item->type == T_CONS && item->u.pair.car == S_UNQUOTE_SPLICING && depth == 1) {
            Obj *spliced = list_copy(eval(cadr(item), env));
            if (spliced != NIL) {
                if (out == NIL) out = spliced;
                else tail->u.pair.cdr = spliced;
                tail = spliced;
                while (tail->u.pair.cdr != NIL) tail = tail->u.pair.cdr;
            }
        } else {
            Obj *cell = cons(quasi(item, env, depth), NIL);
            if (out == NIL) out = cell;
            else tail->u.pair.cdr = cell;
            tail = cell;
        }
        x = x->u.pair.cdr;
    }
    if (x != NIL) {
        Obj *t = quasi(x, env, depth);
        if (out == NIL) return t;
        tail->u.pair.cdr = t;
    }
    return out;
}

static Obj *make_lambda(Obj *x, Obj *env, Obj *name) {
    if (x->type != T_CONS || x->u.pair.cdr->type != T_CONS) lisp_error("lambda: malformed");
    return make_closure(T_CLOSURE, x->u.pair.car, x->u.pair.cdr, env, name);
}

static Obj *eval_define(Obj *x, Obj *env) {
    Obj *target = cadr(x);
    if (target->type == T_CONS) {
        /* (define (name . params) body...) */
        Obj *name = target->u.pair.car;
        Obj *lambda_form = cons(target->u.pair.cdr, cddr(x));
        define_var(name, make_lambda(lambda_form, env, name), env);
        return name;
    }
    Obj *value = cddr(x) == NIL ? UNSPEC : eval(caddr(x), env);
    if ((value->type == T_CLOSURE) && value->u.clo.name == NULL) value->u.clo.name = target;
    define_var(target, value, env);
    return target;
}

static Obj *eval_define_macro(Obj *x, Obj *env) {
    Obj *target = cadr(x);
    if (target->type != T_CONS) lisp_error("define-macro: expected (name . params)");
    Obj *name = target->u.pair.car;
    Obj *m = make_closure(T_MACRO, target->u.pair.cdr, cddr(x), env, name);
    define_var(name, m, env);
    return name;
}

static Obj *eval_set(Obj *x, Obj *env) {
    Obj *sym = cadr(x);
    if (sym->type != T_SYM) lisp_error("set!: not a symbol");
    Obj **slot = lookup_slot(sym, env);
    if (!slot) lisp_error("set!: unbound variable %s", sym->u.sym.name);
    *slot = eval(caddr(x), env);
    return UNSPEC;
}

static Obj *eval_inner(Obj *x, Obj *env) {
tail:
    switch (x->type) {
    case T_SYM:
        return lookup(x, env);
    case T_CONS:
        break;
    default:
        return x; /* self-evaluating */
    }
    Obj *op = x->u.pair.car;
    Obj *rest = x->u.pair.cdr;
    if (op->type == T_SYM && op->u.sym.special != SF_NONE) {
        switch (op->u.sym.special) {
        case SF_QUOTE:
            return car(rest);
        case SF_QUASIQUOTE:
            return quasi(car(rest), env, 1);
        case SF_UNQUOTE:
        case SF_UNQUOTE_SPLICING:
            lisp_error("unquote outside quasiquote");
            break;
        case SF_IF: {
            Obj *test = eval(car(rest), env);
            if (is_true(test)) {
                x = cadr(rest);
            } else {
                if (cddr(rest) == NIL) return UNSPEC;
                x = caddr(rest);
            }
            goto tail;
        }
        case SF_DEFINE:
            return eval_define(x, env);
        case SF_DEFINE_MACRO:
            return eval_define_macro(x, env);
        case SF_SET:
            return eval_set(x, env);
        case SF_LAMBDA:
            return make_lambda(rest, env, NULL);
        case SF_BEGIN:
            if (rest == NIL) return UNSPEC;
            x = eval_sequence_but_last(rest, env);
            goto tail;
        case SF_LET: {
            Obj *bindings = car(rest);
            if (bindings->type == T_SYM) {
                /* named let: (let name ((v init) ...) body...) */
                Obj *name = bindings;
                bindings = cadr(rest);
                Obj *params = NIL, *ptail = NIL, *args = NIL, *atail = NIL;
                for (Obj *b = bindings; b->type == T_CONS; b = b->u.pair.cdr) {
                    Obj *pc = cons(car(b->u.pair.car), NIL);
                    Obj *ac = cons(eval(cadr(b->u.pair.car), env), NIL);
                    if (params == NIL) params = pc;
                    else ptail->u.pair.cdr = pc;
                    ptail = pc;
                    if (args == NIL) args = ac;
                    else atail->u.pair.cdr = ac;
                    atail = ac;
                }
                Obj *loop_env = make_env(NIL, NIL, env);
                Obj *proc = make_closure(T_CLOSURE, params, cddr(rest), loop_env, name);
                define_var(name, proc, loop_env);
                env = bind_params(params, args, loop_env, name);
                x = eval_sequence_but_last(cddr(rest), env);
                goto tail;
            }
            Obj *names = NIL, *ntail = NIL, *vals = NIL, *vtail = NIL;
            for (Obj *b = bindings; b->type == T_CONS; b = b->u.pair.cdr) {
                Obj *nc = cons(car(b->u.pair.car), NIL);
                Obj *vc = cons(eval(cadr(b->u.pair.car), env), NIL);
                if (names == NIL) names = nc;
                else ntail->u.pair.cdr = nc;
                ntail = nc;
                if (vals == NIL) vals = vc;
                else vtail->u.pair.cdr = vc;
                vtail = vc;
            }
            env = make_env(names, vals, env);
            x = eval_sequence_but_last(cdr(rest), env);
            goto tail;
        }
        case SF_LETSTAR: {
            Obj *frame = make_env(NIL, NIL, env);
            for (Obj *b = car(rest); b->type == T_CONS; b = b->u.pair.cdr) {
                Obj *v = eval(cadr(b->u.pair.car), frame);
                frame->u.env.names = cons(car(b->u.pair.car), frame->u.env.names);
                frame->u.env.vals = cons(v, frame->u.env.vals);
            }
            env = frame;
            x = eval_sequence_but_last(cdr(rest), env);
            goto tail;
        }
        case SF_LETREC: {
            Obj *frame = make_env(NIL, NIL, env);
            for (Obj *b = car(rest); b->type == T_CONS; b = b->u.pair.cdr)
                define_var(car(b->u.pair.car), UNSPEC, frame);
            for (Obj *b = car(rest); b->type == T_CONS; b = b->u.pair.cdr) {
                Obj *v = eval(cadr(b->u.pair.car), frame);
                if (v->type == T_CLOSURE && v->u.clo.name == NULL) v->u.clo.name = car(b->u.pair.car);
                define_var(car(b->u.pair.car), v, frame);
            }
            env = frame;
            x = eval_sequence_but_last(cdr(rest), env);
            goto tail;
        }
        case SF_COND:
            for (Obj *c = rest; c->type == T_CONS; c = c->u.pair.cdr) {
                Obj *clause = c->u.pair.car;
                Obj *test;
                if (car(clause) == S_ELSE) {
                    test = TRUE_V;
                } else {
                    test = eval(car(clause), env);
                }
                if (!is_true(test)) continue;
                Obj *body = cdr(clause);
                if (body == NIL) return test;
                if (car(body) == S_ARROW) {
                    Obj *f = eval(cadr(body), env);
                    return apply_proc(f, cons(test, NIL));
                }
                x = eval_sequence_but_last(body, env);
                goto tail;
            }
            return UNSPEC;
        case SF_CASE: {
            Obj *key = eval(car(rest), env);
            for (Obj *c = cdr(rest); c->type == T_CONS; c = c->u.pair.cdr) {
                Obj *clause = c->u.pair.car;
                int hit = car(clause) == S_ELSE;
                for (Obj *d = car(clause); !hit && d->type == T_CONS; d = d->u.pair.cdr)
                    if (eqv(d->u.pair.car, key)) hit = 1;
                if (hit) {
                    x = eval_sequence_but_last(cdr(clause), env);
                    goto tail;
                }
            }
            return UNSPEC;
        }
        case SF_AND:
            if (rest == NIL) return TRUE_V;
            while (rest->u.pair.cdr != NIL) {
                if (!is_true(eval(rest->u.pair.car, env))) return FALSE_V;
                rest = cdr(rest);
            }
            x = rest->u.pair.car;
            goto tail;
        case SF_OR:
            if (rest == NIL) return FALSE_V;
            while (rest->u.pair.cdr != NIL) {
                Obj *v = eval(rest->u.pair.car, env);
                if (is_true(v)) return v;
                rest = cdr(rest);
            }
            x = rest->u.pair.car;
            goto tail;
        case SF_WHEN:
        case SF_UNLESS: {
            int t = is_true(eval(car(rest), env));
            if (t != (op->u.sym.special == SF_WHEN)) return UNSPEC;
            if (cdr(rest) == NIL) return UNSPEC;
            x = eval_sequence_but_last(cdr(rest), env);
            goto tail;
        }
        case SF_WHILE:
            while (is_true(eval(car(rest), env)))
                for (Obj *b = cdr(rest); b->type == T_CONS; b = b->u.pair.cdr) eval(b->u.pair.car, env);
            return UNSPEC;
        case SF_DO: {
            /* (do ((var init step)...) (test result...) body...) */
            Obj *specs = car(rest), *exit_clause = cadr(rest), *body = cddr(rest);
            Obj *names = NIL, *vals = NIL;
            for (Obj *s = specs; s->type == T_CONS; s = s->u.pair.cdr) {
                names = cons(car(s->u.pair.car), names);
                vals = cons(eval(cadr(s->u.pair.car), env), vals);
            }
            Obj *frame = make_env(names, vals, env);
            for (;;) {
                if (is_true(eval(car(exit_clause), frame))) break;
                for (Obj *b = body; b->type == T_CONS; b = b->u.pair.cdr) eval(b->u.pair.car, frame);
                Obj *nvals = NIL;
                for (Obj *s = specs; s->type == T_CONS; s = s->u.pair.cdr) {
                    Obj *spec = s->u.pair.car;
                    Obj *step = cddr(spec) != NIL ? eval(caddr(spec), frame) : lookup(car(spec), frame);
                    nvals = cons(step, nvals);
                }
                frame = make_env(names, nvals, env);
            }
            if (cdr(exit_clause) == NIL) return UNSPEC;
            env = frame;
            x = eval_sequence_but_last(cdr(exit_clause), env);
            goto tail;
        }
        case SF_DELAY: {
            Obj *p = alloc_obj(T_PROMISE);
            p->u.promise.expr = car(rest);
            p->u.promise.env = env;
            p->u.promise.value = NULL;
            p->u.promise.forced = 0;
            return p;
        }
        case SF_ASSERT: {
            Obj *v = eval(car(rest), env);
            if (!is_true(v)) {
                StrBuf b = {0};
                print_obj(&b, car(rest), 1, 0);
                char msg[160];
                snprintf(msg, sizeof msg, "%.150s", b.data ? b.data : "");
                sb_free(&b);
                lisp_error("assertion failed: %s", msg);
            }
            return UNSPEC;
        }
        default:
            break;
        }
    }

    /* Application. */
    Obj *f = eval(op, env);
    if (f->type == T_MACRO) {
        Obj *expansion_env = bind_params(f->u.clo.params, list_copy(rest), f->u.clo.env, f->u.clo.name);
        Obj *last = eval_sequence_but_last(f->u.clo.body, expansion_env);
        x = eval(last, expansion_env);
        goto tail;
    }
    Obj *args = eval_args(rest, env);
    if (f->type == T_PRIM) {
        long n = list_length(args);
        if (n < f->u.prim.min_args || (f->u.prim.max_args >= 0 && n > f->u.prim.max_args))
            lisp_error("%s: wrong number of arguments (%ld)", f->u.prim.name, n);
        return f->u.prim.fn(args);
    }
    if (f->type == T_CLOSURE) {
        env = bind_params(f->u.clo.params, args, f->u.clo.env, f->u.clo.name);
        x = eval_sequence_but_last(f->u.clo.body, env);
        goto tail;
    }
    {
        StrBuf b = {0};
        print_obj(&b, op, 1, 0);
        char msg[120];
        snprintf(msg, sizeof msg, "%.100s", b.data ? b.data : "");
        sb_free(&b);
        lisp_error("not a procedure: %s", msg);
    }
    return UNSPEC;
}

static Obj *eval(Obj *x, Obj *env) {
    if (++eval_depth > MAX_EVAL_DEPTH) lisp_error("maximum recursion depth exceeded");
    Obj *r = eval_inner(x, env);
    eval_depth--;
    return r;
}

static Obj *apply_proc(Obj *f, Obj *args) {
    if (f->type == T_PRIM) {
        long n = list_length(args);
        if (n < f->u.prim.min_args || (f->u.prim.max_args >= 0 && n > f->u.prim.max_args))
            lisp_error("%s: wrong number of arguments (%ld)", f->u.prim.name, n);
        return f->u.prim.fn(args);
    }
    if (f->type == T_CLOSURE) {
        Obj *env = bind_params(f->u.clo.params, list_copy(args), f->u.clo.env, f->u.clo.name);
        Obj *last = eval_sequence_but_last(f->u.clo.body, env);
        return eval(last, env);
    }
    lisp_error("apply: not a procedure");
    return UNSPEC;
}

/* ------------------------------------------------------------------ */
/* Primitive helpers                                                   */
/* ------------------------------------------------------------------ */

static Obj *arg_n(Obj *args, int n) {
    while (n-- > 0) args = args->u.pair.cdr;
    return args->u.pair.car;
}

#define ARG0 (arg_n(args, 0))
#define ARG1 (arg_n(args, 1))
#define ARG2 (arg_n(args, 2))

static int64_t check_int(Obj *o, const char *who) {
    if (o->type != T_INT) lisp_error("%s: expected an integer", who);
    return o->u.num;
}

static Obj *check_type(Obj *o, int type, const char *who, const char *what) {
    if (o->type != type) lisp_error("%s: expected %s", who, what);
    return o;
}

static size_t check_index(Obj *o, size_t len, const char *who) {
    int64_t i = check_int(o, who);
    if (i < 0 || (uint64_t)i >= len) lisp_error("%s: index %lld out of range", who, (long long)i);
    return (size_t)i;
}

static int64_t wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t wrap_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static int64_t wrap_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

/* ------------------------------------------------------------------ */
/* Numeric primitives                                                  */
/* ------------------------------------------------------------------ */

static Obj *p_add(Obj *args) {
    int64_t s = 0;
    for (; args != NIL; args = args->u.pair.cdr) s = wrap_add(s, check_int(args->u.pair.car, "+"));
    return make_int(s);
}

static Obj *p_mul(Obj *args) {
    int64_t s = 1;
    for (; args != NIL; args = args->u.pair.cdr) s = wrap_mul(s, check_int(args->u.pair.car, "*"));
    return make_int(s);
}

static Obj *p_sub(Obj *args) {
    int64_t s = check_int(ARG0, "-");
    if (args->u.pair.cdr == NIL) return make_int(wrap_sub(0, s));
    for (args = args->u.pair.cdr; args != NIL; args = args->u.pair.cdr)
        s = wrap_sub(s, check_int(args->u.pair.car, "-"));
    return make_int(s);
}

static void check_divisor(int64_t a, int64_t b, const char *who) {
    if (b == 0) lisp_error("%s: division by zero", who);
    if (a == INT64_MIN && b == -1) lisp_error("%s: overflow", who);
}

static Obj *p_quotient(Obj *args) {
    int64_t a = check_int(ARG0, "quotient"), b = check_int(ARG1, "quotient");
    check_divisor(a, b, "quotient");
    return make_int(a / b);
}

static Obj *p_remainder(Obj *args) {
    int64_t a = check_int(ARG0, "remainder"), b = check_int(ARG1, "remainder");
    check_divisor(a, b, "remainder");
    return make_int(a % b);
}

static Obj *p_modulo(Obj *args) {
    int64_t a = check_int(ARG0, "modulo"), b = check_int(ARG1, "modulo");
    check_divisor(a, b, "modulo");
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return make_int(r);
}

static Obj *p_abs(Obj *args) {
    int64_t a = check_int(ARG0, "abs");
    return make_int(a < 0 ? wrap_sub(0, a) : a);
}

static Obj *p_min(Obj *args) {
    int64_t m = check_int(ARG0, "min");
    for (args = args->u.pair.cdr; args != NIL; args = args->u.pair.cdr) {
        int64_t v = check_int(args->u.pair.car, "min");
        if (v < m) m = v;
    }
    return make_int(m);
}

static Obj *p_max(Obj *args) {
    int64_t m = check_int(ARG0, "max");
    for (args = args->u.pair.cdr; args != NIL; args = args->u.pair.cdr) {
        int64_t v = check_int(args->u.pair.car, "max");
        if (v > m) m = v;
    }
    return make_int(m);
}

static uint64_t gcd_u64(uint64_t a, uint64_t b) {
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static uint64_t magnitude(int64_t v) { return v < 0 ? 0u - (uint64_t)v : (uint64_t)v; }

static Obj *p_gcd(Obj *args) {
    uint64_t g = 0;
    for (; args != NIL; args = args->u.pair.cdr) g = gcd_u64(g, magnitude(check_int(args->u.pair.car, "gcd")));
    return make_int((int64_t)g);
}

static Obj *p_lcm(Obj *args) {
    uint64_t l = 1;
    for (; args != NIL; args = args->u.pair.cdr) {
        uint64_t v = magnitude(check_int(args->u.pair.car, "lcm"));
        if (v == 0) return make_int(0);
        l = l / gcd_u64(l, v) * v;
    }
    return make_int((int64_t)l);
}

static Obj *p_expt(Obj *args) {
    int64_t base = check_int(ARG0, "expt"), e = check_int(ARG1, "expt");
    if (e < 0) lisp_error("expt: negative exponent");
    uint64_t r = 1, b = (uint64_t)base, k = (uint64_t)e;
    while (k) {
        if (k & 1u) r *= b;
        b *= b;
        k >>= 1;
    }
    return make_int((int64_t)r);
}

static Obj *p_isqrt(Obj *args) {
    int64_t n = check_int(ARG0, "isqrt");
    if (n < 0) lisp_error("isqrt: negative argument");
    uint64_t lo = 0, hi = 3037000499u; /* floor(sqrt(2^63 - 1)) */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        if (mid * mid <= (uint64_t)n) lo = mid;
        else hi = mid - 1;
    }
    return make_int((int64_t)lo);
}

typedef int (*CmpFn)(int64_t, int64_t);
static int cmp_eq(int64_t a, int64_t b) { return a == b; }
static int cmp_lt(int64_t a, int64_t b) { return a < b; }
static int cmp_gt(int64_t a, int64_t b) { return a > b; }
static int cmp_le(int64_t a, int64_t b) { return a <= b; }
static int cmp_ge(int64_t a, int64_t b) { return a >= b; }

static Obj *compare_chain(Obj *args, CmpFn fn, const char *who) {
    int64_t prev = check_int(ARG0, who);
    int ok = 1;
    for (args = args->u.pair.cdr; args != NIL; args = args->u.pair.cdr) {
        int64_t v = check_int(args->u.pair.car, who);
        if (!fn(prev, v)) ok = 0;
        prev = v;
    }
    return make_bool(ok);
}

static Obj *p_num_eq(Obj *args) { return compare_chain(args, cmp_eq, "="); }
static Obj *p_lt(Obj *args) { return compare_chain(args, cmp_lt, "<"); }
static Obj *p_gt(Obj *args) { return compare_chain(args, cmp_gt, ">"); }
static Obj *p_le(Obj *args) { return compare_chain(args, cmp_le, "<="); }
static Obj *p_ge(Obj *args) { return compare_chain(args, cmp_ge, ">="); }

static Obj *p_zero(Obj *args) { return make_bool(check_int(ARG0, "zero?") == 0); }
static Obj *p_positive(Obj *args) { return make_bool(check_int(ARG0, "positive?") > 0); }
static Obj *p_negative(Obj *args) { return make_bool(check_int(ARG0, "negative?") < 0); }
static Obj *p_even(Obj *args) { return make_bool(check_int(ARG0, "even?") % 2 == 0); }
static Obj *p_odd(Obj *args) { return make_bool(check_int(ARG0, "odd?") % 2 != 0); }
static Obj *p_inc(Obj *args) { return make_int(wrap_add(check_int(ARG0, "1+"), 1)); }
static Obj *p_dec(Obj *args) { return make_int(wrap_sub(check_int(ARG0, "1-"), 1)); }

static Obj *p_bit_and(Obj *args) {
    uint64_t r = ~(uint64_t)0;
    for (; args != NIL; args = args->u.pair.cdr) r &= (uint64_t)check_int(args->u.pair.car, "bit-and");
    return make_int((int64_t)r);
}

static Obj *p_bit_or(Obj *args) {
    uint64_t r = 0;
    for (; args != NIL; args = args->u.pair.cdr) r |= (uint64_t)check_int(args->u.pair.car, "bit-or");
    return make_int((int64_t)r);
}

static Obj *p_bit_xor(Obj *args) {
    uint64_t r = 0;
    for (; args != NIL; args = args->u.pair.cdr) r ^= (uint64_t)check_int(args->u.pair.car, "bit-xor");
    return make_int((int64_t)r);
}

/* (arithmetic-shift n k): left for k > 0, arithmetic right for k < 0. */
static Obj *p_ash(Obj *args) {
    int64_t n = check_int(ARG0, "arithmetic-shift"), k = check_int(ARG1, "arithmetic-shift");
    if (k >= 64) return make_int(0);
    if (k >= 0) return make_int((int64_t)((uint64_t)n << k));
    if (k <= -64) return make_int(n < 0 ? -1 : 0);
    uint64_t u = (uint64_t)n >> (-k);
    if (n < 0) u |= ~(~(uint64_t)0 >> (-k)); /* sign extension */
    return make_int((int64_t)u);
}

/* ------------------------------------------------------------------ */
/* Predicates and equality                                             */
/* ------------------------------------------------------------------ */

static Obj *p_not(Obj *args) { return make_bool(ARG0 == FALSE_V); }
static Obj *p_eq(Obj *args) {
    Obj *a = ARG0, *b = ARG1;
    /* Small integers are cached, so eq? on them behaves like eqv?. */
    return make_bool(a == b);
}
static Obj *p_eqv(Obj *args) { return make_bool(eqv(ARG0, ARG1)); }
static Obj *p_equal(Obj *args) { return make_bool(equal(ARG0, ARG1)); }
static Obj *p_null(Obj *args) { return make_bool(ARG0 == NIL); }
static Obj *p_pairp(Obj *args) { return make_bool(ARG0->type == T_CONS); }
static Obj *p_listp(Obj *args) { return make_bool(list_length(ARG0) >= 0); }
static Obj *p_symbolp(Obj *args) { return make_bool(ARG0->type == T_SYM); }
static Obj *p_stringp(Obj *args) { return make_bool(ARG0->type == T_STR); }
static Obj *p_numberp(Obj *args) { return make_bool(ARG0->type == T_INT); }
static Obj *p_vectorp(Obj *args) { return make_bool(ARG0->type == T_VEC); }
static Obj *p_booleanp(Obj *args) { return make_bool(ARG0 == TRUE_V || ARG0 == FALSE_V); }
static Obj *p_procedurep(Obj *args) {
    return make_bool(ARG0->type == T_PRIM || ARG0->type == T_CLOSURE);
}
static Obj *p_tablep(Obj *args) { return make_bool(ARG0->type == T_TABLE); }

/* ------------------------------------------------------------------ */
/* Pairs and lists                                                     */
/* ------------------------------------------------------------------ */

static Obj *p_cons(Obj *args) { return cons(ARG0, ARG1); }
static Obj *p_car(Obj *args) { return car(ARG0); }
static Obj *p_cdr(Obj *args) { return cdr(ARG0); }
static Obj *p_caar(Obj *args) { return car(car(ARG0)); }
static Obj *p_cadr(Obj *args) { return car(cdr(ARG0)); }
static Obj *p_cdar(Obj *args) { return cdr(car(ARG0)); }
static Obj *p_cddr(Obj *args) { return cdr(cdr(ARG0)); }
static Obj *p_caddr(Obj *args) { return car(cdr(cdr(ARG0))); }
static Obj *p_cdddr(Obj *args) { return cdr(cdr(cdr(ARG0))); }
static Obj *p_cadddr(Obj *args) { return car(cdr(cdr(cdr(ARG0)))); }

static Obj *p_set_car(Obj *args) {
    check_type(ARG0, T_CONS, "set-car!", "a pair")->u.pair.car = ARG1;
    return UNSPEC;
}

static Obj *p_set_cdr(Obj *args) {
    check_type(ARG0, T_CONS, "set-cdr!", "a pair")->u.pair.cdr = ARG1;
    return UNSPEC;
}

static Obj *p_list(Obj *args) { return list_copy(args); }

/* (list* a b ... tail) */
static Obj *p_list_star(Obj *args) {
    if (args->u.pair.cdr == NIL) return ARG0;
    Obj *head = NIL, *tail = NIL;
    for (; args->u.pair.cdr != NIL; args = args->u.pair.cdr) {
        Obj *c = cons(args->u.pair.car, NIL);
        if (head == NIL) head = c;
        else tail->u.pair.cdr = c;
        tail = c;
    }
    tail->u.pair.cdr = args->u.pair.car;
    return head;
}

static Obj *p_length(Obj *args) {
    long n = list_length(ARG0);
    if (n < 0) lisp_error("length: not a proper list");
    return make_int(n);
}

static Obj *p_append(Obj *args) {
    Obj *head = NIL, *tail = NIL;
    for (; args != NIL; args = args->u.pair.cdr) {
        Obj *lst = args->u.pair.car;
        if (args->u.pair.cdr == NIL) {
            if (head == NIL) return lst;
            tail->u.pair.cdr = lst;
            return head;
        }
        for (; lst->type == T_CONS; lst = lst->u.pair.cdr) {
            Obj *c = cons(lst->u.pair.car, NIL);
            if (head == NIL) head = c;
            else tail->u.pair.cdr = c;
            tail = c;
        }
        if (lst != NIL) lisp_error("append: improper list");
    }
    return head;
}

static Obj *p_reverse(Obj *args) {
    if (list_length(ARG0) < 0) lisp_error("reverse: not a proper list");
    return list_reverse(ARG0);
}

/* In-place reversal. */
static Obj *p_reverse_bang(Obj *args) {
    Obj *lst = ARG0, *prev = NIL;
    while (lst->type == T_CONS) {
        Obj *next = lst->u.pair.cdr;
        lst->u.pair.cdr = prev;
        prev = lst;
        lst = next;
    }
    return prev;
}

static Obj *p_list_tail(Obj *args) {
    Obj *lst = ARG0;
    for (int64_t k = check_int(ARG1, "list-tail"); k > 0; k--) lst = cdr(lst);
    return lst;
}

static Obj *p_list_ref(Obj *args) {
    Obj *lst = ARG0;
    for (int64_t k = check_int(ARG1, "list-ref"); k > 0; k--) lst = cdr(lst);
    return car(lst);
}

static Obj *p_list_copy(Obj *args) { return list_copy(ARG0); }

static Obj *p_last_pair(Obj *args) {
    Obj *lst = check_type(ARG0, T_CONS, "last-pair", "a pair");
    while (lst->u.pair.cdr->type == T_CONS) lst = lst->u.pair.cdr;
    return lst;
}

typedef int (*EqFn)(Obj *, Obj *);
static int eq_ptr(Obj *a, Obj *b) { return a == b; }

static Obj *member_generic(Obj *x, Obj *lst, EqFn same) {
    for (; lst->type == T_CONS; lst = lst->u.pair.cdr)
        if (same(x, lst->u.pair.car)) return lst;
    return FALSE_V;
}

static Obj *assoc_generic(Obj *x, Obj *lst, EqFn same) {
    for (; lst->type == T_CONS; lst = lst->u.pair.cdr) {
        Obj *entry = lst->u.pair.car;
        if (entry->type == T_CONS && same(x, entry->u.pair.car)) return entry;
    }
    return FALSE_V;
}

static Obj *p_memq(Obj *args) { return member_generic(ARG0, ARG1, eq_ptr); }
static Obj *p_memv(Obj *args) { return member_generic(ARG0, ARG1, eqv); }
static Obj *p_member(Obj *args) { return member_generic(ARG0, ARG1, equal); }
static Obj *p_assq(Obj *args) { return assoc_generic(ARG0, ARG1, eq_ptr); }
static Obj *p_assv(Obj *args) { return assoc_generic(ARG0, ARG1, eqv); }
static Obj *p_assoc(Obj *args) { return assoc_generic(ARG0, ARG1, equal); }

/* ------------------------------------------------------------------ */
/* Symbols and strings (characters are integer codes)                  */
/* ------------------------------------------------------------------ */

static Obj *p_symbol_to_string(Obj *args) {
    return make_string(check_type(ARG0, T_SYM, "symbol->string", "a symbol")->u.sym.name);
}

static Obj *p_string_to_symbol(Obj *args) {
    Obj *s = check_type(ARG0, T_STR, "string->symbol", "a string");
    return intern_len(s->u.str.data, s->u.str.len);
}

static Obj *p_gensym(Obj *args) {
    (void)args;
    char name[32];
    snprintf(name, sizeof name, " g%lu", ++gensym_counter);
    return intern(name);
}

static Obj *p_string_length(Obj *args) {
    return make_int((int64_t)check_type(ARG0, T_STR, "string-length", "a string")->u.str.len);
}

static Obj *p_string_ref(Obj *args) {
    Obj *s = check_type(ARG0, T_STR, "string-ref", "a string");
    return make_int((unsigned char)s->u.str.data[check_index(ARG1, s->u.str.len, "string-ref")]);
}

static Obj *p_substring(Obj *args) {
    Obj *s = check_type(ARG0, T_STR, "substring", "a string");
    int64_t start = check_int(ARG1, "substring");
    int64_t end = args->u.pair.cdr->u.pair.cdr != NIL ? check_int(ARG2, "substring") : (int64_t)s->u.str.len;
    if (start < 0 || end < start || (uint64_t)end > s->u.str.len) lisp_error("substring: bad range");
    return make_string_len(s->u.str.data + start, (size_t)(end - start));
}

static Obj *p_string_append(Obj *args) {
    StrBuf b = {0};
    for (; args != NIL; args = args->u.pair.cdr) {
        Obj *s = check_type(args->u.pair.car, T_STR, "string-append", "a string");
        sb_putn(&b, s->u.str.data, s->u.str.len);
    }
    Obj *r = make_string_len(b.data ? b.data : "", b.len);
    sb_free(&b);
    return r;
}

static int string_compare(Obj *a, Obj *b, const char *who) {
    check_type(a, T_STR, who, "a string");
    check_type(b, T_STR, who, "a string");
    size_t n = a->u.str.len < b->u.str.len ? a->u.str.len : b->u.str.len;
    int c = memcmp(a->u.str.data, b->u.str.data, n);
    if (c) return c < 0 ? -1 : 1;
    return a->u.str.len < b->u.str.len ? -1 : a->u.str.len > b->u.str.len;
}

static Obj *p_string_eq(Obj *args) { return make_bool(string_compare(ARG0, ARG1, "string=?") == 0); }
static Obj *p_string_lt(Obj *args) { return make_bool(string_compare(ARG0, ARG1, "string<?") < 0); }

static Obj *p_string_copy(Obj *args) {
    Obj *s = check_type(ARG0, T_STR, "string-copy", "a string");
    return make_string_len(s->u.str.data, s->u.str.len);
}

static Obj *p_number_to_string(Obj *args) {
    int64_t v = check_int(ARG0, "number->string");
    int64_t radix = args->u.pair.cdr != NIL ? check_int(ARG1, "number->string") : 10;
    if (radix < 2 || radix > 36) lisp_error("number->string: bad radix");
    char buf[80];
    format_int(buf, sizeof buf, v, (int)radix);
    return make_string(buf);
}

static Obj *p_string_to_number(Obj *args) {
    Obj *s = check_type(ARG0, T_STR, "string->number", "a string");
    int64_t v;
    if (!parse_integer(s->u.str.data, s->u.str.len, &v)) return FALSE_V;
    return make_int(v);
}

static Obj *p_string_to_list(Obj *args) {
    Obj *s = check_type(ARG0, T_STR, "string->list", "a string");
    Obj *r = NIL;
    for (size_t i = s->u.str.len; i > 0; i--) r = cons(make_int((unsigned char)s->u.str.data[i - 1]), r);
    return r;
}

static Obj *p_list_to_string(Obj *args) {
    StrBuf b = {0};
    for (Obj *l = ARG0; l->type == T_CONS; l = l->u.pair.cdr) {
        int64_t c = check_int(l->u.pair.car, "list->string");
        if (c < 0 || c > 255) lisp_error("list->string: bad character code");
        sb_putc(&b, (char)c);
    }
    Obj *r = make_string_len(b.data ? b.data : "", b.len);
    sb_free(&b);
    return r;
}

static Obj *p_make_string(Obj *args) {
    int64_t n = check_int(ARG0, "make-string");
    int64_t c = args->u.pair.cdr != NIL ? check_int(ARG1, "make-string") : ' ';
    if (n < 0 || n > 1000000 || c < 0 || c > 255) lisp_error("make-string: bad arguments");
    Obj *s = make_string_len("", 0);
    free(s->u.str.data);
    s->u.str.data = xmalloc((size_t)n + 1);
    memset(s->u.str.data, (int)c, (size_t)n);
    s->u.str.data[n] = '\0';
    s->u.str.len = (size_t)n;
    return s;
}

static Obj *string_map_case(Obj *args, int upper, const char *who) {
    Obj *s = check_type(ARG0, T_STR, who, "a string");
    Obj *r = make_string_len(s->u.str.data, s->u.str.len);
    for (size_t i = 0; i < r->u.str.len; i++) {
        char c = r->u.str.data[i];
        if (upper && c >= 'a' && c <= 'z') r->u.str.data[i] = (char)(c - 'a' + 'A');
        if (!upper && c >= 'A' && c <= 'Z') r->u.str.data[i] = (char)(c - 'A' + 'a');
    }
    return r;
}

static Obj *p_string_upcase(Obj *args) { return string_map_case(args, 1, "string-upcase"); }
static Obj *p_string_downcase(Obj *args) { return string_map_case(args, 0, "string-downcase"); }

/* (string-index str ch) -> first index or #f */
static Obj *p_string_index(Obj *args) {
    Obj *s = check_type(ARG0, T_STR, "string-index", "a string");
    int64_t c = check_int(ARG1, "string-index");
    for (size_t i = 0; i < s->u.str.len; i++)
        if ((unsigned char)s->u.str.data[i] == c) return make_int((int64_t)i);
    return FALSE_V;
}

/* (string-split str ch) -> list of substrings */
static Obj *p_string_split(Obj *args) {
    Obj *s = check_type(ARG0, T_STR, "string-split", "a string");
    int64_t c = check_int(ARG1, "string-split");
    Obj *parts = NIL;
    size_t start = 0;
    for (size_t i = 0; i <= s->u.str.len; i++)
        if (i == s->u.str.len || (unsigned char)s->u.str.data[i] == c) {
            parts = cons(make_string_len(s->u.str.data + start, i - start), parts);
            start = i + 1;
        }
    return list_reverse(parts);
}

static Obj *p_char_upcase(Obj *args) {
    int64_t c = check_int(ARG0, "char-upcase");
    return make_int(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
}

static Obj *p_char_alphabetic(Obj *args) {
    int64_t c = check_int(ARG0, "char-alphabetic?");
    return make_bool((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

static Obj *p_char_numeric(Obj *args) {
    int64_t c = check_int(ARG0, "char-numeric?");
    return make_bool(c >= '0' && c <= '9');
}

/* ------------------------------------------------------------------ */
/* Vectors                                                             */
/* ------------------------------------------------------------------ */

static Obj *p_make_vector(Obj *args) {
    int64_t n = check_int(ARG0, "make-vector");
    if (n < 0 || n > 10000000) lisp_error("make-vector: bad length");
    return make_vector((size_t)n, args->u.pair.cdr != NIL ? ARG1 : make_int(0));
}

static Obj *p_vector(Obj *args) {
    long n = list_length(args);
    Obj *v = make_vector((size_t)n, NIL);
    for (long i = 0; i < n; i++, args = args->u.pair.cdr) v->u.vec.items[i] = args->u.pair.car;
    return v;
}

static Obj *p_vector_ref(Obj *args) {
    Obj *v = check_type(ARG0, T_VEC, "vector-ref", "a vector");
    return v->u.vec.items[check_index(ARG1, v->u.vec.len, "vector-ref")];
}

static Obj *p_vector_set(Obj *args) {
    Obj *v = check_type(ARG0, T_VEC, "vector-set!", "a vector");
    v->u.vec.items[check_index(ARG1, v->u.vec.len, "vector-set!")] = ARG2;
    return UNSPEC;
}

static Obj *p_vector_length(Obj *args) {
    return make_int((int64_t)check_type(ARG0, T_VEC, "vector-length", "a vector")->u.vec.len);
}

static Obj *p_vector_to_list(Obj *args) {
    Obj *v = check_type(ARG0, T_VEC, "vector->list", "a vector");
    Obj *r = NIL;
    for (size_t i = v->u.vec.len; i > 0; i--) r = cons(v->u.vec.items[i - 1], r);
    return r;
}

static Obj *p_list_to_vector(Obj *args) {
    long n = list_length(ARG0);
    if (n < 0) lisp_error("list->vector: not a proper list");
    return p_vector(ARG0);
}

static Obj *p_vector_fill(Obj *args) {
    Obj *v = check_type(ARG0, T_VEC, "vector-fill!", "a vector");
    for (size_t i = 0; i < v->u.vec.len; i++) v->u.vec.items[i] = ARG1;
    return UNSPEC;
}

static Obj *p_vector_copy(Obj *args) {
    Obj *v = check_type(ARG0, T_VEC, "vector-copy", "a vector");
    Obj *r = make_vector(v->u.vec.len, NIL);
    for (size_t i = 0; i < v->u.vec.len; i++) r->u.vec.items[i] = v->u.vec.items[i];
    return r;
}

static Obj *p_vector_swap(Obj *args) {
    Obj *v = check_type(ARG0, T_VEC, "vector-swap!", "a vector");
    size_t i = check_index(ARG1, v->u.vec.len, "vector-swap!");
    size_t j = check_index(ARG2, v->u.vec.len, "vector-swap!");
    Obj *t = v->u.vec.items[i];
    v->u.vec.items[i] = v->u.vec.items[j];
    v->u.vec.items[j] = t;
    return UNSPEC;
}

/* Stable merge sort of a vector with a Lisp comparison procedure. The
 * scratch space is itself a vector so that nothing leaks on an error. */
static void merge_sort_range(Obj **a, Obj **tmp, size_t lo, size_t hi, Obj *less) {
    if (hi - lo < 2) return;
    size_t mid = lo + (hi - lo) / 2;
    merge_sort_range(a, tmp, lo, mid, less);
    merge_sort_range(a, tmp, mid, hi, less);
    size_t i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        if (is_true(apply_proc(less, list2(a[j], a[i])))) tmp[k++] = a[j++];
        else tmp[k++] = a[i++];
    }
    while (i < mid) tmp[k++] = a[i++];
    while (j < hi) tmp[k++] = a[j++];
    for (k = lo; k < hi; k++) a[k] = tmp[k];
}

static Obj *p_sort_bang(Obj *args) {
    Obj *v = check_type(ARG0, T_VEC, "sort!", "a vector");
    Obj *scratch = make_vector(v->u.vec.len, NIL);
    merge_sort_range(v->u.vec.items, scratch->u.vec.items, 0, v->u.vec.len, ARG1);
    return v;
}

/* ------------------------------------------------------------------ */
/* Hash tables keyed by equal?                                         */
/* ------------------------------------------------------------------ */

static uint32_t mix32(uint32_t h) {
    h ^= h >> 16;
    h *= 0x7FEB352Du;
    h ^= h >> 15;
    h *= 0x846CA68Bu;
    h ^= h >> 16;
    return h;
}

/* Hashes by value (never by address) so that iteration order is fixed. */
static uint32_t hash_obj(Obj *o, int depth) {
    if (depth > 8) return 17u;
    switch (o->type) {
    case T_INT: {
        uint64_t v = (uint64_t)o->u.num;
        return mix32((uint32_t)v ^ (uint32_t)(v >> 32) * 0x9E3779B9u);
    }
    case T_SYM: return mix32(o->u.sym.hash ^ 0x5BD1E995u);
    case T_STR: return hash_bytes(o->u.str.data, o->u.str.len);
    case T_CONS: {
        uint32_t h = 0x12345u;
        int n = 0;
        for (; o->type == T_CONS && n < 16; o = o->u.pair.cdr, n++)
            h = mix32(h * 31u + hash_obj(o->u.pair.car, depth + 1));
        return h;
    }
    case T_VEC: {
        uint32_t h = 0x6789u;
        for (size_t i = 0; i < o->u.vec.len && i < 16; i++)
            h = mix32(h * 31u + hash_obj(o->u.vec.items[i], depth + 1));
        return h;
    }
    default: return (uint32_t)o->type * 2654435761u;
    }
}

static Obj *table_find(Obj *t, Obj *key, size_t *bucket) {
    *bucket = hash_obj(key, 0) % t->u.table.nbuckets;
    for (Obj *l = t->u.table.buckets[*bucket]; l != NIL; l = l->u.pair.cdr)
        if (equal(l->u.pair.car->u.pair.car, key)) return l->u.pair.car;
    return NULL;
}

static void table_grow(Obj *t) {
    size_t n = t->u.table.nbuckets * 2;
    Obj **nb = xmalloc(sizeof(Obj *) * n);
    for (size_t i = 0; i < n; i++) nb[i] = NIL;
    for (size_t i = 0; i < t->u.table.nbuckets; i++) {
        /* Reverse each old chain while moving so relative order is kept. */
        Obj *chain = list_reverse(t->u.table.buckets[i]);
        for (; chain != NIL; chain = chain->u.pair.cdr) {
            Obj *entry = chain->u.pair.car;
            size_t b = hash_obj(entry->u.pair.car, 0) % n;
            nb[b] = cons(entry, nb[b]);
        }
    }
    free(t->u.table.buckets);
    t->u.table.buckets = nb;
    t->u.table.nbuckets = n;
}

static void table_put(Obj *t, Obj *key, Obj *value) {
    size_t b;
    Obj *entry = table_find(t, key, &b);
    if (entry) {
        entry->u.pair.cdr = value;
        return;
    }
    t->u.table.buckets[b] = cons(cons(key, value), t->u.table.buckets[b]);
    t->u.table.count++;
    if (t->u.table.count > 2 * t->u.table.nbuckets) table_grow(t);
}

static Obj *p_make_table(Obj *args) {
    (void)args;
    return make_table(16);
}

static Obj *p_table_set(Obj *args) {
    table_put(check_type(ARG0, T_TABLE, "table-set!", "a table"), ARG1, ARG2);
    return UNSPEC;
}

static Obj *p_table_ref(Obj *args) {
    size_t b;
    Obj *entry = table_find(check_type(ARG0, T_TABLE, "table-ref", "a table"), ARG1, &b);
    if (entry) return entry->u.pair.cdr;
    if (args->u.pair.cdr->u.pair.cdr != NIL) return ARG2;
    lisp_error("table-ref: key not found");
    return UNSPEC;
}

/* (table-update! table key proc default) */
static Obj *p_table_update(Obj *args) {
    Obj *t = check_type(ARG0, T_TABLE, "table-update!", "a table");
    size_t b;
    Obj *entry = table_find(t, ARG1, &b);
    Obj *old = entry ? entry->u.pair.cdr : arg_n(args, 3);
    Obj *nv = apply_proc(ARG2, cons(old, NIL));
    table_put(t, ARG1, nv);
    return nv;
}

static Obj *p_table_delete(Obj *args) {
    Obj *t = check_type(ARG0, T_TABLE, "table-delete!", "a table");
    size_t b;
    Obj *entry = table_find(t, ARG1, &b);
    if (!entry) return FALSE_V;
    Obj **link = &t->u.table.buckets[b];
    while ((*link)->u.pair.car != entry) link = &(*link)->u.pair.cdr;
    *link = (*link)->u.pair.cdr;
    t->u.table.count--;
    return TRUE_V;
}

static Obj *p_table_count(Obj *args) {
    return make_int((int64_t)check_type(ARG0, T_TABLE, "table-count", "a table")->u.table.count);
}

static Obj *p_table_to_alist(Obj *args) {
    Obj *t = check_type(ARG0, T_TABLE, "table->alist", "a table");
    Obj *r = NIL;
    for (size_t i = t->u.table.nbuckets; i > 0; i--)
        for (Obj *l = t->u.table.buckets[i - 1]; l != NIL; l = l->u.pair.cdr)
            r = cons(cons(l->u.pair.car->u.pair.car, l->u.pair.car->u.pair.cdr), r);
    return r;
}

static Obj *p_table_keys(Obj *args) {
    Obj *r = NIL;
    for (Obj *l = p_table_to_alist(args); l != NIL; l = l->u.pair.cdr) r = cons(l->u.pair.car->u.pair.car, r);
    return list_reverse(r);
}

/* ------------------------------------------------------------------ */
/* Control                                                             */
/* ------------------------------------------------------------------ */

/* (apply f a b ... lst) */
static Obj *p_apply(Obj *args) {
    Obj *f = ARG0;
    Obj *rest = args->u.pair.cdr;
    Obj *spread;
    if (rest == NIL) {
        spread = NIL;
    } else {
        spread = p_list_star(rest);
        if (list_length(spread) < 0) lisp_error("apply: last argument must be a list");
    }
    return apply_proc(f, spread);
}

static Obj *p_force(Obj *args) {
    Obj *p = ARG0;
    if (p->type != T_PROMISE) return p;
    if (!p->u.promise.forced) {
        Obj *v = eval(p->u.promise.expr, p->u.promise.env);
        if (!p->u.promise.forced) {
            p->u.promise.value = v;
            p->u.promise.forced = 1;
            p->u.promise.expr = NULL;
            p->u.promise.env = NULL;
        }
    }
    return p->u.promise.value;
}

static Obj *p_error(Obj *args) {
    StrBuf b = {0};
    Obj *msg = ARG0;
    if (msg->type == T_STR) sb_putn(&b, msg->u.str.data, msg->u.str.len);
    else print_obj(&b, msg, 1, 0);
    for (args = args->u.pair.cdr; args != NIL; args = args->u.pair.cdr) {
        sb_putc(&b, ' ');
        print_obj(&b, args->u.pair.car, 1, 0);
    }
    char text[200];
    snprintf(text, sizeof text, "%.190s", b.data ? b.data : "");
    sb_free(&b);
    lisp_error("%s", text);
    return UNSPEC;
}

/* (guard-error thunk) -> the thunk's value, or (error "message"). */
static Obj *p_guard_error(Obj *args) {
    Obj *thunk = ARG0;
    jmp_buf *saved_handler = error_handler;
    int saved_depth = eval_depth;
    jmp_buf here;
    error_handler = &here;
    if (setjmp(here) == 0) {
        Obj *r = apply_proc(thunk, NIL);
        error_handler = saved_handler;
        return r;
    }
    error_handler = saved_handler;
    eval_depth = saved_depth;
    return list2(S_ERROR, make_string(error_message));
}

static Obj *p_eval(Obj *args) { return eval(ARG0, NIL); }

static Obj *p_read_from_string(Obj *args) {
    Obj *s = check_type(ARG0, T_STR, "read-from-string", "a string");
    Reader r = {s->u.str.data, 0, s->u.str.len, 1};
    Obj *x = read_form(&r);
    return x == EOF_V ? FALSE_V : x;
}

static Obj *p_void(Obj *args) {
    (void)args;
    return UNSPEC;
}

static Obj *p_heap_info(Obj *args) {
    (void)args;
    Obj *collections = make_int((int64_t)gc_count);
    return cons(make_int((int64_t)symbol_count), cons(collections, NIL));
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static Obj *p_display(Obj *args) {
    emit_obj(ARG0, 0);
    return UNSPEC;
}

static Obj *p_write(Obj *args) {
    emit_obj(ARG0, 1);
    return UNSPEC;
}

static Obj *p_newline(Obj *args) {
    (void)args;
    emit_text("\n", 1);
    return UNSPEC;
}

/* (write-to-string x) */
static Obj *p_write_to_string(Obj *args) {
    StrBuf b = {0};
    print_obj(&b, ARG0, 1, 0);
    Obj *r = make_string_len(b.data ? b.data : "", b.len);
    sb_free(&b);
    return r;
}

/* ------------------------------------------------------------------ */
/* Registration                                                        */
/* ------------------------------------------------------------------ */

typedef struct {
    const char *name;
    PrimFn fn;
    int min_args, max_args;
} PrimSpec;

static const PrimSpec PRIMITIVES[] = {
    {"+", p_add, 0, -1},
    {"-", p_sub, 1, -1},
    {"*", p_mul, 0, -1},
    {"quotient", p_quotient, 2, 2},
    {"remainder", p_remainder, 2, 2},
    {"modulo", p_modulo, 2, 2},
    {"abs", p_abs, 1, 1},
    {"min", p_min, 1, -1},
    {"max", p_max, 1, -1},
    {"gcd", p_gcd, 0, -1},
    {"lcm", p_lcm, 0, -1},
    {"expt", p_expt, 2, 2},
    {"isqrt", p_isqrt, 1, 1},
    {"=", p_num_eq, 1, -1},
    {"<", p_lt, 1, -1},
    {">", p_gt, 1, -1},
    {"<=", p_le, 1, -1},
    {">=", p_ge, 1, -1},
    {"zero?", p_zero, 1, 1},
    {"positive?", p_positive, 1, 1},
    {"negative?", p_negative, 1, 1},
    {"even?", p_even, 1, 1},
    {"odd?", p_odd, 1, 1},
    {"1+", p_inc, 1, 1},
    {"1-", p_dec, 1, 1},
    {"bit-and", p_bit_and, 0, -1},
    {"bit-or", p_bit_or, 0, -1},
    {"bit-xor", p_bit_xor, 0, -1},
    {"arithmetic-shift", p_ash, 2, 2},
    {"not", p_not, 1, 1},
    {"eq?", p_eq, 2, 2},
    {"eqv?", p_eqv, 2, 2},
    {"equal?", p_equal, 2, 2},
    {"null?", p_null, 1, 1},
    {"pair?", p_pairp, 1, 1},
    {"list?", p_listp, 1, 1},
    {"symbol?", p_symbolp, 1, 1},
    {"string?", p_stringp, 1, 1},
    {"number?", p_numberp, 1, 1},
    {"integer?", p_numberp, 1, 1},
    {"vector?", p_vectorp, 1, 1},
    {"boolean?", p_booleanp, 1, 1},
    {"procedure?", p_procedurep, 1, 1},
    {"table?", p_tablep, 1, 1},
    {"cons", p_cons, 2, 2},
    {"car", p_car, 1, 1},
    {"cdr", p_cdr, 1, 1},
    {"caar", p_caar, 1, 1},
    {"cadr", p_cadr, 1, 1},
    {"cdar", p_cdar, 1, 1},
    {"cddr", p_cddr, 1, 1},
    {"caddr", p_caddr, 1, 1},
    {"cdddr", p_cdddr, 1, 1},
    {"cadddr", p_cadddr, 1, 1},
    {"set-car!", p_set_car, 2, 2},
    {"set-cdr!", p_set_cdr, 2, 2},
    {"list", p_list, 0, -1},
    {"list*", p_list_star, 1, -1},
    {"length", p_length, 1, 1},
    {"append", p_append, 0, -1},
    {"reverse", p_reverse, 1, 1},
    {"reverse!", p_reverse_bang, 1, 1},
    {"list-tail", p_list_tail, 2, 2},
    {"list-ref", p_list_ref, 2, 2},
    {"list-copy", p_list_copy, 1, 1},
    {"last-pair", p_last_pair, 1, 1},
    {"memq", p_memq, 2, 2},
    {"memv", p_memv, 2, 2},
    {"member", p_member, 2, 2},
    {"assq", p_assq, 2, 2},
    {"assv", p_assv, 2, 2},
    {"assoc", p_assoc, 2, 2},
    {"symbol->string", p_symbol_to_string, 1, 1},
    {"string->symbol", p_string_to_symbol, 1, 1},
    {"gensym", p_gensym, 0, 0},
    {"string-length", p_string_length, 1, 1},
    {"string-ref", p_string_ref, 2, 2},
    {"substring", p_substring, 2, 3},
    {"string-append", p_string_append, 0, -1},
    {"string=?", p_string_eq, 2, 2},
    {"string<?", p_string_lt, 2, 2},
    {"string-copy", p_string_copy, 1, 1},
    {"number->string", p_number_to_string, 1, 2},
    {"string->number", p_string_to_number, 1, 1},
    {"string->list", p_string_to_list, 1, 1},
    {"list->string", p_list_to_string, 1, 1},
    {"make-string", p_make_string, 1, 2},
    {"string-upcase", p_string_upcase, 1, 1},
    {"string-downcase", p_string_downcase, 1, 1},
    {"string-index", p_string_index, 2, 2},
    {"string-split", p_string_split, 2, 2},
    {"char-upcase", p_char_upcase, 1, 1},
    {"char-alphabetic?", p_char_alphabetic, 1, 1},
    {"char-numeric?", p_char_numeric, 1, 1},
    {"make-vector", p_make_vector, 1, 2},
    {"vector", p_vector, 0, -1},
    {"vector-ref", p_vector_ref, 2, 2},
    {"vector-set!", p_vector_set, 3, 3},
    {"vector-length", p_vector_length, 1, 1},
    {"vector->list", p_vector_to_list, 1, 1},
    {"list->vector", p_list_to_vector, 1, 1},
    {"vector-fill!", p_vector_fill, 2, 2},
    {"vector-copy", p_vector_copy, 1, 1},
    {"vector-swap!", p_vector_swap, 3, 3},
    {"sort!", p_sort_bang, 2, 2},
    {"make-table", p_make_table, 0, 0},
    {"table-set!", p_table_set, 3, 3},
    {"table-ref", p_table_ref, 2, 3},
    {"table-update!", p_table_update, 4, 4},
    {"table-delete!", p_table_delete, 2, 2},
    {"table-count", p_table_count, 1, 1},
    {"table->alist", p_table_to_alist, 1, 1},
    {"table-keys", p_table_keys, 1, 1},
    {"apply", p_apply, 1, -1},
    {"force", p_force, 1, 1},
    {"error", p_error, 1, -1},
    {"guard-error", p_guard_error, 1, 1},
    {"eval", p_eval, 1, 1},
    {"read-from-string", p_read_from_string, 1, 1},
    {"void", p_void, 0, -1},
    {"heap-info", p_heap_info, 0, 0},
    {"display", p_display, 1, 1},
    {"write", p_write, 1, 1},
    {"newline", p_newline, 0, 0},
    {"write-to-string", p_write_to_string, 1, 1},
};

static const struct {
    const char *name;
    int id;
} SPECIAL_FORMS[] = {
    {"quote", SF_QUOTE},       {"quasiquote", SF_QUASIQUOTE},
    {"unquote", SF_UNQUOTE},   {"unquote-splicing", SF_UNQUOTE_SPLICING},
    {"if", SF_IF},             {"define", SF_DEFINE},
    {"set!", SF_SET},          {"lambda", SF_LAMBDA},
    {"begin", SF_BEGIN},       {"let", SF_LET},
    {"let*", SF_LETSTAR},      {"letrec", SF_LETREC},
    {"cond", SF_COND},         {"case", SF_CASE},
    {"and", SF_AND},           {"or", SF_OR},
    {"when", SF_WHEN},         {"unless", SF_UNLESS},
    {"do", SF_DO},             {"while", SF_WHILE},
    {"define-macro", SF_DEFINE_MACRO}, {"delay", SF_DELAY},
    {"assert", SF_ASSERT},
};

static void init_interpreter(void) {
    for (int i = 0; i < 272; i++) {
        Obj *o = alloc_obj(T_INT);
        o->u.num = i - 16;
        small_ints[i] = o;
    }
    for (size_t i = 0; i < sizeof(SPECIAL_FORMS) / sizeof(SPECIAL_FORMS[0]); i++)
        intern(SPECIAL_FORMS[i].name)->u.sym.special = SPECIAL_FORMS[i].id;
    S_QUOTE = intern("quote");
    S_QUASIQUOTE = intern("quasiquote");
    S_UNQUOTE = intern("unquote");
    S_UNQUOTE_SPLICING = intern("unquote-splicing");
    S_ELSE = intern("else");
    S_ARROW = intern("=>");
    S_ERROR = intern("error");
    for (size_t i = 0; i < sizeof(PRIMITIVES) / sizeof(PRIMITIVES[0]); i++) {
        Obj *p = alloc_obj(T_PRIM);
        p->u.prim.fn = PRIMITIVES[i].fn;
        p->u.prim.name = PRIMITIVES[i].name;
        p->u.prim.min_args = PRIMITIVES[i].min_args;
        p->u.prim.max_args = PRIMITIVES[i].max_args;
        intern(PRIMITIVES[i].name)->u.sym.value = p;
    }
}

/* Reads and evaluates every top-level form of a source text. */
static long run_source(const char *src) {
    Reader r = {src, 0, strlen(src), 1};
    long forms = 0;
    for (;;) {
        Obj *form = read_form(&r);
        if (form == EOF_V) break;
        eval(form, NIL);
        forms++;
        maybe_collect();
    }
    return forms;
}

/* ------------------------------------------------------------------ */
/* Prelude: library procedures and macros written in Lisp              */
/* ------------------------------------------------------------------ */

static const char *PRELUDE[] = {
    "(define (map1 f lst)\n"
    "  (let loop ((l lst) (acc '()))\n"
    "    (if (pair? l) (loop (cdr l) (cons (f (car l)) acc)) (reverse! acc))))\n"
    "(define (any pred lst) (and (pair? lst) (or (pred (car lst)) (any pred (cdr lst)))))\n"
    "(define (every pred lst) (or (null? lst) (and (pred (car lst)) (every pred (cdr lst)))))\n"
    "(define (map f lst . more)\n"
    "  (if (null? more)\n"
    "      (map1 f lst)\n"
    "      (let loop ((ls (cons lst more)) (acc '()))\n"
    "        (if (any null? ls)\n"
    "            (reverse! acc)\n"
    "            (loop (map1 cdr ls) (cons (apply f (map1 car ls)) acc))))))\n"
    "(define (for-each f lst)\n"
    "  (let loop ((l lst)) (when (pair? l) (f (car l)) (loop (cdr l)))))\n"
    "(define (filter keep? lst)\n"
    "  (let loop ((l lst) (acc '()))\n"
    "    (cond ((null? l) (reverse! acc))\n"
    "          ((keep? (car l)) (loop (cdr l) (cons (car l) acc)))\n"
    "          (else (loop (cdr l) acc)))))\n"
    "(define (remove drop? lst) (filter (lambda (x) (not (drop? x))) lst))\n"
    "(define (fold-left f acc lst)\n"
    "  (if (null? lst) acc (fold-left f (f acc (car lst)) (cdr lst))))\n"
    "(define (fold-right f init lst)\n"
    "  (fold-left (lambda (acc x) (f x acc)) init (reverse lst)))\n"
    "(define (reduce f init lst)\n"
    "  (if (null? lst) init (fold-left f (car lst) (cdr lst))))\n"
    "(define (count pred lst)\n"
    "  (fold-left (lambda (n x) (if (pred x) (+ n 1) n)) 0 lst))\n"
    "(define (iota n . opt)\n"
    "  (let ((start (if (pair? opt) (car opt) 0)))\n"
    "    (let loop ((i (- n 1)) (acc '()))\n"
    "      (if (< i 0) acc (loop (- i 1) (cons (+ start i) acc))))))\n"
    "(define (sum lst) (apply + lst))\n"
    "(define (list-index pred lst)\n"
    "  (let loop ((l lst) (i 0))\n"
    "    (cond ((null? l) #f) ((pred (car l)) i) (else (loop (cdr l) (+ i 1))))))\n"
    "(define (take lst n)\n"
    "  (let loop ((l lst) (k n) (acc '()))\n"
    "    (if (or (= k 0) (null? l)) (reverse! acc) (loop (cdr l) (- k 1) (cons (car l) acc)))))\n"
    "(define (drop lst n) (if (or (= n 0) (null? lst)) lst (drop (cdr lst) (- n 1))))\n"
    "(define (delete-duplicates lst)\n"
    "  (let loop ((l lst) (acc '()))\n"
    "    (cond ((null? l) (reverse! acc))\n"
    "          ((member (car l) acc) (loop (cdr l) acc))\n"
    "          (else (loop (cdr l) (cons (car l) acc))))))\n",

    "(define (merge-lists a b less?)\n"
    "  (let loop ((a a) (b b) (acc '()))\n"
    "    (cond ((null? a) (append (reverse! acc) b))\n"
    "          ((null? b) (append (reverse! acc) a))\n"
    "          ((less? (car b) (car a)) (loop a (cdr b) (cons (car b) acc)))\n"
    "          (else (loop (cdr a) b (cons (car a) acc))))))\n"
    "(define (sort lst less?)\n"
    "  (let ((n (length lst)))\n"
    "    (if (< n 2)\n"
    "        lst\n"
    "        (let ((half (quotient n 2)))\n"
    "          (merge-lists (sort (take lst half) less?) (sort (drop lst half) less?) less?)))))\n"
    "(define (sorted? lst less?)\n"
    "  (or (null? lst) (null? (cdr lst))\n"
    "      (and (not (less? (cadr lst) (car lst))) (sorted? (cdr lst) less?))))\n"
    "(define (string-join strs sep)\n"
    "  (if (null? strs)\n"
    "      \"\"\n"
    "      (fold-left (lambda (acc s) (string-append acc sep s)) (car strs) (cdr strs))))\n"
    "(define (vector-map f v) (list->vector (map f (vector->list v))))\n"
    "(define (vector-for-each f v)\n"
    "  (let loop ((i 0)) (when (< i (vector-length v)) (f (vector-ref v i)) (loop (+ i 1)))))\n"
    "(define (compose . fs)\n"
    "  (if (null? fs) (lambda (x) x)\n"
    "      (lambda (x) ((car fs) ((apply compose (cdr fs)) x)))))\n"
    "(define (curry f . args) (lambda more (apply f (append args more))))\n"
    "(define (report label . values)\n"
    "  (display label) (display \":\")\n"
    "  (for-each (lambda (v) (display \" \") (write v)) values)\n"
    "  (newline))\n"
    "(define-macro (swap! a b)\n"
    "  (let ((tmp (gensym))) `(let ((,tmp ,a)) (set! ,a ,b) (set! ,b ,tmp))))\n"
    "(define-macro (inc! var . by) `(set! ,var (+ ,var ,(if (pair? by) (car by) 1))))\n"
    "(define-macro (push! item place) `(set! ,place (cons ,item ,place)))\n"
    "(define-macro (for binding . body)\n"
    "  (let ((loop (gensym)) (end (gensym)) (var (car binding)))\n"
    "    `(let ((,end ,(caddr binding)))\n"
    "       (let ,loop ((,var ,(cadr binding)))\n"
    "         (when (< ,var ,end) ,@body (,loop (+ ,var 1)))))))\n"
    "(define-macro (cons-stream a b) `(cons ,a (delay ,b)))\n"
    "(define (stream-car s) (car s))\n"
    "(define (stream-cdr s) (force (cdr s)))\n"
    "(define (stream-take s n)\n"
    "  (let loop ((s s) (n n) (acc '()))\n"
    "    (if (= n 0) (reverse! acc) (loop (stream-cdr s) (- n 1) (cons (stream-car s) acc)))))\n"
    "(define (stream-filter keep? s)\n"
    "  (if (keep? (stream-car s))\n"
    "      (cons-stream (stream-car s) (stream-filter keep? (stream-cdr s)))\n"
    "      (stream-filter keep? (stream-cdr s))))\n"
    "(define (stream-map2 f a b)\n"
    "  (cons-stream (f (stream-car a) (stream-car b)) (stream-map2 f (stream-cdr a) (stream-cdr b))))\n"
    "(define seed 12345)\n"
    "(define (rand! n)\n"
    "  (set! seed (modulo (+ (* seed 1103515245) 12345) 2147483648))\n"
    "  (modulo (quotient seed 65536) n))\n",
    NULL};

/* ------------------------------------------------------------------ */
/* The program: one string per section                                 */
/* ------------------------------------------------------------------ */

static const char *PROGRAM[] = {
    /* recursion and tail calls */
    "(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))\n"
    "(report \"fib 17\" (fib 17))\n"
    "(define (tak x y z)\n"
    "  (if (not (< y x)) z (tak (tak (- x 1) y z) (tak (- y 1) z x) (tak (- z 1) x y))))\n"
    "(report \"tak 12 8 4\" (tak 12 8 4))\n"
    "(define (ack m n)\n"
    "  (cond ((= m 0) (+ n 1)) ((= n 0) (ack (- m 1) 1)) (else (ack (- m 1) (ack m (- n 1))))))\n"
    "(report \"ack 2 6\" (ack 2 6))\n"
    "(define (hanoi n from to via)\n"
    "  (if (= n 0) 0 (+ (hanoi (- n 1) from via to) 1 (hanoi (- n 1) via to from))))\n"
    "(report \"hanoi 10\" (hanoi 10 'a 'c 'b))\n"
    "(define (count-loop n)\n"
    "  (let loop ((i 0) (acc 0)) (if (= i n) acc (loop (+ i 1) (+ acc (remainder i 7))))))\n"
    "(report \"tail loop 30000\" (count-loop 30000))\n",

    /* lists and sorting */
    "(define data (map (lambda (i) (rand! 10000)) (iota 800)))\n"
    "(define sorted (sort data <))\n"
    "(report \"sorted\" (sorted? sorted <) (length sorted))\n"
    "(report \"sum preserved\" (= (sum data) (sum sorted)))\n"
    "(report \"min max\" (car sorted) (car (last-pair sorted)))\n"
    "(define vec (list->vector data))\n"
    "(sort! vec <)\n"
    "(report \"vector sort agrees\" (equal? (vector->list vec) sorted))\n"
    "(report \"distinct in first 200\" (length (delete-duplicates (take sorted 200))))\n"
    "(report \"pairs\" (map (lambda (a b) (* a b)) '(1 2 3 4) '(10 20 30 40)))\n"
    "(report \"filter/remove\" (filter odd? (iota 10)) (remove odd? (iota 10)))\n"
    "(report \"list-index\" (list-index (lambda (x) (> x 9000)) sorted))\n"
    "(report \"assoc\" (assoc \"b\" '((\"a\" . 1) (\"b\" . 2))) (assq 'c '((a 1) (b 2))))\n"
    "(report \"list*\" (list* 1 2 '(3 4)) (append '(1) '(2 3) '() '(4 . 5)))\n",

    /* queens and sieve */
    "(define (queens board-size)\n"
    "  (define (safe? col placed)\n"
    "    (let loop ((rest placed) (dist 1))\n"
    "      (or (null? rest)\n"
    "          (and (not (= (car rest) col))\n"
    "               (not (= (abs (- (car rest) col)) dist))\n"
    "               (loop (cdr rest) (+ dist 1))))))\n"
    "  (define (place k placed)\n"
    "    (if (= k 0)\n"
    "        1\n"
    "        (let loop ((col 0) (total 0))\n"
    "          (if (= col board-size)\n"
    "              total\n"
    "              (loop (+ col 1)\n"
    "                    (if (safe? col placed) (+ total (place (- k 1) (cons col placed))) total))))))\n"
    "  (place board-size '()))\n"
    "(report \"queens 5 6\" (queens 5) (queens 6))\n"
    "(define (sieve-count n)\n"
    "  (let ((flags (make-vector n #t)))\n"
    "    (let loop ((i 2) (count 0))\n"
    "      (cond ((>= i n) count)\n"
    "            ((vector-ref flags i)\n"
    "             (do ((j (* i i) (+ j i))) ((>= j n)) (vector-set! flags j #f))\n"
    "             (loop (+ i 1) (+ count 1)))\n"
    "            (else (loop (+ i 1) count))))))\n"
    "(report \"primes below 5000\" (sieve-count 5000))\n",

    /* strings */
    "(define nums (map number->string (iota 150 1)))\n"
    "(define joined (string-join nums \",\"))\n"
    "(report \"joined length\" (string-length joined) (substring joined 0 20))\n"
    "(report \"split back\" (equal? (map string->number (string-split joined #\\,)) (iota 150 1)))\n"
    "(define (string-reverse s) (list->string (reverse (string->list s))))\n"
    "(define (palindrome? s) (string=? s (string-reverse s)))\n"
    "(report \"palindromes below 1000\"\n"
    "        (count (lambda (n) (palindrome? (number->string n))) (iota 1000)))\n"
    "(report \"radix\" (number->string 48879 16) (number->string -255 2) (number->string 35 36))\n"
    "(report \"case\" (string-upcase \"hello, world\") (string-downcase \"MiXeD\"))\n"
    "(define (caesar s k)\n"
    "  (list->string\n"
    "   (map (lambda (c) (if (char-alphabetic? c) (+ 97 (modulo (+ (- c 97) k) 26)) c))\n"
    "        (string->list s))))\n"
    "(report \"caesar\" (caesar \"the quick brown fox\" 3) (caesar (caesar \"round trip\" 11) 15))\n"
    "(report \"string hash\"\n"
    "        (fold-left (lambda (h c) (modulo (+ (* h 31) c) 1000000007)) 7 (string->list joined)))\n"
    "(report \"symbols\" (string->symbol \"abc\") (symbol->string 'xyz) (eq? 'abc (string->symbol \"abc\")))\n"
    "(report \"index\" (string-index \"hello\" #\\l) (string-index \"hello\" #\\z))\n"
    "(report \"make-string\" (make-string 5 #\\*) (string<? \"apple\" \"banana\"))\n",

    /* symbolic differentiation and a small expression evaluator */
    "(define (make-sum a b)\n"
    "  (cond ((and (number? a) (number? b)) (+ a b)) ((eqv? a 0) b) ((eqv? b 0) a)\n"
    "        (else (list '+ a b))))\n"
    "(define (make-diff a b)\n"
    "  (cond ((and (number? a) (number? b)) (- a b)) ((eqv? b 0) a) (else (list '- a b))))\n"
    "(define (make-product a b)\n"
    "  (cond ((and (number? a) (number? b)) (* a b)) ((or (eqv? a 0) (eqv? b 0)) 0)\n"
    "        ((eqv? a 1) b) ((eqv? b 1) a) (else (list '* a b))))\n"
    "(define (make-expt a n) (cond ((= n 0) 1) ((= n 1) a) (else (list 'expt a n))))\n"
    "(define (deriv expr var)\n"
    "  (cond ((number? expr) 0)\n"
    "        ((symbol? expr) (if (eq? expr var) 1 0))\n"
    "        (else\n"
    "         (let ((op (car expr)) (a (cadr expr)) (b (caddr expr)))\n"
    "           (case op\n"
    "             ((+) (make-sum (deriv a var) (deriv b var)))\n"
    "             ((-) (make-diff (deriv a var) (deriv b var)))\n"
    "             ((*) (make-sum (make-product a (deriv b var)) (make-product (deriv a var) b)))\n"
    "             ((expt) (make-product (make-product b (make-expt a (- b 1))) (deriv a var)))\n"
    "             (else (error \"unknown operator\" op)))))))\n"
    "(define (evaluate expr env)\n"
    "  (cond ((number? expr) expr)\n"
    "        ((symbol? expr) (cdr (assq expr env)))\n"
    "        (else\n"
    "         (let ((args (map (lambda (e) (evaluate e env)) (cdr expr))))\n"
    "           (case (car expr)\n"
    "             ((+) (apply + args)) ((-) (apply - args)) ((*) (apply * args))\n"
    "             ((expt) (expt (car args) (cadr args))))))))\n"
    "(define poly '(+ (* 3 (expt x 4)) (- (* 5 (* x y)) (+ (expt y 3) 7))))\n"
    "(report \"d/dx\" (deriv poly 'x))\n"
    "(report \"d/dy\" (deriv poly 'y))\n"
    "(report \"d/dx at y=2\"\n"
    "        (map (lambda (x) (evaluate (deriv poly 'x) (list (cons 'x x) (cons 'y 2)))) (iota 6)))\n"
    "(report \"bad operator\" (guard-error (lambda () (deriv '(/ x 2) 'x))))\n",

    /* closures and higher-order procedures */
    "(define (make-counter) (let ((n 0)) (lambda () (set! n (+ n 1)) n)))\n"
    "(define c1 (make-counter))\n"
    "(define c2 (make-counter))\n"
    "(c1) (c1) (c2)\n"
    "(report \"counters\" (c1) (c2))\n"
    "(define (make-accumulator total) (lambda (x) (set! total (+ total x)) total))\n"
    "(define acc (make-accumulator 100))\n"
    "(for-each acc (iota 10))\n"
    "(report \"accumulator\" (acc 0))\n"
    "(define add5 (curry + 5))\n"
    "(define square-then-add5 (compose add5 (lambda (x) (* x x))))\n"
    "(report \"compose\" (map square-then-add5 (iota 5)))\n"
    "(report \"folds\" (fold-right cons '() '(1 2 3)) (fold-left - 0 '(1 2 3)) (reduce max 0 '(3 9 2)))\n"
    "(report \"apply\" (apply max 4 8 '(15 16 23 42)) (apply + '()))\n"
    "(report \"procedures\" car fib (lambda (x) x) (procedure? car) (procedure? 'car))\n"
    "(define (make-queue) (cons '() '()))\n"
    "(define (enqueue! q x)\n"
    "  (let ((cell (list x)))\n"
    "    (if (null? (car q)) (begin (set-car! q cell) (set-cdr! q cell))\n"
    "        (begin (set-cdr! (cdr q) cell) (set-cdr! q cell)))))\n"
    "(define (dequeue! q) (let ((x (caar q))) (set-car! q (cdar q)) x))\n"
    "(define q (make-queue))\n"
    "(for (i 0 20) (enqueue! q (* i 3)))\n"
    "(report \"queue\" (dequeue! q) (dequeue! q) (length (car q)))\n",
    NULL};

static const char *PROGRAM2[] = {
    /* hash tables */
    "(define syllables (vector \"ka\" \"lo\" \"mi\" \"ne\" \"ru\" \"ta\"))\n"
    "(define (random-word)\n"
    "  (apply string-append (map (lambda (i) (vector-ref syllables (rand! 6))) (iota (+ 1 (rand! 3))))))\n"
    "(define words (map (lambda (i) (random-word)) (iota 600)))\n"
    "(define freq (make-table))\n"
    "(for-each (lambda (w) (table-update! freq w (lambda (c) (+ c 1)) 0)) words)\n"
    "(report \"distinct words\" (table-count freq))\n"
    "(define ranked\n"
    "  (sort (table->alist freq)\n"
    "        (lambda (a b) (or (> (cdr a) (cdr b))\n"
    "                          (and (= (cdr a) (cdr b)) (string<? (car a) (car b)))))))\n"
    "(report \"top\" (take ranked 4))\n"
    "(table-delete! freq (caar ranked))\n"
    "(report \"after delete\" (table-count freq) (table-ref freq (caar ranked) 'missing))\n"
    "(define keyed (make-table))\n"
    "(for (i 0 300) (table-set! keyed (list 'key i) (* i i)))\n"
    "(report \"structured keys\" (table-ref keyed '(key 21) #f) (table-count keyed)\n"
    "        (length (table-keys keyed)))\n"
    "(report \"missing key\" (guard-error (lambda () (table-ref keyed 'nothing))))\n",

    /* macros, quasiquote and special forms */
    "(define x 1)\n"
    "(define y 2)\n"
    "(swap! x y)\n"
    "(report \"swap\" x y)\n"
    "(define total 0)\n"
    "(for (i 0 10) (inc! total i))\n"
    "(report \"for/inc\" total)\n"
    "(define stack '())\n"
    "(for (i 0 5) (push! (* i i) stack))\n"
    "(report \"push\" stack)\n"
    "(define n 5)\n"
    "(report \"quasiquote\" `(n is ,n and ,@(iota 3) end) `(1 ,@'() 2) `#(1 ,(+ 1 1)) `(a . ,(+ 1 2)))\n"
    "(report \"nested quasiquote\" `(1 `(2 ,(3 ,(+ 1 3)))))\n"
    "(define-macro (my-or2 a b) (let ((t (gensym))) `(let ((,t ,a)) (if ,t ,t ,b))))\n"
    "(define t 5)\n"
    "(report \"macro with gensym\" (my-or2 #f t))\n"
    "(define w 0)\n"
    "(define k 0)\n"
    "(while (< k 10) (set! w (+ w k)) (set! k (+ k 1)))\n"
    "(report \"while\" w)\n"
    "(report \"do\" (do ((i 0 (+ i 1)) (acc '() (cons i acc))) ((= i 5) acc)))\n"
    "(report \"case\"\n"
    "        (map (lambda (v) (case v ((1 2 3) 'small) ((4 5 6) 'medium) (else 'large))) '(1 5 9)))\n"
    "(report \"cond =>\" (cond ((assv 2 '((1 . one) (2 . two))) => cdr) (else 'none)))\n"
    "(report \"let*\" (let* ((a 1) (b (+ a 1)) (a (* b 10))) (list a b)))\n"
    "(report \"letrec\"\n"
    "        (letrec ((ev? (lambda (n) (if (= n 0) #t (od? (- n 1)))))\n"
    "                 (od? (lambda (n) (if (= n 0) #f (ev? (- n 1))))))\n"
    "          (list (ev? 100) (od? 7))))\n"
    "(report \"when/unless\" (when (> 2 1) 'yes) (unless (> 2 1) 'no) (if #f #f))\n"
    "(report \"and/or\" (and 1 2 3) (and) (or #f #f) (or #f 7))\n",

    /* streams and promises */
    "(define (integers-from n) (cons-stream n (integers-from (+ n 1))))\n"
    "(define (sieve s)\n"
    "  (cons-stream (stream-car s)\n"
    "               (sieve (stream-filter (lambda (x) (not (= 0 (remainder x (stream-car s)))))\n"
    "                                     (stream-cdr s)))))\n"
    "(report \"stream primes\" (stream-take (sieve (integers-from 2)) 15))\n"
    "(define fibs (cons-stream 0 (cons-stream 1 (stream-map2 + fibs (stream-cdr fibs)))))\n"
    "(report \"stream fibs\" (stream-take fibs 25))\n"
    "(define forced 0)\n"
    "(define p (delay (begin (set! forced (+ forced 1)) 'value)))\n"
    "(force p)\n"
    "(report \"memoized promise\" (force p) forced)\n",

    /* errors */
    "(report \"car of empty\" (guard-error (lambda () (car '()))))\n"
    "(report \"vector range\" (guard-error (lambda () (vector-ref (make-vector 3 0) 5))))\n"
    "(report \"user error\" (guard-error (lambda () (error \"custom failure\" 42 'foo))))\n"
    "(report \"unbound\" (guard-error (lambda () undefined-variable)))\n"
    "(report \"deep recursion\" (guard-error (lambda () (let f ((n 0)) (+ 1 (f (+ n 1)))))))\n"
    "(report \"arity\" (guard-error (lambda () ((lambda (a b) a) 1))))\n"
    "(report \"no error\" (guard-error (lambda () (+ 1 2))))\n"
    "(report \"assert\" (guard-error (lambda () (assert (= 1 2)))))\n"
    "(report \"divide by zero\" (guard-error (lambda () (quotient 1 0))))\n"
    "(report \"nested guards\"\n"
    "        (guard-error (lambda () (list (guard-error (lambda () (car 5))) (cdr 7)))))\n",

    /* a meta-circular evaluator for a tiny language */
    "(define (m-lookup s env)\n"
    "  (let ((b (assq s env))) (if b (cdr b) (error \"m-eval: unbound\" s))))\n"
    "(define (m-eval e env)\n"
    "  (cond ((number? e) e)\n"
    "        ((symbol? e) (m-lookup e env))\n"
    "        ((eq? (car e) 'lambda) (list 'closure (cadr e) (caddr e) env))\n"
    "        ((eq? (car e) 'if)\n"
    "         (if (not (= 0 (m-eval (cadr e) env))) (m-eval (caddr e) env) (m-eval (cadddr e) env)))\n"
    "        (else (m-apply (m-eval (car e) env) (map (lambda (a) (m-eval a env)) (cdr e))))))\n"
    "(define (m-apply f args)\n"
    "  (if (procedure? f)\n"
    "      (apply f args)\n"
    "      (m-eval (caddr f) (append (map cons (cadr f) args) (cadddr f)))))\n"
    "(define m-global\n"
    "  (list (cons '+ +) (cons '- -) (cons '* *) (cons '< (lambda (a b) (if (< a b) 1 0)))))\n"
    "(define m-fib\n"
    "  '((lambda (f) (f f 11))\n"
    "    (lambda (self n) (if (< n 2) n (+ (self self (- n 1)) (self self (- n 2)))))))\n"
    "(report \"meta fib 11\" (m-eval m-fib m-global))\n"
    "(report \"meta unbound\" (guard-error (lambda () (m-eval '(+ 1 zz) m-global))))\n",

    /* vectors and matrices, numbers */
    "(define (make-matrix n f)\n"
    "  (let ((m (make-vector n #f)))\n"
    "    (for (i 0 n)\n"
    "      (vector-set! m i (make-vector n 0))\n"
    "      (for (j 0 n) (vector-set! (vector-ref m i) j (f i j))))\n"
    "    m))\n"
    "(define (mat-ref m i j) (vector-ref (vector-ref m i) j))\n"
    "(define (mat-mul a b n)\n"
    "  (make-matrix n (lambda (i j)\n"
    "                   (let loop ((k 0) (s 0))\n"
    "                     (if (= k n) s (loop (+ k 1) (+ s (* (mat-ref a i k) (mat-ref b k j)))))))))\n"
    "(define ma (make-matrix 8 (lambda (i j) (+ i (* 2 j)))))\n"
    "(define mb (make-matrix 8 (lambda (i j) (if (= i j) 2 (- i j)))))\n"
    "(define mc (mat-mul ma mb 8))\n"
    "(report \"matrix\" (mat-ref mc 0 0) (mat-ref mc 7 7) (vector-ref mc 3))\n"
    "(report \"vector-map\" (vector-map (lambda (x) (* x x)) #(1 2 3 4)))\n"
    "(define sv (vector 5 3 9 1 7))\n"
    "(vector-swap! sv 0 4)\n"
    "(report \"vector ops\" sv (vector-length sv) (vector-copy #(a b)) (vector->list (make-vector 3 'z)))\n"
    "(report \"gcd/lcm\" (gcd 462 1071) (lcm 4 6 10) (gcd))\n"
    "(report \"expt\" (expt 3 20) (expt 2 62) (* 4611686018427387904 4))\n"
    "(report \"isqrt\" (isqrt 1000000007) (isqrt 0) (isqrt 99))\n"
    "(report \"bits\" (bit-and 12 10) (bit-or 12 10) (bit-xor 12 10)\n"
    "        (arithmetic-shift 1 40) (arithmetic-shift -1024 -3))\n"
    "(report \"division\" (modulo -7 3) (remainder -7 3) (quotient -7 2) (modulo 7 -3))\n"
    "(define (collatz-steps n)\n"
    "  (let loop ((n n) (s 0)) (if (= n 1) s (loop (if (even? n) (quotient n 2) (+ (* 3 n) 1)) (+ s 1)))))\n"
    "(report \"longest collatz below 300\"\n"
    "        (let loop ((i 1) (best 0) (arg 0))\n"
    "          (if (= i 300) (list arg best)\n"
    "              (let ((s (collatz-steps i))) (if (> s best) (loop (+ i 1) s i) (loop (+ i 1) best arg))))))\n",

    /* eval, read and printing */
    "(report \"eval\" (eval '(+ 1 2 3)) (eval (list '* 6 7)))\n"
    "(report \"read\" (read-from-string \"(a (b . c) #(1 2) \\\"s\\\" 'q)\"))\n"
    "(report \"write-to-string\" (write-to-string '(1 \"two\" #t)) (string-length (write-to-string \"a\\nb\")))\n"
    "(report \"equal?\" (equal? '(1 (2 #(3 \"x\"))) (list 1 (list 2 (vector 3 \"x\")))) (eqv? 100000 100000)\n"
    "        (eq? '() '()))\n"
    "(report \"types\" (map (lambda (x) (list (number? x) (symbol? x) (string? x) (pair? x) (vector? x)))\n"
    "                     (list 1 'a \"s\" '(1) #(1))))\n"
    "(report \"heap\" (> (car (heap-info)) 100))\n",
    NULL};

/* ------------------------------------------------------------------ */
/* Driver                                                              */
/* ------------------------------------------------------------------ */

static long run_sections(const char *const *sections) {
    long forms = 0;
    for (int i = 0; sections[i]; i++) forms += run_source(sections[i]);
    return forms;
}

int main(void) {
    init_interpreter();
    long prelude_forms = run_sections(PRELUDE);
    long program_forms = run_sections(PROGRAM);
    program_forms += run_sections(PROGRAM2);
    collect_garbage();
    fflush(stdout);
    printf("forms: prelude=%ld program=%ld\n", prelude_forms, program_forms);
    printf("heap: symbols=%zu collections=%lu live=%zu allocations=%lu chunks=%zu\n", symbol_count,
           gc_count, live_after_gc, total_allocs, chunk_count);
    printf("output: bytes=%lu hash=%08x\n", output_bytes, output_hash);
    free_heap();
    return 0;
}
