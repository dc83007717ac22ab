/* vm: a small stack-based bytecode virtual machine (arithmetic, locals,
 * global memory, branches, calls with frames) with a two-pass assembler
 * resolving labels; runs recursive Fibonacci, a sieve, GCD sums and a
 * bubble sort written in its bytecode. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    OP_HALT, OP_PUSH, OP_POP, OP_DUP, OP_SWAP, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
    OP_AND, OP_XOR, OP_LT, OP_EQ, OP_NOT, OP_JMP, OP_JZ, OP_JNZ, OP_LOAD, OP_STORE,
    OP_GLOAD, OP_GSTORE, OP_CALL, OP_RET, OP_OUT, OP_COUNT
};

#define STACK 4096
#define FRAMES 1024
#define MEM 65536
#define CODE 4096
#define LOCALS 8

typedef int64_t word;

typedef struct {
    int ret_pc, base;
    word locals[LOCALS];
} frame;

static word stack[STACK];
static frame frames[FRAMES];
static word mem[MEM];
static word outputs[64];
static int noutputs;

static word wrap_add(word a, word b) { return (word)((uint64_t)a + (uint64_t)b); }
static word wrap_sub(word a, word b) { return (word)((uint64_t)a - (uint64_t)b); }
static word wrap_mul(word a, word b) { return (word)((uint64_t)a * (uint64_t)b); }

/* Returns the number of executed instructions, or -1 on a VM fault. */
static long run(const word *code, int ncode, int entry) {
    int pc = entry, sp = 0, fp = 0;
    long steps = 0;
    memset(&frames[0], 0, sizeof(frame));
    for (;;) {
        if (pc < 0 || pc >= ncode) return -1;
        word op = code[pc++];
        steps++;
        switch (op) {
        case OP_HALT: return steps;
        case OP_PUSH:
            if (sp >= STACK) return -1;
            stack[sp++] = code[pc++];
            break;
        case OP_POP: if (sp < 1) return -1; sp--; break;
        case OP_DUP:
            if (sp < 1 || sp >= STACK) return -1;
            stack[sp] = stack[sp - 1];
            sp++;
            break;
        case OP_SWAP: {
            if (sp < 2) return -1;
            word t = stack[sp - 1];
            stack[sp - 1] = stack[sp - 2];
            stack[sp - 2] = t;
            break;
        }
        case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD:
        case OP_AND: case OP_XOR: case OP_LT: case OP_EQ: {
            if (sp < 2) return -1;
            word b = stack[--sp], a = stack[sp - 1], r;
            switch (op) {
            case OP_ADD: r = wrap_add(a, b); break;
            case OP_SUB: r = wrap_sub(a, b); break;
            case OP_MUL: r = wrap_mul(a, b); break;
            case OP_DIV: if (b == 0 || (a == INT64_MIN && b == -1)) return -1; r = a / b; break;
            case OP_MOD: if (b == 0 || (a == INT64_MIN && b == -1)) return -1; r = a % b; break;
            case OP_AND: r = a & b; break;
            case OP_XOR: r = a ^ b; break;
            case OP_LT: r = a < b; break;
            default: r = a == b; break;
            }
            stack[sp - 1] = r;
            break;
        }
        case OP_NOT: if (sp < 1) return -1; stack[sp - 1] = !stack[sp - 1]; break;
        case OP_JMP: pc = (int)code[pc]; break;
        case OP_JZ:
        case OP_JNZ: {
            if (sp < 1) return -1;
            word c = stack[--sp];
            int target = (int)code[pc++];
            if ((op == OP_JZ) == (c == 0)) pc = target;
            break;
        }
        case OP_LOAD: {
            word i = code[pc++];
            if (i < 0 || i >= LOCALS || sp >= STACK) return -1;
            stack[sp++] = frames[fp].locals[i];
            break;
        }
        case OP_STORE: {
            word i = code[pc++];
            if (i < 0 || i >= LOCALS || sp < 1) return -1;
            frames[fp].locals[i] = stack[--sp];
            break;
        }
        case OP_GLOAD: {
            if (sp < 1) return -1;
            word a = stack[sp - 1];
            if (a < 0 || a >= MEM) return -1;
            stack[sp - 1] = mem[a];
            break;
        }
        case OP_GSTORE: { /* ( value addr -- ) */
            if (sp < 2) return -1;
            word a = stack[--sp], v = stack[--sp];
            if (a < 0 || a >= MEM) return -1;
            mem[a] = v;
            break;
        }
        case OP_CALL: { /* CALL target nargs: args move from stack to locals */
            int target = (int)code[pc++], nargs = (int)code[pc++];
            if (fp + 1 >= FRAMES || nargs > LOCALS || sp < nargs) return -1;
            frame *f = &frames[++fp];
            memset(f, 0, sizeof(*f));
            for (int i = nargs - 1; i >= 0; i--) f->locals[i] = stack[--sp];
            f->ret_pc = pc;
            f->base = sp;
            pc = target;
            break;
        }
        case OP_RET: { /* return value on top of stack */
            if (fp == 0 || sp < 1) return -1;
            word v = stack[--sp];
            sp = frames[fp].base;
            pc = frames[fp].ret_pc;
            fp--;
            stack[sp++] = v;
            break;
        }
        case OP_OUT:
            if (sp < 1) return -1;
            if (noutputs < 64) outputs[noutputs++] = stack[sp - 1];
            sp--;
            break;
        default: return -1;
        }
    }
}

/* ---- assembler: operands naming labels are written as "@name" ---- */

typedef struct {
    const char *name;
    int at;
} label;

static word code[CODE];
static int ncode;
static label labels[64];
static int nlabels;
static const char *fixup_name[CODE];

static int op_by_name(const char *s) {
    static const char *names[OP_COUNT] = {"halt", "push", "pop", "dup", "swap", "add", "sub",
                                          "mul", "div", "mod", "and", "xor", "lt", "eq", "not",
                                          "jmp", "jz", "jnz", "load", "store", "gload", "gstore",
                                          "call", "ret", "out"};
    for (int i = 0; i < OP_COUNT; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

/* Assembles whitespace-separated tokens; "name:" defines a label. */
static int assemble(const char *src) {
    static char buf[8192];
    ncode = nlabels = 0;
    size_t n = strlen(src);
    if (n >= sizeof buf) return 0;
    memcpy(buf, src, n + 1);
    for (char *tok = strtok(buf, " \n\t"); tok; tok = strtok(NULL, " \n\t")) {
        size_t l = strlen(tok);
        if (tok[l - 1] == ':') {
            tok[l - 1] = '\0';
            labels[nlabels].name = tok;
            labels[nlabels++].at = ncode;
        } else if (tok[0] == '@') {
            fixup_name[ncode] = tok + 1;
            code[ncode++] = 0;
        } else if ((tok[0] >= '0' && tok[0] <= '9') || tok[0] == '-') {
            fixup_name[ncode] = NULL;
            code[ncode++] = strtoll(tok, NULL, 10);
        } else {
            int op = op_by_name(tok);
            if (op < 0) return 0;
            fixup_name[ncode] = NULL;
            code[ncode++] = op;
        }
    }
    for (int i = 0; i < ncode; i++) {
        if (!fixup_name[i]) continue;
        int found = 0;
        for (int k = 0; k < nlabels; k++)
            if (strcmp(labels[k].name, fixup_name[i]) == 0) {
                code[i] = labels[k].at;
                found = 1;
            }
        if (!found) return 0;
    }
    return 1;
}

static const char *PROGRAM =
    /* main */
    "main: push 22 call @fib 1 out\n"
    "      push 30000 call @sieve 1 out\n"
    "      push 300 call @gcdsum 1 out\n"
    "      push 600 call @sort 1 out\n"
    "      halt\n"
    /* fib(n) = n < 2 ? n : fib(n-1) + fib(n-2) */
    "fib:  load 0 push 2 lt jz @fib_rec load 0 ret\n"
    "fib_rec: load 0 push 1 sub call @fib 1 load 0 push 2 sub call @fib 1 add ret\n"
    /* sieve(n): count primes below n using mem[0..n) as flags */
    "sieve: push 2 store 1 push 0 store 3\n"
    "s_outer: load 1 load 0 lt jz @s_done\n"
    "   load 1 gload jnz @s_next\n"
    "   load 3 push 1 add store 3\n"
    "   load 1 load 1 mul store 2\n"
    "s_inner: load 2 load 0 lt jz @s_next\n"
    "   push 1 load 2 gstore\n"
    "   load 2 load 1 add store 2 jmp @s_inner\n"
    "s_next: load 1 push 1 add store 1 jmp @s_outer\n"
    "s_done: load 3 ret\n"
    /* gcdsum(n): sum of gcd(i, j) for 1 <= i, j <= n */
    "gcdsum: push 0 store 3 push 1 store 1\n"
    "g_i: load 1 load 0 push 1 add lt jz @g_done push 1 store 2\n"
    "g_j: load 2 load 0 push 1 add lt jz @g_inext\n"
    "   load 1 load 2 call @gcd 2 load 3 add store 3\n"
    "   load 2 push 1 add store 2 jmp @g_j\n"
    "g_inext: load 1 push 1 add store 1 jmp @g_i\n"
    "g_done: load 3 ret\n"
    "gcd: load 1 jz @gcd_end load 1 load 0 load 1 mod store 1 store 0 jmp @gcd\n"
    "gcd_end: load 0 ret\n"
    /* sort(n): fill mem[40000..) with an LCG sequence, bubble sort, return a checksum */
    "sort: push 12345 store 5 push 0 store 1\n"
    "fill: load 1 load 0 lt jz @bubble\n"
    "   load 5 push 1103515245 mul push 12345 add push 2147483647 and store 5\n"
    "   load 5 push 1000 mod load 1 push 40000 add gstore\n"
    "   load 1 push 1 add store 1 jmp @fill\n"
    "bubble: push 0 store 1\n"
    "b_outer: load 1 load 0 lt jz @checksum push 0 store 2\n"
    "b_inner: load 2 load 0 load 1 sub push 1 sub lt jz @b_onext\n"
    "   load 2 push 40000 add gload load 2 push 40001 add gload\n"
    "   dup store 4 lt jnz @b_noswap\n"
    "   load 2 push 40000 add gload load 2 push 40001 add gstore\n"
    "   load 4 load 2 push 40000 add gstore\n"
    "b_noswap: load 2 push 1 add store 2 jmp @b_inner\n"
    "b_onext: load 1 push 1 add store 1 jmp @b_outer\n"
    "checksum: push 0 store 3 push 0 store 1\n"
    "c_loop: load 1 load 0 lt jz @c_done\n"
    "   load 3 push 31 mul load 1 push 40000 add gload add push 1000000007 mod store 3\n"
    "   load 1 push 1 add store 1 jmp @c_loop\n"
    "c_done: load 3 ret\n";

int main(void) {
    if (!assemble(PROGRAM)) {
        printf("assembly failed\n");
        return 1;
    }
    int entry = 0;
    for (int k = 0; k < nlabels; k++)
        if (strcmp(labels[k].name, "main") == 0) entry = labels[k].at;
    long steps = run(code, ncode, entry);
    printf("code words=%d labels=%d steps=%ld\n", ncode, nlabels, steps);
    static const char *what[] = {"fib(22)", "primes<30000", "gcd sum 300", "sort checksum"};
    for (int i = 0; i < noutputs && i < 4; i++)
        printf("%-14s = %lld\n", what[i], (long long)outputs[i]);
    /* The sorted region must be non-decreasing. */
    int sorted = 1;
    for (int i = 1; i < 600; i++)
        if (mem[40000 + i - 1] > mem[40000 + i]) sorted = 0;
    printf("sorted=%d min=%lld max=%lld\n", sorted, (long long)mem[40000],
           (long long)mem[40599]);
    return 0;
}
