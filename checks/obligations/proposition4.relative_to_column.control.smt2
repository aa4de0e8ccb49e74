; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.relative_to_column
; statement:  the shear maps relative kernels r(i-j) to column kernels r(j), and column kernels to relative ones
; obligation: control (a general kernel κ(i, j) in place of a relative one): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun i () Int)
(declare-fun j () Int)
(declare-fun i2 () Int)
(declare-fun kappa (Int Int) Real)
(assert
 (let (($x1 (>= j 0)))
 (and $x1 (<= j i))))
(assert
 (let (($x1 (>= j 0)))
 (and $x1 (<= j i2))))
(assert
 (and (distinct (kappa i (- i j)) (kappa i2 (- i2 j))) true))
(assert
 (<= i 12))
(assert
 (<= i2 12))
(check-sat)
