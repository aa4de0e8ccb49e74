; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.relative_to_column
; statement:  the shear maps relative kernels r(i-j) to column kernels r(j), and column kernels to relative ones
; obligation: encoding (quantifier-free): hypotheses ∧ ¬conclusion
; expected:   unsat — the statement holds
; decide:     z3 -t:20000 FILE   or   cvc5 --enum-inst --tlimit-per=20000 FILE
(set-info :status unsat)
(set-logic ALL)
(declare-fun a (Int) Real)
(declare-fun k () Int)
(declare-fun i2 () Int)
(declare-fun j () Int)
(declare-fun i () Int)
(declare-fun r (Int) Real)
(assert
 (let (($x1 (>= j 0)))
(let (($x2 (and $x1 (<= j i))))
(let (($x3 (and $x2 (and (>= k 0) (<= k i2)) (= (- i j) (- i2 k)) (and (distinct (a (- i j)) (a (- i2 k))) true))))
(let (($x4 (and $x2 (and $x1 (<= j i2)) (and (distinct (r (- i (- i j))) (r (- i2 (- i2 j)))) true))))
(or $x4 $x3))))))
(check-sat)
