; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.key_set_onto
; statement:  the shear maps each row's key set {0..i} onto itself
; obligation: encoding (quantified): hypotheses ∧ ¬conclusion
; expected:   unsat — the statement holds
; decide:     z3 -t:20000 FILE   or   cvc5 --enum-inst --tlimit-per=20000 FILE
(set-info :status unsat)
(set-logic ALL)
(declare-fun i () Int)
(declare-fun k () Int)
(declare-fun j () Int)
(assert
 (>= i 0))
(assert
 (let (($x1 (forall ((j Int) )(=> (and (>= j 0) (<= j i)) (and (distinct (- i j) k) true)))
))
(let (($x2 (and (and (>= j 0) (<= j i)) (not (and (>= (- i j) 0) (<= (- i j) i))))))
(or $x2 (and (and (>= k 0) (<= k i)) $x1)))))
(check-sat)
