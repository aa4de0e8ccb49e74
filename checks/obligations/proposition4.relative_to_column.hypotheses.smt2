; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.relative_to_column
; statement:  the shear maps relative kernels r(i-j) to column kernels r(j), and column kernels to relative ones
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun i () Int)
(declare-fun j () Int)
(declare-fun i2 () Int)
(assert
 (let (($x1 (>= j 0)))
 (and $x1 (<= j i))))
(assert
 (let (($x1 (>= j 0)))
(and $x1 (<= j i2))))
(check-sat)
