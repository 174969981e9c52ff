// --diff=html: one self-contained page per file, the two panes in one table
// (changed blocks aligned row by row), C highlighting (by the page's script,
// from the cells' plain text), the notes under each
// block, and the summary (calls by function, collectives per loop
// iteration, templates). -o DIR/ writes a page per file and an index;
// --html-dir adds pages to a directory whatever else is written.
// RUN: rm -rf %t.d && mkdir -p %t.d && cp %s %t.d/diff-html.c && cp %inputs/unchanged.c %t.d/unchanged.c
// RUN: cd %t.d && %ompi-opt --diff=html diff-html.c -- %mpich_cflags > %t.html
// RUN: FileCheck --match-full-lines --check-prefix=PAGE %s < %t.html
// No network: nothing is loaded from elsewhere.
// RUN: not grep -E "(src|href)=.(https?:)?//" %t.html
// An unchanged file: the page says so and has no note.
// RUN: cd %t.d && %ompi-opt --diff=html unchanged.c -- %mpich_cflags | FileCheck --match-full-lines --check-prefix=SAME %s
// A directory: a page per file and the index.
// RUN: cd %t.d && %ompi-opt --diff=html -o report/ diff-html.c unchanged.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=INDEX %s < %t.d/report/index.html
// RUN: diff %t.html %t.d/report/diff-html.c.html
// Beside each page, the summary the index is built from (never the page):
// RUN: FileCheck --match-full-lines --check-prefix=SIDE %s < %t.d/report/diff-html.c.html.json
// SIDE:{"blocks":1,"changes":1,"declined":0,"deferred":0,"fused":2,"mpi_calls_after":1,"mpi_calls_before":2,"path":"diff-html.c","planned":0,"removed":1,"templates":0}
// --html-dir beside another output (what ompi-cc --ompi-diff=DIR uses); the
// index lists the pages of earlier runs too:
// RUN: cd %t.d && %ompi-opt --html-dir=more diff-html.c -o out.c -- %mpich_cflags
// RUN: cd %t.d && %ompi-opt --html-dir=more unchanged.c -o out2.c -- %mpich_cflags
// RUN: FileCheck --match-full-lines --check-prefix=INDEX %s < %t.d/more/index.html
// RUN: not %ompi-opt --diff=html %s %inputs/unchanged.c -- %mpich_cflags 2>&1 | FileCheck --check-prefix=TWO %s
// The #line directives of --line-directives (the text ompi-cc compiles) are
// dimmed in the transformed pane; long lines wrap between tokens (the
// script adds a break after ',', ';', '(' and '{'), inside a name only when the name
// alone is wider than the pane:
// RUN: cd %t.d && %ompi-opt --line-directives --html-dir=lines diff-html.c -o out3.c -- %mpich_cflags
// RUN: FileCheck --check-prefix=LINES %s < %t.d/lines/diff-html.c.html
// RUN: not grep -q 'word-break:[b]reak-all' %t.d/lines/diff-html.c.html
// LINES: tr.line>td:nth-child(even){white-space:pre-wrap;overflow-wrap:anywhere;padding:0 8px;vertical-align:top}
// LINES-NEXT: tr.line>td.ld{opacity:.4}
// LINES: <td>[[#]]</td><td class=ld title="#line: keeps the original line numbers">#line [[#]]</td></tr>
// LINES: '<wbr>'

// PAGE:<!doctype html>
// PAGE:<title>ompi-opt: diff-html.c</title>
// PAGE:<header><h1>ompi-opt: diff-html.c</h1><p>1 changed block, 1 change explained below; MPI calls 2 &rarr; 1 (1 removed by fusing 2 into 1). Keys: n / p jump to the next / previous change.</p></header>
// PAGE-NEXT:<div id=summary>
// PAGE-NEXT:<section><h2>Calls by function</h2><table><tr><th>function</th><th>before</th><th>after</th></tr>
// PAGE-NEXT:<tr><td>MPI_Allreduce</td><td>2</td><td class=better>1</td></tr>
// PAGE-NEXT:</table></section>
// PAGE-NEXT:<section><h2>Collectives per loop iteration</h2><table><tr><th>loop</th><th>before</th><th>after</th></tr>
// PAGE-NEXT:<tr><td>f, line [[#LOOP:]]</td><td>2</td><td class=better>1</td></tr>
// PAGE-NEXT:</table></section>
// PAGE-NEXT:<section><h2>Templates chosen</h2><p>none</p></section>
// PAGE-NEXT:<section><h2>Planned collectives</h2><p>none</p></section>
// PAGE-NEXT:<section><h2>Declined (0)</h2><p>none</p></section>
// PAGE-NEXT:</div>
// PAGE-NEXT:<table class=diff><colgroup><col class=ln><col><col class=ln><col></colgroup>
// PAGE-NEXT:<thead><tr><th class=pane colspan=2>original: diff-html.c</th><th class=pane colspan=2>transformed</th></tr></thead>
// The unchanged lines before the loop are folded, their plain text once
// (the script builds their rows when the fold first opens):
// PAGE:<tbody><tr class=fold data-body=f0 data-label="{{[0-9]+}} unchanged lines"><td colspan=4>&#9656; {{[0-9]+}} unchanged lines</td></tr></tbody>
// PAGE-NEXT:<tbody id=f0 hidden><tr class=raw data-i=1 data-j=1><td colspan=4>// --diff=html: one self-contained page per file, the two panes in one table
// A line that begins inside a block comment is marked for the script
// (which highlights one cell at a time):
// PAGE:<tr class=line><td>[[#LOOP-1]]</td><td class=ic>     fused */</td><td>[[#LOOP-1]]</td><td class=same></td></tr>
// An unchanged line holds its text once; the script fills the right pane:
// PAGE:<tr class=line><td>[[#LOOP]]</td><td>  for (int i = 0; i &lt; n; i++) {</td><td>[[#LOOP]]</td><td class=same></td></tr>
// PAGE-NEXT:</tbody>
// PAGE-NEXT:<tbody id=c1><tr class="line chg first"><td>[[#LOOP+1]]</td><td>    MPI_Allreduce(&amp;a, &amp;b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);</td><td>[[#LOOP+1]]</td><td>    double mpiopt_fuse1_buf[2];</td></tr>
// PAGE-NEXT:<tr class="line chg"><td>[[#LOOP+2]]</td><td>    MPI_Allreduce(&amp;c, &amp;d, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);</td><td>[[#LOOP+2]]</td><td>    __builtin_memcpy(&amp;mpiopt_fuse1_buf[0], &amp;a, 1 * sizeof(double));</td></tr>
// The original pane has no line where the transformed one has more:
// PAGE-NEXT:<tr class="line chg"><td class=e></td><td class=e></td><td>[[#LOOP+3]]</td><td>    { /* ompi-opt: 2 MPI_Allreduce calls (lines [[#LOOP+1]], [[#LOOP+2]]) fused into one */</td></tr>
// PAGE:<tr class="line chg"><td class=e></td><td class=e></td><td>[[#LOOP+8]]</td><td>    }</td></tr>
// PAGE-NEXT:<tr class=note><td colspan=4><div class=note><b>reduction-fusion</b> (line [[#LOOP+2]]): fused 2 MPI_Allreduce calls (lines [[#LOOP+1]], [[#LOOP+2]]) into one of 2 x MPI_DOUBLE with MPI_SUM on MPI_COMM_WORLD<span class=why>why it is safe: same communicator, op and datatype; distinct buffers (&amp;a -&gt; &amp;b, &amp;c -&gt; &amp;d); nothing in between</span><span class=saves>saves: 1 collective per execution</span></div></td></tr>
// PAGE-NEXT:</tbody>
// PAGE-NEXT:<tbody><tr class=line><td>[[#LOOP+3]]</td><td>  }</td><td>[[#LOOP+9]]</td><td class=same></td></tr>
// PAGE:</table>
// PAGE-NEXT:<script>
// PAGE:</body></html>

// SAME:<header><h1>ompi-opt: unchanged.c</h1><p>0 changed blocks, 0 changes explained below; MPI calls 1 &rarr; 1 (none changed). Keys: n / p jump to the next / previous change.</p></header>
// SAME:<tr><td>MPI_Allreduce</td><td>1</td><td>1</td></tr>
// SAME-NOT:<tr class=note>
// SAME-NOT:<tr class="line chg
// SAME:<script>

// INDEX:<header><h1>ompi-opt: project report</h1><p>2 files, 1 change; MPI calls 3 &rarr; 2</p></header>
// INDEX-NEXT:<table class=idx><tr><th>file</th><th>changed blocks</th><th>changes</th><th>MPI calls before</th><th>after</th></tr>
// INDEX-NEXT:<tr><td><a href="diff-html.c.html">diff-html.c</a></td><td>1</td><td>1</td><td>2</td><td class=better>1</td></tr>
// INDEX-NEXT:<tr><td><a href="unchanged.c.html">unchanged.c</a></td><td>0</td><td>0</td><td>1</td><td>1</td></tr>
// INDEX-NEXT:</table>
// TWO:ompi-opt: error: --diff=html with several files writes a page per file: give -o DIR/

#include <mpi.h>

double a, b, c, d;

void f(int n) {
  /* two sums,
     fused */
  for (int i = 0; i < n; i++) {
    MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&c, &d, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
}
