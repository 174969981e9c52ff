#!/usr/bin/env python3
"""Random, correct, deterministic SPMD MPI C programs for differential testing.

gen.py SEED [-o FILE]  writes one program (to standard output by default).

Every program is valid MPI at any number of ranks and prints, from rank 0,
a checksum of what each rank computed (every result it used, and its final
state), so a build whose results differ in any bit prints something else.
What it exercises is what ompi-opt reasons about: reductions (MPI_Allreduce,
MPI_Reduce, MPI_Iallreduce) of every builtin op and of int, long, unsigned
and double (integer values, so any reduction order gives the same bits) into
locals, globals (static and external), struct fields, array elements and
through pointers; MPI_IN_PLACE; results used at once, later, after loops, in
other functions, through return values and out-parameters; helpers that
communicate, called from rank-dependent branches and loops; communicators
duplicated, split and freed; nonblocking, point-to-point (blocking sends
and receives in rings too, nonblocking halo exchanges and neighbour loops
with every kind of wait and test) and persistent
requests; early returns, break, continue and goto; macros around calls;
MPI_Alltoallv, MPI_Alltoall, MPI_Allgatherv and MPI_Allgather in loops whose counts stay
the same or change (what the planned collectives look for); derived
datatypes of doubles (contiguous, vector, hvector, 2-D and 3-D subarrays,
resized columns) built from static or run-time arguments, used in rings and
pairs and freed (what the datatype templates compile).

Correctness by construction: in code every rank runs, any statement may be
generated; a rank-dependent branch gets, in each arm, its own realisation of
one list of collective signatures (so the arms make the same collectives in
the same order, on different buffers and through different code); a loop
whose trip count depends on the rank makes its collectives in one iteration
only. Reduction inputs are kept small (results modulo 97, products of
values in -1..2), so no integer overflows and every double is exact.
"""
import argparse
import random

TYPES = {  # C type: (MPI datatype, ops, mix expression)
    "int": ("MPI_INT", ["MPI_SUM", "MPI_MAX", "MPI_MIN", "MPI_PROD", "MPI_BAND", "MPI_BOR", "MPI_BXOR",
                        "MPI_LAND", "MPI_LOR"]),
    "long": ("MPI_LONG", ["MPI_SUM", "MPI_MAX", "MPI_MIN", "MPI_PROD", "MPI_BAND", "MPI_BOR", "MPI_BXOR"]),
    "unsigned": ("MPI_UNSIGNED", ["MPI_SUM", "MPI_MAX", "MPI_MIN", "MPI_BAND", "MPI_BOR", "MPI_BXOR"]),
    "double": ("MPI_DOUBLE", ["MPI_SUM", "MPI_MAX", "MPI_MIN", "MPI_PROD"]),
}


class Var:
    """A place a value of type T lives: 'x', 'a[2]', 's.d', '*p'."""

    def __init__(self, expr, ctype, addr=None, readonly=False):
        self.expr, self.ctype = expr, ctype
        self.addr = addr or "&" + expr
        self.readonly = readonly  # loop counters and parameters: read, never written


class Func:
    def __init__(self, name, ret="void", params="void", static=True):
        self.name, self.ret, self.params, self.static = name, ret, params, static
        self.locals = []   # declarations
        self.body = []     # lines
        self.vars = []     # Var: scalars usable in this function
        self.n = 0


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.globals = []        # declarations
        self.gvars = []          # Var
        self.funcs = []          # Func, in definition order
        self.ntemp = 0
        self.nlabel = 0
        self.depth = 0
        self.comms = ["MPI_COMM_WORLD"]
        # Forwarding wrappers (ompi-opt inlines their calls): drawn from a
        # stream of their own, so that the rest of each program stays as
        # the seed made it before they existed.
        self.wr = random.Random(seed * 7919 + 1)
        self.wrappers = {}       # name -> definition lines
        # Requests of nonblocking exchanges in heap memory: a stream of
        # their own too.
        self.hr = random.Random(seed * 104729 + 3)
        # The root broadcasting a value itself in both arms of its if (and
        # sometimes a rank changing it after): a stream of its own.
        self.br = random.Random(seed * 130363 + 5)
        # The same under a flag the root sets with the value (`if (g)
        # MPI_Bcast(&v, ...)` in both arms), sometimes with the flag reset
        # after the value is written (then the value differs when it is 0).
        self.bg = random.Random(seed * 155921 + 7)
        # Heap memory of structs: fields of elements, read aliases, and
        # the root's pack and the others' unpack loops (a stream of its own).
        self.sh = random.Random(seed * 180181 + 9)
        # Requests of nonblocking exchanges in globals (an array, or a
        # pointer to heap memory), sometimes completed in a helper (another
        # file's when difftest splits the program): a stream of its own.
        self.gq = random.Random(seed * 196613 + 11)
        # Large-vector reductions (what vector-reductions hands to the
        # runtime's selector), on every rank alike or as the root's and the
        # others' in the two arms of an if: a stream of its own.
        self.vr = random.Random(seed * 229373 + 13)
        # Runs of adjacent broadcasts from one root (what broadcast-fusion
        # fuses), and the shapes it must leave alone: a stream of its own.
        self.bf = random.Random(seed * 262139 + 15)
        # A grid's halo rows received into the grid itself (u[0], u[R + 1]:
        # elements of a 2-D array as buffers), then work on other arrays and
        # a stencil over the grid (communication-overlap and its split hint):
        # a stream of its own.
        self.hg = random.Random(seed * 294001 + 17)
        # Which of the planned loops' gathers is an MPI_Allgather (equal
        # blocks) rather than an MPI_Allgatherv: a stream of its own.
        self.ag = random.Random(seed * 319993 + 19)
        self.shape_type = False

    # --- names and values -------------------------------------------------
    def fresh(self, prefix):
        self.ntemp += 1
        return "%s%d" % (prefix, self.ntemp)

    def pick(self, seq):
        return self.r.choice(seq)

    def chance(self, p):
        return self.r.random() < p

    def value(self, f, ctype):
        """An expression of small values that may differ between ranks."""
        terms = ["rank", str(self.r.randint(-5, 9))]
        cands = [v for v in f.vars + self.gvars if v.ctype in ("int", "long", "unsigned", "double")]
        for _ in range(self.r.randint(0, 2)):
            if cands:
                terms.append("(long)" + self.pick(cands).expr)
        e = " + ".join(terms)
        return e

    def bounded(self, f, ctype, op):
        """A value of ctype for a reduction with op: small enough that no
        reduction overflows or rounds."""
        e = self.value(f, ctype)
        if op in ("MPI_PROD",):
            core = "((%s) %% 2)" % e  # -1..1
        elif op in ("MPI_LAND", "MPI_LOR"):
            core = "((%s) %% 2)" % e
        else:
            core = "((%s) %% 97)" % e
        if ctype == "unsigned":
            return "(unsigned)((%s + 97) %% 97)" % core
        return "(%s)(%s)" % (ctype, core)

    # --- places -------------------------------------------------------------
    def target(self, f, ctype):
        """A variable of ctype to receive a result (new or existing)."""
        cands = [v for v in f.vars + self.gvars if v.ctype == ctype and not v.readonly]
        if cands and self.chance(0.5):
            return self.pick(cands)
        kind = self.r.randint(0, 9)
        if kind <= 3 or f is None:
            return self.local(f, ctype)
        if kind <= 5:
            return self.global_var(ctype, static=self.chance(0.7))
        if kind == 6:
            name = self.fresh("arr")
            f.locals.append("%s %s[4] = {0};" % (ctype, name))
            v = Var("%s[%d]" % (name, self.r.randint(0, 3)), ctype)
            f.vars.append(v)
            return v
        if kind == 7:
            name = self.fresh("st")
            f.locals.append("struct { long l; %s x; double d; } %s = {1, 2, 3};" % (ctype, name))
            v = Var("%s.x" % name, ctype)
            f.vars.append(v)
            return v
        # through a pointer to a global
        g = self.global_var(ctype, static=True)
        p = self.fresh("p")
        f.locals.append("%s *%s = &%s;" % (ctype, p, g.expr))
        v = Var("(*%s)" % p, ctype, addr=p)
        f.vars.append(v)
        return v

    def local(self, f, ctype):
        name = self.fresh("v")
        f.locals.append("%s %s = (%s)(rank + %d);" % (ctype, name, ctype, self.r.randint(0, 5)))
        v = Var(name, ctype)
        f.vars.append(v)
        return v

    def global_var(self, ctype, static):
        name = self.fresh("g")
        self.globals.append("%s%s %s;" % ("static " if static else "", ctype, name))
        v = Var(name, ctype)
        self.gvars.append(v)
        return v

    # --- statements ---------------------------------------------------------
    def mix(self, v):
        return "mix((long)(%s));" % v.expr

    def signature(self):
        ctype = self.pick(list(TYPES))
        mpitype, ops = TYPES[ctype]
        op = self.pick(ops)
        kind = self.pick(["allreduce"] * 6 + ["reduce"] * 2 + ["iallreduce"])
        comm = self.pick(self.comms + ["MPI_COMM_WORLD"])
        root = self.pick(["0", "size - 1"]) if comm == "MPI_COMM_WORLD" else "0"
        return (kind, ctype, mpitype, op, comm, root)

    def call_text(self, call, rng=None):
        """The call as a statement, sometimes through a macro or with its code
        (drawn from rng, by default the program's stream)."""
        w = (rng or self.r).randint(0, 5)
        if w == 0:
            return "CHECK(%s);" % call
        if w == 1:
            return "rc = %s; mix(rc == MPI_SUCCESS);" % call
        return call + ";"

    def collective(self, f, sig, out, parts=None, avoid=()):
        """Realise one collective signature in f: its input, the call, and
        maybe a use of the result. With parts=(prep, uses), the input goes to
        prep and the use to uses, and the call alone to out."""
        kind, ctype, mpitype, op, comm, root = sig
        res = self.target(f, ctype)
        while res.expr in avoid:
            res = self.local(f, ctype)
        prep = parts[0] if parts else out
        in_place = kind == "allreduce" and self.chance(0.2)
        if in_place:
            prep.append("%s = %s;" % (res.expr, self.bounded(f, ctype, op)))
            send = "MPI_IN_PLACE"
        else:
            t = self.fresh("t")
            f.locals.append("%s %s = 0;" % (ctype, t))
            prep.append("%s = %s;" % (t, self.bounded(f, ctype, op)))
            send = "&" + t
        wrapped = kind in ("allreduce", "reduce") and self.wr.random() < 0.25
        at = len(out)
        if kind == "allreduce":
            if self.chance(0.15):
                out.append("ALLRED(%s, %s, 1, %s, %s, %s);" % (send, res.addr, mpitype, op, comm))
            else:
                out.append(self.call_text("MPI_Allreduce(%s, %s, 1, %s, %s, %s)" % (send, res.addr, mpitype, op, comm)))
        elif kind == "reduce":
            out.append(self.call_text("MPI_Reduce(%s, %s, 1, %s, %s, %s, %s)" % (send, res.addr, mpitype, op, root, comm)))
        else:
            req = self.fresh("req")
            f.locals.append("MPI_Request %s;" % req)
            out.append("MPI_Iallreduce(%s, %s, 1, %s, %s, %s, &%s);" % (send, res.addr, mpitype, op, comm, req))
            if self.chance(0.5):
                out.append("mix(%d);" % self.r.randint(0, 9))
            out.append("MPI_Wait(&%s, MPI_STATUS_IGNORE);" % req)
        if wrapped:  # the call as drawn above (the same draws), made through a wrapper
            out[at] = self.wrapper_call(kind, send, res.addr, ctype, mpitype, op, root, comm)
        if parts:
            parts[1].append(self.mix(res))
        elif self.chance(0.6):
            out.append(self.mix(res))
        return res

    def wrapper_call(self, kind, send, addr, ctype, mpitype, op, root, comm):
        """A reduction through a wrapper: one that forwards every argument,
        one with the datatype, op and communicator as constants, or one
        with a statement of its own (no forwarder: its calls stay)."""
        w = self.wr.randint(0, 5)
        count = self.wr.choice(["1", "1L", "(short)1"])
        if kind == "reduce":
            name = "mpw_reduce"
            self.wrappers[name] = [
                "static int mpw_reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op o, int root, MPI_Comm c) {",
                "  return MPI_Reduce(s, r, n, t, o, root, c);", "}"]
            call = "mpw_reduce(%s, %s, %s, %s, %s, %s, %s)" % (send, addr, count, mpitype, op, root, comm)
        elif w <= 1 or comm != "MPI_COMM_WORLD":
            name = "mpw_allreduce"
            self.wrappers[name] = [
                "static int mpw_allreduce(const void *s, void *r, long n, MPI_Datatype t, MPI_Op o, MPI_Comm c) {",
                "  return MPI_Allreduce(s, r, (int)n, t, o, c);", "}"]
            call = "mpw_allreduce(%s, %s, %s, %s, %s, %s)" % (send, addr, count, mpitype, op, comm)
        elif w <= 3:
            name = "mpw_%s_%s" % (mpitype[4:].lower(), op[4:].lower())
            self.wrappers[name] = [
                "static void %s(%s *s, %s *r, int n) {" % (name, ctype, ctype),
                "  MPI_Allreduce(s, r, n, %s, %s, MPI_COMM_WORLD);" % (mpitype, op), "}"]
            return "%s(%s, %s, %s);" % (name, send, addr, count)
        else:
            name = "mpw_counted"
            self.wrappers[name] = [
                "static int mpw_counted(const void *s, void *r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c) {",
                "  mix(n);", "  return MPI_Allreduce(s, r, n, t, o, c);", "}"]
            call = "mpw_counted(%s, %s, %s, %s, %s, %s)" % (send, addr, count, mpitype, op, comm)
        return self.call_text(call, self.wr)

    def filler(self, f, out):
        """A statement with no MPI call."""
        cands = [v for v in f.vars + self.gvars]
        w = self.r.randint(0, 3)
        if w == 0 and cands:
            out.append(self.mix(self.pick(cands)))
        elif w == 1 and [v for v in cands if not v.readonly]:
            v = self.pick([v for v in cands if not v.readonly])
            out.append("%s = %s;" % (v.expr, self.bounded(f, v.ctype, "MPI_SUM")))
        elif w == 2:
            out.append("mix(%d);" % self.r.randint(0, 99))
        else:
            v = self.local(f, self.pick(list(TYPES)))
            out.append(self.mix(v))

    def block(self, f, out, n, uniform=True):
        for _ in range(n):
            self.statement(f, out, uniform)

    def statement(self, f, out, uniform):
        self.depth += 1
        if self.bf.random() < 0.06:
            self.bcast_group(f, out)
        if self.hg.random() < 0.04:
            self.grid_halo(f, out)
        w = self.r.randint(0, 99)
        deep = self.depth > 3
        if w < 34:
            self.collective(f, self.signature(), out)
        elif w < 35:
            self.ring(f, out)  # rings half as often again (nonblocking exchanges for overlap)
        elif w < 43:
            self.filler(f, out)
        elif w < 45 and not deep:
            self.heap_if(f, out)
        elif w < 52 and not deep:
            self.rank_branch(f, out)
        elif w < 60 and not deep:
            self.uniform_loop(f, out)
        elif w < 64 and not deep:
            self.rank_loop(f, out)
        elif w < 72 and not deep and len(self.funcs) < 8:
            self.helper_call(f, out)
        elif w < 76 and not deep:
            self.uniform_if(f, out)
        elif w < 78:
            self.ring(f, out)
        elif w < 80 and not deep:
            self.bcast_if(f, out)
        elif w < 83 and not deep:
            self.goto_skip(f, out)
        elif w < 86:
            self.reduce_in_place_root(f, out)
        elif w < 90:
            self.elementwise_loop(f, out)
        elif w < 92 and len(self.funcs) < 8:
            self.split_helpers(f, out)
        elif w < 94 and len(self.funcs) < 8:
            self.out_params(f, out)
        elif w < 96 and not deep:
            self.planned_loop(f, out)
        elif w < 98:
            self.dtype_exchange(f, out)
        else:
            # consecutive reductions of one kind: what fusion looks for
            kind, ctype, mpitype, op, comm, root = self.signature()
            if kind == "iallreduce":
                kind = "allreduce"
            prep, calls, uses, seen = [], [], [], set()
            for _ in range(self.r.randint(2, 4)):
                seen.add(self.collective(f, (kind, ctype, mpitype, op, comm, root), calls, (prep, uses),
                                         avoid=seen).expr)
                if self.chance(0.2):
                    self.filler(f, calls)
            out.extend(prep + calls + uses)
        self.depth -= 1

    def rank_branch(self, f, out):
        sigs = [self.signature() for _ in range(self.r.randint(1, 3))]
        cond = self.pick(["rank % 2 == 0", "rank == 0", "rank < size / 2", "rank != size - 1"])
        self.both_arms(f, out, cond, sigs)

    def branch_on(self, f, out, cond, vary):
        """An if on cond: when it may differ between ranks (vary), both arms
        make the same collectives; else a block of any statements."""
        if vary:
            self.both_arms(f, out, cond, [self.signature() for _ in range(self.r.randint(1, 2))])
            return
        out.append("if (%s) {" % cond)
        body = []
        self.block(f, body, self.r.randint(1, 2))
        out.extend("  " + l for l in body)
        out.append("}")

    def both_arms(self, f, out, cond, sigs):
        """An if on a condition that may differ between ranks whose arms
        make the same collectives sigs (each realised its own way)."""
        out.append("if (%s) {" % cond)
        out.extend("  " + l for l in self.realise(f, sigs))
        out.append("} else {")
        out.extend("  " + l for l in self.realise(f, sigs))
        out.append("}")

    def realise(self, f, sigs):
        """One way of making the collectives sigs, in order: inline, or
        through a helper that returns a result or fills a global."""
        lines = []
        i = 0
        while i < len(sigs):
            # (helpers see only MPI_COMM_WORLD: the other communicators are main's)
            if self.chance(0.3) and len(self.funcs) < 10 and sigs[i][4] == "MPI_COMM_WORLD":
                h = self.helper_for(sigs[i])
                v = self.local(f, sigs[i][1])
                lines.append("%s = %s(%s);" % (v.expr, h.name, self.pick(["rank", "3", "size"])))
                lines.append(self.mix(v))
            else:
                self.collective(f, sigs[i], lines)
            if self.chance(0.3):
                self.filler(f, lines)
            i += 1
        return lines

    def helper_for(self, sig):
        """A helper that makes one collective and returns its result."""
        kind, ctype, mpitype, op, comm, root = sig
        h = Func(self.fresh("coll"), ret=ctype, params="int k")
        h.vars.append(Var("k", "int", readonly=True))
        body = []
        res = self.collective(h, sig, body)
        h.body = body + ["return %s;" % res.expr]
        self.funcs.append(h)
        return h

    def uniform_loop(self, f, out):
        i = self.fresh("i")
        f.locals.append("int %s = 0;" % i)  # read at the end even where the loop never ran
        bound = self.pick(["3", "size", "argc_copy + 1", "2"])
        out.append("for (%s = 0; %s < %s; %s++) {" % (i, i, bound, i))
        f.vars.append(Var(i, "int", readonly=True))
        body = []
        if self.chance(0.3):
            body.append("if (%s == 1) %s;" % (i, self.pick(["continue", "break"])))
        self.block(f, body, self.r.randint(1, 3))
        out.extend("  " + l for l in body)
        out.append("}")
        if self.chance(0.5):
            # a result used after the loop
            cands = [v for v in f.vars + self.gvars]
            out.append(self.mix(self.pick(cands)))

    def rank_loop(self, f, out):
        """A loop whose trip count depends on the rank: its collectives run in
        one iteration only, so every rank makes them once."""
        i = self.fresh("i")
        f.locals.append("int %s = 0;" % i)  # read at the end even where the loop never ran
        sigs = [self.signature() for _ in range(self.r.randint(1, 2))]
        out.append("for (%s = 0; %s <= rank %% 3; %s++) {" % (i, i, i))
        body = []
        self.filler(f, body)
        body.append("if (%s == rank %% 3) {" % i)
        body.extend("  " + l for l in self.realise(f, sigs))
        body.append("}")
        out.extend("  " + l for l in body)
        out.append("}")

    def uniform_if(self, f, out):
        res = self.collective(f, ("allreduce", "long", "MPI_LONG", "MPI_SUM", "MPI_COMM_WORLD", "0"), out)
        out.append("if (%s > %d) {" % (res.expr, self.r.randint(-3, 10)))
        body = []
        self.block(f, body, self.r.randint(1, 2))
        out.extend("  " + l for l in body)
        out.append("}")

    def helper_call(self, f, out):
        """A helper with its own collectives: into globals, an out-parameter,
        or a return value; static or external; maybe an early return."""
        static = self.chance(0.7)
        style = self.pick(["void", "ret", "out"])
        ctype = self.pick(list(TYPES))
        params = "int k" if style != "out" else "int k, %s *out" % ctype
        h = Func(self.fresh("step"), ret=ctype if style == "ret" else "void", params=params, static=static)
        h.vars.append(Var("k", "int", readonly=True))
        body = []
        if self.chance(0.2):
            body.append("if (k > 100) return%s;" % (" 0" if style == "ret" else ""))
        saved, comms = self.depth, self.comms
        self.depth, self.comms = 2, ["MPI_COMM_WORLD"]
        self.block(h, body, self.r.randint(1, 3))
        self.depth, self.comms = saved, comms
        mpitype, ops = TYPES[ctype]
        op = self.pick(ops)
        if style == "out":
            t = self.fresh("t")
            h.locals.append("%s %s = 0;" % (ctype, t))
            body.append("%s = %s;" % (t, self.bounded(h, ctype, op)))
            body.append("MPI_Allreduce(&%s, out, 1, %s, %s, MPI_COMM_WORLD);" % (t, mpitype, op))
        elif style == "ret":
            res = self.collective(h, ("allreduce", ctype, mpitype, op, "MPI_COMM_WORLD", "0"), body)
            body.append("return %s;" % res.expr)
        h.body = body
        self.funcs.append(h)
        arg = self.pick(["rank", "size", "3"])
        if style == "out":
            v = self.target(f, ctype)
            out.append("%s(%s, %s);" % (h.name, arg, v.addr))
            if self.chance(0.7):
                out.append(self.mix(v))
        elif style == "ret":
            v = self.local(f, ctype)
            out.append("%s = %s(%s);" % (v.expr, h.name, arg))
            out.append(self.mix(v))
        else:
            out.append("%s(%s);" % (h.name, arg))

    def peers(self, f, out, t, u):
        """Calls whose peer is MPI_PROC_NULL or the caller itself (what
        peer-templates rewrites): their data and statuses mixed in."""
        st, c = self.fresh("st"), self.fresh("c")
        f.locals.append("MPI_Status %s; int %s = 0;" % (st, c))
        how = self.r.randint(0, 3)
        if how == 0:
            out.append("MPI_Sendrecv(&%s, 1, MPI_LONG, rank, 9, &%s, 1, MPI_LONG, rank, MPI_ANY_TAG, MPI_COMM_WORLD, &%s);"
                       % (t, u, st))
        elif how == 1:
            out.append("MPI_Sendrecv_replace(&%s, 1, MPI_LONG, rank, 9, rank, 9, MPI_COMM_WORLD, &%s);" % (u, st))
        elif how == 2:
            out.append("MPI_Send(&%s, 1, MPI_LONG, MPI_PROC_NULL, 9, MPI_COMM_WORLD);" % t)
            out.append("MPI_Recv(&%s, 1, MPI_LONG, MPI_PROC_NULL, 9, MPI_COMM_WORLD, &%s);" % (u, st))
        else:
            out.append("MPI_Sendrecv(&%s, 1, MPI_LONG, MPI_PROC_NULL, 9, &%s, 1, MPI_LONG, MPI_PROC_NULL, 9, "
                       "MPI_COMM_WORLD, &%s);" % (t, u, st))
        out.append("MPI_Get_count(&%s, MPI_LONG, &%s);" % (st, c))
        out.append("mix(%s); mix(%s + 3 * (%s.MPI_SOURCE == MPI_PROC_NULL) + 5 * (%s.MPI_TAG == MPI_ANY_TAG));"
                   % (u, c, st, st))

    def ring(self, f, out):
        t = self.fresh("t")
        u = self.fresh("u")
        f.locals.append("long %s = rank * 7 + 1, %s = 0;" % (t, u))
        how = self.r.randint(0, 12)
        if self.chance(0.2):
            self.agg_exchange(f, out, t, u)
        elif how >= 9:
            self.nb_exchange(f, out, t, u)
        elif how < 4 and self.chance(0.5):
            # The receive buffer alternates between two variables (what a
            # per-site cache of persistent requests holds).
            w, p = self.fresh("w"), self.fresh("p")
            f.locals.append("long %s = 0, *%s = &%s;" % (w, p, u))
            out.append("%s = (%s & 1) ? &%s : &%s;" % (p, u, u, w))
            out.append("MPI_Sendrecv(&%s, 1, MPI_LONG, (rank + 1) %% size, 5, %s, 1, MPI_LONG, "
                       "(rank + size - 1) %% size, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);" % (t, p))
            out.append("mix(%s);" % w)
        elif how < 4:
            # Peers the tool knows (offsets from the rank) or knows only at
            # run time (through argc: the self template's run-time check).
            hi, lo = self.pick([("(rank + 1) % size", "(rank + size - 1) % size"),
                                ("(rank + 1 + (argc_copy > 99)) % size", "(rank + size - 1) % size"),
                                ("(rank + (argc_copy > 99)) % size", "rank % size")])
            out.append("MPI_Sendrecv(&%s, 1, MPI_LONG, %s, 5, &%s, 1, MPI_LONG, "
                       "%s, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);" % (t, hi, u, lo))
        elif how < 7:
            # Blocking calls, even ranks sending first (one rank: no ring, as
            # a blocking send to itself may wait for ever).
            send = "MPI_Ssend" if self.chance(0.3) else "MPI_Send"
            snd = "%s(&%s, 1, MPI_LONG, (rank + 1) %% size, 7, MPI_COMM_WORLD);" % (send, t)
            rcv = "MPI_Recv(&%s, 1, MPI_LONG, (rank + size - 1) %% size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);" % u
            out.append("if (size > 1) {")
            out.append("if (rank %% 2 == 0) { %s %s } else { %s %s }" % (snd, rcv, rcv, snd))
            out.append("}")
        else:
            rq = self.fresh("rq")
            f.locals.append("MPI_Request %s[2];" % rq)
            out.append("MPI_Send_init(&%s, 1, MPI_LONG, (rank + 1) %% size, 6, MPI_COMM_WORLD, &%s[0]);" % (t, rq))
            out.append("MPI_Recv_init(&%s, 1, MPI_LONG, (rank + size - 1) %% size, 6, MPI_COMM_WORLD, &%s[1]);"
                       % (u, rq))
            out.append("MPI_Startall(2, %s);" % rq)
            out.append("MPI_Waitall(2, %s, MPI_STATUSES_IGNORE);" % rq)
            out.append("MPI_Request_free(&%s[0]);" % rq)
            out.append("MPI_Request_free(&%s[1]);" % rq)
        if self.chance(0.3):
            self.peers(f, out, t, u)
        # Every rank runs a ring: a broadcast or barrier may follow (what
        # persistent collectives look for in loops).
        extra = self.r.randint(0, 5)
        if extra == 0:
            out.append("MPI_Bcast(&%s, 1, MPI_LONG, size - 1, MPI_COMM_WORLD);" % u)
        elif extra == 1:
            out.append("MPI_Barrier(MPI_COMM_WORLD);")
        out.append("mix(%s);" % u)

    AGG_TYPES = [("long", "MPI_LONG"), ("int", "MPI_INT"), ("double", "MPI_DOUBLE"), ("char", "MPI_CHAR")]

    def agg_exchange(self, f, out, t, u):
        """Adjacent blocking sends to one peer and the receives that take
        them (what message-aggregation packs into one message): 2-4 parts of
        mixed types with tags of their own (one repeated, sometimes), counts
        from 0, receives larger than the message, statuses read back, peers
        MPI_PROC_NULL; sometimes a lone message of one of the tags, or a
        receive count that the first receive delivers (both must keep the
        calls separate)."""
        self.nagg = getattr(self, "nagg", 0) + 1
        base = 100 + 10 * self.nagg
        k = self.r.randint(2, 4)
        tags = [base + i for i in range(k)]
        if self.chance(0.2):
            tags[1] = tags[0]
        null = self.chance(0.15)
        right = "MPI_PROC_NULL" if null else "(rank + 1) % size"
        left = "MPI_PROC_NULL" if null else "(rank + size - 1) % size"
        follows = self.chance(0.15)  # the second receive's count is what the first delivers
        sends, recvs, after, reads = [], [], [], []  # reads: of statuses, only where the calls ran
        for i in range(k):
            ctype, mtype = ("int", "MPI_INT") if follows and i == 0 else self.pick(self.AGG_TYPES)
            n = 1 if follows and i == 0 else self.r.randint(0, 5)
            a, b = self.fresh("ga"), self.fresh("gb")
            extra = self.r.randint(0, 2)
            f.locals.append("%s %s[%d], %s[%d];" % (ctype, a, max(n, 1), b, max(n + extra, 1)))
            out.append("for (int i = 0; i < %d; i++) %s[i] = (%s)(rank * 3 + i + %d);" % (max(n, 1), a, ctype, i))
            out.append("memset(%s, 0, sizeof %s);" % (b, b))
            if i == 0:
                head = (a, b)  # the first part's arrays: what a following count reads
            # the payload's count: what the first part carries (at most 3)
            scount, count = ("%s[0]" % head[0], "%s[0]" % head[1]) if follows and i == 1 else (str(n), str(n + extra))
            st = "MPI_STATUS_IGNORE"
            if self.chance(0.4):
                st = self.fresh("gs")
                f.locals.append("MPI_Status %s;" % st)
                reads.append("{ int c = -1; MPI_Get_count(&%s, %s, &c); mix(c); mix(%s.MPI_TAG); mix(%s.MPI_SOURCE); }"
                             % (st, mtype, st, st))
                st = "&" + st
            sends.append("MPI_Send(%s, %s, %s, %s, %d, MPI_COMM_WORLD);" % (a, scount, mtype, right, tags[i]))
            recvs.append("MPI_Recv(%s, %s, %s, %s, %d, MPI_COMM_WORLD, %s);" % (b, count, mtype, left, tags[i], st))
            after.append("for (int i = 0; i < %d; i++) mix((long)%s[i]);" % (max(n + extra, 1), b))
            if follows and i == 1:
                # the count the first part carries: within the payload's arrays
                out.append("%s[0] = %d;" % (head[0], self.r.randint(0, max(n, 1))))
        lone_s = lone_r = ""
        if self.chance(0.2):
            lone_s = "MPI_Send(&%s, 1, MPI_LONG, %s, %d, MPI_COMM_WORLD);" % (t, right, tags[0])
            lone_r = "MPI_Recv(&%s, 1, MPI_LONG, %s, %d, MPI_COMM_WORLD, MPI_STATUS_IGNORE);" % (u, left, tags[0])
        # The lone message is no part of the group: a statement between.
        S = " ".join(sends) + (" mix(0); " + lone_s if lone_s else "")
        R = " ".join(recvs) + (" mix(0); " + lone_r if lone_r else "")
        # One rank: no ring (a blocking send to itself may wait for ever).
        out.append("if (size > 1 || %d) {" % null)
        out.append("if (rank %% 2 == 0) { %s %s } else { %s %s }" % (S, R, R, S))
        out.extend(reads)
        out.append("}")
        out.extend(after)

    def nb_exchange(self, f, out, t, u):
        """A ring through nonblocking calls (what nonblocking-persistent
        rewrites): requests in an array or scalars, a neighbour loop whose
        peers and buffers come from arrays, completed by any kind of wait or
        test; whether each request is MPI_REQUEST_NULL afterwards is mixed
        in with the data and statuses."""
        rq, st, k, fl, ix = (self.fresh(x) for x in ("rq", "st", "k", "fl", "ix"))
        n = self.r.randint(1, 3)
        v = self.fresh("v")
        # The requests in an array, or in heap memory allocated for the
        # exchange and freed after it (nonblocking-persistent follows a
        # pointer that alone reaches its memory).
        heap = self.hr.choice([0, 0, 0, 1, 2])
        # In a global (array, or pointer with heap), completed here or by a
        # helper (MPI_Waitall, MPI_Waitany).
        glob = self.gq.random() < 0.3
        remote = glob and self.gq.random() < 0.5
        if glob:
            self.globals.append("static MPI_Request %s%s;" % ("*" + rq if heap else rq, "" if heap else "[%d]" % (2 * n)))
        if heap:
            f.locals.append("%sMPI_Status %s[%d]; int %s; long %s[%d];"
                            % ("" if glob else "MPI_Request *%s; " % rq, st, 2 * n, k, v, n))
            out.append("%s = %s;" % (rq, "malloc(%d * sizeof(MPI_Request))" % (2 * n) if heap == 1 else
                                     "(MPI_Request *)calloc(%d, sizeof(MPI_Request))" % (2 * n)))
            out.append("if (!%s) abort();" % rq)
        elif glob:
            f.locals.append("MPI_Status %s[%d]; int %s; long %s[%d];" % (st, 2 * n, k, v, n))
        else:
            f.locals.append("MPI_Request %s[%d]; MPI_Status %s[%d]; int %s; long %s[%d];"
                            % (rq, 2 * n, st, 2 * n, k, v, n))
        right, left = "(rank + 1) % size", "(rank + size - 1) % size"
        pair = n == 1 and self.chance(0.5)
        # Calls in an if or with their result kept (what communication-overlap
        # moves with their statement); gz, which an if reads, may be cleared
        # after the waits (a wait moved past that would be skipped).
        gz, rc = self.fresh("gz"), self.fresh("rc")
        f.locals.append("int %s = 1, %s = 0, %s_n = 0;" % (gz, rc, gz))
        out.append("%s = 1;" % gz)

        def wrap(call):
            kind = self.r.randint(0, 11)
            if kind == 0:
                return "if (size > 0) " + call
            if kind == 1:
                return "if (%s) { %s }" % (gz, call)
            if kind == 2:
                return "%s = %s" % (rc, call)
            if kind == 3:  # more in the if's block: a wait may leave the if (with a copy of its condition)
                return "if (%s) { %s %s_n++; }" % (gz, call, gz)
            return call
        if pair:
            count, cp = "1", None
            if self.chance(0.3):  # the count read through a pointer to memory it owns, set just before
                cp, j = self.fresh("cp"), self.fresh("j")  # (a receive posted above that gets 0)
                f.locals.append("int *%s, %s; unsigned long %s_s[4] = {0};" % (cp, j, cp))
                out.append("%s = malloc(sizeof(int));" % cp)
                out.append("*%s = 0;" % cp)
                out.append("for (%s = 0; %s < 4; %s++) %s_s[%s] += (unsigned long)%s * 7 + 1;" % (j, j, j, cp, j, j))
                out.append("*%s = 1;" % cp)
                count = "*" + cp
            recv = wrap("MPI_Irecv(&%s, %s, MPI_LONG, %s, 11, MPI_COMM_WORLD, &%s[0]);" % (u, count, left, rq))
            send = "MPI_Isend(&%s, 1, MPI_LONG, %s, 11, MPI_COMM_WORLD, &%s[1]);" % (t, right, rq)
            # the send first now and then (communication-overlap posts the receive before it)
            if self.chance(0.4):
                pk, j = self.fresh("pk"), self.fresh("j")
                f.locals.append("unsigned long %s[6] = {0}; int %s;" % (pk, j))
                out.append("for (%s = 0; %s < 6; %s++) %s[%s] = %s[%s] * 5 + (unsigned long)%s;" % (j, j, j, pk, j, pk, j, j))
                out.extend([send, recv, "mix((long)(%s[5] %% 1009));" % pk])
            else:
                out.extend([recv, send])
        else:
            out.append("for (%s = 0; %s < %d; %s++) MPI_Irecv(&%s[%s], 1, MPI_LONG, (%s %% 2) ? %s : %s, 12 + %s, "
                       "MPI_COMM_WORLD, &%s[%s]);" % (k, k, n, k, v, k, k, right, left, k, rq, k))
            out.append("for (%s = 0; %s < %d; %s++) %s(&%s, 1, MPI_LONG, (%s %% 2) ? %s : %s, 12 + %s, "
                       "MPI_COMM_WORLD, &%s[%d + %s]);"
                       % (k, k, n, k, "MPI_Issend" if self.chance(0.2) else "MPI_Isend", t, k, left, right, k, rq,
                          n, k))
        how = self.r.randint(0, 5)
        if how == 5 and not pair:
            how = 0  # one MPI_Waitall statement: what communication-overlap can move
        if how in (3, 4):
            f.locals.append("int %s;" % fl)
            out.append("%s = 0;" % fl)
        elif how == 2 and not remote:
            f.locals.append("int %s;" % ix)
        if remote and how in (0, 2):
            h = Func(self.fresh("done"), params="int k, MPI_Status *s")
            if how == 0:
                h.body = ["MPI_Waitall(%d, %s, s);" % (2 * n, rq)]
            else:
                h.locals.append("int hx, hk;")
                h.body = ["for (hk = 0; hk < %d; hk++) MPI_Waitany(%d, %s, &hx, &s[0]);" % (2 * n, 2 * n, rq),
                          "(void)hx;"]
            self.funcs.append(h)
            out.append("%s(0, %s);" % (h.name, st))
        elif how == 0:
            out.append(wrap("MPI_Waitall(%d, %s, %s);" % (2 * n, rq, st)))
        elif how == 1:
            out.append("for (%s = 0; %s < %d; %s++) MPI_Wait(&%s[%s], &%s[%s]);" % (k, k, 2 * n, k, rq, k, st, k))
        elif how == 2:
            out.append("for (%s = 0; %s < %d; %s++) MPI_Waitany(%d, %s, &%s, &%s[0]);"
                       % (k, k, 2 * n, k, 2 * n, rq, ix, st))
        elif how == 3:
            out.append("while (!%s) MPI_Testall(%d, %s, &%s, %s);" % (fl, 2 * n, rq, fl, st))
        elif how == 4:
            out.append("for (%s = 0; %s < %d; %s++) { %s = 0; while (!%s) MPI_Test(&%s[%s], &%s, &%s[%s]); }"
                       % (k, k, 2 * n, k, fl, fl, rq, k, fl, st, k))
        else:  # the send's and the receive's waits, in either order
            waits = [wrap("MPI_Wait(&%s[0], &%s[0]);" % (rq, st)), wrap("MPI_Wait(&%s[1], &%s[1]);" % (rq, st))]
            if self.chance(0.5):
                waits.reverse()
            out.extend(waits)
        if how in (0, 1, 5):
            self.after_waits(f, out, t, u if pair else "%s[0]" % v, gz, rc)
        out.append("mix(%s + %s + %s_n);" % (gz, rc, gz))
        if pair and cp:
            out.append("mix((long)%s_s[3]); free(%s);" % (cp, cp))
        if not pair:
            out.append("for (%s = 0; %s < %d; %s++) %s += %s[%s] * (%s + 1);" % (k, k, n, k, u, v, k, k))
        out.append("for (%s = 0; %s < %d; %s++) mix(%s[%s] == MPI_REQUEST_NULL);" % (k, k, 2 * n, k, rq, k))
        if heap:
            out.append("free(%s);" % rq if heap == 1 else "if (%s != NULL) free(%s);" % (rq, rq))

    def after_waits(self, f, out, t, u, gz, rc):
        """Computation after a nonblocking exchange's waits (what
        communication-overlap moves the waits past): a loop on a scratch
        array, then sometimes a read of the received data, a write of the
        sent one, a read of a wait's result rc or a write of gz (a wait's
        if reads it), then more of the loop."""
        sc, j = self.fresh("sc"), self.fresh("j")
        f.locals.append("unsigned long %s[8] = {0}; int %s;" % (sc, j))
        loop = "for (%s = 0; %s < 8; %s++) %s[%s] = %s[%s] * 3 + (unsigned long)%s + (unsigned long)%s;" % (
            j, j, j, sc, j, sc, j, j, t)
        out.append(loop)
        what = self.r.randint(0, 5)
        if what == 0:
            out.append("%s[1] += (unsigned long)%s;" % (sc, u))
        elif what == 1:
            out.append("%s += (long)(%s[2] %% 1000);" % (t, sc))
        elif what == 2:
            out.append("%s[2] += (unsigned long)%s;" % (sc, rc))
        elif what == 3:
            out.append("%s = 0;" % gz)
        if self.chance(0.5):
            out.append(loop)
        out.append("mix((long)((%s[7] + %s[1]) %% 1000003));" % (sc, sc))

    def dtype_type(self, t, dyn, decls, build):
        """A derived datatype t of doubles (what datatype-templates compiles),
        built from static arguments or, with dyn, from values known only at
        run time; its span with up to 2 elements fits in 240 doubles.
        Returns how many elements of it to send."""
        num = (lambda v: "(%d + argc_copy - 1)" % v) if dyn else str
        kind = self.pick(["contiguous", "vector", "hvector", "subarray2", "subarray3", "resized", "indexed"])
        self.interleaved = kind == "resized"
        r = self.r.randint
        if kind == "indexed":  # blocks apart by uneven gaps, in any order: a run list (or a vector)
            nb, bl, at, displs = r(3, 5), r(1, 3), 0, []
            for _ in range(nb):
                displs.append(at)
                at += bl + r(0, 4)
            if self.chance(0.3):
                self.r.shuffle(displs)
            hindexed = self.chance(0.3)
            decls.append("%s %s_d[%d] = {%s};" % ("MPI_Aint" if hindexed else "int", t, nb, ", ".join(
                "(MPI_Aint)(8 * %s)" % num(d) if hindexed else num(d) for d in displs)))
            build.append("MPI_Type_create_%sindexed_block(%d, %s, %s_d, MPI_DOUBLE, &%s);"
                         % ("h" if hindexed else "", nb, num(bl), t, t))
            return r(1, 2)
        if kind == "contiguous":
            build.append("MPI_Type_contiguous(%s, MPI_DOUBLE, &%s);" % (num(r(1, 20)), t))
            return r(1, 3)
        if kind in ("vector", "hvector", "resized"):
            c, bl = r(1, 6), r(1, 3)
            st = bl + r(0, 5)
            if kind == "hvector":  # now and then 4 bytes off the doubles' alignment (Open MPI pads the extent)
                build.append("MPI_Type_create_hvector(%s, %s, %s, MPI_DOUBLE, &%s);"
                             % (num(c), num(bl), "(MPI_Aint)(8 * %s + %d)" % (num(st), 4 if self.chance(0.25) else 0),
                                t))
            elif kind == "vector":
                build.append("MPI_Type_vector(%s, %s, %s, MPI_DOUBLE, &%s);" % (num(c), num(bl), num(st), t))
            else:  # a column resized to one double: elements interleave (a stride of 2 or more, so 2 never overlap)
                st = max(st, 2)
                decls.append("MPI_Datatype %s_col;" % t)
                build.append("MPI_Type_vector(%s, 1, %s, MPI_DOUBLE, &%s_col);" % (num(c), num(st), t))
                build.append("MPI_Type_create_resized(%s_col, 0, %s, &%s);"
                             % (t, "(MPI_Aint)sizeof(double)" if not dyn else "(MPI_Aint)(8 * argc_copy)", t))
                build.append("MPI_Type_free(&%s_col);" % t)
            return r(1, 2)
        dims = 2 if kind == "subarray2" else 3
        top = 10 if dims == 2 else 5
        sizes = [r(1, top) for _ in range(dims)]
        subs = [r(1, n) for n in sizes]
        starts = [r(0, n - m) for n, m in zip(sizes, subs)]
        decls.append("int %s_sz[%d] = {%s}, %s_sub[%d] = {%s}, %s_at[%d] = {%s};" % (
            t, dims, ", ".join(num(v) for v in sizes), t, dims, ", ".join(map(str, subs)), t, dims,
            ", ".join(map(str, starts))))
        build.append("MPI_Type_create_subarray(%d, %s_sz, %s_sub, %s_at, %s, MPI_DOUBLE, &%s);" % (
            dims, t, t, t, self.pick(["MPI_ORDER_C", "MPI_ORDER_FORTRAN"]), t))
        return 1

    def dtype_exchange(self, f, out):
        """A derived datatype built, used in a ring (blocking or not),
        between pairs or in a collective (a broadcast, a gather, an
        all-to-all: the buffers hold a chunk per rank, up to 4), and freed, in a block of its own
        (datatype-templates: static shapes, subarrays, resized types, shapes
        recorded at run time)."""
        t, a, b, st, i = (self.fresh(p) for p in ("dt", "da", "db", "dst", "di"))
        decls, build = ["MPI_Datatype %s;" % t, "double %s[960], %s[960];" % (a, b), "MPI_Status %s;" % st,
                        "int %s, %s_n = -1;" % (i, t)], []
        count = self.dtype_type(t, self.chance(0.4), decls, build)
        off = self.r.randint(0, 3)
        out.append("{")
        body = decls + build + ["MPI_Type_commit(&%s);" % t,
                                "for (%s = 0; %s < 960; %s++)" % (i, i, i),
                                "  %s[%s] = rank * 1000 + %s, %s[%s] = -1;" % (a, i, i, b, i)]
        how = min(self.r.randint(0, 8), 6)  # nonblocking (6) three times as often: its completions vary most
        if self.interleaved and how in (4, 5):
            # A chunk per process of a column resized to one double: from a
            # few processes on, the chunks overlap (an erroneous receive).
            how = 0
        if how == 0:  # a ring, the same type on both sides
            body.append("MPI_Sendrecv(&%s[%d], %d, %s, (rank + 1) %% size, 8, %s, %d, %s, (rank + size - 1) %% size, "
                        "8, MPI_COMM_WORLD, &%s);" % (a, off, count, t, b, count, t, st))
            body.append("MPI_Get_count(&%s, %s, &%s_n);" % (st, t, t))
        elif how == 1:  # a ring into contiguous doubles: the order on the wire
            body.append("MPI_Sendrecv(&%s[%d], %d, %s, (rank + 1) %% size, 8, %s, 240, MPI_DOUBLE, "
                        "(rank + size - 1) %% size, 8, MPI_COMM_WORLD, &%s);" % (a, off, count, t, b, st))
            body.append("MPI_Get_count(&%s, MPI_DOUBLE, &%s_n);" % (st, t))
        elif how == 3:  # a broadcast from the first or the last rank
            body.append("MPI_Bcast(&%s[%d], %d, %s, %s, MPI_COMM_WORLD);" % (a, off, count, t,
                                                                              self.pick(["0", "size - 1"])))
            body.append("%s_n = (int)%s[%d];" % (t, a, off))
        elif how == 4:  # a gather to rank 0: chunk r of the result one count of extents after chunk r - 1
            body.append("MPI_Gather(&%s[%d], %d, %s, %s, %d, %s, 0, MPI_COMM_WORLD);" % (a, off, count, t, b, count, t))
        elif how == 5:  # an all-to-all, the same type on both sides
            body.append("MPI_Alltoall(%s, %d, %s, %s, %d, %s, MPI_COMM_WORLD);" % (a, count, t, b, count, t))
        elif how == 6:  # a nonblocking ring: scalar requests waited in either order, or an array and MPI_Waitall
            rq = self.fresh("drq")
            arr = self.chance(0.7)
            r_, s_ = ("%s[0]" % rq, "%s[1]" % rq) if arr else ("%s_r" % rq, "%s_s" % rq)
            body.insert(0, "MPI_Request %s[2]; MPI_Status %s_st[2];" % (rq, rq) if arr else
                        "MPI_Request %s_r, %s_s;" % (rq, rq))
            body.append("MPI_Irecv(%s, %d, %s, (rank + size - 1) %% size, 10, MPI_COMM_WORLD, &%s);"
                        % (b, count, t, r_))
            body.append("MPI_%s(&%s[%d], %d, %s, (rank + 1) %% size, 10, MPI_COMM_WORLD, &%s);"
                        % (self.pick(["Isend", "Isend", "Issend"]), a, off, count, t, s_))
            how_done = self.r.randint(0, 5) if arr else 0
            fl, ix, oc = self.fresh("dfl"), self.fresh("dix"), self.fresh("doc")
            if arr and how_done == 1:  # a wait for any, twice; then maybe the same again (all complete)
                body.insert(0, "int %s;" % ix)
                start = body[-2:]  # the receive and the send
                for again in range(self.r.randint(1, 2)):
                    if again:
                        body.extend(start)
                    body.append("for (int %s_k = 0; %s_k < 2; %s_k++) {" % (ix, ix, ix))
                    body.append("  MPI_Waitany(2, %s, &%s, &%s_st[0]);" % (rq, ix, rq))
                    body.append("  if (%s == 0) %s = %s_st[0];" % (ix, st, rq))
                    body.append("}")
            elif arr and how_done == 2:  # waits for some until both are done
                body.insert(0, "int %s, %s_got[2];" % (oc, oc))
                body.append("for (int %s_n = 0; %s_n < 2; %s_n += %s)" % (oc, oc, oc, oc))
                body.append("  MPI_Waitsome(2, %s, &%s, %s_got, %s_st);" % (rq, oc, oc, rq))
                # the statuses come in completion order: an empty one instead
                body.append("MPI_Wait(&%s[0], &%s);" % (rq, st))
            elif arr and how_done == 3:  # tested until both are done
                body.insert(0, "int %s = 0;" % fl)
                body.append("while (!%s)" % fl)
                body.append("  MPI_Testall(2, %s, &%s, %s_st);" % (rq, fl, rq))
                body.append("%s = %s_st[0];" % (st, rq))
            elif arr and how_done == 4:  # the receive tested until done, then the send waited for
                body.insert(0, "int %s;" % fl)
                body.append("do {")
                body.append("  MPI_Test(&%s[0], &%s, &%s);" % (rq, fl, st))
                body.append("} while (!%s);" % fl)
                body.append("MPI_Wait(&%s[1], MPI_STATUS_IGNORE);" % rq)
            elif arr and how_done == 5:  # tests for some until both are done
                body.insert(0, "int %s, %s_got[2], %s_open = 2;" % (oc, oc, oc))
                body.append("while (%s_open > 0) {" % oc)
                body.append("  MPI_Testsome(2, %s, &%s, %s_got, %s_st);" % (rq, oc, oc, rq))
                body.append("  if (%s != MPI_UNDEFINED) %s_open -= %s;" % (oc, oc, oc))
                body.append("}")
                body.append("MPI_Wait(&%s[0], &%s);" % (rq, st))
            elif arr:
                body.append("MPI_Waitall(2, %s, %s_st);" % (rq, rq))
                body.append("%s = %s_st[0];" % (st, rq))
            else:
                waits = ["MPI_Wait(&%s, &%s);" % (r_, st), "MPI_Wait(&%s, MPI_STATUS_IGNORE);" % s_]
                if self.chance(0.5):
                    waits.reverse()
                body += waits
            body.append("MPI_Get_count(&%s, %s, &%s_n);" % (st, t, t))
        else:  # pairs: the even rank sends with the type, the odd one receives with it
            body.append("if ((rank ^ 1) < size && rank % 2 == 0)")
            body.append("  MPI_Send(&%s[%d], %d, %s, rank ^ 1, 9, MPI_COMM_WORLD);" % (a, off, count, t))
            body.append("else if ((rank ^ 1) < size) {")
            body.append("  MPI_Recv(%s, %d, %s, rank ^ 1, 9, MPI_COMM_WORLD, &%s);" % (b, count, t, st))
            body.append("  MPI_Get_count(&%s, %s, &%s_n);" % (st, t, t))
            body.append("}")
        body += ["for (%s = 0; %s < 960; %s++)" % (i, i, i),
                 "  mix((long)%s[%s] * (%s + 1) + (long)%s[%s]);" % (b, i, i, a, i),
                 "mix(%s_n);" % t,
                 "MPI_Type_free(&%s);" % t]
        out.extend("  " + l for l in body)
        out.append("}")

    def bcast_if(self, f, out):
        """A value set on the root, or from each rank's own, made the same on
        every rank by MPI_Bcast or an in-place MPI_Allreduce, then a branch on
        it; sometimes changed on one rank afterwards, and then both arms make
        the same collectives."""
        v = self.fresh("b")
        f.locals.append("int %s = 0;" % v)
        w = self.r.random()
        if w < 0.35:
            out.append("if (rank == 0) %s = %d;" % (v, self.r.randint(0, 6)))
            out.append("MPI_Bcast(&%s, 1, MPI_INT, 0, MPI_COMM_WORLD);" % v)
        elif w < 0.65 and self.br.random() < 0.3:
            # An array the root fills in its own arm, broadcast whole after
            # the if; sometimes only part of it is broadcast, or it is read
            # before the broadcast (then the branch must stay as it is).
            arr = self.fresh("bo")
            f.locals.append("int %s[3] = {0, 0, 0};" % arr)
            k = self.br.randint(0, 2)
            kind = self.br.choice(["whole", "whole", "part", "early"])
            out.append("if (%s) {" % self.pick(["rank == 0", "!rank", "0 == rank"]))
            out.append("  %s[0] = %d;" % (arr, self.r.randint(0, 6)))
            out.append("  for (int %s_i = 1; %s_i < 3; %s_i++)" % (arr, arr, arr))
            out.append("    %s[%s_i] = %s[%s_i - 1] + %d;" % (arr, arr, arr, arr, self.r.randint(0, 2)))
            out.append("}")
            if kind == "early":
                out.append("%s = %s[%d];" % (v, arr, k))
            out.append("MPI_Bcast(%s, %d, MPI_INT, 0, MPI_COMM_WORLD);" % (arr, 1 if kind == "part" else 3))
            if kind != "early":
                out.append("%s = %s[%d];" % (v, arr, k if kind == "whole" else 2))
            if kind != "whole":
                f.vars.append(Var(v, "int", readonly=True))
                self.both_arms(f, out, "%s > 1" % v, [self.signature() for _ in range(self.r.randint(1, 2))])
                return
        elif w < 0.65 and self.br.random() < 0.4:
            # The root broadcasts it itself, in both arms; sometimes a rank
            # changes it after (then the branch on it must stay as it is).
            guarded = self.bg.random() < 0.5
            g = self.fresh("bg") if guarded else None
            if guarded:
                f.locals.append("int %s = 0;" % g)
                reset = self.bg.random() < 0.3
                out.append("if (%s) {" % self.pick(["rank == 0", "!rank", "0 == rank"]))
                out.append("  if (size %s %d) {" % (self.bg.choice([">=", "<"]), self.bg.randint(1, 4)))
                out.append("    %s = %d;" % (v, self.r.randint(2, 6)))
                out.append("    %s = 1;" % g)
                out.append("  }")
                if reset:
                    out.append("  %s = 0;" % g)
                out.append("  MPI_Bcast(&%s, 1, MPI_INT, 0, MPI_COMM_WORLD);" % g)
                out.append("  if (%s)" % g)
                out.append("    MPI_Bcast(&%s, 1, MPI_INT, 0, MPI_COMM_WORLD);" % v)
                out.append("} else {")
                out.append("  MPI_Bcast(&%s, 1, MPI_INT, 0, MPI_COMM_WORLD);" % g)
                out.append("  if (%s)" % g)
                out.append("    MPI_Bcast(&%s, 1, MPI_INT, 0, MPI_COMM_WORLD);" % v)
            else:
                reset = False
                out.append("if (%s) {" % self.pick(["rank == 0", "!rank", "0 == rank"]))
                out.append("  %s = %d;" % (v, self.r.randint(0, 6)))
                out.append("  MPI_Bcast(&%s, 1, MPI_INT, 0, MPI_COMM_WORLD);" % v)
                out.append("} else {")
                out.append("  MPI_Bcast(&%s, 1, MPI_INT, 0, MPI_COMM_WORLD);" % v)
            poison = self.br.random() < 0.25
            if poison:
                out.append("  %s += rank %% 2;" % v)
            out.append("}")
            poison |= reset
            if poison:
                f.vars.append(Var(v, "int", readonly=True))
                self.both_arms(f, out, "%s > 1" % v, [self.signature() for _ in range(self.r.randint(1, 2))])
                return
        elif w < 0.65:
            # The root packs it into a buffer, the others unpack it.
            pk = self.fresh("pk")
            f.locals.append("int %s[3] = {0, 0, 0};" % pk)
            k = self.r.randint(0, 2)
            out.append("if (%s) {" % self.pick(["rank == 0", "!rank", "0 == rank"]))
            out.append("  %s = %d;" % (v, self.r.randint(0, 6)))
            out.append("  %s[%d] = %s;" % (pk, k, v))
            out.append("  MPI_Bcast(%s, 3, MPI_INT, 0, MPI_COMM_WORLD);" % pk)
            out.append("} else {")
            out.append("  MPI_Bcast(%s, 3, MPI_INT, 0, MPI_COMM_WORLD);" % pk)
            out.append("  %s = %s[%d];" % (v, pk, k))
            out.append("}")
        else:
            out.append("%s = rank %% %d;" % (v, self.r.randint(2, 5)))
            out.append("MPI_Allreduce(MPI_IN_PLACE, &%s, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);" % v)
        f.vars.append(Var(v, "int", readonly=True))
        if self.chance(0.3):
            out.append("if (rank == size - 1) %s = -1;" % v)
            self.both_arms(f, out, "%s > 1" % v, [self.signature() for _ in range(self.r.randint(1, 2))])
            return
        self.branch_on(f, out, "%s > 1" % v, False)

    def grid_halo(self, f, out):
        """A ring exchange of a grid's edge rows into its halo rows (the
        buffers u[0], u[R + 1], u[1], u[R]), completed by one MPI_Waitall,
        then a loop on a scratch array (which the wait may pass), sometimes
        a write of a sent row or a read of a received one (which it may
        not), and a stencil over the grid."""
        g = self.hg
        rows, cols = g.randint(2, 5), g.randint(3, 6)
        u, w, q, i, j = (self.fresh(x) for x in ("gu", "gw", "gq", "gi", "gj"))
        out.append("{")
        out.append("  double %s[%d][%d], %s[%d][%d], %s[%d];" % (u, rows + 2, cols, w, rows + 2, cols, q, cols))
        out.append("  MPI_Request %s_r[4];" % u)
        out.append("  for (int %s = 0; %s < %d; %s++)" % (i, i, rows + 2, i))
        out.append("    for (int %s = 0; %s < %d; %s++) %s[%s][%s] = %s[%s][%s] = rank * 100 + %s * 10 + %s;"
                   % (j, j, cols, j, u, i, j, w, i, j, i, j))
        right, left = "(rank + 1) % size", "(rank + size - 1) % size"
        out.append("  MPI_Irecv(%s[0], %d, MPI_DOUBLE, %s, 21, MPI_COMM_WORLD, &%s_r[0]);" % (u, cols, left, u))
        out.append("  MPI_Irecv(%s[%d], %d, MPI_DOUBLE, %s, 22, MPI_COMM_WORLD, &%s_r[1]);" % (u, rows + 1, cols, right, u))
        out.append("  MPI_Isend(%s[%d], %d, MPI_DOUBLE, %s, 21, MPI_COMM_WORLD, &%s_r[2]);" % (u, rows, cols, right, u))
        out.append("  MPI_Isend(%s[1], %d, MPI_DOUBLE, %s, 22, MPI_COMM_WORLD, &%s_r[3]);" % (u, cols, left, u))
        out.append("  MPI_Waitall(4, %s_r, MPI_STATUSES_IGNORE);" % u)
        out.append("  for (int %s = 0; %s < %d; %s++) %s[%s] = %s * 0.5 + rank;" % (j, j, cols, j, q, j, j))
        kind = g.randint(0, 3)
        if kind == 1:
            out.append("  %s[1][0] += 1.0;" % u)  # a sent row: the wait may not pass this
        elif kind == 2:
            out.append("  %s[0] += %s[0][0];" % (q, u))  # a received row: nor this
        out.append("  for (int %s = 1; %s <= %d; %s++)" % (i, i, rows, i))
        out.append("    for (int %s = 1; %s < %d; %s++)" % (j, j, cols - 1, j))
        out.append("      %s[%s][%s] = %s[%s - 1][%s] + %s[%s + 1][%s] + %s[%s][%s - 1] + %s[%s][%s + 1] + %s[%s];"
                   % (w, i, j, u, i, j, u, i, j, u, i, j, u, i, j, q, j))
        out.append("  for (int %s = 0; %s < %d; %s++)" % (i, i, rows + 2, i))
        out.append("    for (int %s = 0; %s < %d; %s++) mix((long)%s[%s][%s] + (long)%s[%s][%s] * 3);"
                   % (j, j, cols, j, w, i, j, u, i, j))
        out.append("}")

    def bcast_group(self, f, out):
        """Two to five adjacent MPI_Bcast statements from one root (0, the
        last rank, or one that takes turns in a loop) of fresh variables
        each rank sets differently: scalars of four types, parts of one
        array (overlapping, or an element's address), heap memory, a count
        broadcast just before the payload that uses it (which must stay
        separate), a payload over 1 KiB, and sometimes the root's and the
        others' copies of the run in the two arms of an if."""
        g = self.bf
        comm = g.choice(self.comms)
        loop = g.random() < 0.25
        idx = self.fresh("bi")
        if comm == "chalf":
            root = "0"
        else:
            root = g.choice(["0", "size - 1", "%s %% size" % idx if loop else "0"])
        decls, calls, uses = [], [], []
        for _ in range(g.randint(2, 5)):
            kind = g.choice(["int", "long", "double", "char", "array", "overlap", "heap", "count", "big"])
            v = self.fresh("bv")
            if kind in ("int", "long", "double"):
                decls.append("%s %s = (%s)(rank * 3 + %d);" % (kind, v, kind, g.randint(0, 9)))
                calls.append("MPI_Bcast(&%s, 1, %s, %s, %s);" % (v, TYPES[kind][0], root, comm))
                uses.append("mix((long)%s);" % v)
            elif kind == "char":
                decls.append("char %s[6] = {(char)('a' + rank), 'b', 'c', 'd', 'e', 0};" % v)
                calls.append("MPI_Bcast(%s, 6, MPI_CHAR, %s, %s);" % (v, root, comm))
                uses.append("mix((long)%s[0] + %s[4]);" % (v, v))
            elif kind in ("array", "overlap"):
                decls.append("int %s[4] = {rank, rank + 1, rank * 2, %d};" % (v, g.randint(0, 9)))
                calls.append("MPI_Bcast(%s, 3, MPI_INT, %s, %s);" % (v, root, comm))
                if kind == "overlap":
                    calls.append("MPI_Bcast(&%s[%d], 2, MPI_INT, %s, %s);" % (v, g.randint(1, 2), root, comm))
                uses.append("mix((long)%s[0] + %s[1] * 7 + %s[2] * 49 + %s[3] * 343);" % (v, v, v, v))
            elif kind == "heap":
                decls.append("double *%s = xalloc(3 * sizeof(double));" % v)
                decls.append("%s[0] = rank; %s[1] = 1.5; %s[2] = rank * 0.25;" % (v, v, v))
                calls.append("MPI_Bcast(%s, 3, MPI_DOUBLE, %s, %s);" % (v, root, comm))
                uses.append("mix((long)(%s[0] * 4 + %s[2] * 8)); free(%s);" % (v, v, v))
            elif kind == "count":
                n = self.fresh("bn")
                decls.append("int %s = 2 + rank %% 2;" % n)
                decls.append("long %s[4] = {rank, rank, rank, rank};" % v)
                calls.append("MPI_Bcast(&%s, 1, MPI_INT, %s, %s);" % (n, root, comm))
                calls.append("MPI_Bcast(%s, %s, MPI_LONG, %s, %s);" % (v, n, root, comm))
                uses.append("mix(%s + %s[0] + %s[1] * 3 + %s[3] * 9);" % (n, v, v, v))
            else:
                m = g.choice([140, "argc_copy * 150", "argc_copy * 100"])
                decls.append("static double %s[160];" % v)
                decls.append("for (int %s_i = 0; %s_i < 160; %s_i++) %s[%s_i] = rank + %s_i;" % (v, v, v, v, v, v))
                calls.append("MPI_Bcast(%s, %s, MPI_DOUBLE, %s, %s);" % (v, m, root, comm))
                uses.append("mix((long)(%s[0] + %s[139]));" % (v, v))
        if loop:
            out.append("for (int %s = 0; %s < %d; %s++) {" % (idx, idx, g.randint(2, 3), idx))
        out.append("{")
        out.extend("  " + d for d in decls)
        if g.random() < 0.2:
            # the root's copy and the others' (the same run in each arm)
            out.append("  if (rank == %s) {" % root if comm != "chalf" else "  if (rank < 2) {")
            out.extend("    " + c for c in calls)
            out.append("  } else {")
            out.extend("    " + c for c in calls)
            out.append("  }")
        else:
            out.extend("  " + c for c in calls)
        out.extend("  " + u for u in uses)
        out.append("}")
        if loop:
            out.append("}")

    def heap_if(self, f, out):
        """Heap memory one pointer owns (a global or a local), filled with
        values that are the same on every rank (constants, a loop index, an
        allreduce into it), sometimes then made to differ (a store of the
        rank, a store on one rank, a store through a copy of the pointer, a
        memset of a rank-dependent byte); then a branch on an element. When
        the memory may differ, both arms make the same collectives."""
        if self.sh.random() < 0.5:
            return self.struct_heap_if(f, out)
        h = self.fresh("h")
        ctype = self.pick(["int", "long", "double"])
        mpitype = TYPES[ctype][0]
        glob = self.chance(0.5)
        if glob:
            self.globals.append("static %s *%s;" % (ctype, h))
        else:
            f.locals.append("%s *%s = NULL;" % (ctype, h))
        out.append("%s = %s;" % (h, self.pick(["malloc(4 * sizeof(%s))" % ctype,
                                               "(%s *)calloc(4, sizeof(%s))" % (ctype, ctype),
                                               "(%s *)xalloc(4 * sizeof(%s))" % (ctype, ctype)])))
        fill = self.r.randint(0, 2)
        if fill == 0:
            out.append("for (int i = 0; i < 4; i++) %s[i] = (%s)(i * %d);" % (h, ctype, self.r.randint(1, 3)))
        elif fill == 1:
            out.append("for (int i = 0; i < 4; i++) %s[i] = (%s)(rank + i);" % (h, ctype))
            out.append("MPI_Allreduce(MPI_IN_PLACE, %s, 4, %s, MPI_MAX, MPI_COMM_WORLD);" % (h, mpitype))
        else:
            out.append("*%s = 1; %s[1] = 2; *(%s + 2) = (%s)size; %s[3] = 0;" % (h, h, h, ctype, h))
            out.append("%s[3] += %s[1];" % (h, h))
        vary = self.chance(0.35)
        if vary:
            out.append(self.pick([
                "if (rank == size - 1) %s[0] = -1;" % h,
                "%s[1] = (%s)rank;" % (h, ctype),
                "{ %s *alias = %s; alias[0] = (%s)(rank %% 3); }" % (ctype, h, ctype),
                "memset(%s, rank & 1, sizeof(%s));" % (h, ctype)]))
        cond = self.pick(["%s[0] > 1" % h, "*%s > 0" % h, "*(%s + 1) > 2" % h, "%s[3] != 0" % h])
        self.branch_on(f, out, cond, vary)
        out.append("mix((long)%s[0] + (long)%s[3]);" % (h, h))
        out.append("free(%s);" % h)

    def struct_heap_if(self, f, out):
        """Heap memory of structs one pointer owns: filled alike on every
        rank, or filled by the root and packed field by field into doubles,
        broadcast and unpacked by the others (miniAMR's objects); read
        directly or through a local pointer given an element's address.
        Sometimes made to differ (a store of the rank, at an index within a
        field that follows the rank, through the alias, the unpack's fields
        swapped, a packed field changed on the root after its broadcast, an
        alias given an element that follows the rank); then both arms make
        the same collectives."""
        g = self.sh
        if not self.shape_type:
            self.shape_type = True
            self.globals.insert(0, "typedef struct { int kind; double cen[3]; } gshape;")
        s_ = self.fresh("sh")
        if g.random() < 0.5:
            self.globals.append("static gshape *%s;" % s_)
        else:
            f.locals.append("gshape *%s = NULL;" % s_)
        al = self.fresh("sa")
        f.locals.append("gshape *%s = NULL;" % al)
        packed = g.random() < 0.5
        vary = g.random() < 0.35
        how = g.choice(["rank", "sub", "alias", "swap", "late", "index"])
        if packed:
            pb, ii, io, np_ = self.fresh("pb"), self.fresh("ii"), self.fresh("io"), self.fresh("np")
            f.locals.append("double *%s = NULL;" % pb)
            f.locals.append("int %s = 0, %s = 0, %s = 4;" % (ii, io, np_))
            fields = ["%s[%s].kind" % (s_, io)] + ["%s[%s].cen[%d]" % (s_, io, k) for k in range(3)]
            out.append("if (%s) {" % g.choice(["rank == 0", "!rank", "0 == rank"]))
            out.append("  %s = malloc(4 * sizeof(gshape));" % s_)
            out.append("  for (int i = 0; i < 4; i++) {")
            out.append("    %s[i].kind = i + argc_copy * %d;" % (s_, g.randint(1, 3)))
            for k in range(3):
                out.append("    %s[i].cen[%d] = %d.5 * i + argc_copy;" % (s_, k, g.randint(0, 3)))
            out.append("  }")
            out.append("  %s = malloc(16 * sizeof(double));" % pb)
            out.append("  for (%s = %s = 0; %s < %s; %s++) {" % (ii, io, io, np_, io))
            out.append("    %s[%s++] = (double) %s;" % (pb, ii, fields[0]))
            for fl in fields[1:]:
                out.append("    %s[%s++] = %s;" % (pb, ii, fl))
            out.append("  }")
            out.append("  MPI_Bcast(%s, 4 * %s, MPI_DOUBLE, 0, MPI_COMM_WORLD);" % (pb, np_))
            if vary and how == "late":
                out.append("  %s[1].kind = -7;" % s_)
            out.append("} else {")
            out.append("  %s = malloc(4 * sizeof(gshape));" % s_)
            out.append("  %s = malloc(16 * sizeof(double));" % pb)
            out.append("  MPI_Bcast(%s, 4 * %s, MPI_DOUBLE, 0, MPI_COMM_WORLD);" % (pb, np_))
            out.append("  for (%s = %s = 0; %s < %s; %s++) {" % (ii, io, io, np_, io))
            order = list(fields)
            if vary and how == "swap":
                order[1], order[2] = order[2], order[1]
            out.append("    %s = (int) %s[%s++];" % (order[0], pb, ii))
            for fl in order[1:]:
                out.append("    %s = %s[%s++];" % (fl, pb, ii))
            out.append("  }")
            out.append("}")
            out.append("free(%s);" % pb)
        else:
            out.append("%s = %s;" % (s_, g.choice(["malloc(4 * sizeof(gshape))", "(gshape *)xalloc(4 * sizeof(gshape))"])))
            out.append("for (int i = 0; i < 4; i++) {")
            out.append("  %s[i].kind = i * %d;" % (s_, g.randint(1, 3)))
            out.append("  for (int k = 0; k < 3; k++)")
            out.append("    %s[i].cen[k] = k + 0.5 * i;" % s_)
            out.append("}")
        if vary and how in ("swap", "late") and not packed:
            how = "rank"
        if vary and how == "rank":
            out.append("if (rank == size - 1) %s[1].kind = -1;" % s_)
        elif vary and how == "sub":
            out.append("%s[2].cen[rank %% 3] = 9.5;" % s_)
        elif vary and how == "alias":
            out.append("{ gshape *w = &%s[0]; w->kind = rank; }" % s_)
        out.append("%s = &%s[%s];" % (al, s_, "rank % 4" if vary and how == "index" else str(g.randint(0, 3))))
        cond = g.choice(["%s[0].kind > 1" % s_, "%s[1].cen[2] > 1.0" % s_, "%s->kind > 0" % al,
                         "%s->cen[1] > 0.5" % al, "%s[2].kind != 3" % s_])
        self.branch_on(f, out, cond, vary)
        out.append("mix((long)%s[0].kind + (long)(%s[1].cen[2] * 4) + (long)%s->kind);" % (s_, s_, al))
        out.append("free(%s);" % s_)

    def goto_skip(self, f, out):
        self.nlabel += 1
        lab = "skip%d" % self.nlabel
        out.append("if (size %s 0) goto %s;" % (self.pick([">", "<"]), lab))
        body = []
        self.block(f, body, self.r.randint(1, 2))
        out.extend(body)
        out.append("%s:;" % lab)

    def elementwise_loop(self, f, out):
        """One-element reductions of consecutive array elements in a loop
        (what loop fusion looks for); the counter's final value is used."""
        ctype = self.pick(list(TYPES))
        mpitype, ops = TYPES[ctype]
        op = self.pick(ops)
        n = self.r.randint(1, 5)
        x, y, k = self.fresh("ex"), self.fresh("ey"), self.fresh("k")
        f.locals.append("%s %s[%d], %s[%d];" % (ctype, x, n, y, n))
        f.locals.append("int %s = 0;" % k)
        out.append("for (%s = 0; %s < %d; %s++) {" % (k, k, n, k))
        out.append("  %s[%s] = %s;" % (x, k, self.bounded(f, ctype, op).replace("rank", "(rank + %s)" % k, 1)))
        out.append("  %s[%s] = %s[%s];" % (y, k, x, k))
        out.append("}")
        lo = self.r.randint(0, n - 1)
        cond = self.pick(["%s < %d" % (k, n), "%s <= %d" % (k, n - 1), "%s < size %% %d + %d" % (k, n, 1)])
        kind = self.pick(["allreduce", "allreduce", "inplace", "reduce"])
        comm = self.pick(self.comms + ["MPI_COMM_WORLD"])
        if kind == "allreduce":
            call = "MPI_Allreduce(&%s[%s], &%s[%s], 1, %s, %s, %s)" % (x, k, y, k, mpitype, op, comm)
        elif kind == "inplace":
            call = "MPI_Allreduce(MPI_IN_PLACE, %s + %s, 1, %s, %s, %s)" % (y, k, mpitype, op, comm)
        else:
            call = "MPI_Reduce(&%s[%s], &%s[%s], 1, %s, %s, 0, %s)" % (x, k, y, k, mpitype, op, comm)
        out.append("for (%s = %d; %s; %s++)" % (k, lo, cond, k))
        out.append("  %s;" % call)
        out.append("mix(%s);" % k)
        out.append("for (%s = 0; %s < %d; %s++)" % (k, k, n, k))
        out.append("  mix((long)%s[%s]);" % (y, k))

    def split_helpers(self, f, out):
        """Helpers that end with one reduction whose result they return,
        called one after another (what helper fusion looks for)."""
        calls, uses = [], []
        for _ in range(self.r.randint(2, 3)):
            ctype = self.pick(list(TYPES))
            mpitype, ops = TYPES[ctype]
            op = self.pick(ops)
            h = Func(self.fresh("part"), ret=ctype, params="int k", static=self.chance(0.8))
            h.vars.append(Var("k", "int", readonly=True))
            s, g = self.fresh("s"), self.fresh("g")
            h.locals.append("%s %s = 0, %s = 0;" % (ctype, s, g))
            h.body = ["%s = %s;" % (s, self.bounded(h, ctype, op).replace("rank", "(rank + k)", 1)),
                      "MPI_Allreduce(&%s, &%s, 1, %s, %s, MPI_COMM_WORLD);" % (s, g, mpitype, op),
                      "return %s;" % g]
            self.funcs.append(h)
            v = self.local(f, ctype)
            call = "%s(%s)" % (h.name, self.pick(["rank", "size", "3"]))
            calls.append("%s = %s;" % (v.expr, call))
            uses.append(self.mix(v))
        out.extend(calls + uses)

    def out_params(self, f, out):
        """A helper whose consecutive reductions deliver through pointer
        parameters; the caller may pass the same object twice."""
        n = self.r.randint(2, 3)
        types = [self.pick(list(TYPES)) for _ in range(n)]
        params = ", ".join("%s *o%d" % (t, i) for i, t in enumerate(types))
        h = Func(self.fresh("outs"), params="int k, " + params, static=self.chance(0.8))
        h.vars.append(Var("k", "int", readonly=True))
        body, calls = [], []
        for i, t in enumerate(types):
            mpitype, ops = TYPES[t]
            op = self.pick(ops)
            x = self.fresh("x")
            h.locals.append("%s %s = 0;" % (t, x))
            body.append("%s = %s;" % (x, self.bounded(h, t, op).replace("rank", "(rank + k)", 1)))
            calls.append("MPI_Allreduce(&%s, o%d, 1, %s, %s, MPI_COMM_WORLD);" % (x, i, mpitype, op))
        h.body = body + calls
        self.funcs.append(h)
        targets = []
        for t in types:
            same = [v for v in targets if v.ctype == t]
            targets.append(self.pick(same) if same and self.chance(0.3) else self.target(f, t))
        out.append("%s(%s, %s);" % (h.name, self.pick(["rank", "size", "3"]), ", ".join(v.addr for v in targets)))
        for v in targets:
            out.append(self.mix(v))

    def planned_loop(self, f, out):
        """An MPI_Alltoallv, MPI_Alltoall, MPI_Allgatherv or MPI_Allgather of
        longs in a loop (what planned-collectives looks for): counts the same
        on every iteration, or recomputed in the loop (alike on every rank,
        so every pair still agrees); sometimes MPI_IN_PLACE; every block
        received is mixed in."""
        kind = self.pick(["alltoallv", "alltoall", "allgatherv"])
        gather = kind == "allgatherv" and self.ag.random() < 0.4  # MPI_Allgather: blocks of blk
        comm = self.pick([c for c in self.comms if c != "chalf"] + ["MPI_COMM_WORLD"])
        c, d, sb, rb, i, j = (self.fresh(p) for p in ("pc", "pd", "psb", "prb", "pi", "pj"))
        decl = "int %s[64], %s[64];" % (c, d)
        if self.chance(0.5) or f is None:
            self.globals.append("static " + decl)
        else:
            f.locals.append(decl)
        f.locals.append("long %s[256], %s[256];" % (sb, rb))
        f.locals.append("int %s = 0, %s = 0;" % (i, j))
        k = self.r.randint(0, 5)
        changes = self.chance(0.3)
        inplace = kind != "alltoall" and self.chance(0.3)
        # counts: symmetric in (rank, j) for the all-to-all, by j for the gather
        who = "rank + %s" % j if kind == "alltoallv" else j

        def recount(shift):
            return ["for (%s = 0; %s < size; %s++) %s[%s] = 1 + (%s + %s) %% 3;" % (j, j, j, c, j, who, shift),
                    "for (%s = 1, %s[0] = 0; %s < size; %s++) %s[%s] = %s[%s - 1] + %s[%s - 1];"
                    % (j, d, j, j, d, j, d, j, c, j)]
        out.extend(recount(str(k)))
        out.append("for (%s = 0; %s < 256; %s++) %s[%s] = 0;" % (j, j, j, rb, j))
        bound = self.pick(["3", "size + 1", "argc_copy + 2"])
        out.append("for (%s = 0; %s < %s; %s++) {" % (i, i, bound, i))
        if changes:
            out.extend("  " + l for l in recount("%d + %s" % (k, i)))
        blk = self.r.randint(1, 3)
        # A block that changes every other iteration where the counts change:
        # MPI_Alltoall and MPI_Allgather go to the scalar-keyed plan cache.
        cnt = "(1 + %s / 2 %% %d)" % (i, blk) if changes else str(blk)
        if kind == "alltoall":
            fill = "for (%s = 0; %s < size * %d; %s++) %s[%s] = (rank * 31 + %s + %s) %% 97;" % (
                j, j, blk, j, sb, j, j, i)
        elif kind == "alltoallv":
            fill = "for (%s = 0; %s < %s[size - 1] + %s[size - 1]; %s++) %s[%s] = (rank * 31 + %s + %s) %% 97;" % (
                j, j, d, c, j, sb, j, j, i)
        elif gather:
            fill = "for (%s = 0; %s < %s; %s++) %s[%s + %s] = (rank * 31 + %s + %s) %% 97;" % (
                j, j, cnt, j, rb if inplace else sb, ("rank * %s" % cnt) if inplace else "0", j, j, i)
        else:
            fill = "for (%s = 0; %s < %s[rank]; %s++) %s[%s + %s] = (rank * 31 + %s + %s) %% 97;" % (
                j, j, c, j, rb if inplace else sb, (d + "[rank]") if inplace else "0", j, j, i)
        out.append("  " + fill)
        if kind == "alltoall":
            call = "MPI_Alltoall(%s, %s, MPI_LONG, %s, %s, MPI_LONG, %s)" % (sb, cnt, rb, cnt, comm)
            total = "size * %s" % cnt
        elif kind == "alltoallv":
            src = "MPI_IN_PLACE" if inplace else sb
            if inplace:
                out.append("  for (%s = 0; %s < 256; %s++) %s[%s] = %s[%s];" % (j, j, j, rb, j, sb, j))
            call = "MPI_Alltoallv(%s, %s, %s, MPI_LONG, %s, %s, %s, MPI_LONG, %s)" % (
                src, c, d, rb, c, d, comm)
            total = "%s[size - 1] + %s[size - 1]" % (d, c)
        elif gather:
            src = "MPI_IN_PLACE, 0, MPI_DATATYPE_NULL" if inplace else "%s, %s, MPI_LONG" % (sb, cnt)
            call = "MPI_Allgather(%s, %s, %s, MPI_LONG, %s)" % (src, rb, cnt, comm)
            total = "size * %s" % cnt
            if inplace:
                out.append("  (void)%s;" % sb)
        else:
            if inplace:
                call = "MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, %s, %s, %s, MPI_LONG, %s)" % (
                    rb, c, d, comm)
            else:
                call = "MPI_Allgatherv(%s, %s[rank], MPI_LONG, %s, %s, %s, MPI_LONG, %s)" % (sb, c, rb, c, d, comm)
            total = "%s[size - 1] + %s[size - 1]" % (d, c)
        out.append("  " + self.call_text(call))
        if self.chance(0.2):
            out.append("  if (%s == 1) %s;" % (i, self.pick(["continue", "break"])))
        out.append("  for (%s = 0; %s < %s; %s++) mix(%s[%s]);" % (j, j, total, j, rb, j))
        out.append("}")
        out.append("mix(%s);" % i)

    def reduce_in_place_root(self, f, out):
        """MPI_IN_PLACE at the root, the send buffer elsewhere (the OSU shape)."""
        ctype = self.pick(list(TYPES))
        mpitype, ops = TYPES[ctype]
        op = self.pick(ops)
        vs = [self.local(f, ctype) for _ in range(self.r.randint(1, 3))]
        for v in vs:
            out.append("%s = %s;" % (v.expr, self.bounded(f, ctype, op)))
        out.append("if (rank == 0) {")
        for v in vs:
            out.append("  MPI_Reduce(MPI_IN_PLACE, &%s, 1, %s, %s, 0, MPI_COMM_WORLD);" % (v.expr, mpitype, op))
        out.append("} else {")
        for v in vs:
            out.append("  MPI_Reduce(&%s, &%s, 1, %s, %s, 0, MPI_COMM_WORLD);" % (v.expr, v.expr, mpitype, op))
        out.append("}")
        for v in vs:
            out.append(self.mix(v))
        if self.vr.random() < 0.3:
            self.large_reduce(out)

    def large_reduce(self, out):
        """A large-vector reduction (64 KiB and more, integer values, exact in
        any order; sometimes mostly zeros): MPI_Allreduce on every rank, or
        MPI_Reduce as the root's and the others' calls in the two arms of an
        if (NULL for the others' result), the root 0, the last rank, or one
        that moves with a loop counter; MPI_IN_PLACE at root 0 only (MPICH
        4.0's own MPI_Reduce with it at another root crashes from some
        size)."""
        g = self.vr
        ctype = g.choice(["int", "long", "double"])
        mpitype = TYPES[ctype][0]
        op = g.choice(["MPI_MAX", "MPI_MIN"] if ctype == "double" else ["MPI_SUM", "MPI_MAX", "MPI_MIN", "MPI_BOR"])
        n = g.choice([17000, 20000, 24000])
        a, b, i = self.fresh("lv"), self.fresh("lr"), self.fresh("li")
        self.globals.append("static %s %s[%d], %s[%d];" % (ctype, a, n, b, n))
        zeros = g.choice([0, 0, 13])
        fill = "(%s)((%s * %d + rank) %% 29)" % (ctype, i, g.randint(1, 7))
        if zeros:
            fill = "(%s %% %d == 0 ? %s : (%s)0)" % (i, zeros, fill, ctype)
        out.append("for (int %s = 0; %s < %d; %s++) %s[%s] = %s;" % (i, i, n, i, a, i, fill))
        kind = g.randint(0, 3)
        if kind == 0:
            out.append("MPI_Allreduce(%s, %s, %d, %s, %s, MPI_COMM_WORLD);" % (a, b, n, mpitype, op))
            out.append("for (int %s = 0; %s < %d; %s += 97) mix((long)%s[%s]);" % (i, i, n, i, b, i))
            return
        loop = kind == 3
        root = ["0", "size - 1", "%s_s %% size" % i][kind - 1]
        if loop:
            out.append("for (int %s_s = 0; %s_s < 3; %s_s++) {" % (i, i, i))
        inplace = root == "0" and g.random() < 0.5
        res = a if inplace else b
        out.append("if (rank == %s)" % root)
        out.append("  MPI_Reduce(%s, %s, %d, %s, %s, %s, MPI_COMM_WORLD);"
                   % ("MPI_IN_PLACE" if inplace else a, res, n, mpitype, op, root))
        out.append("else")
        out.append("  MPI_Reduce(%s, NULL, %d, %s, %s, %s, MPI_COMM_WORLD);" % (a, n, mpitype, op, root))
        out.append("if (rank == %s) for (int %s = 0; %s < %d; %s += 97) mix((long)%s[%s]);"
                   % (root, i, i, n, i, res, i))
        if inplace:  # the root's data is its result now: the same on every rank again
            out.append("for (int %s = 0; %s < %d; %s++) %s[%s] = %s;" % (i, i, n, i, a, i, fill))
        if loop:
            out.append("}")

    # --- the program --------------------------------------------------------
    def program(self):
        main = Func("main", ret="int", params="int argc, char **argv")
        body = []
        split = self.chance(0.4)
        dup = self.chance(0.4)
        if dup:
            main.locals.append("MPI_Comm cdup;")
            body.append("MPI_Comm_dup(MPI_COMM_WORLD, &cdup);")
            self.comms.append("cdup")
        if split:
            main.locals.append("MPI_Comm chalf;")
            body.append("MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &chalf);")
            self.comms.append("chalf")
        n = self.r.randint(3, 9)
        # Helpers may use the communicators only through main: keep them out.
        comms = self.comms
        self.block(main, body, n)
        for c in comms[1:]:
            body.append("MPI_Comm_free(&%s);" % c)
            if self.chance(0.5):
                # after the free: more work on the world
                self.comms = ["MPI_COMM_WORLD"]
                self.block(main, body, self.r.randint(1, 2))
        self.main_body = body
        self.main = main
        return self.render()

    def render(self):
        L = []
        L.append("/* generated by test/fuzz/gen.py, seed %d */" % self.seed)
        L.append("#include <mpi.h>")
        L.append("#include <stdio.h>")
        L.append("#include <stdlib.h>")
        L.append("#include <string.h>")
        L.append("#define CHECK(call) do { if ((call) != MPI_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 2); } while (0)")
        L.append("#define ALLRED(s, r, n, t, o, c) MPI_Allreduce(s, r, n, t, o, c)")
        L.append("static int rank, size, rc, argc_copy;")
        L.append("static unsigned long trace;")
        L.append("static void mix(long v) { trace = trace * 1000003UL + (unsigned long)v; }")
        L.append("static __attribute__((unused)) void *xalloc(size_t n) { void *p = malloc(n); if (!p) MPI_Abort(MPI_COMM_WORLD, 3); return p; }")
        L.extend(self.globals)
        for name in sorted(self.wrappers):
            L.extend(self.wrappers[name])
        for h in self.funcs:
            L.append("%s%s %s(%s);" % ("static " if h.static else "", h.ret, h.name, h.params))
        for h in self.funcs:
            L.append("%s%s %s(%s) {" % ("static " if h.static else "", h.ret, h.name, h.params))
            L.extend("  " + d for d in h.locals)
            L.append("  (void)k;")
            L.extend("  " + l for l in h.body)
            L.append("}")
        m = self.main
        L.append("int main(int argc, char **argv) {")
        L.extend("  " + d for d in m.locals)
        L.append("  MPI_Init(&argc, &argv);")
        L.append("  MPI_Comm_rank(MPI_COMM_WORLD, &rank);")
        L.append("  MPI_Comm_size(MPI_COMM_WORLD, &size);")
        L.append("  argc_copy = argc;")
        L.append("  (void)argv;")
        L.extend("  " + l for l in self.main_body)
        for v in m.vars + self.gvars:
            L.append("  " + self.mix(v))
        L.append("  {")
        L.append("    unsigned long all[64];")
        L.append("    MPI_Gather(&trace, 1, MPI_UNSIGNED_LONG, all, 1, MPI_UNSIGNED_LONG, 0, MPI_COMM_WORLD);")
        L.append("    for (int r = 0; rank == 0 && r < size && r < 64; r++)")
        L.append('      printf("rank %d: %lu\\n", r, all[r]);')
        L.append("  }")
        L.append("  MPI_Finalize();")
        L.append("  return 0;")
        L.append("}")
        return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    text = Gen(a.seed).program()
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
